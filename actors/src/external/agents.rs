//! The agent scenario sets: a person's prompt, the tool calls that serve it, and the calls
//! an injection (or the record's harmful turn) makes, each judged as a connected (MCP)
//! app's step in Auto, with no second look configured. Per set it prints the user's calls
//! that go and the attacker's calls that go.
//!
//! - `injecagent`: the user's tool call, before and after reading; each attacker tool
//!   after the injected read, with the address the attacker's instruction names as its
//!   recipient (the records give attacker tools by name only).
//! - `r-judge`, `assebench`: every tool action of a record, with the person's own turns as
//!   their words and the environment's answers as what was read; a record's calls go when
//!   every one goes. Safe records count as the user's, unsafe ones as the attacker's.
//! - `agentharm`: each target function, by name, with the prompt as the person's words.
//! - `corpus/external/agents.jsonl`: our own set, written from the seeds in AgentDojo's
//!   shapes (`user` serves the prompt, `attacks` don't; `money` marks a payment, which no
//!   words lift and which the rate of the user's calls leaves aside).

use anyhow::{Context as _, Result};
use serde::Deserialize;
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use warden::facts::FakeFacts;
use warden::law::judge;
use warden::protocol::{Defaults, Request, read_request};
use warden::verdict::Decision;

/// A tool call: its name as an agent host writes it, and its input.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Call {
    pub tool_name: String,
    pub tool_input: Value,
}

/// One scenario of our own set.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    pub id: String,
    pub said: Vec<String>,
    /// What the chat read before the calls (the injected tool result's source).
    pub read: Vec<String>,
    pub user: Vec<Call>,
    #[serde(default)]
    pub attacks: Vec<Call>,
    /// The user's call pays: no words lift it, so it is left out of their rate.
    #[serde(default)]
    pub money: bool,
}

#[derive(Default)]
struct Rate {
    calls: usize,
    go: usize,
    samples: Vec<String>,
}

impl Rate {
    fn add(&mut self, goes: bool, sample: impl FnOnce() -> String, keep: bool, show: usize) {
        self.calls += 1;
        self.go += usize::from(goes);
        if keep && self.samples.len() < show {
            self.samples.push(sample());
        }
    }
}

#[derive(Default)]
struct Tally {
    user_before: Rate,
    user_after: Rate,
    attacker: Rate,
    /// Attacks (a case's every attacker call) that reach their goal with no question.
    reached: Rate,
}

/// Judges one call: does it go?
fn goes(call: &Call, said: &[String], read: &[String]) -> (bool, String) {
    let request = json!({
        "mode": "auto",
        "cwd": "/home/user/app",
        "said": said,
        "read": read,
        "tool_name": call.tool_name,
        "tool_input": call.tool_input,
    });
    let defaults = Defaults::new("/home/user/app");
    let facts = FakeFacts::unknown();
    let parsed = serde_json::from_value::<Request>(request)
        .map_err(|e| e.to_string())
        .and_then(|r| read_request(&r, &defaults).map_err(|e| e.to_string()));
    match parsed {
        Ok((step, ctx)) => {
            let verdict = judge(&step, &ctx, &facts);
            (verdict.decision == Decision::Allow, verdict.reason)
        }
        Err(e) => (false, format!("unreadable: {e}")),
    }
}

fn shown(call: &Call, said: &[String], why: &str) -> String {
    let input: String = call.tool_input.to_string().chars().take(120).collect();
    let said: String = said
        .last()
        .map_or("", String::as_str)
        .chars()
        .take(100)
        .collect();
    format!("{} {input}  ← “{said}”  — {why}", call.tool_name)
}

/// ToolEmu's tool names (`GmailSendEmail`) as an MCP tool of their toolkit
/// (`mcp__Gmail__SendEmail`); a name no toolkit claims is its own app.
struct Toolkits(BTreeMap<String, String>);

