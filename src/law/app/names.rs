//! The names an app's step acts on, read from its arguments by what they are: whom it
//! speaks or grants to (`WHOM`: a recipient, a channel, a user, an email address), what it
//! changes or deletes (`WHAT`: a file, an event, a page, an item, by its name, title or
//! id) and when (`WHEN`: the date the act is about). A person asks for the step by naming
//! them ("send it to Alice", "append the recipe to recipes.txt", "create an event on
//! 2024-05-19"); a step whose target they didn't name keeps its question, which is what
//! keeps an injection that borrows the person's act from borrowing their permission.
//!
//! Reading is bounded: at most [`MOST_VALUES`] values are looked at, and a step with more
//! than [`MOST_NAMES`] names can't be named at all (it keeps its question).

use super::read::words;
use super::words::{MONTHS, WHAT, WHEN, WHOM};
use crate::fold::fold;
use crate::intent::words::Table;
use crate::wish::Name;
use serde_json::Value;
use std::collections::HashSet;
use std::sync::OnceLock;

/// The values of a change no argument's name says anything about (`street`, `city`):
/// each a name the message must carry, so a change the person dictated whole is theirs;
/// none when any value is text rather than a name.
pub fn values(arguments: &Value) -> Vec<Name> {
    let mut out = Vec::new();
    let mut stack = vec![arguments];
    let mut seen = 0;
    while let Some(value) = stack.pop() {
        seen += 1;
        if seen > MOST_VALUES {
            return Vec::new();
        }
        match value {
            Value::String(text) => {
                let folded = fold(text.trim());
                if folded.len() > LONGEST || folded.chars().count() < SHORTEST {
                    return Vec::new();
                }
                out.push(Name::AnyOf(vec![folded]));
            }
            Value::Array(items) => stack.extend(items),
            Value::Object(fields) => stack.extend(fields.values()),
            Value::Number(_) | Value::Bool(_) | Value::Null => {}
        }
    }
    if out.len() > MOST_NAMES {
        return Vec::new();
    }
    out
}

/// A value written as a constant: capital letters and underscores only (`APPROVE`,
/// `REQUEST_CHANGES`).
fn is_constant(text: &str) -> bool {
    let text = text.trim();
    text.len() >= SHORTEST && text.bytes().all(|b| b.is_ascii_uppercase() || b == b'_')
}

/// Values looked at, at most.
pub const MOST_VALUES: usize = 256;
/// Names a step may need; more, and no message can name them all.
pub const MOST_NAMES: usize = 32;
/// A name shorter than this is too short to tell apart ("al", "me"): it can't be named.
pub const SHORTEST: usize = 3;
/// A value longer than this is text, not a name: it is named only whole.
const LONGEST: usize = 120;

/// What an argument's name says its value is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Whom,
    When,
    What,
}

/// The names read from one step's arguments.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Targets {
    /// Each one a name the message must carry: every recipient is named, or the step
    /// keeps its question ("send it to Alice" doesn't lift a message to Alice and Eve).
    pub whom: Vec<Name>,
    /// Each item changed, as the alternatives it may be called by.
    pub what: Vec<Vec<String>>,
    /// The dates the act is about, as the alternatives a person writes them in.
    pub when: Vec<String>,
    /// Every web address its values carry (a message's body too), as the alternatives it
    /// is named by (the address, its host): a message that sends a link names it, or the
    /// link is what an injection sends ("send a link www.secure-systems-252.com to Alice").
    pub links: Vec<Vec<String>>,
    /// The item is known only by an id (`event_id`, `file_id`), which a person doesn't
    /// say: the date the act is about names it instead ("move it to May 20").
    by_id: bool,
    /// The items of [`Targets::what`] that are ids (`file_id: "abc"`): beside a name or a
    /// title of the same step, the name is what a person says, not the id.
    ids: Vec<Vec<String>>,
    /// More names than [`MOST_NAMES`].
    pub too_many: bool,
}

fn table_words(table: Table) -> HashSet<&'static str> {
    table
        .iter()
        .flat_map(|(_, line)| line.iter().copied())
        .collect()
}

