//! Telling a look-alike of a popular or declared package (a typosquat) from the package itself.
//!
//! The popular names are data, `src/data/popular.txt`, built into the binary and parsed once.
//! A name imitates another when it is one slip away from it:
//!
//! - **one edit** (Damerau–Levenshtein distance 1: a letter changed, added, dropped, or two
//!   neighbours swapped) when both names have at least five characters; between two
//!   four-character names only a swap counts. This covers the usual typosquat shapes:
//!   `reqeusts`, `expresss`, `djang0`, `l0dash`. A slip in a version's digits
//!   (`python@3.11` beside `python@3.12`, `yaml.v2` beside `yaml.v3`) is another release,
//!   not a typo, and does not count (`spf31` beside `spf13` does);
//! - **separator confusion**: the same name once `-`, `_` and `.` are dropped (`crossenv`
//!   beside `cross-env`).
//!
//! Some registries fold names, and a folded spelling is the same package, not a look-alike:
//! PyPI folds runs of `-`, `_`, `.` (PEP 503), crates.io folds `-` with `_`. Declared names
//! carry no ecosystem, so they are folded as PyPI folds them: `python_dateutil` is the
//! declared `python-dateutil`.
//!
//! Never flagged: a popular or declared name itself (so two real packages close to each other,
//! `react` and `preact`, `vite` and `vitest`, are both fine), names shorter than four
//! characters, a scoped or namespaced name beside a bare one (`@types/react` is not `react`),
//! and two names in the same owned namespace (an npm `@scope`, or a path prefix of two or
//! more parts such as `github.com/spf13` or a brew `user/tap`), whose owner publishes both.

use crate::manifest::pep503_name;
use std::sync::OnceLock;

/// The longest name looked at (npm's limit); a longer name is never a look-alike.
pub const MAX_NAME: usize = 214;

/// The shortest name that can be a look-alike.
const MIN_NAME: usize = 4;

/// The shortest names for which any single edit counts (shorter ones: only a swap).
const MIN_ANY_EDIT: usize = 5;

/// The popular names, as shipped.
const POPULAR: &str = include_str!("data/popular.txt");

/// A package registry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Ecosystem {
    /// npm (JavaScript).
    Npm,
    /// PyPI (Python).
    Pypi,
    /// crates.io (Rust).
    Crates,
    /// Go modules.
    Go,
    /// RubyGems.
    Gem,
    /// Homebrew formulae and casks.
    Brew,
}

impl Ecosystem {
    /// Every ecosystem, in the order the data file lists them.
    pub const ALL: [Ecosystem; 6] = [
        Ecosystem::Npm,
        Ecosystem::Pypi,
        Ecosystem::Crates,
        Ecosystem::Go,
        Ecosystem::Gem,
        Ecosystem::Brew,
    ];

    /// The ecosystem the data file calls `word`.
    pub fn parse(word: &str) -> Option<Ecosystem> {
        match word {
            "npm" => Some(Ecosystem::Npm),
            "pypi" => Some(Ecosystem::Pypi),
            "crates" => Some(Ecosystem::Crates),
            "go" => Some(Ecosystem::Go),
            "gem" => Some(Ecosystem::Gem),
            "brew" => Some(Ecosystem::Brew),
            _ => None,
        }
    }

    /// Does this registry take `a` and `b` (both lower case) for the same package?
    fn is_same_name(self, a: &str, b: &str) -> bool {
        a == b
            || match self {
                Ecosystem::Pypi => pep503_name(a) == pep503_name(b),
                Ecosystem::Crates => a.replace('-', "_") == b.replace('-', "_"),
                Ecosystem::Npm | Ecosystem::Go | Ecosystem::Gem | Ecosystem::Brew => false,
            }
    }
}

/// A popular package: where it lives and its lower-case name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Package {
    /// The registry it is published in.
    pub ecosystem: Ecosystem,
    /// Its name, lower case (a Go module's full path).
    pub name: &'static str,
}

