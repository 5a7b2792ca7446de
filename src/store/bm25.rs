//! The lexical half of retrieval: a tantivy BM25 index over each record's description and code.
//!
//! Code is tokenised by [`code_terms`]: every identifier is kept whole (lower-cased) and, when it
//! is a compound, also split at camelCase, digit and snake_case boundaries, so `getLineCount`
//! matches a query saying `getLineCount`, `line count` or `count`. The query is never parsed as
//! tantivy query syntax (code is full of `:`, `(` and `"`); its terms become one OR of term
//! queries, with the refactoring type as a required term.

use std::path::Path;

use tantivy::collector::TopDocs;
use tantivy::query::{BooleanQuery, Occur, Query, TermQuery};
use tantivy::schema::{Field, IndexRecordOption, STORED, STRING, Schema, TextFieldIndexing, TextOptions, Value as _};
use tantivy::tokenizer::{Token, TokenStream, Tokenizer};
use tantivy::{Index, IndexReader, IndexWriter, ReloadPolicy, TantivyDocument, Term};

use super::record::Record;
use crate::detect::RefactoringType;

/// The name the code tokenizer is registered under in the index.
const TOKENIZER: &str = "mantra_code";
/// Distinct query terms kept; a whole method is a few hundred, and the rarest matter most, but
/// a cap keeps a pathological query (a 5,000-line method) fast.
const MAX_QUERY_TERMS: usize = 400;

/// The terms of `text` with their byte ranges: identifiers whole, then their parts.
pub fn code_terms(text: &str) -> Vec<(usize, usize, String)> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if !(c.is_ascii_alphanumeric() || c == b'_' || c == b'$') {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_' || bytes[i] == b'$') {
            i += 1;
        }
        let word = &text[start..i];
        if word.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let parts = split_identifier(word);
        if word.len() > 1 {
            out.push((start, i, word.to_ascii_lowercase()));
        }
        if parts.len() > 1 {
            for (s, e) in parts {
                if e - s > 1 {
                    out.push((start + s, start + e, word[s..e].to_ascii_lowercase()));
                }
            }
        }
    }
    out
}

/// Byte ranges of an identifier's parts: `HTTPServer_v2x` → `HTTP`, `Server`, `v`, `2`, `x`.
pub(crate) fn split_identifier(word: &str) -> Vec<(usize, usize)> {
    let b = word.as_bytes();
    let mut parts = Vec::new();
    let mut start = None;
    for i in 0..b.len() {
        let c = b[i];
        if c == b'_' || c == b'$' {
            if let Some(s) = start.take() {
                parts.push((s, i));
            }
            continue;
        }
        let Some(s) = start else {
            start = Some(i);
            continue;
        };
        let prev = b[i - 1];
        let boundary = (prev.is_ascii_lowercase() && c.is_ascii_uppercase())
            || (prev.is_ascii_digit() != c.is_ascii_digit() && prev != b'_')
            || (prev.is_ascii_uppercase()
                && c.is_ascii_uppercase()
                && b.get(i + 1).is_some_and(u8::is_ascii_lowercase));
        if boundary {
            parts.push((s, i));
            start = Some(i);
        }
    }
    if let Some(s) = start {
        parts.push((s, b.len()));
    }
    parts
}

/// [`code_terms`] as a tantivy tokenizer.
#[derive(Clone, Default)]
pub struct CodeTokenizer;

pub struct CodeTokenStream {
    tokens: Vec<Token>,
    next: usize,
}

impl Tokenizer for CodeTokenizer {
    type TokenStream<'a> = CodeTokenStream;
    fn token_stream<'a>(&'a mut self, text: &'a str) -> CodeTokenStream {
        let tokens = code_terms(text)
            .into_iter()
            .enumerate()
            .map(|(position, (offset_from, offset_to, text))| Token {
                offset_from,
                offset_to,
                position,
                text,
                position_length: 1,
            })
            .collect();
        CodeTokenStream { tokens, next: 0 }
    }
}

impl TokenStream for CodeTokenStream {
    fn advance(&mut self) -> bool {
        self.next += 1;
        self.next <= self.tokens.len()
    }
    fn token(&self) -> &Token {
        &self.tokens[self.next - 1]
    }
    fn token_mut(&mut self) -> &mut Token {
        &mut self.tokens[self.next - 1]
    }
}

/// The BM25 index of one store.
pub struct Bm25 {
    index: Index,
    reader: IndexReader,
    id: Field,
    kind: Field,
    description: Field,
    code: Field,
}

fn schema() -> (Schema, [Field; 4]) {
    let mut b = Schema::builder();
    let text = TextOptions::default().set_indexing_options(
        TextFieldIndexing::default().set_tokenizer(TOKENIZER).set_index_option(IndexRecordOption::WithFreqs),
    );
    let id = b.add_text_field("id", STRING | STORED);
    let kind = b.add_text_field("kind", STRING);
    let description = b.add_text_field("description", text.clone());
    let code = b.add_text_field("code", text);
    (b.build(), [id, kind, description, code])
}

fn kind_term(field: Field, kind: RefactoringType) -> Term {
    Term::from_field_text(field, kind.code())
}

