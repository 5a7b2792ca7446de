//! The workspace: a git worktree (or, outside git, a copy) of a real repository (made here with the
//! `git` CLI), applied back atomically, removed and pruned on every exit path including SIGINT.

use std::collections::BTreeMap;
use std::io::BufRead;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use mantra::engine::{ChangeSet, Edit};
use mantra::workspace::writeback::WriteError;
use mantra::workspace::{Workspace, WorkspaceError, WorkspaceKind, WorkspaceOptions, dirty_state_hash};

use crate::harness::{git, interrupt};

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn read(root: &Path, rel: &str) -> String {
    std::fs::read_to_string(root.join(rel)).unwrap()
}

/// Every file and link under `dir` (links as `-> target`), never following links, `.git` (a
/// repository's folder, a worktree's file) skipped.
fn tree(dir: &Path) -> BTreeMap<String, String> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, String>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let e = e.unwrap();
            let path = e.path();
            let rel = path.strip_prefix(root).unwrap().to_string_lossy().into_owned();
            let kind = e.file_type().unwrap();
            if e.file_name() == ".git" {
                continue;
            }
            if kind.is_symlink() {
                out.insert(rel, format!("-> {}", std::fs::read_link(&path).unwrap().display()));
            } else if kind.is_dir() {
                walk(root, &path, out);
            } else {
                out.insert(rel, String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// A workspace of the [`messy_repo`] at `r`: a worktree holding exactly the user's working tree
/// minus its ignored files (`debug.log`, `out/`).
fn worktree_like_the_user(r: &Path) -> Workspace {
    let ws = Workspace::create(r).unwrap();
    assert_eq!(ws.kind(), WorkspaceKind::Worktree);
    let mut expected = tree(r);
    expected.remove("debug.log");
    expected.remove("out/Generated.java");
    assert_eq!(tree(ws.root()), expected);
    ws
}

/// A repository with every kind of working-tree state.
fn messy_repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let r = dir.path();
    git(r, &["init", "-q"]);
    write(r, ".gitignore", "*.log\nout/\n*.jar\n");
    for f in ["a.txt", "modified.txt", "deleted.txt", "staged.txt", "staged_deleted.txt"] {
        write(r, f, &format!("{f} committed\n"));
    }
    write(r, "lib/wrapper.jar", "tracked although ignored\n");
    git(r, &["add", "."]);
    git(r, &["add", "-f", "lib/wrapper.jar"]);
    git(r, &["commit", "-qm", "init"]);
    write(r, "modified.txt", "modified in the working tree\n");
    std::fs::remove_file(r.join("deleted.txt")).unwrap();
    write(r, "staged.txt", "staged change\n");
    git(r, &["add", "staged.txt"]);
    git(r, &["rm", "-q", "staged_deleted.txt"]);
    write(r, "new_staged.txt", "new and staged\n");
    git(r, &["add", "new_staged.txt"]);
    write(r, "untracked.txt", "untracked\n");
    write(r, "dir/nested/untracked.txt", "untracked in a new directory\n");
    write(r, "debug.log", "ignored\n");
    write(r, "out/Generated.java", "ignored directory\n");
    dir
}

#[test]
fn workspace_equals_the_working_tree_minus_ignored_files() {
    let repo = messy_repo();
    let status_before = git(repo.path(), &["status", "--porcelain"]);
    let ws = worktree_like_the_user(repo.path());
    let expected = tree(ws.root());
    assert!(expected.contains_key("lib/wrapper.jar") && expected.contains_key("dir/nested/untracked.txt"));
    assert_eq!(read(ws.root(), "modified.txt"), "modified in the working tree\n");
    assert_eq!(read(ws.root(), "staged.txt"), "staged change\n");
    assert!(ws.head().is_some());
    assert_eq!(ws.kind(), WorkspaceKind::Worktree);

    // A linked worktree detached at HEAD; the user's branches, index and status are untouched.
    let root = ws.root().to_path_buf();
    assert!(root.starts_with(std::env::temp_dir().canonicalize().unwrap()), "{}", root.display());
    let list = git(repo.path(), &["worktree", "list", "--porcelain"]);
    assert!(list.contains(&format!("worktree {}", root.display())) && list.contains("detached"), "{list}");
    assert_eq!(git(&root, &["rev-parse", "HEAD"]), git(repo.path(), &["rev-parse", "HEAD"]));
    assert_eq!(git(repo.path(), &["branch", "--list"]).lines().count(), 1, "no branch left behind");
    assert_eq!(git(repo.path(), &["status", "--porcelain"]), status_before);
    drop(ws);
    assert!(!root.exists());
    assert_eq!(git(repo.path(), &["status", "--porcelain"]), status_before);
    assert_eq!(git(repo.path(), &["worktree", "list"]).lines().count(), 1);
    assert_eq!(std::fs::read_dir(repo.path().join(".git/worktrees")).map_or(0, |d| d.count()), 0);
}

#[test]
fn a_mode_change_and_a_file_replacing_a_directory_come_along() {
    let repo = messy_repo();
    let r = repo.path();
    write(r, "tool.sh", "#!/bin/sh\n");
    write(r, "was_dir/inner.txt", "committed\n");
    git(r, &["add", "."]);
    git(r, &["commit", "-qm", "more"]);
    std::fs::set_permissions(r.join("tool.sh"), std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::remove_dir_all(r.join("was_dir")).unwrap();
    write(r, "was_dir", "now a file, untracked\n");
    let ws = worktree_like_the_user(r);
    let mode = std::fs::metadata(ws.root().join("tool.sh")).unwrap().permissions().mode();
    assert_eq!(mode & 0o111, 0o111);
}

/// A folder the user replaced by a file, a file and a link the user replaced by folders: the
/// checkout of HEAD has the old kinds, and the workspace must end up with the user's. With many
/// files under the folder, removing it while other threads copy raced (CI saw `NotFound`).
#[test]
fn files_and_folders_that_changed_kind_are_the_users_and_no_copy_goes_through_a_link() {
    let repo = messy_repo();
    let r = repo.path();
    let outside = tempfile::tempdir().unwrap();
    for i in 0..300 {
        write(r, &format!("big_dir/f{i}.txt"), "committed\n");
    }
    write(r, "was_file", "a file\n");
    std::os::unix::fs::symlink(outside.path(), r.join("was_link")).unwrap();
    git(r, &["add", "."]);
    git(r, &["commit", "-qm", "kinds"]);
    std::fs::remove_dir_all(r.join("big_dir")).unwrap();
    write(r, "big_dir", "now a file\n");
    git(r, &["rm", "-q", "was_file", "was_link"]);
    write(r, "was_file/inner.txt", "under a folder now\n");
    write(r, "was_link/inner.txt", "under a real folder now\n");
    let ws = worktree_like_the_user(r);
    assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 0, "nothing written through the link");
    drop(ws);
}

#[test]
fn a_locked_index_does_not_stop_a_worktree() {
    let repo = messy_repo();
    // Another git process (an IDE) is writing the index.
    std::fs::write(repo.path().join(".git/index.lock"), "").unwrap();
    let ws = Workspace::create(repo.path()).unwrap();
    assert_eq!(ws.kind(), WorkspaceKind::Worktree);
    assert_eq!(read(ws.root(), "staged.txt"), "staged change\n");
    drop(ws);
    assert!(repo.path().join(".git/index.lock").exists(), "the user's lock is theirs");
    std::fs::remove_file(repo.path().join(".git/index.lock")).unwrap();
    assert_eq!(git(repo.path(), &["worktree", "list"]).lines().count(), 1);
}

#[test]
fn stale_worktrees_of_killed_runs_are_pruned_and_others_left_alone() {
    let repo = messy_repo();
    let r = repo.path();
    let elsewhere = tempfile::tempdir().unwrap();
    // The user's own worktree, and one a `kill -9`ed mantra (pid 4194304 > pid_max) left behind.
    let theirs = elsewhere.path().join("theirs");
    git(r, &["worktree", "add", "-q", "--detach", theirs.to_str().unwrap()]);
    let stale = elsewhere.path().join("mantra-ws-4194304-0-0");
    git(r, &["worktree", "add", "-q", "--detach", stale.to_str().unwrap()]);
    git(r, &["branch", "mantra-ws-tmp-mantra-ws-4194304-0-1"]);
    std::fs::remove_dir_all(&stale).unwrap();
    let ws = Workspace::create(r).unwrap();
    assert_eq!(ws.kind(), WorkspaceKind::Worktree);
    drop(ws);
    let list = git(r, &["worktree", "list", "--porcelain"]);
    assert_eq!(list.matches("worktree ").count(), 2, "{list}");
    assert!(list.contains("theirs"), "{list}");
    assert!(!git(r, &["branch", "--list"]).contains("mantra-ws-tmp"), "the stale branch is gone");
}

#[test]
fn a_repository_without_commits() {
    let dir = tempfile::tempdir().unwrap();
    git(dir.path(), &["init", "-q"]);
    write(dir.path(), "Staged.java", "class Staged {}\n");
    git(dir.path(), &["add", "Staged.java"]);
    write(dir.path(), "Untracked.java", "class Untracked {}\n");
    let ws = Workspace::create(dir.path()).unwrap();
    assert_eq!(ws.head(), None);
    assert_eq!(tree(ws.root()), tree(dir.path()));
    assert!(dirty_state_hash(dir.path()).unwrap().starts_with("unborn-"));
}

#[test]
fn editing_the_workspace_leaves_the_user_alone_until_applied_back() {
    let repo = messy_repo();
    let ws = Workspace::create(repo.path()).unwrap();
    write(ws.root(), "a.txt", "edited in the workspace\n");
    write(ws.root(), "src/New.java", "class New {}\n");
    std::fs::remove_file(ws.root().join("untracked.txt")).unwrap();
    assert_eq!(read(repo.path(), "a.txt"), "a.txt committed\n");
    assert!(!repo.path().join("src/New.java").exists());
    let changes = ws.changes().unwrap();
    assert_eq!(changes.modified, [PathBuf::from("a.txt")]);
    assert_eq!(changes.created, [PathBuf::from("src/New.java")]);
    assert_eq!(changes.deleted, [PathBuf::from("untracked.txt")]);

    let written = ws.apply_back_paths(&changes.modified.iter().chain(&changes.created).cloned().collect::<Vec<_>>());
    assert_eq!(written.unwrap(), [PathBuf::from("a.txt"), PathBuf::from("src/New.java")]);
    assert_eq!(read(repo.path(), "a.txt"), "edited in the workspace\n");
    assert_eq!(read(repo.path(), "src/New.java"), "class New {}\n");
    assert!(repo.path().join("untracked.txt").exists(), "deletions are not applied back");
    let leftovers: Vec<_> = tree(repo.path()).into_keys().filter(|k| k.contains(".mantra-")).collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");

    // A change set computed against the workspace's copy.
    let ws = Workspace::create(repo.path()).unwrap();
    let original = read(ws.root(), "modified.txt");
    let mut cs = ChangeSet::new();
    cs.edit(Path::new("modified.txt"), &original, Edit::replace(0..8, "rewritten"));
    cs.edit(Path::new("staged.txt"), &read(ws.root(), "staged.txt"), Edit::insert(0, "// "));
    ws.apply_back(&cs).unwrap();
    assert_eq!(read(repo.path(), "modified.txt"), "rewritten in the working tree\n");
    assert_eq!(read(repo.path(), "staged.txt"), "// staged change\n");
}

#[test]
fn apply_back_refuses_a_file_the_user_changed_meanwhile() {
    let repo = messy_repo();
    let ws = Workspace::create(repo.path()).unwrap();
    write(ws.root(), "a.txt", "workspace a\n");
    write(ws.root(), "modified.txt", "workspace modified\n");
    write(repo.path(), "modified.txt", "the user kept typing\n");

    let err = ws.apply_back_paths(&["a.txt".into(), "modified.txt".into()]).unwrap_err();
    assert!(
        matches!(&err, WorkspaceError::Write(WriteError::Changed { path }) if path == Path::new("modified.txt")),
        "{err}"
    );
    assert!(err.to_string().contains("modified.txt"), "{err}");
    assert_eq!(read(repo.path(), "a.txt"), "a.txt committed\n", "nothing is written");
    assert_eq!(read(repo.path(), "modified.txt"), "the user kept typing\n");

    // Same for a change set, even though its `original` matches the workspace's copy.
    let mut cs = ChangeSet::new();
    cs.edit(Path::new("a.txt"), "a.txt committed\n", Edit::insert(0, "x"));
    cs.edit(Path::new("modified.txt"), "modified in the working tree\n", Edit::insert(0, "x"));
    assert!(matches!(ws.apply_back(&cs), Err(WorkspaceError::Write(WriteError::Changed { .. }))));
    assert_eq!(read(repo.path(), "a.txt"), "a.txt committed\n");

    // Paths leaving the project, or ignored files the workspace never had, are refused.
    for bad in ["../escape.txt", "/etc/passwd", "debug.log"] {
        let err = ws.apply_back_paths(&[bad.into()]).unwrap_err();
        assert!(matches!(err, WorkspaceError::Refused { .. }), "{bad}: {err}");
    }
}

#[test]
fn dropped_on_panic_and_kept_on_request() {
    let repo = messy_repo();
    let seen = std::sync::Mutex::new(PathBuf::new());
    let result = std::panic::catch_unwind(|| {
        let ws = Workspace::create(repo.path()).unwrap();
        *seen.lock().unwrap() = ws.root().to_path_buf();
        panic!("a refactoring step failed");
    });
    assert!(result.is_err());
    let root = seen.into_inner().unwrap();
    assert!(root.as_os_str().len() > 1 && !root.exists(), "{}", root.display());

    assert_eq!(git(repo.path(), &["worktree", "list"]).lines().count(), 1, "pruned after the panic");

    let kept = Workspace::create_with(repo.path(), &WorkspaceOptions { keep: true, parent: None }).unwrap();
    let root = kept.root().to_path_buf();
    assert!(kept.is_kept());
    drop(kept);
    assert!(root.join("a.txt").exists());
    assert!(git(repo.path(), &["worktree", "list"]).contains(root.to_str().unwrap()), "a kept worktree is listed");
    // As the README says to remove it.
    git(repo.path(), &["worktree", "remove", "--force", root.to_str().unwrap()]);
    assert!(!root.exists());
    assert_eq!(git(repo.path(), &["worktree", "list"]).lines().count(), 1);
}

/// Not a test on its own: the child process of `sigint_removes_live_workspaces`.
#[test]
#[ignore = "run by sigint_removes_live_workspaces as a child process"]
fn sigint_child() {
    let repo = PathBuf::from(std::env::var_os("MANTRA_TEST_REPO").expect("set by the parent test"));
    let ws = Workspace::create(&repo).unwrap();
    let ws2 = Workspace::create(&repo).unwrap();
    println!("WORKSPACE {}", ws.root().display());
    println!("WORKSPACE {}", ws2.root().display());
    std::thread::sleep(Duration::from_secs(60));
    unreachable!("the parent interrupts us");
}

/// Runs this test binary's test `name` alone as a child process with `env`.
fn child(name: &str, env: &[(&str, &Path)]) -> Command {
    let mut cmd = Command::new(std::env::current_exe().unwrap());
    cmd.args([name, "--exact", "--ignored", "--nocapture", "--test-threads=1"]);
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd
}

#[test]
fn sigint_removes_live_workspaces() {
    let repo = messy_repo();
    let tmp = tempfile::tempdir().unwrap();
    let mut proc = child("workspace::sigint_child", &[("MANTRA_TEST_REPO", repo.path()), ("TMPDIR", tmp.path())])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = std::io::BufReader::new(proc.stdout.take().unwrap()).lines();
    let mut roots = Vec::new();
    while roots.len() < 2 {
        let line = lines.next().expect("the child prints its workspaces").unwrap();
        // libtest prints `test name ... ` before the test's own output, on the same line.
        if let Some((_, path)) = line.split_once("WORKSPACE ") {
            roots.push(PathBuf::from(path));
        }
    }
    for root in &roots {
        assert!(root.join("a.txt").exists(), "{}", root.display());
    }
    let status = interrupt(&mut proc);
    assert_eq!(status.code(), Some(mantra::exit::INTERRUPTED));
    for root in &roots {
        assert!(!root.exists(), "{} survived SIGINT", root.display());
    }
    assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 0, "nothing left in TMPDIR");
    assert_eq!(git(repo.path(), &["worktree", "list"]).lines().count(), 1);
}

