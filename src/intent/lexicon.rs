//! Every word list in one index, built once: a message's words become items, each the
//! longest phrase any table knows at that point, with every concept and act it stands for.

use super::text::{Kind, Token, Tokens};
use super::words::{self, Table};
use crate::wish::Act;
use std::collections::{HashMap, HashSet, VecDeque};
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

/// A word hash in the manner of rustc's FxHash: words are a few bytes and the index is
/// ours (no one picks its keys), so eight bytes a multiply beats SipHash on the one lookup
/// every word of a message costs.
#[derive(Default)]
pub struct WordHasher(u64);

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl WordHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for WordHasher {
    fn finish(&self) -> u64 {
        // splitmix64's finish: the table takes its slot from the low bits, which the
        // multiplies above leave weak.
        let mut h = self.0;
        h = (h ^ (h >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        h = (h ^ (h >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        h ^ (h >> 31)
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut eight = [0u8; 8];
            eight.copy_from_slice(chunk);
            self.add(u64::from_le_bytes(eight));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            // Byte by byte: a copy of a few bytes would be a call and a stall.
            let tail = rest
                .iter()
                .rev()
                .fold(0u64, |word, b| (word << 8) | u64::from(*b));
            self.add(tail ^ ((rest.len() as u64) << 59));
        }
    }

    fn write_u8(&mut self, byte: u8) {
        self.add(u64::from(byte));
    }
}

type WordHash = BuildHasherDefault<WordHasher>;

/// What a phrase stands for, as bits: a phrase may stand for several at once.
pub mod flag {
    pub const NOT_A_HOLD: u32 = 1 << 0;
    pub const NEGATION: u32 = 1 << 1;
    pub const NOT_AFTER: u32 = 1 << 2;
    pub const NOT_YET: u32 = 1 << 3;
    pub const WAIT: u32 = 1 << 4;
    pub const ON_THEIR_SAY: u32 = 1 << 5;
    pub const TAKEN_BACK: u32 = 1 << 6;
    pub const FILLER: u32 = 1 << 7;
    pub const BOUNDARY: u32 = 1 << 8;
    pub const AND: u32 = 1 << 9;
    pub const BEFORE: u32 = 1 << 10;
    pub const PERSON: u32 = 1 << 11;
    pub const STATE: u32 = 1 << 12;
    pub const EXCEPT: u32 = 1 << 13;
    pub const NOT_LAST: u32 = 1 << 14;
    pub const CARRY: u32 = 1 << 15;
    pub const INFINITIVE: u32 = 1 << 16;
    /// The item names its acts only with a particle later in its clause (`split_verbs`).
    pub const SPLIT: u32 = 1 << 17;
    pub const NOTHING: u32 = 1 << 18;
    /// The item names its acts as a thing (`words::HOLDS_ONLY`): held, never asked.
    pub const HOLD_ONLY: u32 = 1 << 19;
    /// A wish to keep something as it is (`words::KEEP`).
    pub const KEEP: u32 = 1 << 20;
    /// What may follow the kept thing to the end of its clause (`words::KEEP_TAIL`).
    pub const KEEP_TAIL: u32 = 1 << 21;
    /// The item names its acts as what a [`KEEP`] keeps (`words::KEPT`): held only so.
    pub const KEPT: u32 = 1 << 22;
    /// A wait said after the act (`words::WAIT_AFTER`).
    pub const WAIT_AFTER: u32 = 1 << 23;
    /// Adding (`words::ADD`): an install where its clause names a package or a manager.
    pub const ADD: u32 = 1 << 24;
    /// A package manager's name (`words::MANAGERS`).
    pub const MANAGER: u32 = 1 << 25;
    /// Out of what is being done, after a keep (`words::OUT`).
    pub const OUT: u32 = 1 << 26;
    /// Telling someone (`words::TELL`): a send unless it is the person told.
    pub const TELL: u32 = 1 << 27;
    /// "Only" (`words::ONLY`), and what starts a condition (`words::CONDITION`).
    pub const ONLY: u32 = 1 << 28;
    pub const CONDITION: u32 = 1 << 29;
    /// Left as it is, after what a keep keeps (`words::KEPT_ALONE`): "leave cron alone".
    pub const ALONE: u32 = 1 << 30;
    /// A question whether to act (`words::ADVICE`): "should we push?".
    pub const ADVICE: u32 = 1 << 31;
}

/// Every concept table with its flag.
pub const CONCEPTS: [(&str, Table, u32); 29] = [
    ("ADVICE", words::ADVICE, flag::ADVICE),
    ("WAIT_AFTER", words::WAIT_AFTER, flag::WAIT_AFTER),
    ("ALONE", words::KEPT_ALONE, flag::ALONE),
    ("ONLY", words::ONLY, flag::ONLY),
    ("CONDITION", words::CONDITION, flag::CONDITION),
    ("TELL", words::TELL, flag::TELL),
    ("OUT", words::OUT, flag::OUT),
    ("ADD", words::ADD, flag::ADD),
    ("MANAGERS", words::MANAGERS, flag::MANAGER),
    ("KEEP", words::KEEP, flag::KEEP),
    ("KEEP_TAIL", words::KEEP_TAIL, flag::KEEP_TAIL),
    ("NOT_A_HOLD", words::NOT_A_HOLD, flag::NOT_A_HOLD),
    ("NEGATION", words::NEGATION, flag::NEGATION),
    ("NOTHING", words::NOTHING, flag::NOTHING),
    ("NOT_AFTER", words::NOT_AFTER, flag::NOT_AFTER),
    ("NOT_LAST", words::NOT_LAST, flag::NOT_LAST),
    ("NOT_YET", words::NOT_YET, flag::NOT_YET),
    ("WAIT", words::WAIT, flag::WAIT),
    ("ON_THEIR_SAY", words::ON_THEIR_SAY, flag::ON_THEIR_SAY),
    ("TAKEN_BACK", words::TAKEN_BACK, flag::TAKEN_BACK),
    ("FILLER", words::FILLER, flag::FILLER),
    ("BOUNDARY", words::BOUNDARY, flag::BOUNDARY),
    ("CARRY", words::CARRY, flag::CARRY),
    ("INFINITIVE", words::INFINITIVE, flag::INFINITIVE),
    ("AND", words::AND, flag::AND),
    ("BEFORE", words::BEFORE, flag::BEFORE),
    ("PERSON", words::PERSON, flag::PERSON),
    ("STATE", words::STATE, flag::STATE),
    ("EXCEPT", words::EXCEPT, flag::EXCEPT),
];

/// The bit of an act in an item's `acts`.
pub fn act_bit(act: Act) -> u32 {
    let at = Act::ALL.iter().position(|each| *each == act).unwrap_or(0);
    1 << at
}

/// No word: a token no word list knows, or a mark.
const UNKNOWN: u32 = u32::MAX;

/// A trie node: what the phrase ending here stands for, and the words that go on.
#[derive(Default)]
struct Node {
    /// (flags, acts) of the phrase that ends here.
    end: Option<(u32, u32)>,
    /// (word, node), sorted by word.
    next: Vec<(u32, u32)>,
}

/// The index of every word list: each word a number, once, and the phrases as a trie of
/// those numbers, so a message's words are hashed once each and phrases are walked by
/// comparing numbers ("no", "no need to ask", "no reason not to", …).
pub struct Lexicon {
    vocab: HashMap<&'static str, u32, WordHash>,
    /// Node 0 is the root; its children are indexed directly by word (`first`).
    nodes: Vec<Node>,
    /// For each word, the node of the phrases it starts, or UNKNOWN.
    first: Vec<u32>,
    prod: HashSet<&'static str, WordHash>,
    /// Verbs whose particle may stand apart at the end of their clause, from the two-word
    /// wishes that end in one (`roll aus` → "roll das noch nicht aus", `roll out` → "roll
    /// it out"): the verb's word number → (the particle's, the acts).
    split: HashMap<u32, Vec<(u32, u32)>, WordHash>,
}

/// Particles that a German, Dutch or English verb leaves at the end of its clause. Only
/// these split a wish: "go live" never becomes "go and check the site is live".
#[rustfmt::skip]
const PARTICLES: &[&str] = &[
    "ab", "af", "aus", "away", "bereit", "door", "down", "ein", "goed", "hoch", "los", "neu", "off",
    "op", "out", "uit", "up", "weg", "weiter",
];

impl Lexicon {
    fn build() -> Lexicon {
        let mut vocab: HashMap<&'static str, u32, WordHash> = HashMap::default();
        let mut nodes: Vec<Node> = vec![Node::default()];
        let mut first: Vec<u32> = Vec::new();
        let mut add = |entry: &'static str, flags: u32, acts: u32| {
            let mut node: Option<usize> = None;
            for word in entry.split(' ').filter(|w| !w.is_empty()) {
                let next_id = u32::try_from(vocab.len()).unwrap_or(UNKNOWN);
                let id = *vocab.entry(word).or_insert(next_id);
                let fresh = u32::try_from(nodes.len()).unwrap_or(UNKNOWN);
                let child = match node {
                    None => {
                        let slot = usize::try_from(id).unwrap_or(usize::MAX);
                        if first.len() <= slot {
                            first.resize(slot + 1, UNKNOWN);
                        }
                        if first[slot] == UNKNOWN {
                            first[slot] = fresh;
                            nodes.push(Node::default());
                        }
                        first[slot]
                    }
                    Some(parent) => match nodes[parent].next.binary_search_by_key(&id, |(w, _)| *w)
                    {
                        Ok(at) => nodes[parent].next[at].1,
                        Err(at) => {
                            nodes[parent].next.insert(at, (id, fresh));
                            nodes.push(Node::default());
                            fresh
                        }
                    },
                };
                node = usize::try_from(child).ok();
            }
            if let Some(node) = node.and_then(|at| nodes.get_mut(at)) {
                let (known_flags, known_acts) = node.end.get_or_insert((0, 0));
                *known_flags |= flags;
                *known_acts |= acts;
            }
        };
        for (_, table, bit) in CONCEPTS {
            for (_, line) in table {
                for entry in *line {
                    add(entry, bit, 0);
                }
            }
        }
        for (act, table) in words::WISHES {
            for (_, line) in table {
                for entry in *line {
                    add(entry, 0, act_bit(act));
                }
            }
        }
        for (act, table) in words::HOLDS_ONLY {
            for (_, line) in table {
                for entry in *line {
                    add(entry, flag::HOLD_ONLY, act_bit(act));
                }
            }
        }
        for (act, table) in words::KEPT {
            for (_, line) in table {
                for entry in *line {
                    add(entry, flag::HOLD_ONLY | flag::KEPT, act_bit(act));
                }
            }
        }
        first.resize(vocab.len(), UNKNOWN);
        let mut split: HashMap<u32, Vec<(u32, u32)>, WordHash> = HashMap::default();
        for (act, table) in words::WISHES {
            for (_, line) in table {
                for entry in *line {
                    let mut parts = entry.split(' ');
                    if let (Some(verb), Some(particle), None) =
                        (parts.next(), parts.next(), parts.next())
                        && PARTICLES.contains(&particle)
                        && let (Some(&verb), Some(&particle)) =
                            (vocab.get(verb), vocab.get(particle))
                    {
                        split
                            .entry(verb)
                            .or_default()
                            .push((particle, act_bit(act)));
                    }
                }
            }
        }
        let prod = words::PROD_WORDS
            .iter()
            .flat_map(|(_, line)| line.iter().copied())
            .collect();
        Lexicon {
            vocab,
            nodes,
            first,
            prod,
            split,
        }
    }

    /// The number of a word, or UNKNOWN.
    fn id(&self, word: &str) -> u32 {
        self.vocab.get(word).copied().unwrap_or(UNKNOWN)
    }

    /// The node of the phrases word `id` starts.
    fn start(&self, id: u32) -> Option<&Node> {
        let at = *self.first.get(usize::try_from(id).ok()?)?;
        self.nodes.get(usize::try_from(at).ok()?)
    }

    /// The node after `node` for word `id`.
    fn step(&self, node: &Node, id: u32) -> Option<&Node> {
        let at = node.next.binary_search_by_key(&id, |(w, _)| *w).ok()?;
        self.nodes.get(usize::try_from(node.next[at].1).ok()?)
    }

    /// The one index, built on first use.
    pub fn get() -> &'static Lexicon {
        static LEXICON: OnceLock<Lexicon> = OnceLock::new();
        LEXICON.get_or_init(Lexicon::build)
    }

    /// True for a production word (`Name::Production`).
    pub fn is_prod(&self, word: &str) -> bool {
        self.prod.contains(word)
    }
}

/// How many words a verb's particle may stand from it.
const SPLIT_REACH: usize = 8;

/// A verb whose particle comes later in its clause stands for the act the two words are
/// together ("roll das noch nicht aus", "rol het nog niet uit", "don't roll it out yet"): the
/// verb's item takes the act, flagged SPLIT, which holds but never asks (`clause::read`).
/// Linear: each verb looks at most SPLIT_REACH items ahead.
fn split_verbs(lexicon: &Lexicon, text: &str, items: &mut [Item]) {
    if lexicon.split.is_empty() {
        return;
    }
    let id_of = |item: &Item| {
        if item.is_word() && item.words == 1 {
            text.get(item.start..item.end)
                .map_or(UNKNOWN, |w| lexicon.id(w))
        } else {
            UNKNOWN
        }
    };
    for at in 0..items.len() {
        let Some(particles) = lexicon.split.get(&id_of(&items[at])) else {
            continue;
        };
        // The particle, later in the verb's clause and within reach.
        let mut found = Vec::new();
        for (j, item) in items.iter().enumerate().skip(at + 1).take(SPLIT_REACH) {
            // An "and" starts another verb's words: "roll the dice and see what comes out".
            if item.ends_clause() || item.has(flag::AND) {
                break;
            }
            let word = id_of(item);
            let acts = particles
                .iter()
                .filter(|(particle, _)| *particle == word)
                .fold(0, |acts, (_, act)| acts | act);
            if acts != 0 {
                found.push((j, acts));
            }
        }
        // Both ends name the act, so a "not" before either holds it ("roll das nicht aus").
        for (j, acts) in found {
            for k in [at, j] {
                if items[k].acts & acts == 0 {
                    if items[k].acts == 0 {
                        items[k].flags |= flag::SPLIT;
                    }
                    items[k].acts |= acts;
                }
            }
        }
    }
}

/// An "add" whose clause names a package manager or a dependency (the install nouns) is an
/// install ("add left-pad with npm", "ajoute la dépendance left-pad", "voeg lodash toe met
/// pnpm"), asked for or held as the verb "install" is; elsewhere it is no act ("add a
/// test"). Linear: each "add" looks at most SPLIT_REACH items either way, within its clause.
fn adds(items: &mut [Item]) {
    let install = act_bit(Act::Install);
    let names_package = |item: &Item| {
        item.has(flag::MANAGER) || (item.has(flag::HOLD_ONLY) && item.acts & install != 0)
    };
    for at in 0..items.len() {
        if !items[at].has(flag::ADD) {
            continue;
        }
        let stops = |item: &Item| item.ends_clause() || item.has(flag::AND);
        let after = items
            .iter()
            .skip(at + 1)
            .take(SPLIT_REACH)
            .take_while(|item| !stops(item))
            .any(names_package);
        let before = items[..at]
            .iter()
            .rev()
            .take(SPLIT_REACH)
            .take_while(|item| !stops(item))
            .any(names_package);
        if after || before {
            items[at].acts |= install;
        }
    }
}

/// A "tell" is a send to whom it tells, unless that is the person ("tell me what is on my
/// calendar", "sag mir", "dis-moi", "me avise quando terminar"): a first-person word right
/// before or after it makes it the agent's answer, no act.
fn tells(items: &mut [Item]) {
    let send = act_bit(Act::Send);
    for at in 0..items.len() {
        if !items[at].has(flag::TELL) {
            continue;
        }
        let person = |item: Option<&Item>| item.is_some_and(|item| item.has(flag::PERSON));
        let before = at.checked_sub(1).and_then(|k| items.get(k));
        if !person(before) && !person(items.get(at + 1)) {
            items[at].acts |= send;
        }
    }
}

/// Letting someone know, the verbs apart ("let the team know the release is out", "laat
/// Alice weten dat het af is"): the "know" within five words after the "let", in its
/// clause and with no act between, is a send, as a tell is; not when the person is the one
/// let know ("let me know", "laat me weten"), which is the agent's answer to them.
fn lets_know(text: &str, items: &mut [Item]) {
    const LET: &[&str] = &["laat", "let", "letting"];
    const KNOW: &[&str] = &["know", "weten"];
    let word = |item: &Item| {
        (item.is_word() && item.words == 1)
            .then(|| text.get(item.start..item.end))
            .flatten()
            .unwrap_or("")
    };
    let send = act_bit(Act::Send);
    for at in 0..items.len() {
        if !LET.contains(&word(&items[at])) || items.get(at + 1).is_none_or(|i| i.has(flag::PERSON))
        {
            continue;
        }
        let mut found = None;
        for (j, item) in items.iter().enumerate().skip(at + 1).take(5) {
            if item.ends_clause() || item.has(flag::AND) || item.acts != 0 {
                break;
            }
            if KNOW.contains(&word(item)) {
                found = Some(j);
                break;
            }
        }
        if let Some(j) = found {
            items[j].acts |= send;
        }
    }
}

/// Dutch "en" ("and") is Spanish and French "in" ("nada de cambios en la config", "rien
/// en prod"): read as an "and" only where an act follows it, as one joining two verbs does
/// ("commit niet en push"). Elsewhere it would end a "not"'s reach in a sentence of the other
/// languages.
fn dutch_and(text: &str, items: &mut [Item]) {
    for k in 0..items.len() {
        let item = &items[k];
        if !item.is_word()
            || item.words != 1
            || !item.has(flag::AND)
            || &text[item.start..item.end] != "en"
        {
            continue;
        }
        let plain_next = items
            .get(k + 1)
            .is_some_and(|next| next.is_word() && (next.acts == 0 || next.has(flag::HOLD_ONLY)));
        if plain_next {
            items[k].flags &= !flag::AND;
        }
    }
}

/// A "not" right after a number is a month ("am 19. Mai", "le 19 mai": Italian "mai" is
/// "never"): no language says "19 not", so it holds nothing there.
fn dates(text: &str, items: &mut [Item]) {
    let number = |item: &Item| {
        item.is_word()
            && text[item.start..item.end]
                .bytes()
                .all(|b| b.is_ascii_digit())
    };
    for k in 1..items.len() {
        let item = &items[k];
        // Only "mai" is both a month and a "not": "merge den PR 12 nicht" keeps its "not".
        if !item.is_word()
            || item.words != 1
            || !item.has(flag::NEGATION)
            || &text[item.start..item.end] != "mai"
        {
            continue;
        }
        let before = &items[k - 1];
        // "19. Mai": the ordinal's dot is cut as a mark.
        let dotted = !before.is_word()
            && &text[before.start..before.end] == "."
            && k >= 2
            && number(&items[k - 2]);
        if number(before) || dotted {
            items[k].flags &= !(flag::NEGATION | flag::NOT_AFTER | flag::NOT_LAST);
        }
    }
}

/// A word or phrase of a message, or a mark between them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Item {
    pub kind: Kind,
    /// Byte range in the folded text.
    pub start: usize,
    pub end: usize,
    /// How many words (0 for a mark).
    pub words: u8,
    pub flags: u32,
    pub acts: u32,
}

