//! The page's sign-in and session: `warden page` prints a link that works once; the session
//! cookie is HttpOnly, SameSite=Strict and bound to the address it was signed in on; a change
//! the session carries without its CSRF value, with another, or from another origin changes
//! nothing, and neither does one without the session; the session opens only the page's
//! routes.

use super::{chat_that_read, push};
use crate::common::{Place, Serve, call};
use serde_json::{Value, json};
use std::process::{Command, Stdio};
use std::time::Duration;

/// A request's headers, by name and value.
type Headers<'a> = Vec<(&'a str, &'a str)>;

/// What one request answered: its status, its headers and its body.
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub text: String,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// One request with exactly these headers, redirects not followed.
pub fn send(
    serve: &Serve,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&Value>,
) -> Answer {
    let agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .max_redirects(0)
        .max_idle_connections(0)
        .timeout_global(Some(Duration::from_secs(10)))
        .build()
        .new_agent();
    let mut request = ureq::http::Request::builder()
        .method(method)
        .uri(format!("{}{path}", serve.url()));
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = match body {
        Some(body) => agent.run(
            request
                .header("Content-Type", "application/json")
                .body(body.to_string())
                .unwrap_or_else(|e| panic!("{e}")),
        ),
        None => agent.run(request.body(()).unwrap_or_else(|e| panic!("{e}"))),
    };
    let mut response = response.unwrap_or_else(|e| panic!("{method} {path}: {e}"));
    let status = response.status().as_u16();
    let headers = response
        .headers()
        .iter()
        .map(|(n, v)| (n.to_string(), v.to_str().unwrap_or_default().to_string()))
        .collect();
    let text = response.body_mut().read_to_string().unwrap_or_default();
    Answer {
        status,
        headers,
        text,
    }
}

/// `warden page --no-open`, the real binary, against `serve`: the link it printed.
pub fn link(place: &Place, serve: &Serve) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_warden"))
        .args(["page", "--no-open", "--url", &serve.url(), "--data"])
        .arg(place.data())
        .env("HOME", place.home())
        .env_remove("WARDEN_CONFIG")
        .env_remove("WARDEN_URL")
        .env_remove("XDG_CONFIG_HOME")
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("warden page: {e}"));
    let stdout = String::from_utf8_lossy(&output.stdout).to_string();
    assert!(output.status.success(), "warden page: {output:?}");
    let link = stdout.lines().next().unwrap_or_default().to_string();
    assert!(
        link.starts_with(&format!("{}/page/sign-in?code=", serve.url())),
        "{stdout}"
    );
    link
}