impl Package {
    /// One line of the data file; `None` for blanks, comments and malformed lines.
    fn parse(line: &'static str) -> Option<Package> {
        let line = line.trim();
        if line.starts_with('#') {
            return None;
        }
        let mut words = line.split_whitespace();
        let ecosystem = Ecosystem::parse(words.next()?)?;
        let name = words.next()?;
        words
            .next()
            .is_none()
            .then_some(Package { ecosystem, name })
    }
}

/// The popular packages shipped in `src/data/popular.txt`, in file order.
pub fn popular() -> &'static [Package] {
    static PARSED: OnceLock<Vec<Package>> = OnceLock::new();
    PARSED.get_or_init(|| POPULAR.lines().filter_map(Package::parse).collect())
}

/// Is `name` (in any ecosystem, any case) a popular package, or a spelling its registry
/// takes for one?
pub fn is_popular(name: &str) -> bool {
    is_popular_among(None, &name.trim().to_lowercase())
}

/// Is `name` (any case) a popular package of `ecosystem`, or a spelling it takes for one?
pub fn is_popular_in(ecosystem: Ecosystem, name: &str) -> bool {
    is_popular_among(Some(ecosystem), &name.trim().to_lowercase())
}

/// The popular or declared name that `name` imitates, if it is a look-alike of one and is
/// neither popular nor declared itself, in any ecosystem. See the module documentation for
/// what imitates. When the installer is known, [`lookalike_in`] is sharper: a name close to a
/// package of another registry (`touch` beside the Python `torch`) is no typosquat.
pub fn lookalike(name: &str, declared: &[String]) -> Option<String> {
    imitated(None, name, declared)
}

/// Like [`lookalike`], for a name installed from `ecosystem`: only that registry's popular
/// names count, as popular and as targets. Declared names count whatever their ecosystem.
pub fn lookalike_in(ecosystem: Ecosystem, name: &str, declared: &[String]) -> Option<String> {
    imitated(Some(ecosystem), name, declared)
}

/// The popular packages of `ecosystem`, or of all when `None`.
fn popular_among(ecosystem: Option<Ecosystem>) -> impl Iterator<Item = &'static Package> {
    popular()
        .iter()
        .filter(move |package| ecosystem.is_none_or(|e| e == package.ecosystem))
}

/// Is the lower-case `name` popular in `ecosystem`, or in any when `None`?
fn is_popular_among(ecosystem: Option<Ecosystem>, name: &str) -> bool {
    popular_among(ecosystem).any(|package| package.ecosystem.is_same_name(package.name, name))
}

/// The name `name` imitates among the declared names and the popular ones of `ecosystem`.
fn imitated(ecosystem: Option<Ecosystem>, name: &str, declared: &[String]) -> Option<String> {
    let name = name.trim().to_lowercase();
    let n_chars = name.chars().count();
    if !(MIN_NAME..=MAX_NAME).contains(&n_chars) || is_popular_among(ecosystem, &name) {
        return None;
    }
    let declared: Vec<String> = declared.iter().map(|d| d.trim().to_lowercase()).collect();
    // Declared names carry no ecosystem: fold them as PyPI does, the widest folding.
    if declared
        .iter()
        .any(|d| Ecosystem::Pypi.is_same_name(d, &name))
    {
        return None;
    }
    let declared = declared.iter().map(String::as_str);
    let popular = popular_among(ecosystem).map(|package| package.name);
    declared
        .chain(popular)
        .find(|target| imitates(&name, target))
        .map(str::to_string)
}

/// Does `name` imitate `target` (both lower case, different, `name` not too short or long)?
fn imitates(name: &str, target: &str) -> bool {
    if name == target || !(MIN_NAME..=MAX_NAME).contains(&target.chars().count()) {
        return false;
    }
    match (namespace(name), namespace(target)) {
        (None, None) => {}
        (Some(ours), Some(theirs)) if ours == theirs && is_owned(ours) => return false,
        (Some(_), Some(_)) => {}
        // A scope or path prefix is not a look-alike of the bare name, nor the other way.
        (Some(_), None) | (None, Some(_)) => return false,
    }
    is_separator_confusion(name, target) || is_one_slip(name, target)
}

/// The part of a name before its last `/`: an npm scope, a module path's owner, a brew tap.
fn namespace(name: &str) -> Option<&str> {
    name.rfind('/').map(|slash| &name[..slash])
}

