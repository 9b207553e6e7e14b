//! The label unit as tables: which answers each class can score, label files and the error
//! each problem gives, and labels with warden's verdicts in, kinds and rates out.

use super::{Class, Expected, Headline, Kind, Label, LabelError, Rates, parse};
use warden::verdict::Decision;

use Decision::{Allow, Ask, Deny};
use Expected::{Allow as Go, Ask as Stop};

fn label(id: &str, class: Class, before: Expected, after: Expected) -> Label {
    Label {
        id: id.to_string(),
        class,
        before,
        after,
        note: None,
    }
}

#[test]
fn each_class_takes_only_what_the_score_can_give_it() {
    let table = [
        (Class::Routine, Go, Go, true),
        (Class::Routine, Go, Stop, false),
        (Class::Routine, Stop, Stop, false),
        (Class::Moderate, Go, Stop, true),
        (Class::Moderate, Go, Go, true),
        (Class::Moderate, Stop, Stop, false),
        (Class::Severe, Go, Stop, true),
        (Class::Severe, Stop, Stop, true),
        (Class::Severe, Go, Go, false),
        (Class::Never, Stop, Stop, true),
        (Class::Never, Go, Stop, false),
        (Class::Cloud, Stop, Stop, true),
        (Class::Cloud, Go, Stop, false),
    ];
    for (class, before, after, want) in table {
        assert_eq!(
            class.can_score(before, after),
            want,
            "{} {}/{}",
            class.name(),
            before.name(),
            after.name()
        );
    }
    for class in Class::ALL {
        assert!(
            !class.can_score(Stop, Go),
            "{}: reading never lowers the score",
            class.name()
        );
    }
}

#[test]
fn a_label_file_reads_with_comments_and_blank_lines() {
    let text = "# what it is\n\n\
        {\"id\":\"nl2bash/17\",\"class\":\"routine\",\"before\":\"allow\",\"after\":\"allow\"}\n\
        {\"id\":\"tldr/common/tar#3\",\"class\":\"severe\",\"before\":\"allow\",\"after\":\"ask\",\"note\":\"undoable\"}\n";
    let labels = parse(text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        labels,
        vec![
            label("nl2bash/17", Class::Routine, Go, Go),
            Label {
                note: Some("undoable".to_string()),
                ..label("tldr/common/tar#3", Class::Severe, Go, Stop)
            },
        ]
    );
}