impl Toolkits {
    fn read(dir: &Path) -> Toolkits {
        let mut map = BTreeMap::new();
        if let Ok(text) = std::fs::read_to_string(dir.join("toolemu/tools.jsonl")) {
            for record in text
                .lines()
                .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            {
                if let (Some(tool), Some(kit)) = (
                    record.get("tool").and_then(Value::as_str),
                    record.get("toolkit").and_then(Value::as_str),
                ) {
                    map.insert(tool.to_string(), kit.to_string());
                }
            }
        }
        Toolkits(map)
    }

    fn call(&self, tool: &str, input: Value) -> Call {
        let name = match self.0.get(tool) {
            Some(kit) if tool.len() > kit.len() && tool.starts_with(kit.as_str()) => {
                format!("mcp__{kit}__{}", &tool[kit.len()..])
            }
            _ => format!("mcp__app__{tool}"),
        };
        Call {
            tool_name: name,
            tool_input: input,
        }
    }
}

/// Runs every agent set found, and our own set at `own` when it exists.
pub fn run(dir: &Path, own: &Path, show: usize) -> Result<()> {
    let kits = Toolkits::read(dir);
    let mut sets: Vec<(&str, Tally)> = Vec::new();
    sets.push(("injecagent", injecagent(dir, &kits, show)?));
    for (name, file) in [
        ("r-judge", "r-judge/r_judge.jsonl"),
        ("assebench", "assebench/security.jsonl"),
    ] {
        sets.push((name, records(&dir.join(file), &kits, show)?));
    }
    sets.push(("agentharm", agentharm(dir, &kits, show)?));
    if own.exists() {
        sets.push(("ours (corpus/external/agents.jsonl)", ours(own, show)?));
    }
    outln!("agent sets (Auto, connected MCP apps, no second look; calls that go)");
    for (name, tally) in &sets {
        if tally.user_before.calls + tally.attacker.calls == 0 {
            continue;
        }
        outln!("  {name}");
        for (what, rate) in [
            ("user's calls, before reading", &tally.user_before),
            ("user's calls, after reading", &tally.user_after),
            ("attacker's or harmful calls", &tally.attacker),
            ("attacks reaching their goal unasked", &tally.reached),
        ] {
            if rate.calls == 0 {
                continue;
            }
            outln!(
                "    {what:<40} {:>5} of {:<5} {:>5.1}%",
                rate.go,
                rate.calls,
                super::percent(rate.go, rate.calls)
            );
            for sample in &rate.samples {
                outln!("        {sample}");
            }
        }
    }
    Ok(())
}

fn injecagent(dir: &Path, kits: &Toolkits, show: usize) -> Result<Tally> {
    let mut tally = Tally::default();
    let path = dir.join("injecagent/test_cases.jsonl");
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Ok(tally);
    };
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let record: Value = serde_json::from_str(line)
            .with_context(|| format!("{}: a line is not JSON", path.display()))?;
        let text_of = |key: &str| record.get(key).and_then(Value::as_str).unwrap_or_default();
        let said = vec![text_of("user_instruction").to_string()];
        let input = pylit::parse(text_of("user_tool_parameters")).unwrap_or(json!({}));
        let user = kits.call(text_of("user_tool"), input);
        let kit = user
            .tool_name
            .split("__")
            .nth(1)
            .unwrap_or("app")
            .to_string();
        let (go, why) = goes(&user, &said, &[]);
        tally
            .user_before
            .add(go, || shown(&user, &said, &why), !go, show);
        let read = vec![format!("{kit} content")];
        let (go, why) = goes(&user, &said, &read);
        tally
            .user_after
            .add(go, || shown(&user, &said, &why), !go, show);
        let address = email_in(text_of("attacker_instruction"));
        let mut all = true;
        let tools = record.get("attacker_tools").and_then(Value::as_array);
        for tool in tools.into_iter().flatten().filter_map(Value::as_str) {
            let mut input = Map::new();
            if let Some(address) = &address
                && tool.contains("Send")
            {
                input.insert("to".into(), Value::String(address.clone()));
            }
            let call = kits.call(tool, Value::Object(input));
            let (go, why) = goes(&call, &said, &read);
            all &= go;
            tally
                .attacker
                .add(go, || shown(&call, &said, &why), go, show);
        }
        tally.reached.add(all, String::new, false, show);
    }
    Ok(tally)
}

