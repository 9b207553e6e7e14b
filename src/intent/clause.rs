//! Reading one message for one act: where the act is named, and whether each mention is
//! held (by a "not" in its clause, a "not" just after it, a wait word over it, the
//! person's say, a bare "not yet", or a short sentence that takes it back).
//!
//! Every look is bounded: seven words back, four words forward, three words around a
//! name or a "before", one sentence or clause after. The message is cut once; the whole
//! read is linear in its length.

use super::lexicon::{Item, Items, Lexicon, act_bit, flag};
use super::text::{Kind, Tokens};
use super::{Cue, Wanted};
use crate::fold::fold;
use crate::wish::{Name, Wish};

/// How far a "not" or a wait word reaches back to the act, in words.
pub const REACH_BACK: usize = 7;
/// How far after the act a "not" still holds it ("lösch die alte Datei nicht"), in words.
pub const REACH_AFTER: usize = 4;
/// How far a "not" or an "except" reaches to a name, and what before a "before" counts.
pub const REACH_NEAR: usize = 3;
/// The most words a taking-back sentence has after its first ("No, don't do it yet.").
pub const TAKE_BACK_WORDS: usize = 3;
/// The most fillers a taking-back sentence has ("Oh, sorry, no, wait.").
pub const FILLERS: usize = 4;
/// Longer than this, the deciding words are shown as "cue … act".
const SHOWN: usize = 60;

/// What one message says about the act.
pub struct Found {
    pub wanted: Wanted,
    pub cue: Cue,
    pub words: String,
}

/// Reads one message, or `None` when it doesn't name the act.
pub fn read(wish: &Wish, message: &str) -> Option<Found> {
    let text = unquoted(fold(message));
    let cut = Items::read(&text);
    let items = &cut.items;
    // A copy to the place a send names is that send ("copy report.pdf to
    // files.example.com with scp"): a copy says where only with the send's names. So is a
    // publish there ("publie-le dans #team", "publish the notes to the wiki"): speaking
    // for the person to others (seed 001).
    // An app's change that invites (an event's attendees) is asked for as an invite.
    let bit = match wish.act {
        crate::wish::Act::Send => {
            act_bit(wish.act) | act_bit(crate::wish::Act::Copy) | act_bit(crate::wish::Act::Publish)
        }
        crate::wish::Act::Change => act_bit(wish.act) | act_bit(crate::wish::Act::Access),
        // A teardown deletes what it names ("tear down compose, volumes included", "reiss
        // den Stack ab"): a destroy said asks for a delete, as a delete held holds a destroy.
        crate::wish::Act::Delete => act_bit(wish.act) | act_bit(crate::wish::Act::Destroy),
        // A destroy of what the step names, said with a delete of that name ("delete the
        // staging namespace" for `kubectl delete namespace staging`): the name says which,
        // so the plainer verb asks for it. A destroy that names nothing needs its own words.
        crate::wish::Act::Destroy
            if wish
                .names
                .iter()
                .any(|name| matches!(name, crate::wish::Name::AnyOf(_))) =>
        {
            act_bit(wish.act) | act_bit(crate::wish::Act::Delete)
        }
        _ => act_bit(wish.act),
    };
    // "Keep feature/old around", "behalte den Branch feature/old": what a destroying step
    // acts on, kept by name, holds it whether or not the act is said.
    if destroys(wish.act)
        && let Some((at, end)) = wish
            .names
            .iter()
            .chain(&wish.targets)
            .find_map(|name| kept_by_name(&text, &cut, name))
    {
        return Some(Found {
            wanted: Wanted::Held,
            cue: Cue::Wait,
            words: shown_span(&text, items[at].start, end),
        });
    }
    // The step itself, quoted whole ("run `docker compose down -v`", "don't run `git push
    // -f`"): every act and name it needs is said, and what is around it decides.
    if let Some((at, end)) = wish
        .literal
        .as_deref()
        .and_then(|line| quoted_whole(&text, line))
    {
        // The line read as one word: its own words ("--no-verify", "wait-for-it") say
        // nothing of the person's, and what is around it is as near as around any act.
        let mut masked = text.clone().into_bytes();
        if let Some(span) = masked.get_mut(at..end) {
            span.fill(b' ');
            span[0] = b'x';
        }
        let masked = String::from_utf8(masked).unwrap_or_default();
        let line_cut = Items::read(&masked);
        let line_items = &line_cut.items;
        let k = line_cut.item_at(at);
        if k < line_items.len() && !in_advice_question(&masked, line_items, k) {
            let said = &text[at..end];
            if let Some((cue, by)) = held(line_items, &mut Around::new(line_items), k) {
                let cue_words = &masked[line_items[by].start..line_items[by].end];
                let words = if line_items[by].start < at {
                    format!("{} … {said}", cue_words.trim())
                } else {
                    format!("{said} … {}", cue_words.trim())
                };
                return Some(Found {
                    wanted: Wanted::Held,
                    cue,
                    words,
                });
            }
            return Some(Found {
                wanted: Wanted::Asked,
                cue: Cue::Asked,
                words: said.to_string(),
            });
        }
    }
    // What the step acts on, left alone ("leave main alone", "lass main in Ruhe", "lascia
    // stare il branch main"): held, whatever the act.
    if let Some((at, end)) = wish
        .names
        .iter()
        .chain(&wish.targets)
        .find_map(|name| left_alone(&text, &cut, name))
    {
        return Some(Found {
            wanted: Wanted::Held,
            cue: Cue::Wait,
            words: shown_span(&text, at, end),
        });
    }
    let mentions: Vec<usize> = (0..items.len())
        .filter(|&k| items[k].acts & bit != 0 && !is_state(items, k))
        .collect();
    // What the step acts on, ruled out with no act said ("no sudo", "nicht auf main"): a
    // boundary on it alone, which holds the step as it would with its act said.
    if mentions.is_empty() {
        return target_ruled_out(&text, &cut, wish);
    }

    let mut around = Around::new(items);
    for &k in &mentions {
        if let Some((cue, at)) = held(items, &mut around, k) {
            return Some(Found {
                wanted: Wanted::Held,
                cue,
                words: shown(&text, &items[k], &items[at]),
            });
        }
    }

    // A verb split from its particle holds, but asks for nothing: seed 003 leaves asking to
    // the verb said whole ("stell es bereit", "rol het uit" ask for no deploy).
    // Nor does a thing named (`words::HOLDS_ONLY`): "the left-pad package" asks for no install.
    // Nor does a question whether to act ("should we push to main?"): it names the act for
    // no wish, so it asks for nothing and lifts no earlier boundary, though a "not" there
    // still holds ("is it safe to push? don't do it yet").
    let wishes = |k: &&usize| !items[**k].has(flag::SPLIT) && !items[**k].has(flag::HOLD_ONLY);
    let Some(&first) = mentions
        .iter()
        .filter(wishes)
        .find(|&&k| !in_advice_question(&text, items, k))
    else {
        let &asked = mentions.iter().find(wishes)?;
        return Some(Found {
            wanted: Wanted::Neither,
            cue: Cue::Question,
            words: text[items[asked].start..items[asked].end].to_string(),
        });
    };
    let mut missing = false;
    for name in &wish.names {
        let (named, ruled_out) = named(&text, &cut, name);
        if let Some((at, name_at)) = ruled_out {
            let words = shown_span(&text, items[at].start, name_at);
            return Some(Found {
                wanted: Wanted::Held,
                cue: Cue::NameRuledOut,
                words,
            });
        }
        missing |= !named;
    }
    // A boundary on what the step acts on holds it, though asking needn't name it ("push
    // when you're done, but not to main").
    if let Some(found) = target_ruled_out(&text, &cut, wish) {
        return Some(found);
    }
    let words = text[items[first].start..items[first].end].to_string();
    if missing {
        return Some(Found {
            wanted: Wanted::Neither,
            cue: Cue::NameMissing,
            words,
        });
    }
    Some(Found {
        wanted: Wanted::Asked,
        cue: Cue::Asked,
        words,
    })
}