impl Bm25 {
    /// Opens the index in `dir`, creating it when the folder is empty or absent.
    pub fn open_or_create(dir: &Path) -> tantivy::Result<Bm25> {
        std::fs::create_dir_all(dir)?;
        let (schema, [id, kind, description, code]) = schema();
        let index = if dir.join("meta.json").exists() {
            let index = Index::open_in_dir(dir)?;
            if index.schema() != schema {
                return Err(tantivy::TantivyError::SchemaError("the index was written with another schema".into()));
            }
            index
        } else {
            Index::create_in_dir(dir, schema)?
        };
        index.tokenizers().register(TOKENIZER, CodeTokenizer);
        let reader = index.reader_builder().reload_policy(ReloadPolicy::Manual).try_into()?;
        Ok(Bm25 { index, reader, id, kind, description, code })
    }

    fn writer(&self) -> tantivy::Result<IndexWriter> {
        // One thread: the machine is shared, and an import is a few thousand small documents.
        self.index.writer_with_num_threads(1, 32_000_000)
    }

    /// Adds `records` and removes the documents of `removed` ids, in one commit.
    pub fn update(&mut self, records: &[&Record], removed: &[String]) -> tantivy::Result<()> {
        if records.is_empty() && removed.is_empty() {
            return Ok(());
        }
        let mut writer = self.writer()?;
        for id in removed.iter().map(String::as_str).chain(records.iter().map(|r| r.id.as_str())) {
            writer.delete_term(Term::from_field_text(self.id, id));
        }
        for r in records {
            let mut doc = TantivyDocument::default();
            doc.add_text(self.id, &r.id);
            doc.add_text(self.kind, r.kind.code());
            doc.add_text(self.description, &r.description);
            doc.add_text(self.code, r.code_text());
            writer.add_document(doc)?;
        }
        writer.commit()?;
        writer.wait_merging_threads()?;
        self.reader.reload()
    }

    /// Every indexed record id (to reconcile the index with the records after a crash or an edit).
    pub fn ids(&self) -> tantivy::Result<Vec<String>> {
        let searcher = self.reader.searcher();
        let mut out = Vec::new();
        for segment in searcher.segment_readers() {
            let store = segment.get_store_reader(64)?;
            for doc in 0..segment.max_doc() {
                if segment.is_deleted(doc) {
                    continue;
                }
                let d: TantivyDocument = store.get(doc)?;
                if let Some(id) = d.get_first(self.id).and_then(|v| v.as_str().map(str::to_string)) {
                    out.push(id);
                }
            }
        }
        Ok(out)
    }

    /// The `k` best record ids for `text`, with their BM25 scores, best first.
    pub fn search(&self, text: &str, kind: Option<RefactoringType>, k: usize) -> tantivy::Result<Vec<(String, f32)>> {
        let mut terms: Vec<String> = code_terms(text).into_iter().map(|(_, _, t)| t).collect();
        terms.sort();
        terms.dedup();
        terms.truncate(MAX_QUERY_TERMS);
        if terms.is_empty() || k == 0 {
            return Ok(Vec::new());
        }
        let mut should: Vec<(Occur, Box<dyn Query>)> = Vec::new();
        for t in &terms {
            for field in [self.description, self.code] {
                should.push((
                    Occur::Should,
                    Box::new(TermQuery::new(Term::from_field_text(field, t), IndexRecordOption::WithFreqs)),
                ));
            }
        }
        let text_query: Box<dyn Query> = Box::new(BooleanQuery::new(should));
        let query: Box<dyn Query> = match kind {
            Some(kind) => Box::new(BooleanQuery::new(vec![
                (Occur::Must, text_query),
                (Occur::Must, Box::new(TermQuery::new(kind_term(self.kind, kind), IndexRecordOption::Basic))),
            ])),
            None => text_query,
        };
        let searcher = self.reader.searcher();
        let top = searcher.search(&query, &TopDocs::with_limit(k).order_by_score())?;
        let mut out = Vec::with_capacity(top.len());
        for (score, address) in top {
            let doc: TantivyDocument = searcher.doc(address)?;
            if let Some(id) = doc.get_first(self.id).and_then(|v| v.as_str().map(str::to_string)) {
                out.push((id, score));
            }
        }
        Ok(out)
    }

    pub fn len(&self) -> u64 {
        self.reader.searcher().num_docs()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terms(s: &str) -> Vec<String> {
        code_terms(s).into_iter().map(|(_, _, t)| t).collect()
    }

    #[test]
    fn identifiers_whole_and_split() {
        assert_eq!(terms("getLineCount(mark)"), vec!["getlinecount", "get", "line", "count", "mark"]);
        assert_eq!(terms("MAX_TOKEN_count"), vec!["max_token_count", "max", "token", "count"]);
        assert_eq!(terms("HTTPServer x 42 a2b"), vec!["httpserver", "http", "server", "a2b"]);
    }

    #[test]
    fn byte_ranges_point_at_the_parts() {
        let t = code_terms("  fooBar");
        assert_eq!(t[0], (2, 8, "foobar".into()));
        assert_eq!(t[2], (5, 8, "bar".into()));
    }
}
