//! Where a path in a command points: the work folder, a temporary folder, the person's home,
//! the system. Pure string work on paths as written; no file system access.

use crate::law::rule::RuleId;
/// The folders a command's paths are read against: where it runs (relative paths resolve
/// there), the work folder (what Undo keeps) and the home folder. `cwd` and `work` are the
/// same folder until a `cd` in the line moves `cwd`.
#[derive(Debug, Clone, Copy)]
pub struct Place<'a> {
    pub cwd: &'a str,
    pub work: &'a str,
    pub home: &'a str,
}

impl<'a> Place<'a> {
    /// A place whose command runs in the work folder itself.
    pub fn new(work: &'a str, home: &'a str) -> Place<'a> {
        Place {
            cwd: work,
            work,
            home,
        }
    }
}

/// Folders whose files are the system's: writing or deleting there is severe.
pub const SYSTEM: &[&str] = &[
    "/bin",
    "/boot",
    "/dev",
    "/etc",
    "/lib",
    "/lib32",
    "/lib64",
    "/opt",
    "/proc",
    "/root",
    "/sbin",
    "/srv",
    "/sys",
    "/usr",
    "/var",
    "/Applications",
    "/Library",
    "/System",
    "/private/etc",
    "/private/var",
    // Windows' own, as PowerShell's reader writes `C:\Windows` (`/Windows`) and as Git Bash
    // mounts the drive (`/c/Windows`).
    "/Windows",
    "/Program Files",
    "/Program Files (x86)",
    "/ProgramData",
    "/c/Windows",
    "/c/Program Files",
    "/c/Program Files (x86)",
    "/c/ProgramData",
];

/// Folders whose contents are thrown away anyway.
const TEMP: &[&str] = &["/tmp", "/var/tmp", "/private/tmp", "/dev/shm"];

/// Files a write may always go to.
const SINKS: &[&str] = &[
    "/dev/null",
    "/dev/stdout",
    "/dev/stderr",
    "/dev/tty",
    "/dev/zero",
];