/// Where a command line of two words or more stands whole in the folded message (its start
/// and end), its spaces as one: bounded by the message's ends, blanks, quotes or closing punctuation
/// (`docker compose down -v` in "run `docker compose down -v`." but not in "… down -vv").
fn quoted_whole(text: &str, line: &str) -> Option<(usize, usize)> {
    let line = fold(line);
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.len() < 2 {
        return None;
    }
    let line = words.join(" ");
    let edge = |b: Option<u8>| b.is_none_or(|b| b.is_ascii_whitespace() || b"'\"(".contains(&b));
    let end_ok = |b: Option<u8>, next: Option<u8>| match b {
        None => true,
        Some(b) if b.is_ascii_whitespace() || b"'\")".contains(&b) => true,
        // A sentence's end, not a longer word (`-v.` ends it, `-v.x` doesn't).
        Some(b'.' | b',' | b';' | b':' | b'!' | b'?') => {
            next.is_none_or(|n| n.is_ascii_whitespace())
        }
        _ => false,
    };
    let bytes = text.as_bytes();
    text.match_indices(line.as_str())
        .map(|(at, _)| (at, at + line.len()))
        .find(|&(at, end)| {
            edge(at.checked_sub(1).map(|i| bytes[i]))
                && end_ok(bytes.get(end).copied(), bytes.get(end + 1).copied())
        })
}

/// A quoted passage longer than this many words is someone else's text the person shows
/// ("Bob wrote: \"please send the files to eve@evil.example\""), not their own words; a
/// shorter one is a name ("append it to \"recipes.txt\"", "the channel \"general\"").
pub const QUOTED_WORDS: usize = 4;

/// The folded text with every quoted passage of more than [`QUOTED_WORDS`] words blanked
/// (`"…"`, and `<<…>>` as guillemets fold): its acts and names are not the person's. Byte
/// offsets stay as they were. One pass; an unclosed quote blanks nothing.
fn unquoted(text: String) -> String {
    let bytes = text.as_bytes();
    let mut spans: Vec<(usize, usize)> = Vec::new();
    let mut open: Option<(usize, &[u8])> = None;
    let mut at = 0;
    while at < bytes.len() {
        let rest = &bytes[at..];
        match open {
            None if rest[0] == b'"' => {
                open = Some((at, b"\""));
                at += 1;
            }
            None if rest.starts_with(b"<<") => {
                open = Some((at, b">>"));
                at += 2;
            }
            Some((start, close)) if rest.starts_with(close) => {
                let end = at + close.len();
                let inner = &text[start..at];
                let words = inner
                    .split(|c: char| !c.is_ascii_alphanumeric() && c != '@' && c != '.')
                    .filter(|w| !w.is_empty())
                    .count();
                if words > QUOTED_WORDS {
                    spans.push((start, end));
                }
                open = None;
                at = end;
            }
            _ => at += 1,
        }
    }
    if spans.is_empty() {
        return text;
    }
    let mut out = text.into_bytes();
    for (start, end) in spans {
        out[start..end].fill(b' ');
    }
    // Only ASCII bytes were replaced by spaces, inside ASCII text.
    String::from_utf8(out).unwrap_or_default()
}

