//! A Java project on disk: its files, parsed lazily and once, stable ids, and type-name resolution.
//!
//! [`Project::open`] only walks the tree; a file is parsed the first time someone asks for it
//! ([`Project::file`]) and kept for the life of the project. [`Project::load_all`] parses every file
//! in parallel when a command needs the whole picture (the summary, a benchmark).
//!
//! Names are resolved the way javac scopes them, minus what needs the JDK: enclosing and inherited
//! member types, the file's own types, single-type imports, the same package, wildcard imports.
//! A name the project does not declare (`String`, `List`) resolves to nothing, never to a guess.
//! The hierarchy and the call graph live in [`super::hierarchy`] and [`super::calls`].

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use rayon::prelude::*;
use serde::Serialize;

mod scan;

use super::JavaError;
use super::layout::Layout;
use super::lexical;
use super::source::SourceFile;
use super::symbols::{FileSymbols, MethodDecl, TypeDecl, extract};
use scan::Scan;

/// A file of the project: its index in the sorted file list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct FileId(u32);

/// A type of the project: a file and the type's index among that file's types.
///
/// Ids are handed out only for parsed files, so every accessor taking one can rely on the parse.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct TypeId {
    file: u32,
    index: u32,
}

/// A method or constructor of the project: a file and the method's index among that file's methods.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct MethodId {
    file: u32,
    index: u32,
}

impl FileId {
    pub fn index(self) -> usize {
        self.0 as usize
    }

    pub(super) fn from_index(index: u32) -> FileId {
        FileId(index)
    }
}

impl TypeId {
    pub fn file(self) -> FileId {
        FileId(self.file)
    }
    /// Index into [`FileSymbols::types`].
    pub fn index(self) -> u32 {
        self.index
    }
}

impl MethodId {
    pub fn file(self) -> FileId {
        FileId(self.file)
    }
    /// Index into [`FileSymbols::methods`].
    pub fn index(self) -> u32 {
        self.index
    }
}

/// A parsed file: its source (text + tree) and what it declares.
#[derive(Debug)]
pub struct JavaFile {
    pub source: SourceFile,
    pub symbols: FileSymbols,
}

struct Slot {
    /// Repository-relative.
    path: PathBuf,
    /// Shared with the projects [`Project::derive`]d from this one while the file's text is theirs too.
    parsed: OnceLock<Result<Arc<JavaFile>, JavaError>>,
    /// Resolved `extends` then `implements` of each type of the file, computed on first use.
    supers: OnceLock<Vec<Vec<Option<TypeId>>>>,
    /// In a [`Project::derive`]d project, the parse of the text the overlay replaced: the new text
    /// is parsed incrementally from it (most of a file is the same after one step).
    prior: Option<Arc<JavaFile>>,
}

/// The files of one package that may declare each type name, from the lexical pass: looking up a
/// type that is not in `Name.java` (or not in the package at all, like `String`) parses only the
/// files that declare a type of that name, not the whole package.
struct PackageIndex {
    /// Type name → files declaring a type of that name (at any depth), in path order.
    by_name: HashMap<String, Vec<u32>>,
    /// Files whose brackets do not close: the parse may see types the lexical pass does not.
    suspect: Vec<u32>,
}

impl PackageIndex {
    fn new(files: &[u32], texts: &[Arc<str>]) -> PackageIndex {
        let mut by_name: HashMap<String, Vec<u32>> = HashMap::new();
        let mut suspect = Vec::new();
        for &f in files {
            let (names, open) = lexical::type_names(&texts[f as usize]);
            if open {
                suspect.push(f);
            }
            for name in names {
                let list = by_name.entry(name.to_string()).or_default();
                if list.last() != Some(&f) {
                    list.push(f);
                }
            }
        }
        PackageIndex { by_name, suspect }
    }

