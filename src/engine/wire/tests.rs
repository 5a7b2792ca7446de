use super::*;
use crate::java::project::tests::project;

/// Wires the lines of `Shop.java` holding the first and last line containing `// paste`.
fn wire_shop(text: &str) -> (Wiring, String) {
    let (_d, p) = project(&[("src/main/java/a/Shop.java", text), ("src/main/java/a/Item.java", ITEM)]);
    let file = p.file_id(std::path::Path::new("src/main/java/a/Shop.java")).expect("file");
    let lines: Vec<usize> =
        text.lines().enumerate().filter(|(_, l)| l.contains("// paste")).map(|(i, _)| i + 1).collect();
    let w = wire(&p, file, lines[0], *lines.last().expect("marked lines")).expect("wires");
    let out = w.changes(&p, file).expect("changes").render().expect("renders");
    let after = out.values().next().cloned().unwrap_or_else(|| text.to_string());
    (w, after)
}

const ITEM: &str = "package a;\npublic class Item {\n  private int price;\n  public int getPrice() { return price; }\n  \
                    public String getName() { return \"\"; }\n}\n";

fn bound<'w>(w: &'w Wiring, name: &str) -> Option<&'w str> {
    w.bindings
        .iter()
        .find(|b| b.name == name)
        .unwrap_or_else(|| panic!("{name} is not unresolved: {w:#?}"))
        .bound
        .as_deref()
}

#[test]
fn binds_a_local_by_type_and_name() {
    let (w, after) = wire_shop(
        "package a;\nimport java.util.List;\nclass Shop {\n  int total(List<Item> items) {\n    int sum = 0;\n    \
         for (Item i : lines) { sum += i.getPrice(); } // paste\n    return sum;\n  }\n}\n",
    );
    assert_eq!(bound(&w, "lines"), Some("items"), "{w:#?}");
    assert!(after.contains("for (Item i : items)"), "{after}");
}

#[test]
fn binds_an_argument_by_the_parameter_type_of_a_known_method() {
    let (w, _) = wire_shop(
        "package a;\nclass Shop {\n  void log(Item item) {}\n  void run(String label, Item current) {\n    \
         log(it); // paste\n  }\n}\n",
    );
    assert_eq!(bound(&w, "it"), Some("current"), "{w:#?}");
}

#[test]
fn binds_a_field_and_an_outer_field() {
    let (w, after) = wire_shop(
        "package a;\nclass Shop {\n  private final java.util.List<Item> stock = null;\n  class Clerk {\n    \
         int count() {\n      return stockItems.size(); // paste\n    }\n  }\n}\n",
    );
    assert_eq!(bound(&w, "stockItems"), Some("stock"), "{w:#?}");
    assert!(after.contains("return stock.size();"), "{after}");
}

#[test]
fn binds_a_getter_when_no_variable_fits() {
    let (w, _) = wire_shop(
        "package a;\nclass Shop {\n  Item current;\n  int price(Item other) { return 0; }\n  Item getSelected() { return current; }\n  \
         void run(String label) {\n    int p = price(selected); // paste\n  }\n}\n",
    );
    let b = w.bindings.iter().find(|b| b.name == "selected").expect("selected");
    assert!(b.candidates.iter().any(|c| c.expr == "getSelected()"), "{w:#?}");
    assert_eq!(b.bound.as_deref(), Some("getSelected()"), "{w:#?}");
}

#[test]
fn leaves_a_name_unbound_when_nothing_fits() {
    let (w, after) = wire_shop(
        "package a;\nclass Shop {\n  void run(String label) {\n    boolean ok = !enabled; // paste\n  }\n}\n",
    );
    assert_eq!(bound(&w, "enabled"), None, "{w:#?}");
    assert!(after.contains("!enabled"), "{after}");
    assert_eq!(w.unbound().count(), 1);
}

#[test]
fn leaves_a_name_unbound_when_two_candidates_tie() {
    let (w, _) =
        wire_shop("package a;\nclass Shop {\n  void run(int a, int b) {\n    int c = x + 1; // paste\n  }\n}\n");
    assert_eq!(bound(&w, "x"), None, "{w:#?}");
    assert!(w.bindings[0].reason.contains("too"), "{w:#?}");
}