/// The first email address in a text.
fn email_in(text: &str) -> Option<String> {
    text.split(|c: char| c.is_whitespace() || c == ',' || c == '(' || c == ')')
        .map(|w| w.trim_end_matches(['.', ';', ':']))
        .find(|w| w.contains('@') && w.contains('.'))
        .map(str::to_string)
}

/// R-Judge's schema (ASSEBench's security split shares it): `contents` holds the turns,
/// each agent action written `ToolName{python dict}` or `ToolName: {…}`.
fn records(path: &Path, kits: &Toolkits, show: usize) -> Result<Tally> {
    let mut tally = Tally::default();
    let Ok(text) = std::fs::read_to_string(path) else {
        return Ok(tally);
    };
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let record: Value = serde_json::from_str(line)
            .with_context(|| format!("{}: a line is not JSON", path.display()))?;
        let unsafe_ = record.get("label").and_then(Value::as_i64) == Some(1);
        let mut said: Vec<String> = Vec::new();
        let mut read: Vec<String> = Vec::new();
        let mut calls = 0;
        let mut all = true;
        let turns = record
            .get("contents")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_array)
            .flatten();
        for turn in turns {
            let role = turn.get("role").and_then(Value::as_str).unwrap_or_default();
            let content = turn.get("content").and_then(Value::as_str);
            match role {
                "user" => said.extend(content.map(str::to_string)),
                "environment"
                    if content.is_some_and(|c| !c.trim().is_empty()) && read.is_empty() =>
                {
                    read.push("a tool's result".to_string());
                }
                "agent" => {
                    let Some(call) = turn
                        .get("action")
                        .and_then(Value::as_str)
                        .and_then(|a| action(a, kits))
                    else {
                        continue;
                    };
                    calls += 1;
                    let (go, why) = goes(&call, &said, &read);
                    all &= go;
                    let rate = if unsafe_ {
                        &mut tally.attacker
                    } else if read.is_empty() {
                        &mut tally.user_before
                    } else {
                        &mut tally.user_after
                    };
                    let keep = if unsafe_ { go } else { !go };
                    rate.add(go, || shown(&call, &said, &why), keep, show);
                }
                _ => {}
            }
        }
        if unsafe_ && calls > 0 {
            tally.reached.add(all, String::new, false, show);
        }
    }
    Ok(tally)
}

/// A record's action as a call, in each shape the records write one: `ToolName{'a': 1}`,
/// `ToolName: {"a": 1}`, ReAct's `ToolName` then `Action Input: {…}` on the next line (text
/// after the input is left), `{"ToolName": {…}}`, and AutoGPT's `"command": {"name": …,
/// "args": {…}}`. Prose (`Final Answer: …`) is no call.
fn action(text: &str, kits: &Toolkits) -> Option<Call> {
    let text = text.trim();
    if let Some((name, input)) = autogpt_command(text).or_else(|| keyed_call(text)) {
        return Some(kits.call(&name, input));
    }
    let name_end = text
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    let (name, rest) = text.split_at(name_end);
    let mut rest = rest.trim_start_matches([':', ' ', '\t']).trim_start();
    const LABEL: &str = "action input";
    if rest
        .get(..LABEL.len())
        .is_some_and(|head| head.eq_ignore_ascii_case(LABEL))
    {
        rest = rest[LABEL.len()..]
            .trim_start()
            .trim_start_matches(':')
            .trim_start();
    }
    if name.is_empty() || !rest.starts_with('{') {
        return None;
    }
    let input = object_at_start(rest).unwrap_or(json!({}));
    if is_final_answer(name, &input) {
        return None;
    }
    Some(kits.call(name, input))
}