    /// The files to parse for a type `name`, in path order.
    fn candidates(&self, name: &str) -> impl Iterator<Item = u32> + '_ {
        let named = self.by_name.get(name).map(Vec::as_slice).unwrap_or(&[]);
        let mut merged: Vec<u32> = named.iter().chain(&self.suspect).copied().collect();
        merged.sort_unstable();
        merged.dedup();
        merged.into_iter()
    }
}

/// Where a type name was written: file, enclosing type, how many supertypes are searched.
type ResolvedAt = (u32, Option<u32>, u32);

/// A Java project: files, layout, lazily parsed symbols.
pub struct Project {
    root: PathBuf,
    layout: Layout,
    slots: Vec<Slot>,
    /// Shared by the projects derived from this one (they have the same files).
    by_path: Arc<HashMap<PathBuf, u32>>,
    scan: OnceLock<Scan>,
    /// Which files of a package may declare a type name, built when a name is not found in the file
    /// named after it.
    package_types: Mutex<HashMap<String, Arc<PackageIndex>>>,
    /// The direct subtypes of the types asked about so far (see `Project::direct_subtypes`).
    pub(super) subtypes: Mutex<HashMap<TypeId, Arc<[TypeId]>>>,
    /// Type names resolved so far, by where they were written (file, scope, how many supertypes
    /// are searched) and then by name: a method's types are resolved by every planner and engine
    /// step, and a name the project does not declare (`String`, `List`) is the costly miss.
    resolved: Mutex<HashMap<ResolvedAt, HashMap<String, Option<TypeId>>>>,
    /// Texts that replace (or add to) the files on disk; see [`Project::open_with_overlay`].
    overlay: HashMap<PathBuf, String>,
}

impl std::fmt::Debug for Project {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Project").field("root", &self.root).field("files", &self.slots.len()).finish()
    }
}

/// Folders never part of the sources, whatever `.gitignore` says (besides build outputs,
/// [`is_build_output`]).
const SKIPPED_DIRS: [&str; 2] = [".git", "node_modules"];

/// Whether the directory `rel` is a build tool's output: `.gradle` anywhere, `target` beside a
/// `pom.xml`, `build` beside a Gradle build file, and either at the project root. A source package
/// named `build` or `target` is not an output and is kept.
pub fn is_build_output(project: &Path, rel: &Path) -> bool {
    let Some(name) = rel.file_name().and_then(|n| n.to_str()) else { return false };
    let parent = project.join(rel.parent().unwrap_or(Path::new("")));
    let at_root = rel.components().count() == 1;
    match name {
        ".gradle" => true,
        "target" => at_root || parent.join("pom.xml").exists(),
        "build" => {
            at_root || ["build.gradle", "build.gradle.kts", "settings.gradle"].iter().any(|f| parent.join(f).exists())
        }
        _ => false,
    }
}

impl Project {
    /// Walks `root` for `.java` files (honouring `.gitignore`, skipping build outputs and `.git`)
    /// and detects the layout. Parses nothing.
    pub fn open(root: &Path) -> Result<Project, JavaError> {
        Ok(Project::from_files(root, Project::walk(root)?))
    }

    /// The project at `root` as it would be with `overlay`'s texts (repository-relative path → text) in
    /// place of, or beside, the files on disk. Compound refactorings plan their second step on the
    /// first step's result this way, without writing anything.
    pub fn open_with_overlay(root: &Path, overlay: HashMap<PathBuf, String>) -> Result<Project, JavaError> {
        let mut files = Project::walk(root)?;
        files.extend(overlay.keys().filter(|p| p.extension().is_some_and(|e| e == "java")).cloned());
        files.sort();
        files.dedup();
        let mut project = Project::from_files(root, files);
        project.overlay = overlay;
        Ok(project)
    }

    /// This project with one more file (or one file's text replaced), on top of its own overlay.
    pub fn with_file(&self, rel: PathBuf, text: String) -> Result<Project, JavaError> {
        self.derive(HashMap::from([(rel, text)]))
    }

