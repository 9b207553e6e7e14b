//! The host's facts: git status and remotes asked of `git`, manifests read from disk.
//!
//! The law asks through [`warden::facts::Facts`]; this is the one place that answers by
//! running processes and reading files. Every `git` call has a hard time limit, and every
//! failure (not a repository, git missing, too slow) is `None`, which the law treats as the
//! riskier answer. Manifests are kept until they change on disk.
//!
//! Git answers are kept per repository under a fingerprint of the files they come from
//! ([`Fingerprint`]: the repository's `config`, `HEAD` and `index`, the `.git` file of a
//! worktree, and the person's global git configuration): the remotes until one of them
//! changes, so a `git push` costs a few `stat`s and no `git` process in the common case. A
//! tree found dirty stays dirty until one of them changes (a file edited back to what was
//! committed is the one case it misses, and it errs toward caution); a tree found clean is
//! asked again each turn, since editing a file changes none of them.

use std::collections::HashMap;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::thread;
use std::time::{Duration, Instant, SystemTime};
use warden::facts::{Facts, Remote};
use warden::manifest;

/// The longest a `git` call may take before it is killed and its answer is unknown.
pub const GIT_TIMEOUT: Duration = Duration::from_secs(3);

/// How often a running `git` is looked at.
const POLL: Duration = Duration::from_millis(10);

/// The largest manifest read; a bigger file is skipped.
const MAX_MANIFEST_BYTES: u64 = 4 * 1024 * 1024;

/// A manifest as last seen: when it was modified, its size, and the names it declared.
#[derive(Debug, Clone)]
struct Seen {
    modified: Option<SystemTime>,
    len: u64,
    names: Vec<String>,
}

/// What a file looked like: enough to tell that it was rewritten (git writes its config,
/// `HEAD` and index through a lock file renamed over the old one, a new inode each time).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Stat {
    ino: u64,
    len: u64,
    mtime: (i64, i64),
    ctime: (i64, i64),
}

impl Stat {
    /// `None` for a file that isn't there (its absence is part of the fingerprint too).
    fn of(path: &Path) -> Option<Stat> {
        use std::os::unix::fs::MetadataExt;
        let meta = fs::metadata(path).ok()?;
        Some(Stat {
            ino: meta.ino(),
            len: meta.len(),
            mtime: (meta.mtime(), meta.mtime_nsec()),
            ctime: (meta.ctime(), meta.ctime_nsec()),
        })
    }
}

/// The state of the files a repository's git answers come from: the `.git` file of a
/// worktree or submodule (`gitdir: …`), the git folder's `HEAD`, `index` and
/// `config.worktree`, the branch HEAD names (its file and `packed-refs`), the common
/// folder's `config` (a linked worktree's `commondir`), and the
/// person's global configuration (`~/.gitconfig`, `$XDG_CONFIG_HOME/git/config`,
/// `/etc/gitconfig`: `url.….insteadOf` rewrites what `git remote -v` prints). Equal
/// fingerprints: git would answer the same remotes, and the same status for the index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fingerprint {
    /// The folder that holds `.git`: the key the answers are kept under.
    top: PathBuf,
    files: Vec<(PathBuf, Option<Stat>)>,
}

