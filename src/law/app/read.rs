//! Reading a tool's name and its arguments: names cut into folded words, the words matched
//! against every table at once (longest phrase first), and what the arguments send
//! (how much text, the longest value, a key or token).

use super::words::{CHANGE, DELETES, GRANTS, HOLDS, LOOKUP, PAYS, RUNS, SPEAKS, VERB_OR_NOUN};
use crate::fold::fold;
use crate::intent::words::Table;
use crate::secrets::{carries_secrets, secret_kind};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::OnceLock;

/// What a phrase can stand for; one phrase may stand for several.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Concept {
    Lookup,
    Change,
    VerbOrNoun,
    Pays,
    Speaks,
    Deletes,
    Grants,
    Runs,
    /// Names what an argument holds, not the act (`HOLDS`).
    Holds,
}

impl Concept {
    /// Every concept, each with its table.
    pub const ALL: [(Concept, &'static str, Table); 9] = [
        (Concept::Lookup, "LOOKUP", LOOKUP),
        (Concept::Change, "CHANGE", CHANGE),
        (Concept::VerbOrNoun, "VERB_OR_NOUN", VERB_OR_NOUN),
        (Concept::Pays, "PAYS", PAYS),
        (Concept::Speaks, "SPEAKS", SPEAKS),
        (Concept::Deletes, "DELETES", DELETES),
        (Concept::Grants, "GRANTS", GRANTS),
        (Concept::Runs, "RUNS", RUNS),
        (Concept::Holds, "HOLDS", HOLDS),
    ];

    fn bit(self) -> u16 {
        1 << (self as u16)
    }
}

/// The longest phrase any table holds, in words.
pub const LONGEST: usize = 3;

/// Names longer than this many words are read only this far: a name is a few words, and
/// reading stays bounded whatever comes in.
const MOST_WORDS: usize = 64;

/// Every phrase of every table, and what it stands for.
fn index() -> &'static HashMap<&'static str, u16> {
    static INDEX: OnceLock<HashMap<&'static str, u16>> = OnceLock::new();
    INDEX.get_or_init(|| {
        let mut index: HashMap<&'static str, u16> = HashMap::new();
        for (concept, _, table) in Concept::ALL {
            for (_, line) in table {
                for phrase in *line {
                    *index.entry(phrase).or_default() |= concept.bit();
                }
            }
        }
        index
    })
}

/// One phrase found in a name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hit {
    /// The phrase as its table writes it.
    pub phrase: &'static str,
    bits: u16,
    /// The word it starts at.
    pub at: usize,
}

impl Hit {
    pub fn is(&self, concept: Concept) -> bool {
        self.bits & concept.bit() != 0
    }
}

/// A name cut into words: at every character that is not a letter or a digit, between a
/// lower-case letter and a capital (`sendEmail`), before the last capital of a run
/// followed by a lower-case letter (`HTTPRequest`), and between letters and digits
/// (`oauth2`). Each word folded.
pub fn words(name: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut word = String::new();
    let mut chars = name.chars().peekable();
    let mut prev: Option<char> = None;
    while let Some(c) = chars.next() {
        if out.len() >= MOST_WORDS {
            break;
        }
        if !c.is_alphanumeric() {
            push_folded(&mut out, &mut word);
            prev = None;
            continue;
        }
        if let Some(p) = prev {
            let next_lower = chars.peek().is_some_and(|n| n.is_lowercase());
            let cut = (p.is_lowercase() && c.is_uppercase())
                || (p.is_uppercase() && c.is_uppercase() && next_lower)
                || (p.is_numeric() != c.is_numeric());
            if cut {
                push_folded(&mut out, &mut word);
            }
        }
        word.push(c);
        prev = Some(c);
    }
    push_folded(&mut out, &mut word);
    out.truncate(MOST_WORDS);
    out
}

fn push_folded(out: &mut Vec<String>, word: &mut String) {
    if word.is_empty() {
        return;
    }
    let folded = fold(word);
    word.clear();
    // Folding may spell one character as several words (any_ascii); keep letters and
    // digits only.
    out.extend(
        folded
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_string),
    );
}

/// The phrases in a run of words: at each word the longest phrase any table knows there;
/// the words it covers are taken.
pub fn hits(words: &[String]) -> Vec<Hit> {
    let index = index();
    let mut out = Vec::new();
    let mut phrase = String::new();
    let mut at = 0;
    while at < words.len() {
        let mut found = None;
        for len in (1..=LONGEST.min(words.len() - at)).rev() {
            phrase.clear();
            for (k, word) in words[at..at + len].iter().enumerate() {
                if k > 0 {
                    phrase.push(' ');
                }
                phrase.push_str(word);
            }
            if let Some((entry, bits)) = index.get_key_value(phrase.as_str()) {
                found = Some((len, *entry, *bits));
                break;
            }
        }
        match found {
            Some((len, entry, bits)) => {
                out.push(Hit {
                    phrase: entry,
                    bits,
                    at,
                });
                at += len;
            }
            None => at += 1,
        }
    }
    out
}