    /// This project with the texts of `changes` standing in for those files (on top of its own
    /// overlay): what a step of a compound refactoring leaves for the next. When no file is added,
    /// the files keep their ids and every file whose text is unchanged keeps its parse, so the next
    /// step parses only the changed ones, incrementally from their old parse (re-opening the
    /// project would walk the tree and parse again every file the step reads); the scan of every
    /// file's text is kept too, with the changed texts in place.
    pub fn derive(&self, changes: HashMap<PathBuf, String>) -> Result<Project, JavaError> {
        let mut overlay = self.overlay.clone();
        if changes.keys().any(|p| !self.by_path.contains_key(p)) {
            overlay.extend(changes);
            return Project::open_with_overlay(&self.root, overlay);
        }
        let slots = self
            .slots
            .iter()
            .map(|s| {
                let parsed = OnceLock::new();
                let done = s.parsed.get().and_then(|p| p.as_ref().ok()).map(Arc::clone);
                let prior = match done {
                    Some(f) if !changes.contains_key(&s.path) => {
                        let _ = parsed.set(Ok(f));
                        None
                    }
                    other => other,
                };
                Slot { path: s.path.clone(), parsed, supers: OnceLock::new(), prior }
            })
            .collect();
        // The scan, when there is one, with the changed texts: a derived project would otherwise
        // gather every file's text again (and read from disk those nobody parsed).
        let scan = OnceLock::new();
        if let Some(old) = self.scan.get() {
            let _ = scan.set(old.with_changes(&self.by_path, &changes));
        }
        overlay.extend(changes);
        Ok(Project {
            root: self.root.clone(),
            layout: self.layout.clone(),
            slots,
            by_path: Arc::clone(&self.by_path),
            scan,
            package_types: Mutex::new(HashMap::new()),
            subtypes: Mutex::new(HashMap::new()),
            resolved: Mutex::new(HashMap::new()),
            overlay,
        })
    }

    fn walk(root: &Path) -> Result<Vec<PathBuf>, JavaError> {
        let mut files = Vec::new();
        let walker = ignore::WalkBuilder::new(root)
            .require_git(false)
            .filter_entry({
                let root = root.to_path_buf();
                move |e| {
                    let dir = e.file_type().is_some_and(|t| t.is_dir()) && e.depth() > 0;
                    let rel = e.path().strip_prefix(&root).unwrap_or(e.path());
                    !(dir
                        && (e.file_name().to_str().is_some_and(|n| SKIPPED_DIRS.contains(&n))
                            || is_build_output(&root, rel)))
                }
            })
            .build();
        for entry in walker {
            let entry = entry.map_err(|e| JavaError::Io {
                path: root.to_path_buf(),
                source: e.into_io_error().unwrap_or_else(|| std::io::Error::other("cannot walk the directory")),
            })?;
            let path = entry.path();
            if entry.file_type().is_some_and(|t| t.is_file()) && path.extension().is_some_and(|e| e == "java") {
                let rel = path.strip_prefix(root).unwrap_or(path).to_path_buf();
                files.push(rel);
            }
        }
        files.sort();
        Ok(files)
    }

    /// A project over exactly these repository-relative files.
    pub fn from_files(root: &Path, files: Vec<PathBuf>) -> Project {
        let layout = Layout::detect(root, &files);
        let by_path = Arc::new(files.iter().enumerate().map(|(i, p)| (p.clone(), i as u32)).collect());
        let slots = files
            .into_iter()
            .map(|path| Slot { path, parsed: OnceLock::new(), supers: OnceLock::new(), prior: None })
            .collect();
        Project {
            root: root.to_path_buf(),
            layout,
            slots,
            by_path,
            scan: OnceLock::new(),
            package_types: Mutex::new(HashMap::new()),
            subtypes: Mutex::new(HashMap::new()),
            resolved: Mutex::new(HashMap::new()),
            overlay: HashMap::new(),
        }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    pub fn file_count(&self) -> usize {
        self.slots.len()
    }

    /// Every file, in path order.
    pub fn file_ids(&self) -> impl Iterator<Item = FileId> + '_ {
        (0..self.slots.len() as u32).map(FileId)
    }

