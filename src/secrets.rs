//! What a value carries: something shaped like a key or token (carriesSecrets), or more data
//! than a request for a page needs (carriesData), in an address or spelled into a host name.
//! Linear-time patterns, compiled once.

use regex::RegexSet;
use std::sync::OnceLock;

/// Shapes of keys and tokens, each unmistakable on its own.
const TOKEN_SHAPES: &[&str] = &[
    r"-----BEGIN (?:[A-Z]+ )*PRIVATE KEY",
    r"\bsk-(?:ant-|proj-|live-)?[A-Za-z0-9_-]{20,}",
    r"\b[sr]k_live_[A-Za-z0-9]{16,}",
    r"\bgh[pousr]_[A-Za-z0-9]{30,}",
    r"\bgithub_pat_[A-Za-z0-9_]{22,}",
    r"\bglpat-[A-Za-z0-9_-]{20,}",
    r"\bxox[abprse]-[A-Za-z0-9-]{10,}",
    r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b",
    r"\bAIza[0-9A-Za-z_-]{35}",
    r"\bnpm_[A-Za-z0-9]{36}",
    r"\bpypi-AgE[A-Za-z0-9_-]{20,}",
    r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}",
];

struct Patterns {
    tokens: RegexSet,
}

#[expect(
    clippy::expect_used,
    reason = "the patterns are constants, compiled by the tests"
)]
fn patterns() -> &'static Patterns {
    static PATTERNS: OnceLock<Patterns> = OnceLock::new();
    PATTERNS.get_or_init(|| Patterns {
        tokens: RegexSet::new(TOKEN_SHAPES).expect("token shapes compile"),
    })
}

/// The bytes of a run that may be base64 (`[A-Za-z0-9+/_-]`) and of one that may be hex
/// (`[0-9a-fA-F]`); each run's character classes are checked afterwards.
const BASE64: u8 = 1;
const HEX: u8 = 2;
const CLASS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        if b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'_' | b'-') {
            table[c] |= BASE64;
        }
        if b.is_ascii_hexdigit() {
            table[c] |= HEX;
        }
        c += 1;
    }
    table
};

/// The shortest base64 run looked at, and the shortest hex run.
const BASE64_MIN: usize = 40;
const HEX_MIN: usize = 32;

/// Each whole run of at least `min` bytes of `class` in `bytes`, by where it starts and ends:
/// the runs `[class]{min,}` finds, left to right. A stretch with a byte outside the class
/// within any `min` bytes is stepped over `min` bytes at a time (only the last byte of each
/// stretch is looked at, then back to the nearest byte outside), so a text of short words
/// costs a look every few dozen bytes. Linear: a byte is looked at a bounded number of times.
fn runs(bytes: &[u8], class: u8, min: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
    let is = move |at: usize| {
        bytes
            .get(at)
            .is_some_and(|b| CLASS[usize::from(*b)] & class != 0)
    };
    // INVARIANT: `at` is 0 or the byte before it is outside the class, so a run found from
    // `at` starts there.
    let mut at = 0;
    std::iter::from_fn(move || {
        while at + min <= bytes.len() {
            let last = at + min - 1;
            if !is(last) {
                at = last + 1;
                continue;
            }
            if let Some(outside) = (at..last).rev().find(|i| !is(*i)) {
                at = outside + 1;
                continue;
            }
            let start = at;
            let mut end = last + 1;
            while is(end) {
                end += 1;
            }
            at = end + 1;
            return Some((start, end));
        }
        None
    })
}

/// The longest run of mixed-case-and-digit base64 in `text` (0 when none): a run of 40 or
/// more with up to two `=` after it.
fn longest_base64(text: &str) -> usize {
    let bytes = text.as_bytes();
    runs(bytes, BASE64, BASE64_MIN)
        .map(|(start, end)| {
            let pad = bytes.get(end..).map_or(0, |rest| {
                rest.iter().take(2).take_while(|b| **b == b'=').count()
            });
            text.get(start..end + pad).unwrap_or("")
        })
        .filter(|run| is_mixed(run))
        .map(str::len)
        .max()
        .unwrap_or(0)
}

