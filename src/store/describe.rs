//! The description that situates an example's code for retrieval.
//!
//! MANTRA describes each stored refactoring in a few sentences (what the code does, for whom,
//! with what), so that code which looks alike but plays another role is not retrieved. With a
//! model, [`describe_with_model`] asks it with `prompts/describe.md` (or its `prompts_dir` override), and keeps the answer in a
//! cache keyed by the prompt's content hash, so re-running an import costs nothing. Without a
//! model, [`summary`] writes the same facts deterministically: signature, class, called methods,
//! callers and the leading comment.
//!
//! [`CodeFacts`] reads those facts from the code with the project's own symbol extractor.

use std::collections::HashMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use crate::java::SourceFile;
use crate::java::symbols::{self, CallKind};
use crate::llm::prompts::{PromptError, Prompts};
use crate::llm::{ChatModel, ChatRequest, LlmError, Message};

use super::record::Record;

/// What the code of a method says about its role.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CodeFacts {
    /// The declaration up to its body: `public int getLineCount(TokenEntry mark, Match match)`.
    pub signature: String,
    pub name: String,
    /// Names of the methods it calls, in order of first call (constructors as `new T`).
    pub callees: Vec<String>,
    /// Its javadoc or the comment lines right above it, whitespace collapsed.
    pub comment: Option<String>,
}

/// The facts of the first method in `code` (a method's text, as the records hold it).
pub fn code_facts(code: &str) -> CodeFacts {
    // A method alone is not a compilation unit; wrapped in a class it parses as one.
    let wrapped = format!("class MantraExample {{\n{code}\n}}\n");
    let source = SourceFile::parse("Example.java", wrapped);
    let syms = symbols::extract(&source);
    let Some(m) = syms.methods.first() else {
        return CodeFacts { callees: lexical_calls(code), ..CodeFacts::default() };
    };
    let decl = source.slice(&m.span);
    let head = match m.body {
        Some(body) => &source.text[m.span.start_byte..body.start_byte],
        None => decl,
    };
    let signature =
        head.lines().map(str::trim).filter(|l| !l.starts_with('@')).collect::<Vec<_>>().join(" ").trim().to_string();
    let mut callees: Vec<String> = Vec::new();
    for c in &m.calls {
        let name = match c.kind {
            CallKind::New => format!("new {}", c.name),
            CallKind::Method | CallKind::MethodRef => c.name.clone(),
            _ => continue,
        };
        if !callees.contains(&name) {
            callees.push(name);
        }
    }
    // Error recovery may have dropped some of a fragment's calls (Move And Inline records hold
    // import blocks or parts of methods); the lexical scan sees them all.
    if source.syntax_error().is_some() {
        callees = lexical_calls(code);
    }
    let comment = m.javadoc.as_deref().map(clean_comment).filter(|c| !c.is_empty());
    CodeFacts { signature, name: m.name.clone(), callees, comment }
}

/// The methods of `file` whose bodies call `name`, as `Class#method`, in document order.
pub fn callers_in_file(file: &str, name: &str) -> Vec<String> {
    if name.is_empty() {
        return Vec::new();
    }
    let source = SourceFile::parse("File.java", file.to_string());
    let syms = symbols::extract(&source);
    let mut out: Vec<String> = Vec::new();
    for m in &syms.methods {
        if m.name != name && m.calls.iter().any(|c| c.name == name && c.kind == CallKind::Method) {
            let class = syms.types.get(m.owner as usize).map(|t| t.display.as_str()).unwrap_or("");
            let caller = format!("{class}#{}", m.name);
            if !out.contains(&caller) {
                out.push(caller);
            }
        }
    }
    out
}

/// `name(` occurrences when the code does not parse as a method (a fragment, an import block).
fn lexical_calls(code: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let bytes = code.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_alphabetic() || bytes[i] == b'_' {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            let word = &code[start..i];
            if bytes.get(i) == Some(&b'(') && !crate::java::syntax::is_reserved(word) && !out.iter().any(|w| w == word)
            {
                out.push(word.to_string());
            }
        } else {
            i += 1;
        }
    }
    out
}