#[test]
fn names_declared_in_the_paste_and_types_are_not_unresolved() {
    let (w, _) = wire_shop(
        "package a;\nclass Shop {\n  void run(java.util.List<String> names) {\n    \
         StringBuilder sb = new StringBuilder(); // paste\n    for (String n : names) { sb.append(Math.max(1, n.length())); } // paste\n  }\n}\n",
    );
    assert!(w.bindings.is_empty(), "{w:#?}");
}

#[test]
fn two_names_are_not_bound_to_one_variable() {
    let (w, _) = wire_shop(
        "package a;\nclass Shop {\n  int add(Item first, Item second) { return 0; }\n  void run(Item left, Item right) {\n    \
         int s = add(leftItem, rightItem); // paste\n  }\n}\n",
    );
    assert_eq!(bound(&w, "leftItem"), Some("left"), "{w:#?}");
    assert_eq!(bound(&w, "rightItem"), Some("right"), "{w:#?}");
}

#[test]
fn a_pasted_whole_method_is_wired_on_its_body() {
    let (w, after) = wire_shop(
        "package a;\nimport java.util.List;\nclass Shop {\n  private List<Item> stock;\n  \
         int count() { // paste\n    return stockItems.size(); // paste\n  } // paste\n}\n",
    );
    assert_eq!(bound(&w, "stockItems"), Some("stock"), "{w:#?}");
    assert_eq!(w.method, "Shop.count()");
    assert!(after.contains("return stock.size();"), "{after}");
}

#[test]
fn refuses_lines_outside_a_method() {
    let text = "package a;\nclass Shop {\n  int x = y;\n}\n";
    let (_d, p) = project(&[("src/main/java/a/Shop.java", text)]);
    let file = p.file_id(std::path::Path::new("src/main/java/a/Shop.java")).expect("file");
    assert_eq!(wire(&p, file, 3, 3).unwrap_err().reason, Reason::LinesOutsideMethod);
    assert_eq!(wire(&p, file, 3, 9).unwrap_err().reason, Reason::InvalidLines);
}

#[test]
fn similarity_reads_words_abbreviations_and_edits() {
    use choose::similarity;
    assert_eq!(similarity("order", "order"), 1.0);
    assert!(similarity("o", "order") > 0.0);
    assert!(similarity("sb", "stringBuilder") > 0.0);
    // A word without its vowels abbreviates it; a word that merely shares letters does not.
    assert!(similarity("fmt", "format") >= 0.5, "{}", similarity("fmt", "format"));
    assert!(similarity("idx", "index") >= 0.5 && similarity("msg", "message") >= 0.5);
    assert!(similarity("fmt", "fileMtime") < 0.5 && similarity("top", "temporary") == 0.0);
    assert!(similarity("lineItems", "items") >= 0.5);
    assert!(similarity("selected", "getSelected") == 1.0);
    assert_eq!(similarity("count", "label"), 0.0);
    // One letter that makes another head noun is another name, however close the spelling.
    assert!(similarity("w3cDoc", "w3cDom") < 0.5, "{}", similarity("w3cDoc", "w3cDom"));
    assert!(similarity("userName", "userNames") > 0.7);
    // A single letter is weaker evidence than the initials of several words.
    assert!(similarity("i", "index") < similarity("sb", "stringBuilder"));
    // Names that each add their own modifier to shared words are less alike than a name and its
    // refinement.
    assert!(similarity("commonInputPath", "fullInputPath") < 0.5, "{}", similarity("commonInputPath", "fullInputPath"));
    assert!(similarity("inputPath", "fullInputPath") > similarity("commonInputPath", "fullInputPath"));
    assert!(similarity("fencingPath", "fencingNodePath") > 0.6);
    // A number in common names nothing in common; beside a shared word it counts.
    assert_eq!(similarity("d2", "y2"), 0.0);
    assert!(similarity("item2", "item2s") > 0.0);
    // Beside shared words, one letter abbreviates the word it starts, head noun included.
    assert!(similarity("minDrawW", "minDrawWidth") > 0.8, "{}", similarity("minDrawW", "minDrawWidth"));
    assert!(similarity("minDrawW", "minDrawWidth") > similarity("minDrawW", "minDrawHeight") + 0.5);
}

