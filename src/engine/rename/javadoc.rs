//! References in Javadoc comments: the program element after `{@link`, `{@linkplain`, `@see`,
//! `@throws` and `@exception` (`Type`, `a.b.Type`, `Outer.Inner`, `Type#member`, `#member`,
//! `Type#method(int)`), which a rename updates like code: a reader follows them, and the Javadoc
//! tool reports a broken one.

use crate::java::source::SourceFile;
use crate::java::syntax::walk;

/// One reference: where its text starts in the file, and the text (up to whitespace, `}` or `(`).
pub(super) struct DocRef {
    pub(super) start: usize,
    pub(super) text: String,
}

impl DocRef {
    /// The type part (`a.b.Type` of `a.b.Type#m`; empty for `#m`) and the member, if any.
    pub(super) fn split(&self) -> (&str, Option<&str>) {
        match self.text.split_once('#') {
            Some((t, m)) => (t, Some(m)),
            None => (self.text.as_str(), None),
        }
    }
}

const TAGS: [&str; 5] = ["{@link ", "{@linkplain ", "@see ", "@throws ", "@exception "];

/// The byte ranges of the `/** ... */` comments of `source`.
pub(super) fn doc_comments(source: &SourceFile) -> Vec<std::ops::Range<usize>> {
    let text = source.text.as_str();
    let mut comments = Vec::new();
    walk(source.root(), &mut |n| {
        if n.kind() == "block_comment" && text[n.byte_range()].starts_with("/**") {
            comments.push(n.byte_range());
        }
        true
    });
    comments
}

/// Every reference of every `/** ... */` comment of `source`.
pub(super) fn references(source: &SourceFile) -> Vec<DocRef> {
    let text = source.text.as_str();
    let mut out = Vec::new();
    for range in doc_comments(source) {
        let doc = &text[range.clone()];
        for tag in TAGS {
            let mut from = 0;
            while let Some(i) = doc[from..].find(tag) {
                let mut start = from + i + tag.len();
                from = start;
                start += doc[start..].len() - doc[start..].trim_start_matches([' ', '\t']).len();
                let len = doc[start..]
                    .find(|c: char| c.is_whitespace() || c == '}' || c == '(' || c == ',')
                    .unwrap_or(doc.len() - start);
                if len > 0 {
                    out.push(DocRef { start: range.start + start, text: doc[start..start + len].to_string() });
                }
            }
        }
    }
    out
}

/// The byte range, in the file, of the last segment of the dotted type part of `r` when it is
/// `name` (`Old` in `a.b.Old#m`), with the dotted prefix up to it.
pub(super) fn type_segment(r: &DocRef, name: &str) -> Option<(std::ops::Range<usize>, String)> {
    let (ty, _) = r.split();
    let mut offset = 0;
    for seg in ty.split('.') {
        if seg == name {
            let prefix = ty[..offset + seg.len()].to_string();
            return Some((r.start + offset..r.start + offset + seg.len(), prefix));
        }
        offset += seg.len() + 1;
    }
    None
}