    /// The repository-relative path of a file.
    pub fn path(&self, file: FileId) -> &Path {
        &self.slots[file.index()].path
    }

    /// Whether a file lies under a test root (test code, as opposed to main code).
    pub fn is_test_code(&self, file: FileId) -> bool {
        self.layout().is_test_file(self.path(file))
    }

    /// The file at a repository-relative path.
    pub fn file_id(&self, rel: &Path) -> Option<FileId> {
        self.by_path.get(rel).map(|i| FileId(*i))
    }

    /// The parsed file, parsing it on first use. Unreadable or non-UTF-8 files are errors; files with
    /// syntax errors parse (tree-sitter recovers) and report them through [`SourceFile::syntax_error`].
    pub fn file(&self, file: FileId) -> Result<&JavaFile, JavaError> {
        let slot = &self.slots[file.index()];
        let parsed = slot.parsed.get_or_init(|| {
            let source = match self.scan.get() {
                _ if self.overlay.contains_key(&slot.path) => {
                    let text = self.overlay[&slot.path].clone();
                    Ok(match &slot.prior {
                        Some(prior) => prior.source.reparse(text),
                        None => SourceFile::parse(slot.path.clone(), text),
                    })
                }
                // The scan keeps a lossy text of unreadable files for its substring searches; a
                // parse of that text could be edited and written back with replacement characters.
                Some(scan) => match scan.unreadable.iter().find(|(i, _)| *i as usize == file.index()) {
                    Some((_, e)) => Err(copy_error(e)),
                    None => Ok(SourceFile::parse(slot.path.clone(), scan.texts[file.index()].to_string())),
                },
                None => SourceFile::read(&self.root.join(&slot.path), slot.path.clone()),
            }?;
            let symbols = extract(&source);
            Ok(Arc::new(JavaFile { source, symbols }))
        });
        parsed.as_deref().map_err(copy_error)
    }

    /// The file if someone already parsed it (never parses).
    pub(super) fn parsed_already(&self, file: FileId) -> Option<&JavaFile> {
        self.slots[file.index()].parsed.get()?.as_deref().ok()
    }

    /// The file if it parses; `None` for unreadable files, which lookups skip.
    pub(super) fn parsed(&self, file: u32) -> Option<&JavaFile> {
        self.file(FileId(file)).ok()
    }

    /// Parses every file in parallel (rayon's current pool). Returns the files that could not be read.
    pub fn load_all(&self) -> Vec<(FileId, JavaError)> {
        (0..self.slots.len() as u32)
            .into_par_iter()
            .filter_map(|i| self.file(FileId(i)).err().map(|e| (FileId(i), e)))
            .collect()
    }

    /// The parsed file of an id. Ids exist only for parsed files, so the parse is there.
    fn known(&self, file: u32) -> &JavaFile {
        match self.slots[file as usize].parsed.get() {
            Some(Ok(f)) => f.as_ref(),
            // TypeId and MethodId have private fields and are only built from a successful parse.
            _ => unreachable!("an id exists only for a parsed file"),
        }
    }

    pub fn source(&self, id: TypeId) -> &SourceFile {
        &self.known(id.file).source
    }

    pub fn method_source(&self, id: MethodId) -> &SourceFile {
        &self.known(id.file).source
    }

    pub fn symbols_of(&self, id: TypeId) -> &FileSymbols {
        &self.known(id.file).symbols
    }

    pub fn type_decl(&self, id: TypeId) -> &TypeDecl {
        &self.known(id.file).symbols.types[id.index as usize]
    }

    pub fn method(&self, id: MethodId) -> &MethodDecl {
        &self.known(id.file).symbols.methods[id.index as usize]
    }

    /// The type declaring a method.
    pub fn owner(&self, id: MethodId) -> TypeId {
        TypeId { file: id.file, index: self.method(id).owner }
    }

    /// The type a member, local or anonymous type is declared in; `None` for a top-level type.
    pub fn enclosing_type(&self, ty: TypeId) -> Option<TypeId> {
        self.type_decl(ty).parent.map(|index| TypeId { file: ty.file, index })
    }

