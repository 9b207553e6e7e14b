//! The behaviour watch (seed 001): every app step is counted by kind against the chat's own
//! counts (this step, this turn, the last day), and the thresholds (LIMITS) are data. A count
//! asks at each multiple of its threshold, so a yes lets the next batch through; a stop is
//! refused in every mode with its reason and one next step. Plain counters, no model: the
//! same answer every time. Pure: the turn's start and the time come in as values.
//!
//! The runtime calls [`counts`] for an app step, [`watch`] with the chat's counts, and joins
//! the risks into the law's verdict ([`judge`]); it records the step's counts
//! (`Event::Judged { counts }`) only for a step that goes ahead, so a no keeps asking.

use crate::law::rule::RuleId;
#[cfg(test)]
mod tests;

use crate::chat::DAY_MS;
use crate::facts::Facts;
use crate::fold::fold;
use crate::intent::words::Lang::{De, En, Es, Fr, It, Nl, Pt};
use crate::intent::words::Table;
use crate::law::{self, app};
use crate::step::{AppStep, Context, Step};
use crate::verdict::{Harm, Risk, Verdict};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// Messages sent for the person (a step the rules read as speaking: send, post, reply,
/// invite…), one a step.
pub const MESSAGES: &str = "messages";
/// People a step reaches: the addresses and ids it names, at least one for a message.
pub const RECIPIENTS: &str = "recipients";
/// Things deleted: one a delete, or as many as its arrays of ids hold.
pub const DELETES: &str = "deletes";
/// Payments, one a step.
pub const PAYMENTS: &str = "payments";
/// The family of "the same change": `changes:<app>:<tool>:<hash>`, one kind for each
/// distinct change (the tool and its arguments), every change counted once.
pub const CHANGES: &str = "changes:";

/// Which counts a limit adds up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Window {
    /// This step alone (one message to a crowd).
    Step,
    /// This turn: since the turn's start, which the runtime passes in.
    Turn,
    /// The last 24 hours (`DAY_MS`).
    Day,
}

/// What a limit does when its count reaches it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Asks when the count crosses a multiple of the threshold (100, 200…), so a yes lets
    /// the next batch through. Severe and lasting, so Auto asks; `full_trust`: on Full
    /// trust's irreducible list, so it asks there too.
    AskAtEachMultiple { full_trust: bool },
    /// Refused in every mode, Full trust too, once the count reaches the threshold; the
    /// reason ends with `next`, the one next step.
    Stop { next: &'static str },
}

/// One threshold.
#[derive(Debug, Clone, Copy)]
pub struct Limit {
    /// `watch.<name>`: no Always-allow-one-command rule lifts a `watch.` id (`rules.rs`).
    pub rule: RuleId,
    /// The kind counted; a kind ending in `:` (`changes:`) counts each kind under it apart.
    pub kind: &'static str,
    pub window: Window,
    pub threshold: u32,
    pub action: Action,
    /// What the count is, as the reason says it: `{n}` is the count with this step, `{tool}`
    /// the changed tool.
    pub says: &'static str,
    /// Why it matters, one plain sentence without its final period.
    pub reason: &'static str,
    /// (already counted in the window, this step adds): must fire (checked by a test).
    pub fires: &'static [(u32, u32)],
    /// Must not fire.
    pub spares: &'static [(u32, u32)],
}

/// The next step for a spam-sized send.
const MAILING_SERVICE: &str =
    "For a real mailing list, a mailing service made for it lets people unsubscribe";

