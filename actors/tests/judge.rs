//! `warden judge` end to end: the real binary, JSON lines in, one answer line per request out.

use serde_json::Value;
use std::io::Write;
use std::process::{Command, Stdio};

fn warden() -> Command {
    Command::new(env!("CARGO_BIN_EXE_warden"))
}

/// Runs `warden judge` on `input` and returns its answer lines, parsed.
fn batch(input: &str) -> Vec<Value> {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let mut command = warden();
    command
        .args(["judge", "--cwd"])
        .arg(dir.path())
        .env("HOME", "/home/tester");
    run(command, input)
}

/// Runs a prepared `warden judge` on `input` and returns its answer lines, parsed.
fn run(mut command: Command, input: &str) -> Vec<Value> {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("spawn warden: {e}"));
    child
        .stdin
        .take()
        .unwrap_or_else(|| panic!("no stdin"))
        .write_all(input.as_bytes())
        .unwrap_or_else(|e| panic!("write stdin: {e}"));
    let output = child
        .wait_with_output()
        .unwrap_or_else(|e| panic!("wait: {e}"));
    assert!(
        output.status.success(),
        "warden judge exited with {}",
        output.status
    );
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| {
            serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("answer is not JSON ({e}): {line}"))
        })
        .collect()
}

fn bash(id: &str, command: &str, extra: Value) -> String {
    let mut request =
        serde_json::json!({"id": id, "tool_name": "Bash", "tool_input": {"command": command}});
    if let (Some(request), Some(extra)) = (request.as_object_mut(), extra.as_object()) {
        for (key, value) in extra {
            request.insert(key.clone(), value.clone());
        }
    }
    request.to_string()
}

#[test]
fn one_answer_per_line_in_order_and_bad_lines_name_what_is_wrong() {
    let lines = [
        bash("a", "cargo test", serde_json::json!({})),
        "this is not json".to_string(),
        r#"{"id":"b","tool_input":{"command":"ls"}}"#.to_string(),
        r#"{"id":"c","tool_name":"Bash","tool_input":{"command":42}}"#.to_string(),
        r#"{"id":"d","mode":"yolo","tool_name":"Bash","tool_input":{"command":"ls"}}"#.to_string(),
        String::new(),
        r#"["an array"]"#.to_string(),
        bash(
            "e",
            "rm -rf ~",
            serde_json::json!({"mode": "bypassPermissions"}),
        ),
        r#"{"id":"f","tool_name":"Teleport","tool_input":{"to":"mars"}}"#.to_string(),
        r#"{"id":"g","tool_name":"Bash","tool_input":{"command":"ls"},"said":"push it"}"#
            .to_string(),
    ];
    let answers = batch(&(lines.join("\n") + "\n"));
    assert_eq!(
        answers.len(),
        lines.len(),
        "one answer per line: {answers:?}"
    );

    assert_eq!(answers[0]["id"], "a");
    assert_eq!(answers[0]["decision"], "allow", "{}", answers[0]);
    let error = |i: usize| {
        answers[i]["error"]
            .as_str()
            .unwrap_or_else(|| panic!("line {i} should be an error: {}", answers[i]))
            .to_string()
    };
    assert!(error(1).contains("not JSON"), "{}", error(1));
    assert!(error(2).contains("tool_name"), "{}", error(2));
    assert_eq!(answers[2]["id"], "b");
    assert!(error(3).contains("tool_input.command"), "{}", error(3));
    assert!(error(4).contains("yolo"), "{}", error(4));
    assert!(error(5).contains("empty"), "{}", error(5));
    assert!(error(6).contains("object"), "{}", error(6));
    assert!(
        error(9).starts_with("invalid request: `said`: invalid type"),
        "a field of the wrong type is named: {}",
        error(9)
    );
    assert_eq!(
        answers[7]["decision"], "ask",
        "the circuit breaker asks in Full trust: {}",
        answers[7]
    );
    assert_eq!(
        answers[8]["decision"], "ask",
        "tools not judged yet ask: {}",
        answers[8]
    );
    assert!(
        answers[8]["reason"]
            .as_str()
            .unwrap_or("")
            .contains("Teleport is not judged yet")
    );
}

/// The person's words through the whole binary: a plain push that was asked goes before and
/// after reading; held asks before and after; neither goes before reading and asks after.
#[test]
fn a_plain_push_follows_the_persons_words() {
    let table = [
        (vec!["fix the test, then commit and push"], "allow", "allow"),
        (vec!["don't push yet"], "ask", "ask"),
        (vec!["fix the typo in the README"], "allow", "ask"),
        (vec!["Commit et pousse sur main"], "allow", "allow"),
        (vec!["noch nicht pushen"], "ask", "ask"),
    ];
    for (said, before, after) in table {
        let lines = [
            bash("before", "git push", serde_json::json!({"said": said})),
            bash(
                "after",
                "git push",
                serde_json::json!({"said": said, "read": ["a web page"]}),
            ),
        ];
        let answers = batch(&(lines.join("\n") + "\n"));
        assert_eq!(
            answers[0]["decision"], before,
            "before reading, said {said:?}: {}",
            answers[0]
        );
        assert_eq!(
            answers[1]["decision"], after,
            "after reading, said {said:?}: {}",
            answers[1]
        );
    }
}

#[test]
fn someone_elses_words_are_never_the_persons() {
    let line = bash(
        "x",
        "git push --force origin main",
        serde_json::json!({"said": ["force-push main"], "others": true}),
    );
    let answers = batch(&(line + "\n"));
    assert_eq!(answers[0]["decision"], "ask", "{}", answers[0]);
}