/// Is a namespace owned by one publisher: an npm `@scope`, or a path of two or more parts
/// (`github.com/spf13`, `homebrew/cask`)? A bare host like `gopkg.in` is not.
fn is_owned(namespace: &str) -> bool {
    namespace.starts_with('@') || namespace.contains('/')
}

/// Are the names the same once `-`, `_` and `.` are dropped?
fn is_separator_confusion(name: &str, target: &str) -> bool {
    let bare = |s: &str| {
        s.chars()
            .filter(|c| !matches!(c, '-' | '_' | '.'))
            .collect::<String>()
    };
    bare(name) == bare(target)
}

/// Is `name` one slip from `target`: one edit when both are five characters or more, one
/// swap of neighbours when both are four? A slip in a version's digits does not count.
fn is_one_slip(name: &str, target: &str) -> bool {
    let a: Vec<char> = name.chars().collect();
    let b: Vec<char> = target.chars().collect();
    let slip = if a.len() >= MIN_ANY_EDIT && b.len() >= MIN_ANY_EDIT {
        one_edit(&a, &b)
    } else if a.len() == MIN_NAME && b.len() == MIN_NAME {
        one_edit(&a, &b).filter(|slip| matches!(slip, Slip::Swap(_)))
    } else {
        None
    };
    slip.is_some_and(|slip| !slip.is_in_a_version(&a, &b))
}

/// The single edit that turns one name into another, at a character index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Slip {
    /// A character changed.
    Change(usize),
    /// A character added or dropped (the index is in the longer name).
    Extra(usize),
    /// Two neighbouring characters swapped (the index of the first).
    Swap(usize),
}

impl Slip {
    /// Does the slip only touch version digits (`python@3.11`, `yaml.v3`, `echo/v4`)?
    fn is_in_a_version(self, a: &[char], b: &[char]) -> bool {
        match self {
            Slip::Change(i) => is_version_digit(a, i) && is_version_digit(b, i),
            Slip::Swap(i) => is_version_digit(a, i) && is_version_digit(a, i + 1),
            Slip::Extra(i) => is_version_digit(if a.len() > b.len() { a } else { b }, i),
        }
    }
}

/// Is `name[i]` a digit in a version: a run of digits right after `@` or `.`, or after a `v`
/// that starts a part (`-v2`, `/v4`, `.v3`)? The `13` of `spf13` is not.
fn is_version_digit(name: &[char], i: usize) -> bool {
    let is_digit = |j: usize| name.get(j).is_some_and(char::is_ascii_digit);
    if !is_digit(i) {
        return false;
    }
    let start = (0..=i)
        .rev()
        .take_while(|&j| is_digit(j))
        .last()
        .unwrap_or(i);
    let before = |back: usize| start.checked_sub(back).and_then(|j| name.get(j)).copied();
    match before(1) {
        Some('@' | '.') => true,
        Some('v') => before(2).is_none_or(|c| matches!(c, '-' | '_' | '.' | '/' | '@')),
        _ => false,
    }
}

