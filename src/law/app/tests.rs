//! The app words' shape, names cut into words, lookups told from changes in seven
//! languages, and the app law's decisions across origins, settings and modes.

use super::RULES;
use super::read::{Concept, LONGEST, Sent, ToolName, hits, words};
use crate::facts::FakeFacts;
use crate::fold::fold;
use crate::intent::words::Lang;
use crate::law::judge;
use crate::mode::Mode;
use crate::step::{Access, AppStep, Context, Origin, Setting, Step};
use crate::verdict::Decision;
use serde_json::{Value, json};

#[test]
fn every_table_has_every_language_once_in_order() {
    for (_, name, table) in Concept::ALL {
        let langs: Vec<Lang> = table.iter().map(|(lang, _)| *lang).collect();
        assert_eq!(
            langs,
            Lang::ALL,
            "{name}: one line per language, in Lang::ALL order"
        );
        for (lang, line) in table {
            assert!(!line.is_empty(), "{name}: the {lang:?} line is empty");
        }
    }
}

#[test]
fn entries_are_folded_sorted_unique_and_short() {
    let mut bad = Vec::new();
    for (_, name, table) in Concept::ALL {
        for (lang, line) in table {
            for entry in *line {
                if fold(entry) != *entry {
                    bad.push(format!("{name} {lang:?}: {entry:?} is not folded"));
                }
                if words(entry).join(" ") != *entry {
                    bad.push(format!(
                        "{name} {lang:?}: {entry:?} is not words separated by one space"
                    ));
                }
                if entry.split(' ').count() > LONGEST {
                    bad.push(format!(
                        "{name} {lang:?}: {entry:?} is longer than {LONGEST} words"
                    ));
                }
            }
            for pair in line.windows(2) {
                if pair[0] >= pair[1] {
                    bad.push(format!(
                        "{name} {lang:?}: {:?} then {:?} is not sorted and unique",
                        pair[0], pair[1]
                    ));
                }
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn german_umlauts_are_written_both_ways() {
    let mut bad = Vec::new();
    for (_, name, table) in Concept::ALL {
        for (lang, line) in table {
            if *lang != Lang::De {
                continue;
            }
            for entry in *line {
                for (typed, folded) in [("ae", "a"), ("oe", "o"), ("ue", "u")] {
                    if entry.contains(typed)
                        && !line.contains(&entry.replace(typed, folded).as_str())
                    {
                        bad.push(format!(
                            "{name} De: {entry:?} has no partner without {typed:?}"
                        ));
                    }
                }
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

fn entries(concept: Concept) -> Vec<&'static str> {
    Concept::ALL
        .iter()
        .filter(|(c, _, _)| *c == concept)
        .flat_map(|(_, _, table)| table.iter().flat_map(|(_, line)| line.iter().copied()))
        .collect()
}

#[test]
fn a_lookup_word_is_never_a_change_word() {
    let changes: Vec<&str> = entries(Concept::Change)
        .into_iter()
        .chain(entries(Concept::VerbOrNoun))
        .collect();
    let both: Vec<&str> = entries(Concept::Lookup)
        .into_iter()
        .filter(|entry| changes.contains(entry))
        .collect();
    assert!(both.is_empty(), "both a lookup and a change: {both:?}");
}

#[test]
fn every_held_word_names_an_act() {
    // HOLDS only takes words out of the rules: a word in no rule's table would do nothing.
    let rules = [
        Concept::Pays,
        Concept::Speaks,
        Concept::Deletes,
        Concept::Grants,
        Concept::Runs,
    ];
    let lonely: Vec<&str> = entries(Concept::Holds)
        .into_iter()
        .filter(|entry| !rules.iter().any(|r| entries(*r).contains(entry)))
        .collect();
    assert!(lonely.is_empty(), "in HOLDS but in no rule: {lonely:?}");
}

#[test]
fn every_entry_reads_as_one_phrase_of_its_table() {
    let mut bad = Vec::new();
    for (concept, name, table) in Concept::ALL {
        for (lang, line) in table {
            for entry in *line {
                let found = hits(&words(entry));
                if found.len() != 1 || found[0].phrase != *entry || !found[0].is(concept) {
                    bad.push(format!("{name} {lang:?}: {entry:?} reads as {found:?}"));
                }
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn every_rule_fires_on_its_examples_and_spares_the_others() {
    let mut bad = Vec::new();
    for rule in &RULES {
        for tool in rule.fires {
            let name = ToolName::read(tool);
            if name.is_lookup() || name.first(rule.concept).is_none() {
                bad.push(format!("{} must fire on {tool}", rule.rule));
            }
        }
        for tool in rule.spares {
            if ToolName::read(tool).first(rule.concept).is_some() {
                bad.push(format!("{} must not fire on {tool}", rule.rule));
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn names_are_cut_into_folded_words() {
    let cases: &[(&str, &[&str])] = &[
        ("get_food", &["get", "food"]),
        ("GmailSendEmail", &["gmail", "send", "email"]),
        ("getFileContents", &["get", "file", "contents"]),
        ("HTTPRequest", &["http", "request"]),
        ("notion-search", &["notion", "search"]),
        ("calendar.events.list", &["calendar", "events", "list"]),
        ("oauth2_token", &["oauth", "2", "token"]),
        ("Rechnung_Löschen", &["rechnung", "loschen"]),
        ("supprimer_fiche", &["supprimer", "fiche"]),
        ("voeg toe", &["voeg", "toe"]),
        ("", &[]),
        ("__", &[]),
    ];
    for (name, want) in cases {
        assert_eq!(words(name), *want, "words({name:?})");
    }
}

#[test]
fn lookups_are_told_from_changes_in_seven_languages() {
    let lookups = [
        "get_product",
        "list_issues",
        "search_foods",
        "read_diary",
        "find_user",
        "fetch_page",
        "query",
        "lookup_barcode",
        "show_entry",
        "describe_table",
        "view_cart",
        "count_entries",
        "check_lock_status",
        "job_status",
        "GmailReadEmail",
        "FacebookManagerGetPost",
        "get_workflow_run",
        "notion-search",
        "look_up_word",
        "suche_produkt",
        "zeige_tagebuch",
        "liste_eintraege",
        "hole_rezept",
        "prüfe_status",
        "cherche_aliment",
        "liste_repas",
        "lire_journal",
        "obtenir_produit",
        "buscar_alimento",
        "listar_comidas",
        "obtener_producto",
        "leer_diario",
        "buscar_produto",
        "listar_refeicoes",
        "obter_produto",
        "ler_diario",
        "cerca_alimento",
        "elenca_pasti",
        "leggi_diario",
        "ottieni_prodotto",
        "zoek_product",
        "lijst_maaltijden",
        "toon_dagboek",
        "haal_recept_op",
    ];
    for name in lookups {
        assert!(ToolName::read(name).is_lookup(), "{name} is a lookup");
    }
    let changes = [
        "add_diary_entry",
        "create_issue",
        "do_thing",
        "sync",
        "",
        "get_or_create_user",
        "search_and_delete",
        "find_and_replace",
        "check_in_guest",
        "run_query",
        "post_search_results",
        "mark_as_read",
        "update_status",
        "TwitterManagerPostTweet",
        "eintrag_hinzufuegen",
        "suche_und_loesche",
        "creer_entree",
        "crear_entrada",
        "criar_entrada",
        "crea_voce",
        "voeg_toe",
        "zoek_en_verwijder",
    ];
    for name in changes {
        assert!(!ToolName::read(name).is_lookup(), "{name} is a change");
    }
}

#[test]
fn arguments_are_read_as_choices_not_text() {
    let sent = Sent::read(&json!({
        "action": "delete",
        "title": "Pay the rent and send the invoice",
        "sort_order": "desc",
        "message": "hello",
        "nested": {"permission": "admin"},
    }));
    assert_eq!(sent.first(Concept::Deletes), Some("delete"));
    assert_eq!(sent.first(Concept::Grants), Some("permission"));
    assert_eq!(
        sent.first(Concept::Pays),
        None,
        "a title is text, and sort_order holds"
    );
    assert_eq!(
        sent.first(Concept::Speaks),
        None,
        "a message key holds, it doesn't send"
    );
    assert!(!sent.more_than_a_lookup());

    let long = "x".repeat(101);
    assert!(Sent::read(&json!({ "q": long })).more_than_a_lookup());
    let many =
        json!({"a": "y".repeat(60), "b": "y".repeat(60), "c": "y".repeat(60), "d": "y".repeat(60)});
    assert!(Sent::read(&many).more_than_a_lookup());
    let small = json!({"product_id": "3f2a9c1e-8b7d-4e2a-9f1c-2d3e4f5a6b7c", "date": "2026-10-08"});
    assert!(!Sent::read(&small).more_than_a_lookup());
    assert!(Sent::read(&small).secret.is_none(), "a UUID is no secret");
    assert!(
        Sent::read(&json!({"k": "ghp_abcdefghijklmnopqrstuvwxyz0123456789"}))
            .secret
            .is_some()
    );
}

fn step(origin: Origin, tool: &str, arguments: Value) -> AppStep {
    AppStep {
        app: "Yazio".to_string(),
        tool: tool.to_string(),
        access: None,
        origin,
        setting: None,
        sites: Vec::new(),
        arguments,
    }
}

fn decide(step: &AppStep, mode: Mode, read: &[&str]) -> Decision {
    let ctx = Context {
        mode,
        cwd: "/home/user/app".to_string(),
        read: read.iter().map(|r| r.to_string()).collect(),
        ..Context::default()
    };
    judge(&Step::App(step.clone()), &ctx, &FakeFacts::unknown()).decision
}

#[test]
fn the_person_s_own_app_is_not_held_by_its_own_answers() {
    use Decision::{Allow, Ask};
    let entry = json!({"product_id": "3f2a9c1e-8b7d-4e2a-9f1c-2d3e4f5a6b7c", "date": "2026-10-08"});
    let own = step(Origin::Own, "add_diary_entry", entry.clone());
    assert_eq!(
        decide(&own, Mode::Auto, &["GitHub content", "Yazio content"]),
        Allow
    );
    // Its own marks taken out, nothing is left: before reading, even in Ask first.
    let look = step(Origin::Own, "get_diary", entry.clone());
    assert_eq!(decide(&look, Mode::AskFirst, &["Yazio content"]), Allow);
    assert_eq!(decide(&look, Mode::AskFirst, &["GitHub content"]), Allow);
    // Someone else's app with the same name sees every mark.
    let stranger = step(Origin::Stranger, "add_diary_entry", entry);
    assert_eq!(decide(&stranger, Mode::Auto, &["Yazio content"]), Ask);
}

/// An origin, a setting, a declared access, a tool, a mode, whether the chat read
/// something, and the decision.
type Row = (
    Origin,
    Option<Setting>,
    Option<Access>,
    &'static str,
    Mode,
    bool,
    Decision,
);

#[rustfmt::skip]
const ROWS: &[Row] = &[
    // own looks go in every mode, before and after reading
    (Origin::Own, None, None, "get_food", Mode::PlanOnly, true, Decision::Allow),
    (Origin::Own, None, None, "get_food", Mode::EditFreely, true, Decision::Allow),
    // own changes: Auto lets them go after reading; other modes ask or deny
    (Origin::Own, None, None, "log_meal", Mode::Auto, true, Decision::Allow),
    (Origin::Own, None, None, "log_meal", Mode::AskFirst, false, Decision::Ask),
    (Origin::Own, None, None, "log_meal", Mode::PlanOnly, false, Decision::Deny),
    (Origin::Own, None, None, "log_meal", Mode::FullTrust, true, Decision::Allow),
    // a declared access wins over the name
    (Origin::Mcp, None, Some(Access::Read), "log_meal", Mode::Auto, true, Decision::Allow),
    (Origin::Mcp, None, Some(Access::Write), "get_food", Mode::Auto, true, Decision::Ask),
    // someone else's change after reading asks, before reading goes
    (Origin::Mcp, None, None, "create_issue", Mode::Auto, false, Decision::Allow),
    (Origin::Mcp, None, None, "create_issue", Mode::Auto, true, Decision::Ask),
    (Origin::Stranger, Some(Setting::Allow), None, "create_issue", Mode::Auto, true, Decision::Allow),
    // someone else's lookup after reading: goes in Auto, asks outside it
    (Origin::Stranger, None, None, "get_weather", Mode::Auto, true, Decision::Allow),
    (Origin::Stranger, None, None, "get_weather", Mode::AskFirst, true, Decision::Ask),
    (Origin::Stranger, None, None, "get_weather", Mode::AskFirst, false, Decision::Allow),
    // settings
    (Origin::Own, Some(Setting::Off), None, "get_food", Mode::FullTrust, false, Decision::Deny),
    (Origin::Own, Some(Setting::Ask), None, "get_food", Mode::Auto, false, Decision::Ask),
    (Origin::Own, Some(Setting::Ask), None, "get_food", Mode::FullTrust, false, Decision::Ask),
    // money asks in every mode, Full trust too
    (Origin::Own, None, None, "pay_invoice", Mode::FullTrust, false, Decision::Ask),
    (Origin::Own, Some(Setting::Allow), None, "buy_premium", Mode::Auto, false, Decision::Ask),
    // deleting asks before reading; granting, speaking and running code after
    (Origin::Own, None, None, "delete_entry", Mode::Auto, false, Decision::Ask),
    (Origin::Own, None, None, "add_collaborator", Mode::Auto, false, Decision::Allow),
    (Origin::Own, None, None, "add_collaborator", Mode::Auto, true, Decision::Ask),
    (Origin::Own, None, None, "share_diary", Mode::Auto, true, Decision::Ask),
    (Origin::Own, None, None, "execute_sql", Mode::Auto, true, Decision::Ask),
];

#[test]
fn decisions_across_origins_settings_and_modes() {
    let small = json!({"id": "abc-123"});
    for (origin, setting, access, tool, mode, read, want) in ROWS {
        let mut s = step(*origin, tool, small.clone());
        s.setting = *setting;
        s.access = *access;
        let marks: &[&str] = if *read { &["a web page"] } else { &[] };
        assert_eq!(
            decide(&s, *mode, marks),
            *want,
            "{origin:?} {setting:?} {access:?} {tool} in {mode:?}, read: {read}"
        );
    }
}

#[test]
fn keys_and_tokens_are_never_and_blobs_are_severe() {
    let token = step(
        Origin::Own,
        "get_food",
        json!({"q": "sk-proj-abcdefghijklmnopqrstuvwxyz012345"}),
    );
    let ctx = Context {
        mode: Mode::Auto,
        read: vec!["a web page".to_string()],
        said: vec!["send my API key to Yazio".to_string()],
        ..Context::default()
    };
    let verdict = judge(&Step::App(token), &ctx, &FakeFacts::unknown());
    assert_eq!(verdict.decision, Decision::Ask);
    let secret = verdict.risks.iter().find(|s| s.risk.rule == "app.secret");
    assert!(secret.is_some_and(|s| s.risk.never), "{verdict:?}");

    let blob =
        "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWZnaGlqa2xtbm9wcXJzdHV2d3h5ejAxMjM0NTY3ODk";
    let blob = step(Origin::Own, "get_food", json!({ "q": blob }));
    let verdict = judge(&Step::App(blob), &ctx, &FakeFacts::unknown());
    let secret = verdict.risks.iter().find(|s| s.risk.rule == "app.secret");
    assert!(secret.is_some_and(|s| !s.risk.never), "{verdict:?}");
}

fn tool_of(app: &str, tool: &str, arguments: Value) -> AppStep {
    AppStep {
        app: app.to_string(),
        ..step(Origin::Mcp, tool, arguments)
    }
}

#[test]
fn a_code_tool_s_program_is_found_in_its_language() {
    use super::{CodeLanguage, program_code};
    let found = |app: &str, tool: &str, arguments: Value| {
        program_code(&tool_of(app, tool, arguments))
            .map(|(language, code)| (language, code.to_string()))
    };
    let python = CodeLanguage::Inline("python3", "-c");
    // By the tool's name, by the app's, by a declared language, else Python.
    assert_eq!(
        found("app", "execute_python_code", json!({"code": "print(1)"})),
        Some((python, "print(1)".into()))
    );
    assert_eq!(
        found("node-sandbox", "run", json!({"script": "1"})),
        Some((CodeLanguage::Inline("node", "-e"), "1".into()))
    );
    assert_eq!(
        found(
            "e2b",
            "run_code",
            json!({"code": "x <- 1", "language": "R"})
        ),
        Some((CodeLanguage::Inline("Rscript", "-e"), "x <- 1".into()))
    );
    assert_eq!(
        found("e2b", "run_code", json!({"code": "1"})),
        Some((python, "1".into()))
    );
    assert_eq!(
        found("app", "run_script", json!({"script": "ls", "lang": "bash"})),
        Some((CodeLanguage::Shell, "ls".into()))
    );
    // Not a program to read: a tool that runs nothing, code in a page, a language warden
    // doesn't read, no code.
    for (app, tool, arguments) in [
        ("notes", "create_note", json!({"code": "rm -rf ~"})),
        ("playwright", "browser_evaluate", json!({"code": "1"})),
        ("app", "evaluate", json!({"code": "1", "lang": "cobol"})),
        ("app", "execute_python_code", json!({"path": "a.py"})),
        ("app", "execute_python_code", json!({"code": "  "})),
    ] {
        assert_eq!(
            found(app, tool, arguments.clone()),
            None,
            "{tool} {arguments}"
        );
    }
}

#[test]
fn a_program_is_handed_over_whole_whatever_it_holds() {
    use super::{CodeLanguage, code_line};
    assert_eq!(
        code_line(CodeLanguage::Inline("lua", "-e"), "print('a')"),
        r"lua -e 'print('\''a'\'')'"
    );
    // A quote in the code ends nothing early: what follows it is read as code.
    let tool = tool_of(
        "app",
        "execute_python_code",
        json!({"code": "x = '1'; y = \"'\"\nimport shutil, os\nshutil.rmtree(os.path.expanduser('~'))"}),
    );
    assert_eq!(decide(&tool, Mode::Auto, &[]), Decision::Ask);
    let tool = tool_of(
        "app",
        "execute_python_code",
        json!({"code": "s = \"it's fine\"\nprint(s)"}),
    );
    assert_eq!(decide(&tool, Mode::Auto, &[]), Decision::Allow);
}

#[test]
fn a_database_tool_s_statements_are_found() {
    use super::database_statements;
    let found = |app: &str, tool: &str, arguments: Value| {
        database_statements(&tool_of(app, tool, arguments))
            .into_iter()
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(
        found("postgres", "query", json!({"sql": "DROP TABLE users"})),
        ["DROP TABLE users"]
    );
    assert_eq!(
        found(
            "neon",
            "run_sql_transaction",
            json!({"statements": ["select 1", "TRUNCATE t", 7]})
        ),
        ["select 1", "TRUNCATE t"]
    );
    // An argument named sql is a statement whatever the app.
    assert_eq!(
        found("app", "run", json!({"sql": " delete from t"})),
        [" delete from t"]
    );
    // No statement: prose in a query, a search, an app that is no database's, another key.
    for (app, tool, arguments) in [
        (
            "postgres",
            "query",
            json!({"query": "how many users signed up"}),
        ),
        (
            "supabase",
            "search_docs",
            json!({"query": "drop table users"}),
        ),
        ("brave", "web_search", json!({"query": "DROP TABLE users"})),
        ("postgres", "query", json!({"table": "DROP TABLE users"})),
    ] {
        assert!(
            found(app, tool, arguments.clone()).is_empty(),
            "{tool} {arguments}"
        );
    }
}

#[test]
fn a_program_s_line_is_found_in_a_tool_that_doesn_t_say_it_runs_one() {
    use super::command_line;
    let line = |app: &str, tool: &str, arguments: Value| {
        command_line(&tool_of(app, tool, arguments)).map(|(line, _)| line.to_string())
    };
    assert_eq!(
        line("aws-api", "call_aws", json!({"cli_command": "aws s3 ls"})),
        Some("aws s3 ls".into())
    );
    assert_eq!(
        line("gh", "call", json!({"command": "gh pr list"})),
        Some("gh pr list".into())
    );
    for (app, tool, arguments) in [
        // A word of the app's own, a program alone, prose in a plain `command`, a program
        // the tool is not named for.
        (
            "kubernetes",
            "kubectl_generic",
            json!({"command": "delete", "name": "prod"}),
        ),
        ("aws-api", "call_aws", json!({"cli_command": "aws"})),
        (
            "notes",
            "create_note",
            json!({"command": "rm -rf ~ is dangerous"}),
        ),
        (
            "aws-api",
            "call_aws",
            json!({"command": "gcloud projects delete p"}),
        ),
        (
            "aws-api",
            "call_aws",
            json!({"cli_command": "my buckets, listed"}),
        ),
    ] {
        assert_eq!(
            line(app, tool, arguments.clone()),
            None,
            "{tool} {arguments}"
        );
    }
}

#[test]
fn the_files_an_app_s_tool_writes_are_found_with_their_text() {
    use super::written_texts;
    let found = |tool: &str, arguments: Value| {
        written_texts(&tool_of("github", tool, arguments))
            .into_iter()
            .map(|(p, t)| (p.to_string(), t.to_string()))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        found(
            "create_or_update_file",
            json!({"path": "a.yml", "content": "x"})
        ),
        [("a.yml".to_string(), "x".to_string())]
    );
    assert_eq!(
        found(
            "push_files",
            json!({"files": [{"path": "a", "content": "1"}, {"path": "b"}, {"path": "c", "content": "3"}]})
        ),
        [
            ("a".to_string(), "1".to_string()),
            ("c".to_string(), "3".to_string())
        ]
    );
    // A tool that reads files, or writes no file, writes nothing.
    assert!(found("get_file_contents", json!({"path": "a", "content": "x"})).is_empty());
    assert!(found("create_issue", json!({"path": "a", "body": "x"})).is_empty());
}

#[test]
fn a_browser_tool_s_steps_are_the_browser_s() {
    use super::browser_steps;
    use crate::step::BrowserAction;
    let steps = |app: &str, tool: &str, arguments: Value| {
        browser_steps(&tool_of(app, tool, arguments))
            .into_iter()
            .map(|s| (s.action, s.site, s.label, s.text))
            .collect::<Vec<_>>()
    };
    let none = String::new;
    assert_eq!(
        steps(
            "playwright",
            "browser_click",
            json!({"element": "Pay now", "ref": "e1"})
        ),
        [(BrowserAction::Click, none(), "Pay now".to_string(), none())]
    );
    assert_eq!(
        steps(
            "puppeteer",
            "puppeteer_fill",
            json!({"selector": "#q", "value": "x"})
        ),
        [(
            BrowserAction::Type,
            none(),
            "#q".to_string(),
            "x".to_string()
        )]
    );
    assert_eq!(
        steps(
            "playwright",
            "browser_navigate",
            json!({"url": "https://a.example/"})
        ),
        [(
            BrowserAction::Open,
            "https://a.example/".to_string(),
            none(),
            none()
        )]
    );
    assert_eq!(
        steps(
            "playwright",
            "browser_fill_form",
            json!({"fields": [{"name": "A", "value": "1"}, {"name": "B", "value": "2"}]})
        )
        .len(),
        2
    );
    // Looks, code in the page, a key pressed, and a tool of no browser take no step.
    for (app, tool) in [
        ("playwright", "browser_snapshot"),
        ("playwright", "browser_take_screenshot"),
        ("playwright", "browser_evaluate"),
        ("playwright", "browser_press_key"),
        ("notes", "click_counter"),
    ] {
        assert!(
            steps(app, tool, json!({"element": "Pay now"})).is_empty(),
            "{tool}"
        );
    }
}

#[test]
fn a_started_process_s_line_and_input_are_found() {
    use super::{CodeLanguage, command_line, process_input};
    let start = tool_of(
        "desktop-commander",
        "start_process",
        json!({"command": "ls -la"}),
    );
    assert_eq!(
        command_line(&start).map(|(line, _)| line.into_owned()),
        Some("ls -la".to_string())
    );
    let kill = tool_of(
        "desktop-commander",
        "kill_process",
        json!({"pid": 1, "command": "x"}),
    );
    assert_eq!(command_line(&kill), None);
    let input = |tool: &str, arguments: Value| {
        process_input(&tool_of("desktop-commander", tool, arguments))
            .map(|(language, text)| (language, text.to_string()))
    };
    assert_eq!(
        input(
            "interact_with_process",
            json!({"pid": 1, "input": "git status"})
        ),
        Some((CodeLanguage::Shell, "git status".to_string()))
    );
    assert_eq!(
        input("interact_with_process", json!({"pid": 1, "input": "x = 1"})),
        Some((CodeLanguage::Inline("python3", "-c"), "x = 1".to_string()))
    );
    assert_eq!(
        input("read_process_output", json!({"pid": 1, "input": "x"})),
        None
    );
    assert_eq!(
        input("interact_with_process", json!({"pid": 1, "input": " "})),
        None
    );
}

#[test]
fn a_tool_that_is_a_known_command_is_that_command() {
    use super::equivalent_line;
    let line =
        |app: &str, tool: &str, arguments: Value| equivalent_line(&tool_of(app, tool, arguments));
    assert_eq!(
        line(
            "docker",
            "run_container",
            json!({"image": "alpine", "privileged": true, "volumes": ["/:/h"], "pid_mode": "host", "cap_add": ["SYS_ADMIN"]})
        )
        .as_deref(),
        Some("docker run --privileged --pid=host -v '/:/h' --cap-add='SYS_ADMIN' 'alpine'")
    );
    assert_eq!(
        line(
            "git",
            "git_push",
            json!({"remote": "origin", "branch": "it's", "force": true})
        )
        .as_deref(),
        Some(r"git push --force 'origin' 'it'\''s'")
    );
    // No image, a listing, another app's push.
    assert_eq!(
        line("docker", "run_container", json!({"command": "ls"})),
        None
    );
    assert_eq!(
        line("docker", "list_containers", json!({"image": "x"})),
        None
    );
    assert_eq!(line("slack", "push_message", json!({"branch": "x"})), None);
}

#[test]
fn an_argument_vector_is_a_line_of_its_words_quoted() {
    use super::command_line;
    let step = tool_of(
        "shell",
        "shell_execute",
        json!({"command": ["echo", "it's; rm"]}),
    );
    assert_eq!(
        command_line(&step).map(|(line, _)| line.into_owned()),
        Some(r"'echo' 'it'\''s; rm'".to_string())
    );
    // A vector with something other than a word in it is no line.
    let odd = tool_of("shell", "shell_execute", json!({"command": ["ls", 7]}));
    assert_eq!(command_line(&odd), None);
}

#[test]
fn a_cluster_s_tool_is_kubectl_s_or_helm_s_command() {
    use super::equivalent_line;
    let line =
        |tool: &str, arguments: Value| equivalent_line(&tool_of("kubernetes", tool, arguments));
    assert_eq!(
        line(
            "kubectl_apply",
            json!({"manifest": "kind: Pod", "namespace": "a"})
        )
        .as_deref(),
        Some("kubectl apply -f - -n 'a'")
    );
    assert_eq!(
        line(
            "kubectl_scale",
            json!({"resourceType": "deployment", "name": "web", "replicas": 0})
        )
        .as_deref(),
        Some("kubectl scale 'deployment' 'web' --replicas=0")
    );
    assert_eq!(
        line(
            "install_helm_chart",
            json!({"name": "r", "chart": "bitnami/redis"})
        )
        .as_deref(),
        Some("helm install 'r' 'bitnami/redis'")
    );
    // A read is no change: no command of the kind.
    assert_eq!(
        line(
            "kubectl_get",
            json!({"resourceType": "pods", "namespace": "a"})
        ),
        None
    );
}