    /// The top-level type around `ty` (`ty` itself when it is top-level).
    pub fn top_level_of(&self, ty: TypeId) -> TypeId {
        let mut t = ty;
        while let Some(p) = self.enclosing_type(t) {
            t = p;
        }
        t
    }

    /// The package of the file declaring `ty`; empty for the default package.
    pub fn package_of(&self, ty: TypeId) -> &str {
        self.symbols_of(ty).package.as_deref().unwrap_or("")
    }

    /// The types of a parsed file, in document order.
    pub fn types_in(&self, file: FileId) -> Result<Vec<TypeId>, JavaError> {
        let f = self.file(file)?;
        Ok((0..f.symbols.types.len() as u32).map(|index| TypeId { file: file.0, index }).collect())
    }

    /// The methods of a parsed file, in document order.
    pub fn methods_in(&self, file: FileId) -> Result<Vec<MethodId>, JavaError> {
        let f = self.file(file)?;
        Ok((0..f.symbols.methods.len() as u32).map(|index| MethodId { file: file.0, index }).collect())
    }

    /// The methods and constructors a type declares itself.
    pub fn methods_of(&self, ty: TypeId) -> Vec<MethodId> {
        self.type_decl(ty).methods.iter().map(|&index| MethodId { file: ty.file, index }).collect()
    }

    pub(super) fn supers_slot(&self, file: FileId) -> &OnceLock<Vec<Vec<Option<TypeId>>>> {
        &self.slots[file.index()].supers
    }

    /// The type with this index in a parsed file.
    pub(super) fn type_id(&self, file: u32, index: u32) -> TypeId {
        TypeId { file, index }
    }

    pub(super) fn method_id(&self, file: u32, index: u32) -> MethodId {
        MethodId { file, index }
    }

    /// `Class.method(Type, ...)`: how results and prompts name a method (erased parameter types).
    pub fn method_label(&self, method: MethodId) -> String {
        let decl = self.method(method);
        let owner = self.type_decl(self.owner(method));
        let params: Vec<String> = decl.params.iter().map(|p| p.ty.erased()).collect();
        format!("{}.{}({})", owner.display, decl.name, params.join(", "))
    }

    /// `a.b.Outer.Inner`; anonymous classes as `a.b.Outer$1`.
    pub fn qualified_name(&self, id: TypeId) -> String {
        let f = self.known(id.file);
        let display = &f.symbols.types[id.index as usize].display;
        match &f.symbols.package {
            Some(p) => format!("{p}.{display}"),
            None => display.clone(),
        }
    }

    /// Finds a type by its fully qualified name (`a.b.Outer.Inner`).
    pub fn find_type(&self, qualified: &str) -> Option<TypeId> {
        let segs: Vec<&str> = qualified.split('.').collect();
        for split in (0..segs.len()).rev() {
            let package = segs[..split].join(".");
            if let Some(top) = self.top_level_type(&package, segs[split]) {
                return segs[split + 1..].iter().try_fold(top, |t, seg| self.member_type(t, seg, 0));
            }
        }
        None
    }

    /// A top-level type of `package` (empty for the default package).
    fn top_level_type(&self, package: &str, name: &str) -> Option<TypeId> {
        let scan = self.scan();
        let files = scan.packages.get(package)?;
        // Java convention first: `Name` lives in `Name.java`.
        for &f in files {
            if self.slots[f as usize].path.file_stem().is_some_and(|s| s == name)
                && let Some(t) = self.top_level_in(f, name)
            {
                return Some(t);
            }
        }
        let cached = self.package_types.lock().ok().and_then(|m| m.get(package).cloned());
        let index = match cached {
            Some(index) => index,
            None => {
                let index = Arc::new(PackageIndex::new(files, &scan.texts));
                if let Ok(mut m) = self.package_types.lock() {
                    m.insert(package.to_string(), index.clone());
                }
                index
            }
        };
        // the first file (in path order) that declares it, parsing only the candidates
        index.candidates(name).find_map(|f| self.top_level_in(f, name))
    }