/// The thresholds. Each asks or stops on its own; a step over several gets one question
/// with every reason (the verdict joins them). Why each number:
#[rustfmt::skip]
pub const LIMITS: [Limit; 11] = [
    // Seed 001: "a newsletter to 30 people asks once". A note to a team or a family rarely
    // reaches thirty; a newsletter does. Auto asks; Full trust lets it go.
    Limit {
        rule: RuleId::WatchRecipients, kind: RECIPIENTS, window: Window::Step, threshold: 30,
        action: Action::AskAtEachMultiple { full_trust: false },
        says: "this step reaches {n} people",
        reason: "one message to thirty people or more is a mailing rather than a note",
        fires: &[(0, 30), (0, 31), (0, 499)], spares: &[(0, 1), (0, 29), (200, 1)],
    },
    // A hundred people at once is a crowd: the seed's larger ones ask in Full trust too.
    Limit {
        rule: RuleId::WatchCrowd, kind: RECIPIENTS, window: Window::Step, threshold: 100,
        action: Action::AskAtEachMultiple { full_trust: true },
        says: "this step reaches {n} people",
        reason: "a hundred people at once is a crowd, and warden asks before speaking to one in any mode",
        fires: &[(0, 100), (0, 250)], spares: &[(0, 99), (99, 1)],
    },
    // Seed 001: "nobody's trust reaches five hundred people with one message": on Full
    // trust's irreducible list beside the circuit breaker, refused in every mode.
    Limit {
        rule: RuleId::WatchStopRecipients, kind: RECIPIENTS, window: Window::Step, threshold: 500,
        action: Action::Stop { next: MAILING_SERVICE },
        says: "this step would reach {n} people",
        reason: "nobody's trust reaches five hundred people with one message",
        fires: &[(0, 500), (0, 10_000)], spares: &[(0, 499), (499, 1)],
    },
    // A spam-sized send: a thousand people in a day from one chat, one message each or a
    // few hundred at a time, is mass mailing whatever each step looked like.
    Limit {
        rule: RuleId::WatchStopRecipientsDay, kind: RECIPIENTS, window: Window::Day, threshold: 1_000,
        action: Action::Stop { next: MAILING_SERVICE },
        says: "this chat would have reached {n} people in the last day",
        reason: "a thousand people in a day from one chat is a mass mailing",
        fires: &[(999, 1), (700, 300), (1_000, 1)], spares: &[(998, 1), (0, 499)],
    },
    // A burst: a person asks for a handful of messages in one request; twenty in one turn
    // is a loop or a mass send. Auto asks.
    Limit {
        rule: RuleId::WatchMessagesTurn, kind: MESSAGES, window: Window::Turn, threshold: 20,
        action: Action::AskAtEachMultiple { full_trust: false },
        says: "this chat would have sent {n} messages this turn",
        reason: "twenty messages in one turn is a burst rather than a reply",
        fires: &[(19, 1), (39, 1)], spares: &[(0, 1), (18, 1), (20, 1), (21, 1)],
    },
    // Seed 001: "a person who sends 150 messages a day from one chat hears about it at
    // 100": more than a busy person's own day of mail, so Full trust hears too; one
    // question per hundred.
    Limit {
        rule: RuleId::WatchMessagesDay, kind: MESSAGES, window: Window::Day, threshold: 100,
        action: Action::AskAtEachMultiple { full_trust: true },
        says: "this chat would have sent {n} messages in the last day",
        reason: "a hundred messages a day from one chat is more than a person's own day of mail",
        fires: &[(99, 1), (199, 1), (150, 50)], spares: &[(0, 1), (98, 1), (100, 1), (149, 1)],
    },
    // A run of deletes: each delete the person asked for goes, but twenty in one turn is
    // a clean-up that should be seen once. Auto asks.
    Limit {
        rule: RuleId::WatchDeletesTurn, kind: DELETES, window: Window::Turn, threshold: 20,
        action: Action::AskAtEachMultiple { full_trust: false },
        says: "this chat would have deleted {n} things this turn",
        reason: "twenty deletes in one turn is a run of deletes that can't be taken back",
        fires: &[(19, 1), (0, 25), (39, 2)], spares: &[(0, 1), (18, 1), (20, 5)],
    },
    // A hundred deletes in one turn is a mass delete: asked in Full trust too.
    Limit {
        rule: RuleId::WatchMassDelete, kind: DELETES, window: Window::Turn, threshold: 100,
        action: Action::AskAtEachMultiple { full_trust: true },
        says: "this chat would have deleted {n} things this turn",
        reason: "a hundred deletes in one turn is a mass delete, and warden asks before one in any mode",
        fires: &[(99, 1), (0, 100), (150, 60)], spares: &[(0, 99), (100, 1)],
    },
    // Every payment already asks (app.pays is NEVER and irreducible); the count says how
    // many: a shopping errand is one order or two, five in a day is a pattern.
    Limit {
        rule: RuleId::WatchPaymentsDay, kind: PAYMENTS, window: Window::Day, threshold: 5,
        action: Action::AskAtEachMultiple { full_trust: true },
        says: "this chat would have paid {n} times in the last day",
        reason: "five payments in a day from one chat is a pattern rather than an errand",
        fires: &[(4, 1), (9, 1)], spares: &[(0, 1), (3, 1), (5, 1)],
    },
    // A loop: the same tool with the same arguments needs one call; a retry or two is
    // normal, five in one turn is an agent going round. Auto asks.
    Limit {
        rule: RuleId::WatchSameChange, kind: CHANGES, window: Window::Turn, threshold: 5,
        action: Action::AskAtEachMultiple { full_trust: false },
        says: "this chat would have called {tool} with the same arguments {n} times this turn",
        reason: "the same change five times in one turn looks like a loop",
        fires: &[(4, 1), (9, 1)], spares: &[(0, 1), (3, 1), (5, 1)],
    },
    // Twenty times the same change in one turn is a runaway loop: asked in Full trust too.
    Limit {
        rule: RuleId::WatchLoop, kind: CHANGES, window: Window::Turn, threshold: 20,
        action: Action::AskAtEachMultiple { full_trust: true },
        says: "this chat would have called {tool} with the same arguments {n} times this turn",
        reason: "the same change twenty times in one turn is a runaway loop, and warden asks about one in any mode",
        fires: &[(19, 1), (39, 1)], spares: &[(0, 1), (18, 1), (20, 1)],
    },
];