#[test]
fn one_command_for_people() {
    let output = warden()
        .args([
            "judge",
            "--command",
            "git push --force origin main",
            "--said",
            "force-push main",
            "--cwd",
            "/tmp",
        ])
        .output()
        .unwrap_or_else(|e| panic!("run warden: {e}"));
    assert!(output.status.success());
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.starts_with("allow"), "{text}");
    assert!(text.contains("git.force_push"), "{text}");
}

#[test]
fn intent_prints_the_reading_and_the_words() {
    let output = warden()
        .args(["intent", "--act", "push", "don't push yet"])
        .output()
        .unwrap_or_else(|e| panic!("run warden: {e}"));
    assert!(output.status.success());
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.starts_with("held"), "{text}");
    let bad = warden()
        .args(["intent", "--act", "teleport", "x"])
        .output()
        .unwrap_or_else(|e| panic!("run warden: {e}"));
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("unknown act"));
}

/// Every intent case about a plain push (no names needed), through the real binary:
/// asked goes before and after reading; held asks before and after; neither goes before
/// reading and asks after.
#[test]
fn the_intent_corpus_end_to_end() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/intent");
    let mut lines = Vec::new();
    let mut expected = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("read {}: {e}", dir.display()))
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "jsonl"))
        .collect();
    files.sort();
    for path in files {
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
        for (number, line) in text.lines().enumerate() {
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let case: Value = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("{}:{}: {e}", path.display(), number + 1));
            let no_names = case
                .get("names")
                .is_none_or(|names| names.as_array().is_some_and(Vec::is_empty));
            if case["act"] != "push" || !no_names {
                continue;
            }
            let (before, after) = match case["expect"].as_str() {
                Some("asked") => ("allow", "allow"),
                Some("held") => ("ask", "ask"),
                Some("neither") => ("allow", "ask"),
                other => panic!(
                    "{}:{}: unknown expectation {other:?}",
                    path.display(),
                    number + 1
                ),
            };
            let label = format!(
                "{}:{} {}",
                path.file_name().and_then(|n| n.to_str()).unwrap_or("?"),
                number + 1,
                case["case"]
            );
            lines.push(bash(
                &label,
                "git push",
                serde_json::json!({"said": case["said"]}),
            ));
            lines.push(bash(
                &label,
                "git push",
                serde_json::json!({"said": case["said"], "read": ["a web page"]}),
            ));
            expected.push(before);
            expected.push(after);
        }
    }
    assert!(
        expected.len() >= 100,
        "too few push cases in the intent corpus: {}",
        expected.len() / 2
    );
    let answers = batch(&(lines.join("\n") + "\n"));
    assert_eq!(answers.len(), expected.len());
    let failures: Vec<String> = answers
        .iter()
        .zip(&expected)
        .enumerate()
        .filter(|(_, (answer, want))| answer["decision"] != **want)
        .map(|(i, (answer, want))| {
            let when = if i % 2 == 0 { "before" } else { "after" };
            format!(
                "{} {when} reading: want {want}, got {}",
                answer["id"], answer["decision"]
            )
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} fail:\n{}",
        failures.len(),
        expected.len(),
        failures.join("\n")
    );
}

/// The stories from the seeds (the Yazio diary, GitHub over MCP, shopping at OTTO), each
/// case through the real binary before and after reading, with the app registry it names
/// written as a configuration file.
#[test]
fn the_stories_end_to_end() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
    let world: warden::corpus::World = serde_json::from_str(
        &std::fs::read_to_string(root.join("world.json"))
            .unwrap_or_else(|e| panic!("world.json: {e}")),
    )
    .unwrap_or_else(|e| panic!("world.json: {e}"));
    let mut ran = 0;
    for area in warden::corpus::AREAS {
        let path = root.join(area).join("stories.jsonl");
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        for (line, case) in warden::corpus::parse_cases(&text) {
            let case = case.unwrap_or_else(|e| panic!("{}:{line}: {e}", path.display()));
            let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
            let config = dir.path().join("config.toml");
            let mut toml = format!(
                "protected = {}\n",
                serde_json::to_string(&case.protected).unwrap_or_default()
            );
            for app in case
                .apps
                .as_ref()
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                toml.push_str(&format!(
                    "[[apps]]\nname = {}\norigin = {}\nsites = {}\n",
                    app["name"],
                    app.get("origin")
                        .cloned()
                        .unwrap_or(Value::String("mcp".into())),
                    app.get("sites").cloned().unwrap_or(Value::Array(vec![]))
                ));
                if let Some(tools) = app.get("tools").and_then(Value::as_object) {
                    toml.push_str("[apps.tools]\n");
                    for (tool, setting) in tools {
                        toml.push_str(&format!(
                            "{} = {setting}\n",
                            serde_json::to_string(tool).unwrap_or_default()
                        ));
                    }
                }
            }
            std::fs::write(&config, toml).unwrap_or_else(|e| panic!("write config: {e}"));
            let lines = [
                case.request(&world, &[]).to_string(),
                case.request(&world, &case.marks_after()).to_string(),
            ];
            let mut command = warden();
            command
                .args(["judge", "--config"])
                .arg(&config)
                .env("HOME", "/home/user");
            let answers = run(command, &(lines.join("\n") + "\n"));
            assert_eq!(answers.len(), 2, "{}:{line}: {answers:?}", path.display());
            assert_eq!(
                answers[0]["decision"],
                case.before.as_str(),
                "{}:{line} [{}] before reading: {}",
                path.display(),
                case.case,
                answers[0]
            );
            assert_eq!(
                answers[1]["decision"],
                case.after.as_str(),
                "{}:{line} [{}] after reading: {}",
                path.display(),
                case.case,
                answers[1]
            );
            ran += 1;
        }
    }
    assert!(ran > 0, "no stories found under {}", root.display());
}