fn roles() -> &'static [(Role, HashSet<&'static str>); 3] {
    static ROLES: OnceLock<[(Role, HashSet<&'static str>); 3]> = OnceLock::new();
    ROLES.get_or_init(|| {
        [
            (Role::Whom, table_words(WHOM)),
            (Role::When, table_words(WHEN)),
            (Role::What, table_words(WHAT)),
        ]
    })
}

/// The role an argument's name gives its value: whom before when before what, so
/// `user_name` is a person and `start_time` a date.
pub fn role(key: &str) -> Option<Role> {
    let cut = words(key);
    roles()
        .iter()
        .find(|(_, known)| cut.iter().any(|word| known.contains(word.as_str())))
        .map(|(role, _)| *role)
}

impl Targets {
    /// Reads every argument, however deep, once (an explicit stack).
    pub fn read(arguments: &Value) -> Targets {
        let mut targets = Targets::default();
        let mut stack: Vec<(Option<Role>, &Value)> = vec![(None, arguments)];
        let mut seen = 0;
        while let Some((role, value)) = stack.pop() {
            seen += 1;
            if seen > MOST_VALUES {
                targets.too_many = true;
                break;
            }
            match value {
                Value::String(text) => {
                    targets.link(text);
                    targets.add(role, text);
                }
                Value::Number(number) => targets.add(role, &number.to_string()),
                Value::Array(items) => stack.extend(items.iter().rev().map(|item| (role, item))),
                Value::Object(fields) if role == Some(Role::Whom) => {
                    // One person, as an object: its email and its name are one recipient.
                    let options: Vec<&str> = fields
                        .iter()
                        .filter(|(key, _)| self::role(key).is_some())
                        .filter_map(|(_, value)| value.as_str())
                        .collect();
                    targets.person(&options);
                }
                Value::Object(fields) => {
                    for (key, inner) in fields.iter().rev() {
                        let here = self::role(key);
                        if here == Some(Role::What) && words(key).iter().any(|w| w == "id") {
                            targets.by_id = true;
                            let id = match inner {
                                Value::String(text) => Some(text.clone()),
                                Value::Number(number) => Some(number.to_string()),
                                _ => None,
                            };
                            if let Some(options) = id.map(|id| item_options(&id))
                                && !options.is_empty()
                                && !targets.ids.contains(&options)
                            {
                                targets.ids.push(options);
                            }
                        }
                        stack.push((here.or(role), inner));
                    }
                }
                Value::Null | Value::Bool(_) => {}
            }
        }
        if targets.whom.len() + targets.what.len() + targets.links.len() > MOST_NAMES {
            targets.too_many = true;
        }
        targets
    }

    /// The web addresses in a value: words starting `http://`, `https://` or `www.`.
    fn link(&mut self, text: &str) {
        for word in
            text.split(|c: char| c.is_whitespace() || matches!(c, '<' | '>' | '(' | ')' | '"'))
        {
            let word = fold(word.trim_end_matches(['.', ',', ';', ':', '!', '?']));
            let bare = word
                .strip_prefix("https://")
                .or_else(|| word.strip_prefix("http://"))
                .unwrap_or(&word);
            if !(word.starts_with("http://")
                || word.starts_with("https://")
                || bare.starts_with("www."))
            {
                continue;
            }
            let host = bare.split(['/', '?', '#']).next().unwrap_or(bare);
            let mut options = vec![word.clone()];
            for form in [bare, host, host.strip_prefix("www.").unwrap_or(host)] {
                if form.chars().count() >= SHORTEST && !options.iter().any(|o| o == form) {
                    options.push(form.to_string());
                }
            }
            if !self.links.contains(&options) {
                self.links.push(options);
            }
        }
    }

    fn add(&mut self, role: Option<Role>, text: &str) {
        match role {
            Some(Role::Whom) => {
                for one in text
                    .split([',', ';'])
                    .map(str::trim)
                    .filter(|t| !t.is_empty())
                {
                    self.person(&[one]);
                }
            }
            // A constant the tool takes, not a thing's name (`"event": "APPROVE"`, `"state":
            // "OPEN"`): nobody names what they ask for so, in any language.
            Some(Role::What) if is_constant(text) => {}
            Some(Role::What) => {
                let options = item_options(text);
                if !options.is_empty() && !self.what.contains(&options) {
                    self.what.push(options);
                }
            }
            Some(Role::When) => {
                for option in date_options(text) {
                    if !self.when.contains(&option) {
                        self.when.push(option);
                    }
                }
            }
            None => {}
        }
    }

    /// One recipient, by any of these (an object's email and name).
    fn person(&mut self, options: &[&str]) {
        let mut emails = Vec::new();
        let mut names: Vec<String> = Vec::new();
        for option in options {
            let bare = fold(option.trim().trim_start_matches(['@', '#']));
            if bare.chars().count() < SHORTEST {
                continue;
            }
            if is_email(&bare) {
                emails.push(bare);
            } else {
                let spaced = crate::intent::spaced(&bare);
                if spaced != bare && spaced.chars().count() >= SHORTEST {
                    names.push(spaced);
                }
                names.push(bare);
            }
        }
        // An address is an alternative like any name; the reader also names it by its
        // local part.
        names.extend(emails);
        let name = Name::AnyOf(names);
        // INVARIANT: a recipient too short to tell apart can't be named (an empty AnyOf).
        if !self.whom.contains(&name) {
            self.whom.push(name);
        }
    }

    /// Whom the step speaks or grants to, each a name the message must carry.
    pub fn whom(&self) -> Vec<Name> {
        self.guarded(self.whom.clone())
    }

    /// Whether the one item is known only by an id, with no date to name it by.
    pub fn only_an_id(&self) -> bool {
        self.by_id && self.when.is_empty()
    }

    /// Whom the step speaks to and every link it sends: what a message must name.
    pub fn whom_and_links(&self) -> Vec<Name> {
        let mut names = self.whom.clone();
        names.extend(self.links.iter().cloned().map(Name::AnyOf));
        self.guarded(names)
    }

    /// What the step changes, each item a name the message must carry. An item known only
    /// by its id is named by the date the act is about as well ("move it to May 20": the
    /// date is the change); an item with a name or a title must be called by it, so a
    /// hotel booked on the dates the person said is not the hotel they named.
    pub fn what(&self) -> Vec<Name> {
        // An item with a name beside its id is called by its name ("delete the Q3 report":
        // `file_id` and `name`): the id is no name the message must carry as well.
        let named: Vec<Vec<String>> = self
            .what
            .iter()
            .filter(|options| !self.ids.contains(options))
            .cloned()
            .collect();
        let items = if !named.is_empty() && named.len() < self.what.len() {
            named
        } else {
            self.what.clone()
        };
        let mut what: Vec<Name> = match items.as_slice() {
            [] if self.when.is_empty() => Vec::new(),
            [] => vec![Name::AnyOf(self.when.clone())],
            [one] if self.by_id => {
                let mut options = one.clone();
                options.extend(self.when.iter().cloned());
                vec![Name::AnyOf(options)]
            }
            many => many.iter().cloned().map(Name::AnyOf).collect(),
        };
        what.retain(|name| !matches!(name, Name::AnyOf(options) if options.is_empty()));
        self.guarded(what)
    }

    /// With more names than can be read, one that no message carries.
    fn guarded(&self, mut names: Vec<Name>) -> Vec<Name> {
        if self.too_many {
            names.push(Name::AnyOf(Vec::new()));
        }
        names
    }
}

fn is_email(text: &str) -> bool {
    match text.split_once('@') {
        Some((local, domain)) => {
            !local.is_empty() && domain.contains('.') && !text.contains(char::is_whitespace)
        }
        None => false,
    }
}

/// What a person may call an item by: its name or title whole, a path's file name, a file
/// name with or without its extension, each also with `.`, `_` and `-` read as spaces.
pub fn item_options(text: &str) -> Vec<String> {
    let whole = fold(text.trim());
    if whole.chars().count() < SHORTEST && !whole.chars().all(|c| c.is_ascii_digit()) {
        return Vec::new();
    }
    let mut out = vec![whole.clone()];
    if whole.len() > LONGEST || whole.contains(char::is_whitespace) {
        return out;
    }
    let base = whole
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or(&whole)
        .to_string();
    let stem = match base.rsplit_once('.') {
        Some((stem, ext))
            if !stem.is_empty()
                && (1..=5).contains(&ext.len())
                && ext.chars().all(|c| c.is_ascii_alphanumeric()) =>
        {
            Some(stem.to_string())
        }
        _ => None,
    };
    for option in [Some(base.clone()), stem].into_iter().flatten() {
        let spaced = crate::intent::spaced(&option);
        for form in [option, spaced] {
            if form.chars().count() >= SHORTEST && !out.contains(&form) {
                out.push(form);
            }
        }
    }
    out
}

/// The ways a person writes a date given as `YYYY-MM-DD…`: as given, and with the month's
/// name in any of the seven languages ("may 19", "19 may", "19th may", "19. mai", "19 de
/// mayo"). Any other value of a date is named only whole ("friday").
pub fn date_options(text: &str) -> Vec<String> {
    let folded = fold(text.trim());
    let bytes = folded.as_bytes();
    let iso = bytes.len() >= 10
        && bytes[..10].iter().enumerate().all(|(i, b)| {
            if i == 4 || i == 7 {
                *b == b'-'
            } else {
                b.is_ascii_digit()
            }
        });
    if !iso {
        return if folded.chars().count() >= SHORTEST && folded.len() <= LONGEST {
            vec![folded]
        } else {
            Vec::new()
        };
    }
    let date = &folded[..10];
    let month: usize = date[5..7].parse().unwrap_or(0);
    let day: u32 = date[8..10].parse().unwrap_or(0);
    let mut out = vec![date.to_string()];
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return out;
    }
    let ordinal = match (day % 10, day) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    for (_, line) in MONTHS {
        let Some(name) = line.get(month - 1) else {
            continue;
        };
        for form in [
            format!("{name} {day}"),
            format!("{name} {day}{ordinal}"),
            format!("{day} {name}"),
            format!("{day}{ordinal} {name}"),
            format!("{day}{ordinal} of {name}"),
            format!("{day}. {name}"),
            format!("{day} de {name}"),
        ] {
            if !out.contains(&form) {
                out.push(form);
            }
        }
    }
    out
}