impl Place<'_> {
    /// The absolute, normalised path a word names, or `None` when it depends on something
    /// only known when the command runs (a variable other than `$HOME`, a substitution).
    pub fn resolve(&self, word: &str) -> Option<String> {
        // Texts joined with `concat`, not `format!`: this runs for every path a line names.
        let word = word.trim();
        let expanded = if let Some(rest) = word.strip_prefix("~/") {
            [self.home, "/", rest].concat()
        } else if word == "~" {
            self.home.to_string()
        } else if let Some(rest) = strip_home_var(word) {
            [self.home, rest].concat()
        } else if let Some(rest) = strip_pwd(word) {
            // `$(pwd)/build`, `$PWD/x`: the folder the command runs in, where `cd` left it.
            if self.cwd.contains('$') {
                return None;
            }
            [self.cwd, rest].concat()
        } else if let Some(user) = word.strip_prefix('~') {
            // `~name`, `~name/x`: a user's home folder, as the shell expands it (`~+` is
            // the folder it runs in, `~-` the one before, only known when it runs).
            let (name, rest) = user.split_once('/').map_or((user, ""), |(n, r)| (n, r));
            [&self.user_home(name)?, "/", rest].concat()
        } else {
            word.to_string()
        };
        if expanded.contains('$') || expanded.contains('`') {
            return None;
        }
        let joined = if expanded.starts_with('/') {
            expanded
        } else if self.cwd.contains('$') {
            // After `cd "$DIR"` a relative path is only known when it runs.
            return None;
        } else {
            [self.cwd, "/", &expanded].concat()
        };
        Some(normalise(&joined))
    }

    /// Like [`Place::resolve`], but for a path whose later parts are only known when it
    /// runs (`build/$NAME.o`, `/lib/modules/$(uname -r)/x`): a path under its known prefix.
    /// `None` when the first part is unknown or a `..` could climb out of the prefix.
    pub fn resolve_under_prefix(&self, word: &str) -> Option<String> {
        if let Some(abs) = self.resolve(word) {
            return Some(abs);
        }
        // `$HOME/$NAME`, `${HOME}/x/$N`: the home folder is known, so the prefix is.
        if let Some(rest) = strip_home_var(word).filter(|rest| !rest.is_empty()) {
            return self.resolve_under_prefix(&[self.home, rest].concat());
        }
        let cut = word.find(['$', '`'])?;
        let known = word.get(..cut)?;
        let rest = word.get(cut..)?;
        if rest.contains("..") {
            return None;
        }
        if known.is_empty() && names_one_here(word) {
            return self.resolve("…");
        }
        if known.is_empty() || known.starts_with('~') && !known.contains('/') {
            return None;
        }
        // `log-$DATE.txt`: a file in the folder it names, here the work folder.
        let (prefix, _) = known.rsplit_once('/').unwrap_or((".", ""));
        let prefix = if prefix.is_empty() && known.starts_with('/') {
            "/"
        } else {
            prefix
        };
        let prefix = if prefix.is_empty() { "." } else { prefix };
        self.resolve(&format!("{}/…", prefix.trim_end_matches('/')))
    }

    /// The home folder of the user `name` (`~name`): the person's own when it is theirs, the
    /// administrator's for `root`, else one beside theirs. `None` for what isn't a user's
    /// name (`~-`, a name with a quote or a variable).
    fn user_home(&self, name: &str) -> Option<String> {
        if name == "+" {
            return Some(self.cwd.to_string());
        }
        let plain = !name.is_empty()
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
            && !name.starts_with('-');
        if !plain {
            return None;
        }
        let home = self.home.trim_end_matches('/');
        let (parent, own) = home.rsplit_once('/').unwrap_or(("", home));
        Some(if name == own {
            home.to_string()
        } else if name == "root" {
            "/root".to_string()
        } else if parent.is_empty() || home == "/root" {
            ["/home/", name].concat()
        } else {
            [parent, "/", name].concat()
        })
    }

    /// Inside the work folder (or the folder itself).
    pub fn inside_work(&self, abs: &str) -> bool {
        under(abs, self.work)
    }

    /// The home folder itself, or a path under it.
    pub fn in_home(&self, abs: &str) -> bool {
        under(abs, self.home)
    }

    pub fn is_home(&self, abs: &str) -> bool {
        abs.trim_end_matches('/') == self.home.trim_end_matches('/')
    }
}

/// What follows `$HOME` at the start of a word, also written `${HOME}` or with an operator
/// that a set `HOME` ignores (`${HOME:?}`, `${HOME:-/tmp}`, `${HOME?unset}`): the home folder
/// is always set. A cut off its end or a substring from its start (`${HOME%/}`, `${HOME:0}`)
/// is read as the home folder too.
fn strip_home_var(word: &str) -> Option<&str> {
    let rest = match word.strip_prefix("${HOME") {
        Some(inner) => {
            let end = inner.find('}')?;
            let op = &inner[..end];
            let set_ignores = op.is_empty()
                || [":?", "?", ":-", "-"].iter().any(|o| {
                    op.strip_prefix(o)
                        .is_some_and(|tail| !tail.contains(['$', '`', '{']))
                });
            // A cut off its end or a substring from its start leaves the home folder or a
            // folder above it (`${HOME%/}`, `${HOME%/*}`, `${HOME:0}`): read as the home
            // folder, the least of what it could be.
            let prefix = op.starts_with('%')
                || op
                    .strip_prefix(':')
                    .map(str::trim_start)
                    .and_then(|n| n.strip_prefix('0'))
                    .is_some_and(|tail| tail.is_empty() || tail.starts_with(':'));
            if !set_ignores && (!prefix || op.contains(['$', '`', '{'])) {
                return None;
            }
            &inner[end + 1..]
        }
        None => word
            .strip_prefix("$HOME")
            .filter(|rest| !rest.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_'))?,
    };
    (rest.is_empty() || rest.starts_with('/')).then_some(rest)
}

/// What follows the folder the shell runs in, named by `$PWD`, `${PWD}`, `$(pwd)` or
/// `` `pwd` `` at the start of a word (`$(pwd)/build`): empty, or from a `/`. Not `$PWDX`,
/// nor `$(pwd -P)` (the folder with its links resolved, which may be elsewhere).
fn strip_pwd(word: &str) -> Option<&str> {
    let rest = ["${PWD}", "$(pwd)", "`pwd`"]
        .iter()
        .find_map(|form| word.strip_prefix(form))
        .or_else(|| {
            word.strip_prefix("$PWD")
                .filter(|rest| !rest.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_'))
        })?;
    (rest.is_empty() || rest.starts_with('/')).then_some(rest)
}

/// The protected path `abs` falls under, if any.
pub fn protected<'a>(abs: &str, protected: &'a [String]) -> Option<&'a str> {
    protected
        .iter()
        .map(String::as_str)
        .find(|dir| under(abs, dir))
}

