//! The word lists' shape, and a table of readings with the words that decided them.

use super::lexicon::{CONCEPTS, LONGEST, Lexicon};
use super::text::words as split;
use super::words::{
    HOLDS_ONLY, KEPT, Lang, NEGATION, NOT_A_HOLD, PROD_WORDS, TAKEN_BACK, Table, WISHES, wish_words,
};
use super::{Cue, Wanted, wanted};
use crate::fold::fold;
use crate::wish::{Act, Name, Wish};

fn every_table() -> Vec<(String, Table)> {
    let mut tables: Vec<(String, Table)> = CONCEPTS
        .iter()
        .map(|(name, table, _)| (name.to_string(), *table))
        .collect();
    tables.push(("PROD_WORDS".to_string(), PROD_WORDS));
    for (act, table) in WISHES {
        tables.push((format!("WISHES[{}]", act.name()), table));
    }
    for (act, table) in HOLDS_ONLY {
        tables.push((format!("HOLDS_ONLY[{}]", act.name()), table));
    }
    for (act, table) in KEPT {
        tables.push((format!("KEPT[{}]", act.name()), table));
    }
    tables
}

#[test]
fn every_table_has_every_language_once_in_order() {
    for (name, table) in every_table() {
        let langs: Vec<Lang> = table.iter().map(|(lang, _)| *lang).collect();
        assert_eq!(
            langs,
            Lang::ALL,
            "{name}: one line per language, in Lang::ALL order"
        );
        for (lang, line) in table {
            assert!(!line.is_empty(), "{name}: the {lang:?} line is empty");
        }
    }
}