#[test]
fn binds_the_object_itself_for_code_written_on_a_variable_of_its_class() {
    // Code written on a `shop` pasted into a method of `Shop`: the object is `this`.
    let (w, after) = wire_shop(
        "package a;\nclass Shop {\n  int count;\n  int size() { return count; }\n  void run(Item item) {\n    \
         int n = shop.size(); // paste\n  }\n}\n",
    );
    assert_eq!(bound(&w, "shop"), Some("this"), "{w:#?}");
    assert!(after.contains("int n = this.size();"), "{after}");
    // A name unlike the class's is not the object.
    let (w, _) = wire_shop(
        "package a;\nclass Shop {\n  int count;\n  int size() { return count; }\n  void run(Item item) {\n    \
         int n = store.size(); // paste\n  }\n}\n",
    );
    assert_ne!(bound(&w, "store"), Some("this"), "{w:#?}");
    // Nor in a static method, which has no object.
    let (w, _) = wire_shop(
        "package a;\nclass Shop {\n  int count;\n  int size() { return count; }\n  static void run(Item item) {\n    \
         int n = shop.size(); // paste\n  }\n}\n",
    );
    assert_ne!(bound(&w, "shop"), Some("this"), "{w:#?}");
}

#[test]
fn binds_a_call_the_file_makes_on_a_library_typed_variable() {
    // `request` is of a type the project does not declare; the file calls `request.getUserName()`
    // elsewhere, which is the evidence that the method exists.
    let text = "package a;\nimport org.lib.Request;\nclass Shop {\n  void greet(Request request) {\n    \
                System.out.println(request.getUserName());\n  }\n  void run(Request request, String label) {\n    \
                System.out.println(userName + label); // paste\n  }\n}\n";
    let (w, after) = wire_shop(text);
    assert_eq!(bound(&w, "userName"), Some("request.getUserName()"), "{w:#?}");
    assert!(after.contains("System.out.println(request.getUserName() + label);"), "{after}");
    let b = w.bindings.iter().find(|b| b.name == "userName").expect("userName");
    assert!(b.reason.contains("the file calls it (line 5)"), "{}", b.reason);
    // A one-word method (`size()`) is too common to point at one receiver.
    let text = "package a;\nimport org.lib.Request;\nclass Shop {\n  void greet(Request request) {\n    \
                System.out.println(request.size());\n  }\n  void run(Request request, String label) {\n    \
                System.out.println(size + label); // paste\n  }\n}\n";
    let (w, _) = wire_shop(text);
    assert_eq!(bound(&w, "size"), None, "{w:#?}");
}

#[test]
fn a_plus_that_may_concatenate_does_not_ask_for_a_number() {
    // `println(head + n)` may join text: `head` can be the String parameter, not the int field.
    let (w, _) = wire_shop(
        "package a;\nclass Shop {\n  int count;\n  void run(String heading) {\n    int n = 3;\n    \
         System.out.println(head + n); // paste\n  }\n}\n",
    );
    assert_eq!(bound(&w, "head"), Some("heading"), "{w:#?}");
    // Where only a number fits (an operand of `*`), the sum still asks for one.
    let (w, _) = wire_shop(
        "package a;\nclass Shop {\n  int count;\n  void run(String heading) {\n    int n = 3;\n    \
         int total = (head + n) * 2; // paste\n  }\n}\n",
    );
    let b = w.bindings.iter().find(|b| b.name == "head").expect("head");
    assert!(b.needs.contains("int"), "{b:#?}");
    assert!(b.candidates.iter().all(|c| c.expr != "heading"), "a String cannot be added to make an int: {b:#?}");
}

#[test]
fn a_plural_name_is_not_bound_to_a_singular_variable_by_its_name() {
    // `pendingItems` names a collection; `pendingItem` one element of it, not what was meant.
    let (w, _) = wire_shop(
        "package a;\nclass Shop {\n  void ship(Object o) {}\n  void run(Item pendingItem, Item other) {\n    \
         ship(pendingItems); // paste\n  }\n}\n",
    );
    assert_eq!(bound(&w, "pendingItems"), None, "{w:#?}");
    let (w, _) = wire_shop(
        "package a;\nclass Shop {\n  void ship(Object o) {}\n  void run(Item pendingItem, Item other) {\n    \
         ship(pendingItm); // paste\n  }\n}\n",
    );
    assert_eq!(bound(&w, "pendingItm"), Some("pendingItem"), "{w:#?}");
}