/// A protected path refused to the agent: read or written, in every mode.
pub fn protected_risk(abs: &str, dir: &str) -> crate::verdict::Risk {
    crate::verdict::Risk::new(
        RuleId::ProtectedPath,
        crate::verdict::Harm::Severe,
        true,
        format!(
            "{abs} is under {dir}, which warden keeps from the agent in every mode (an agent that could change it could give itself more power); the person can change it themselves, outside the agent"
        ),
    )
    .refused()
}

/// Every word and redirect target in a command line that names a protected path.
pub fn protected_in_line(
    text: &str,
    ctx: &crate::step::Context,
    facts: &dyn crate::facts::Facts,
) -> Vec<crate::verdict::Risk> {
    if ctx.protected.is_empty() {
        return Vec::new();
    }
    protected_in_read_line(text, &crate::shell::Line::parse(text), ctx, facts)
}

/// [`protected_in_line`] for a line already read (`line` is `Line::parse(text)`): the
/// step's line is read once for every rule.
pub fn protected_in_read_line(
    text: &str,
    line: &crate::shell::Line,
    ctx: &crate::step::Context,
    facts: &dyn crate::facts::Facts,
) -> Vec<crate::verdict::Risk> {
    if ctx.protected.is_empty() {
        return Vec::new();
    }
    let home = facts.home().unwrap_or_else(|| "/home/~".to_string());
    let place = Place::new(&ctx.cwd, &home);
    // When no protected folder holds the work folder or lies under it, a word that can only
    // name a place under the work folder (relative, no `..`, nothing expanded) names none of
    // them: not resolved at all (most words of most lines).
    let apart = ctx.cwd.starts_with('/')
        && !ctx
            .protected
            .iter()
            .any(|dir| under(&ctx.cwd, dir) || under(dir, &ctx.cwd));
    let here_only = |word: &str| {
        apart && !word.starts_with(['/', '~']) && !word.contains(['$', '`']) && !word.contains("..")
    };
    let words = line.commands.iter().flat_map(|cmd| {
        cmd.words
            .iter()
            .skip(1)
            .chain(cmd.redirects.iter().map(|r| &r.target))
            .chain(cmd.assignments.iter().map(|(_, v)| v))
    });
    for word in words {
        let value = word
            .split_once('=')
            .map_or(word.as_str(), |(_, v)| v)
            .trim_start_matches('@');
        let candidates = [Some(word.as_str()), (value != word).then_some(value)];
        for candidate in candidates.into_iter().flatten() {
            if here_only(candidate) {
                continue;
            }
            if let Some(abs) = place.resolve_under_prefix(candidate)
                && let Some(dir) = protected(&abs, &ctx.protected)
            {
                return vec![protected_risk(&abs, dir)];
            }
        }
    }
    // A protected folder named in text the reader could not take apart stays protected.
    let expanded: std::borrow::Cow<'_, str> = if text.contains('~') || text.contains("HOME") {
        text.replace("~/", &format!("{home}/"))
            .replace("$HOME/", &format!("{home}/"))
            .replace("${HOME}/", &format!("{home}/"))
            .into()
    } else {
        text.into()
    };
    let names = |dir: &str| {
        expanded.match_indices(dir).any(|(at, _)| {
            // The folder itself, not a neighbour whose name starts the same (`wardenx`).
            expanded[at + dir.len()..]
                .chars()
                .next()
                .is_none_or(|c| !(c.is_alphanumeric() || matches!(c, '-' | '_' | '.')))
        })
    };
    ctx.protected
        .iter()
        .find(|dir| names(dir))
        .map(|dir| vec![protected_risk(dir, dir)])
        .unwrap_or_default()
}

