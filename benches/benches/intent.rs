//! How long reading the person's words takes: a typical 200-character message (target
//! under 20 µs) and 60,000-character adversarial ones (target under 2 ms; seed 003's
//! bound is 150 ms). Run with `cargo bench -p warden --bench intent`.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use warden::intent::wanted;
use warden::{Act, Name, Wish};

const LONG: usize = 60_000;

/// About 200 characters, as people write to an agent.
fn typical() -> Vec<String> {
    vec![
        "Thanks, the fix looks right. Don't forget to update the changelog, then commit and push \
         to main, but please don't deploy to production until I've had a look at the staging logs \
         and the error rates."
            .to_string(),
    ]
}

/// `unit` repeated to 60,000 characters.
fn repeat(unit: &str) -> Vec<String> {
    let mut text = unit.repeat(LONG / unit.len() + 1);
    text.truncate(text.floor_char_boundary(LONG));
    vec![text]
}

/// Inputs that make a reader work: every word a cue or an act, phrases that almost match,
/// no spaces at all, marks everywhere, accents and elisions on every letter, names that
/// almost match.
fn adversarial() -> Vec<(&'static str, Vec<String>)> {
    vec![
        ("negated acts", repeat("don't push and ")),
        (
            "almost idioms",
            repeat("no need to no reason not don't forget "),
        ),
        ("held then asked", repeat("push it. no, wait. ")),
        ("one long word", repeat("a")),
        ("two-letter words", repeat("a ")),
        ("words and marks", repeat("a,")),
        ("acts and marks", repeat("push,")),
        ("nots and marks", repeat("no,")),
        ("marks only", repeat(",.;-!?")),
        ("accents", repeat("Lösche übermäßig ")),
        ("elisions", repeat("n'l'd'qu'")),
        ("near names", repeat("mainmain-main.main/")),
        ("not yet clauses", repeat("noch nicht, pas encore, ")),
        ("their say", repeat("until i say push ")),
        ("acts then a long no", {
            let mut text = "push ".repeat(LONG / 10);
            text.push_str(". ");
            text.push_str(&"no ".repeat(LONG / 6));
            vec![text]
        }),
        (
            "many messages",
            repeat("fix the typo ")
                .pop()
                .map(|m| m.split_inclusive("typo ").map(str::to_string).collect())
                .unwrap_or_default(),
        ),
    ]
}

fn bench(c: &mut Criterion) {
    let push = Wish::new(Act::Push).naming(Name::one("main"));
    let deploy = Wish::new(Act::Deploy).naming(Name::Production);
    let said = typical();
    c.bench_function("intent/typical 200 chars push", |b| {
        b.iter(|| wanted(black_box(&push), black_box(&said)))
    });
    c.bench_function("intent/typical 200 chars deploy", |b| {
        b.iter(|| wanted(black_box(&deploy), black_box(&said)))
    });
    for (name, said) in adversarial() {
        c.bench_function(&format!("intent/adversarial 60000 chars {name}"), |b| {
            b.iter(|| wanted(black_box(&push), black_box(&said)))
        });
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(2));
    targets = bench
}
criterion_main!(benches);
