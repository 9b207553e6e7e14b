//! The person's page, served by `warden serve` on loopback: its sign-in, its session and its
//! guard against requests made in its name (`docs/threat-model.md`, "The page").
//!
//! - **Sign-in without the token in the browser.** `warden page` asks the daemon, with the
//!   token, for a one-time link (`POST /v1/page/links`); opening it (`GET /page/sign-in`)
//!   spends it, sets the session cookie and sends the browser on to the page. A link works
//!   once and for [`LINK_FOR`]; a used, expired or unknown one is refused.
//! - **The session** is a cookie, `warden_session`: `HttpOnly` (no script reads it),
//!   `SameSite=Strict` (no other site's page sends it), host-only and for the loopback
//!   authority it was signed in on (the session is refused under any other `Host`), for
//!   [`SESSION_FOR`]. Only the few routes the page uses take it ([`Caller`]); every other
//!   route that needs the person still needs the token.
//! - **Every change carries a CSRF value**, random per session, which the page reads from
//!   its own HTML and sends as `X-Warden-CSRF`; a change without it, or with another, is
//!   refused before its body is read, and so is one whose `Origin` or `Sec-Fetch-Site` says
//!   another site made it.
//! - **Served only on loopback**: with `allow_remote = true` the page and its sign-in are
//!   refused, since a cookie on a network address is a cookie for the network.
//!
//! The page itself is plain HTML, CSS and a little JavaScript compiled into the binary
//! (`page/`), under a Content-Security-Policy that runs no inline script and loads nothing
//! from elsewhere. Sessions and links live in memory: a restart signs the page out.

use super::App;
use super::routes::ApiError;
use axum::extract::{FromRequestParts, RawQuery, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// How long a sign-in link works.
pub const LINK_FOR: Duration = Duration::from_secs(120);

/// How long a session lasts after its sign-in.
pub const SESSION_FOR: Duration = Duration::from_secs(12 * 60 * 60);

/// The most sign-in links waiting at once; a new one pushes out the oldest.
const LINKS_MAX: usize = 8;

/// The most sessions at once; a new one pushes out the oldest.
const SESSIONS_MAX: usize = 16;

/// The session cookie's name.
pub const COOKIE: &str = "warden_session";

/// The header every change from the page carries its CSRF value in.
pub const CSRF_HEADER: &str = "x-warden-csrf";

/// What the page's HTML and scripts may do: its own script and style, its own routes, and
/// nothing inline, framed or from elsewhere.
pub const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'";

const INDEX: &str = include_str!("page/index.html");
const SIGNED_OUT: &str = include_str!("page/signed-out.html");
const SCRIPT: &str = include_str!("page/app.js");
const STYLE: &str = include_str!("page/style.css");

/// 32 random bytes as 64 hex characters: a link's code, a session's id, a CSRF value.
fn random() -> Result<String, ApiError> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("the OS gave no randomness for the page's sign-in: {e}"),
        )
    })?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// Compares two secrets in time that depends only on their lengths.
fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let diff = a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y));
    std::hint::black_box(diff) == 0
}

struct Link {
    code: String,
    /// The authority it was made for: the session it opens holds for that one only.
    host: String,
    until: Instant,
}

struct Session {
    id: String,
    csrf: String,
    host: String,
    until: Instant,
}

/// The page's links and sessions, in memory.
pub struct Page {
    /// Whether warden answers beyond loopback: then the page is not served.
    remote: bool,
    links: Mutex<Vec<Link>>,
    sessions: Mutex<Vec<Session>>,
}

/// A session a request carries, found and in force.
struct Found {
    csrf: String,
}

impl Page {
    pub fn new(allow_remote: bool) -> Page {
        Page {
            remote: allow_remote,
            links: Mutex::new(Vec::new()),
            sessions: Mutex::new(Vec::new()),
        }
    }

    /// A new one-time sign-in code for the authority `host`.
    fn link(&self, host: &str) -> Result<String, ApiError> {
        let code = random()?;
        let mut links = self.links.lock().unwrap_or_else(PoisonError::into_inner);
        let now = Instant::now();
        links.retain(|link| link.until > now);
        if links.len() >= LINKS_MAX {
            links.remove(0);
        }
        links.push(Link {
            code: code.clone(),
            host: host.to_string(),
            until: now + LINK_FOR,
        });
        Ok(code)
    }