fn clean_comment(javadoc: &str) -> String {
    javadoc
        .lines()
        .map(|l| {
            l.trim().trim_start_matches("/**").trim_start_matches("/*").trim_end_matches("*/").trim_start_matches('*')
        })
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('@'))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The deterministic description: one line each for the method, its class, what it calls, who
/// calls it and its comment.
pub fn summary(record: &Record) -> String {
    let facts = code_facts(&record.code_before);
    let mut out = String::new();
    let what = if facts.signature.is_empty() { record.method.clone() } else { facts.signature.clone() };
    out.push_str(&format!("Method {what}"));
    if !record.class_name.is_empty() {
        out.push_str(&format!(" in class {}", record.class_name));
        let header = record.class_signature.trim();
        if !header.is_empty() {
            out.push_str(&format!(" ({header})"));
        }
    }
    out.push_str(".\n");
    let callees = if record.callees.is_empty() { &facts.callees } else { &record.callees };
    if !callees.is_empty() {
        out.push_str(&format!("Calls: {}.\n", callees.join(", ")));
    }
    if !record.callers.is_empty() {
        out.push_str(&format!("Called by: {}.\n", record.callers.join(", ")));
    }
    if let Some(comment) = &facts.comment {
        let short: String = comment.chars().take(300).collect();
        out.push_str(&format!("Comment: {short}\n"));
    }
    out.trim_end().to_string()
}

/// Callees named in an embedding text: enough for a method's role, few enough that the
/// text stays short (each costs three tokens or so).
const WORDS_CALLEES: usize = 12;
/// Words of the leading comment kept in an embedding text.
const WORDS_COMMENT: usize = 16;

/// What the embedding model reads for a method: its facts in words rather than Java.
///
/// all-MiniLM-L6-v2 was trained on sentences; `getLineCount(TokenEntry mark)` is a few rare
/// word pieces to it, `get line count (token entry mark)` is four words it knows. So the text is
/// the method's name, its parameters, the methods it calls (the best sign of its role) and the
/// start of its comment, identifiers split into lower-case words:
/// `get line count (token entry mark, match). calls get, get index, get token count. counts the lines.`
/// Records and code queries both get this text, so like is compared with like; it is a few dozen
/// tokens, which keeps embedding cheap.
pub fn embedding_words(facts: &CodeFacts, callees: &[String]) -> String {
    let mut out = identifier_words(&facts.name);
    let params = parameter_words(&facts.signature);
    if !params.is_empty() {
        out.push_str(&format!(" ({params})"));
    }
    let callees = if callees.is_empty() { &facts.callees } else { callees };
    let calls: Vec<String> = callees
        .iter()
        .take(WORDS_CALLEES)
        .map(|c| c.split_whitespace().map(identifier_words).collect::<Vec<_>>().join(" "))
        .filter(|w| !w.is_empty())
        .collect();
    if !calls.is_empty() {
        out.push_str(&format!(". calls {}", calls.join(", ")));
    }
    if let Some(comment) = &facts.comment {
        let words = comment_words(comment);
        if !words.is_empty() {
            out.push_str(&format!(". {words}"));
        }
    }
    out.trim_start().to_string()
}

/// The first words of a comment without its markup: HTML tags dropped, `{@link #performX}` and
/// `{@code x}` as their words.
fn comment_words(comment: &str) -> String {
    let mut plain = String::with_capacity(comment.len());
    let mut rest = comment;
    while let Some(at) = rest.find(['<', '{']) {
        plain.push_str(&rest[..at]);
        let close = if rest[at..].starts_with('<') { '>' } else { '}' };
        let Some(end) = rest[at..].find(close) else {
            rest = &rest[at + 1..];
            continue;
        };
        let inner = &rest[at + 1..at + end];
        if close == '}' {
            let target = inner.split_whitespace().skip(1).collect::<Vec<_>>().join(" ");
            let target = target.rsplit(['#', '.']).next().unwrap_or("");
            plain.push(' ');
            plain.push_str(&identifier_words(target.trim_end_matches("()")));
        }
        plain.push(' ');
        rest = &rest[at + end + 1..];
    }
    plain.push_str(rest);
    plain.split_whitespace().take(WORDS_COMMENT).collect::<Vec<_>>().join(" ")
}