    fn top_level_in(&self, file: u32, name: &str) -> Option<TypeId> {
        let f = self.parsed(file)?;
        let i = f.symbols.types.iter().position(|t| t.parent.is_none() && t.name == name)?;
        Some(TypeId { file, index: i as u32 })
    }

    /// A member type `name` of `ty`, looking `inherit` levels up its supertypes too.
    pub(super) fn member_type(&self, ty: TypeId, name: &str, inherit: u32) -> Option<TypeId> {
        let decl = self.type_decl(ty);
        let syms = self.symbols_of(ty);
        if let Some(&n) = decl.nested.iter().find(|&&n| syms.types[n as usize].name == name) {
            return Some(TypeId { file: ty.file, index: n });
        }
        if inherit == 0 {
            return None;
        }
        self.direct_supertype_ids(ty).into_iter().flatten().find_map(|s| self.member_type(s, name, inherit - 1))
    }

    /// Resolves a type name as written inside type `scope` (or at the top level of `file` when `None`):
    /// `Inner`, `Outer.Inner`, `a.b.C`, with type arguments and array brackets already removed.
    pub fn resolve_type(&self, file: FileId, scope: Option<u32>, name: &str) -> Option<TypeId> {
        self.resolve_type_in(file.0, scope, name, 2)
    }

    pub(super) fn resolve_type_in(&self, file: u32, scope: Option<u32>, name: &str, inherit: u32) -> Option<TypeId> {
        if name.is_empty() {
            return None;
        }
        let at = (file, scope, inherit);
        if let Some(known) = self.resolved.lock().ok().and_then(|m| m.get(&at).and_then(|n| n.get(name).copied())) {
            return known;
        }
        // Resolved without the lock held: resolving a supertype comes back here.
        let found = self.resolve_uncached(file, scope, name, inherit);
        if let Ok(mut m) = self.resolved.lock() {
            m.entry(at).or_default().insert(name.to_string(), found);
        }
        found
    }

    fn resolve_uncached(&self, file: u32, scope: Option<u32>, name: &str, inherit: u32) -> Option<TypeId> {
        let (first, rest) = match name.split_once('.') {
            Some((f, r)) => (f, Some(r)),
            None => (name, None),
        };
        match self.resolve_simple(file, scope, first, inherit) {
            Some(t) => match rest {
                None => Some(t),
                Some(rest) => rest.split('.').try_fold(t, |t, seg| self.member_type(t, seg, inherit)),
            },
            None if rest.is_some() => self.find_type(name),
            None => None,
        }
    }

    fn resolve_simple(&self, file: u32, scope: Option<u32>, name: &str, inherit: u32) -> Option<TypeId> {
        let f = self.parsed(file)?;
        let syms = &f.symbols;
        let mut cur = scope;
        while let Some(t) = cur {
            let decl = &syms.types[t as usize];
            if decl.name == name {
                return Some(TypeId { file, index: t });
            }
            if let Some(m) = self.member_type(TypeId { file, index: t }, name, inherit) {
                return Some(m);
            }
            cur = decl.parent;
        }
        if let Some(i) = syms.types.iter().position(|t| t.parent.is_none() && t.name == name) {
            return Some(TypeId { file, index: i as u32 });
        }
        for imp in syms.imports.iter().filter(|i| !i.wildcard) {
            if imp.path.rsplit('.').next() == Some(name)
                && let Some(t) = self.find_type(&imp.path)
            {
                return Some(t);
            }
        }
        let package = syms.package.as_deref().unwrap_or("");
        if let Some(t) = self.top_level_type(package, name) {
            return Some(t);
        }
        for imp in syms.imports.iter().filter(|i| i.wildcard) {
            if let Some(t) = self.find_type(&format!("{}.{name}", imp.path)) {
                return Some(t);
            }
        }
        None
    }
}

