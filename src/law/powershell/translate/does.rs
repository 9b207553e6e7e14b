//! What each cmdlet means: its POSIX command line, or the risk it carries that POSIX has no
//! word for; and the programs Windows has that POSIX doesn't.

use super::value::{
    Kind, Piece, Value, native_word, posix_path, program_word, quote, split_command_line, type_name,
};
use super::{Reading, Stage, args_of, literal_arg};
use crate::law::command::windows::schedule;
use crate::law::powershell::cmdlets::{self, Arg, Bound, Does};
use crate::law::powershell::lex::{Group, Tok, Token};
use crate::law::rule::RuleId;
use crate::verdict::{Harm, Risk};
use crate::wish::{Act, Name, Wish};

/// Services that keep the machine's defences.
#[rustfmt::skip]
const DEFENCES: &[&str] = &["mpssvc", "securityhealthservice", "sense", "wdfilter", "wdnissvc", "windefend", "wscsvc"];

impl Reading {
    /// A program, its arguments as words.
    pub(super) fn native(&mut self, program: Value, rest: &[Tok]) -> Stage {
        let args = args_of(rest);
        let mut words = vec![program_word(&program)];
        let mut i = 0;
        while let Some(arg) = args.get(i) {
            match arg {
                Arg::Param { name, colon: true } => {
                    let value = args
                        .get(i + 1)
                        .map(|next| self.values(next))
                        .unwrap_or_default();
                    let joined = value.first().map(native_word).unwrap_or_default();
                    words.push(format!("{}{joined}", quote(&format!("-{name}:"))));
                    for more in value.iter().skip(1) {
                        words.push(native_word(more));
                    }
                    i += 1;
                }
                Arg::Raw(text) => words.extend(text.split_whitespace().map(quote)),
                arg => {
                    for value in self.values(arg) {
                        words.push(native_word(&value));
                    }
                }
            }
            i += 1;
        }
        Stage {
            posix: words.join(" "),
            value: Value::default(),
        }
    }

    pub(super) fn firewall(&mut self, how: &str) {
        self.risk(crate::law::command::windows::firewall(how));
    }

    pub(super) fn evidence(&mut self, how: &str) {
        self.risk(Risk::new(
            RuleId::SystemEvidence,
            Harm::Moderate,
            true,
            format!("clear the Windows event logs ({how})"),
        ));
    }

    /// A cmdlet from the table.
    pub(super) fn cmdlet(
        &mut self,
        cmdlet: &'static cmdlets::Cmdlet,
        name: &str,
        rest: &[Tok],
        input: Option<&Value>,
    ) -> Stage {
        let (canonical, _, does, params) = *cmdlet;
        let args = args_of(rest);
        let bound = cmdlets::bind(params, &args);
        if bound.unbound
            && cmdlets::PROGRAMS_TOO.contains(&name)
            && !matches!(does, Does::Echo | Does::Routine)
        {
            // `rm -rf ~`, `curl -fsSL … | sh`: the program of that name, as on Linux and macOS.
            return self.native(Value::lit(name), rest);
        }
        let mut used = vec![false; args.len()];
        let mut stage = self.does(does, canonical, &args, &bound, &mut used, input);
        for (i, arg) in args.iter().enumerate() {
            if !used.get(i).copied().unwrap_or(true) && !matches!(arg, Arg::Param { .. }) {
                for value in self.values(arg) {
                    self.spend(&value);
                }
            }
        }
        if stage.value.pieces.is_empty() && stage.value.kind == Kind::Plain && stage.posix != "true"
        {
            stage.value = Value::cmd(stage.posix.clone());
        }
        stage
    }