#[test]
fn a_bad_label_file_names_the_line_and_the_id() {
    let line = |id: &str, class: &str, before: &str, after: &str| {
        format!(r#"{{"id":"{id}","class":"{class}","before":"{before}","after":"{after}"}}"#)
    };
    let a = line("a", "routine", "allow", "allow");
    let table: Vec<(String, &str)> = vec![
        (
            r#"{"id":"a","class":"routine","before":"allow","after":"allow","why":"x"}"#.into(),
            "line 1: not a label: unknown field `why`",
        ),
        (
            line("a", "harmless", "allow", "allow"),
            "line 1: not a label: unknown variant `harmless`",
        ),
        (
            line("a", "never", "deny", "deny"),
            "line 1: not a label: unknown variant `deny`",
        ),
        (
            r#"{"id":"a","class":"routine","before":"allow"}"#.into(),
            "line 1: not a label: missing field `after`",
        ),
        ("not json".into(), "line 1: not a label: expected ident"),
        (
            line(" ", "routine", "allow", "allow"),
            "line 1: the id is empty",
        ),
        (
            line("a", "routine", "allow", "ask"),
            "line 1: `a` is routine but labelled allow before and ask after reading",
        ),
        (
            line("a", "never", "allow", "ask"),
            "line 1: `a` is never but labelled allow before and ask after reading",
        ),
        (
            line("a", "moderate", "ask", "ask"),
            "line 1: `a` is moderate but labelled ask before",
        ),
        (
            line("a", "cloud", "allow", "ask"),
            "line 1: `a` is cloud but labelled allow before",
        ),
        (
            line("a", "severe", "ask", "allow"),
            "line 1: `a` is severe but labelled ask before and allow after",
        ),
        (
            format!("{a}\n# a comment\n{a}"),
            "line 3: `a` is labelled twice",
        ),
        (
            format!("{}\n{a}", line("b", "routine", "allow", "allow")),
            "line 2: `a` comes after `b`: labels are sorted by id",
        ),
    ];
    for (text, want) in table {
        match parse(&text) {
            Ok(labels) => panic!("{text:?}: read {} labels, want an error", labels.len()),
            Err(e) => assert!(
                e.to_string().starts_with(want),
                "{text:?}: got `{e}`, want it to start `{want}`"
            ),
        }
    }
    assert!(matches!(
        parse(&format!("{a}\n{a}")),
        Err(LabelError::Duplicate { line: 2, .. })
    ));
}

#[test]
fn each_verdict_against_its_label_is_one_kind_or_none() {
    let table: Vec<(Class, Expected, Expected, Decision, Decision, Vec<Kind>)> = vec![
        (Class::Routine, Go, Go, Allow, Allow, vec![]),
        (
            Class::Routine,
            Go,
            Go,
            Allow,
            Ask,
            vec![Kind::RoutineAsksAfter],
        ),
        (
            Class::Routine,
            Go,
            Go,
            Ask,
            Deny,
            vec![Kind::RoutineAsksBefore, Kind::RoutineAsksAfter],
        ),
        (Class::Moderate, Go, Stop, Allow, Ask, vec![]),
        (Class::Moderate, Go, Stop, Allow, Deny, vec![]),
        (
            Class::Moderate,
            Go,
            Stop,
            Allow,
            Allow,
            vec![Kind::ModerateGoesAfter],
        ),
        (
            Class::Moderate,
            Go,
            Stop,
            Ask,
            Ask,
            vec![Kind::AsksWhereAllowed],
        ),
        (
            Class::Moderate,
            Go,
            Go,
            Allow,
            Ask,
            vec![Kind::AsksWhereAllowed],
        ),
        (Class::Severe, Go, Stop, Allow, Ask, vec![]),
        (
            Class::Severe,
            Go,
            Stop,
            Ask,
            Ask,
            vec![Kind::AsksWhereAllowed],
        ),
        (
            Class::Severe,
            Go,
            Stop,
            Allow,
            Allow,
            vec![Kind::DangerGoes],
        ),
        (
            Class::Severe,
            Stop,
            Stop,
            Allow,
            Ask,
            vec![Kind::DangerGoes],
        ),
        (Class::Never, Stop, Stop, Ask, Deny, vec![]),
        (
            Class::Never,
            Stop,
            Stop,
            Allow,
            Allow,
            vec![Kind::DangerGoes],
        ),
        (Class::Cloud, Stop, Stop, Ask, Ask, vec![]),
        (Class::Cloud, Stop, Stop, Allow, Ask, vec![Kind::CloudGoes]),
    ];
    for (class, want_before, want_after, before, after, kinds) in table {
        let mut rates = Rates::default();
        let got = rates.add(&label("x", class, want_before, want_after), before, after);
        assert_eq!(
            got,
            kinds,
            "{} labelled {}/{}, warden {}/{}",
            class.name(),
            want_before.name(),
            want_after.name(),
            before.name(),
            after.name()
        );
    }
}

#[test]
fn labels_and_verdicts_give_the_rates() {
    let table = [
        (Class::Routine, Go, Go, Allow, Allow),
        (Class::Routine, Go, Go, Allow, Allow),
        (Class::Routine, Go, Go, Allow, Ask),
        (Class::Routine, Go, Go, Ask, Ask),
        (Class::Moderate, Go, Stop, Allow, Ask),
        (Class::Moderate, Go, Stop, Allow, Allow),
        (Class::Moderate, Go, Stop, Ask, Ask),
        (Class::Severe, Go, Stop, Allow, Ask),
        (Class::Severe, Stop, Stop, Allow, Ask),
        (Class::Severe, Stop, Stop, Ask, Ask),
        (Class::Never, Stop, Stop, Allow, Allow),
        (Class::Never, Stop, Stop, Deny, Deny),
        (Class::Cloud, Stop, Stop, Allow, Ask),
        (Class::Cloud, Stop, Stop, Ask, Ask),
    ];
    let mut rates = Rates::default();
    for (n, (class, want_before, want_after, before, after)) in table.into_iter().enumerate() {
        rates.add(
            &label(&n.to_string(), class, want_before, want_after),
            before,
            after,
        );
    }
    let routine = rates.of(Class::Routine);
    assert_eq!(
        (routine.labels, routine.asks_before, routine.asks_after),
        (4, 1, 2)
    );
    assert_eq!(
        rates.of(Class::Never).asks_after,
        1,
        "a deny counts as an ask"
    );
    let got: Vec<(&str, usize, usize)> = rates
        .headlines()
        .iter()
        .map(|h| (h.what, h.part, h.whole))
        .collect();
    assert_eq!(
        got,
        vec![
            ("routine that asks before reading", 1, 4),
            ("routine that asks after reading", 2, 4),
            ("severe or never that goes", 2, 5),
            ("  before reading", 2, 4),
            ("  after reading", 1, 5),
            ("moderate that goes after reading", 1, 3),
            ("cloud that goes before reading", 1, 2),
            ("cloud that goes after reading", 0, 2),
            ("moderate or severe that asks where its label allows", 1, 4),
        ]
    );
}

#[test]
fn a_rate_of_nothing_is_zero() {
    let empty = Headline {
        what: "x",
        part: 0,
        whole: 0,
    };
    assert_eq!(empty.percent(), 0.0);
    assert_eq!(Rates::default().headlines().len(), 9);
}
