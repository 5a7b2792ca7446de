//! Just enough of the class-file format (JVMS §4) to know, for an incremental compile, which
//! compiled classes depend on which: a class's name, its supertypes, its source file, the names
//! its constant pool mentions, and its compile-time constants (which `javac` copies into every
//! class that reads them, so a changed constant forces a full compile).

/// What [`read`] takes from one `.class` file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassInfo {
    /// Internal name: `com/acme/Foo$Bar`.
    pub name: String,
    pub super_name: Option<String>,
    pub interfaces: Vec<String>,
    /// The `SourceFile` attribute (`Foo.java`), when compiled with it.
    pub source_file: Option<String>,
    /// Every UTF-8 constant: class names, descriptors (`(Lcom/acme/Foo;)V`), member names, strings.
    pub strings: Vec<String>,
    /// `name:descriptor=value` of every field with a `ConstantValue`, sorted.
    pub constants: Vec<String>,
}

impl ClassInfo {
    /// Whether the constant pool mentions the class `name` (internal form) or one nested in it:
    /// as a class constant or inside a descriptor or signature. Over-approximates (a string
    /// literal spelling the name counts), which only recompiles more.
    pub fn mentions(&self, name: &str) -> bool {
        self.strings.iter().any(|s| {
            s.match_indices(name).any(|(at, _)| {
                let before = s[..at].chars().next_back();
                let after = s[at + name.len()..].chars().next();
                // `L` opens a class in a descriptor: `(ILa/b/Foo;)V`.
                before.is_none_or(|c| c == 'L' || (!is_ident(c) && c != '/'))
                    && after.is_none_or(|c| c == '$' || (!is_ident(c) && c != '/'))
            })
        })
    }
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$'
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let end = self.at.checked_add(n)?;
        let slice = self.bytes.get(self.at..end)?;
        self.at = end;
        Some(slice)
    }
    fn u1(&mut self) -> Option<u8> {
        Some(self.take(1)?[0])
    }
    fn u2(&mut self) -> Option<u16> {
        let b = self.take(2)?;
        Some(u16::from_be_bytes([b[0], b[1]]))
    }
    fn u4(&mut self) -> Option<u32> {
        let b = self.take(4)?;
        Some(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }
}

/// One constant-pool entry, as far as it matters here.
#[derive(Clone)]
enum Entry {
    Utf8(String),
    Class(u16),
    /// Integer, float, long, double, string: a printable value for comparing constants.
    Value(String),
    Other,
}