fn is_mixed(run: &str) -> bool {
    let upper = run.bytes().filter(u8::is_ascii_uppercase).count();
    let lower = run.bytes().filter(u8::is_ascii_lowercase).count();
    let digits = run.bytes().filter(u8::is_ascii_digit).count();
    // A path or a slug (`some-long-file-name_v2`) is mostly lower case with few digits;
    // an encoding spreads over all three classes.
    upper >= 3
        && lower >= 3
        && digits >= 2
        && run.bytes().filter(|b| *b == b'-' || *b == b'_').count() * 8 < run.len()
}

/// The longest run of hex in `text` (32 or more, 0 when none), not counting runs of exactly
/// 40 or 64 characters that stand alone (a git commit or a SHA-256 digest names a thing; it
/// carries little).
fn longest_hex(text: &str, skip_digests: bool) -> usize {
    runs(text.as_bytes(), HEX, HEX_MIN)
        .map(|(start, end)| end - start)
        .filter(|len| !(skip_digests && (*len == 40 || *len == 64)))
        .max()
        .unwrap_or(0)
}

/// Something shaped like a key or token, or a long encoded blob: private keys, sk-, ghp_,
/// github_pat_, xox?-, AKIA, AIza, JWTs; base64 of 48+ with mixed case and digits; 80+ hex.
/// UUIDs, dates, ids and git commits are not.
pub fn carries_secrets(text: &str) -> bool {
    if text.len() < 16 {
        return false;
    }
    patterns().tokens.is_match(text) || carries_blob(text)
}

/// A long encoded blob: base64 of 48+ with mixed case and digits, or 80+ hex.
fn carries_blob(text: &str) -> bool {
    text.len() >= 16 && (longest_base64(text) >= 48 || longest_hex(text, false) >= 80)
}

/// The name of the token shape found, for a reason a person reads.
pub fn secret_kind(text: &str) -> Option<&'static str> {
    let tokens = &patterns().tokens;
    // Most lines hold no token: `is_match` stops at the first and may skip by the shapes'
    // literals, where `matches` walks the whole text for every shape; which one matched is
    // asked only when one does.
    let first = if tokens.is_match(text) {
        tokens.matches(text).iter().next()
    } else {
        None
    };
    if let Some(index) = first {
        return Some(match index {
            0 => "a private key",
            1 | 2 => "an API key",
            3..=5 => "an access token",
            6 => "a Slack token",
            7 => "an AWS access key",
            8 => "a Google API key",
            9 | 10 => "a package registry token",
            _ => "a signed token (JWT)",
        });
    }
    // The token shapes were looked for above: only a blob is left to find.
    carries_blob(text).then_some("a long encoded blob")
}

/// An address that carries data rather than asks for a page: a long encoded blob (base64
/// with mixed case and digits, or 32+ hex), a value over 120 characters, or over 400
/// characters of query. A shop's sorted, filtered search does not.
pub fn carries_data(url: &str) -> bool {
    let (before_query, query) = match url.split_once('?') {
        Some((before, query)) => (before, query),
        None => (url, ""),
    };
    let query = query.split('#').next().unwrap_or("");
    if query.len() > 400 {
        return true;
    }
    let path = before_query
        .split_once("://")
        .map_or(before_query, |(_, rest)| rest);
    let values = query
        .split('&')
        .map(|pair| pair.split_once('=').map_or(pair, |(_, value)| value));
    let segments = path.split('/');
    for value in values.chain(segments) {
        if value.len() > 120 || longest_base64(value) >= 40 || longest_hex(value, true) >= 32 {
            return true;
        }
    }
    false
}