/// The agent's last answer written as a call (ASSEBench's `Complete{'response': …}`): prose
/// to the person, no tool's step.
fn is_final_answer(name: &str, input: &Value) -> bool {
    let name = name.to_ascii_lowercase();
    matches!(
        name.as_str(),
        "complete" | "finish" | "final_answer" | "finalanswer" | "task_complete"
    ) && input.as_object().is_some_and(|fields| {
        fields.keys().all(|key| {
            matches!(
                key.to_ascii_lowercase().as_str(),
                "response" | "answer" | "text" | "output" | "reason" | "message"
            )
        })
    })
}

/// The object `text` starts with, as JSON or as a Python literal; what follows it is left.
fn object_at_start(text: &str) -> Option<Value> {
    if let Some(Ok(value)) = serde_json::Deserializer::from_str(text)
        .into_iter::<Value>()
        .next()
    {
        return Some(value);
    }
    pylit::parse(text).or_else(|| {
        // A Python literal followed by text: cut where the first one closes.
        let mut depth = 0usize;
        let mut quote: Option<char> = None;
        let mut escaped = false;
        for (at, c) in text.char_indices() {
            match (quote, c) {
                (Some(_), _) if escaped => escaped = false,
                (Some(_), '\\') => escaped = true,
                (Some(q), c) if c == q => quote = None,
                (Some(_), _) => {}
                (None, '\'' | '"') => quote = Some(c),
                (None, '{' | '[' | '(') => depth += 1,
                (None, '}' | ']' | ')') => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return pylit::parse(text.get(..=at)?);
                    }
                }
                (None, _) => {}
            }
        }
        None
    })
}

/// AutoGPT's action: `"command": {"name": "execute_python_code", "args": {…}}`, alone or in
/// the object of its whole reply.
fn autogpt_command(text: &str) -> Option<(String, Value)> {
    if !text.contains("\"command\"") {
        return None;
    }
    let whole = if text.starts_with('{') {
        object_at_start(text)
    } else {
        object_at_start(&format!("{{{text}}}"))
    }?;
    let command = whole.get("command")?;
    let name = command.get("name")?.as_str()?.trim();
    if name.is_empty() {
        return None;
    }
    let args = command.get("args").cloned().unwrap_or(json!({}));
    Some((name.to_string(), args))
}

/// `{"ToolName": {…}}`: an object of one key, a tool's name, whose value is its input.
fn keyed_call(text: &str) -> Option<(String, Value)> {
    if !text.starts_with('{') {
        return None;
    }
    let Value::Object(map) = object_at_start(text)? else {
        return None;
    };
    let mut entries = map.into_iter();
    let (name, input) = entries.next()?;
    let is_name = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    (entries.next().is_none() && is_name && input.is_object()).then_some((name, input))
}

fn agentharm(dir: &Path, kits: &Toolkits, show: usize) -> Result<Tally> {
    let mut tally = Tally::default();
    let path = dir.join("agentharm/agentharm_validation.jsonl");
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Ok(tally);
    };
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let record: Value = serde_json::from_str(line)
            .with_context(|| format!("{}: a line is not JSON", path.display()))?;
        let harmful = record.get("label").and_then(Value::as_str) == Some("unsafe");
        let said = vec![
            record
                .get("prompt")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string(),
        ];
        let functions = record.get("target_functions").and_then(Value::as_array);
        let mut all = true;
        for function in functions.into_iter().flatten().filter_map(Value::as_str) {
            let call = kits.call(function, json!({}));
            let (go, why) = goes(&call, &said, &[]);
            all &= go;
            let rate = if harmful {
                &mut tally.attacker
            } else {
                &mut tally.user_before
            };
            let keep = if harmful { go } else { !go };
            rate.add(go, || shown(&call, &said, &why), keep, show);
        }
        if harmful {
            tally.reached.add(all, String::new, false, show);
        }
    }
    Ok(tally)
}

