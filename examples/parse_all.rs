fn main() {
    let root = std::path::Path::new("/work/shared/data/refactoring-oracle");
    let mut files = Vec::new();
    for e in ignore::WalkBuilder::new(root).build().flatten() {
        if e.path().extension().is_some_and(|x| x == "java") {
            files.push(std::fs::read_to_string(e.path()).unwrap_or_default());
        }
    }
    let bytes: usize = files.iter().map(|f| f.len()).sum();
    let t = std::time::Instant::now();
    let mut errs = 0;
    for f in &files {
        let s = mantra::java::SourceFile::parse("x.java", f.clone());
        if s.root().has_error() {
            errs += 1;
        }
    }
    let p = t.elapsed();
    let t = std::time::Instant::now();
    for f in &files {
        let s = mantra::java::SourceFile::parse("x.java", f.clone());
        let _ = mantra::java::symbols::extract(&s);
    }
    eprintln!(
        "{} files {} MB parse {:?} parse+symbols {:?} errors {}",
        files.len(),
        bytes / 1_000_000,
        p,
        t.elapsed(),
        errs
    );
}