/// `getHTTPServer_v2` → `get http server v 2`.
fn identifier_words(ident: &str) -> String {
    super::bm25::split_identifier(ident)
        .into_iter()
        .map(|(s, e)| ident[s..e].to_ascii_lowercase())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The parameters of a signature in words, `(TokenEntry mark, Match match)` → `token entry mark,
/// match`: a name that only repeats its type is said once; modifiers and annotations are dropped.
fn parameter_words(signature: &str) -> String {
    let (Some(open), Some(close)) = (signature.find('('), signature.rfind(')')) else { return String::new() };
    if close <= open {
        return String::new();
    }
    let mut params: Vec<String> = Vec::new();
    for param in crate::java::split_top_level(&signature[open + 1..close]) {
        let idents: Vec<&str> = param
            .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$' || c == '@'))
            .filter(|w| !w.is_empty() && !w.starts_with('@') && *w != "final")
            .collect();
        let mut words: Vec<String> = Vec::new();
        for (i, ident) in idents.iter().enumerate() {
            let w = identifier_words(ident);
            let last = i + 1 == idents.len();
            // `TableInclusionChecker inclusionChecker`: the name repeats the type's words.
            let repeats = last && i > 0 && words.last().is_some_and(|prev| prev.ends_with(&w));
            if !repeats && !w.is_empty() {
                words.push(w);
            }
        }
        if !words.is_empty() {
            params.push(words.join(" "));
        }
    }
    params.join(", ")
}

/// What an embedding query reads for a query `text`: when it is Java code (it has a body), its
/// [`embedding_words`], the same kind of text the records are embedded as; otherwise the text
/// itself (a description, a few words).
pub fn query_text(text: &str) -> String {
    if !(text.contains('{') && (text.contains(';') || text.contains('}'))) {
        return text.to_string();
    }
    let facts = code_facts(text);
    if facts.signature.is_empty() {
        return text.to_string();
    }
    embedding_words(&facts, &[])
}

/// The description prompt for one record, filled in from `prompts` (the built-in `describe.md`,
/// or the one in `prompts_dir`), with the agents' strict renderer.
pub fn render_prompt(prompts: &Prompts, record: &Record) -> Result<String, PromptError> {
    let list = |v: &[String]| if v.is_empty() { "(none known)".to_string() } else { v.join(", ") };
    let class = format!("{} {}", record.class_signature.trim(), record.class_name);
    let (callers, callees) = (list(&record.callers), list(&record.callees));
    prompts.render(
        "describe",
        &[
            ("code", &record.code_before),
            ("class", &class),
            ("package", &record.package),
            ("callers", &callers),
            ("callees", &callees),
        ],
    )
}

/// Model descriptions already paid for, by the git blob id of the prompt that produced them.
/// Kept as JSON Lines (`descriptions.jsonl` in the store), appended to as answers arrive.
pub struct DescriptionCache {
    path: PathBuf,
    entries: HashMap<String, String>,
}

#[derive(serde::Serialize, serde::Deserialize)]
struct CacheLine {
    key: String,
    description: String,
}

impl DescriptionCache {
    /// The cache at `path`; a missing file is an empty cache, and unreadable lines are skipped
    /// (a cache miss only costs a request).
    pub fn open(path: &Path) -> DescriptionCache {
        let entries = std::fs::read_to_string(path)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| serde_json::from_str::<CacheLine>(l).ok())
            .map(|c| (c.key, c.description))
            .collect();
        DescriptionCache { path: path.to_path_buf(), entries }
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    fn get(&self, key: &str) -> Option<&str> {
        self.entries.get(key).map(String::as_str)
    }

    fn insert(&mut self, key: String, description: String) -> std::io::Result<()> {
        let line = serde_json::to_string(&CacheLine { key: key.clone(), description: description.clone() })
            .map_err(std::io::Error::other)?;
        let mut f = std::fs::OpenOptions::new().create(true).append(true).open(&self.path)?;
        writeln!(f, "{line}")?;
        self.entries.insert(key, description);
        Ok(())
    }
}

/// A content hash: the git blob id of `text` (what `git hash-object` prints).
pub fn content_hash(text: &str) -> String {
    git2::Oid::hash_object(git2::ObjectType::Blob, text.as_bytes())
        .map(|o| o.to_string())
        // hash_object only fails on a libgit2 initialisation error; a length-and-prefix key still
        // tells different texts apart well enough for a cache.
        .unwrap_or_else(|_| format!("len{}-{}", text.len(), text.chars().take(64).collect::<String>()))
}

/// Asks `model` for the record's description, or takes it from `cache` when this exact prompt was
/// answered before. Returns the description and whether it came from the cache.
pub fn describe_with_model(
    model: &dyn ChatModel,
    prompts: &Prompts,
    record: &Record,
    cache: &mut DescriptionCache,
) -> Result<(String, bool), LlmError> {
    let prompt = render_prompt(prompts, record).map_err(|e| LlmError::Config(e.to_string()))?;
    let key = content_hash(&prompt);
    if let Some(hit) = cache.get(&key) {
        return Ok((hit.to_string(), true));
    }
    let request = ChatRequest {
        agent: "describe".into(),
        messages: vec![Message::user(prompt)],
        tools: Vec::new(),
        tool_choice: None,
    };
    let response = model.chat(&request)?;
    let text = response.message.content.unwrap_or_default().trim().to_string();
    if text.is_empty() {
        return Err(LlmError::Malformed("the description answer is empty".into()));
    }
    cache.insert(key, text.clone()).map_err(|source| LlmError::Io {
        what: "cannot write the description cache",
        path: cache.path.clone(),
        source,
    })?;
    Ok((text, false))
}

/// Who writes the descriptions of an import or a mining run.
pub enum Describer<'a> {
    /// The deterministic [`summary`].
    Summary,
    /// A model, with the cache; a failed request falls back to the summary and is counted.
    Model { model: &'a dyn ChatModel, prompts: Prompts, cache: DescriptionCache, tally: DescribeTally },
}

/// How the model descriptions went.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct DescribeTally {
    pub asked: usize,
    pub cached: usize,
    pub failed: usize,
    /// The first failure's message.
    pub first_error: Option<String>,
}