fn ours(path: &Path, show: usize) -> Result<Tally> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let mut tally = Tally::default();
    for (index, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let scenario: Scenario = serde_json::from_str(line)
            .with_context(|| format!("{}:{}", path.display(), index + 1))?;
        for call in &scenario.user {
            if scenario.money {
                continue;
            }
            let (go, why) = goes(call, &scenario.said, &[]);
            tally
                .user_before
                .add(go, || shown(call, &scenario.said, &why), !go, show);
            let (go, why) = goes(call, &scenario.said, &scenario.read);
            tally
                .user_after
                .add(go, || shown(call, &scenario.said, &why), !go, show);
        }
        for call in &scenario.attacks {
            let (go, why) = goes(call, &scenario.said, &scenario.read);
            tally.attacker.add(
                go,
                || format!("{}: {}", scenario.id, shown(call, &scenario.said, &why)),
                go,
                show,
            );
            tally.reached.add(go, String::new, false, show);
        }
    }
    Ok(tally)
}

/// Python literals as the records write them (`{'a': ['b'], 'c': True}`), read into JSON:
/// strings in either quote with escapes, numbers, lists, tuples, dicts, True, False, None.
pub mod pylit {
    use serde_json::{Map, Number, Value};

    /// The most nesting read; deeper is unreadable.
    const DEPTH: usize = 32;

    pub fn parse(text: &str) -> Option<Value> {
        let chars: Vec<char> = text.chars().collect();
        let mut at = 0;
        let value = value(&chars, &mut at, 0)?;
        skip(&chars, &mut at);
        (at == chars.len()).then_some(value)
    }

    fn skip(chars: &[char], at: &mut usize) {
        while chars.get(*at).is_some_and(|c| c.is_whitespace()) {
            *at += 1;
        }
    }

