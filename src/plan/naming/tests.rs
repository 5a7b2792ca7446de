use super::*;

#[test]
fn only_a_comment_that_describes_the_code_names_it() {
    for prose in [
        "compute the totals",
        "header",
        "Build a CSV row for each item",
        "call validate() first",
        "see RFC 2616 (section 4)",
    ] {
        assert!(is_description(prose), "{prose}");
    }
    for other in [
        "@formatter:off",
        "@formatter:on",
        "CHECKSTYLE:OFF",
        "CHECKSTYLE.OFF: MagicNumber",
        "spotless:off",
        "NOPMD",
        "NOSONAR - intended",
        "noinspection unchecked",
        "$NON-NLS-1$",
        "language=JSON",
        "TODO: retry on timeout",
        "FIXME - should generate -r,--prompt string",
        "XXX this is slow",
        "cache.clear();",
        "if (debug) {",
        "}",
        "cache.clear()",
    ] {
        assert!(!is_description(other), "{other}");
    }
}

#[test]
fn comments_become_camel_case_names() {
    assert_eq!(from_comment("compute the totals", None).as_deref(), Some("computeTotals"));
    assert_eq!(from_comment("Build a CSV row for each item", None).as_deref(), Some("buildCsvRowItem"));
    assert_eq!(from_comment("header", Some("append")).as_deref(), Some("appendHeader"));
    assert_eq!(from_comment("totals", None).as_deref(), Some("handleTotals"));
    assert_eq!(from_comment("---", None), None);
    assert_eq!(from_comment("check that cookies aren't set", None).as_deref(), Some("checkCookiesNotSet"));
    assert_eq!(from_comment("load the user's settings", None).as_deref(), Some("loadUserSettings"));
    assert_eq!(from_comment("check that cookies aren\u{2019}t set", None).as_deref(), Some("checkCookiesNotSet"));
    assert_eq!(from_comment("compute the totals of every row, so that", None).as_deref(), Some("computeTotalsRow"));
    assert_eq!(from_comment("42 things", None), None);
    assert_eq!(
        from_comment("Iterator hasNext() shouldn't break sequence", Some("assert")).as_deref(),
        Some("assertIteratorHasNext")
    );
    assert_eq!(from_comment("parse it with the CSVParser", None).as_deref(), Some("parseCsvParser"));
}

fn name_of(src: &str, method: &str, lines: (usize, usize)) -> String {
    let f = crate::java::SourceFile::parse("N.java", src.to_string());
    let at = src.find(method).unwrap();
    crate::plan::extract::name_for_lines(&f, at, lines)
}

#[test]
fn a_value_flowing_out_names_the_run() {
    let src = r#"class N {
    int run(Loader loader, String path, int n) {
        boolean ready = path.isEmpty() || n > 3;
        boolean hasRows = n > 0 && !path.isEmpty();
        Config config2 = loader.loadFrom(path);
        Buffer buffer = new Buffer(n);
        int total = n * 2 + path.length();
        return (ready && hasRows) ? config2.size() + buffer.size() + total : 0;
    }
}
"#;
    assert_eq!(name_of(src, "run(", (3, 3)), "isReady");
    assert_eq!(name_of(src, "run(", (4, 4)), "hasRows");
    assert_eq!(name_of(src, "run(", (5, 5)), "loadConfig");
    assert_eq!(name_of(src, "run(", (6, 6)), "createBuffer");
    assert_eq!(name_of(src, "run(", (7, 7)), "getTotal");
}

#[test]
fn a_comment_or_a_value_naming_a_method_the_class_has_does_not_name_the_run() {
    let src = r#"class N {
    Dataset createDataset() {
        // create the dataset
        Series series1 = new Series("one");
        series1.add(1.0, 2.0);
        series1.add(2.0, 3.0);
        Dataset d = new Dataset();
        d.add(series1);
        return d;
    }
    void run(Out out) {
        // create the dataset
        out.print("a");
        out.print("b");
    }
}
"#;
    assert_eq!(name_of(src, "createDataset(", (4, 6)), "createSeries", "not createDataset2");
    assert_eq!(name_of(src, "run(", (13, 14)), "printOut");
    let src = r#"class N {
    int getRowCount() { return 3; }
    int run(java.util.List<String> names) {
        names.clear();
        names.add("x");
        int rowCount = getRowCount();
        return rowCount + names.size();
    }
}
"#;
    assert_eq!(name_of(src, "run(", (4, 6)), "clearNames", "not getRowCount2");
}

#[test]
fn setters_short_variables_and_keyword_verbs() {
    let src = r#"class N {
    private Filter myFilter;
    N filter(Filter filter, Thread[] threads, Tokenizer tokenizer) {
        myFilter = filter;
        return this;
    }
    void start(Thread[] threads) {
        for (int i = 0; i < threads.length; i++) {
            threads[i].start();
        }
    }
    void check(Tokenizer tokenizer) {
        assert tokenizer != null;
        assertThat(tokenizer.tokens()).containsExactly("a", "b");
        assertThat(List.of(1)).isNotEmpty();
    }
    void each(String[] tests) {
        for (String test : tests) {
            if (test.isEmpty()) {
                testEmpty(test);
            } else {
                testFull(test);
            }
        }
    }
}
"#;
    assert_eq!(name_of(src, "filter(", (4, 5)), "withFilter");
    assert_eq!(name_of(src, "filter(", (4, 4)), "setFilter");
    // `threads`, not the loop's `i`.
    assert_eq!(name_of(src, "start(Thread", (8, 10)), "startThreads");
    // The verb of `assertThat` with the variable it checks; with none, `assert` (a keyword
    // alone) with the call the statement ends with.
    assert_eq!(name_of(src, "check(", (14, 14)), "assertTokenizer");
    assert_eq!(name_of(src, "check(", (15, 15)), "assertIsNotEmpty");
    // The calls' verb is the variable's own word: not `testTest`.
    assert_eq!(name_of(src, "each(", (19, 23)), "handleTest");
}

