//! Reading the person's own words: did they ask for a step, hold it back, or neither?
//!
//! This is the simple reader (English only, whole-message); the seven-language reader
//! replaces it behind the same [`wanted`] function.

use crate::fold::fold;
use crate::wish::{Act, Name, Wish};
use serde::Serialize;

/// What the person's words say about one step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Wanted {
    /// Asked for in the latest message that names the act, with every name the step needs.
    Asked,
    /// Held back ("don't push yet"), and not lifted since.
    Held,
    /// Neither.
    Neither,
}

/// A reading and the words that decided it, so a person can see why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Reading {
    pub wanted: Wanted,
    /// The words that decided, or empty for [`Wanted::Neither`] with no mention.
    pub words: String,
    /// Which message (index into `said`) decided, if one did.
    pub message: Option<usize>,
}

/// Reads the person's messages (oldest first) for one wish.
pub fn wanted(wish: &Wish, said: &[String]) -> Reading {
    for (index, message) in said.iter().enumerate().rev() {
        let text = fold(message);
        let Some(at) = mention(wish.act, &text) else { continue };
        if held(&text) {
            return Reading { wanted: Wanted::Held, words: text, message: Some(index) };
        }
        let latest = index + 1 == said.len();
        if latest && wish.names.iter().all(|name| names(name, &text)) {
            return Reading { wanted: Wanted::Asked, words: text[at..].to_string(), message: Some(index) };
        }
        return Reading { wanted: Wanted::Neither, words: text, message: Some(index) };
    }
    Reading { wanted: Wanted::Neither, words: String::new(), message: None }
}

/// Where the act is first named in a folded message.
pub fn mention(act: Act, text: &str) -> Option<usize> {
    verbs(act).iter().filter_map(|verb| find_word(text, verb)).min()
}

/// True when the folded message names this name.
pub fn names(name: &Name, text: &str) -> bool {
    match name {
        Name::AnyOf(options) => options.iter().any(|option| find_word(text, &fold(option)).is_some()),
        Name::Production => ["production", "prod"].iter().any(|word| find_word(text, word).is_some()),
    }
}

fn held(text: &str) -> bool {
    ["don't", "do not", "dont", "not yet", "never", "without", "wait", "hold off"]
        .iter()
        .any(|word| find_word(text, word).is_some())
}

fn verbs(act: Act) -> &'static [&'static str] {
    match act {
        Act::Push => &["push"],
        Act::ForcePush => &["force-push", "force push", "force"],
        Act::Deploy => &["deploy", "apply"],
        Act::Install => &["install"],
        Act::Delete => &["delete", "remove"],
        Act::Clean => &["clean"],
        Act::Discard => &["discard", "reset"],
        Act::Send => &["send", "upload"],
        Act::Copy => &["copy"],
        Act::Publish => &["publish", "release"],
        Act::Update => &["update"],
        Act::Run => &["run"],
        Act::Destroy => &["destroy", "tear down"],
        Act::Restart => &["restart"],
        Act::Schedule => &["schedule"],
        Act::Safety => &["disable"],
        Act::Access => &["share", "grant"],
        Act::Merge => &["merge"],
        Act::Mirror => &["mirror"],
        Act::Public => &["public", "expose"],
        Act::Secrets => &["secret", "token", "key"],
    }
}

/// Finds `word` in `text` at word boundaries (letters and digits on neither side).
pub fn find_word(text: &str, word: &str) -> Option<usize> {
    if word.is_empty() {
        return None;
    }
    let mut from = 0;
    while let Some(found) = text[from..].find(word) {
        let start = from + found;
        let end = start + word.len();
        let before = text[..start].chars().next_back();
        let after = text[end..].chars().next();
        let boundary = |c: Option<char>| c.is_none_or(|c| !c.is_alphanumeric());
        if boundary(before) && boundary(after) {
            return Some(start);
        }
        from = start + text[start..].chars().next().map_or(1, char::len_utf8);
    }
    None
}
