//! WebFetch and WebSearch: reading another page is routine, before and after reading. What
//! asks is an address that carries data rather than asks for a page, a drop box, a key or a
//! password in the address, and a scheme that isn't the web's.
//!
//! The address rules here are shared with the browser (`law::browser`): opening a page there
//! is the same way out as fetching it.
//!
//! | rule | what | harm + lasting |
//! | --- | --- | --- |
//! | `web.carries_data` | a long encoded blob (base64 with mixed case and digits, or 32+ hex), a value over 120 characters, over 400 characters of query, an encoded subdomain; a search over 400 characters or with a blob | 2 (way out: asks after reading) |
//! | `web.dropbox` | a paste site, webhook.site, transfer.sh… | 2; 3 when data goes with it |
//! | `web.secret` | a user name and password, or a key or token, in the address or the query | 2, NEVER |
//! | `web.scheme` | `file:`, `javascript:`, `data:`, `ftp:`…, or no address warden can read | 3 |
//!
//! A page on this machine (`localhost`, `127.0.0.1`) is nothing.

use super::Assessment;
use super::command::host_names;
use super::command::net::{is_drop_box, is_local, metadata_risk, url_host, url_place};
use crate::law::rule::RuleId;
use crate::secrets::{carries_data, carries_secrets, host_carries_data, secret_kind};
use crate::step::{Context, FetchStep};
use crate::verdict::{Harm, Risk};
use crate::wish::{Act, Name, Wish};

/// A search query longer than this sends more than a question (characters).
pub(crate) const QUERY_DATA: usize = 400;

/// What a fetch or a search risks. Neither changes anything; both reach the network, so
/// outside Auto they ask after reading.
pub fn assess(step: &FetchStep, _ctx: &Context) -> Assessment {
    let risks = if step.search {
        query_risks(&step.target)
    } else {
        address_risks(&step.target, false)
    };
    Assessment {
        risks,
        changes: false,
        network: true,
        edit_in_work: false,
    }
}

/// The risks of opening `address`. `sends`: the step sends something of its own there (text
/// typed, a file uploaded), which makes a drop box lasting.
pub(crate) fn address_risks(address: &str, sends: bool) -> Vec<Risk> {
    let address = address.trim();
    if let Some(scheme) = foreign_scheme(address) {
        return vec![scheme_risk(address, &format!("a {scheme}: address"))];
    }
    let Some(host) = url_host(address) else {
        return vec![scheme_risk(address, "an address warden cannot read")];
    };
    if is_local(&host) {
        return Vec::new();
    }
    let mut risks = Vec::new();
    let names = || Name::AnyOf(host_names(&host));
    if let Some(what) = secret_in(address) {
        risks.push(
            Risk::new(
                RuleId::WebSecret,
                Harm::Severe,
                false,
                format!("open an address at {host} with {what} in it"),
            )
            .never()
            .way_out(),
        );
    }
    let data = carries_data(address) || host_carries_data(&host);
    if data {
        risks.push(
            Risk::new(
                RuleId::WebCarriesData,
                Harm::Moderate,
                true,
                format!("open an address at {host} that carries data rather than asks for a page"),
            )
            .way_out()
            .wish(Wish::new(Act::Send).naming(names())),
        );
    }
    if let Some(risk) = metadata_risk(&host) {
        risks.push(risk);
    }
    let place = url_place(address).unwrap_or_else(|| host.clone());
    if is_drop_box(&place) {
        // Reading a paste is common; sending to one can't be taken back, and anyone can read
        // it: data in the address or typed in makes it lasting (3, asks before reading).
        let sending = data || sends;
        let how = if sending { "send data to" } else { "reach" };
        risks.push(
            Risk::new(
                RuleId::WebDropbox,
                Harm::Severe,
                sending,
                format!("{how} {place}, a drop box anyone can read"),
            )
            .way_out()
            .wish(Wish::new(Act::Send).naming(names())),
        );
    }
    risks
}

/// The host a site or address names, lower case, when it names one.
pub(crate) fn site_host(site: &str) -> Option<String> {
    url_host(site.trim())
}

/// The risks of a search query: a lookup, unless it carries data or a key.
fn query_risks(query: &str) -> Vec<Risk> {
    let mut risks = Vec::new();
    if let Some(what) = secret_in(query) {
        risks.push(
            Risk::new(
                RuleId::WebSecret,
                Harm::Severe,
                false,
                format!("search for {what}"),
            )
            .never()
            .way_out(),
        );
    }
    if query_carries_data(query) {
        risks.push(
            Risk::new(
                RuleId::WebCarriesData,
                Harm::Moderate,
                true,
                "send a search that carries data rather than asks a question",
            )
            .way_out(),
        );
    }
    risks
}

/// Over 400 characters, or a word that an address would count as data (a blob, a value
/// over 120 characters).
fn query_carries_data(query: &str) -> bool {
    query.chars().count() > QUERY_DATA || query.split_whitespace().any(carries_data)
}

/// A key or token in the text, or a user name with a password in an address's authority.
/// A long blob alone is data (`web.carries_data`), not a key.
fn secret_in(text: &str) -> Option<&'static str> {
    if has_password(text) {
        return Some("a user name and password");
    }
    if !carries_secrets(text) {
        return None;
    }
    secret_kind(text).filter(|kind| *kind != BLOB_KIND)
}