    fn does(
        &mut self,
        does: Does,
        canonical: &str,
        args: &[Arg<'_>],
        bound: &Bound,
        used: &mut [bool],
        input: Option<&Value>,
    ) -> Stage {
        let mut take = |i: usize| -> Option<&Arg<'_>> {
            if let Some(slot) = used.get_mut(i) {
                *slot = true;
            }
            args.get(i)
        };
        // A parameter's value, or the positional argument at `position`.
        let pick = |param: &str, position: Option<usize>| {
            bound
                .get(param)
                .or_else(|| position.and_then(|p| bound.positional.get(p).copied()))
        };
        let on = |reading: &mut Reading, param: &str| {
            bound.has(param)
                && bound
                    .get(param)
                    .and_then(|i| args.get(i))
                    .is_none_or(|arg| !reading.is_false(arg))
        };
        let out = |posix: String| Stage {
            posix,
            value: Value::default(),
        };
        match does {
            Does::Delete | Does::Read | Does::MakeDir => {
                let mut at: Vec<usize> = ["path", "literalpath", "name"]
                    .iter()
                    .filter_map(|p| bound.get(p))
                    .collect();
                at.extend(bound.positional.iter().copied());
                let mut paths = Vec::new();
                for i in at {
                    if let Some(arg) = take(i) {
                        for value in self.values(arg) {
                            if does == Does::MakeDir {
                                self.written(&value);
                            }
                            paths.extend(self.path(&value));
                        }
                    }
                }
                if does == Does::Delete && bound.has("whatif") {
                    return Stage::nothing();
                }
                if paths.is_empty()
                    && let Some(input) = input
                {
                    paths = match &input.kind {
                        Kind::Listing(folders) if does == Does::Delete => {
                            folders.iter().map(|f| format!("{f}/*")).collect()
                        }
                        _ => vec![input.word()],
                    };
                }
                if paths.is_empty() && does != Does::Read {
                    return Stage::nothing();
                }
                let program = match does {
                    Does::Delete => {
                        let mut flags = String::new();
                        if on(self, "recurse") {
                            flags.push_str(" -r");
                        }
                        if on(self, "force") {
                            flags.push_str(" -f");
                        }
                        format!("rm{flags}")
                    }
                    Does::MakeDir => "mkdir -p".to_string(),
                    _ => "cat".to_string(),
                };
                out(join(&program, &paths))
            }
            Does::Search => {
                let pattern = pick("pattern", Some(0)).and_then(&mut take);
                let pattern = pattern.map(|a| self.values(a)).unwrap_or_default();
                let mut at: Vec<usize> = ["path", "literalpath"]
                    .iter()
                    .filter_map(|p| bound.get(p))
                    .collect();
                if bound.get("pattern").is_some() {
                    at.extend(bound.positional.iter().copied());
                } else {
                    at.extend(bound.positional.iter().skip(1).copied());
                }
                let mut words = vec!["grep".to_string()];
                for value in &pattern {
                    words.push("-e".to_string());
                    words.push(value.word());
                }
                for i in at {
                    if let Some(arg) = take(i) {
                        for value in self.values(arg) {
                            words.extend(self.path(&value));
                        }
                    }
                }
                out(words.join(" "))
            }
            Does::List => {
                let mut at: Vec<usize> = ["path", "literalpath"]
                    .iter()
                    .filter_map(|p| bound.get(p))
                    .collect();
                let filtered = ["filter", "include", "exclude"]
                    .iter()
                    .any(|p| bound.has(p))
                    || bound.positional.len() > 1;
                at.extend(bound.positional.first().copied());
                let mut paths = Vec::new();
                let mut environment = false;
                // `Get-ChildItem Env:GITHUB_TOKEN`: one variable, as `printenv` shows it.
                let mut variables = Vec::new();
                for i in at {
                    if let Some(arg) = take(i) {
                        for value in self.values(arg) {
                            if let Some(literal) = value.literal()
                                && literal.to_lowercase().starts_with("env:")
                            {
                                environment = true;
                                let name = literal
                                    .get(4..)
                                    .unwrap_or("")
                                    .trim_start_matches(['\\', '/']);
                                if !name.is_empty()
                                    && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
                                {
                                    variables.push(name.to_string());
                                }
                            }
                            paths.extend(self.path(&value));
                        }
                    }
                }
                if environment {
                    return out(if variables.is_empty() {
                        "env".to_string()
                    } else {
                        format!("printenv {}", variables.join(" "))
                    });
                }
                let listed = if paths.is_empty() {
                    vec![".".to_string()]
                } else {
                    paths.clone()
                };
                Stage {
                    posix: join("ls", &paths),
                    value: Value {
                        pieces: vec![Piece::Cmd(join("ls", &paths))],
                        kind: if filtered {
                            Kind::Plain
                        } else {
                            Kind::Listing(listed)
                        },
                        ..Value::default()
                    },
                }
            }
            Does::Write | Does::Append | Does::OutFile => {
                let target = pick("path", Some(0))
                    .or_else(|| bound.get("literalpath"))
                    .or_else(|| bound.get("filepath"))
                    .and_then(&mut take);
                let Some(target) = target else {
                    return Stage::nothing();
                };
                let target = self.values(target).into_iter().next().unwrap_or_default();
                let Some(path) = self.written(&target) else {
                    return Stage::nothing();
                };
                let append = does == Does::Append || on(self, "append");
                let op = if append { ">>" } else { ">" };
                if canonical == "clear-content" {
                    return out(format!("true > {path}"));
                }
                let data = pick("value", if does == Does::OutFile { None } else { Some(1) })
                    .or_else(|| bound.get("inputobject"))
                    .and_then(&mut take);
                match data {
                    Some(data) => {
                        let words: Vec<String> =
                            self.values(data).iter().map(Value::word).collect();
                        out(format!("echo {} {op} {path}", words.join(" ")))
                    }
                    None if input.is_some() => out(if append {
                        format!("tee -a {path}")
                    } else {
                        format!("tee {path}")
                    }),
                    None => out(format!("true {op} {path}")),
                }
            }
            Does::Copy | Does::Move | Does::Rename => {
                let mut sources: Vec<usize> = ["path", "literalpath"]
                    .iter()
                    .filter_map(|p| bound.get(p))
                    .collect();
                let destination = bound.get(if does == Does::Rename {
                    "newname"
                } else {
                    "destination"
                });
                let mut positional = bound.positional.iter().copied();
                if sources.is_empty() {
                    sources.extend(positional.next());
                }
                let destination = destination.or_else(|| positional.next());
                let mut words = vec![if does == Does::Copy { "cp" } else { "mv" }.to_string()];
                if does == Does::Copy && on(self, "recurse") {
                    words.push("-r".to_string());
                }
                for i in sources {
                    if let Some(arg) = take(i) {
                        for value in self.values(arg) {
                            words.extend(self.path(&value));
                        }
                    }
                }
                match destination.and_then(&mut take) {
                    Some(arg) => {
                        for value in self.values(arg) {
                            words.extend(self.written(&value));
                        }
                    }
                    None => words.push(".".to_string()),
                }
                out(words.join(" "))
            }
            Does::NewItem => {
                let path = pick("path", Some(0))
                    .and_then(&mut take)
                    .map(|a| self.values(a))
                    .unwrap_or_default();
                let name = bound
                    .get("name")
                    .and_then(&mut take)
                    .map(|a| self.values(a))
                    .unwrap_or_default();
                let kind = bound
                    .get("itemtype")
                    .and_then(&mut take)
                    .and_then(literal_arg)
                    .unwrap_or_default()
                    .to_lowercase();
                let value = pick("value", Some(1))
                    .and_then(&mut take)
                    .map(|a| self.values(a));
                let mut targets: Vec<Value> = Vec::new();
                match (path.as_slice(), name.first()) {
                    ([], Some(name)) => targets.push(name.clone()),
                    (paths, Some(name)) => {
                        for path in paths {
                            let mut joined = path.clone();
                            joined.push(Value::lit("/"));
                            joined.push(name.clone());
                            targets.push(joined);
                        }
                    }
                    (paths, None) => targets.extend(paths.iter().cloned()),
                }
                let mut lines = Vec::new();
                for target in &targets {
                    let Some(path) = self.written(target) else {
                        continue;
                    };
                    let line = if "directory".starts_with(&kind) && !kind.is_empty() {
                        format!("mkdir -p {path}")
                    } else if ["symboliclink", "junction", "hardlink"]
                        .iter()
                        .any(|k| k.starts_with(&kind))
                        && !kind.is_empty()
                    {
                        let to = value
                            .as_ref()
                            .and_then(|v| v.first())
                            .map_or_else(|| "\"$target\"".to_string(), |v| self.file(v));
                        format!("ln -s {to} {path}")
                    } else if let Some(data) = value.as_ref().and_then(|v| v.first()) {
                        format!("echo {} > {path}", data.word())
                    } else {
                        format!("touch {path}")
                    };
                    lines.push(line);
                }
                let Some(last) = lines.pop() else {
                    return Stage::nothing();
                };
                self.pending.extend(lines);
                out(last)
            }
            Does::Property => {
                let mut at: Vec<usize> = ["path", "literalpath"]
                    .iter()
                    .filter_map(|p| bound.get(p))
                    .collect();
                at.extend(bound.positional.first().copied());
                // A registry value set (`HKLM:\SOFTWARE\x`): the machine's or the person's
                // settings, as `reg add` sets them (a Run key is read by `written` too).
                let mut keys = Vec::new();
                for i in at {
                    if let Some(arg) = take(i) {
                        for value in self.values(arg) {
                            self.written(&value);
                            if let Some(key) = value.literal().and_then(|path| registry_key(&path))
                            {
                                keys.push(key);
                            }
                        }
                    }
                }
                match keys.first() {
                    Some(key) => out(format!("reg add '{key}'")),
                    None => out("true".to_string()),
                }
            }
            Does::Echo => {
                let mut words = vec!["echo".to_string()];
                for (i, arg) in args.iter().enumerate() {
                    take(i);
                    for value in self.values(arg) {
                        words.push(value.word());
                    }
                }
                out(words.join(" "))
            }
            Does::Eval => {
                let code = pick("command", Some(0)).and_then(&mut take);
                match code {
                    Some(arg) => {
                        let values = self.values(arg);
                        let mut code = Value::default();
                        for value in values {
                            code.push(value);
                        }
                        out(self.eval(&code, false))
                    }
                    None => match input {
                        Some(input) => out(self.eval(&input.clone(), true)),
                        None => {
                            self.runs_text = true;
                            out("eval \"$code\"".to_string())
                        }
                    },
                }
            }
            Does::Fetch | Does::Bits => {
                let mut words = vec!["curl".to_string()];
                let url = if does == Does::Bits {
                    pick("source", Some(0))
                } else {
                    pick("uri", Some(0))
                };
                let url = url
                    .and_then(&mut take)
                    .map(|a| self.values(a))
                    .unwrap_or_default();
                let method = pick("method", None)
                    .or_else(|| bound.get("custommethod"))
                    .and_then(&mut take)
                    .and_then(literal_arg)
                    .map(|m| m.to_uppercase());
                if let Some(method) = method.filter(|m| m != "GET") {
                    words.push("-X".to_string());
                    words.push(quote(&method));
                }
                for (param, flag) in [
                    ("infile", "-T"),
                    ("body", "-d"),
                    ("form", "-F"),
                    ("headers", "-H"),
                    ("outfile", "-o"),
                    ("destination", "-o"),
                ] {
                    if does == Does::Bits && param != "destination"
                        || does == Does::Fetch && param == "destination"
                    {
                        continue;
                    }
                    let at = if does == Does::Bits && param == "destination" {
                        pick(param, Some(1))
                    } else {
                        bound.get(param)
                    };
                    if let Some(arg) = at.and_then(&mut take) {
                        // `-Headers @{Authorization = "token $env:GITHUB_TOKEN"}`: each entry a
                        // header, as curl's `-H 'Authorization: token $GITHUB_TOKEN'`.
                        if param == "headers"
                            && let Some(entries) = self.hash_entries(arg)
                        {
                            for (name, value) in entries {
                                let mut header = Value::lit(format!("{name}: "));
                                header.push(value);
                                words.push(flag.to_string());
                                words.push(header.word());
                            }
                            continue;
                        }
                        for value in self.values(arg) {
                            words.push(flag.to_string());
                            words.push(match param {
                                "infile" => self.file(&value),
                                "outfile" | "destination" => {
                                    self.written(&value).unwrap_or_else(|| value.word())
                                }
                                _ => value.word(),
                            });
                        }
                    }
                }
                if url.is_empty() {
                    words.push("\"$uri\"".to_string());
                }
                words.extend(url.iter().map(Value::word));
                out(words.join(" "))
            }
            Does::Start => {
                let file = pick("filepath", Some(0))
                    .or_else(|| bound.get("literalpath"))
                    .or_else(|| bound.get("path"))
                    .and_then(&mut take)
                    .map(|a| self.values(a))
                    .unwrap_or_default();
                let Some(program) = file.first() else {
                    return Stage::nothing();
                };
                let mut words = Vec::new();
                let verb = bound
                    .get("verb")
                    .and_then(&mut take)
                    .and_then(literal_arg)
                    .unwrap_or_default();
                if verb.eq_ignore_ascii_case("runas") {
                    words.push("sudo".to_string());
                }
                words.push(program_word(program));
                if let Some(arg) = pick("argumentlist", Some(1)).and_then(&mut take) {
                    let values = self.values(arg);
                    let single = values.len() == 1;
                    for value in values {
                        match value.literal() {
                            Some(line) if single => {
                                words.extend(split_command_line(&line).iter().map(|w| quote(w)))
                            }
                            _ => words.push(native_word(&value)),
                        }
                    }
                }
                // A Windows program's meaning (`schtasks`, `reg`, `netsh`) is the command
                // law's (`law::command::windows`), which reads these words.
                out(words.join(" "))
            }
            Does::Run => {
                // A session's first word is the machine it opens on (`etsn srv01`).
                let session_host = canonical
                    .ends_with("-pssession")
                    .then(|| pick("computername", Some(0)))
                    .flatten()
                    .and_then(&mut take);
                let outer = self.input.take();
                self.input = input.cloned();
                for (i, arg) in args.iter().enumerate() {
                    if !matches!(arg, Arg::Param { .. }) {
                        take(i);
                        for value in self.values(arg) {
                            self.spend(&value);
                        }
                    }
                }
                self.input = outer;
                let host = pick("computername", None).or_else(|| bound.get("hostname"));
                if let Some(arg) = session_host.or_else(|| host.and_then(&mut take)) {
                    let hosts: Vec<String> = self.values(arg).iter().map(Value::word).collect();
                    for host in hosts {
                        self.pending.push(format!("ssh {host} pwsh"));
                    }
                } else if bound.has("session") {
                    self.pending.push("ssh \"$session\" pwsh".to_string());
                }
                out("true".to_string())
            }
            Does::Location => {
                let path = pick("path", Some(0))
                    .or_else(|| bound.get("literalpath"))
                    .and_then(&mut take);
                let folder = path
                    .map(|a| self.values(a))
                    .unwrap_or_default()
                    .into_iter()
                    .next();
                let words: Vec<String> = folder.iter().filter_map(|f| self.path(f)).collect();
                // Where relative paths are from now on: the folder named (relative to where
                // we were), or only known when it runs (`Pop-Location`, `cd $x`).
                self.location = match folder {
                    Some(folder)
                        if folder.literal().is_some()
                            || folder.pieces.first() == Some(&Piece::Home) =>
                    {
                        match (&self.location, folder.pieces.first()) {
                            (Some(current), Some(Piece::Lit(first)))
                                if posix_path(first).is_some_and(|p| !p.starts_with('/')) =>
                            {
                                let mut joined = current.clone();
                                joined.push(Value::lit("/"));
                                joined.push(folder);
                                Some(joined)
                            }
                            _ => Some(folder),
                        }
                    }
                    _ => Some(Value::var("PWD")),
                };
                out(join("cd", &words))
            }
            Does::Object => {
                let type_arg = pick("typename", Some(0)).and_then(&mut take);
                let com = bound
                    .get("comobject")
                    .and_then(&mut take)
                    .and_then(literal_arg);
                let mut of_type = String::new();
                let mut list = Vec::new();
                if let Some(Arg::Value(items)) = type_arg
                    && let Some(item) = items.first()
                {
                    if let Some(Token::Word(word)) = item.first() {
                        of_type = type_name(&word.literal().unwrap_or_default());
                    }
                    // `New-Object Net.Sockets.TCPClient('10.0.0.1', 4444)`
                    for token in item.iter().skip(1) {
                        if let Token::Group(Group::Paren, script) = token {
                            list.extend(self.list(script));
                        }
                    }
                }
                if let Some(arg) = pick("argumentlist", Some(1)).and_then(&mut take) {
                    list.extend(self.values(arg));
                }
                if com.is_some() {
                    return Stage {
                        posix: "true".to_string(),
                        value: Value::var("com"),
                    };
                }
                let value = self.object(&of_type, &list);
                Stage {
                    posix: "true".to_string(),
                    value,
                }
            }
            Does::Policy => {
                let policy = pick("executionpolicy", Some(0))
                    .and_then(&mut take)
                    .and_then(literal_arg);
                let scope = pick("scope", Some(1))
                    .and_then(&mut take)
                    .and_then(literal_arg)
                    .unwrap_or_else(|| "LocalMachine".to_string());
                let lowers = policy.as_deref().is_none_or(|p| {
                    p.eq_ignore_ascii_case("bypass") || p.eq_ignore_ascii_case("unrestricted")
                });
                if lowers {
                    let process = scope.eq_ignore_ascii_case("process");
                    let policy =
                        policy.unwrap_or_else(|| "a policy only known when it runs".to_string());
                    let lasting = if process {
                        "for this PowerShell only"
                    } else {
                        "for every script from now on"
                    };
                    self.risk(
                        Risk::new(
                            RuleId::PwshExecutionPolicy,
                            Harm::Moderate,
                            !process,
                            format!("set PowerShell's execution policy to {policy} {lasting}, so scripts run unchecked"),
                        )
                        .wish(Wish::new(Act::Safety).naming(Name::AnyOf(vec!["policy".to_string(), "executionpolicy".to_string()]))),
                    );
                }
                out("true".to_string())
            }
            Does::Defender => {
                let mut i = 0;
                while let Some(arg) = args.get(i) {
                    if let Arg::Param { name, .. } = arg {
                        let name = name.to_lowercase();
                        let value = args.get(i + 1).filter(|a| !matches!(a, Arg::Param { .. }));
                        let shown = value.and_then(literal_arg).unwrap_or_default();
                        if name.starts_with("ex") {
                            let what = if shown.is_empty() {
                                "files".to_string()
                            } else {
                                shown
                            };
                            self.defender(format!("exclude {what} from Windows Defender's scans"));
                        } else if name.starts_with("disa")
                            && value.is_none_or(|v| !self.is_false(v))
                        {
                            self.defender(format!(
                                "turn off Windows Defender's protection (-{name})"
                            ));
                        }
                    }
                    i += 1;
                }
                out("true".to_string())
            }
            Does::Firewall => {
                let off = args.iter().enumerate().any(|(i, arg)| {
                    matches!(arg, Arg::Param { name, .. } if name.to_lowercase().starts_with("en"))
                        && args.get(i + 1).is_some_and(|v| self.is_false(v))
                });
                if off {
                    self.firewall("Set-NetFirewallProfile");
                }
                out("true".to_string())
            }
            Does::Schedule => {
                // Its trigger first: `-Trigger (New-ScheduledTaskTrigger -AtLogOn)`.
                if let Some(trigger) = bound.get("trigger").and_then(&mut take) {
                    for value in self.values(trigger) {
                        self.spend(&value);
                    }
                }
                if canonical.contains("service") {
                    self.risk(schedule(
                        "create a service, which runs by itself at every start",
                    ));
                } else if self.logon_trigger {
                    // As `schtasks /sc onlogon`: at every sign-in or start.
                    self.risk(crate::law::command::windows::autostart(
                        "register a scheduled task that runs at every sign-in or start",
                    ));
                } else {
                    self.risk(schedule(
                        "register a scheduled task, which runs by itself later",
                    ));
                }
                out("true".to_string())
            }
            Does::Item => {
                let path = pick("path", Some(0))
                    .or_else(|| bound.get("literalpath"))
                    .and_then(&mut take)
                    .map(|a| self.values(a))
                    .unwrap_or_default();
                match path.into_iter().next() {
                    Some(value) => Stage {
                        posix: "true".to_string(),
                        value,
                    },
                    None => Stage {
                        posix: "true".to_string(),
                        value: Value::var("output"),
                    },
                }
            }
            Does::Lookup => {
                let name = pick("name", Some(0))
                    .and_then(&mut take)
                    .map(|a| self.values(a))
                    .unwrap_or_default();
                let words: Vec<String> = name.iter().map(Value::word).collect();
                out(format!("nslookup {}", words.join(" ")))
            }
            Does::Mail => {
                let mut words = vec!["swaks".to_string()];
                for (param, flag, position) in [
                    ("to", "--to", Some(0)),
                    ("smtpserver", "--server", None),
                    ("attachments", "--attach", None),
                    ("body", "--body", None),
                ] {
                    if let Some(arg) = pick(param, position).and_then(&mut take) {
                        for value in self.values(arg) {
                            words.push(flag.to_string());
                            words.push(value.word());
                        }
                    }
                }
                out(words.join(" "))
            }
            Does::Account => {
                let first = |reading: &mut Self, param: &str, position: usize| {
                    pick(param, Some(position))
                        .and_then(|i| args.get(i))
                        .map(|a| reading.values(a))
                        .and_then(|values| values.first().map(Value::shape))
                        .unwrap_or_else(|| "$NAME".to_string())
                };
                if canonical == "new-localuser" {
                    let name = first(self, "name", 0);
                    out(format!("useradd {}", quote(&name)))
                } else {
                    let group = first(self, "group", 0).to_ascii_lowercase();
                    let member = first(self, "member", 1);
                    out(format!("usermod -aG {} {}", quote(&group), quote(&member)))
                }
            }
            Does::Trigger => {
                if on(self, "atlogon") || on(self, "atstartup") {
                    self.logon_trigger = true;
                }
                out("true".to_string())
            }
            Does::Service => {
                let names: Vec<String> = pick("name", Some(0))
                    .and_then(&mut take)
                    .map(|a| self.values(a))
                    .unwrap_or_default()
                    .iter()
                    .map(Value::shape)
                    .collect();
                let stops = canonical == "stop-service"
                    || ["startuptype", "status"].iter().any(|p| {
                        bound
                            .get(p)
                            .and_then(&mut take)
                            .and_then(literal_arg)
                            .is_some_and(|v| {
                                v.eq_ignore_ascii_case("disabled")
                                    || v.eq_ignore_ascii_case("stopped")
                            })
                    });
                if stops && names.iter().any(|n| DEFENCES.contains(&n.as_str())) {
                    self.defender(format!(
                        "stop the service {} that keeps the machine's defences",
                        names.join(", ")
                    ));
                }
                if canonical == "stop-service" {
                    out(join(
                        "systemctl stop",
                        &names.iter().map(|n| quote(n)).collect::<Vec<_>>(),
                    ))
                } else {
                    out("true".to_string())
                }
            }
            Does::Stop => {
                let names = bound
                    .get("name")
                    .and_then(&mut take)
                    .map(|a| self.values(a))
                    .unwrap_or_default();
                let ids = pick("id", Some(0))
                    .and_then(&mut take)
                    .map(|a| self.values(a))
                    .unwrap_or_default();
                let mut lines: Vec<String> = names
                    .iter()
                    .map(|n| format!("pkill {}", n.word()))
                    .collect();
                lines.extend(ids.iter().map(|id| format!("kill {}", id.word())));
                // `Get-Process | Stop-Process`: the processes it is given, every one of them
                // when what feeds it names none.
                if lines.is_empty()
                    && let Some(input) = input
                {
                    lines.push(format!("pkill -9 {}", input.word()));
                }
                match lines.pop() {
                    Some(last) => {
                        self.pending.extend(lines);
                        out(last)
                    }
                    None => out("kill".to_string()),
                }
            }
            Does::Disk => {
                let (rule, what) = if canonical == "format-volume" {
                    (
                        RuleId::CriticalMkfs,
                        "format a volume, erasing it (Format-Volume)",
                    )
                } else {
                    (
                        RuleId::CriticalDiskWrite,
                        "erase a disk or a partition (Clear-Disk, Remove-Partition)",
                    )
                };
                self.risk(Risk::new(rule, Harm::Severe, true, what).critical());
                out("true".to_string())
            }
            Does::Evidence => {
                self.evidence(canonical);
                out("true".to_string())
            }
            Does::Install => {
                let names = pick("name", Some(0))
                    .and_then(&mut take)
                    .map(|a| self.values(a))
                    .unwrap_or_default();
                for name in names {
                    match name.literal() {
                        Some(name)
                            if self
                                .declared
                                .as_deref()
                                .unwrap_or(&[])
                                .iter()
                                .any(|d| d.eq_ignore_ascii_case(&name)) => {}
                        Some(name) => self.risk(
                            Risk::new(
                                RuleId::InstallUndeclared,
                                Harm::Moderate,
                                true,
                                format!("install the PowerShell module {name}, which the project's manifests don't list"),
                            )
                            .wish(Wish::new(Act::Install).naming(Name::one(&name))),
                        ),
                        None => self.risk(Risk::new(
                            RuleId::InstallUndeclared,
                            Harm::Moderate,
                            true,
                            "install a PowerShell module only known when it runs",
                        )),
                    }
                }
                out("true".to_string())
            }
            Does::Join => {
                let mut joined = Value::default();
                for param in ["path", "childpath", "additionalchildpath"] {
                    let position = match param {
                        "path" => Some(0),
                        "childpath" => Some(1),
                        _ => None,
                    };
                    if let Some(arg) = pick(param, position).and_then(&mut take) {
                        let values = self.values(arg);
                        for value in values.into_iter().take(1) {
                            if !joined.pieces.is_empty() {
                                joined.push(Value::lit("/"));
                            }
                            joined.push(value);
                        }
                    }
                }
                Stage {
                    posix: "true".to_string(),
                    value: joined,
                }
            }
            Does::Posix(command) => out(command.to_string()),
            Does::Alias | Does::Variable => out("true".to_string()),
            Does::Routine => {
                for (i, arg) in args.iter().enumerate() {
                    if !matches!(arg, Arg::Param { .. }) {
                        take(i);
                        for value in self.values(arg) {
                            self.spend(&value);
                        }
                    }
                }
                Stage {
                    posix: "true".to_string(),
                    value: Value::var("output"),
                }
            }
        }
    }