    /// Spends a sign-in code: a new session's id, if the code was waiting, in time, for this
    /// authority. Spent whatever the outcome of its host check, so it never works twice.
    fn sign_in(&self, code: &str, host: &str) -> Result<Option<String>, ApiError> {
        let found = {
            let mut links = self.links.lock().unwrap_or_else(PoisonError::into_inner);
            let now = Instant::now();
            // Every waiting code is compared, so the time says nothing about which matched.
            let at = links.iter().enumerate().fold(None, |at, (i, link)| {
                if same(&link.code, code) { Some(i) } else { at }
            });
            // INVARIANT: a sign-in link works once: it is taken out before it is used.
            at.map(|i| links.remove(i))
                .filter(|link| link.until > now && link.host.eq_ignore_ascii_case(host))
        };
        let Some(link) = found else {
            return Ok(None);
        };
        let id = random()?;
        let csrf = random()?;
        let mut sessions = self.sessions.lock().unwrap_or_else(PoisonError::into_inner);
        let now = Instant::now();
        sessions.retain(|s| s.until > now);
        if sessions.len() >= SESSIONS_MAX {
            sessions.remove(0);
        }
        sessions.push(Session {
            id: id.clone(),
            csrf,
            host: link.host,
            until: now + SESSION_FOR,
        });
        Ok(Some(id))
    }

    /// The session named by the request's cookie, if it is in force for its `Host`.
    fn session(&self, headers: &HeaderMap) -> Option<Found> {
        let id = cookie(headers)?;
        let host = host(headers)?;
        let sessions = self.sessions.lock().unwrap_or_else(PoisonError::into_inner);
        let now = Instant::now();
        let mut found = None;
        for session in sessions.iter() {
            if same(&session.id, &id)
                && session.until > now
                && session.host.eq_ignore_ascii_case(&host)
            {
                found = Some(Found {
                    csrf: session.csrf.clone(),
                });
            }
        }
        found
    }

    /// Ends the session the request carries.
    fn sign_out(&self, headers: &HeaderMap) {
        if let Some(id) = cookie(headers) {
            self.sessions
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .retain(|s| !same(&s.id, &id));
        }
    }

    /// Refuses the page's routes when warden answers beyond loopback.
    fn served(&self) -> Result<(), ApiError> {
        if self.remote {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "the page is served only while warden answers on loopback alone (`allow_remote` is true in the configuration)",
            ));
        }
        Ok(())
    }
}

/// The session id in the request's `Cookie` header, if there is one.
fn cookie(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == COOKIE)
        .map(|(_, value)| value.trim().to_string())
}

/// The request's `Host` (the guard made sure there is exactly one).
fn host(headers: &HeaderMap) -> Option<String> {
    headers
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string)
}

/// Who a request to one of the page's routes comes from: the person's token, or the page's
/// session (with its CSRF value on a change). Checked before the body is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Caller {
    /// `Authorization: Bearer <token>`.
    Token,
    /// The page, signed in.
    Page,
}

impl FromRequestParts<Arc<App>> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &Arc<App>) -> Result<Caller, ApiError> {
        if parts.headers.contains_key(header::AUTHORIZATION) {
            return super::routes::person(app, &parts.headers).map(|()| Caller::Token);
        }
        let Some(found) = (!app.page.remote)
            .then(|| app.page.session(&parts.headers))
            .flatten()
        else {
            return Err(ApiError::new(
                StatusCode::UNAUTHORIZED,
                if cookie(&parts.headers).is_some() {
                    "the page's session is unknown or over: sign in again with `warden page`"
                } else {
                    "this route carries the person's own words or settings: send `Authorization: Bearer <token>` with the token in warden's data folder, or sign in to the page with `warden page`"
                },
            ));
        };
        if !matches!(parts.method, Method::GET | Method::HEAD) {
            guard_change(&parts.headers, &found.csrf)?;
        }
        Ok(Caller::Page)
    }
}