#[test]
fn a_variable_bound_to_one_name_is_not_what_another_name_stands_for() {
    // `path` clearly takes `removePath`; `fencingPath` was torn between `removePath` and
    // `fencingNodePath` until the first binding took `removePath` away.
    let (w, after) = wire_shop(
        "package a;\nclass Shop {\n  void delete(String a, String b) {}\n  void run(String id) {\n    \
         String fencingNodePath = id + \"/fence\";\n    System.out.println(fencingNodePath);\n    \
         String removePath = id + \"/remove\";\n    delete(path, fencingPath); // paste\n  }\n}\n",
    );
    assert_eq!(bound(&w, "path"), Some("removePath"), "{w:#?}");
    assert_eq!(bound(&w, "fencingPath"), Some("fencingNodePath"), "{w:#?}");
    assert!(after.contains("delete(removePath, fencingNodePath);"), "{after}");
    let b = w.bindings.iter().find(|b| b.name == "fencingPath").expect("fencingPath");
    assert!(b.reason.ends_with("(`removePath` is bound to another name)"), "{}", b.reason);
    // With nothing else to tell them apart, the rest stays undecided rather than guessed.
    let (w, _) = wire_shop(
        "package a;\nclass Shop {\n  void delete(String a, String b) {}\n  void run(String one, String two, String three) {\n    \
         System.out.println(one + two + three);\n    delete(first, second); // paste\n  }\n}\n",
    );
    assert_eq!(bound(&w, "first"), None, "{w:#?}");
    assert_eq!(bound(&w, "second"), None, "{w:#?}");
}

#[test]
fn the_last_fitting_variable_left_by_other_names_is_not_the_only_one_that_fits() {
    // `from` takes `upper`, declared just before and unused; `to` then has `lower` left, which
    // fits but was one of two that did: the call may well pass a number there.
    let (w, _) = wire_shop(
        "package a;\nclass Shop {\n  boolean near(double a, double b) { return a == b; }\n  void run() {\n    \
         double lower = 1;\n    System.out.println(lower);\n    double upper = 2;\n    \
         boolean b = near(from, to); // paste\n  }\n}\n",
    );
    assert_eq!(bound(&w, "from"), Some("upper"), "{w:#?}");
    assert_eq!(bound(&w, "to"), None, "{w:#?}");
}

#[test]
fn a_fitting_variable_that_an_identical_call_passes_is_bound() {
    // Both `long`s fit `weigh(long)`; the file's own `weigh(pos)` says which one this call means.
    let text = "package a;\nclass Shop {\n  int weigh(long v) { return 0; }\n  void run() {\n    long pos = 1;\n    \
                long base = 2;\n    System.out.println(base + weigh(pos));\n    int w = weigh(amount); // paste\n  }\n}\n";
    let (w, after) = wire_shop(text);
    assert_eq!(bound(&w, "amount"), Some("pos"), "{w:#?}");
    assert!(after.contains("int w = weigh(pos);"), "{after}");
    // Without that call, the two are alike and nothing is bound.
    let (w, _) =
        wire_shop(&text.replace("weigh(pos)", "weigh(3)").replace("long pos = 1;", "long pos = 1;\n    pos++;"));
    assert_eq!(bound(&w, "amount"), None, "{w:#?}");
}

#[test]
fn an_indexed_name_whose_element_is_a_number_fits_only_arrays_of_numbers() {
    let (w, _) = wire_shop(
        "package a;\nclass Shop {\n  int hash(char[] text, char[][] rows, String[] words, int end) {\n    int h = 0;\n    \
         for (int i = 0; i < end; i++) { h = 31 * h + chars[i]; } // paste\n    return h;\n  }\n}\n",
    );
    let b = w.bindings.iter().find(|b| b.name == "chars").expect("chars is unresolved");
    assert_eq!(b.needs, "an array of numbers", "{w:#?}");
    let fitting: Vec<&str> =
        b.candidates.iter().filter(|c| c.fit >= Fit::Assignable).map(|c| c.expr.as_str()).collect();
    assert_eq!(fitting, ["text"], "{w:#?}");
    assert!(!b.candidates.iter().any(|c| c.expr == "rows" || c.expr == "words"), "{w:#?}");
}