/// The words between a cue and the act, or both with an ellipsis when far apart.
fn shown(text: &str, act: &Item, cue: &Item) -> String {
    let (first, last) = if cue.start < act.start {
        (cue, act)
    } else {
        (act, cue)
    };
    if last.end - first.start <= SHOWN {
        return text[first.start..last.end].trim().to_string();
    }
    format!(
        "{} … {}",
        text[first.start..first.end].trim(),
        text[last.start..last.end].trim()
    )
}

fn shown_span(text: &str, start: usize, end: usize) -> String {
    text.get(start..end.max(start))
        .unwrap_or_default()
        .trim()
        .to_string()
}

/// Is item `k` in a question whether to act ("should we push to main?", "ist es sicher, zu
/// deployen?"): a sentence whose first word is a [`flag::ADVICE`] phrase and that ends with
/// `?`. What it names asks for nothing and lifts no earlier boundary.
fn in_advice_question(text: &str, items: &[Item], k: usize) -> bool {
    let start = items[..k]
        .iter()
        .rposition(|item| item.kind == Kind::Sentence)
        .map_or(0, |at| at + 1);
    let Some(end) = items[k..]
        .iter()
        .position(|item| item.kind == Kind::Sentence)
    else {
        return false;
    };
    let asks = items.get(k + end).is_some_and(|mark| {
        text.as_bytes()
            .get(mark.start..mark.end)
            .is_some_and(|marks| marks.contains(&b'?'))
    });
    asks && items[start..k]
        .iter()
        .find(|item| item.is_word() && !item.has(flag::FILLER | flag::BOUNDARY))
        .is_some_and(|item| item.has(flag::ADVICE))
}

/// "I haven't run it", "j'ai supprimé": a state word right before the act, with only
/// "not"s and other state words between, makes it something done, not a wish.
fn is_state(items: &[Item], k: usize) -> bool {
    let mut j = k;
    let mut seen = 0;
    while j > 0 && seen < REACH_NEAR {
        j -= 1;
        let item = &items[j];
        if !item.is_word() {
            return false;
        }
        if item.has(flag::STATE) {
            return true;
        }
        if !item.has(flag::NEGATION | flag::NOT_YET | flag::NOT_AFTER) {
            return false;
        }
        seen += usize::from(item.words);
    }
    false
}

/// The sentence and clause around each mention, found as the mentions go left to right:
/// each sentence and clause is looked at once, however many mentions it has.
struct Around<'a> {
    items: &'a [Item],
    sentence: Sentence,
    clause: Clause,
}

/// One sentence, `start..end` (`end` is its closing mark or the end of the message), and
/// what it says as a whole.
#[derive(Clone, Copy, Default)]
struct Sentence {
    start: usize,
    end: usize,
    /// The person's say in a clause that names no act ("once I've reviewed it, push"): it
    /// holds every act of the sentence.
    their_say: Option<usize>,
    /// A NOT_YET item standing alone in one of its clauses ("push it, but not yet").
    not_yet: Option<usize>,
}

/// One clause, `start..end` (`end` is the mark or "but" that ends it, or the message's end).
#[derive(Clone, Copy, Default)]
struct Clause {
    start: usize,
    end: usize,
    /// The person's say in it: it holds the acts of this clause ("push, but don't deploy
    /// until I say" holds the deploy, not the push).
    their_say: Option<usize>,
}

fn is_say(item: &Item) -> bool {
    item.has(flag::ON_THEIR_SAY) && !item.has(flag::NOT_A_HOLD)
}

