//! The page's settings routes over HTTP: an import grants only what its preview named, and
//! nothing once the settings changed under the preview; export writes what import reads; a
//! chat's kept answer forgotten asks again there.

use super::{chat_that_read, push};
use crate::common::{Place, call, chat, ok};
use serde_json::{Value, json};

fn preferences(serve: &crate::common::Serve) -> Value {
    call(serve, "GET", "/v1/preferences", None, None).1
}

#[test]
fn an_import_grants_what_its_preview_named_or_nothing() {
    let place = Place::new();
    let serve = place.serve();
    let token = place.token();
    let file = json!({
        "warden": "settings", "version": 1,
        "auto_allowed": [{"tool": "Bash", "class": "git.push"}],
        "settings": {"Gmail:send": "allow"},
        "note": "Production is app.acme.example."
    });
    // Without the token or the page, no preview.
    let (status, _) = call(&serve, "POST", "/v1/preferences/import", None, Some(&file));
    assert_eq!(status, 401);
    let preview = ok(
        &serve,
        "POST",
        "/v1/preferences/import",
        Some(&token),
        &file,
    );
    assert_eq!(
        preview["allowed_everywhere"],
        json!([{"tool": "Bash", "class": "git.push"}])
    );
    assert_eq!(
        preview["settings"],
        json!([{"app": "Gmail", "tool": "send", "setting": "allow", "was": null}])
    );
    assert_eq!(
        preview["note"]["first_words"],
        "Production is app.acme.example."
    );
    assert_eq!(
        preferences(&serve)["auto_allowed"],
        json!([]),
        "a preview changes nothing"
    );

    // The settings change under the preview: applying it is refused, and changes nothing.
    ok(
        &serve,
        "PUT",
        "/v1/preferences/settings",
        Some(&token),
        &json!({"app": "Gmail", "tool": "send", "setting": "off"}),
    );
    let body = json!({"file": file, "preview": preview["preview"]});
    let (status, refused) = call(
        &serve,
        "POST",
        "/v1/preferences/import/apply",
        Some(&token),
        Some(&body),
    );
    assert_eq!(status, 409, "{refused}");
    let now = preferences(&serve);
    assert_eq!(now["auto_allowed"], json!([]), "{now}");
    assert_eq!(now["settings"], json!({"Gmail:send": "off"}), "{now}");

    // Looked at again, it says what it would change from, and applies.
    let again = ok(
        &serve,
        "POST",
        "/v1/preferences/import",
        Some(&token),
        &file,
    );
    assert_eq!(again["settings"][0]["was"], "off");
    let applied = ok(
        &serve,
        "POST",
        "/v1/preferences/import/apply",
        Some(&token),
        &json!({"file": file, "preview": again["preview"]}),
    );
    assert_eq!(applied["changed"], 3);
    let now = preferences(&serve);
    assert_eq!(now["settings"], json!({"Gmail:send": "allow"}));
    assert_eq!(now["note"], "Production is app.acme.example.");

    // What export writes, import reads: over the same settings, nothing to do.
    let (status, exported) = call(&serve, "GET", "/v1/preferences/export", Some(&token), None);
    assert_eq!(status, 200, "{exported}");
    let round = ok(
        &serve,
        "POST",
        "/v1/preferences/import",
        Some(&token),
        &exported,
    );
    assert_eq!(round["empty"], true, "{round}");
    assert_eq!(round["unchanged"], 3, "{round}");

    // Not a settings file: refused by the field.
    let (status, wrong) = call(
        &serve,
        "POST",
        "/v1/preferences/import",
        Some(&token),
        Some(&json!({"warden": "settings", "version": 2})),
    );
    assert_eq!(status, 400);
    assert!(
        wrong["error"]
            .as_str()
            .unwrap_or_default()
            .contains("`version`: 2"),
        "{wrong}"
    );
}

#[test]
fn a_kept_answer_forgotten_asks_again_in_its_chat() {
    let place = Place::new();
    let serve = place.serve();
    let token = place.token();
    chat_that_read(&serve, &place, "c1");
    let question = push(&serve, &place, "c1", "toolu_1", "feature/login");
    ok(
        &serve,
        "POST",
        &format!("/v1/chats/c1/questions/{question}"),
        Some(&token),
        &json!({"answer": "always"}),
    );
    let kept = json!({"tool": "Bash", "class": "git.push"});
    assert_eq!(chat(&serve, "c1")["kept"], json!([kept]));
    let answer = ok(
        &serve,
        "POST",
        "/v1/chats/c1/judge",
        None,
        &json!({"tool_name": "Bash", "tool_input": {"command": "git push origin feature/x"}, "cwd": place.work()}),
    );
    assert_eq!(answer["decision"], "allow", "kept: {answer}");

    let (status, _) = call(&serve, "DELETE", "/v1/chats/c1/kept", None, Some(&kept));
    assert_eq!(status, 401, "only the person forgets");
    ok(&serve, "DELETE", "/v1/chats/c1/kept", Some(&token), &kept);
    assert_eq!(chat(&serve, "c1")["kept"], json!([]));
    let (status, _) = call(
        &serve,
        "DELETE",
        "/v1/chats/c1/kept",
        Some(&token),
        Some(&kept),
    );
    assert_eq!(status, 404, "forgotten already");
    // The same push asks again.
    push(&serve, &place, "c1", "toolu_2", "feature/y");
}