/// `path` is `dir` or below it.
pub fn under(path: &str, dir: &str) -> bool {
    let dir = dir.trim_end_matches('/');
    if dir.is_empty() {
        return path.starts_with('/');
    }
    path == dir
        || path
            .strip_prefix(dir)
            .is_some_and(|rest| rest.starts_with('/'))
}

/// Below a temporary folder (not the folder itself).
pub fn is_temp(abs: &str) -> bool {
    TEMP.iter().any(|dir| {
        abs.strip_prefix(dir)
            .is_some_and(|rest| rest.len() > 1 && rest.starts_with('/'))
    })
}

/// A device or stream a write may always go to.
pub fn is_sink(abs: &str) -> bool {
    SINKS.contains(&abs)
        || abs.starts_with("/dev/fd/")
        || abs.starts_with("/proc/self/fd/")
        || abs.starts_with("/dev/tty")
        || abs.starts_with("/dev/pts/")
}

/// A system folder or below one.
pub fn is_system(abs: &str) -> bool {
    (SYSTEM.iter().any(|dir| under(abs, dir)) && !is_temp(abs) && !is_sink(abs))
        || abs == FOUND_UNDER_ROOT
}

/// What `find /` finds, as the law spells it (`find / -exec mv {} /mnt \;` moves `/…`):
/// anything on the machine, its system files among them.
pub const FOUND_UNDER_ROOT: &str = "/…";

/// The root, a top-level system folder, or `/home` itself: what a recursive delete must never reach.
pub fn is_root_like(abs: &str) -> bool {
    abs == "/" || abs == "/home" || abs == "/Users" || SYSTEM.contains(&abs)
}

/// The last part of a path (`/a/b/c.txt` → `c.txt`).
pub fn basename(path: &str) -> &str {
    let trimmed = path.trim_end_matches('/');
    trimmed.rsplit('/').next().unwrap_or(trimmed)
}

/// Collapses `.`, `..` and repeated slashes in an absolute path. Written into one text as
/// it is read, each part after a slash (`..` takes the last part off again): no list of
/// parts, joined, then copied.
pub fn normalise(path: &str) -> String {
    let mut out = String::with_capacity(path.len() + 1);
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                // A part holds no slash: the last slash starts the last part.
                let last = out.rfind('/').unwrap_or(0);
                out.truncate(last);
            }
            other => {
                out.push('/');
                out.push_str(other);
            }
        }
    }
    if out.is_empty() {
        out.push('/');
    }
    out
}