#[test]
fn entries_are_folded_sorted_and_unique() {
    let mut bad = Vec::new();
    for (name, table) in every_table() {
        for (lang, line) in table {
            for entry in *line {
                if fold(entry) != *entry {
                    bad.push(format!(
                        "{name} {lang:?}: {entry:?} is not folded (fold gives {:?})",
                        fold(entry)
                    ));
                }
                if split(entry).join(" ") != *entry {
                    bad.push(format!(
                        "{name} {lang:?}: {entry:?} is not words separated by one space"
                    ));
                }
            }
            for pair in line.windows(2) {
                if pair[0] >= pair[1] {
                    bad.push(format!(
                        "{name} {lang:?}: {:?} then {:?} is not sorted and unique",
                        pair[0], pair[1]
                    ));
                }
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn german_umlauts_are_written_both_ways() {
    // Real digraphs, not umlauts typed out.
    let not_umlauts = ["poetry", "zuerst"];
    let collapse = |s: &str| s.replace("ae", "a").replace("oe", "o").replace("ue", "u");
    let mut bad = Vec::new();
    for (name, table) in every_table() {
        for (lang, line) in table {
            if *lang != Lang::De {
                continue;
            }
            for entry in *line {
                let plain = collapse(entry);
                let typed = entry.split(' ').any(|w| not_umlauts.contains(&w));
                if plain != *entry && !typed && !line.contains(&plain.as_str()) {
                    bad.push(format!("{name}: {entry:?} has no partner {plain:?}"));
                }
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn taking_back_with_a_not_is_a_not() {
    // "doch nicht pushen": the phrase wins over its "nicht", so it must hold as one.
    let nots: Vec<&str> = NEGATION
        .iter()
        .flat_map(|(_, line)| line.iter().copied())
        .collect();
    let blank: Vec<&str> = NOT_A_HOLD
        .iter()
        .flat_map(|(_, line)| line.iter().copied())
        .collect();
    for (lang, line) in TAKEN_BACK {
        for entry in *line {
            let has_not = entry.contains(' ') && entry.split(' ').any(|w| nots.contains(&w));
            if has_not && !blank.contains(entry) {
                assert!(
                    nots.contains(entry),
                    "TAKEN_BACK {lang:?}: {entry:?} has a not but is not in NEGATION"
                );
            }
        }
    }
}

#[test]
fn wishes_cover_every_act_once() {
    let acts: Vec<Act> = WISHES.iter().map(|(act, _)| *act).collect();
    assert_eq!(acts, Act::ALL);
}

#[test]
fn production_words_are_single_words() {
    for (lang, line) in PROD_WORDS {
        for entry in *line {
            assert!(
                !entry.contains(' '),
                "PROD_WORDS {lang:?}: {entry:?} is more than one word"
            );
            assert!(Lexicon::get().is_prod(entry));
        }
    }
}

#[test]
fn words_that_are_english_for_something_else_are_left_out() {
    let english = [
        "accessible",
        "agenda",
        "exponent",
        "ignore",
        "programme",
        "quite",
        "redefine",
    ];
    for (name, table) in every_table() {
        for (lang, line) in table {
            for entry in *line {
                for word in entry.split(' ') {
                    assert!(
                        !english.contains(&word),
                        "{name} {lang:?}: {entry:?} reads English {word:?}"
                    );
                }
            }
        }
    }
    for word in ["sube", "subelo", "envia", "envialo"] {
        let publish = wish_words(Act::Publish);
        assert!(
            publish.iter().all(|(_, line)| !line.contains(&word)),
            "Publish must not list {word:?}"
        );
    }
}

fn said(messages: &[&str]) -> Vec<String> {
    messages.iter().map(|m| m.to_string()).collect()
}

#[test]
fn readings_show_the_words_that_decided() {
    let push = Wish::new(Act::Push);
    let cases: &[(&[&str], Wanted, Cue, &str)] = &[
        (&["don't push yet"], Wanted::Held, Cue::Not, "don't push"),
        (
            &["no need to ask me, just commit and push"],
            Wanted::Asked,
            Cue::Asked,
            "push",
        ),
        (
            &["push it. No, wait."],
            Wanted::Held,
            Cue::TakenBack,
            "push it. no, wait",
        ),
        (
            &["push it, but not yet"],
            Wanted::Held,
            Cue::NotYet,
            "push it, but not yet",
        ),
        (
            &["push es nicht"],
            Wanted::Held,
            Cue::NotAfter,
            "push es nicht",
        ),
        (
            &["hold off on the push"],
            Wanted::Held,
            Cue::Wait,
            "hold off on the push",
        ),
        (
            &["ask me before pushing"],
            Wanted::Held,
            Cue::BeforeThePerson,
            "ask me before pushing",
        ),
        (
            &["push once I've reviewed it"],
            Wanted::Held,
            Cue::TheirSay,
            "push once i've",
        ),
        (
            &["wait before pushing"],
            Wanted::Held,
            Cue::BeforeThePerson,
            "wait before pushing",
        ),
        (
            &["push it", "now tidy the README"],
            Wanted::Asked,
            Cue::Asked,
            "push",
        ),
        (&["tidy the README"], Wanted::Neither, Cue::Unnamed, ""),
    ];
    for (messages, want, cue, words) in cases {
        let reading = wanted(&push, &said(messages));
        assert_eq!(
            (reading.wanted, reading.cue, reading.words.as_str()),
            (*want, *cue, *words),
            "{messages:?}"
        );
    }
}

#[test]
fn names_must_be_there_and_not_ruled_out() {
    let main = Wish::new(Act::Push).naming(Name::one("main"));
    let prod = Wish::new(Act::Deploy).naming(Name::Production);
    let cases: &[(&Wish, &str, Wanted, Cue)] = &[
        (&main, "push to main", Wanted::Asked, Cue::Asked),
        (&main, "push to origin/main.", Wanted::Asked, Cue::Asked),
        (&main, "push it", Wanted::Neither, Cue::NameMissing),
        (&main, "push main.rs", Wanted::Neither, Cue::NameMissing),
        (
            &main,
            "push to dev, not main",
            Wanted::Held,
            Cue::NameRuledOut,
        ),
        (
            &main,
            "push every branch except main",
            Wanted::Held,
            Cue::NameRuledOut,
        ),
        (&prod, "deploy to production", Wanted::Asked, Cue::Asked),
        (&prod, "mets en prod", Wanted::Asked, Cue::Asked),
        (
            &prod,
            "deploy to staging, not prod",
            Wanted::Held,
            Cue::NameRuledOut,
        ),
        (
            &prod,
            "despliega con terraform",
            Wanted::Neither,
            Cue::NameMissing,
        ),
    ];
    for (wish, message, want, cue) in cases {
        let reading = wanted(wish, &said(&[message]));
        assert_eq!(
            (reading.wanted, reading.cue),
            (*want, *cue),
            "{message:?}: {reading:?}"
        );
    }
}

#[test]
fn phrases_are_short() {
    // Items count their words in a u8, and the reach of a "not" is seven words.
    for (name, table) in every_table() {
        for (lang, line) in table {
            for entry in *line {
                assert!(
                    entry.split(' ').count() <= LONGEST,
                    "{name} {lang:?}: {entry:?} is longer than {LONGEST} words"
                );
            }
        }
    }
}

#[test]
fn every_entry_reads_as_one_phrase_of_its_table() {
    use super::lexicon::{Items, act_bit};
    let mut bad = Vec::new();
    for (name, table, bit) in CONCEPTS {
        for (lang, line) in table {
            for entry in *line {
                let items = Items::read(entry).items;
                if items.len() != 1 || !items[0].has(bit) {
                    bad.push(format!("{name} {lang:?}: {entry:?} reads as {items:?}"));
                }
            }
        }
    }
    for (act, table) in WISHES {
        for (lang, line) in table {
            for entry in *line {
                let items = Items::read(entry).items;
                if items.len() != 1 || items[0].acts & act_bit(act) == 0 {
                    bad.push(format!(
                        "WISHES[{}] {lang:?}: {entry:?} reads as {items:?}",
                        act.name()
                    ));
                }
            }
        }
    }
    // A thing named holds and never asks: no entry is also an act's wish, which would ask.
    for (act, table) in HOLDS_ONLY {
        for (lang, line) in table {
            for entry in *line {
                let items = Items::read(entry).items;
                if items.len() != 1
                    || items[0].acts & act_bit(act) == 0
                    || !items[0].has(super::lexicon::flag::HOLD_ONLY)
                    || WISHES
                        .iter()
                        .any(|(_, wishes)| wishes.iter().any(|(_, l)| l.contains(entry)))
                {
                    bad.push(format!(
                        "HOLDS_ONLY[{}] {lang:?}: {entry:?} reads as {items:?}",
                        act.name()
                    ));
                }
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// Messages as people write them about pushing, sending and deleting, in several
/// languages, and anything at all.
fn message() -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    prop_oneof![
        Just("push it to main".to_string()),
        Just("don't push yet".to_string()),
        Just("pousse la branche feature/x".to_string()),
        Just("noch nicht pushen".to_string()),
        Just("no hagas push todavía".to_string()),
        Just("send the report to Alice".to_string()),
        Just("delete the build folder".to_string()),
        Just("thanks, looks good".to_string()),
        Just("don't forget to push".to_string()),
        "[a-z ]{0,40}",
        any::<String>(),
    ]
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

    /// The latest message that names the act decides on its own: what came before it can't
    /// change its reading, and a later message that names nothing leaves it as it was.
    #[test]
    fn a_message_is_read_on_its_own(earlier in message(), latest in message()) {
        for act in [Act::Push, Act::Send, Act::Delete] {
            let wish = Wish::new(act).naming(Name::one("main"));
            let alone = wanted(&wish, std::slice::from_ref(&latest));
            let both = wanted(&wish, &[earlier.clone(), latest.clone()]);
            if alone.message.is_some() {
                proptest::prop_assert_eq!(both.wanted, alone.wanted, "{:?} then {:?}", earlier, latest);
                proptest::prop_assert_eq!(&both.words, &alone.words);
                proptest::prop_assert_eq!(both.message, Some(1));
            } else {
                let first = wanted(&wish, std::slice::from_ref(&earlier));
                proptest::prop_assert_eq!(both.wanted, first.wanted, "{:?} then {:?}", earlier, latest);
                proptest::prop_assert_eq!(both.message, first.message);
            }
        }
    }

    #[test]
    fn folding_is_idempotent(text in proptest::prelude::any::<String>()) {
        let once = fold(&text);
        proptest::prop_assert_eq!(fold(&once), once);
    }
}