impl Fingerprint {
    /// The fingerprint of the repository `dir` is in, found as git finds it (`.git` in `dir`
    /// or a folder above it, a folder or a `gitdir:` file); `None` outside a repository, or
    /// where git would find it otherwise (a bare repository, `$GIT_DIR`): those are asked
    /// each turn as before.
    pub fn of(dir: &str) -> Option<Fingerprint> {
        if dir.is_empty() || GIT_ENV.iter().any(|name| std::env::var_os(name).is_some()) {
            return None;
        }
        // Git finds its repository from the physical folder (symbolic links resolved), and a
        // folder that isn't there has no answer: both as git does.
        let start = fs::canonicalize(dir).ok().filter(|start| start.is_dir())?;
        let (top, dot_git) = start
            .ancestors()
            .map(|folder| (folder, folder.join(".git")))
            .find(|(_, dot_git)| fs::symlink_metadata(dot_git).is_ok())?;
        let mut files = Vec::with_capacity(12);
        let git_dir = if dot_git.is_dir() {
            dot_git.clone()
        } else {
            files.push((dot_git.clone(), Stat::of(&dot_git)));
            let text = fs::read_to_string(&dot_git).ok()?;
            let pointed = text.lines().next()?.strip_prefix("gitdir:")?.trim();
            top.join(pointed)
        };
        let common = match fs::read_to_string(git_dir.join("commondir")) {
            Ok(text) => git_dir.join(text.trim()),
            Err(_) => git_dir.clone(),
        };
        // HEAD usually names a branch (`ref: refs/heads/main`): a commit moves the branch's
        // file (or `packed-refs`), not HEAD's.
        let branch = fs::read_to_string(git_dir.join("HEAD"))
            .ok()
            .and_then(|head| Some(head.strip_prefix("ref:")?.trim().to_string()))
            .filter(|name| name.starts_with("refs/") && !name.contains(".."))
            .map(|name| common.join(name));
        for path in [
            git_dir.join("HEAD"),
            git_dir.join("index"),
            common.join("packed-refs"),
            git_dir.join("config.worktree"),
            git_dir.join("commondir"),
            common.join("config"),
        ]
        .into_iter()
        .chain(branch)
        {
            let stat = Stat::of(&path);
            files.push((path, stat));
        }
        let home = std::env::var_os("HOME").map(PathBuf::from);
        let xdg = std::env::var_os("XDG_CONFIG_HOME")
            .map(PathBuf::from)
            .or_else(|| home.as_ref().map(|home| home.join(".config")));
        let global = [
            home.map(|home| home.join(".gitconfig")),
            xdg.map(|xdg| xdg.join("git/config")),
            Some(PathBuf::from("/etc/gitconfig")),
        ];
        for path in global.into_iter().flatten() {
            let stat = Stat::of(&path);
            files.push((path, stat));
        }
        // Without a HEAD git would not take the folder for a repository: nothing is kept.
        if !git_dir.join("HEAD").is_file() {
            return None;
        }
        Some(Fingerprint {
            top: top.to_path_buf(),
            files,
        })
    }
}

/// The variables that make git find its repository or configuration elsewhere: with any of
/// them set in the daemon's environment, nothing is kept across turns.
const GIT_ENV: [&str; 6] = [
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_COMMON_DIR",
    "GIT_CONFIG_GLOBAL",
    "GIT_CONFIG_SYSTEM",
    "GIT_CONFIG_COUNT",
];

/// A git answer and the fingerprint it was given under.
#[derive(Debug, Clone)]
struct Kept<T> {
    print: Fingerprint,
    answer: T,
}

/// The facts of the machine warden runs on.
///
/// Git answers are kept per repository under its [`Fingerprint`] (and, for a folder outside
/// any repository git can be fingerprinted for, once per turn: [`HostFacts::new_turn`]);
/// manifests are cached by path, modification time and size, so an edited one is read again.
#[derive(Debug, Default)]
pub struct HostFacts {
    clean: Mutex<HashMap<String, Option<bool>>>,
    remotes: Mutex<HashMap<String, Option<Vec<Remote>>>>,
    /// Remotes by repository (its top folder), under the fingerprint they were read with.
    kept_remotes: Mutex<HashMap<PathBuf, Kept<Option<Vec<Remote>>>>>,
    /// Trees found dirty, by repository, under the fingerprint they were found so with.
    kept_dirty: Mutex<HashMap<PathBuf, Fingerprint>>,
    manifests: Mutex<HashMap<PathBuf, Seen>>,
    /// How many `git` processes were run: the tests' seam for "no git in the common case".
    git_runs: AtomicUsize,
}

impl HostFacts {
    /// Facts with nothing cached yet.
    pub fn new() -> HostFacts {
        HostFacts::default()
    }

