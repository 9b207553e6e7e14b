//! A value as the translation carries it: literal text, the home folder, a variable only
//! known when it runs, or a POSIX command whose output makes it; and how each is written
//! as a POSIX word, with Windows paths in POSIX form.

/// A piece of a value.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Piece {
    Lit(String),
    /// The home folder (`~`, `$HOME`, `$env:USERPROFILE`).
    Home,
    /// A variable only known when it runs, by a POSIX name.
    Var(String),
    /// A POSIX command whose output makes this piece.
    Cmd(String),
}

/// What kind of thing a value is, where that matters.
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) enum Kind {
    #[default]
    Plain,
    /// A type (`[Convert]`), lower case, without `System.`.
    Type(String),
    /// A folder listing of these POSIX paths, with nothing filtered.
    Listing(Vec<String>),
    /// The PowerShell profile (`$PROFILE`): it runs in every new PowerShell.
    Profile,
}

/// A value: its pieces, the text a literal blob decodes to, and its kind.
#[derive(Debug, Clone, Default)]
pub(super) struct Value {
    pub(super) pieces: Vec<Piece>,
    pub(super) decoded: Option<String>,
    pub(super) kind: Kind,
}

impl Value {
    pub(super) fn lit(text: impl Into<String>) -> Value {
        Value {
            pieces: vec![Piece::Lit(text.into())],
            ..Value::default()
        }
    }

    pub(super) fn cmd(posix: impl Into<String>) -> Value {
        Value {
            pieces: vec![Piece::Cmd(posix.into())],
            ..Value::default()
        }
    }

    pub(super) fn var(name: &str) -> Value {
        Value {
            pieces: vec![Piece::Var(posix_name(name))],
            ..Value::default()
        }
    }

    /// The exact text, when known before running.
    pub(super) fn literal(&self) -> Option<String> {
        if self.pieces.is_empty() {
            return None;
        }
        let mut out = String::new();
        for piece in &self.pieces {
            match piece {
                Piece::Lit(text) => out.push_str(text),
                _ => return None,
            }
        }
        Some(out)
    }

    /// The POSIX commands whose output makes it.
    pub(super) fn sources(&self) -> Vec<String> {
        self.pieces
            .iter()
            .filter_map(|piece| match piece {
                Piece::Cmd(cmd) => Some(cmd.clone()),
                _ => None,
            })
            .collect()
    }

    /// The same value, changed at run time in a way the reader doesn't follow.
    pub(super) fn derived(mut self) -> Value {
        self.pieces.retain(|piece| matches!(piece, Piece::Cmd(_)));
        self.pieces.push(Piece::Var("value".to_string()));
        self.kind = Kind::Plain;
        self
    }

    /// A hashtable's entry written as one word (`Authorization="token $t"`): the name
    /// before its first `=`, and the value after it.
    pub(super) fn split_name(mut self) -> Option<(String, Value)> {
        let Some(Piece::Lit(first)) = self.pieces.first_mut() else {
            return None;
        };
        let (name, rest) = first.split_once('=')?;
        let name = name.trim().to_string();
        *first = rest.to_string();
        Some((name, self))
    }

    pub(super) fn push(&mut self, other: Value) {
        for piece in other.pieces {
            match (self.pieces.last_mut(), piece) {
                (Some(Piece::Lit(text)), Piece::Lit(more)) => text.push_str(&more),
                (_, piece) => self.pieces.push(piece),
            }
        }
        if self.decoded.is_none() {
            self.decoded = other.decoded;
        }
    }

    /// As one POSIX word.
    pub(super) fn word(&self) -> String {
        self.render(false)
    }

    /// As one POSIX word naming a file: Windows paths in POSIX form (`C:\x` → `/x`,
    /// `.\build` → `./build`). `None` for what isn't a file (`env:PATH`, `variable:x`).
    pub(super) fn path(&self) -> Option<String> {
        if let Some(Piece::Lit(first)) = self.pieces.first()
            && posix_path(first).is_none()
        {
            return None;
        }
        let word = self.render(true);
        Some(if word.starts_with('-') {
            format!("./{word}")
        } else {
            word
        })
    }

    pub(super) fn render(&self, path: bool) -> String {
        if self.pieces.is_empty() {
            return "\"$value\"".to_string();
        }
        let mut out = String::new();
        for (i, piece) in self.pieces.iter().enumerate() {
            match piece {
                Piece::Lit(text) if path => {
                    let text = if i == 0 {
                        posix_path(text).unwrap_or_default()
                    } else {
                        text.replace('\\', "/")
                    };
                    out.push_str(&quote_path(&text));
                }
                Piece::Lit(text) => out.push_str(&quote(text)),
                Piece::Home if i == 0 => out.push('~'),
                Piece::Home => out.push_str("\"$HOME\""),
                Piece::Var(name) => out.push_str(&format!("\"${name}\"")),
                Piece::Cmd(cmd) => out.push_str(&format!("\"$({cmd})\"")),
            }
        }
        out
    }

    /// The text as written, lower case with `/` for `\`, when its pieces are literal or the
    /// home folder (`~/appdata/…`): what the startup-folder and Run-key checks read.
    pub(super) fn shape(&self) -> String {
        let mut out = String::new();
        for piece in &self.pieces {
            match piece {
                Piece::Lit(text) => out.push_str(&text.to_lowercase().replace('\\', "/")),
                Piece::Home => out.push('~'),
                Piece::Var(name) => out.push_str(&format!("${}", name.to_lowercase())),
                Piece::Cmd(_) => out.push('…'),
            }
        }
        out
    }
}