#[test]
fn a_variable_the_paste_names_itself_does_not_stand_for_another_of_its_names() {
    // `trace` is the only boolean, but the pasted code reads it under its own name: `audit` is
    // some other flag, not a second name for it.
    let text = |first: &str| {
        format!(
            "package a;\nclass Shop {{\n  void run(Item item, boolean trace) {{\n    \
             if ({first}) {{ System.out.println(item); }} // paste\n    if (audit) {{ System.out.println(item.getName()); }} // paste\n  }}\n}}\n"
        )
    };
    let (w, _) = wire_shop(&text("trace"));
    assert_eq!(bound(&w, "audit"), None, "{w:#?}");
    // Not named by the paste, the one boolean waiting to be used is what `audit` stands for.
    let (w, _) = wire_shop(&text("item != null"));
    assert_eq!(bound(&w, "audit"), Some("trace"), "{w:#?}");
}

#[test]
fn a_superclass_member_the_class_does_not_inherit_is_no_candidate() {
    // `Base`'s private field, and `b.Other`'s package-private one, are not members of `Shop`:
    // `selected` cannot name them there; the protected field can.
    let base =
        "package a;\npublic class Base extends b.Other {\n  private Item selected;\n  protected Item selectedNow;\n}\n";
    let other = "package b;\npublic class Other {\n  a.Item selectedItem;\n  a.Item selection() { return null; }\n}\n";
    let shop = "package a;\nclass Shop extends Base {\n  void log(Item item) {}\n  void run(String label) {\n    \
                log(selected); // paste\n  }\n}\n";
    let (_d, p) = project(&[
        ("src/main/java/a/Shop.java", shop),
        ("src/main/java/a/Base.java", base),
        ("src/main/java/b/Other.java", other),
        ("src/main/java/a/Item.java", ITEM),
    ]);
    let file = p.file_id(std::path::Path::new("src/main/java/a/Shop.java")).expect("file");
    let w = wire(&p, file, 5, 5).expect("wires");
    let b = w.bindings.iter().find(|b| b.name == "selected").expect("selected is unresolved");
    assert!(
        b.candidates.iter().all(|c| !["selected", "selectedItem", "selection()"].contains(&c.expr.as_str())),
        "{w:#?}"
    );
    assert_eq!(b.bound.as_deref(), Some("selectedNow"), "{w:#?}");
}

#[test]
fn a_library_method_called_with_another_number_of_arguments_does_not_fit() {
    // `List.get` takes an index: `picked.get()` cannot be the list, however close its name.
    let (w, _) = wire_shop(
        "package a;\nimport java.util.*;\nclass Shop {\n  void run(List<Item> pickedItems, Optional<Item> current) {\n    \
         Item first = picked.get(); // paste\n  }\n}\n",
    );
    assert_eq!(bound(&w, "picked"), Some("current"), "{w:#?}");
}

#[test]
fn a_field_the_method_reads_through_its_getter_is_written_as_the_getter() {
    let shop = |other_read: &str| {
        format!(
            "package a;\nclass Shop {{\n  private Item current;\n  Item getCurrent() {{ return current; }}\n  \
             void log(Item item) {{}}\n  void run(String label) {{\n    log({other_read});\n    \
             log(currentItem); // paste\n  }}\n}}\n"
        )
    };
    let (w, after) = wire_shop(&shop("getCurrent()"));
    assert_eq!(bound(&w, "currentItem"), Some("getCurrent()"), "{w:#?}");
    assert!(after.contains("log(getCurrent()); // paste"), "{after}");
    // Where the method reads the field itself, the field is written.
    let (w, _) = wire_shop(&shop("this.current"));
    assert_eq!(bound(&w, "currentItem"), Some("current"), "{w:#?}");
}

#[test]
fn a_constant_named_like_the_paste_needs_a_type_that_fits() {
    let shop = |call: &str| {
        format!(
            "package a;\nclass Shop {{\n  static final Item DEFAULT_ITEM = null;\n  void log(Item item) {{}}\n  \
             void run(String label) {{\n    {call}(item); // paste\n  }}\n}}\n"
        )
    };
    // `println` takes anything: only part of the name points at the constant.
    let (w, _) = wire_shop(&shop("System.out.println"));
    assert_eq!(bound(&w, "item"), None, "{w:#?}");
    // `log` takes an `Item`: the constant's type fits too.
    let (w, _) = wire_shop(&shop("log"));
    assert_eq!(bound(&w, "item"), Some("DEFAULT_ITEM"), "{w:#?}");
}