/// What one app step adds to the chat's counts, by kind. A lookup adds nothing; every
/// change adds its `changes:` kind; a message, its recipients, a delete and a payment add
/// theirs as the app rules read the step (`law::app`).
pub fn counts(step: &AppStep) -> Vec<(String, u32)> {
    let Some(acts) = app::acts(step) else {
        return Vec::new();
    };
    let speaks = is_message(&step.tool, &acts);
    let mut out = Vec::new();
    if speaks {
        out.push((MESSAGES.to_string(), 1));
    }
    let reached = reached(&step.arguments, speaks);
    // INVARIANT: a message reaches at least one person.
    let reached = if speaks { reached.max(1) } else { reached };
    if reached > 0 {
        out.push((RECIPIENTS.to_string(), reached));
    }
    if acts.contains(&"app.deletes") {
        out.push((DELETES.to_string(), deleted(&step.arguments).max(1)));
    }
    if acts.contains(&"app.pays") {
        out.push((PAYMENTS.to_string(), 1));
    }
    out.push((change(step), 1));
    out
}

/// The person's own thresholds, by rule id (`[limits.watch]` in the configuration), in place
/// of LIMITS' numbers. Checked by [`thresholds`]: a stop may only come sooner.
pub type Thresholds = BTreeMap<String, u32>;

/// Checks the person's thresholds: every rule one of LIMITS', every number above zero, and a
/// stop never later than LIMITS says (nobody's trust reaches five hundred people with one
/// message, whatever a file says). The error names the rule.
pub fn thresholds(given: &BTreeMap<String, u32>) -> Result<Thresholds, String> {
    for (rule, n) in given {
        let Some(limit) = LIMITS.iter().find(|limit| limit.rule == rule.as_str()) else {
            let known: Vec<&str> = LIMITS.iter().map(|limit| limit.rule.name()).collect();
            return Err(format!(
                "`{rule}` is not one of the behaviour watch's limits ({})",
                known.join(", ")
            ));
        };
        if *n == 0 {
            return Err(format!("`{rule}` must be above zero"));
        }
        if matches!(limit.action, Action::Stop { .. }) && *n > limit.threshold {
            return Err(format!(
                "`{rule}` is a stop: it may come sooner than {} but never later",
                limit.threshold
            ));
        }
    }
    Ok(given.clone())
}

/// The risks of adding `adding` (a step's [`counts`]) to a chat that counted `counted`
/// (`ChatState::counts`: when, kind, how many), in a turn that started at `turn_start_ms`,
/// at `now_ms`. For each limit and each kind it counts: the count before and after this
/// step in its window; an ask when they fall on two sides of a multiple, a stop when the
/// count after reaches it. Only what this step adds can fire: a lookup after a big day
/// asks nothing.
pub fn watch(
    counted: &[(i64, String, u32)],
    turn_start_ms: i64,
    now_ms: i64,
    adding: &[(String, u32)],
    thresholds: &Thresholds,
) -> Vec<Risk> {
    let mut added: BTreeMap<&str, u64> = BTreeMap::new();
    for (kind, n) in adding {
        let total = added.entry(kind.as_str()).or_default();
        *total = total.saturating_add(u64::from(*n));
    }
    let mut risks = Vec::new();
    for limit in &LIMITS {
        for (kind, n) in &added {
            if *n == 0 || !limit.covers(kind) {
                continue;
            }
            let before = match limit.window {
                Window::Step => 0,
                Window::Turn => sum(counted, kind, turn_start_ms),
                Window::Day => sum(counted, kind, now_ms.saturating_sub(DAY_MS)),
            };
            let threshold = thresholds
                .get(limit.rule.name())
                .copied()
                .unwrap_or(limit.threshold);
            risks.extend(limit.risk(kind, threshold, before, before.saturating_add(*n)));
        }
    }
    risks
}

