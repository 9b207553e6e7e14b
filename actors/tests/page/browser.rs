//! The page in a real browser: Debian's chromium, headless, driven over the DevTools
//! protocol. It signs in through the one-time link `warden page` printed, sees a question
//! arrive live, answers it "this one command" from the keyboard, finds the rule in Settings →
//! Safety and in `GET /v1/preferences`, forgets it with ×, edits the note, imports a settings
//! file and reads its preview before anything takes effect; checks the page's own fetches
//! without the session or with a wrong CSRF value change nothing; and runs axe-core on each
//! screen, with no serious or critical finding allowed. Screenshots of each screen go to
//! `target/tmp/page/`.
//!
//! Without chromium or axe-core it says "skipped", unless `WARDEN_REQUIRE_BROWSER=1` (as in
//! `.ci/run`, which installs both), where it fails instead.

use super::cdp::{self, Browser};
use super::session::link;
use super::{chat_that_read, push};
use crate::common::{Place, Serve, call, chat};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// Where the screenshots go.
fn output() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("page");
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    dir
}

/// axe-core's script: `WARDEN_AXE`, else where `.ci/run` installs it.
fn axe() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("WARDEN_AXE").filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(path));
    }
    let home = std::env::var_os("HOME")?;
    let path = Path::new(&home).join(".cache/warden-axe/node_modules/axe-core/axe.min.js");
    path.exists().then_some(path)
}

/// What the browser test needs, or why it is skipped (a failure under
/// `WARDEN_REQUIRE_BROWSER=1`).
fn needs() -> Option<(PathBuf, String)> {
    let required = std::env::var("WARDEN_REQUIRE_BROWSER").is_ok_and(|v| v == "1");
    let missing = match (cdp::chromium(), axe()) {
        (Some(chromium), Some(axe)) => {
            let script =
                std::fs::read_to_string(&axe).unwrap_or_else(|e| panic!("{}: {e}", axe.display()));
            return Some((chromium, script));
        }
        (None, _) => "chromium is not installed (Debian's package `chromium`)",
        (_, None) => {
            "axe-core is not installed (`npm install --prefix ~/.cache/warden-axe axe-core`, or WARDEN_AXE)"
        }
    };
    assert!(!required, "WARDEN_REQUIRE_BROWSER=1, but {missing}");
    eprintln!("skipped: {missing}");
    None
}

/// Runs axe-core on the page as it stands: every finding, and a failure for any serious or
/// critical one.
fn audit(browser: &mut Browser, axe: &str, screen: &str) -> Vec<Value> {
    let loaded = browser
        .eval("typeof axe !== 'undefined'")
        .unwrap_or_default();
    if loaded != json!(true) {
        browser
            .eval(&format!("{axe}\n;true"))
            .unwrap_or_else(|e| panic!("loading axe-core: {e}"));
        // The audit can fail: an input without a label, put in for a moment, is found.
        let probe = browser
            .eval(
                "(() => { const i = document.createElement('input'); i.id = 'axe-probe'; document.body.append(i);
                   return axe.run('#axe-probe', {runOnly: ['label']}).then(r => { i.remove(); return r.violations.map(v => v.id); }); })()",
            )
            .unwrap_or_else(|e| panic!("axe's probe: {e}"));
        assert_eq!(probe, json!(["label"]), "axe finds an unlabelled input");
    }
    let found = browser
        .eval(
            "axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']}})
               .then(r => r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                                                  nodes: v.nodes.map(n => n.target.join(' '))})))",
        )
        .unwrap_or_else(|e| panic!("axe on {screen}: {e}"));
    let findings = found.as_array().cloned().unwrap_or_default();
    let serious: Vec<&Value> = findings
        .iter()
        .filter(|f| matches!(f["impact"].as_str(), Some("serious" | "critical")))
        .collect();
    assert!(serious.is_empty(), "axe on {screen}: {serious:#?}");
    eprintln!(
        "axe on {screen}: {} findings, none serious: {findings:?}",
        findings.len()
    );
    findings
}