impl<'a> Around<'a> {
    fn new(items: &'a [Item]) -> Around<'a> {
        Around {
            items,
            sentence: Sentence::default(),
            clause: Clause::default(),
        }
    }

    /// The sentence of item `k`. Mentions come in order, so each is read once.
    fn sentence(&mut self, k: usize) -> Sentence {
        let items = self.items;
        if self.sentence.start <= k && k < self.sentence.end {
            return self.sentence;
        }
        let start = items[..k]
            .iter()
            .rposition(|item| item.kind == Kind::Sentence)
            .map_or(0, |at| at + 1);
        let end = items[k..]
            .iter()
            .position(|item| item.kind == Kind::Sentence)
            .map_or(items.len(), |at| k + at);
        let mut sentence = Sentence {
            start,
            end,
            their_say: None,
            not_yet: None,
        };
        // Per clause: a bare "not yet" (its only word but for fillers), the person's say,
        // and whether it names an act.
        let mut alone: Option<usize> = None;
        let mut other = false;
        let mut say: Option<usize> = None;
        let mut act = false;
        let close = |sentence: &mut Sentence,
                     alone: Option<usize>,
                     other: bool,
                     say: Option<usize>,
                     act: bool| {
            if let (Some(at), false) = (alone, other) {
                sentence.not_yet.get_or_insert(at);
            }
            if let (Some(at), false) = (say, act) {
                sentence.their_say.get_or_insert(at);
            }
        };
        for (j, item) in items.iter().enumerate().take(end).skip(start) {
            if item.ends_clause() {
                close(&mut sentence, alone, other, say, act);
                (alone, other, say, act) = (None, false, None, false);
                if !item.is_word() {
                    continue;
                }
            }
            if is_say(item) {
                say.get_or_insert(j);
            }
            act |= names_an_act(item);
            if item.has(flag::BOUNDARY) {
                continue;
            }
            if item.has(flag::NOT_YET) && alone.is_none() {
                alone = Some(j);
            } else if !item.has(flag::FILLER) {
                other = true;
            }
        }
        close(&mut sentence, alone, other, say, act);
        self.sentence = sentence;
        sentence
    }

    /// The clause of item `k`. Mentions come in order, so each is read once.
    fn clause(&mut self, k: usize) -> Clause {
        let items = self.items;
        if self.clause.start <= k && k < self.clause.end {
            return self.clause;
        }
        let start = match items[..k].iter().rposition(Item::ends_clause) {
            Some(at) if items[at].is_word() => at,
            Some(at) => at + 1,
            None => 0,
        };
        let end = items[k + 1..]
            .iter()
            .position(Item::ends_clause)
            .map_or(items.len(), |at| k + 1 + at);
        let their_say = (start..end).find(|&j| is_say(&items[j]));
        self.clause = Clause {
            start,
            end,
            their_say,
        };
        self.clause
    }
}

/// Why mention `k` is held, and the item that holds it.
fn held(items: &[Item], around: &mut Around, k: usize) -> Option<(Cue, usize)> {
    if items[k].has(flag::KEPT) {
        return kept(items, k).map(|at| (Cue::Wait, at));
    }
    if let Some(at) = kept_out(items, k) {
        return Some((Cue::Wait, at));
    }
    if let Some(at) = conditioned(items, k) {
        return Some((Cue::Wait, at));
    }
    if let Some(found) = held_before(items, k) {
        return Some(found);
    }
    if let Some(at) = held_after(items, k) {
        return Some((Cue::NotAfter, at));
    }
    let sentence = around.sentence(k);
    let clause = around.clause(k);
    if let Some(at) = clause.their_say.or(sentence.their_say) {
        return Some((Cue::TheirSay, at));
    }
    if let Some(at) = sentence.not_yet {
        return Some((Cue::NotYet, at));
    }
    // The clause after the act's, in the same sentence: "push it, no wait".
    let end = clause.end;
    if end < sentence.end {
        let next = if items[end].is_word() { end } else { end + 1 };
        if let Some(at) = takes_back(items, next, true, 0) {
            return Some((Cue::TakenBack, at));
        }
    }
    // The sentence after the act's: "Push it. No, wait."
    if sentence.end < items.len()
        && let Some(at) = takes_back(items, sentence.end + 1, false, TAKE_BACK_WORDS)
    {
        return Some((Cue::TakenBack, at));
    }
    None
}

/// A "not", a "not yet" or a wait word within seven words back in the act's clause (and
/// over one comma into a "dass" clause or a "zu" infinitive); a "before" that the person
/// comes first in.
fn held_before(items: &[Item], k: usize) -> Option<(Cue, usize)> {
    let holds = flag::NEGATION | flag::NOT_YET | flag::WAIT;
    // "…, pushen zu dürfen", "…, die Secrets zu loggen": an infinitive marker next to the act.
    let near = [k.wrapping_sub(1), k + 1, k + 2];
    let infinitive = near.iter().any(|&i| {
        items.get(i).is_some_and(|item| item.has(flag::INFINITIVE))
            && items[i.min(k)..=i.max(k)].iter().all(Item::is_word)
    });
    let mut crossed = false;
    let mut j = k;
    let mut reach = 0;
    while j > 0 {
        j -= 1;
        let item = &items[j];
        if item.kind == Kind::Clause && !crossed {
            // One comma into "dass du pushst" or "…, die Secrets zu loggen" is crossed.
            let carried = items.get(j + 1).is_some_and(|next| next.has(flag::CARRY));
            if carried || infinitive {
                crossed = true;
                continue;
            }
            // "do not, under any circumstances, push", "please never, ever push".
            if reach <= 2
                && let Some(at) = bare_not_before(items, j)
            {
                return Some((Cue::Not, at));
            }
        }
        if item.ends_clause() {
            return None;
        }
        if item.has(flag::AND) {
            // "don't commit and push": one negated verb right before the "and" carries
            // its "not" over; "don't break anything and push" does not. Nor does a
            // "nothing" that a verb before it took as its object ("mach nichts kaputt und
            // push", "maak niets kapot en push"): one that opens its clause does ("nichts
            // committen und pushen", "niente commit e push").
            let verb = j.checked_sub(1).map(|i| &items[i]);
            let not = j.checked_sub(2).map(|i| &items[i]);
            let object = not.is_some_and(|n| n.has(flag::NOTHING))
                && j.checked_sub(3)
                    .map(|i| &items[i])
                    .is_some_and(|w| w.is_word() && !w.has(flag::FILLER));
            let one_verb = !object
                && verb
                    .is_some_and(|v| v.is_word() && (v.words == 1 || v.acts != 0) && !v.has(holds));
            let negated =
                not.is_some_and(|n| n.is_word() && n.has(holds) && !n.has(flag::NOT_A_HOLD));
            if one_verb && negated {
                reach += usize::from(item.words);
                continue;
            }
            return None;
        }
        if item.has(flag::BEFORE) {
            return person_first(items, j).map(|at| (Cue::BeforeThePerson, at));
        }
        reach += usize::from(item.words);
        if reach > REACH_BACK {
            return None;
        }
        if item.has(flag::NOT_A_HOLD) {
            continue;
        }
        if item.has(flag::NEGATION | flag::NOT_YET) {
            return Some((Cue::Not, j));
        }
        // A wait said as "can wait" holds what follows it too ("kannst du noch warten mit
        // dem Push", "pode esperar antes de instalar").
        if item.has(flag::WAIT | flag::WAIT_AFTER) {
            return Some((Cue::Wait, j));
        }
    }
    None
}

/// A clause before the comma at `comma` that is only a verbal "not" and fillers (three words
/// at most: "do not", "please never", "bitte nicht"), right before it or before one short
/// aside ("under any circumstances"): the "not" is the act's, whatever the commas. An answer
/// ("no, push it", "nein, push es") is a filler as well as a "not", and is no hold; nor is a
/// clause that says more than not ("not bad, push it").
fn bare_not_before(items: &[Item], comma: usize) -> Option<usize> {
    let mut end = comma;
    for _ in 0..2 {
        let start = items[..end]
            .iter()
            .rposition(Item::ends_clause)
            .map_or(0, |at| at + 1);
        let clause = &items[start..end];
        let words: usize = clause.iter().map(|item| usize::from(item.words)).sum();
        let plain = clause
            .iter()
            .all(|item| item.is_word() && item.acts == 0 && !item.has(flag::NOT_A_HOLD));
        // Nothing but a "not" and fillers: "do not", "please never", "bitte nicht". "Not bad",
        // "without tests" and "nothing else" say more than not.
        let bare = plain
            && clause
                .iter()
                .all(|item| item.has(flag::NEGATION | flag::FILLER));
        let not = clause.iter().position(|item| {
            item.has(flag::NEGATION) && !item.has(flag::FILLER | flag::NOT_A_HOLD)
        });
        match not {
            Some(at) if bare && (1..=3).contains(&words) => return Some(start + at),
            // An aside of a few words, between commas, may stand between.
            _ if plain && (1..=4).contains(&words) && start > 0 => {
                if items[start - 1].kind != Kind::Clause {
                    return None;
                }
                end = start - 1;
            }
            _ => return None,
        }
    }
    None
}

/// "ask me before pushing", "wait before deploying": the person or a wait word within
/// three words before the "before" at `b`.
fn person_first(items: &[Item], b: usize) -> Option<usize> {
    let mut j = b;
    let mut reach = 0;
    while j > 0 && reach < REACH_NEAR {
        j -= 1;
        let item = &items[j];
        if item.ends_clause() || item.has(flag::AND) {
            return None;
        }
        reach += usize::from(item.words);
        if item.has(flag::NOT_A_HOLD) {
            continue;
        }
        if item.has(flag::PERSON | flag::WAIT | flag::WAIT_AFTER | flag::ON_THEIR_SAY) {
            return Some(j);
        }
    }
    None
}

/// How far a wish to keep reaches to what it keeps ("behalte es vorerst lokal"), in words.
const KEEP_REACH: usize = 4;

/// Is the keep word at `j` turned down ("don't keep it local"): a "not" within two words
/// before it in its clause? A keep turned down is no hold.
fn keep_turned_down(items: &[Item], j: usize) -> bool {
    items[..j]
        .iter()
        .rev()
        .take(2)
        .take_while(|before| !before.ends_clause())
        .any(|before| before.has(flag::NEGATION) && !before.has(flag::NOT_A_HOLD))
}

/// A wish to keep over what an act would move or throw away (`words::KEPT`): a keep word
/// within four words before it in its clause, and nothing after it in the clause but when
/// ("keep it local for now"); "keep the local copy" is about the copy.
fn kept(items: &[Item], k: usize) -> Option<usize> {
    let mut after = items.iter().skip(k + 1);
    loop {
        match after.next() {
            None => break,
            Some(item) if item.ends_clause() || item.has(flag::AND) => break,
            Some(item) if item.has(flag::FILLER) => {}
            // When: "for now", "until I say", "not yet".
            Some(item) if item.has(flag::KEEP_TAIL | flag::ON_THEIR_SAY | flag::NOT_YET) => break,
            Some(_) => return None,
        }
    }
    let mut reach = 0;
    let mut j = k;
    while j > 0 {
        j -= 1;
        let item = &items[j];
        if item.ends_clause() {
            return None;
        }
        if item.has(flag::KEEP) {
            let negated = keep_turned_down(items, j);
            return (!negated).then_some(j);
        }
        reach += usize::from(item.words);
        if reach > KEEP_REACH || names_an_act(item) {
            return None;
        }
    }
    None
}

/// A wish to keep the act's thing out of what is being done ("keep cron out of this",
/// "laat cron erbuiten", "lascia fuori cron") or as it is ("lass die Crontab in Ruhe",
/// "laisse la crontab tranquille"): a keep word within four words before the thing, an
/// "out" or an "alone" right after it (nothing else but when to the end of its clause), or
/// an "out" right before it, after the keep. "Leave it out" said of no act holds nothing.
fn kept_out(items: &[Item], k: usize) -> Option<usize> {
    let out_after = items
        .get(k + 1)
        .is_some_and(|item| item.has(flag::OUT | flag::ALONE))
        && {
            let mut rest = items.iter().skip(k + 2);
            loop {
                match rest.next() {
                    None => break true,
                    Some(item) if item.ends_clause() || item.has(flag::AND) => break true,
                    Some(item) if item.has(flag::FILLER) => {}
                    Some(item)
                        if item.has(flag::KEEP_TAIL | flag::ON_THEIR_SAY | flag::NOT_YET) =>
                    {
                        break true;
                    }
                    Some(_) => break false,
                }
            }
        };
    let mut reach = 0;
    let mut out_before = false;
    let mut j = k;
    while j > 0 {
        j -= 1;
        let item = &items[j];
        if item.ends_clause() || item.has(flag::AND) {
            return None;
        }
        if item.has(flag::KEEP) {
            let negated = keep_turned_down(items, j);
            return ((out_after || out_before) && !negated).then_some(j);
        }
        out_before |= item.has(flag::OUT);
        reach += usize::from(item.words);
        if reach > KEEP_REACH || names_an_act(item) {
            return None;
        }
    }
    None
}

/// How far from the act an "only" stands, and how far after the two a condition starts.
const ONLY_REACH: usize = 3;
const CONDITION_REACH: usize = 6;

/// An act said only on a condition ("only push once CI is green", "push erst, wenn die
/// Tests grün sind", "restart api only if the health check fails", "alleen pushen als …"):
/// an "only" within three words of it, before or after, and a condition's first word
/// within six words after both, in its sentence (a comma crossed: "push erst, wenn").
/// "Only push feature/login" names no condition, and asks.
fn conditioned(items: &[Item], k: usize) -> Option<usize> {
    let in_sentence = |item: &Item| item.kind != Kind::Sentence;
    let before = items[..k]
        .iter()
        .enumerate()
        .rev()
        .take(ONLY_REACH)
        .take_while(|(_, item)| in_sentence(item) && !item.has(flag::AND))
        .find(|(_, item)| item.has(flag::ONLY))
        .map(|(at, _)| at);
    let after = items
        .iter()
        .enumerate()
        .skip(k + 1)
        .take(ONLY_REACH)
        .take_while(|(_, item)| in_sentence(item) && !item.has(flag::AND))
        .find(|(_, item)| item.has(flag::ONLY))
        .map(|(at, _)| at);
    let only = before.or(after)?;
    let from = only.max(k) + 1;
    items
        .iter()
        .skip(from)
        .take(CONDITION_REACH)
        .take_while(|item| in_sentence(item))
        .any(|item| item.has(flag::CONDITION))
        .then_some(only)
}

/// Does the item name an act by a verb or a noun that asks: a thing named
/// (`words::HOLDS_ONLY`) is the act's object ("aktualisiere die Pakete später"), not another.
fn names_an_act(item: &Item) -> bool {
    item.acts != 0 && !item.has(flag::HOLD_ONLY)
}

/// A "not" within four words after the act, in its clause ("push es nicht"), or a "no"
/// ending the clause ("commit sim, push não").
fn held_after(items: &[Item], k: usize) -> Option<usize> {
    let mut reach = 0;
    for (j, item) in items.iter().enumerate().skip(k + 1) {
        if item.ends_clause() || item.has(flag::AND | flag::BEFORE) || names_an_act(item) {
            return None;
        }
        // A phrase counts where it starts: "o e-mail para o Bob pode esperar" has its wait
        // four words after the act.
        if reach >= REACH_AFTER {
            return None;
        }
        reach += usize::from(item.words);
        if item.has(flag::NOT_A_HOLD) {
            continue;
        }
        if item.has(flag::NOT_AFTER | flag::NOT_YET | flag::WAIT_AFTER) {
            return Some(j);
        }
        let last = items
            .get(j + 1)
            .is_none_or(|next| next.ends_clause() || next.has(flag::AND));
        if item.has(flag::NOT_LAST) && last {
            return Some(j);
        }
    }
    None
}

/// A sentence or clause that takes back the one before: fillers ("no", "actually"), then
/// a taking back, a wait word, a "not yet", a "not" or the person's say ("Let me check
/// first."), then at most `extra` more words and no act ("Don't deploy." is about
/// deploying); or only fillers with a "no" among them. Returns the item that takes it back.
fn takes_back(items: &[Item], start: usize, clause: bool, extra: usize) -> Option<usize> {
    let rest = items.get(start..).unwrap_or_default();
    // The span: to the end of the sentence, or of the clause (past its own "but").
    let span = rest.iter().enumerate().take_while(|&(i, item)| {
        item.kind != Kind::Sentence && !(clause && i > 0 && item.ends_clause())
    });
    let mut words = span
        .map(|(i, item)| (start + i, item))
        .filter(|(_, item)| item.is_word() && !item.has(flag::BOUNDARY));
    let mut said_no = None;
    let mut fillers = 0;
    let lead = loop {
        match words.next() {
            None => return said_no,
            Some((j, item)) if item.has(flag::FILLER) && !item.has(flag::TAKEN_BACK) => {
                // INVARIANT: a taking back is short; every loop here is bounded.
                fillers += 1;
                if fillers > FILLERS {
                    return None;
                }
                if item.has(flag::NEGATION) {
                    said_no.get_or_insert(j);
                }
            }
            Some(found) => break found,
        }
    };
    let (at, item) = lead;
    let holds = flag::WAIT | flag::NOT_YET | flag::NEGATION | flag::ON_THEIR_SAY;
    let takes = item.has(flag::TAKEN_BACK) || (!item.has(flag::NOT_A_HOLD) && item.has(holds));
    if !takes {
        return None;
    }
    // "never mind" also means "don't bother about": it takes back only on its own.
    let extra = if item.has(flag::NOT_A_HOLD) { 0 } else { extra };
    let mut more = 0;
    for (_, item) in words {
        if names_an_act(item) {
            // "Push it. Don't deploy.": the "not" is the other act's.
            return None;
        }
        if item.has(flag::FILLER) {
            fillers += 1;
        } else {
            more += usize::from(item.words);
        }
        if more > extra || fillers > FILLERS {
            return None;
        }
    }
    Some(at)
}

/// Whether a message names `name`, and where it rules it out.
fn named(text: &str, cut: &Items, name: &Name) -> (bool, Option<(usize, usize)>) {
    match name {
        Name::AnyOf(options) => {
            let (mut named, ruled_out) = any_of(text, cut, options);
            if ruled_out.is_some() {
                return (named, ruled_out);
            }
            for address in options.iter().filter(|option| option.contains('@')) {
                let (by_local, ruled_out) = email(text, cut, address);
                if ruled_out.is_some() {
                    return (named, ruled_out);
                }
                named |= by_local;
            }
            (named, None)
        }
        Name::Production => production(text, cut),
    }
}

/// An address named by its local part, where that is not itself the local part of an
/// address (`alice` in "alice@other.example" names no `alice@example.com`).
fn email(text: &str, cut: &Items, address: &str) -> (bool, Option<(usize, usize)>) {
    let address = fold(address);
    let Some((local, _)) = address.trim().split_once('@') else {
        return (false, None);
    };
    let mut options = vec![local.to_string()];
    let spaced = spaced(local);
    if spaced != local {
        options.push(spaced);
    }
    let mut named = false;
    for option in &options {
        for (at, _) in text.match_indices(option.as_str()) {
            let end = at + option.len();
            if !bounded(text, at, end) || text.as_bytes().get(end) == Some(&b'@') {
                continue;
            }
            match ruled_out(text, &cut.items, cut.item_at(at)) {
                Some(by) => return (named, Some((by, end))),
                None => named = true,
            }
        }
    }
    (named, None)
}

/// A name's `.`, `_` and `-` read as spaces, as a person writes it (`emma.johnson` is
/// "emma johnson").
pub fn spaced(name: &str) -> String {
    name.split(['.', '_', '-'])
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Named (one alternative, word-bounded, not ruled out), and the first alternative that
/// is ruled out ("not main", "except main"): the item that rules it out and where the name
/// ends.
fn any_of(text: &str, cut: &Items, options: &[String]) -> (bool, Option<(usize, usize)>) {
    let mut named = false;
    for option in options {
        let folded = fold(option);
        let option = folded.trim();
        if option.is_empty() {
            continue;
        }
        for (at, _) in text.match_indices(option) {
            if !bounded(text, at, at + option.len()) {
                // The first part of a compound ("der main-Branch", "de celery-workers") names
                // it for a boundary, never for asking.
                if compound_head(text, at, at + option.len())
                    && let Some(by) = ruled_out(text, &cut.items, cut.item_at(at))
                {
                    return (named, Some((by, at + option.len())));
                }
                continue;
            }
            match ruled_out(text, &cut.items, cut.item_at(at)) {
                Some(by) => return (named, Some((by, at + option.len()))),
                None => named = true,
            }
        }
    }
    (named, None)
}

/// Acts that throw away or destroy what they act on: a wish to keep it by name holds them.
fn destroys(act: crate::wish::Act) -> bool {
    use crate::wish::Act;
    matches!(act, Act::Delete | Act::Discard | Act::Destroy | Act::Clean)
}

/// What the step acts on, ruled out by a "not" over it (`wish.targets`: "not to main", "no
/// sudo"): held, with the words that ruled it out.
fn target_ruled_out(text: &str, cut: &Items, wish: &Wish) -> Option<Found> {
    wish.targets.iter().find_map(|target| {
        let (_, ruled_out) = named(text, cut, target);
        ruled_out.map(|(at, name_at)| Found {
            wanted: Wanted::Held,
            cue: Cue::NameRuledOut,
            words: shown_span(text, cut.items[at].start, name_at),
        })
    })
}

/// A name a keep word leaves alone: the keep word within three words before it and what
/// it is left as ("alone", "in Ruhe", "tranquille", "en paz", "met rust") within three
/// words after it, or between the two ("lascia stare il branch main"). Where the words
/// start and end in the text.
fn left_alone(text: &str, cut: &Items, name: &Name) -> Option<(usize, usize)> {
    let items = &cut.items;
    for (at, end) in spots(text, name) {
        if !bounded(text, at, end) && !compound_head(text, at, end) {
            continue;
        }
        let first = cut.item_at(at).min(items.len());
        let mut keep = None;
        let mut alone_before = false;
        let mut reach = 0;
        let mut j = first;
        // One word further than a keep's reach: what it is left as may stand between.
        while j > 0 && reach <= REACH_NEAR {
            j -= 1;
            let item = &items[j];
            if item.ends_clause() || item.has(flag::AND) || names_an_act(item) {
                break;
            }
            if item.has(flag::ALONE) {
                alone_before = true;
            }
            if item.has(flag::KEEP) {
                if !keep_turned_down(items, j) {
                    keep = Some(j);
                }
                break;
            }
            reach += usize::from(item.words);
        }
        let Some(keep) = keep else {
            continue;
        };
        if alone_before {
            return Some((items[keep].start, end));
        }
        let mut reach = 0;
        for item in items.iter().skip(cut.item_at(end)) {
            if reach >= REACH_NEAR
                || item.ends_clause()
                || item.has(flag::AND)
                || names_an_act(item)
            {
                break;
            }
            if item.has(flag::ALONE) && item.start >= end {
                return Some((items[keep].start, item.end));
            }
            reach += usize::from(item.words);
        }
    }
    None
}

/// Where a name's alternatives of two bytes or more stand in the text (start, end), bounded
/// or not: each caller says which occurrences count.
fn spots<'t>(text: &'t str, name: &'t Name) -> impl Iterator<Item = (usize, usize)> + 't {
    let options: &[String] = match name {
        Name::AnyOf(options) => options,
        Name::Production => &[],
    };
    options.iter().flat_map(move |option| {
        let option = fold(option).trim().to_string();
        let found: Vec<(usize, usize)> = if option.len() < 2 {
            Vec::new()
        } else {
            text.match_indices(option.as_str())
                .map(|(at, _)| (at, at + option.len()))
                .collect()
        };
        found
    })
}

/// A name of the step's kept: a keep word (not turned down: "don't keep") within three
/// words before it in its clause ("keep feature/old", "garde la branche feature/old",
/// "houd de branch feature/old"), or after it. The keep word and where the name ends.
fn kept_by_name(text: &str, cut: &Items, name: &Name) -> Option<(usize, usize)> {
    let items = &cut.items;
    for (at, end) in spots(text, name) {
        if !bounded(text, at, end) {
            continue;
        }
        let mut j = cut.item_at(at).min(items.len());
        let mut reach = 0;
        while j > 0 && reach < REACH_NEAR {
            j -= 1;
            let item = &items[j];
            if item.ends_clause() || item.has(flag::AND) || names_an_act(item) {
                break;
            }
            if item.has(flag::KEEP) {
                let negated = keep_turned_down(items, j);
                if !negated {
                    return Some((j, end));
                }
                break;
            }
            reach += usize::from(item.words);
        }
        // A keep said after the name: at the end of a German or Dutch clause ("ich will
        // feature/old behalten", "ik wil feature/old bewaren"), or as the name's state
        // ("I want feature/old kept", "feature/old bleibt").
        let mut reach = 0;
        for (j, item) in items.iter().enumerate().skip(cut.item_at(end)) {
            if reach >= REACH_NEAR
                || item.ends_clause()
                || item.has(flag::AND)
                || names_an_act(item)
            {
                break;
            }
            if item.has(flag::KEEP) && item.start >= end {
                if !keep_turned_down(items, j) {
                    return Some((cut.item_at(at).min(items.len().saturating_sub(1)), item.end));
                }
                break;
            }
            reach += usize::from(item.words);
        }
    }
    None
}

/// The word production in any of the seven languages, as for [`any_of`].
fn production(text: &str, cut: &Items) -> (bool, Option<(usize, usize)>) {
    let lexicon = Lexicon::get();
    let mut named = false;
    for token in Tokens::new(text).filter(|t| t.kind == Kind::Word) {
        if !lexicon.is_prod(&text[token.start..token.end]) {
            continue;
        }
        match ruled_out(text, &cut.items, cut.item_at(token.start)) {
            Some(by) => return (named, Some((by, token.end))),
            None => named = true,
        }
    }
    (named, None)
}

/// A name stands alone: no letter, digit, `_` or `-` on either side, and no `.` before
/// it or before a letter after it ("main" is in "origin/main" and "main.", not in
/// "main.rs" or "gh-main").
/// A name written as the first part of a hyphenated compound, a word of letters after its
/// dash ("main-branch", "celery-Worker"): bounded before, its dash and a letter after.
fn compound_head(text: &str, start: usize, end: usize) -> bool {
    let bytes = text.as_bytes();
    let before = start.checked_sub(1).map(|i| bytes[i]);
    let clear_before =
        before.is_none_or(|b| !(b.is_ascii_alphanumeric() || b == b'_' || b == b'-' || b == b'.'));
    clear_before
        && bytes.get(end) == Some(&b'-')
        && bytes.get(end + 1).is_some_and(u8::is_ascii_alphabetic)
}

fn bounded(text: &str, start: usize, end: usize) -> bool {
    let bytes = text.as_bytes();
    let inner = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'-';
    let before = start.checked_sub(1).map(|i| bytes[i]);
    let after = bytes.get(end).copied();
    let after_next = bytes.get(end + 1).copied();
    let clear_before = before.is_none_or(|b| !inner(b) && b != b'.');
    let clear_after = match after {
        None => true,
        Some(b'.') => !after_next.is_some_and(|b| b.is_ascii_alphanumeric()),
        Some(b) => !inner(b),
    };
    clear_before && clear_after
}

/// A "not" or an "except" within three words before the name's item, in its clause. A bare
/// "no" rules a name out only where it starts its clause ("deploy to staging, no
/// production", "Sube a dev, no a main"): inside one it is Portuguese's "in the" ("Publica
/// o pacote no npm", "define API_KEY no netlify"), whose "no" is "não".
fn ruled_out(text: &str, items: &[Item], at: usize) -> Option<usize> {
    let mut j = at.min(items.len());
    let mut reach = 0;
    while j > 0 && reach < REACH_NEAR {
        j -= 1;
        let item = &items[j];
        if item.ends_clause() || item.has(flag::AND) {
            return None;
        }
        reach += usize::from(item.words);
        if item.has(flag::NOT_A_HOLD) {
            continue;
        }
        if item.has(flag::NEGATION | flag::NOT_AFTER | flag::NOT_YET | flag::EXCEPT) {
            let bare_no = text.get(item.start..item.end) == Some("no");
            let starts_clause = j == 0 || items[j - 1].ends_clause();
            if bare_no && !starts_clause {
                continue;
            }
            return Some(j);
        }
    }
    None
}