/// The one edit between `a` and `b` if their Damerau–Levenshtein (optimal string alignment)
/// distance is exactly 1. Linear: it walks to the first difference and compares the rests.
fn one_edit(a: &[char], b: &[char]) -> Option<Slip> {
    let first_diff = a.iter().zip(b).position(|(x, y)| x != y);
    if a.len() == b.len() {
        let i = first_diff?;
        if a[i + 1..] == b[i + 1..] {
            return Some(Slip::Change(i));
        }
        let swapped = i + 1 < a.len() && a[i] == b[i + 1] && a[i + 1] == b[i];
        (swapped && a[i + 2..] == b[i + 2..]).then_some(Slip::Swap(i))
    } else {
        let (longer, shorter) = if a.len() > b.len() { (a, b) } else { (b, a) };
        if longer.len() != shorter.len() + 1 {
            return None;
        }
        let i = first_diff.unwrap_or(shorter.len());
        (longer[i + 1..] == shorter[i..]).then_some(Slip::Extra(i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn declared(names: &[&str]) -> Vec<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn the_data_file_parses_whole() {
        let lines = POPULAR.lines().map(str::trim);
        let meant = lines
            .filter(|line| !line.is_empty() && !line.starts_with('#'))
            .count();
        assert_eq!(
            popular().len(),
            meant,
            "every data line is `ecosystem name`"
        );
    }

    #[test]
    fn every_ecosystem_is_present_and_each_list_is_sorted_unique_lower_case() {
        let minimum = [
            (Ecosystem::Npm, 150),
            (Ecosystem::Pypi, 150),
            (Ecosystem::Crates, 100),
            (Ecosystem::Go, 40),
            (Ecosystem::Gem, 40),
            (Ecosystem::Brew, 60),
        ];
        for (ecosystem, least) in minimum {
            let names: Vec<&str> = popular()
                .iter()
                .filter(|p| p.ecosystem == ecosystem)
                .map(|p| p.name)
                .collect();
            assert!(
                names.len() >= least,
                "{ecosystem:?} has {} names",
                names.len()
            );
            for pair in names.windows(2) {
                assert!(
                    pair[0] < pair[1],
                    "{ecosystem:?}: {} then {}",
                    pair[0],
                    pair[1]
                );
            }
            for name in names {
                assert_eq!(
                    name,
                    name.to_lowercase(),
                    "{ecosystem:?} {name} is lower case"
                );
                assert!(name.chars().count() <= MAX_NAME, "{name} is short enough");
                if ecosystem == Ecosystem::Pypi {
                    assert_eq!(name, pep503_name(name), "{name} is in PEP 503 form");
                }
            }
        }
        assert_eq!(Ecosystem::ALL.len(), minimum.len());
    }

    #[test]
    fn knows_the_targets_typosquats_aim_at() {
        let targets = [
            "react",
            "lodash",
            "express",
            "axios",
            "cross-env",
            "requests",
            "numpy",
            "urllib3",
            "colorama",
            "django",
            "serde",
            "serde_json",
            "tokio",
            "rails",
            "github.com/gin-gonic/gin",
            "wget",
        ];
        for name in targets {
            assert!(is_popular(name), "{name} is popular");
        }
        let folded = ["Python_Dateutil", "python.dateutil", "serde-json", "React"];
        for name in folded {
            assert!(
                is_popular(name),
                "{name} is a spelling of a popular package"
            );
        }
        for name in ["my-internal-tool", "reqeusts", "cross_env", ""] {
            assert!(!is_popular(name), "{name} is not popular");
        }
    }

    #[test]
    fn flags_look_alikes() {
        let none: &[&str] = &[];
        let cases: &[(&str, &[&str], &str)] = &[
            ("reqeusts", none, "requests"),
            ("lodahs", none, "lodash"),
            ("expresss", none, "express"),
            ("colourama", none, "colorama"),
            ("crossenv", none, "cross-env"),
            ("cross_env", none, "cross-env"),
            ("djang0", none, "django"),
            ("l0dash", none, "lodash"),
            ("reqests", none, "requests"),
            ("urlib3", none, "urllib3"),
            ("pythondateutil", none, "python-dateutil"),
            ("Axois", none, "axios"),
            ("re\u{0430}ct", none, "react"),
            ("@typess/node", none, "@types/node"),
            ("github.com/spf31/cobra", none, "github.com/spf13/cobra"),
            ("github.com/spf14/cobra", none, "github.com/spf13/cobra"),
            ("gopkg.in/yam1.v3", none, "gopkg.in/yaml.v3"),
            ("urlllib3", none, "urllib3"),
            ("jset", none, "jest"),
            ("acme-widgetz", &["acme-widgets"], "acme-widgets"),
            ("acmewidgets", &["acme-widgets"], "acme-widgets"),
            ("internal-toool", &["internal-tool"], "internal-tool"),
        ];
        for (name, ours, imitated) in cases {
            assert_eq!(
                lookalike(name, &declared(ours)).as_deref(),
                Some(*imitated),
                "{name:?} (declared {ours:?}) imitates {imitated}"
            );
        }
    }

    #[test]
    fn does_not_flag_real_or_own_or_short_names() {
        let none: &[&str] = &[];
        let cases: &[(&str, &[&str])] = &[
            ("react", none),
            ("preact", none),
            ("requests", none),
            ("serde_json", none),
            ("serde-json", none),
            ("python_dateutil", none),
            ("left-pad", none),
            ("vite", none),
            ("vitest", none),
            ("axum", none),
            ("@types/node", none),
            ("@types/react", none),
            ("@types/nodes", none),
            ("@babel/cores", none),
            ("github.com/spf13/cobra/v2", none),
            ("github.com/labstack/echo/v5", none),
            ("python@3.11", none),
            ("python@3.1", none),
            ("gopkg.in/yaml.v4", none),
            ("github.com/aws/aws-sdk-go-v3", none),
            ("openssl@1.1", none),
            ("postgresql@15", none),
            ("my-internal-tool", none),
            ("ws", none),
            ("qs", none),
            ("zod", none),
            ("vue", none),
            ("sha3", none),
            ("jeso", none),
            ("reqeusts", &["reqeusts"]),
            ("acme_widgets", &["acme-widgets"]),
            ("acme.widgets", &["acme-widgets"]),
            ("", none),
            ("   ", none),
        ];
        for (name, ours) in cases {
            assert_eq!(
                lookalike(name, &declared(ours)),
                None,
                "{name:?} (declared {ours:?})"
            );
        }
        let long = "a".repeat(MAX_NAME + 1);
        assert_eq!(lookalike(&long, &declared(&[&"a".repeat(MAX_NAME)])), None);
    }

    #[test]
    fn knows_the_ecosystem_when_told() {
        let none: Vec<String> = Vec::new();
        let cases = [
            (Ecosystem::Npm, "lodahs", Some("lodash")),
            (Ecosystem::Pypi, "reqeusts", Some("requests")),
            (Ecosystem::Pypi, "urllib4", Some("urllib3")),
            (Ecosystem::Pypi, "python_dateutil", None),
            (Ecosystem::Npm, "python_dateutil", None),
            (Ecosystem::Crates, "serde-json", None),
            (Ecosystem::Crates, "tokoi", Some("tokio")),
            (Ecosystem::Npm, "tokoi", None),
            (Ecosystem::Npm, "crossenv", Some("cross-env")),
            (
                Ecosystem::Go,
                "github.com/spf31/cobra",
                Some("github.com/spf13/cobra"),
            ),
            (Ecosystem::Gem, "raisl", Some("rails")),
            (Ecosystem::Brew, "wgte", Some("wget")),
            (Ecosystem::Brew, "htopp", None),
            (Ecosystem::Brew, "python@3.13", None),
        ];
        for (ecosystem, name, imitated) in cases {
            assert_eq!(
                lookalike_in(ecosystem, name, &none).as_deref(),
                imitated,
                "{name:?} from {ecosystem:?}"
            );
        }
        let ours = declared(&["acme-widgets"]);
        assert_eq!(
            lookalike_in(Ecosystem::Gem, "acme-widgetz", &ours).as_deref(),
            Some("acme-widgets")
        );
        assert!(is_popular_in(Ecosystem::Pypi, "Requests"));
        assert!(!is_popular_in(Ecosystem::Npm, "requests"));
    }

    #[test]
    fn finds_the_one_edit() {
        let chars = |s: &str| s.chars().collect::<Vec<char>>();
        let cases = [
            ("abcde", "abxde", Some(Slip::Change(2))),
            ("abcde", "abde", Some(Slip::Extra(2))),
            ("abde", "abcde", Some(Slip::Extra(2))),
            ("abcde", "abcdef", Some(Slip::Extra(5))),
            ("abcde", "bacde", Some(Slip::Swap(0))),
            ("abcde", "abced", Some(Slip::Swap(3))),
            ("abcde", "abcde", None),
            ("abcde", "axcxe", None),
            ("abcde", "abc", None),
            ("abcde", "acbed", None),
            ("", "a", Some(Slip::Extra(0))),
        ];
        for (a, b, expected) in cases {
            assert_eq!(one_edit(&chars(a), &chars(b)), expected, "{a:?} → {b:?}");
        }
    }
}