#[test]
fn outside_git_the_copy_honours_gitignore_and_skips_build_outputs() {
    let dir = tempfile::tempdir().unwrap();
    let r = dir.path();
    write(r, ".gitignore", "*.log\ngen/\n");
    write(r, "pom.xml", "<project/>\n");
    write(r, "src/main/java/com/x/build/Builder.java", "package com.x.build;\n");
    write(r, "src/main/java/com/x/target/Aim.java", "package com.x.target;\n");
    write(r, "app.log", "ignored\n");
    write(r, "gen/G.java", "ignored\n");
    write(r, "target/classes/A.class", "output\n");
    write(r, "module/pom.xml", "<project/>\n");
    write(r, "module/target/B.class", "output\n");
    write(r, ".gradle/cache", "output\n");
    write(r, "build/libs/x.jar", "output\n");
    write(r, ".mvn/jvm.config", "-Xmx1g\n");
    let ws = Workspace::create(r).unwrap();
    let files: Vec<String> = tree(ws.root()).into_keys().collect();
    assert_eq!(
        files,
        [
            ".gitignore",
            ".mvn/jvm.config",
            "module/pom.xml",
            "pom.xml",
            "src/main/java/com/x/build/Builder.java",
            "src/main/java/com/x/target/Aim.java"
        ]
    );
    assert_eq!(ws.head(), None);
    assert!(dirty_state_hash(r).unwrap().starts_with("nogit-"));
}