impl Describer<'_> {
    /// Sets the record's description and its source.
    pub fn fill(&mut self, record: &mut Record) {
        if let Describer::Model { model, prompts, cache, tally } = self {
            match describe_with_model(*model, prompts, record, cache) {
                Ok((text, cached)) => {
                    if cached {
                        tally.cached += 1;
                    } else {
                        tally.asked += 1;
                    }
                    record.description = text;
                    record.description_source = super::record::DescriptionSource::Model;
                    return;
                }
                Err(e) => {
                    tally.failed += 1;
                    tally.first_error.get_or_insert_with(|| e.to_string());
                }
            }
        }
        record.description = summary(record);
        record.description_source = super::record::DescriptionSource::Summary;
    }

    pub fn tally(&self) -> Option<&DescribeTally> {
        match self {
            Describer::Summary => None,
            Describer::Model { tally, .. } => Some(tally),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::{ChatResponse, Usage};
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn facts_of_a_method() {
        let f = code_facts(
            "/** Counts the lines.\n * @param mark the start */\n@Override\npublic int getLineCount(TokenEntry mark, Match match) {\n  TokenEntry end = get(mark.getIndex() + match.getTokenCount() - 1);\n  return end.getBeginLine() - mark.getBeginLine() + get(0).x();\n}",
        );
        assert_eq!(f.signature, "public int getLineCount(TokenEntry mark, Match match)");
        assert_eq!(f.name, "getLineCount");
        assert_eq!(f.callees, vec!["get", "getIndex", "getTokenCount", "getBeginLine", "x"]);
        assert_eq!(f.comment.as_deref(), Some("Counts the lines."));
    }

    #[test]
    fn fragments_fall_back_to_lexical_calls() {
        let f = code_facts("import a.b.C;\nfoo(bar(1)); if (x) { baz(); }");
        assert!(f.callees.contains(&"foo".to_string()) && f.callees.contains(&"baz".to_string()), "{:?}", f.callees);
        assert!(!f.callees.contains(&"if".to_string()));
    }

    #[test]
    fn callers_are_the_methods_calling_the_name() {
        let file = "class A { void a() { b(); } void b() { } void c() { this.b(); b(); } void d() { x.b2(); } }";
        assert_eq!(callers_in_file(file, "b"), vec!["A#a", "A#c"]);
    }

    struct Scripted {
        calls: AtomicUsize,
        answer: String,
    }

    impl ChatModel for Scripted {
        fn chat(&self, request: &ChatRequest) -> Result<ChatResponse, LlmError> {
            self.calls.fetch_add(1, Ordering::SeqCst);
            let prompt = request.messages[0].content.clone().unwrap_or_default();
            assert!(prompt.contains("int size()"), "the prompt carries the code: {prompt}");
            assert!(prompt.contains("Caller#use"), "the prompt carries the callers: {prompt}");
            Ok(ChatResponse {
                message: Message::assistant(self.answer.clone()),
                usage: Usage::default(),
                finish_reason: None,
            })
        }
    }

    fn record() -> Record {
        let line = r#"{"id":"t:r:1","type":"Extract Method","refactoring":"Extract Method\tx","code_before":"int size() { return items.size(); }","code_after":"","file_before":{"path":"A.java"},"file_after":{"path":"A.java"},"package":"p","class_name":"p.A","class_signature":"public class A ","method":"p.A#size","callers":["Caller#use"],"callees":["size"],"description":"","description_source":"summary","provenance":{"source":"t","repository":"r","commit":"c","unique_id":"1"}}"#;
        serde_json::from_str(line).unwrap()
    }

    // The model path is tested with an in-process ChatModel; the HTTP client is another module's.
    #[test]
    fn model_descriptions_are_cached_by_prompt_hash() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("descriptions.jsonl");
        let model = Scripted { calls: AtomicUsize::new(0), answer: " Returns how many items the list holds. ".into() };
        let mut cache = DescriptionCache::open(&path);
        let (d, cached) = describe_with_model(&model, &Prompts::builtin(), &record(), &mut cache).unwrap();
        assert_eq!((d.as_str(), cached), ("Returns how many items the list holds.", false));
        // A new cache over the same file answers without the model.
        let mut cache = DescriptionCache::open(&path);
        let (d2, cached) = describe_with_model(&model, &Prompts::builtin(), &record(), &mut cache).unwrap();
        assert_eq!((d2, cached), (d, true));
        assert_eq!(model.calls.load(Ordering::SeqCst), 1);
        // Another record is another prompt.
        let mut other = record();
        other.code_before = "int size() { return n; }".into();
        describe_with_model(&model, &Prompts::builtin(), &other, &mut cache).unwrap();
        assert_eq!(model.calls.load(Ordering::SeqCst), 2);
    }

    #[test]
    fn an_empty_answer_is_an_error_and_not_cached() {
        let dir = tempfile::tempdir().unwrap();
        let model = Scripted { calls: AtomicUsize::new(0), answer: "  ".into() };
        let mut cache = DescriptionCache::open(&dir.path().join("d.jsonl"));
        assert!(matches!(
            describe_with_model(&model, &Prompts::builtin(), &record(), &mut cache),
            Err(LlmError::Malformed(_))
        ));
        assert!(cache.is_empty());
    }

    #[test]
    fn embedding_words_read_like_words() {
        let code = "/** Counts the <b>lines</b> as {@link Foo#lineCount()} does.\n * @param mark the start */\npublic int getLineCount(final TokenEntry mark, Match match, CheckedMatch checkedMatch, Map<String, List<URL>> byName) {\n  return get(mark.getIndex()) + new HTTPServer_v2().x();\n}";
        assert_eq!(
            query_text(code),
            "get line count (token entry mark, match, checked match, map string list url by name). calls get, get index, x, new http server v 2. Counts the lines as line count does."
        );
        let facts = code_facts(code);
        assert_eq!(
            embedding_words(&facts, &["size".into()]),
            "get line count (token entry mark, match, checked match, map string list url by name). calls size. Counts the lines as line count does."
        );
        assert_eq!(query_text("parse the header"), "parse the header", "free text is embedded as it is");
    }

    #[test]
    fn summary_names_signature_class_calls_and_callers() {
        let s = summary(&record());
        assert_eq!(s, "Method int size() in class p.A (public class A).\nCalls: size.\nCalled by: Caller#use.");
    }
}