/// The law's verdict for a step with the watch's risks joined in: for an app step, its
/// risks beside the app rules' before deciding; any other step is the law's alone.
pub fn judge(step: &Step, ctx: &Context, facts: &dyn Facts, watched: Vec<Risk>) -> Verdict {
    match step {
        Step::App(app_step) => {
            let (mut found, ctx) = law::assess_app(app_step, ctx, facts);
            found.risks.extend(watched);
            law::decide(found, &ctx)
        }
        _ => law::judge(step, ctx, facts),
    }
}

impl Limit {
    /// Whether this limit counts `kind`.
    pub fn covers(&self, kind: &str) -> bool {
        if self.kind.ends_with(':') {
            kind.starts_with(self.kind)
        } else {
            kind == self.kind
        }
    }

    /// The risk of going from `before` to `after` in this limit's window, if any.
    fn risk(&self, kind: &str, threshold: u32, before: u64, after: u64) -> Option<Risk> {
        let threshold = u64::from(threshold);
        let says = self
            .says
            .replace("{n}", &after.to_string())
            .replace("{tool}", &changed_tool(kind));
        match self.action {
            Action::AskAtEachMultiple { full_trust } => {
                let (Some(was), Some(is)) =
                    (before.checked_div(threshold), after.checked_div(threshold))
                else {
                    return None;
                };
                if was >= is {
                    return None;
                }
                let again = match self.window {
                    Window::Step => String::new(),
                    Window::Turn | Window::Day => {
                        format!(
                            "; warden asks again at {}",
                            is.saturating_add(1).saturating_mul(threshold)
                        )
                    }
                };
                let risk = Risk::new(
                    self.rule,
                    Harm::Severe,
                    true,
                    format!("{says}: {}{again}", self.reason),
                )
                .never();
                Some(if full_trust { risk.irreducible() } else { risk })
            }
            Action::Stop { next } => {
                if threshold == 0 || after < threshold {
                    return None;
                }
                let risk = Risk::new(
                    self.rule,
                    Harm::Severe,
                    true,
                    format!("{says}: {}. {next}", self.reason),
                );
                Some(risk.refused())
            }
        }
    }
}

/// Verbs in a tool's name that handle a message already there rather than send one
/// (`modify_email`, `archive_message`, `mark_as_read`, `edit_message`): the law reads the
/// noun (`email`, `message`) as speaking, which asks, but the watch counts no message for
/// them, or a day of triage would read as a mass mailing. One word each, folded.
#[rustfmt::skip]
pub const HANDLES: Table = &[
    (En, &["archive", "edit", "flag", "hide", "label", "mark", "modify", "move", "mute", "pin", "snooze", "star", "tag", "unarchive", "unflag", "unlabel", "unpin", "unstar", "untag", "update"]),
    (De, &["aendern", "aktualisiere", "aktualisieren", "andern", "archiviere", "archivieren", "bearbeite", "bearbeiten", "markiere", "markieren", "verschiebe", "verschieben"]),
    (Fr, &["archiver", "deplace", "deplacer", "marque", "marquer", "modifie", "modifier"]),
    (Es, &["actualiza", "actualizar", "archiva", "archivar", "edita", "editar", "etiqueta", "etiquetar", "marca", "marcar", "modifica", "modificar", "mover", "mueve"]),
    (Pt, &["arquiva", "arquivar", "atualiza", "atualizar", "edita", "editar", "marca", "marcar", "modifica", "modificar", "move", "mover"]),
    (It, &["aggiorna", "aggiornare", "archivia", "archiviare", "modifica", "modificare", "segna", "segnare", "sposta", "spostare"]),
    (Nl, &["archiveer", "archiveren", "bewerk", "bewerken", "markeer", "markeren", "verplaats", "verplaatsen", "wijzig", "wijzigen"]),
];