    /// How many `git` processes these facts have run.
    pub fn git_runs(&self) -> usize {
        self.git_runs.load(Ordering::Relaxed)
    }

    /// `git -C dir args…`, counted. Under [`at_hand`], nothing is run: the fact is missed.
    fn git(&self, dir: &str, args: &[&str]) -> Option<Vec<u8>> {
        if dir.is_empty() {
            return None;
        }
        if AT_HAND.get() {
            MISSED.set(true);
            return None;
        }
        self.git_runs.fetch_add(1, Ordering::Relaxed);
        git(dir, args)
    }

    /// Starts a new turn: a clean status, and the git answers of a folder that has no
    /// fingerprint, are asked again. Remotes and a dirty status stay while their repository's
    /// fingerprint does; manifests stay cached, since their modification time tells when they
    /// change.
    pub fn new_turn(&self) {
        lock(&self.clean).clear();
        lock(&self.remotes).clear();
    }

    /// The names one manifest declares, from the cache when it has not changed on disk;
    /// `None` when it cannot be read.
    fn manifest(&self, path: &Path) -> Option<Vec<String>> {
        let meta = fs::metadata(path).ok().filter(|meta| meta.is_file())?;
        let (modified, len) = (meta.modified().ok(), meta.len());
        let cached = lock(&self.manifests)
            .get(path)
            .filter(|seen| seen.modified.is_some() && seen.modified == modified && seen.len == len)
            .map(|seen| seen.names.clone());
        if cached.is_some() {
            return cached;
        }
        if len > MAX_MANIFEST_BYTES {
            return None;
        }
        let text = fs::read_to_string(path).ok()?;
        let file_name = path.file_name()?.to_str()?;
        let names = manifest::declared(file_name, &text);
        let seen = Seen {
            modified,
            len,
            names: names.clone(),
        };
        lock(&self.manifests).insert(path.to_path_buf(), seen);
        Some(names)
    }
}

impl Facts for HostFacts {
    fn may_wait(&self) -> bool {
        true
    }

    fn tree_clean(&self, dir: &str) -> Option<bool> {
        if let Some(known) = lock(&self.clean).get(dir) {
            return *known;
        }
        let print = Fingerprint::of(dir);
        if let Some(print) = &print
            && lock(&self.kept_dirty).get(&print.top) == Some(print)
        {
            return Some(false);
        }
        let status = self.git(dir, &["status", "--porcelain", "--untracked-files=normal"]);
        if MISSED.get() {
            // Not asked, so not known: nothing is kept (the judge asks again, waiting).
            return None;
        }
        let clean = status.map(|out| out.iter().all(u8::is_ascii_whitespace));
        lock(&self.clean).insert(dir.to_string(), clean);
        if let Some(print) = print {
            let mut dirty = lock(&self.kept_dirty);
            if clean == Some(false) {
                dirty.insert(print.top.clone(), print);
            } else {
                dirty.remove(&print.top);
            }
        }
        clean
    }

    fn remotes(&self, dir: &str) -> Option<Vec<Remote>> {
        let Some(print) = Fingerprint::of(dir) else {
            if let Some(known) = lock(&self.remotes).get(dir) {
                return known.clone();
            }
            let remotes = self
                .git(dir, &["remote", "-v"])
                .map(|out| parse_remotes(&out));
            if MISSED.get() {
                return None;
            }
            lock(&self.remotes).insert(dir.to_string(), remotes.clone());
            return remotes;
        };
        if let Some(kept) = lock(&self.kept_remotes).get(&print.top)
            && kept.print == print
        {
            return kept.answer.clone();
        }
        let remotes = self
            .git(dir, &["remote", "-v"])
            .map(|out| parse_remotes(&out));
        if MISSED.get() {
            return None;
        }
        let kept = Kept {
            print: print.clone(),
            answer: remotes.clone(),
        };
        lock(&self.kept_remotes).insert(print.top, kept);
        remotes
    }