/// Is `word` a name made from another by a text tool, one that can only be a name in the
/// folder the command runs in (or that folder): `$(basename "$f" .bak)`, `$(echo "fgh*" |
/// sed 's/^fgh/jkl/')`, with a suffix of plain text after it? As a rename loop writes it.
///
/// `basename` prints the last part of a path. `sed`'s `s` keeps each part of a relative
/// path or puts its text into one, so with a text that has no `/` and a character other
/// than `.` (escapes and `&` aside) no part is added, taken away or made `..`, and the
/// path stays relative: its parts are the item's own or hold that text.
fn names_one_here(word: &str) -> bool {
    let Some(inner) = word.strip_prefix("$(") else {
        return false;
    };
    let Some(close) = inner.rfind(')') else {
        return false;
    };
    let (inner, tail) = (&inner[..close], &inner[close + 1..]);
    if tail.contains(['/', '$', '`', '(', ')']) || inner.contains(['$', '`']) {
        return false;
    }
    let line = crate::shell::Line::parse(inner);
    if line.unknown.is_some() {
        return false;
    }
    match line.commands.as_slice() {
        [one] if one.program() == "basename" => basename_is_a_name(one.args()),
        [first, sed] if sed.program() == "sed" && first.pipeline == sed.pipeline => {
            echoed(first).is_some_and(plain_relative) && sed_keeps_parts(sed.args())
        }
        _ => false,
    }
}

/// A relative path none of whose parts is `..`, not an option.
fn plain_relative(path: &str) -> bool {
    !path.is_empty()
        && !path.starts_with(['/', '~', '-'])
        && path.split('/').all(|part| part != "..")
}

/// What `echo X` or `printf '%s' X` prints, when it prints one word as it is.
fn echoed(cmd: &crate::shell::Command) -> Option<&str> {
    let args = cmd.args();
    match (cmd.program(), args) {
        ("echo", [word]) => Some(word),
        ("echo", [flag, word]) if matches!(flag.as_str(), "-n" | "-E") => Some(word),
        ("printf", [format, word]) if matches!(format.as_str(), "%s" | "%s\\n") => Some(word),
        _ => None,
    }
}

/// `basename X [SUFFIX]`, `basename -s SUFFIX X`: is what it prints a name, never `.`,
/// `..` or `/`?
fn basename_is_a_name(args: &[String]) -> bool {
    let mut suffix = None;
    let mut rest: Vec<&str> = Vec::new();
    let mut words = args.iter();
    while let Some(arg) = words.next() {
        match arg.as_str() {
            "-s" | "--suffix" => suffix = words.next().map(String::as_str),
            "-z" | "--zero" | "--" => {}
            a if a.starts_with("--suffix=") => suffix = a.strip_prefix("--suffix="),
            a if a.starts_with('-') => return false,
            a => rest.push(a),
        }
    }
    let path = match (suffix, rest.as_slice()) {
        (Some(_), [path]) => path,
        (None, [path]) => path,
        (None, [path, given]) => {
            suffix = Some(given);
            path
        }
        _ => return false,
    };
    let last = path.trim_end_matches('/').rsplit('/').next().unwrap_or("");
    let name = suffix
        .and_then(|s| last.strip_suffix(s).filter(|n| !n.is_empty()))
        .unwrap_or(last);
    name.chars().any(|c| c != '.')
}