/// A name that is one letter once its digits go (`s1`) says nothing: its class names the run
/// (`addTaskSeries`), unless that says nothing either (`String s1`). Several fields set in a
/// row are named for what they are and how they are set.
#[test]
fn one_letter_copies_take_their_class_and_runs_of_fields_their_shared_word() {
    let src = r#"class N {
    int labelFont; int labelPaint; int labelGap; double max; int maxRow;
    void series(TaskSeries s1, String t1) {
        s1.add(new Task("a"));
        s1.add(new Task("b"));
        t1.add("c");
        t1.add("d");
    }
    N() {
        this.labelFont = 1;
        this.labelPaint = 2;
        this.labelGap = 3;
    }
    void bounds(int n) {
        this.max = Double.NaN;
        this.maxRow = -1;
        labelGap = 0;
    }
    void update(int n) {
        this.max = n;
        this.maxRow = n + 1;
    }
    <T extends Item> void generic(java.util.List<T> items, T t1) {
        t1.add("c");
        t1.add("d");
    }
    boolean same(Rect r) {
        ItemEntity e1 = new ItemEntity(new Rect(r), 1, "tip");
        ItemEntity e2 = new ItemEntity(new Rect(r), 1, "tip");
        return e1.equals(e2);
    }
}
"#;
    assert_eq!(name_of(src, "same(", (28, 28)), "createItemEntity");
    assert_eq!(name_of(src, "series(", (4, 5)), "addTaskSeries");
    assert_eq!(name_of(src, "series(", (6, 7)), "add");
    assert_eq!(name_of(src, "generic(", (24, 25)), "add");
    assert_eq!(name_of(src, "N() {", (10, 12)), "initLabelFields");
    assert_eq!(name_of(src, "bounds(", (15, 17)), "resetFields");
    assert_eq!(name_of(src, "bounds(", (15, 16)), "resetMaxFields");
    assert_eq!(name_of(src, "update(", (20, 21)), "setMaxFields");
}

#[test]
fn a_run_that_sometimes_calls_a_method_of_the_class_is_named_for_maybe_doing_it() {
    let src = r#"class N {
    int pos; String text;
    void advance() { pos++; }
    boolean isEmpty() { return pos >= text.length(); }
    char current() { return text.charAt(pos); }
    void skip() {
        if (!isEmpty()) {
            char c = current();
            if (c == ' ') advance(); else if (c == '\t') advance();
        }
        advance();
        advance();
    }
}
"#;
    assert_eq!(name_of(src, "skip(", (7, 10)), "maybeAdvance");
    // Not one `if`: the verb alone, told apart by a digit.
    assert_eq!(name_of(src, "skip(", (11, 12)), "advance2");
}

#[test]
fn names_are_camel_case_whatever_the_variables_were() {
    assert_eq!(without_underscores("createStarts_S"), "createStartsS");
    assert_eq!(without_underscores("getMAX_SIZE"), "getMAXSize");
    assert_eq!(without_underscores("get_max_size"), "getMaxSize");
    assert_eq!(without_underscores("handleItems"), "handleItems");
}

#[test]
fn names_do_not_clash() {
    let taken: BTreeSet<String> = ["run".to_string(), "run2".to_string()].into();
    assert_eq!(unique("run".into(), &taken), "run3");
    assert_eq!(unique("walk".into(), &taken), "walk");
}

/// A name that only abbreviates its class (`sb`, `buf`, `ctx`) gives the class's words instead:
/// `createStringBuilder`, not `createSb`. A name that is a word of its own keeps it.
#[test]
fn abbreviations_of_a_class_take_its_name() {
    let src = r#"class N {
    String run(Options opts, Session ctx) {
        StringBuilder sb = new StringBuilder();
        sb.append(opts.header());
        StringBuffer buf = new StringBuffer(ctx.name());
        Options options = opts.copy();
        ExecutionContext ectx = ctx.start(options);
        return sb.toString() + buf + ectx;
    }
}
"#;
    assert_eq!(name_of(src, "run(", (3, 4)), "createStringBuilder");
    assert_eq!(name_of(src, "run(", (5, 5)), "createStringBuffer");
    assert_eq!(name_of(src, "run(", (6, 6)), "copyOptions");
    assert_eq!(name_of(src, "run(", (7, 7)), "startExecutionContext");
}

#[test]
fn statements_that_state_a_condition_validate() {
    let src = r#"class N {
    String key;
    String getKey() { return key; }
    void setKey(String key) {
        Check.notNull(key);
        key = key.trim();
        Check.notEmpty(key);
        this.key = key;
    }
    void keep(Object o) {
        boolean empty = Check.notEmpty(o.toString());
        if (empty) o.hashCode();
    }
}
"#;
    // `getKey` is taken: the run checks its key and trims it.
    assert_eq!(name_of(src, "setKey(", (5, 7)), "validateKey");
    // A condition whose answer is kept is a question asked, not a check.
    assert_ne!(name_of(src, "keep(", (11, 11)), "validateO");
}
