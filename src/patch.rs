//! Codex's `apply_patch`: which files a patch writes. A patch is
//! `*** Begin Patch`, then for each file `*** Add File: P`, `*** Delete File: P` or
//! `*** Update File: P` (optionally `*** Move to: Q`) with its lines, then `*** End Patch`.
//! Every path a patch names is a write, judged as the file tools' writes are.

/// What a patch does to one path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// `*** Add File:` a new file.
    Add,
    /// `*** Update File:` an existing file changed in place.
    Update,
    /// `*** Delete File:` a file removed.
    Delete,
    /// `*** Move to:` where an updated file goes (its old path is an `Update`).
    Move,
}

/// A patch read: every path it writes, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Patch {
    /// Each change and the path as the patch names it (relative to the work folder, or
    /// absolute).
    pub files: Vec<(Change, String)>,
    /// The lines each of `files` gains (its `+` lines), one text per file, in order: what
    /// the law reads of what is written.
    pub added: Vec<String>,
}

/// Why a patch could not be read. A patch warden can't read is never allowed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PatchError {
    #[error("it does not start with `*** Begin Patch`")]
    NoBegin,
    #[error("it names no file (`*** Add File:`, `*** Update File:` or `*** Delete File:`)")]
    NoFile,
    #[error("line {0} names an empty path")]
    EmptyPath(usize),
    #[error("line {0}: `*** Move to:` follows no `*** Update File:`")]
    MoveWithoutUpdate(usize),
    #[error("line {0}: `{1}` is not a patch header warden knows")]
    UnknownHeader(usize, String),
    #[error("the path on line {0} holds a control character")]
    ControlChar(usize),
}

/// The headers and what each does.
const HEADERS: &[(&str, Change)] = &[
    ("*** Add File:", Change::Add),
    ("*** Update File:", Change::Update),
    ("*** Delete File:", Change::Delete),
    ("*** Move to:", Change::Move),
];

impl Patch {
    /// Reads a patch's headers. Lines between headers (the hunks) are the file's text and
    /// are not read: only where the patch writes matters here. A line that starts with
    /// `*** ` and is no header warden knows is an error, so a header in a newer format is
    /// never read as text and missed.
    pub fn parse(text: &str) -> Result<Patch, PatchError> {
        let mut lines = text
            .lines()
            .enumerate()
            .skip_while(|(_, l)| l.trim().is_empty());
        match lines.next() {
            Some((_, first)) if first.trim() == "*** Begin Patch" => {}
            _ => return Err(PatchError::NoBegin),
        }
        let mut files: Vec<(Change, String)> = Vec::new();
        let mut added: Vec<String> = Vec::new();
        for (at, line) in lines {
            let number = at + 1;
            let Some(rest) = line.strip_prefix("*** ") else {
                if let (Some(text), Some(gained)) = (added.last_mut(), line.strip_prefix('+')) {
                    text.push_str(gained);
                    text.push('\n');
                }
                continue;
            };
            let trimmed = line.trim_end();
            if trimmed == "*** End Patch" || trimmed == "*** End of File" {
                continue;
            }
            let Some((change, path)) = HEADERS
                .iter()
                .find_map(|(header, change)| line.strip_prefix(header).map(|p| (*change, p)))
            else {
                return Err(PatchError::UnknownHeader(
                    number,
                    format!("*** {}", rest.chars().take(40).collect::<String>()),
                ));
            };
            let path = path.trim();
            if path.is_empty() {
                return Err(PatchError::EmptyPath(number));
            }
            if path.chars().any(char::is_control) {
                return Err(PatchError::ControlChar(number));
            }
            if change == Change::Move && files.last().map(|(c, _)| *c) != Some(Change::Update) {
                return Err(PatchError::MoveWithoutUpdate(number));
            }
            files.push((change, path.to_string()));
            added.push(String::new());
        }
        if files.is_empty() {
            return Err(PatchError::NoFile);
        }
        Ok(Patch { files, added })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_path_a_patch_writes_is_read() {
        let patch = "*** Begin Patch\n*** Add File: src/new.rs\n+fn main() {}\n*** Update File: README.md\n@@\n-old\n+new\n*** Update File: a.txt\n*** Move to: b/a.txt\n@@\n x\n*** Delete File: /tmp/gone\n*** End Patch\n";
        let got = Patch::parse(patch).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            got.files,
            vec![
                (Change::Add, "src/new.rs".to_string()),
                (Change::Update, "README.md".to_string()),
                (Change::Update, "a.txt".to_string()),
                (Change::Move, "b/a.txt".to_string()),
                (Change::Delete, "/tmp/gone".to_string()),
            ]
        );
        // What each file gains, for the law to read (a move's lines are the new path's).
        assert_eq!(
            got.added,
            vec![
                "fn main() {}\n".to_string(),
                "new\n".to_string(),
                String::new(),
                String::new(),
                String::new(),
            ]
        );
        // The file's own text is not read as a header, even when it looks like one.
        let text =
            "*** Begin Patch\n*** Add File: notes.md\n+*** Delete File: /etc/passwd\n*** End Patch";
        assert_eq!(
            Patch::parse(text).map(|p| p.files),
            Ok(vec![(Change::Add, "notes.md".to_string())])
        );
    }

    #[test]
    fn a_patch_warden_can_t_read_is_an_error() {
        let table: [(&str, PatchError); 6] = [
            ("", PatchError::NoBegin),
            ("*** Add File: x\n+y\n", PatchError::NoBegin),
            ("*** Begin Patch\n*** End Patch\n", PatchError::NoFile),
            (
                "*** Begin Patch\n*** Add File:   \n",
                PatchError::EmptyPath(2),
            ),
            (
                "*** Begin Patch\n*** Add File: a\n*** Move to: b\n",
                PatchError::MoveWithoutUpdate(3),
            ),
            (
                "*** Begin Patch\n*** Rename File: a\n",
                PatchError::UnknownHeader(2, "*** Rename File: a".to_string()),
            ),
        ];
        for (text, want) in table {
            assert_eq!(Patch::parse(text), Err(want), "{text:?}");
        }
    }
}