/// A tool's name, read.
#[derive(Debug, Clone)]
pub struct ToolName {
    pub hits: Vec<Hit>,
}

impl ToolName {
    pub fn read(name: &str) -> ToolName {
        ToolName {
            hits: hits(&words(name)),
        }
    }

    /// A lookup by its name: a lookup word, no change word anywhere, and no verb-or-noun
    /// before the first lookup word. Anything else, a name with no word known included, is
    /// a change (fail closed).
    pub fn is_lookup(&self) -> bool {
        let Some(first_look) = self.hits.iter().find(|h| h.is(Concept::Lookup)) else {
            return false;
        };
        !self
            .hits
            .iter()
            .any(|h| h.is(Concept::Change) || (h.is(Concept::VerbOrNoun) && h.at < first_look.at))
    }

    /// The first phrase standing for `concept`.
    pub fn first(&self, concept: Concept) -> Option<&'static str> {
        self.hits.iter().find(|h| h.is(concept)).map(|h| h.phrase)
    }
}

/// A value read as a word only when it is a choice, not text: one token of at most this
/// many characters (`"delete"`, `"admin"`, `"public"`), never a title or a note.
const CHOICE_AT_MOST: usize = 40;

/// What a step's arguments send.
#[derive(Debug, Clone, Default)]
pub struct Sent {
    /// Characters of every value (strings, numbers) and every argument's name.
    pub total: usize,
    /// The longest single value, in characters.
    pub longest: usize,
    /// A key or token (or a long encoded blob) in a value: the argument's name and the kind.
    pub secret: Option<(String, &'static str)>,
    /// The phrases of the arguments' names and of their one-word values, without those
    /// that only name what a value holds (`HOLDS`).
    pub hits: Vec<Hit>,
}

impl Sent {
    /// Reads every argument, however deep, once.
    pub fn read(arguments: &Value) -> Sent {
        let mut sent = Sent::default();
        // (the argument's name, the value): an explicit stack, so depth costs no recursion.
        let mut stack: Vec<(&str, &Value)> = vec![("", arguments)];
        while let Some((key, value)) = stack.pop() {
            match value {
                Value::String(text) => sent.value(key, text),
                Value::Number(number) => {
                    let len = number.to_string().len();
                    sent.total += len;
                    sent.longest = sent.longest.max(len);
                }
                Value::Array(items) => stack.extend(items.iter().rev().map(|item| (key, item))),
                Value::Object(fields) => {
                    for (name, inner) in fields.iter().rev() {
                        sent.total += name.chars().count();
                        sent.name_words(name);
                        if sent.secret.is_none() && carries_secrets(name) {
                            sent.secret = Some((name.clone(), kind_of(name)));
                        }
                        stack.push((name.as_str(), inner));
                    }
                }
                // `"private": false` makes what it names public (GitHub's `update_repository`).
                Value::Bool(false)
                    if matches!(
                        key.to_ascii_lowercase().as_str(),
                        "private" | "is_private" | "isprivate"
                    ) =>
                {
                    sent.name_words("public");
                }
                Value::Null | Value::Bool(_) => {}
            }
        }
        sent
    }

    fn value(&mut self, key: &str, text: &str) {
        let len = text.chars().count();
        self.total += len;
        self.longest = self.longest.max(len);
        if self.secret.is_none() && carries_secrets(text) {
            self.secret = Some((key.to_string(), kind_of(text)));
        }
        if len <= CHOICE_AT_MOST && !text.chars().any(char::is_whitespace) {
            self.name_words(text);
        }
    }

    fn name_words(&mut self, text: &str) {
        self.hits.extend(
            hits(&words(text))
                .into_iter()
                .filter(|hit| !hit.is(Concept::Holds)),
        );
    }

    /// The first phrase standing for `concept`.
    pub fn first(&self, concept: Concept) -> Option<&'static str> {
        self.hits.iter().find(|h| h.is(concept)).map(|h| h.phrase)
    }

    /// More than a lookup sends (sendsMoreThanALookup): a value over 100 characters, or over
    /// 200 in all.
    pub fn more_than_a_lookup(&self) -> bool {
        self.longest > LOOKUP_VALUE || self.total > LOOKUP_TOTAL
    }
}

/// sendsMoreThanALookup: no value over this many characters…
pub const LOOKUP_VALUE: usize = 100;
/// …and no more than this many in all.
pub const LOOKUP_TOTAL: usize = 200;

/// What `secret_kind` calls a long encoded blob that isn't shaped like a key or token.
pub const BLOB: &str = "a long encoded blob";

fn kind_of(text: &str) -> &'static str {
    secret_kind(text).unwrap_or(BLOB)
}
