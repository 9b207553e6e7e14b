//! What a file finder searches: `find`'s starting points and `fd`'s search paths, and
//! whether what it matches is narrowed. One reader for every rule that asks it (a delete by
//! `-delete` or `-exec rm {}`, what `xargs` is given, a loop's items), so `find . ~` and
//! `fd . ~` name the home folder wherever they are read.

/// What a finder searches.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Search<'a> {
    /// The folders it starts from, as written (`.` when none is given).
    pub starts: Vec<&'a str>,
    /// Whether a test leaves files out: without one it takes everything under its starts.
    pub narrows: bool,
}

/// `program`'s search, for `find` (GNU and BSD) and `fd`; `None` for any other program.
pub(crate) fn search<'a>(program: &str, args: &'a [String]) -> Option<Search<'a>> {
    match program {
        "find" | "gfind" => Some(Search {
            starts: find_starts(args),
            narrows: super::find_narrows(args),
        }),
        "fd" | "fdfind" => Some(fd(args)),
        _ => None,
    }
}

/// The folders `find` starts from (`.` when none is given), after the options that come
/// before them: how links are followed (`-H`, `-L`, `-P`), GNU's `-D FLAGS` and `-O3`, BSD's
/// `-E`, `-X`, `-d`, `-s`, `-x` and `-f PATH` (a start of its own). `find -L ~ -delete`
/// starts from the home folder as `find ~ -delete` does.
fn find_starts(args: &[String]) -> Vec<&str> {
    let mut starts: Vec<&str> = Vec::new();
    let mut at = 0;
    while let Some(arg) = args.get(at) {
        match arg.as_str() {
            "-H" | "-L" | "-P" | "-E" | "-X" | "-d" | "-s" | "-x" => at += 1,
            "-D" => at += 2,
            "-f" => {
                starts.extend(args.get(at + 1).map(String::as_str));
                at += 2;
            }
            level if level.starts_with("-O") => at += 1,
            _ => break,
        }
    }
    starts.extend(
        args.iter()
            .skip(at)
            .take_while(|a| !a.starts_with('-') && !a.starts_with('(') && *a != "!")
            .map(String::as_str),
    );
    if starts.is_empty() { vec!["."] } else { starts }
}

/// fd's options that take a value (the next word, or the rest of a short cluster).
const FD_VALUED_SHORT: &[char] = &['e', 't', 'd', 'E', 'S', 'o', 'j', 'c'];
const FD_VALUED_LONG: &[&str] = &[
    "--extension",
    "--type",
    "--max-depth",
    "--min-depth",
    "--exact-depth",
    "--exclude",
    "--size",
    "--changed-within",
    "--changed-before",
    "--change-newer-than",
    "--change-older-than",
    "--newer",
    "--older",
    "--owner",
    "--threads",
    "--color",
    "--max-results",
    "--base-directory",
    "--path-separator",
    "--batch-size",
    "--ignore-file",
    "--search-path",
    "--format",
    "--and",
    "--max-buffer-time",
];
/// fd's options whose value leaves files out (an extension, a size, a time, an owner, a
/// second pattern, a count); a kind, a depth or an exclusion leaves nearly everything.
const FD_NARROWING: &[&str] = &[
    "-e",
    "--extension",
    "-S",
    "--size",
    "--changed-within",
    "--changed-before",
    "--change-newer-than",
    "--change-older-than",
    "--newer",
    "--older",
    "-o",
    "--owner",
    "--and",
    "--max-results",
    "-1",
];