/// Signs in through a link: the session cookie (`name=value`) and the page's CSRF value.
pub fn sign_in(place: &Place, serve: &Serve) -> (String, String) {
    let link = link(place, serve);
    let path = link.trim_start_matches(&serve.url()).to_string();
    let signed = send(serve, "GET", &path, &[], None);
    assert_eq!(signed.status, 303, "{}", signed.text);
    assert_eq!(signed.header("location"), Some("/page/"));
    let set = signed
        .header("set-cookie")
        .unwrap_or_else(|| panic!("no cookie"))
        .to_string();
    let cookie = set.split(';').next().unwrap_or_default().to_string();
    let page = send(serve, "GET", "/page/", &[("Cookie", &cookie)], None);
    assert_eq!(page.status, 200);
    let csrf = page
        .text
        .split("name=\"warden-csrf\" content=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap_or_else(|| panic!("no CSRF value in the page: {}", page.text))
        .to_string();
    assert_eq!(csrf.len(), 64, "{csrf}");
    (cookie, csrf)
}

/// Whether HTML holds an attribute like ` onclick=`.
fn has_inline_handler(html: &str) -> bool {
    html.match_indices(" on").any(|(at, _)| {
        let rest = &html[at + 3..];
        let name: String = rest.chars().take_while(char::is_ascii_lowercase).collect();
        !name.is_empty() && rest[name.len()..].starts_with('=')
    })
}

fn note(serve: &Serve) -> Value {
    call(serve, "GET", "/v1/preferences", None, None).1["note"].clone()
}

#[test]
fn a_link_signs_in_once_into_a_cookie_no_script_can_read() {
    let place = Place::new();
    let serve = place.serve();
    // Only the person's token asks for a link.
    let refused = send(&serve, "POST", "/v1/page/links", &[], None);
    assert_eq!(refused.status, 401, "{}", refused.text);

    let first = link(&place, &serve);
    let path = first.trim_start_matches(&serve.url()).to_string();
    let signed = send(&serve, "GET", &path, &[], None);
    assert_eq!(signed.status, 303, "{}", signed.text);
    let set = signed.header("set-cookie").unwrap_or_default().to_string();
    for flag in ["warden_session=", "HttpOnly", "SameSite=Strict", "Path=/"] {
        assert!(set.contains(flag), "{flag} in {set}");
    }
    assert!(!set.contains("Domain"), "host-only: {set}");
    assert_eq!(signed.header("referrer-policy"), Some("no-referrer"));

    // Once only, and never a guessed one.
    let again = send(&serve, "GET", &path, &[], None);
    assert_eq!(again.status, 403);
    assert!(again.text.contains("used already"), "{}", again.text);
    assert!(again.header("set-cookie").is_none());
    let guessed = send(
        &serve,
        "GET",
        &format!("/page/sign-in?code={}", "0".repeat(64)),
        &[],
        None,
    );
    assert_eq!(guessed.status, 403);

    // A link made for 127.0.0.1 doesn't sign in under another name for the machine.
    let other = link(&place, &serve);
    let path = other.trim_start_matches(&serve.url()).to_string();
    let port = serve.port();
    let elsewhere = send(
        &serve,
        "GET",
        &path,
        &[("Host", &format!("localhost:{port}"))],
        None,
    );
    assert_eq!(elsewhere.status, 403, "{}", elsewhere.text);

    // The page answers with its guard on: its own script only, never framed.
    let cookie = set.split(';').next().unwrap_or_default().to_string();
    let page = send(&serve, "GET", "/page/", &[("Cookie", &cookie)], None);
    assert_eq!(page.status, 200);
    let csp = page.header("content-security-policy").unwrap_or_default();
    assert!(
        csp.contains("script-src 'self'") && csp.contains("frame-ancestors 'none'"),
        "{csp}"
    );
    assert!(
        !has_inline_handler(&page.text),
        "no inline event handler in the page"
    );
    assert_eq!(
        page.text.matches("<script").count(),
        page.text.matches("<script src=").count(),
        "no inline script"
    );
    // Under another Host, the same cookie is no session.
    let port_host = format!("localhost:{port}");
    let moved = send(
        &serve,
        "GET",
        "/page/",
        &[("Cookie", &cookie), ("Host", &port_host)],
        None,
    );
    assert!(moved.text.contains("Sign in to warden"), "{}", moved.text);
    // Without a session, the page says how to sign in, and holds no CSRF value.
    let out = send(&serve, "GET", "/page/", &[], None);
    assert_eq!(out.status, 200);
    assert!(out.text.contains("warden page"), "{}", out.text);
    assert!(!out.text.contains("warden-csrf"));
}

#[test]
fn a_change_without_the_session_or_its_csrf_value_changes_nothing() {
    let place = Place::new();
    let serve = place.serve();
    chat_that_read(&serve, &place, "c1");
    let question = push(&serve, &place, "c1", "toolu_1", "feature/login");
    let (cookie, csrf) = sign_in(&place, &serve);
    let own = serve.url();
    let answer_path = format!("/v1/chats/c1/questions/{question}");
    let wrong = "ab".repeat(32);
    let body = json!({"note": "anything goes"});
    let refusals: [(&str, Headers, u16); 6] = [
        ("no session", vec![], 401),
        (
            "no session, the right CSRF value",
            vec![("X-Warden-CSRF", &csrf)],
            401,
        ),
        ("the session, no CSRF value", vec![("Cookie", &cookie)], 403),
        (
            "the session, a wrong CSRF value",
            vec![("Cookie", &cookie), ("X-Warden-CSRF", &wrong)],
            403,
        ),
        (
            "the session from another origin",
            vec![
                ("Cookie", &cookie),
                ("X-Warden-CSRF", &csrf),
                ("Origin", "http://evil.example"),
            ],
            403,
        ),
        (
            "a session that isn't one",
            vec![("Cookie", "warden_session=0000"), ("X-Warden-CSRF", &csrf)],
            401,
        ),
    ];
    for (case, headers, status) in &refusals {
        let refused = send(&serve, "PUT", "/v1/preferences/note", headers, Some(&body));
        assert_eq!(refused.status, *status, "{case}: {}", refused.text);
        assert_eq!(note(&serve), "", "{case}: the note is unchanged");
        let refused = send(
            &serve,
            "POST",
            &answer_path,
            headers,
            Some(&json!({"answer": "command"})),
        );
        assert_eq!(refused.status, *status, "{case}: {}", refused.text);
        let state = crate::common::chat(&serve, "c1");
        assert_eq!(
            state["pending"].as_array().map(Vec::len),
            Some(1),
            "{case}: the question still waits: {state}"
        );
        let rules = call(&serve, "GET", "/v1/preferences", None, None).1["auto_rules"].clone();
        assert_eq!(rules, json!([]), "{case}: no rule was kept");
    }

    // The page's session opens only the page's routes: the person's words still need the token.
    let session = [
        ("Cookie", cookie.as_str()),
        ("X-Warden-CSRF", csrf.as_str()),
        ("Origin", own.as_str()),
    ];
    let said = send(
        &serve,
        "POST",
        "/v1/chats/c1/events",
        &session,
        Some(&json!({"kind": "said", "text": "push it"})),
    );
    assert_eq!(said.status, 401, "{}", said.text);

    // With both, the change is made.
    let saved = send(&serve, "PUT", "/v1/preferences/note", &session, Some(&body));
    assert_eq!(saved.status, 200, "{}", saved.text);
    assert_eq!(note(&serve), "anything goes");
    let answered = send(
        &serve,
        "POST",
        &answer_path,
        &session,
        Some(&json!({"answer": "command"})),
    );
    assert_eq!(answered.status, 200, "{}", answered.text);

    // Signed out, the cookie is nothing.
    let out = send(&serve, "POST", "/page/sign-out", &session, None);
    assert_eq!(out.status, 200, "{}", out.text);
    let after = send(
        &serve,
        "PUT",
        "/v1/preferences/note",
        &session,
        Some(&json!({"note": "x"})),
    );
    assert_eq!(after.status, 401, "{}", after.text);
    assert_eq!(note(&serve), "anything goes");
}
