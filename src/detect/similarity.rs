//! Token-level similarity of two pieces of Java code: how alike two statements are for the
//! detector's matcher, and how close the engine's result is to a developer's for the metrics.

/// Java-ish tokens without comments or whitespace.
pub fn tokens(text: &str) -> Vec<u64> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let hash = |s: &[u8]| s.iter().fold(1469598103934665603u64, |h, b| (h ^ *b as u64).wrapping_mul(1099511628211));
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if bytes[i..].starts_with(b"//") {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
        } else if bytes[i..].starts_with(b"/*") {
            i += 2;
            while i < bytes.len() && !bytes[i..].starts_with(b"*/") {
                i += 1;
            }
            i += 2;
        } else if c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c >= 0x80 {
            let s = i;
            while i < bytes.len()
                && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_' || bytes[i] == b'$' || bytes[i] >= 0x80)
            {
                i += 1;
            }
            out.push(hash(&bytes[s..i]));
        } else if c == b'"' || c == b'\'' {
            let s = i;
            i += 1;
            while i < bytes.len() && bytes[i] != c {
                i += if bytes[i] == b'\\' { 2 } else { 1 };
            }
            i = (i + 1).min(bytes.len());
            out.push(hash(&bytes[s..i]));
        } else {
            out.push(hash(&bytes[i..i + 1]));
            i += 1;
        }
    }
    out
}

/// 2·LCS / (|a| + |b|): 1 for identical token sequences, 0 for nothing in common.
pub fn token_similarity<T: PartialEq>(a: &[T], b: &[T]) -> f64 {
    if a.is_empty() && b.is_empty() {
        return 1.0;
    }
    let mut prev = vec![0u32; b.len() + 1];
    let mut cur = vec![0u32; b.len() + 1];
    for x in a {
        for (j, y) in b.iter().enumerate() {
            cur[j + 1] = if x == y { prev[j] + 1 } else { prev[j + 1].max(cur[j]) };
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    2.0 * prev[b.len()] as f64 / (a.len() + b.len()) as f64
}

/// Token similarity of two code texts (comments and whitespace ignored).
pub fn code_similarity(a: &str, b: &str) -> f64 {
    token_similarity(&tokens(a), &tokens(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identical_code_ignoring_layout_and_comments() {
        assert_eq!(code_similarity("int x = 1; // one", "int  x =\n 1;"), 1.0);
        assert_eq!(code_similarity("a b", "c d"), 0.0);
        let s = code_similarity("return a + b;", "return a - b;");
        assert!(s > 0.7 && s < 1.0, "{s}");
    }
}