/// Goes to a screen by its link in the page's navigation, from the keyboard: focus the
/// link, press Enter.
fn go(browser: &mut Browser, screen: &str) {
    browser
        .eval(&format!("document.getElementById('nav-{screen}').focus()"))
        .unwrap_or_else(|e| panic!("{e}"));
    browser.press("Enter").unwrap_or_else(|e| panic!("{e}"));
    browser.wait_for(
        &format!("the {screen} screen"),
        &format!("!document.getElementById('screen-{screen}').hidden && document.activeElement.id === 'title-{screen}'"),
    );
}

fn text_of(browser: &mut Browser, selector: &str) -> String {
    browser
        .eval(&format!(
            "(document.querySelector({selector:?}) || {{innerText: ''}}).innerText"
        ))
        .unwrap_or_else(|e| panic!("{e}"))
        .as_str()
        .unwrap_or_default()
        .to_string()
}

fn preferences(serve: &Serve) -> Value {
    let (status, preferences) = call(serve, "GET", "/v1/preferences", None, None);
    assert_eq!(status, 200, "{preferences}");
    preferences
}

fn shot(browser: &mut Browser, name: &str) -> PathBuf {
    let path = output().join(name);
    browser
        .screenshot(&path)
        .unwrap_or_else(|e| panic!("screenshot {name}: {e}"));
    eprintln!("screenshot: {}", path.display());
    path
}