/// Refuses a change the page's session carries unless it also carries the session's CSRF
/// value, and no header says another site made it.
fn guard_change(headers: &HeaderMap, csrf: &str) -> Result<(), ApiError> {
    let forbidden = |why: &str| Err(ApiError::new(StatusCode::FORBIDDEN, why.to_string()));
    // INVARIANT: every change made with the page's session carries its CSRF value.
    let given = headers.get(CSRF_HEADER).and_then(|v| v.to_str().ok());
    match given {
        Some(given) if same(given, csrf) => {}
        Some(_) => return forbidden("the page's CSRF value is wrong: reload the page"),
        None => {
            return forbidden(
                "a change from the page needs its CSRF value (`X-Warden-CSRF`): reload the page",
            );
        }
    }
    if let Some(site) = headers.get("sec-fetch-site").and_then(|v| v.to_str().ok())
        && !matches!(site, "same-origin" | "none")
    {
        return forbidden("a change from another site is refused (`Sec-Fetch-Site`)");
    }
    if let Some(origin) = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok()) {
        let own = host(headers).map(|host| format!("http://{host}"));
        if own
            .as_deref()
            .is_none_or(|own| !origin.eq_ignore_ascii_case(own))
        {
            return forbidden("a change from another origin is refused (`Origin`)");
        }
    }
    Ok(())
}

/// The headers every answer of the page carries.
fn guarded(mut response: Response, content_type: &'static str) -> Response {
    let headers = response.headers_mut();
    for (name, value) in [
        (header::CONTENT_TYPE, content_type),
        (header::CONTENT_SECURITY_POLICY, CSP),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::X_FRAME_OPTIONS, "DENY"),
        (header::REFERRER_POLICY, "no-referrer"),
        (header::CACHE_CONTROL, "no-store"),
    ] {
        headers.insert(name, HeaderValue::from_static(value));
    }
    response
}

/// `POST /v1/page/links` (the token): a one-time sign-in link for the authority the request
/// was sent to.
pub async fn new_link(
    State(app): State<Arc<App>>,
    _: super::routes::Person,
    headers: HeaderMap,
) -> Result<axum::Json<serde_json::Value>, ApiError> {
    app.page.served()?;
    let host = host(&headers).unwrap_or_default();
    let code = app.page.link(&host)?;
    Ok(axum::Json(serde_json::json!({
        "link": format!("http://{host}/page/sign-in?code={code}"),
        "expires_in_s": LINK_FOR.as_secs(),
    })))
}

/// `GET /page/sign-in?code=…`: spends the link, sets the session cookie and goes on to the
/// page; a link used, over or unknown is refused with what to do.
pub async fn sign_in(
    State(app): State<Arc<App>>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    app.page.served()?;
    let code = query
        .as_deref()
        .into_iter()
        .flat_map(|q| q.split('&'))
        .find_map(|pair| pair.strip_prefix("code="))
        .unwrap_or_default();
    let host = host(&headers).unwrap_or_default();
    let Some(id) = app.page.sign_in(code, &host)? else {
        let page = SIGNED_OUT.replace(
            "{why}",
            "This sign-in link was used already, is over, or was made for another address.",
        );
        return Ok(guarded(
            (StatusCode::FORBIDDEN, page).into_response(),
            "text/html; charset=utf-8",
        ));
    };
    let cookie = format!(
        "{COOKIE}={id}; Path=/; HttpOnly; SameSite=Strict; Max-Age={}",
        SESSION_FOR.as_secs()
    );
    let mut response = guarded(
        (StatusCode::SEE_OTHER, "").into_response(),
        "text/plain; charset=utf-8",
    );
    let headers = response.headers_mut();
    headers.insert(header::LOCATION, HeaderValue::from_static("/page/"));
    headers.insert(
        header::SET_COOKIE,
        HeaderValue::from_str(&cookie).map_err(|_| {
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "the session cookie is not a header",
            )
        })?,
    );
    Ok(response)
}