#[test]
fn a_project_in_a_subdirectory_of_a_bigger_repository() {
    let dir = tempfile::tempdir().unwrap();
    let r = dir.path();
    git(r, &["init", "-q"]);
    write(r, "other/Other.java", "class Other {}\n");
    write(r, "apps/demo/pom.xml", "<project/>\n");
    write(r, "apps/demo/src/main/java/A.java", "class A {}\n");
    git(r, &["add", "."]);
    git(r, &["commit", "-qm", "init"]);
    write(r, "apps/demo/src/main/java/B.java", "class B {}\n");
    // Nobody ignored the build output; it is still not part of the project.
    write(r, "apps/demo/target/classes/A.class", "bytes");
    let project = r.join("apps/demo");
    let ws = Workspace::create(&project).unwrap();
    assert_eq!(ws.kind(), WorkspaceKind::Worktree);
    assert!(ws.root().ends_with("apps/demo"), "{}", ws.root().display());
    assert!(ws.root().join("../../other/Other.java").exists(), "the worktree holds the whole repository");
    let files: Vec<String> = tree(ws.root()).into_keys().collect();
    assert_eq!(files, ["pom.xml", "src/main/java/A.java", "src/main/java/B.java"]);

    // Relative paths are the project's, both ways.
    write(ws.root(), "src/main/java/A.java", "class A { int x; }\n");
    assert_eq!(ws.apply_back_paths(&["src/main/java/A.java".into()]).unwrap().len(), 1);
    assert_eq!(read(&project, "src/main/java/A.java"), "class A { int x; }\n");

    // The dirty-state hash follows the project's files, not the rest of the repository.
    let before = dirty_state_hash(&project).unwrap();
    assert_eq!(dirty_state_hash(&project).unwrap(), before);
    write(r, "other/Other.java", "class Other { }\n");
    write(&project, "target/classes/B.class", "a build ran");
    assert_eq!(dirty_state_hash(&project).unwrap(), before);
    write(&project, "src/main/java/B.java", "class B { }\n");
    let after = dirty_state_hash(&project).unwrap();
    assert_ne!(after, before);
    let head = git(r, &["rev-parse", "HEAD"]);
    assert!(after.starts_with(head.trim()), "{after}");
    drop(ws);
    assert_eq!(git(r, &["worktree", "list"]).lines().count(), 1);
}