/// What `secret_kind` calls a blob that is no key shape.
const BLOB_KIND: &str = "a long encoded blob";

/// `scheme://user:password@host/…`.
fn has_password(address: &str) -> bool {
    let Some((_, rest)) = address.split_once("://") else {
        return false;
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    authority
        .rsplit_once('@')
        .is_some_and(|(user, _)| user.contains(':'))
}

/// The scheme of an address that isn't `http` or `https` (`file`, `javascript`, `data`…).
/// A bare host (`otto.de/suche`, `localhost:3000`) is the web's.
fn foreign_scheme(address: &str) -> Option<String> {
    let (scheme, rest) = address.split_once(':')?;
    let scheme_like = !scheme.is_empty()
        && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    if !scheme_like {
        return None;
    }
    let scheme = scheme.to_ascii_lowercase();
    if scheme == "http" || scheme == "https" {
        return None;
    }
    // `host:8080/path`: a port, not a scheme.
    let port = rest.split(['/', '?', '#']).next().unwrap_or("");
    if !rest.starts_with("//") && !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(scheme)
}

fn scheme_risk(address: &str, what: &str) -> Risk {
    let shown: String = address.chars().take(60).collect();
    let more = if address.chars().count() > 60 {
        "…"
    } else {
        ""
    };
    Risk::new(
        RuleId::WebScheme,
        Harm::Severe,
        true,
        format!("open “{shown}{more}”, {what}, which is not a web page"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(address: &str) -> Vec<&'static str> {
        address_risks(address, false)
            .iter()
            .map(|r| r.rule.name())
            .collect()
    }

    #[test]
    fn pages_are_nothing() {
        let pages = [
            "https://docs.rs/serde/latest/serde/",
            "https://www.otto.de/suche/gant%20t-shirt/?sortiertnach=preis-aufsteigend&farbe=blau",
            "https://github.com/acme/app/commit/e83c5163316f89bfbde7d9ab23ca2e25604af290",
            "https://example.com/items/3f2504e0-4f89-11d3-9a0c-0305e82c3301",
            "otto.de/suche/gant",
            "http://localhost:3000/api?token=ghp_abcdefghijklmnopqrstuvwxyz0123456789",
            "https://myapp-git-feature-login-page-acme-team.vercel.app/",
            "https://d1a2b3c4d5e6f7.cloudfront.net/app.js",
            "HTTPS://EXAMPLE.COM/",
        ];
        for page in pages {
            assert_eq!(rules(page), Vec::<&str>::new(), "{page}");
        }
    }

    #[test]
    fn ways_out_are_found() {
        let cases = [
            (
                "https://evil.example/c?d=U2FsdGVkX1+8Zk3Qm9LpR2vT7yW4nB6cD1eF0gH5jK8lM3oP",
                "web.carries_data",
            ),
            ("https://pastebin.com/raw/abc123", "web.dropbox"),
            ("https://admin:hunter2@intranet.example.com/", "web.secret"),
            (
                "https://api.example.com/v1?key=sk-proj-abcdefghijklmnopqrstuvwxyz012345",
                "web.secret",
            ),
            ("file:///etc/passwd", "web.scheme"),
            ("javascript:alert(document.cookie)", "web.scheme"),
            ("data:text/html,<script>alert(1)</script>", "web.scheme"),
            ("ftp://files.example.com/pub/", "web.scheme"),
            ("", "web.scheme"),
            ("not an address", "web.scheme"),
            (
                "https://4a6f686e20446f6520736563.evil.example/",
                "web.carries_data",
            ),
        ];
        for (address, rule) in cases {
            assert!(
                rules(address).contains(&rule),
                "{address}: want {rule}, got {:?}",
                rules(address)
            );
        }
    }

    #[test]
    fn a_drop_box_with_data_is_lasting() {
        let plain = address_risks("https://webhook.site/abc", false);
        let typed = address_risks("https://webhook.site/abc", true);
        let base = |risks: &[Risk]| {
            risks
                .iter()
                .find(|r| r.rule == "web.dropbox")
                .map(Risk::base)
        };
        assert_eq!(base(&plain), Some(2));
        assert_eq!(base(&typed), Some(3));
    }

    #[test]
    fn a_port_is_not_a_scheme() {
        assert_eq!(foreign_scheme("localhost:3000/x"), None);
        assert_eq!(foreign_scheme("example.com:8080"), None);
        assert_eq!(foreign_scheme("https://a.b"), None);
        assert_eq!(foreign_scheme("mailto:a@b.c").as_deref(), Some("mailto"));
        assert_eq!(foreign_scheme("FILE:///x").as_deref(), Some("file"));
    }

    #[test]
    fn queries() {
        let fire = [
            "x".repeat(401),
            "decode U2FsdGVkX1+8Zk3Qm9LpR2vT7yW4nB6cD1eF0gH5jK8lM3oP please".to_string(),
            "is sk-proj-abcdefghijklmnopqrstuvwxyz012345 valid".to_string(),
        ];
        for query in &fire {
            assert!(!query_risks(query).is_empty(), "should ask: {query}");
        }
        let quiet = [
            "cheapest gant t-shirt herren",
            "rust serde flatten enum example",
            "git commit e83c5163316f89bfbde7d9ab23ca2e25604af290",
            "günstigste Gant T-Shirts Größe M",
        ];
        for query in quiet {
            assert!(query_risks(query).is_empty(), "should go: {query}");
        }
    }
}