/// A message sent for the person: the rules read the step as speaking, and it neither
/// deletes (deleting a message sends nothing) nor handles one already there (`HANDLES`).
fn is_message(tool: &str, acts: &[&str]) -> bool {
    acts.contains(&"app.speaks")
        && !acts.contains(&"app.deletes")
        && !name_words(tool).iter().any(|word| {
            HANDLES
                .iter()
                .any(|(_, line)| line.contains(&word.as_str()))
        })
}

/// A tool's name cut into folded words at every character that is not a letter or a digit
/// and where a lower-case letter meets a capital (`markAsRead`, `mark-as-read`).
fn name_words(name: &str) -> Vec<String> {
    let mut cut = String::with_capacity(name.len() + 8);
    let mut prev: Option<char> = None;
    for c in name.chars() {
        if prev.is_some_and(char::is_lowercase) && c.is_uppercase() {
            cut.push(' ');
        }
        cut.push(c);
        prev = Some(c);
    }
    fold(&cut)
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|word| !word.is_empty())
        .map(str::to_string)
        .collect()
}

/// How many of `kind` were counted since `since_ms`.
fn sum(counted: &[(i64, String, u32)], kind: &str, since_ms: i64) -> u64 {
    counted
        .iter()
        .filter(|(at, k, _)| *at >= since_ms && k == kind)
        .map(|(_, _, n)| u64::from(*n))
        .sum()
}

/// `send_email in gmail` for `changes:gmail:send_email:…`.
fn changed_tool(kind: &str) -> String {
    let Some(rest) = kind.strip_prefix(CHANGES) else {
        return String::new();
    };
    let named = rest.rsplit_once(':').map_or(rest, |(named, _)| named);
    match named.split_once(':') {
        Some((app, tool)) => format!("{tool} in {app}"),
        None => named.to_string(),
    }
}

/// Fields that name the people a change reaches whatever it is (a draft's addressees too:
/// sending it later names only its id), folded to lower-case letters and digits.
#[rustfmt::skip]
const ADDRESSED: &[&str] = &[
    "assignee", "assignees", "attendees", "bcc", "bccrecipients", "cc", "ccrecipients", "guests",
    "invitees", "optionalattendees", "participants", "recipient", "recipients", "requiredattendees",
    "reviewers", "teamreviewers", "to", "torecipients",
];

/// Fields that name people or places full of them only when the step speaks (invite these
/// users, post to these channels): in any other change they are what it changes.
#[rustfmt::skip]
const NAMED_WHEN_SPEAKING: &[&str] = &[
    "channelids", "channels", "conversationids", "emailaddresses", "emails", "memberids",
    "members", "phonenumbers", "userids", "usernames", "users",
];

/// An argument's name as the tables write it: `toRecipients`, `to_recipients` and
/// `to-recipients` are `torecipients`.
fn folded_key(key: &str) -> String {
    key.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// How many distinct people the arguments address, however deep (an explicit stack).
fn reached(arguments: &Value, speaks: bool) -> u32 {
    let mut people: BTreeSet<String> = BTreeSet::new();
    let mut stack: Vec<&Value> = vec![arguments];
    while let Some(value) = stack.pop() {
        match value {
            Value::Object(fields) => {
                for (key, inner) in fields {
                    let key = folded_key(key);
                    let named = ADDRESSED.contains(&key.as_str())
                        || speaks && NAMED_WHEN_SPEAKING.contains(&key.as_str());
                    if named {
                        people.extend(listed(inner));
                    } else {
                        stack.push(inner);
                    }
                }
            }
            Value::Array(items) => stack.extend(items),
            Value::String(_) | Value::Number(_) | Value::Bool(_) | Value::Null => {}
        }
    }
    count(people.len())
}

/// How many things a delete names: the entries of every list of ids (`ids`, `message_ids`,
/// `blockIds`), as an array or a comma-separated string; 0 when it names no list.
fn deleted(arguments: &Value) -> u32 {
    let mut n = 0usize;
    let mut stack: Vec<&Value> = vec![arguments];
    while let Some(value) = stack.pop() {
        match value {
            Value::Object(fields) => {
                for (key, inner) in fields {
                    if folded_key(key).ends_with("ids") {
                        n = n.saturating_add(listed(inner).len());
                    } else {
                        stack.push(inner);
                    }
                }
            }
            Value::Array(items) => stack.extend(items),
            Value::String(_) | Value::Number(_) | Value::Bool(_) | Value::Null => {}
        }
    }
    count(n)
}

/// The entries of a list-valued argument, each once: strings cut at `,`, `;` and line ends
/// outside quotes (`"Doe, Jane" <jane@x.com>` is one), an address in `<…>` standing for
/// its entry, lower-cased; numbers as written; any other entry (`{"emailAddress": …}`) by
/// its canonical hash.
fn listed(value: &Value) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut stack: Vec<&Value> = vec![value];
    while let Some(value) = stack.pop() {
        match value {
            Value::String(text) => out.extend(addresses(text)),
            Value::Number(number) => {
                out.insert(number.to_string());
            }
            Value::Array(items) => stack.extend(items),
            Value::Object(_) => {
                out.insert(format!("#{:016x}", canonical_hash(&[], value)));
            }
            Value::Bool(_) | Value::Null => {}
        }
    }
    out
}