#[test]
fn modes_and_symlinks_are_kept_and_links_never_followed() {
    let outside = tempfile::tempdir().unwrap();
    write(outside.path(), "secret/s.txt", "outside the project\n");
    for use_git in [true, false] {
        let dir = tempfile::tempdir().unwrap();
        let r = dir.path();
        write(r, "gradlew", "#!/bin/sh\necho gradle\n");
        std::fs::set_permissions(r.join("gradlew"), std::fs::Permissions::from_mode(0o755)).unwrap();
        write(r, "a.txt", "a\n");
        std::os::unix::fs::symlink("a.txt", r.join("link_in")).unwrap();
        std::os::unix::fs::symlink(outside.path().join("secret"), r.join("link_out")).unwrap();
        if use_git {
            git(r, &["init", "-q"]);
            git(r, &["add", "."]);
            git(r, &["commit", "-qm", "init"]);
        }
        let ws = Workspace::create(r).unwrap();
        let mode = std::fs::metadata(ws.root().join("gradlew")).unwrap().permissions().mode();
        assert_eq!(mode & 0o111, 0o111, "gradlew stays executable (git: {use_git})");
        let files = tree(ws.root());
        assert_eq!(files["link_in"], "-> a.txt");
        assert_eq!(files["link_out"], format!("-> {}", outside.path().join("secret").display()));
        assert!(!files.keys().any(|k| k.contains("s.txt")), "a link is not followed (git: {use_git})");
        let err = ws.apply_back_paths(&["link_in".into()]).unwrap_err();
        assert!(matches!(err, WorkspaceError::Refused { .. }), "{err}");
        let err = ws.apply_back_paths(&["link_out/s.txt".into()]).unwrap_err();
        assert!(matches!(err, WorkspaceError::Refused { .. }), "{err}");
    }
}