    fn declared(&self, dir: &str) -> Option<Vec<String>> {
        if dir.is_empty() {
            return None;
        }
        let entries = fs::read_dir(dir).ok()?;
        let mut paths: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .filter(|entry| {
                entry
                    .file_name()
                    .to_str()
                    .is_some_and(manifest::is_manifest)
            })
            .map(|entry| entry.path())
            .collect();
        paths.sort();
        let mut names: Vec<String> = paths
            .iter()
            .filter_map(|path| self.manifest(path))
            .flatten()
            .collect();
        names.sort();
        names.dedup();
        Some(names)
    }

    fn home(&self) -> Option<String> {
        std::env::var("HOME").ok().filter(|home| !home.is_empty())
    }

    /// A `stat` of `node_modules/.bin/NAME` (a name with no `/`, not `..`) in the folder and
    /// each folder above it, as npx looks (a workspace's packages share the root's), eight
    /// at most.
    fn installed_bin(&self, dir: &str, program: &str) -> Option<bool> {
        let plain = !program.is_empty()
            && !program.contains(['/', '\\'])
            && program != "."
            && program != "..";
        if dir.is_empty() || !plain {
            return None;
        }
        Some(Path::new(dir).ancestors().take(8).any(|folder| {
            folder
                .join("node_modules")
                .join(".bin")
                .join(program)
                .exists()
        }))
    }
}

thread_local! {
    /// Set while [`at_hand`] runs: these facts answer only from what they hold, and run no
    /// `git`.
    static AT_HAND: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// Set when, under [`at_hand`], a fact would have run `git`.
    static MISSED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `judge` with the host's facts answering only from what they hold (their caches, the
/// files they stat), never waiting on `git`: its result, or `None` when it needed a fact that
/// would have run `git` (the law is pure, so the caller runs it again where it may wait).
/// This keeps the common step, whose facts are cached or not needed, on its async thread.
pub fn at_hand<R>(judge: impl FnOnce() -> R) -> Option<R> {
    /// Sets the thread back to waiting facts however `judge` ends, a panic included.
    struct Reset;
    impl Drop for Reset {
        fn drop(&mut self) {
            AT_HAND.set(false);
        }
    }
    AT_HAND.set(true);
    MISSED.set(false);
    let reset = Reset;
    let out = judge();
    drop(reset);
    (!MISSED.replace(false)).then_some(out)
}

/// Locks a cache; a poisoned lock still holds a usable cache (a panic mid-insert leaves a
/// map, never a torn entry).
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// `git -C dir args…`: its output when it exits with success within [`GIT_TIMEOUT`].
fn git(dir: &str, args: &[&str]) -> Option<Vec<u8>> {
    if dir.is_empty() {
        // `git -C ""` would answer for warden's own working folder.
        return None;
    }
    let mut command = Command::new("git");
    command
        .arg("-C")
        .arg(dir)
        .args(args)
        // Asking must not change anything: no index refresh written, no prompt waited on.
        .env("GIT_OPTIONAL_LOCKS", "0")
        .env("GIT_TERMINAL_PROMPT", "0");
    run(command, GIT_TIMEOUT)
}

/// Runs `command` with no input; its standard output if it exits with success within
/// `timeout`. A command still running then is killed. Output is read on its own thread so
/// a full pipe never stalls the child.
fn run(mut command: Command, timeout: Duration) -> Option<Vec<u8>> {
    let deadline = Instant::now() + timeout;
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let mut stdout = child.stdout.take()?;
    let (sender, receiver) = mpsc::channel();
    thread::spawn(move || {
        let mut out = Vec::new();
        let read = stdout.read_to_end(&mut out).map(|_| out);
        // The receiver may have given up; nothing is lost then.
        let _ = sender.send(read);
    });
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() < deadline => thread::sleep(POLL),
            Ok(None) | Err(_) => {
                // Killing a child that just exited fails harmlessly; wait reaps it.
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
        }
    };
    if !status.success() {
        return None;
    }
    // A grandchild may hold the pipe open; wait for the output no longer than the deadline.
    let left = deadline.saturating_duration_since(Instant::now());
    receiver.recv_timeout(left.max(POLL)).ok()?.ok()
}