#[test]
fn the_person_answers_and_keeps_their_settings_in_the_page() {
    let Some((program, axe)) = needs() else {
        return;
    };
    eprintln!("browser: {}", cdp::version(&program));
    let place = Place::new();
    let serve = place.serve();
    chat_that_read(&serve, &place, "c1");
    let mut browser = Browser::launch(&program).unwrap_or_else(|e| panic!("{e}"));

    // Signed in through the one-time link: the session is a cookie no script can read.
    let link = link(&place, &serve);
    browser.navigate(&link).unwrap_or_else(|e| panic!("{e}"));
    browser.wait_for(
        "the page, signed in and live",
        "location.pathname === '/page/' && document.getElementById('live').textContent.startsWith('Live')",
    );
    let cookies = browser
        .cookies(&serve.url())
        .unwrap_or_else(|e| panic!("{e}"));
    let session = cookies
        .iter()
        .find(|c| c["name"] == "warden_session")
        .unwrap_or_else(|| panic!("no session cookie: {cookies:?}"));
    assert_eq!(session["httpOnly"], true, "{session}");
    assert_eq!(session["sameSite"], "Strict", "{session}");
    assert_eq!(
        browser.eval("document.cookie").unwrap_or_default(),
        json!(""),
        "no script reads the session"
    );
    assert!(text_of(&mut browser, "#questions-empty").contains("No question"));

    // The agent's push asks; the card arrives live, with everything the person needs.
    let question = push(&serve, &place, "c1", "toolu_1", "feature/login");
    browser.wait_for(
        "the question's card",
        "document.querySelectorAll('#questions article').length === 1",
    );
    let card = text_of(&mut browser, "#questions article");
    for needed in [
        "Push feature/login to origin, after this chat read a web page.",
        "a web page — from https://example.com/issue/7",
        "git push origin feature/login",
        "Allow once",
        "Always allow in this chat",
        "Always allow this one command: git push origin feature/*",
        "Deny",
    ] {
        assert!(card.contains(needed), "{needed:?} on the card: {card}");
    }
    assert_eq!(
        browser
            .eval("[...document.querySelectorAll('#questions button')].map(b => b.dataset.answer)")
            .unwrap_or_default(),
        json!(["once", "always", "command", "deny"]),
        "the card offers exactly what the question offers"
    );
    assert_eq!(text_of(&mut browser, "#question-count"), "1");
    assert_eq!(
        browser
            .eval("document.querySelector('#questions article').dataset.question")
            .unwrap_or_default(),
        json!(question.to_string())
    );
    shot(&mut browser, "questions.png");
    audit(&mut browser, &axe, "Questions");

    // Answered from the keyboard: Tab from "Allow once" to "this one command", then Enter.
    browser
        .eval("document.querySelector('#questions button[data-answer=once]').focus()")
        .unwrap_or_else(|e| panic!("{e}"));
    let mut tabs = 0;
    while browser
        .eval("document.activeElement.dataset.answer")
        .unwrap_or_default()
        != json!("command")
    {
        browser.press("Tab").unwrap_or_else(|e| panic!("{e}"));
        tabs += 1;
        assert!(tabs < 5, "Tab never reached the command's button");
    }
    browser.press("Enter").unwrap_or_else(|e| panic!("{e}"));
    browser.wait_for(
        "the card to go",
        "document.querySelectorAll('#questions article').length === 0",
    );
    let state = chat(&serve, "c1");
    assert_eq!(state["pending"], json!([]), "{state}");
    let kept = preferences(&serve);
    assert_eq!(
        kept["auto_rules"],
        json!([{"rule": "git push origin feature/*", "tool": "Bash", "cwd": place.work()}]),
        "{kept}"
    );

    // Settings → Safety lists the rule, word for word, with its ×.
    go(&mut browser, "safety");
    browser.wait_for(
        "the rule in Settings → Safety",
        "document.getElementById('rules').innerText.includes('git push origin feature/*')",
    );
    let protected = text_of(&mut browser, "#protected");
    assert!(
        protected.contains(&place.data().display().to_string()),
        "the data folder is listed as protected: {protected}"
    );
    shot(&mut browser, "safety.png");
    audit(&mut browser, &axe, "Settings → Safety");

    // At 200%, the screen still fits its window: nothing to scroll sideways.
    browser.zoom(2.0).unwrap_or_else(|e| panic!("{e}"));
    browser.wait_for("the zoomed layout", "window.innerWidth <= 640");
    let overflow = browser
        .eval("document.documentElement.scrollWidth - window.innerWidth")
        .unwrap_or_default();
    assert!(
        overflow.as_f64().unwrap_or(1.0) <= 0.0,
        "at 200% the page scrolls sideways by {overflow} px"
    );
    shot(&mut browser, "safety-200.png");
    browser.zoom(1.0).unwrap_or_else(|e| panic!("{e}"));

    // Forgotten with its ×.
    browser
        .eval("document.querySelector('#rules button.remove').click()")
        .unwrap_or_else(|e| panic!("{e}"));
    browser.wait_for(
        "the rule to go",
        "!document.getElementById('rules-empty').hidden",
    );
    assert_eq!(preferences(&serve)["auto_rules"], json!([]));

    // The note, saved as it is typed, says so in words.
    let note = "I work on acme/app; main is protected. Staging is ours to break.";
    browser
        .eval("document.getElementById('note').focus()")
        .unwrap_or_else(|e| panic!("{e}"));
    browser.type_text(note).unwrap_or_else(|e| panic!("{e}"));
    browser.wait_for(
        "the note to be saved",
        "document.getElementById('note-state').textContent === 'Saved'",
    );
    assert_eq!(preferences(&serve)["note"], note);
    assert!(text_of(&mut browser, "#note-count").starts_with(&format!("{} of 2,000", note.len())));

    // The page's own requests, without the session or with a wrong CSRF value, change nothing.
    let refused = browser
        .eval(
            "Promise.all([
               fetch('/v1/preferences/note', {method: 'PUT', credentials: 'omit',
                 headers: {'Content-Type': 'application/json', 'X-Warden-CSRF': document.querySelector('meta[name=warden-csrf]').content},
                 body: JSON.stringify({note: 'from nowhere'})}).then(r => r.status),
               fetch('/v1/preferences/note', {method: 'PUT',
                 headers: {'Content-Type': 'application/json', 'X-Warden-CSRF': 'wrong'},
                 body: JSON.stringify({note: 'from nowhere'})}).then(r => r.status),
               fetch('/v1/preferences/note', {method: 'PUT',
                 headers: {'Content-Type': 'application/json'},
                 body: JSON.stringify({note: 'from nowhere'})}).then(r => r.status)])",
        )
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(refused, json!([401, 403, 403]));
    assert_eq!(preferences(&serve)["note"], note, "nothing changed");

    // Chats: the chat with its mode, company, what it read and where from.
    go(&mut browser, "chats");
    browser.wait_for(
        "the chat's card",
        "document.querySelectorAll('#chats article').length === 1",
    );
    let card = text_of(&mut browser, "#chats article");
    for needed in [
        "Chat c1",
        "Auto",
        "you alone",
        "a web page — from https://example.com/issue/7",
    ] {
        assert!(
            card.contains(needed),
            "{needed:?} on the chat's card: {card}"
        );
    }
    shot(&mut browser, "chats.png");
    audit(&mut browser, &axe, "Chats");

    // Import: the preview names every grant, and nothing takes effect before the person says.
    let file = output().join("settings-to-import.json");
    let settings = json!({
        "warden": "settings", "version": 1,
        "auto_allowed": [{"tool": "Bash", "class": "git.push"}],
        "auto_rules": [{"rule": "git push origin release/*", "tool": "Bash", "cwd": place.work()},
                       {"rule": "bash -c anything", "tool": "Bash", "cwd": null}],
        "settings": {"Gmail:send": "allow"},
        "note": "Production is app.acme.example and its database; everything else is scratch."
    });
    std::fs::write(&file, settings.to_string()).unwrap_or_else(|e| panic!("{e}"));
    go(&mut browser, "import");
    browser
        .set_file("#import-file", &file)
        .unwrap_or_else(|e| panic!("{e}"));
    browser.wait_for(
        "the import's preview",
        "!document.getElementById('preview').hidden",
    );
    let preview = text_of(&mut browser, "#preview");
    for needed in [
        "It would allow in every chat",
        "git.push for Bash",
        "git push origin release/*",
        "Gmail:send from the default to Allow",
        "Production is app.acme.example and its database; everything else is scratch.",
        "warden would not keep these",
        "bash -c anything",
    ] {
        assert!(
            preview.contains(needed),
            "{needed:?} in the preview: {preview}"
        );
    }
    let untouched = preferences(&serve);
    assert_eq!(
        untouched["auto_allowed"],
        json!([]),
        "nothing took effect: {untouched}"
    );
    assert_eq!(untouched["note"], note, "nothing took effect: {untouched}");
    shot(&mut browser, "import.png");
    audit(&mut browser, &axe, "Import and export");
    browser
        .eval("document.getElementById('import-apply').click()")
        .unwrap_or_else(|e| panic!("{e}"));
    browser.wait_for(
        "the import",
        "document.getElementById('import-state').textContent.startsWith('Imported')",
    );
    let imported = preferences(&serve);
    assert_eq!(
        imported["auto_allowed"],
        json!([{"tool": "Bash", "class": "git.push"}])
    );
    assert_eq!(imported["settings"], json!({"Gmail:send": "allow"}));
    assert_eq!(
        imported["auto_rules"],
        json!([{"rule": "git push origin release/*", "tool": "Bash", "cwd": place.work()}]),
        "the broad rule was refused: {imported}"
    );
    assert_eq!(
        imported["note"],
        "Production is app.acme.example and its database; everything else is scratch."
    );
    // The Safety screen shows what came in, live from the stream.
    go(&mut browser, "safety");
    browser.wait_for(
        "the imported settings on Safety",
        "document.getElementById('everywhere').innerText.includes('git.push') && document.getElementById('tools').innerText.includes('Gmail:send')",
    );
    browser.wait_for(
        "the imported note in its field",
        "document.getElementById('note').value.startsWith('Production')",
    );
    shot(&mut browser, "safety-imported.png");
    audit(&mut browser, &axe, "Settings → Safety, with settings");
}
