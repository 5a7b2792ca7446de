//! Small hand-written before/after pairs, one per refactoring type, with the pure flag and validate().

use super::*;

mod calls;
mod conditionals;
mod expressions;
mod extract;
mod moves;
mod purity;
mod renames;
mod validate;

pub(super) fn snap(files: &[(&str, &str)]) -> Snapshot {
    Snapshot::from_files(files.iter().map(|(p, t)| (p.to_string(), t.to_string())))
}

pub(super) fn descriptions(found: &[Refactoring]) -> Vec<String> {
    found.iter().map(|r| r.description.clone()).collect()
}

pub(super) const INVOICE_BEFORE: &str = r#"package shop;

public class Invoice {
    private String name;
    private double amount;

    public void print() {
        System.out.println("**********");
        System.out.println("* Invoice *");
        System.out.println("**********");
        System.out.println("name: " + name);
        System.out.println("amount: " + amount);
    }
}
"#;

pub(super) const INVOICE_AFTER: &str = r#"package shop;

public class Invoice {
    private String name;
    private double amount;

    public void print() {
        printBanner();
        System.out.println("name: " + name);
        System.out.println("amount: " + amount);
    }

    private void printBanner() {
        System.out.println("**********");
        System.out.println("* Invoice *");
        System.out.println("**********");
    }
}
"#;