/// Reads a class file; `None` when it is not one (or is truncated).
pub fn read(bytes: &[u8]) -> Option<ClassInfo> {
    let mut r = Reader { bytes, at: 0 };
    if r.u4()? != 0xCAFE_BABE {
        return None;
    }
    r.take(4)?; // minor, major version
    let count = r.u2()?;
    let mut pool = vec![Entry::Other; usize::from(count)];
    let mut i = 1;
    while i < usize::from(count) {
        let tag = r.u1()?;
        let mut wide = false;
        pool[i] = match tag {
            1 => {
                let len = r.u2()?;
                // Modified UTF-8 equals UTF-8 for everything but NUL and supplementary
                // characters, which class names and descriptors do not contain in practice.
                Entry::Utf8(String::from_utf8_lossy(r.take(usize::from(len))?).into_owned())
            }
            3 => Entry::Value(format!("I{}", i32::from_be_bytes(r.take(4)?.try_into().ok()?))),
            4 => Entry::Value(format!("F{:08x}", u32::from_be_bytes(r.take(4)?.try_into().ok()?))),
            5 | 6 => {
                wide = true;
                Entry::Value(format!("{}{:016x}", tag, u64::from_be_bytes(r.take(8)?.try_into().ok()?)))
            }
            7 => Entry::Class(r.u2()?),
            8 => Entry::Value(format!("S#{}", r.u2()?)),
            9 | 10 | 11 | 12 | 17 | 18 => {
                r.take(4)?;
                Entry::Other
            }
            15 => {
                r.take(3)?;
                Entry::Other
            }
            16 | 19 | 20 => {
                r.take(2)?;
                Entry::Other
            }
            _ => return None,
        };
        i += if wide { 2 } else { 1 };
    }
    let utf8 = |i: u16| match pool.get(usize::from(i)) {
        Some(Entry::Utf8(s)) => Some(s.clone()),
        _ => None,
    };
    let class = |i: u16| match pool.get(usize::from(i)) {
        Some(Entry::Class(n)) => utf8(*n),
        _ => None,
    };
    let value = |i: u16| match pool.get(usize::from(i)) {
        Some(Entry::Value(v)) => match v.strip_prefix("S#").and_then(|n| n.parse().ok()) {
            Some(n) => utf8(n).map(|s| format!("S{s:?}")),
            None => Some(v.clone()),
        },
        _ => None,
    };
    r.take(2)?; // access flags
    let name = class(r.u2()?)?;
    let super_index = r.u2()?;
    let super_name = if super_index == 0 { None } else { Some(class(super_index)?) };
    let mut interfaces = Vec::new();
    for _ in 0..r.u2()? {
        interfaces.push(class(r.u2()?)?);
    }
    let mut constants = Vec::new();
    for members in 0..2 {
        for _ in 0..r.u2()? {
            r.take(2)?; // access flags
            let (member, descriptor) = (utf8(r.u2()?)?, utf8(r.u2()?)?);
            for _ in 0..r.u2()? {
                let attr = utf8(r.u2()?)?;
                let len = r.u4()? as usize;
                let body = r.take(len)?;
                if members == 0 && attr == "ConstantValue" && body.len() == 2 {
                    let v = value(u16::from_be_bytes([body[0], body[1]]))?;
                    constants.push(format!("{member}:{descriptor}={v}"));
                }
            }
        }
    }
    let mut source_file = None;
    for _ in 0..r.u2()? {
        let attr = utf8(r.u2()?)?;
        let len = r.u4()? as usize;
        let body = r.take(len)?;
        if attr == "SourceFile" && body.len() == 2 {
            source_file = utf8(u16::from_be_bytes([body[0], body[1]]));
        }
    }
    constants.sort();
    let strings = pool
        .into_iter()
        .filter_map(|e| match e {
            Entry::Utf8(s) => Some(s),
            _ => None,
        })
        .collect();
    Some(ClassInfo { name, super_name, interfaces, source_file, strings, constants })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(strings: &[&str]) -> ClassInfo {
        ClassInfo {
            name: "x/Y".into(),
            super_name: None,
            interfaces: vec![],
            source_file: None,
            strings: strings.iter().map(|s| s.to_string()).collect(),
            constants: vec![],
        }
    }

    #[test]
    fn mentions_match_whole_names_and_nested_classes() {
        assert!(info(&["a/b/Foo"]).mentions("a/b/Foo"));
        assert!(info(&["(La/b/Foo;)V"]).mentions("a/b/Foo"));
        assert!(info(&["a/b/Foo$Inner"]).mentions("a/b/Foo"));
        assert!(!info(&["a/b/FooBar"]).mentions("a/b/Foo"));
        assert!(!info(&["a/b/Foo/Bar"]).mentions("a/b/Foo"));
        assert!(!info(&["xa/b/Foo"]).mentions("a/b/Foo"));
    }

    #[test]
    fn reads_what_javac_writes() {
        let dir = tempfile::tempdir().unwrap();
        let src = dir.path().join("Foo.java");
        std::fs::write(
            &src,
            "package p; public class Foo extends java.util.ArrayList<String> implements Runnable {\n\
             public static final int N = 42; static final String S = \"hi\";\n\
             public void run() { System.out.println(new java.io.File(\"x\")); } }\n",
        )
        .unwrap();
        let out = std::process::Command::new("javac").arg("-d").arg(dir.path()).arg(&src).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let c = read(&std::fs::read(dir.path().join("p/Foo.class")).unwrap()).unwrap();
        assert_eq!(c.name, "p/Foo");
        assert_eq!(c.super_name.as_deref(), Some("java/util/ArrayList"));
        assert_eq!(c.interfaces, ["java/lang/Runnable"]);
        assert_eq!(c.source_file.as_deref(), Some("Foo.java"));
        assert_eq!(c.constants, ["N:I=I42", "S:Ljava/lang/String;=S\"hi\""]);
        assert!(c.mentions("java/io/File"));
        assert!(!c.mentions("java/io/FileReader"));
        assert_eq!(read(b"not a class"), None);
    }
}