/// A PowerShell variable's name as a POSIX one (`env:APPDATA` → `APPDATA`).
pub(super) fn posix_name(name: &str) -> String {
    let tail = name.rsplit(':').next().unwrap_or(name);
    let clean: String = tail
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    if clean.is_empty() || clean.starts_with(|c: char| c.is_ascii_digit()) {
        format!("v{clean}")
    } else {
        clean
    }
}

/// A word the POSIX reader reads back exactly.
pub(super) fn quote(text: &str) -> String {
    let plain = !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_./:@%+=,-".contains(c));
    if plain {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}

/// A path the POSIX reader reads back exactly, its wildcards left as wildcards.
pub(super) fn quote_path(text: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "_./:@%+=,-*?".contains(c);
    let mut out = String::new();
    let mut run = String::new();
    let mut quoted = false;
    for (i, c) in text.chars().enumerate() {
        let is_safe = safe(c) || c == '~' && i > 0;
        if is_safe == quoted && !run.is_empty() {
            out.push_str(&if quoted { quote(&run) } else { run.clone() });
            run.clear();
        }
        quoted = !is_safe;
        run.push(c);
    }
    if !run.is_empty() {
        out.push_str(&if quoted { quote(&run) } else { run });
    }
    if out.is_empty() {
        "''".to_string()
    } else {
        out
    }
}

/// A PowerShell path in POSIX form: `\` as `/`, a drive letter's root as `/`, `Temp:` as
/// `/tmp`, a registry drive as `/HKCU:/…`. `None` for a drive that holds no files.
pub(super) fn posix_path(text: &str) -> Option<String> {
    let mut text = text.replace('\\', "/");
    let lower = text.to_lowercase();
    if let Some(at) = lower.find("::") {
        let provider = lower.get(..at).unwrap_or("");
        if provider.ends_with("filesystem") || provider.ends_with("registry") {
            text = text.get(at + 2..).unwrap_or("").to_string();
        }
    }
    if let Some((drive, rest)) = text.split_once(':')
        && !drive.is_empty()
        && drive.chars().all(|c| c.is_ascii_alphabetic())
        && (rest.is_empty() || rest.starts_with('/'))
    {
        let rest = rest.trim_start_matches('/');
        return match drive.to_lowercase().as_str() {
            _ if drive.len() == 1 => Some(format!("/{rest}")),
            "env" | "variable" | "function" | "alias" => None,
            "temp" => Some(format!("/tmp/{rest}")),
            _ => Some(format!("/{}:/{rest}", drive.to_uppercase())),
        };
    }
    Some(text)
}

/// A Windows work folder in the POSIX form the command law reads (`C:\Users\me\app` →
/// `/Users/me/app`); a POSIX one as it is.
pub(in crate::law::powershell) fn posix_folder(folder: &str) -> String {
    if is_windows_path(folder) {
        posix_path(folder).unwrap_or_else(|| folder.to_string())
    } else {
        folder.to_string()
    }
}

pub(in crate::law::powershell) fn is_windows_path(path: &str) -> bool {
    path.contains('\\')
        || path.len() >= 2
            && path.as_bytes().get(1) == Some(&b':')
            && path.as_bytes().first().is_some_and(u8::is_ascii_alphabetic)
}

/// A type's name as the law compares it: lower case, without `System.`.
pub(super) fn type_name(text: &str) -> String {
    let lower = text.trim().to_lowercase();
    lower.strip_prefix("system.").unwrap_or(&lower).to_string()
}

/// A program as a POSIX word: its path in POSIX form, without `.exe`.
pub(super) fn program_word(program: &Value) -> String {
    match program.literal() {
        Some(text) => {
            let mut text = text;
            let lower = text.to_lowercase();
            // `curl.exe` is `curl`; a program by its path keeps its name, so a download saved
            // there and run is the same file, and so does one the catalogue doesn't know
            // (`x.exe`: found in the folder it runs in first, as a file saved there).
            let path = text.contains(['\\', '/']) || is_windows_path(&text);
            if !path
                && let Some(ext) = [".exe", ".cmd", ".bat", ".com"]
                    .iter()
                    .find(|ext| lower.ends_with(*ext))
                && crate::catalogue::program(&lower[..lower.len() - ext.len()]).is_some()
            {
                text.truncate(text.len() - ext.len());
            }
            if path {
                quote_path(&posix_path(&text).unwrap_or(text))
            } else {
                quote(&text)
            }
        }
        None => program.path().unwrap_or_else(|| program.word()),
    }
}

/// A program's argument: a path in POSIX form when it plainly is one, else the word.
pub(super) fn native_word(value: &Value) -> String {
    match value.pieces.first() {
        Some(Piece::Home) => value.render(true),
        Some(Piece::Lit(text))
            if is_windows_path(text)
                && (text.get(1..2) == Some(":") || text.starts_with(['.', '~', '\\'])) =>
        {
            value.render(true)
        }
        _ => value.word(),
    }
}

/// A Windows command line cut into words: blanks separate, double quotes group.
pub(super) fn split_command_line(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    let mut started = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'"') => {
                word.push('"');
                chars.next();
                started = true;
            }
            '"' => {
                quoted = !quoted;
                started = true;
            }
            c if c.is_whitespace() && !quoted => {
                if started {
                    words.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            c => {
                word.push(c);
                started = true;
            }
        }
    }
    if started {
        words.push(word);
    }
    words
}