/// `JavaError` holds an `io::Error`, which is not `Clone`; cached failures are handed out as copies.
pub(super) fn copy_error(e: &JavaError) -> JavaError {
    match e {
        JavaError::Io { path, source } => {
            JavaError::Io { path: path.clone(), source: std::io::Error::new(source.kind(), source.to_string()) }
        }
        JavaError::NotUtf8 { path, line } => JavaError::NotUtf8 { path: path.clone(), line: *line },
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Writes `files` (path, text) under a temporary directory and opens it as a project.
    pub(crate) fn project(files: &[(&str, &str)]) -> (tempfile::TempDir, Project) {
        let dir = tempfile::tempdir().expect("tempdir");
        for (path, text) in files {
            let p = dir.path().join(path);
            std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
            std::fs::write(p, text).expect("write");
        }
        let project = Project::open(dir.path()).expect("open");
        (dir, project)
    }

    /// A derived project reads the changed file's new text and shares every other parse; one that
    /// adds a file is opened again, with the texts changed before still in it.
    #[test]
    fn a_derived_project_shares_the_parse_of_unchanged_files() {
        let (_d, p) =
            project(&[("a/A.java", "package a; class A { void f() {} }"), ("a/B.java", "package a; class B {}")]);
        p.load_all();
        let (a, b) = (p.file_id(Path::new("a/A.java")).unwrap(), p.file_id(Path::new("a/B.java")).unwrap());
        let text = "package a; class A { void f() {} void h() {} }".to_string();
        let d = p.derive(HashMap::from([(PathBuf::from("a/A.java"), text)])).unwrap();
        assert_eq!(d.methods_in(a).unwrap().len(), 2);
        assert!(std::ptr::eq(p.file(b).unwrap(), d.parsed_already(b).unwrap()), "B was parsed again");
        let added =
            d.derive(HashMap::from([(PathBuf::from("a/C.java"), "package a; class C {}".to_string())])).unwrap();
        assert_eq!(added.file_ids().count(), 3);
        assert_eq!(added.methods_in(added.file_id(Path::new("a/A.java")).unwrap()).unwrap().len(), 2);
    }

    /// A derived project keeps the scan of the one it comes from, with the changed texts in it: a
    /// file that moves to another package is found in its new one, and text searches see the new
    /// text, without reading the files again.
    #[test]
    fn a_derived_project_keeps_the_scan_with_the_changed_texts() {
        let (dir, p) =
            project(&[("a/A.java", "package a; class A { void f() {} }"), ("a/B.java", "package a; class B {}")]);
        let (a, b) = (p.file_id(Path::new("a/A.java")).unwrap(), p.file_id(Path::new("a/B.java")).unwrap());
        assert_eq!(p.files_in_package("a"), [a, b]);
        // Gone from disk: a derived project that read the files again would not find B.
        std::fs::remove_file(dir.path().join("a/B.java")).unwrap();
        let text = "package c; class A { void marker() {} }".to_string();
        let d = p.derive(HashMap::from([(PathBuf::from("a/A.java"), text)])).unwrap();
        assert_eq!(d.files_in_package("a"), [b]);
        assert_eq!(d.files_in_package("c"), [a]);
        assert_eq!(d.files_containing("marker"), [a]);
        assert_eq!(d.files_containing("class B"), [b]);
        assert!(p.files_containing("marker").is_empty(), "the project derived from changed");
        assert!(d.find_type("c.A").is_some() && d.find_type("a.A").is_none());
    }

    pub(crate) fn type_named(p: &Project, display: &str) -> TypeId {
        p.load_all();
        for f in p.file_ids() {
            for t in p.types_in(f).expect("parsed") {
                if p.type_decl(t).display == display {
                    return t;
                }
            }
        }
        panic!("no type {display}")
    }

    #[test]
    fn a_file_that_is_not_utf8_stays_an_error_after_the_scan() {
        let (d, p) = project(&[("src/main/java/a/A.java", "package a; class A {}")]);
        std::fs::write(d.path().join("src/main/java/a/B.java"), b"package a; class B { String s = \"\xff\"; }")
            .unwrap();
        let p2 = Project::open(d.path()).unwrap();
        drop(p);
        assert_eq!(p2.files_containing("class B").len(), 1, "the scan reads it lossily");
        let b = p2.file_id(Path::new("src/main/java/a/B.java")).unwrap();
        assert!(matches!(p2.file(b), Err(JavaError::NotUtf8 { line: 1, .. })));
    }

    #[test]
    fn overlay_replaces_and_adds_files() {
        let (d, _) = project(&[("src/main/java/a/A.java", "package a; class A { void m() {} }")]);
        let overlay = HashMap::from([
            (PathBuf::from("src/main/java/a/A.java"), "package a; class A { void n() {} }".to_string()),
            (PathBuf::from("src/main/java/a/B.java"), "package a; class B extends A {}".to_string()),
        ]);
        let p = Project::open_with_overlay(d.path(), overlay).expect("open");
        assert_eq!(p.file_count(), 2);
        let a = type_named(&p, "A");
        let names: Vec<&str> = p.methods_of(a).into_iter().map(|m| p.method(m).name.as_str()).collect();
        assert_eq!(names, ["n"]);
        let b = type_named(&p, "B");
        assert_eq!(p.superclass(b), Some(a));
        assert!(std::fs::read_to_string(d.path().join("src/main/java/a/A.java")).expect("read").contains("m()"));
    }

    #[test]
    fn walks_and_skips_build_output() {
        let (_d, p) = project(&[
            ("src/main/java/a/A.java", "package a; class A {}"),
            ("target/gen/B.java", "class B {}"),
            ("build/C.java", "class C {}"),
            ("ignored/D.java", "class D {}"),
            (".gitignore", "ignored/\n"),
            // A module's outputs, beside its build file; a package named `build` is a source.
            ("tools/build.gradle", ""),
            ("tools/build/gen/E.java", "class E {}"),
            ("tools/src/main/java/org/x/build/F.java", "package org.x.build; class F {}"),
            ("tools/src/main/java/org/x/target/G.java", "package org.x.target; class G {}"),
        ]);
        let paths: Vec<&Path> = p.file_ids().map(|f| p.path(f)).collect();
        assert_eq!(
            paths,
            [
                Path::new("src/main/java/a/A.java"),
                Path::new("tools/src/main/java/org/x/build/F.java"),
                Path::new("tools/src/main/java/org/x/target/G.java"),
            ]
        );
        assert!(p.slots[0].parsed.get().is_none(), "open parses nothing");
    }

    #[test]
    fn resolves_names_through_scopes_imports_and_packages() {
        let (_d, p) = project(&[
            ("src/a/Outer.java", "package a; import b.Imported; import c.*; public class Outer { class Inner {} }"),
            ("src/a/Same.java", "package a; class Same {} class Secondary {}"),
            ("src/b/Imported.java", "package b; public class Imported { public static class Nested {} }"),
            ("src/c/Wild.java", "package c; public class Wild {}"),
        ]);
        let outer = type_named(&p, "Outer");
        let f = outer.file();
        let scope = Some(outer.index());
        let name = |t: Option<TypeId>| t.map(|t| p.qualified_name(t));
        assert_eq!(name(p.resolve_type(f, scope, "Inner")), Some("a.Outer.Inner".into()));
        assert_eq!(name(p.resolve_type(f, scope, "Same")), Some("a.Same".into()));
        assert_eq!(name(p.resolve_type(f, scope, "Secondary")), Some("a.Secondary".into()));
        assert_eq!(name(p.resolve_type(f, scope, "Imported")), Some("b.Imported".into()));
        assert_eq!(name(p.resolve_type(f, scope, "Imported.Nested")), Some("b.Imported.Nested".into()));
        assert_eq!(name(p.resolve_type(f, scope, "Wild")), Some("c.Wild".into()));
        assert_eq!(name(p.resolve_type(f, scope, "b.Imported")), Some("b.Imported".into()));
        assert_eq!(name(p.resolve_type(f, scope, "String")), None);
    }
}