/// `sed 's/A/B/g'` (with `-e`, `-E` or `-r`): one `s` whose text has no `/` and a character
/// other than `.` of its own, and only the flags `g`, `i`, `I` or a count (not `e`, which
/// runs the result, nor `w`, which writes a file).
fn sed_keeps_parts(args: &[String]) -> bool {
    let mut script = None;
    let mut words = args.iter();
    while let Some(arg) = words.next() {
        let next = match arg.as_str() {
            "-E" | "-r" | "--regexp-extended" | "-n" => continue,
            "-e" => words.next(),
            a if a.starts_with('-') => return false,
            _ => Some(arg),
        };
        if script.replace(next).is_some() {
            return false;
        }
    }
    let Some(Some(script)) = script else {
        return false;
    };
    let mut chars = script.chars();
    if chars.next() != Some('s') {
        return false;
    }
    let Some(delim) = chars
        .next()
        .filter(|c| !c.is_alphanumeric() && !matches!(c, '\\' | '\n' | ' '))
    else {
        return false;
    };
    // The pattern, the text and the flags, cut at the delimiters no backslash escapes.
    let mut parts = vec![String::new()];
    let mut escaped = false;
    for c in chars {
        if escaped {
            if let Some(part) = parts.last_mut() {
                part.push('\\');
                part.push(c);
            }
            escaped = false;
        } else if c == '\\' {
            escaped = true;
        } else if c == delim {
            parts.push(String::new());
        } else if let Some(part) = parts.last_mut() {
            part.push(c);
        }
    }
    let [_, text, flags] = parts.as_slice() else {
        return false;
    };
    let own: String = {
        let mut out = String::new();
        let mut it = text.chars();
        while let Some(c) = it.next() {
            match c {
                '\\' => {
                    it.next();
                }
                '&' => {}
                c => out.push(c),
            }
        }
        out
    };
    !escaped
        && !text.contains('/')
        && own.chars().any(|c| c != '.')
        && flags
            .chars()
            .all(|c| matches!(c, 'g' | 'i' | 'I') || c.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_resolve_against_the_work_and_home_folders() {
        let place = Place::new("/home/u/app", "/home/u");
        let table = [
            ("src/x.rs", Some("/home/u/app/src/x.rs")),
            ("../other", Some("/home/u/other")),
            ("~/.ssh/id_rsa", Some("/home/u/.ssh/id_rsa")),
            ("$HOME/.aws", Some("/home/u/.aws")),
            ("${HOME}", Some("/home/u")),
            ("/", Some("/")),
            ("/*", Some("/*")),
            ("$DIR/x", None),
            ("./a/./b//c/..", Some("/home/u/app/a/b")),
        ];
        for (word, want) in table {
            assert_eq!(place.resolve(word).as_deref(), want, "{word}");
        }
        let under = [
            ("build/$NAME.o", Some("/home/u/app/build/…")),
            ("/lib/modules/$(uname -r)/x.ko", Some("/lib/modules/…")),
            ("~/.cache/$APP", Some("/home/u/.cache/…")),
            ("$DIR/x", None),
            ("log-$DATE.txt", Some("/home/u/app/…")),
            ("out/$X/../../../etc/passwd", None),
            ("$(basename \"*.bak\" .bak)", Some("/home/u/app/…")),
            ("$(basename -s .bak x/a.bak).txt", Some("/home/u/app/…")),
            (
                "$(echo \"fgh*\" | sed 's/^fgh/jkl/g')",
                Some("/home/u/app/…"),
            ),
            ("$(echo a.mbox | sed -e 's|\\.mbox||;')", None),
            ("$(echo a | sed 's/a/..\\/x/')", None),
            ("$(echo a | sed 's/a/\\1/')", None),
            ("$(echo a | sed 's/a/b/e')", None),
            ("$(echo a | sed 's/a/b/w /tmp/x')", None),
            ("$(echo ../a | sed 's/a/b/')", None),
            ("$(echo /etc/a | sed 's/a/b/')", None),
            ("$(echo a | sed 's/a/b/')/x", None),
            ("$(basename ..)", None),
            ("$(basename /)", None),
            ("$(basename a.tar.gz .gz)", Some("/home/u/app/…")),
            ("$(basename ....b .b)", None),
            ("$(cat a | sed 's/a/b/')", None),
            ("$(echo a; rm -rf ~)", None),
        ];
        for (word, want) in under {
            assert_eq!(place.resolve_under_prefix(word).as_deref(), want, "{word}");
        }
        assert!(place.inside_work("/home/u/app"));
        assert!(!place.inside_work("/home/u/application"));
        assert!(is_temp("/tmp/build"));
        assert!(!is_temp("/tmp"));
        assert!(is_system("/etc/hosts"));
        assert!(!is_system("/dev/null"));
    }
}