/// A getter's paste stands for the field the getter is named after, not for another field of
/// the same type that an identical call elsewhere passes; with a parameter it is no getter.
#[test]
fn a_getters_paste_binds_the_field_it_is_named_after() {
    let class = |getter: &str| {
        format!(
            "package a;\nimport java.util.*;\nclass Shop {{\n  private Set<Item> stock;\n  private Set<Item> sold;\n  \
             Set<Item> getSold() {{ return Collections.unmodifiableSet(sold); }}\n  {getter} {{\n    \
             return Collections.unmodifiableSet(collection); // paste\n  }}\n}}\n"
        )
    };
    let (w, after) = wire_shop(&class("Set<Item> getStock()"));
    assert_eq!(bound(&w, "collection"), Some("stock"), "{w:#?}");
    assert!(after.contains("return Collections.unmodifiableSet(stock);"), "{after}");
    let (w, _) = wire_shop(&class("Set<Item> getStock(int n)"));
    assert_eq!(bound(&w, "collection"), None, "{w:#?}");
}

#[test]
fn binds_a_field_reached_through_a_parameter() {
    // Code moved out of `Span` reads its fields through the span now passed in.
    let (w, after) = wire_shop(
        "package a;\nclass Shop {\n  static class Span { int offset; int length; private int hidden; }\n  \
         int end(Span span, int pad) {\n    return offset + length + pad; // paste\n  }\n}\n",
    );
    assert_eq!(bound(&w, "offset"), Some("span.offset"), "{w:#?}");
    assert_eq!(bound(&w, "length"), Some("span.length"), "{w:#?}");
    assert!(after.contains("return span.offset + span.length + pad;"), "{after}");
}

#[test]
fn leaves_a_field_unbound_when_two_variables_hold_one_of_that_name() {
    let (w, _) = wire_shop(
        "package a;\nclass Shop {\n  static class Span { int offset; }\n  \
         int end(Span left, Span right) {\n    return offset; // paste\n  }\n}\n",
    );
    assert_eq!(bound(&w, "offset"), None, "{w:#?}");
    let b = w.bindings.iter().find(|b| b.name == "offset").expect("offset");
    let listed: Vec<&str> = b.candidates.iter().map(|c| c.expr.as_str()).collect();
    assert!(listed.contains(&"left.offset") && listed.contains(&"right.offset"), "{listed:?}");
}

#[test]
fn reaches_a_field_through_its_getter_when_the_type_has_one() {
    let (w, _) = wire_shop(
        "package a;\nclass Shop {\n  static class Ctx { private int mode; int getMode() { return mode; } }\n  \
         void enter(Ctx current, StringBuilder out) {\n    out.append(mode); // paste\n  }\n}\n",
    );
    assert_eq!(bound(&w, "mode"), Some("current.getMode()"), "{w:#?}");
}

#[test]
fn reaches_a_private_field_of_another_class_only_through_its_getter() {
    // `Item.price` is private to `Item`: from `Shop`, only `getPrice()` reads it.
    let (w, _) = wire_shop(
        "package a;\nclass Shop {\n  int total(Item item, int tax) {\n    return price + tax; // paste\n  }\n}\n",
    );
    assert_eq!(bound(&w, "price"), Some("item.getPrice()"), "{w:#?}");
}

#[test]
fn binds_a_field_the_method_already_reads_through_a_variable_used_elsewhere() {
    // `current` is used outside the paste, so its field's name alone is no evidence; the method
    // writing `current.getMode()` itself is.
    let text = |read: &str| {
        format!(
            "package a;\nclass Shop {{\n  static class Ctx {{ private int mode; int getMode() {{ return mode; }} int depth() {{ return 0; }} }}\n  \
             void enter(Ctx current, StringBuilder out) {{\n    if (current.depth() == 0) {{\n      out.append(mode); // paste\n    }}\n    \
             out.append({read});\n  }}\n}}\n"
        )
    };
    let (w, _) = wire_shop(&text("current.getMode()"));
    assert_eq!(bound(&w, "mode"), Some("current.getMode()"), "{w:#?}");
    let (w, _) = wire_shop(&text("other.current.getMode()"));
    assert_eq!(bound(&w, "mode"), None, "{w:#?}");
}