/// `POST /page/sign-out` (the page's session, with its CSRF value): ends the session.
pub async fn sign_out(
    State(app): State<Arc<App>>,
    caller: Caller,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    if caller == Caller::Page {
        app.page.sign_out(&headers);
    }
    let mut response = axum::Json(serde_json::json!({"ok": true})).into_response();
    response.headers_mut().insert(
        header::SET_COOKIE,
        HeaderValue::from_static("warden_session=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0"),
    );
    Ok(response)
}

/// `GET /page/`: the page, with the session's CSRF value in it; without a session, how to
/// sign in.
pub async fn index(State(app): State<Arc<App>>, headers: HeaderMap) -> Result<Response, ApiError> {
    app.page.served()?;
    let page = match app.page.session(&headers) {
        Some(found) => INDEX.replace("{csrf}", &found.csrf),
        None => SIGNED_OUT.replace("{why}", "The page needs you to sign in."),
    };
    Ok(guarded(page.into_response(), "text/html; charset=utf-8"))
}

/// `GET /page/app.js`.
pub async fn script(State(app): State<Arc<App>>) -> Result<Response, ApiError> {
    app.page.served()?;
    Ok(guarded(
        SCRIPT.into_response(),
        "text/javascript; charset=utf-8",
    ))
}

/// `GET /page/style.css`.
pub async fn style(State(app): State<Arc<App>>) -> Result<Response, ApiError> {
    app.page.served()?;
    Ok(guarded(STYLE.into_response(), "text/css; charset=utf-8"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for (name, value) in pairs {
            headers.append(
                *name,
                HeaderValue::from_str(value).unwrap_or_else(|e| panic!("{e}")),
            );
        }
        headers
    }

    #[test]
    fn a_link_signs_in_once_for_its_own_address() -> Result<(), ApiError> {
        let page = Page::new(false);
        let code = page.link("127.0.0.1:7411")?;
        assert_eq!(code.len(), 64);
        assert_eq!(
            page.sign_in("0".repeat(64).as_str(), "127.0.0.1:7411")?,
            None
        );
        let Some(id) = page.sign_in(&code, "127.0.0.1:7411")? else {
            panic!("a fresh link signs in")
        };
        assert_eq!(page.sign_in(&code, "127.0.0.1:7411")?, None, "once only");
        let cookie = format!("{COOKIE}={id}");
        let good = headers(&[("cookie", &cookie), ("host", "127.0.0.1:7411")]);
        assert!(page.session(&good).is_some());
        let elsewhere = headers(&[("cookie", &cookie), ("host", "localhost:7411")]);
        assert!(page.session(&elsewhere).is_none(), "bound to its authority");
        let other = page.link("127.0.0.1:7411")?;
        assert_eq!(
            page.sign_in(&other, "localhost:7411")?,
            None,
            "another address"
        );
        assert_eq!(
            page.sign_in(&other, "127.0.0.1:7411")?,
            None,
            "spent by the try"
        );
        page.sign_out(&good);
        assert!(page.session(&good).is_none(), "signed out");
        Ok(())
    }

    #[test]
    fn a_change_needs_the_csrf_value_and_its_own_origin() {
        let csrf = "ab".repeat(32);
        let host = ("host", "127.0.0.1:7411");
        for (pairs, good) in [
            (vec![host, (CSRF_HEADER, csrf.as_str())], true),
            (
                vec![
                    host,
                    (CSRF_HEADER, csrf.as_str()),
                    ("origin", "http://127.0.0.1:7411"),
                    ("sec-fetch-site", "same-origin"),
                ],
                true,
            ),
            (vec![host], false),
            (vec![host, (CSRF_HEADER, "ba".repeat(32).as_str())], false),
            (vec![host, (CSRF_HEADER, "")], false),
            (
                vec![
                    host,
                    (CSRF_HEADER, csrf.as_str()),
                    ("origin", "http://evil.example"),
                ],
                false,
            ),
            (
                vec![
                    host,
                    (CSRF_HEADER, csrf.as_str()),
                    ("sec-fetch-site", "cross-site"),
                ],
                false,
            ),
        ] {
            let shown = format!("{pairs:?}");
            assert_eq!(
                guard_change(&headers(&pairs), &csrf).is_ok(),
                good,
                "{shown}"
            );
        }
    }
}