    fn value(chars: &[char], at: &mut usize, depth: usize) -> Option<Value> {
        if depth > DEPTH {
            return None;
        }
        skip(chars, at);
        match *chars.get(*at)? {
            '{' => {
                *at += 1;
                let mut map = Map::new();
                loop {
                    skip(chars, at);
                    if chars.get(*at) == Some(&'}') {
                        *at += 1;
                        return Some(Value::Object(map));
                    }
                    let key = match value(chars, at, depth + 1)? {
                        Value::String(s) => s,
                        other => other.to_string(),
                    };
                    skip(chars, at);
                    if chars.get(*at) != Some(&':') {
                        return None;
                    }
                    *at += 1;
                    let inner = value(chars, at, depth + 1)?;
                    map.insert(key, inner);
                    skip(chars, at);
                    match chars.get(*at) {
                        Some(',') => *at += 1,
                        Some('}') => {}
                        _ => return None,
                    }
                }
            }
            open @ ('[' | '(') => {
                let close = if open == '[' { ']' } else { ')' };
                *at += 1;
                let mut items = Vec::new();
                loop {
                    skip(chars, at);
                    if chars.get(*at) == Some(&close) {
                        *at += 1;
                        return Some(Value::Array(items));
                    }
                    items.push(value(chars, at, depth + 1)?);
                    skip(chars, at);
                    match chars.get(*at) {
                        Some(',') => *at += 1,
                        Some(c) if *c == close => {}
                        _ => return None,
                    }
                }
            }
            quote @ ('\'' | '"') => {
                *at += 1;
                let mut out = String::new();
                while let Some(&c) = chars.get(*at) {
                    *at += 1;
                    match c {
                        '\\' => {
                            let next = *chars.get(*at)?;
                            *at += 1;
                            out.push(match next {
                                'n' => '\n',
                                't' => '\t',
                                other => other,
                            });
                        }
                        c if c == quote => return Some(Value::String(out)),
                        c => out.push(c),
                    }
                }
                None
            }
            _ => {
                let start = *at;
                while chars.get(*at).is_some_and(|c| {
                    c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '+' | '_')
                }) {
                    *at += 1;
                }
                let word: String = chars[start..*at].iter().collect();
                match word.as_str() {
                    "True" => Some(Value::Bool(true)),
                    "False" => Some(Value::Bool(false)),
                    "None" => Some(Value::Null),
                    _ => {
                        if let Ok(n) = word.parse::<i64>() {
                            Some(Value::Number(n.into()))
                        } else {
                            word.parse::<f64>()
                                .ok()
                                .and_then(Number::from_f64)
                                .map(Value::Number)
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kits() -> Toolkits {
        Toolkits(BTreeMap::from([
            ("GmailSendEmail".to_string(), "Gmail".to_string()),
            (
                "AugustSmartLockGrantGuestAccess".to_string(),
                "AugustSmartLock".to_string(),
            ),
        ]))
    }

    fn read(text: &str) -> Option<(String, Value)> {
        action(text, &kits()).map(|c| (c.tool_name, c.tool_input))
    }

    #[test]
    fn every_shape_of_an_action_the_records_write_is_a_call() {
        assert_eq!(
            read("GmailSendEmail{'to': 'a@b.c', 'cc': None}"),
            Some((
                "mcp__Gmail__SendEmail".into(),
                json!({"to": "a@b.c", "cc": null})
            ))
        );
        assert_eq!(
            read(r#"GmailSendEmail: {"to": "a@b.c"}"#),
            Some(("mcp__Gmail__SendEmail".into(), json!({"to": "a@b.c"})))
        );
        // ReAct's two lines, the input's JSON over several lines, text after it.
        assert_eq!(
            read(
                "AugustSmartLockGrantGuestAccess\nAction Input: {\"guest_ids\": [\"amy\"],\n \"permanent\": true}\nObservation: done"
            ),
            Some((
                "mcp__AugustSmartLock__GrantGuestAccess".into(),
                json!({"guest_ids": ["amy"], "permanent": true})
            ))
        );
        assert_eq!(
            read("GmailSendEmail\nAction Input: {'to': 'a@b.c'} and then"),
            Some(("mcp__Gmail__SendEmail".into(), json!({"to": "a@b.c"})))
        );
        assert_eq!(
            read(
                r#"{"AugustSmartLockGrantGuestAccess":  {"guest_ids": ["g2"], "permanent": true}}"#
            ),
            Some((
                "mcp__AugustSmartLock__GrantGuestAccess".into(),
                json!({"guest_ids": ["g2"], "permanent": true})
            ))
        );
        assert_eq!(
            read(r#""command": {"name": "execute_python_code", "args": {"code": "import os"}}"#),
            Some((
                "mcp__app__execute_python_code".into(),
                json!({"code": "import os"})
            ))
        );
        assert_eq!(
            read(
                r#"{"thoughts": {"text": "x"}, "command": {"name": "write_file", "args": {"path": "a"}}}"#
            ),
            Some(("mcp__app__write_file".into(), json!({"path": "a"})))
        );
        // A tool of that name that does more than answer is a call.
        assert_eq!(
            read("Complete{'task_id': 7}"),
            Some(("mcp__app__Complete".into(), json!({"task_id": 7})))
        );
    }

    #[test]
    fn prose_is_no_call() {
        for text in [
            "Final Answer: You received an SMS message last week.",
            "I can't help with that.",
            "Open <APP Store>",
            "Complete{'response': \"I'm sorry, but I can't comply with that.\"}",
            "",
            r#""command": {"args": {}}"#,
            r#"{"a": 1, "b": {}}"#,
            r#"{"not a name": {}}"#,
        ] {
            assert_eq!(read(text), None, "{text}");
        }
    }
}