#[test]
fn large_files_are_copied_whole() {
    let dir = tempfile::tempdir().unwrap();
    git(dir.path(), &["init", "-q"]);
    let big: Vec<u8> = (0..48u32 << 20).map(|i| (i.wrapping_mul(2654435761) >> 24) as u8).collect();
    std::fs::write(dir.path().join("big.bin"), &big).unwrap();
    let ws = Workspace::create(dir.path()).unwrap();
    assert!(std::fs::read(ws.root().join("big.bin")).unwrap() == big);
}

#[test]
fn an_unwritable_temp_dir_is_a_clear_error() {
    let repo = messy_repo();
    // Tests may run as root, which writes through mode bits; /sys refuses even root.
    let options = WorkspaceOptions { keep: false, parent: Some("/sys".into()) };
    let err = Workspace::create_with(repo.path(), &options).unwrap_err();
    assert!(matches!(err, WorkspaceError::TempDir { .. }), "{err}");
    assert!(err.to_string().contains("/sys"), "{err}");
    let hint = mantra::error::Classify::hint(&err).unwrap();
    assert!(hint.contains("TMPDIR"), "{hint}");
}

/// Not a test on its own: the child process of `a_failed_copy_names_the_file_and_leaves_nothing`.
#[test]
#[ignore = "run by a_failed_copy_names_the_file_and_leaves_nothing as a child process"]
fn disk_full_child() {
    let repo = PathBuf::from(std::env::var_os("MANTRA_TEST_REPO").expect("set by the parent test"));
    let parent = PathBuf::from(std::env::var_os("MANTRA_TEST_PARENT").expect("set by the parent test"));
    // A file-size limit makes writes past 64 KiB fail (EFBIG) the way a full disk does (ENOSPC),
    // without needing a small file system; SIGXFSZ would kill us instead of failing the write.
    // SAFETY: plain system calls with valid arguments, before any workspace thread starts.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
        let limit = libc::rlimit { rlim_cur: 64 << 10, rlim_max: 64 << 10 };
        assert_eq!(libc::setrlimit(libc::RLIMIT_FSIZE, &limit), 0);
    }
    let err = Workspace::create_with(&repo, &WorkspaceOptions { keep: false, parent: Some(parent) }).unwrap_err();
    println!("ERROR {err}");
    assert!(matches!(&err, WorkspaceError::Copy { path, .. } if path.ends_with("assets/big.bin")), "{err}");
}