/// The addresses in one string.
fn addresses(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut quoted = false;
    let mut start = 0;
    for (at, c) in text.char_indices() {
        match c {
            '"' => quoted = !quoted,
            ',' | ';' | '\n' | '\r' if !quoted => {
                out.extend(address(&text[start..at]));
                start = at + c.len_utf8();
            }
            _ => {}
        }
    }
    out.extend(address(&text[start..]));
    out
}

/// One address, or none for an empty piece: `Jane <jane@x.com>` is `jane@x.com`.
fn address(piece: &str) -> Option<String> {
    let piece = piece.trim();
    let inner = match (piece.rfind('<'), piece.rfind('>')) {
        (Some(open), Some(close)) if open < close => piece[open + 1..close].trim(),
        _ => piece,
    };
    (!inner.is_empty()).then(|| inner.to_lowercase())
}

fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The kind one change counts under: `changes:<app>:<tool>:<hash>`, the hash over the app,
/// the tool and the arguments in canonical form (keys sorted), so the same change gets the
/// same kind in every run and on every machine.
pub fn change(step: &AppStep) -> String {
    let hash = canonical_hash(&[&step.app, &step.tool], &step.arguments);
    format!("{CHANGES}{}:{}:{hash:016x}", step.app, step.tool)
}

/// FNV-1a, 64 bits.
struct Fnv(u64);

impl Fnv {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;

    fn bytes(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.0 ^= u64::from(*byte);
            self.0 = self.0.wrapping_mul(Fnv::PRIME);
        }
    }

    /// A tagged, length-prefixed piece, so no two shapes hash the same bytes.
    fn piece(&mut self, tag: u8, text: &str) {
        self.bytes(&[tag]);
        self.bytes(&(text.len() as u64).to_be_bytes());
        self.bytes(text.as_bytes());
    }
}

/// One piece of a value in canonical order.
enum Token<'a> {
    Value(&'a Value),
    Key(&'a str),
    End(u8),
}

/// FNV-1a over `names` and the canonical form of `value`: objects' keys sorted, every
/// string and key tagged and length-prefixed. Independent of how the map keeps its keys.
fn canonical_hash(names: &[&str], value: &Value) -> u64 {
    let mut fnv = Fnv(Fnv::OFFSET);
    for name in names {
        fnv.piece(b'n', name);
    }
    let mut stack = vec![Token::Value(value)];
    while let Some(token) = stack.pop() {
        match token {
            Token::Key(key) => fnv.piece(b'k', key),
            Token::End(end) => fnv.bytes(&[end]),
            Token::Value(Value::Null) => fnv.bytes(b"z"),
            Token::Value(Value::Bool(b)) => fnv.bytes(if *b { b"t" } else { b"f" }),
            Token::Value(Value::Number(number)) => fnv.piece(b'#', &number.to_string()),
            Token::Value(Value::String(text)) => fnv.piece(b's', text),
            Token::Value(Value::Array(items)) => {
                fnv.bytes(b"[");
                stack.push(Token::End(b']'));
                stack.extend(items.iter().rev().map(Token::Value));
            }
            Token::Value(Value::Object(fields)) => {
                fnv.bytes(b"{");
                stack.push(Token::End(b'}'));
                let mut entries: Vec<(&String, &Value)> = fields.iter().collect();
                entries.sort_by(|a, b| a.0.cmp(b.0));
                for (key, inner) in entries.into_iter().rev() {
                    stack.push(Token::Value(inner));
                    stack.push(Token::Key(key));
                }
            }
        }
    }
    fnv.0
}