/// The remotes in `git remote -v` output (`origin\turl (fetch)`), fetch and push URLs both,
/// each (name, url) pair once, in order of appearance.
fn parse_remotes(out: &[u8]) -> Vec<Remote> {
    let text = String::from_utf8_lossy(out);
    let mut remotes: Vec<Remote> = Vec::new();
    for line in text.lines() {
        let Some((name, rest)) = line.split_once('\t') else {
            continue;
        };
        let url = rest
            .strip_suffix(" (fetch)")
            .or_else(|| rest.strip_suffix(" (push)"))
            .unwrap_or(rest)
            .trim();
        let remote = Remote {
            name: name.trim().to_string(),
            url: url.to_string(),
        };
        if !remote.name.is_empty() && !remote.url.is_empty() && !remotes.contains(&remote) {
            remotes.push(remote);
        }
    }
    remotes
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs::File;
    use tempfile::TempDir;

    /// Runs git in `dir` for a test, cut off from the person's and the system's config.
    fn git_in(dir: &Path, home: &Path, args: &[&str]) {
        let status = Command::new("git")
            .arg("-C")
            .arg(dir)
            .args([
                "-c",
                "user.name=x",
                "-c",
                "user.email=x@x",
                "-c",
                "commit.gpgsign=false",
            ])
            .args(args)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("HOME", home)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        assert!(status.is_ok_and(|s| s.success()), "git {args:?} in {dir:?}");
    }

    /// A repository with one commit, and a home folder for git to use.
    fn repo() -> (TempDir, TempDir) {
        let (dir, home) = (temp(), temp());
        git_in(dir.path(), home.path(), &["init", "-q"]);
        write(dir.path(), "README", "hello\n");
        git_in(dir.path(), home.path(), &["add", "README"]);
        git_in(dir.path(), home.path(), &["commit", "-q", "-m", "first"]);
        (dir, home)
    }

    fn temp() -> TempDir {
        match tempfile::tempdir() {
            Ok(dir) => dir,
            Err(e) => unreachable!("a temporary folder: {e}"),
        }
    }

    fn write(dir: &Path, name: &str, text: &str) {
        assert!(fs::write(dir.join(name), text).is_ok(), "wrote {name}");
    }

    fn path_str(dir: &TempDir) -> &str {
        dir.path().to_str().unwrap_or_default()
    }

    #[test]
    fn a_clean_tree_is_clean_and_an_untracked_file_is_not() {
        let (dir, _home) = repo();
        let facts = HostFacts::new();
        assert_eq!(
            facts.tree_clean(path_str(&dir)),
            Some(true),
            "freshly committed"
        );
        write(dir.path(), "new.txt", "untracked\n");
        assert_eq!(
            facts.tree_clean(path_str(&dir)),
            Some(true),
            "cached for the turn"
        );
        facts.new_turn();
        assert_eq!(
            facts.tree_clean(path_str(&dir)),
            Some(false),
            "an untracked file"
        );
    }

    #[test]
    fn at_hand_runs_no_git_and_keeps_nothing_it_did_not_ask() {
        let (dir, _home) = repo();
        let facts = HostFacts::new();
        let dir = path_str(&dir);
        assert_eq!(
            at_hand(|| (facts.tree_clean(dir), facts.remotes(dir))),
            None,
            "a fact not held is missed"
        );
        assert_eq!(facts.git_runs(), 0, "and no git ran");
        assert_eq!(facts.tree_clean(dir), Some(true), "nothing wrong was kept");
        let remotes = facts.remotes(dir);
        let runs = facts.git_runs();
        assert_eq!(runs, 2, "asked where it may wait");
        assert_eq!(
            at_hand(|| (facts.tree_clean(dir), facts.remotes(dir))),
            Some((Some(true), remotes)),
            "what is held is answered at hand"
        );
        assert_eq!(facts.git_runs(), runs, "without running git again");
        assert_eq!(at_hand(|| 7), Some(7), "a judge that asks nothing");
    }

    #[test]
    fn a_changed_file_is_not_clean() {
        let (dir, _home) = repo();
        write(dir.path(), "README", "changed\n");
        assert_eq!(HostFacts::new().tree_clean(path_str(&dir)), Some(false));
    }

    #[test]
    fn outside_a_repository_nothing_is_known() {
        let dir = temp();
        let facts = HostFacts::new();
        assert_eq!(facts.tree_clean(path_str(&dir)), None, "not a repository");
        assert_eq!(facts.remotes(path_str(&dir)), None, "not a repository");
        let gone = dir.path().join("no-such-folder");
        let gone = gone.to_str().unwrap_or_default();
        assert_eq!(facts.tree_clean(gone), None, "no such folder");
        assert_eq!(facts.declared(gone), None, "no such folder");
        assert_eq!(facts.tree_clean(""), None, "no folder at all");
        assert_eq!(facts.declared(""), None, "no folder at all");
    }

    #[test]
    fn reads_the_remotes() {
        let (dir, home) = repo();
        let facts = HostFacts::new();
        assert_eq!(facts.remotes(path_str(&dir)), Some(vec![]), "none yet");
        let url = "https://github.com/acme/app.git";
        git_in(dir.path(), home.path(), &["remote", "add", "origin", url]);
        git_in(
            dir.path(),
            home.path(),
            &["remote", "add", "fork", "git@github.com:me/app.git"],
        );
        git_in(
            dir.path(),
            home.path(),
            &["remote", "set-url", "--push", "fork", "/srv/app.git"],
        );
        let remote = |name: &str, url: &str| Remote {
            name: name.into(),
            url: url.into(),
        };
        // No new turn: the config changed, so the remotes are read again.
        assert_eq!(
            facts.remotes(path_str(&dir)),
            Some(vec![
                remote("fork", "git@github.com:me/app.git"),
                remote("fork", "/srv/app.git"),
                remote("origin", url),
            ])
        );
    }

    #[test]
    fn remotes_are_asked_of_git_once_until_the_config_changes() {
        let (dir, home) = repo();
        let facts = HostFacts::new();
        let url = "https://github.com/acme/app.git";
        git_in(dir.path(), home.path(), &["remote", "add", "origin", url]);
        let sub = dir.path().join("src");
        assert!(fs::create_dir(&sub).is_ok(), "a subfolder");
        let sub = sub.to_str().unwrap_or_default();
        let origin = Some(vec![Remote {
            name: "origin".into(),
            url: url.into(),
        }]);
        assert_eq!(facts.remotes(path_str(&dir)), origin);
        assert_eq!(facts.git_runs(), 1);
        for _ in 0..3 {
            facts.new_turn();
            assert_eq!(facts.remotes(path_str(&dir)), origin, "from the cache");
            assert_eq!(facts.remotes(sub), origin, "the same repository");
        }
        assert_eq!(facts.git_runs(), 1, "no git process while nothing changed");

        // A commit changes HEAD and the index, not the remotes: asked again, same answer.
        write(dir.path(), "README", "again\n");
        git_in(dir.path(), home.path(), &["commit", "-q", "-am", "second"]);
        assert_eq!(facts.remotes(path_str(&dir)), origin);
        assert_eq!(facts.git_runs(), 2);

        git_in(
            dir.path(),
            home.path(),
            &["remote", "add", "up", "/srv/up.git"],
        );
        let remotes = facts.remotes(path_str(&dir)).unwrap_or_default();
        assert_eq!(remotes.len(), 2, "the added remote: {remotes:?}");
        assert_eq!(facts.git_runs(), 3);
    }

    #[test]
    fn a_dirty_tree_stays_dirty_until_head_or_the_index_changes() {
        let (dir, home) = repo();
        let facts = HostFacts::new();
        write(dir.path(), "README", "changed\n");
        assert_eq!(facts.tree_clean(path_str(&dir)), Some(false));
        assert_eq!(facts.git_runs(), 1);
        facts.new_turn();
        assert_eq!(facts.tree_clean(path_str(&dir)), Some(false), "kept");
        assert_eq!(facts.git_runs(), 1, "no git process for a tree known dirty");

        // Staged: the index changed, so git is asked again (still dirty).
        git_in(dir.path(), home.path(), &["add", "README"]);
        facts.new_turn();
        assert_eq!(facts.tree_clean(path_str(&dir)), Some(false));
        assert_eq!(facts.git_runs(), 2);

        // Committed: HEAD changed, and the tree is clean.
        git_in(dir.path(), home.path(), &["commit", "-q", "-m", "second"]);
        facts.new_turn();
        assert_eq!(facts.tree_clean(path_str(&dir)), Some(true));
        assert_eq!(facts.git_runs(), 3);

        // A clean tree is asked again each turn: an edit changes none of git's files.
        write(dir.path(), "README", "edited\n");
        facts.new_turn();
        assert_eq!(facts.tree_clean(path_str(&dir)), Some(false));
        assert_eq!(facts.git_runs(), 4);
    }

    #[test]
    fn a_linked_worktree_reads_its_repository_s_config() {
        let (dir, home) = repo();
        let tree = temp();
        let linked = tree.path().join("linked");
        let linked_str = linked.to_str().unwrap_or_default();
        git_in(
            dir.path(),
            home.path(),
            &["worktree", "add", "-q", "-b", "side", linked_str],
        );
        assert!(linked.join(".git").is_file(), "a `gitdir:` file");
        let facts = HostFacts::new();
        assert_eq!(facts.remotes(linked_str), Some(vec![]));
        facts.new_turn();
        assert_eq!(facts.remotes(linked_str), Some(vec![]));
        assert_eq!(facts.git_runs(), 1, "kept for the worktree");

        // A remote added in the main folder is in the common config the worktree reads.
        git_in(
            dir.path(),
            home.path(),
            &["remote", "add", "origin", "/srv/a.git"],
        );
        let remotes = facts.remotes(linked_str).unwrap_or_default();
        assert_eq!(remotes.len(), 1, "{remotes:?}");
        assert_eq!(facts.git_runs(), 2);

        // The worktree's own HEAD moves on a commit there: its dirty state is asked again.
        write(&linked, "README", "side\n");
        assert_eq!(facts.tree_clean(linked_str), Some(false));
        git_in(&linked, home.path(), &["commit", "-q", "-am", "side"]);
        facts.new_turn();
        assert_eq!(facts.tree_clean(linked_str), Some(true));
        assert_eq!(facts.git_runs(), 4);
    }

    #[test]
    fn a_folder_that_is_not_there_is_never_answered_from_its_parent_s_cache() {
        let (dir, home) = repo();
        git_in(
            dir.path(),
            home.path(),
            &["remote", "add", "origin", "/srv/a.git"],
        );
        let facts = HostFacts::new();
        assert!(facts.remotes(path_str(&dir)).is_some());
        let gone = dir.path().join("no-such-folder");
        assert_eq!(facts.remotes(gone.to_str().unwrap_or_default()), None);
    }

    #[test]
    fn parses_remote_lines() {
        let out = b"origin\thttps://x/a.git (fetch)\norigin\thttps://x/a.git (push)\n\
                    odd line\nspaced\t/path with spaces/r.git (fetch)\n\t(fetch)\n";
        let remotes = parse_remotes(out);
        let names: Vec<(&str, &str)> = remotes
            .iter()
            .map(|r| (r.name.as_str(), r.url.as_str()))
            .collect();
        assert_eq!(
            names,
            vec![
                ("origin", "https://x/a.git"),
                ("spaced", "/path with spaces/r.git")
            ]
        );
    }

    #[test]
    fn a_command_the_installed_packages_give_is_found_where_npx_looks() {
        let dir = temp();
        let facts = HostFacts::new();
        assert_eq!(facts.installed_bin(path_str(&dir), "tsc"), Some(false));
        let bin = dir.path().join("node_modules").join(".bin");
        assert!(fs::create_dir_all(&bin).is_ok());
        write(&bin, "tsc", "#!/usr/bin/env node\n");
        assert_eq!(facts.installed_bin(path_str(&dir), "tsc"), Some(true));
        assert_eq!(facts.installed_bin(path_str(&dir), "eslint"), Some(false));
        // A package of a workspace finds the root's.
        let package = dir.path().join("packages").join("web");
        assert!(fs::create_dir_all(&package).is_ok());
        assert_eq!(
            facts.installed_bin(package.to_str().unwrap_or_default(), "tsc"),
            Some(true)
        );
        // A name that would climb out of the folder is not looked for.
        assert_eq!(facts.installed_bin(path_str(&dir), "../../tsc"), None);
        assert_eq!(facts.installed_bin(path_str(&dir), ".."), None);
        assert_eq!(facts.installed_bin("", "tsc"), None);
    }

    #[test]
    fn reads_manifests_and_reads_them_again_when_they_change() {
        let dir = temp();
        let facts = HostFacts::new();
        assert_eq!(facts.declared(path_str(&dir)), Some(vec![]), "no manifests");
        write(
            dir.path(),
            "package.json",
            r#"{"dependencies": {"react": "18"}}"#,
        );
        write(dir.path(), "requirements-dev.txt", "pytest>=7\n");
        write(dir.path(), "notes.txt", "flask\n");
        let folder = fs::create_dir(dir.path().join("requirements-old.txt"));
        assert!(folder.is_ok(), "a folder named like a manifest is skipped");
        let names = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            facts.declared(path_str(&dir)),
            Some(names(&["pytest", "react"]))
        );

        let path = dir.path().join("package.json");
        let before = fs::metadata(&path).and_then(|m| m.modified());
        // The same size, so only the modification time tells that it changed.
        write(
            dir.path(),
            "package.json",
            r#"{"dependencies": {"axios": "18"}}"#,
        );
        let later = before.map(|t| t + Duration::from_secs(60));
        let touched = File::options()
            .write(true)
            .open(&path)
            .and_then(|file| later.and_then(|t| file.set_modified(t)));
        assert!(touched.is_ok(), "moved the modification time forward");
        assert_eq!(
            facts.declared(path_str(&dir)),
            Some(names(&["axios", "pytest"]))
        );
    }

    #[test]
    fn an_unchanged_manifest_comes_from_the_cache() {
        let dir = temp();
        write(dir.path(), "Gemfile", "gem 'rails'\n");
        let facts = HostFacts::new();
        assert_eq!(
            facts.declared(path_str(&dir)),
            Some(vec!["rails".to_string()])
        );
        let path = dir.path().join("Gemfile");
        let cached = lock(&facts.manifests)
            .get(&path)
            .map(|seen| seen.names.clone());
        assert_eq!(cached, Some(vec!["rails".to_string()]));
        // Same size and time, other words: the cache answers, as it should for a file that
        // did not change.
        if let Some(seen) = lock(&facts.manifests).get_mut(&path) {
            seen.names = vec!["from-cache".to_string()];
        }
        assert_eq!(
            facts.declared(path_str(&dir)),
            Some(vec!["from-cache".to_string()])
        );
    }

    #[test]
    fn a_slow_command_is_killed_at_the_deadline() {
        let started = Instant::now();
        let mut sleep = Command::new("sleep");
        sleep.arg("10");
        assert_eq!(run(sleep, Duration::from_millis(200)), None);
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "gave up in time"
        );
        let mut echo = Command::new("echo");
        echo.arg("hi");
        assert_eq!(run(echo, Duration::from_secs(3)), Some(b"hi\n".to_vec()));
        assert_eq!(run(Command::new("false"), Duration::from_secs(3)), None);
        assert_eq!(
            run(Command::new("/no/such/program"), Duration::from_secs(3)),
            None
        );
    }

    #[test]
    fn home_is_the_home_variable() {
        let expected = std::env::var("HOME").ok().filter(|h| !h.is_empty());
        assert_eq!(HostFacts::new().home(), expected);
    }
}