impl Item {
    pub fn is_word(&self) -> bool {
        self.kind == Kind::Word
    }

    pub fn has(&self, flags: u32) -> bool {
        self.flags & flags != 0
    }

    /// A mark, or a "but", "then", "so": a clause ends here.
    pub fn ends_clause(&self) -> bool {
        !self.is_word() || self.has(flag::BOUNDARY)
    }
}

/// A folded message cut into items: the longest known phrase at each word, left to right.
pub struct Items {
    pub items: Vec<Item>,
}

/// The most words a phrase has (checked by a test of the word lists).
pub const LONGEST: usize = 6;

impl Items {
    pub fn read(text: &str) -> Items {
        let lexicon = Lexicon::get();
        let mut tokens = Tokens::new(text);
        // A window of the next few tokens and their word numbers: a phrase never looks
        // further than LONGEST words, and each word is looked up once.
        let mut ahead: VecDeque<(Token, u32)> = VecDeque::with_capacity(LONGEST + 1);
        let mut pull = |ahead: &mut VecDeque<(Token, u32)>| match tokens.next() {
            Some(token) => {
                let id = match token.kind {
                    Kind::Word => lexicon.id(&text[token.start..token.end]),
                    _ => UNKNOWN,
                };
                ahead.push_back((token, id));
                true
            }
            None => false,
        };
        let mut items = Vec::with_capacity(text.len() / 3 + 4);
        loop {
            if ahead.is_empty() && !pull(&mut ahead) {
                break;
            }
            let Some(&(token, id)) = ahead.front() else {
                break;
            };
            if token.kind != Kind::Word {
                items.push(Item {
                    kind: token.kind,
                    start: token.start,
                    end: token.end,
                    words: 0,
                    flags: 0,
                    acts: 0,
                });
                ahead.pop_front();
                continue;
            }
            // Walk the trie as far as the words go; the deepest phrase end wins.
            let mut node = lexicon.start(id);
            let mut found = None;
            let mut depth = 1;
            while let Some(here) = node {
                if let Some((flags, acts)) = here.end {
                    found = Some((depth, flags, acts));
                }
                if here.next.is_empty() || (ahead.len() <= depth && !pull(&mut ahead)) {
                    break;
                }
                node = ahead
                    .get(depth)
                    .and_then(|&(_, next)| lexicon.step(here, next));
                depth += 1;
            }
            let (len, flags, acts) = found.unwrap_or((1, 0, 0));
            let end = ahead.get(len - 1).map_or(token.end, |(t, _)| t.end);
            // INVARIANT: a phrase has at most LONGEST words (checked by `phrases_are_short`).
            let words = u8::try_from(len).unwrap_or(u8::MAX);
            items.push(Item {
                kind: Kind::Word,
                start: token.start,
                end,
                words,
                flags,
                acts,
            });
            ahead.drain(..len.min(ahead.len()));
        }
        split_verbs(lexicon, text, &mut items);
        adds(&mut items);
        tells(&mut items);
        lets_know(text, &mut items);
        dates(text, &mut items);
        dutch_and(text, &mut items);
        Items { items }
    }

    /// The index of the item that holds (or first follows) this byte of the text.
    pub fn item_at(&self, byte: usize) -> usize {
        self.items.partition_point(|item| item.end <= byte)
    }
}