/// `fd [OPTIONS] [PATTERN] [PATH]...`: options anywhere before `-x`/`-X` (which take the
/// rest), `--search-path DIR` a path of its own, `--base-directory DIR` where relative paths
/// start. A pattern of only "match anything" (`.`, `''`, `^`, `.*`; `*` with `--glob`)
/// narrows nothing.
fn fd(args: &[String]) -> Search<'_> {
    let mut positional: Vec<&str> = Vec::new();
    let mut paths: Vec<&str> = Vec::new();
    let mut base: Option<&str> = None;
    let mut narrows = false;
    let mut glob = false;
    let mut options_end = false;
    let mut at = 0;
    while let Some(arg) = args.get(at) {
        at += 1;
        let a = arg.as_str();
        if options_end || !a.starts_with('-') || a == "-" {
            positional.push(a);
            continue;
        }
        if a == "--" {
            options_end = true;
            continue;
        }
        if matches!(a, "-x" | "--exec" | "-X" | "--exec-batch") {
            break;
        }
        if a == "-g" || a == "--glob" {
            glob = true;
            continue;
        }
        // A long option, with its value attached (`--type=f`) or next.
        if let Some(long) = a.strip_prefix("--") {
            let (name, attached) = match long.split_once('=') {
                Some((name, value)) => (name, Some(value)),
                None => (long, None),
            };
            let option = &a[..name.len() + 2];
            if !FD_VALUED_LONG.contains(&option) {
                continue;
            }
            let value = match attached {
                Some(value) => Some(value),
                None => {
                    at += 1;
                    args.get(at - 1).map(String::as_str)
                }
            };
            narrows |= FD_NARROWING.contains(&option);
            match (option, value) {
                ("--search-path", Some(path)) => paths.push(path),
                ("--base-directory", Some(dir)) => base = Some(dir),
                _ => {}
            }
            continue;
        }
        // A short cluster: `-HI`, `-tf`, `-e rs`, `-He rs`.
        let cluster = &a[1..];
        for (i, flag) in cluster.char_indices() {
            if flag == 'g' {
                glob = true;
            }
            if flag == '1' {
                narrows = true;
            }
            if FD_VALUED_SHORT.contains(&flag) {
                let rest = &cluster[i + flag.len_utf8()..];
                if rest.is_empty() {
                    at += 1;
                }
                if matches!(flag, 'e' | 'S' | 'o') {
                    narrows = true;
                }
                break;
            }
        }
    }
    let mut positional = positional.into_iter();
    if let Some(pattern) = positional.next() {
        let anything: &[&str] = if glob {
            &["*", "**", "**/*", ""]
        } else {
            &["", ".", "^", ".*", "^.*", "^.*$", ".+", "^.+"]
        };
        narrows |= !anything.contains(&pattern.trim_matches(['\'', '"']));
    }
    paths.extend(positional);
    if paths.is_empty() {
        paths.push(base.unwrap_or("."));
    }
    // A relative path under `--base-directory` starts there; the reader keeps only what it
    // can say for sure, so a base makes every relative path its own start.
    if let Some(base) = base
        && paths.iter().any(|p| !p.starts_with(['/', '~', '$']))
    {
        paths.retain(|p| p.starts_with(['/', '~', '$']));
        paths.push(base);
    }
    Search {
        starts: paths,
        narrows,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<String> {
        line.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn find_and_fd_name_every_place_they_search() {
        let cases: &[(&str, &[&str], bool)] = &[
            ("find . ~ -name x", &[".", "~"], true),
            ("find -L ~ -delete", &["~"], false),
            ("find -type f", &["."], false),
            ("find -f /etc -f ~ -name '*.bak'", &["/etc", "~"], true),
            ("fd . ~", &["~"], false),
            ("fd", &["."], false),
            ("fd '' /etc /var", &["/etc", "/var"], false),
            ("fd -H -tf . ~", &["~"], false),
            ("fd --type f --hidden . ~ -x rm", &["~"], false),
            ("fd -e txt . ~", &["~"], true),
            ("fd -etxt . ~", &["~"], true),
            ("fd -He txt ~", &["."], true),
            ("fd --search-path ~ -x rm", &["~"], false),
            ("fd --search-path=/etc", &["/etc"], false),
            ("fd -g '*' ~", &["~"], false),
            ("fd -g '*.rs' ~", &["~"], true),
            ("fd report", &["."], true),
            ("fd --base-directory ~ .", &["~"], false),
            ("fd --base-directory ~ . sub /etc", &["/etc", "~"], false),
            ("fd --changed-within 2d . ~", &["~"], true),
            ("fd -d 1 . ~", &["~"], false),
            ("fd -E node_modules . /srv", &["/srv"], false),
            ("fd -- -x ~", &["~"], true),
        ];
        for (line, starts, narrows) in cases {
            let args = words(line);
            let (program, args) = args.split_first().unwrap_or_else(|| panic!("{line}"));
            let found = search(program, args).unwrap_or_else(|| panic!("{line}: no search"));
            assert_eq!(found.starts, *starts, "{line}: starts");
            assert_eq!(found.narrows, *narrows, "{line}: narrows");
        }
        assert_eq!(search("ls", &words("~")), None);
    }
}