/// Data spelled into the subdomains (DNS carries it even when the page never loads): over 80
/// characters of labels before the site's own name, or one label of 24 or more characters
/// with six or more digits and no dash (`4a6f686e20446f65…`); a preview deploy's name
/// (`myapp-git-feature-login-acme.vercel.app`) has dashes and few digits.
pub fn host_carries_data(host: &str) -> bool {
    let labels: Vec<&str> = host.split('.').collect();
    let sub = labels.get(..labels.len().saturating_sub(2)).unwrap_or(&[]);
    let total: usize = sub.iter().map(|label| label.len()).sum();
    total > 80
        || sub.iter().any(|label| {
            let digits = label.bytes().filter(u8::is_ascii_digit).count();
            label.len() >= 24 && digits >= 6 && !label.contains('-')
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The runs as the regexes they replace find them.
    fn by_regex(text: &str) -> (usize, usize, usize) {
        let base64 = regex::Regex::new(r"[A-Za-z0-9+/_-]{40,}={0,2}").unwrap();
        let hex = regex::Regex::new(r"[0-9a-fA-F]{32,}").unwrap();
        let b = base64
            .find_iter(text)
            .map(|m| m.as_str())
            .filter(|run| is_mixed(run))
            .map(str::len)
            .max()
            .unwrap_or(0);
        let hexes = || hex.find_iter(text).map(|m| m.as_str().len());
        let h = hexes().max().unwrap_or(0);
        let d = hexes().filter(|l| *l != 40 && *l != 64).max().unwrap_or(0);
        (b, h, d)
    }

    proptest! {
        #[test]
        fn runs_are_the_ones_the_regexes_find(
            text in "([A-Fa-f0-9]{0,70}|[A-Za-z0-9+/_-]{0,90}|={0,3}|[ .é:]{0,3}){0,8}"
        ) {
            prop_assert_eq!(
                (longest_base64(&text), longest_hex(&text, false), longest_hex(&text, true)),
                by_regex(&text),
                "{:?}", text
            );
        }
    }

    #[test]
    fn runs_at_the_edges_are_the_regexes_runs() {
        let hex40 = "a".repeat(40);
        let hex64 = "b".repeat(64);
        let mixed = "Ab3".repeat(16);
        for text in [
            String::new(),
            "a".repeat(31),
            "a".repeat(32),
            hex40.clone(),
            format!("x{hex64}x"),
            format!("{mixed}=="),
            format!("{mixed}==={mixed}"),
            format!("{mixed}=={mixed}"),
            format!("é{mixed}é{}", "0".repeat(33)),
            format!("{}{}", "Zz9".repeat(13), "=".repeat(5)),
        ] {
            assert_eq!(
                (
                    longest_base64(&text),
                    longest_hex(&text, false),
                    longest_hex(&text, true)
                ),
                by_regex(&text),
                "{text}"
            );
        }
    }

    #[test]
    fn token_shapes_are_secrets_and_ids_are_not() {
        let secrets = [
            "sk-proj-abcdefghijklmnopqrstuvwxyz012345",
            "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
            "github_pat_11ABCDEFG0123456789_abcdefghijklmnop",
            "xoxb-1234567890-abcdefghij",
            "AKIAIOSFODNN7EXAMPLE",
            "AIzaSyA-abcdefghijklmnopqrstuvwxyz01234",
            "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
            "-----BEGIN OPENSSH PRIVATE KEY-----",
            "Authorization: Bearer U2FsdGVkX1+8Zk3Qm9LpR2vT7yW4nB6cD1eF0gH5jK8lM3oP7qS2uV9wX4yZ",
            &"deadbeef".repeat(11),
        ];
        for text in secrets {
            assert!(carries_secrets(text), "should carry a secret: {text}");
        }
        let plain = [
            "3f2504e0-4f89-11d3-9a0c-0305e82c3301",
            "2026-11-29T13:29:35Z",
            "e83c5163316f89bfbde7d9ab23ca2e25604af290",
            "src/components/very-long-component-file-name-for-the-dashboard.tsx",
            "git commit -m 'fix the login page'",
            "notion page 1a2b3c4d5e6f",
            "sk-learn",
        ];
        for text in plain {
            assert!(!carries_secrets(text), "should not carry a secret: {text}");
        }
    }

    #[test]
    fn addresses_that_carry_data() {
        let carry = [
            "https://evil.example/c?d=U2FsdGVkX1+8Zk3Qm9LpR2vT7yW4nB6cD1eF0gH5jK8lM3oP",
            "https://evil.example/x/4a6f686e20446f6520736563726574206b6579",
            &format!("https://evil.example/?q={}", "a".repeat(130)),
            &format!("https://evil.example/?{}", "a=b&".repeat(120)),
        ];
        for url in carry {
            assert!(carries_data(url), "should carry data: {url}");
        }
        let pages = [
            "https://www.otto.de/suche/gant%20t-shirt/?sortiertnach=preis-aufsteigend&farbe=blau&groesse=m",
            "https://github.com/acme/app/commit/e83c5163316f89bfbde7d9ab23ca2e25604af290",
            "https://docs.rs/serde/latest/serde/",
            "https://example.com/items/3f2504e0-4f89-11d3-9a0c-0305e82c3301",
        ];
        for url in pages {
            assert!(!carries_data(url), "should be a page: {url}");
        }
    }
}