    fn defender(&mut self, what: String) {
        self.risk(
            Risk::new(RuleId::PwshDefender, Harm::Severe, true, what).wish(
                Wish::new(Act::Safety).naming(Name::AnyOf(vec![
                    "defender".to_string(),
                    "antivirus".to_string(),
                ])),
            ),
        );
    }

    /// `$false`, `0` or `false`.
    fn is_false(&mut self, arg: &Arg<'_>) -> bool {
        self.values(arg)
            .first()
            .and_then(Value::literal)
            .is_some_and(|v| v.eq_ignore_ascii_case("false") || v == "0")
    }
}

fn join(program: &str, words: &[String]) -> String {
    if words.is_empty() {
        program.to_string()
    } else {
        format!("{program} {}", words.join(" "))
    }
}

/// A registry path as PowerShell's provider writes it (`HKLM:\SOFTWARE\x`,
/// `Registry::HKEY_CURRENT_USER\x`), as `reg` writes it (`HKLM\SOFTWARE\x`); `None` for
/// anything else. A quote in it is left out: the key is put inside one.
fn registry_key(path: &str) -> Option<String> {
    let path = path.trim();
    let rest = path
        .get(..10)
        .filter(|head| head.eq_ignore_ascii_case("registry::"))
        .map_or(path, |_| path.get(10..).unwrap_or(""));
    let (hive, key) = rest.split_once(['\\', '/'])?;
    let hive = hive.trim_end_matches(':').to_ascii_uppercase();
    let known = matches!(
        hive.as_str(),
        "HKCU"
            | "HKLM"
            | "HKCR"
            | "HKU"
            | "HKCC"
            | "HKEY_CURRENT_USER"
            | "HKEY_LOCAL_MACHINE"
            | "HKEY_CLASSES_ROOT"
            | "HKEY_USERS"
            | "HKEY_CURRENT_CONFIG"
    );
    known.then(|| format!("{hive}\\{}", key.replace('\'', "")))
}