#[test]
fn a_failed_copy_names_the_file_and_leaves_nothing() {
    // Unborn HEAD (a copy), then committed (a worktree whose checkout fails, then the copy fallback).
    for commit in [false, true] {
        a_failed_copy(commit);
    }
}

fn a_failed_copy(commit: bool) {
    let dir = tempfile::tempdir().unwrap();
    git(dir.path(), &["init", "-q"]);
    for i in 0..50 {
        write(dir.path(), &format!("src/F{i}.java"), "class F {}\n");
    }
    std::fs::create_dir_all(dir.path().join("assets")).unwrap();
    std::fs::write(dir.path().join("assets/big.bin"), vec![7u8; 1 << 20]).unwrap();
    if commit {
        git(dir.path(), &["add", "."]);
        git(dir.path(), &["commit", "-qm", "init"]);
    }
    let parent = tempfile::tempdir().unwrap();
    let out =
        child("workspace::disk_full_child", &[("MANTRA_TEST_REPO", dir.path()), ("MANTRA_TEST_PARENT", parent.path())])
            .output()
            .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("cannot copy ") && stdout.contains("assets/big.bin"), "{stdout}");
    assert_eq!(std::fs::read_dir(parent.path()).unwrap().count(), 0, "no partial workspace left");
    assert_eq!(git(dir.path(), &["worktree", "list"]).lines().count(), 1, "no worktree left");
    assert_eq!(git(dir.path(), &["branch", "--list"]).lines().count(), usize::from(commit));
}

#[test]
fn workspace_creation_time_on_the_demo_fixture() {
    let dir = tempfile::tempdir().unwrap();
    // The fixture as git would see it: no mantra state (a dry run on the demo keeps its preview
    // in `.mantra/`) and no build output.
    let copy = |from: &Path| {
        for (rel, text) in tree(from) {
            if !rel.starts_with(".mantra") && !rel.starts_with("target") {
                write(dir.path(), &rel, &text);
            }
        }
    };
    copy(&crate::harness::fixture("demo"));
    git(dir.path(), &["init", "-q"]);
    git(dir.path(), &["add", "."]);
    git(dir.path(), &["commit", "-qm", "demo"]);
    write(dir.path(), "Scratch.java", "class Scratch {}\n");
    let start = Instant::now();
    let ws = Workspace::create(dir.path()).unwrap();
    let created = start.elapsed();
    let files = ws.copied().len();
    let start = Instant::now();
    drop(ws);
    eprintln!(
        "workspace of fixtures/projects/demo in git: {files} files, created in {created:?}, removed in {:?}",
        start.elapsed()
    );
    assert_eq!(files, tree(dir.path()).len());
}
