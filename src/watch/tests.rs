//! The behaviour watch: the LIMITS table's own examples, seed 001's three examples, the
//! windows, and what realistic Gmail, Slack, GitHub and Notion steps count.

use super::*;
use crate::facts::FakeFacts;
use crate::intent::words::Lang;
use crate::mode::Mode;
use crate::step::Origin;
use crate::verdict::Decision;
use serde_json::json;

const MINUTE: i64 = 60 * 1000;
const T0: i64 = 1_800_000_000_000;

fn app_step(app: &str, tool: &str, arguments: Value) -> AppStep {
    AppStep {
        app: app.into(),
        tool: tool.into(),
        access: None,
        origin: Origin::Mcp,
        setting: None,
        sites: Vec::new(),
        arguments,
    }
}

fn emails(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("person{i}@example.com")).collect()
}

fn send_to(n: usize) -> AppStep {
    app_step(
        "gmail",
        "send_email",
        json!({"to": emails(n), "subject": "news", "body": "hello"}),
    )
}

/// The `i`th of a day's messages: each its own words, so no two are the same change.
fn message(i: i64) -> AppStep {
    app_step(
        "gmail",
        "send_email",
        json!({"to": "friend@example.com", "subject": "re", "body": format!("reply {i}")}),
    )
}

fn rules(risks: &[Risk]) -> Vec<&'static str> {
    risks.iter().map(|risk| risk.rule.name()).collect()
}

/// A chat as the runtime keeps it: counts recorded for every step that goes ahead (an
/// ask answered yes), the turn's start as the runtime knows it.
#[derive(Default)]
struct Chat {
    counts: Vec<(i64, String, u32)>,
    turn_start: i64,
}

impl Chat {
    fn new_turn(&mut self, at: i64) {
        self.turn_start = at;
    }

    /// Judges a step's counts at `now`; records them unless refused. Returns the risks.
    fn step(&mut self, now: i64, adding: &[(String, u32)]) -> Vec<Risk> {
        let risks = watch(
            &self.counts,
            self.turn_start,
            now,
            adding,
            &Thresholds::new(),
        );
        if !risks.iter().any(|risk| risk.refused) {
            for (kind, n) in adding {
                self.counts.push((now, kind.clone(), *n));
            }
        }
        risks
    }
}

fn one(kind: &str, n: u32) -> Vec<(String, u32)> {
    vec![(kind.to_string(), n)]
}

#[test]
fn the_table_is_sound() {
    let mut seen = BTreeSet::new();
    for limit in &LIMITS {
        let id = limit.rule;
        assert!(
            id.name().starts_with("watch."),
            "{id}: ids start with watch."
        );
        assert!(seen.insert(id), "{id}: ids are unique");
        assert!(limit.threshold > 0, "{id}: a threshold is above zero");
        assert!(
            [MESSAGES, RECIPIENTS, DELETES, PAYMENTS, CHANGES].contains(&limit.kind),
            "{id}: counts a kind counts() adds"
        );
        for text in [limit.says, limit.reason] {
            assert!(
                !text.ends_with('.') && text.starts_with(char::is_lowercase),
                "{id}: {text:?} is a lower-case phrase without its final period"
            );
        }
        if let Action::Stop { next } = limit.action {
            assert!(
                next.starts_with(char::is_uppercase) && !next.ends_with('.'),
                "{id}: the next step is a sentence the law ends"
            );
        }
        assert!(
            !limit.fires.is_empty() && !limit.spares.is_empty(),
            "{id}: every limit has cases that fire and cases that don't"
        );
    }
    // The law's rule ids the watch reads a step's acts by.
    let acts = app::acts(&app_step("shop", "pay_and_delete_and_send", json!({})));
    assert_eq!(
        acts,
        Some(vec!["app.pays", "app.deletes", "app.speaks"]),
        "the law's ids counts() reads"
    );
}

#[test]
fn handles_has_every_language_once_folded_sorted_and_unique() {
    let langs: Vec<Lang> = HANDLES.iter().map(|(lang, _)| *lang).collect();
    assert_eq!(
        langs,
        Lang::ALL,
        "one line per language, in Lang::ALL order"
    );
    for (lang, line) in HANDLES {
        assert!(!line.is_empty(), "{lang:?} is empty");
        for entry in *line {
            assert_eq!(
                name_words(entry),
                vec![entry.to_string()],
                "{lang:?}: {entry:?} is one folded word"
            );
        }
        for pair in line.windows(2) {
            assert!(
                pair[0] < pair[1],
                "{lang:?}: {:?} then {:?} is not sorted and unique",
                pair[0],
                pair[1]
            );
        }
    }
}

#[test]
fn every_limit_fires_and_spares_its_examples() {
    let now = T0;
    for limit in &LIMITS {
        let kind = if limit.kind == CHANGES {
            "changes:gmail:send_email:0123456789abcdef".to_string()
        } else {
            limit.kind.to_string()
        };
        for (cases, must) in [(limit.fires, true), (limit.spares, false)] {
            for (before, adding) in cases {
                // Counted earlier in this turn, so inside every window.
                let counted = vec![(now - MINUTE, kind.clone(), *before)];
                let risks = watch(
                    &counted,
                    now - 2 * MINUTE,
                    now,
                    &one(&kind, *adding),
                    &Thresholds::new(),
                );
                let fired = risks.iter().find(|risk| risk.rule == limit.rule);
                assert_eq!(
                    fired.is_some(),
                    must,
                    "{}: {before} counted, adding {adding}: {:?}",
                    limit.rule,
                    rules(&risks)
                );
                if let Some(risk) = fired {
                    assert!(
                        risk.never && risk.wish.is_none(),
                        "{}: no words lift a count",
                        limit.rule
                    );
                    assert_eq!(
                        risk.base(),
                        3,
                        "{}: severe and lasting, so Auto asks",
                        limit.rule
                    );
                    match limit.action {
                        Action::Stop { next } => {
                            assert!(risk.refused && risk.irreducible, "{}", limit.rule);
                            assert!(
                                risk.reason.ends_with(next),
                                "{}: {}",
                                limit.rule,
                                risk.reason
                            );
                        }
                        Action::AskAtEachMultiple { full_trust } => {
                            assert!(!risk.refused, "{}", limit.rule);
                            assert_eq!(risk.irreducible, full_trust, "{}", limit.rule);
                        }
                    }
                }
            }
        }
    }
}

fn ctx(mode: Mode) -> Context {
    Context {
        mode,
        cwd: "/w".into(),
        ..Context::default()
    }
}

/// What the law answers for a step, the watch joined in, in a chat that counted `chat`.
fn decision(chat: &Chat, step: &AppStep, mode: Mode, now: i64) -> (Decision, Verdict) {
    let watched = watch(
        &chat.counts,
        chat.turn_start,
        now,
        &counts(step),
        &Thresholds::new(),
    );
    let verdict = judge(
        &Step::App(step.clone()),
        &ctx(mode),
        &FakeFacts::unknown(),
        watched,
    );
    (verdict.decision, verdict)
}

#[test]
fn seed_a_newsletter_to_thirty_people_asks_once() {
    let mut chat = Chat::default();
    chat.new_turn(T0);
    let step = send_to(30);
    let risks = chat.step(T0, &counts(&step));
    assert_eq!(rules(&risks), vec!["watch.recipients"], "one question");
    assert!(
        risks[0].reason.starts_with("this step reaches 30 people"),
        "{}",
        risks[0].reason
    );
    // The next one, to a single person, goes: the thirty were one message.
    assert!(chat.step(T0 + MINUTE, &counts(&send_to(1))).is_empty());

    let fresh = Chat::default();
    let (auto, verdict) = decision(&fresh, &step, Mode::Auto, T0);
    assert_eq!(auto, Decision::Ask, "{}", verdict.reason);
    assert!(
        verdict
            .risks
            .iter()
            .any(|s| s.risk.rule == "watch.recipients")
    );
    let (full, verdict) = decision(&fresh, &step, Mode::FullTrust, T0);
    assert_eq!(
        full,
        Decision::Allow,
        "Full trust lets a newsletter go: {}",
        verdict.reason
    );
    // Twenty-nine is a note.
    assert!(watch(&[], T0, T0, &counts(&send_to(29)), &Thresholds::new()).is_empty());
}

#[test]
fn seed_a_hundred_and_fifty_messages_a_day_hear_about_it_at_a_hundred() {
    let mut chat = Chat::default();
    let mut asked = Vec::new();
    for i in 1..=150i64 {
        let now = T0 + i * 5 * MINUTE;
        if i % 10 == 1 {
            chat.new_turn(now);
        }
        let risks = chat.step(now, &counts(&message(i)));
        if !risks.is_empty() {
            asked.push((i, rules(&risks)));
        }
    }
    assert_eq!(
        asked,
        vec![(100, vec!["watch.messages_day"])],
        "one question, at the 100th"
    );
}

#[test]
fn messages_a_day_ask_again_at_two_hundred_and_a_yes_lets_the_batch_through() {
    let mut chat = Chat::default();
    let mut asked = Vec::new();
    for i in 1..=250i64 {
        let now = T0 + i * 3 * MINUTE;
        chat.new_turn(now);
        if !chat.step(now, &counts(&message(i))).is_empty() {
            asked.push(i);
        }
    }
    assert_eq!(asked, vec![100, 200], "101–199 go after the yes at 100");
}

#[test]
fn messages_a_day_ask_in_full_trust_too() {
    let chat = Chat {
        counts: vec![(T0, MESSAGES.into(), 99)],
        turn_start: T0 + MINUTE,
    };
    let (full, verdict) = decision(&chat, &send_to(1), Mode::FullTrust, T0 + MINUTE);
    assert_eq!(full, Decision::Ask, "{}", verdict.reason);
    assert!(
        verdict.reason.contains("warden asks again at 200"),
        "{}",
        verdict.reason
    );
}

#[test]
fn seed_five_hundred_people_with_one_message_is_refused_in_every_mode() {
    let step = send_to(500);
    let risks = watch(&[], T0, T0, &counts(&step), &Thresholds::new());
    let stop = risks
        .iter()
        .find(|risk| risk.rule == "watch.stop_recipients")
        .cloned();
    let Some(stop) = stop else {
        unreachable!("500 recipients is refused: {:?}", rules(&risks))
    };
    assert!(stop.refused && stop.irreducible);
    assert!(
        stop.reason
            .contains("nobody's trust reaches five hundred people with one message"),
        "{}",
        stop.reason
    );
    for mode in [
        Mode::PlanOnly,
        Mode::AskFirst,
        Mode::EditFreely,
        Mode::Auto,
        Mode::FullTrust,
    ] {
        let (decision, verdict) = decision(&Chat::default(), &step, mode, T0);
        assert_eq!(decision, Decision::Deny, "{mode:?}: {}", verdict.reason);
        assert!(
            verdict
                .reason
                .ends_with("a mailing service made for it lets people unsubscribe."),
            "{mode:?}: the reason ends with the next step: {}",
            verdict.reason
        );
    }
    // 499 asks, in Full trust too (a crowd), but is not refused.
    let (full, verdict) = decision(&Chat::default(), &send_to(499), Mode::FullTrust, T0);
    assert_eq!(full, Decision::Ask, "{}", verdict.reason);
}

#[test]
fn counts_older_than_a_day_dont_count() {
    let cases: &[(i64, bool, &str)] = &[
        // (how long before now the 99 messages were sent, the 100th asks)
        (MINUTE, true, "a minute ago"),
        (DAY_MS, true, "exactly a day ago still counts"),
        (DAY_MS + 1, false, "a day and a millisecond ago"),
        (2 * DAY_MS, false, "two days ago"),
    ];
    for (ago, asks, what) in cases {
        let now = T0;
        let counted = vec![(now - ago, MESSAGES.to_string(), 99)];
        let risks = watch(&counted, now, now, &one(MESSAGES, 1), &Thresholds::new());
        assert_eq!(
            rules(&risks) == vec!["watch.messages_day"],
            *asks,
            "{what}: {:?}",
            rules(&risks)
        );
    }
}

#[test]
fn the_turn_window_resets_at_a_new_turn() {
    let mut chat = Chat::default();
    chat.new_turn(T0);
    for i in 0..19 {
        assert!(
            chat.step(T0 + i, &one(MESSAGES, 1)).is_empty(),
            "message {}",
            i + 1
        );
    }
    chat.new_turn(T0 + MINUTE);
    for i in 0..19 {
        assert!(
            chat.step(T0 + MINUTE + i, &one(MESSAGES, 1)).is_empty(),
            "a new turn starts over: message {}",
            i + 1
        );
    }
    let risks = chat.step(T0 + MINUTE + 19, &one(MESSAGES, 1));
    assert_eq!(
        rules(&risks),
        vec!["watch.messages_turn"],
        "the 20th of this turn"
    );
    assert!(
        risks[0].reason.contains("warden asks again at 40"),
        "{}",
        risks[0].reason
    );
}

#[test]
fn the_same_change_repeated_asks_at_five_then_full_trust_at_twenty() {
    let step = app_step(
        "notion",
        "update_page",
        json!({"page_id": "p1", "properties": {"Status": "Done", "Owner": "me"}}),
    );
    let mut chat = Chat::default();
    chat.new_turn(T0);
    let mut asked = Vec::new();
    for i in 1..=20i64 {
        let risks = chat.step(T0 + i, &counts(&step));
        if !risks.is_empty() {
            asked.push((i, rules(&risks)));
        }
    }
    assert_eq!(
        asked,
        vec![
            (5, vec!["watch.same_change"]),
            (10, vec!["watch.same_change"]),
            (15, vec!["watch.same_change"]),
            (20, vec!["watch.same_change", "watch.loop"]),
        ]
    );
    let reason = &chat.step(T0 + 100, &counts(&step));
    assert!(reason.is_empty(), "21 goes");

    // Different arguments are different changes; the keys' order is not.
    let mut chat = Chat::default();
    chat.new_turn(T0);
    for i in 1..=10i64 {
        let other = app_step("notion", "update_page", json!({"page_id": format!("p{i}")}));
        assert!(chat.step(T0 + i, &counts(&other)).is_empty(), "page {i}");
    }
    let a = change(&app_step(
        "notion",
        "update_page",
        json!({"a": 1, "b": [1, "x"]}),
    ));
    let b = change(&app_step(
        "notion",
        "update_page",
        json!({"b": [1, "x"], "a": 1}),
    ));
    assert_eq!(a, b, "the same change whatever the keys' order");
    let c = change(&app_step(
        "notion",
        "update_page",
        json!({"a": 1, "b": ["x", 1]}),
    ));
    assert_ne!(a, c, "an array's order matters");
    let d = change(&app_step(
        "github",
        "update_page",
        json!({"a": 1, "b": [1, "x"]}),
    ));
    assert_ne!(a, d, "another app is another change");
    // Stable across runs and machines: FNV-1a over the canonical form.
    assert_eq!(
        change(&app_step("gmail", "send_email", json!({"to": "a@x.com"}))),
        "changes:gmail:send_email:b6311035cff79897"
    );
}

#[test]
fn a_reason_names_the_repeated_tool() {
    let kind = "changes:notion:update_page:0123456789abcdef".to_string();
    let risks = watch(
        &[(T0, kind.clone(), 4)],
        T0,
        T0,
        &one(&kind, 1),
        &Thresholds::new(),
    );
    assert_eq!(rules(&risks), vec!["watch.same_change"]);
    assert!(
        risks[0]
            .reason
            .starts_with("this chat would have called update_page in notion with the same arguments 5 times this turn"),
        "{}",
        risks[0].reason
    );
}

#[test]
fn payments_a_day() {
    let pay = app_step(
        "stripe",
        "create_payment_link",
        json!({"price": "price_1", "quantity": 1}),
    );
    assert!(
        counts(&pay).contains(&(PAYMENTS.to_string(), 1)),
        "{:?}",
        counts(&pay)
    );
    let mut chat = Chat::default();
    let mut asked = Vec::new();
    for i in 1..=10i64 {
        let now = T0 + i * 60 * MINUTE;
        chat.new_turn(now);
        // Each with its own arguments: five payments, not one payment five times.
        let pay = app_step("shop", "place_order", json!({"item": format!("sku-{i}")}));
        let risks = chat.step(now, &counts(&pay));
        if !risks.is_empty() {
            asked.push((i, rules(&risks)));
        }
    }
    assert_eq!(
        asked,
        vec![
            (5, vec!["watch.payments_day"]),
            (10, vec!["watch.payments_day"])
        ]
    );
    let chat = Chat {
        counts: vec![(T0, PAYMENTS.into(), 4)],
        turn_start: T0,
    };
    let (_, verdict) = decision(&chat, &pay, Mode::FullTrust, T0 + MINUTE);
    assert!(
        verdict
            .risks
            .iter()
            .any(|s| s.risk.rule == "watch.payments_day" && s.risk.irreducible),
        "{:?}",
        verdict.risks
    );
}

#[test]
fn a_run_of_deletes_in_one_turn() {
    let mut chat = Chat::default();
    chat.new_turn(T0);
    for i in 1..=19i64 {
        let del = app_step(
            "gmail",
            "delete_email",
            json!({"message_id": format!("m{i}")}),
        );
        assert!(chat.step(T0 + i, &counts(&del)).is_empty(), "delete {i}");
    }
    let del = app_step("gmail", "delete_email", json!({"message_id": "m20"}));
    assert_eq!(
        rules(&chat.step(T0 + 20, &counts(&del))),
        vec!["watch.deletes_turn"]
    );
    // One batch of 25 ids asks at once; a batch of 100 asks in Full trust too.
    let batch = |n: usize| {
        app_step(
            "gmail",
            "batch_delete_emails",
            json!({"message_ids": (0..n).map(|i| format!("m{i}")).collect::<Vec<_>>()}),
        )
    };
    assert_eq!(
        rules(&watch(&[], T0, T0, &counts(&batch(25)), &Thresholds::new())),
        vec!["watch.deletes_turn"]
    );
    assert_eq!(
        rules(&watch(
            &[],
            T0,
            T0,
            &counts(&batch(100)),
            &Thresholds::new()
        )),
        vec!["watch.deletes_turn", "watch.mass_delete"]
    );
    assert!(watch(&[], T0, T0, &counts(&batch(19)), &Thresholds::new()).is_empty());
}

#[test]
fn a_thousand_people_a_day_stops() {
    let mut chat = Chat::default();
    let mut stopped = None;
    for i in 1..=5i64 {
        let now = T0 + i * 60 * MINUTE;
        chat.new_turn(now);
        let risks = chat.step(now, &counts(&send_to(300)));
        if risks
            .iter()
            .any(|risk| risk.rule == "watch.stop_recipients_day")
        {
            stopped = Some(i);
            break;
        }
    }
    assert_eq!(stopped, Some(4), "the fourth 300 reaches 1,200");
    // The next day starts over.
    let later = T0 + 4 * 60 * MINUTE + DAY_MS;
    assert!(
        !rules(&watch(
            &chat.counts,
            later,
            later,
            &counts(&send_to(300)),
            &Thresholds::new()
        ))
        .contains(&"watch.stop_recipients_day")
    );
}

#[test]
fn a_lookup_after_a_big_day_asks_nothing() {
    let counted = vec![
        (T0, MESSAGES.to_string(), 5_000),
        (T0, RECIPIENTS.to_string(), 5_000),
    ];
    let look = app_step("gmail", "search_emails", json!({"query": "from:bank"}));
    assert!(counts(&look).is_empty());
    assert!(watch(&counted, T0, T0 + 1, &counts(&look), &Thresholds::new()).is_empty());
}

/// What a step adds, by kind.
type Counts = Vec<(String, u32)>;

/// The kinds a step adds, without its `changes:` kind.
fn counted_kinds(step: &AppStep) -> Counts {
    counts(step)
        .into_iter()
        .filter(|(kind, _)| !kind.starts_with(CHANGES))
        .collect()
}

#[test]
fn counts_of_realistic_steps() {
    let m = |n| (MESSAGES.to_string(), n);
    let r = |n| (RECIPIENTS.to_string(), n);
    let d = |n| (DELETES.to_string(), n);
    let p = |n| (PAYMENTS.to_string(), n);
    let cases: Vec<(&str, AppStep, Counts)> = vec![
        (
            "Gmail, to as an array",
            app_step(
                "gmail",
                "send_email",
                json!({"to": ["a@x.com", "b@y.com"], "subject": "s", "body": "b"}),
            ),
            vec![m(1), r(2)],
        ),
        (
            "Gmail, to as a comma-separated string",
            app_step(
                "gmail",
                "send_email",
                json!({"to": "a@x.com, b@y.com", "subject": "s", "body": "b"}),
            ),
            vec![m(1), r(2)],
        ),
        (
            "Gmail, to, cc and bcc, a name with a comma and a repeat",
            app_step(
                "gmail",
                "gmail_send_message",
                json!({
                    "to": "\"Doe, Jane\" <jane@x.com>; bob@y.com",
                    "cc": ["carol@z.com"],
                    "bcc": "dave@w.com,JANE@x.com",
                    "body": "hi"
                }),
            ),
            vec![m(1), r(4)],
        ),
        (
            "Outlook over Graph, recipients nested in the message",
            app_step(
                "outlook",
                "send_mail",
                json!({"message": {"subject": "s", "toRecipients": [
                    {"emailAddress": {"address": "a@x.com"}},
                    {"emailAddress": {"address": "b@x.com"}}
                ], "ccRecipients": [{"emailAddress": {"address": "c@x.com"}}]}}),
            ),
            vec![m(1), r(3)],
        ),
        (
            "a Gmail draft names its addressees: sending it later names only its id",
            app_step(
                "gmail",
                "create_draft",
                json!({"to": emails(3), "subject": "s", "body": "b"}),
            ),
            vec![r(3)],
        ),
        (
            "Gmail sends a draft: one message, at least one person",
            app_step("gmail", "send_draft", json!({"draft_id": "r123"})),
            vec![m(1), r(1)],
        ),
        (
            "Slack, a message to one channel",
            app_step(
                "slack",
                "slack_post_message",
                json!({"channel_id": "C0123", "text": "hi"}),
            ),
            vec![m(1), r(1)],
        ),
        (
            "Slack, invite users to a channel (comma-separated ids)",
            app_step(
                "slack",
                "conversations_invite",
                json!({"channel": "C0123", "users": "U1,U2,U3"}),
            ),
            vec![m(1), r(3)],
        ),
        (
            "Slack, one message to several channels",
            app_step(
                "slack",
                "post_message",
                json!({"channel_ids": ["C1", "C2"], "text": "hi"}),
            ),
            vec![m(1), r(2)],
        ),
        (
            "Slack, a reply in a thread",
            app_step(
                "slack",
                "slack_reply_to_thread",
                json!({"channel_id": "C1", "thread_ts": "1.2", "text": "ok"}),
            ),
            vec![m(1), r(1)],
        ),
        (
            "GitHub, an issue with assignees: not a message, but it reaches them",
            app_step(
                "github",
                "create_issue",
                json!({"owner": "o", "repo": "r", "title": "t", "body": "b", "assignees": ["octocat", "hubot"]}),
            ),
            vec![r(2)],
        ),
        (
            "GitHub, a comment on an issue",
            app_step(
                "github",
                "add_issue_comment",
                json!({"owner": "o", "repo": "r", "issue_number": 7, "body": "b"}),
            ),
            vec![m(1), r(1)],
        ),
        (
            "GitHub, reviewers requested",
            app_step(
                "github",
                "update_pull_request",
                json!({"owner": "o", "repo": "r", "pull_number": 3, "reviewers": ["a", "b", "c"]}),
            ),
            vec![r(3)],
        ),
        (
            "GitHub, a file deleted",
            app_step(
                "github",
                "delete_file",
                json!({"owner": "o", "repo": "r", "path": "a.txt", "message": "rm"}),
            ),
            vec![d(1)],
        ),
        (
            "Notion, an edit changes only",
            app_step(
                "notion",
                "notion-update-page",
                json!({"page_id": "p", "command": "update_properties"}),
            ),
            vec![],
        ),
        (
            "Notion, a comment",
            app_step(
                "notion",
                "notion-create-comment",
                json!({"parent": {"page_id": "p"}, "rich_text": "ok"}),
            ),
            vec![m(1), r(1)],
        ),
        (
            "Notion, blocks deleted by id",
            app_step(
                "notion",
                "delete_blocks",
                json!({"block_ids": ["b1", "b2", "b3"]}),
            ),
            vec![d(3)],
        ),
        (
            "a calendar event with attendees invites them",
            app_step(
                "calendar",
                "create_event",
                json!({"summary": "s", "attendees": [{"email": "a@x.com"}, {"email": "b@x.com"}]}),
            ),
            vec![m(1), r(2)],
        ),
        (
            "an order pays",
            app_step("shop", "place_order", json!({"item": "sku-1"})),
            vec![p(1)],
        ),
        (
            "Gmail, a message deleted: a delete, not a message",
            app_step("gmail", "delete_email", json!({"message_id": "m1"})),
            vec![d(1)],
        ),
        (
            "Gmail, labels changed: handling a message sends none",
            app_step(
                "gmail",
                "modify_email",
                json!({"message_id": "m1", "addLabelIds": ["STARRED"]}),
            ),
            vec![],
        ),
        (
            "Gmail, marked as read",
            app_step("gmail", "markEmailAsRead", json!({"message_id": "m1"})),
            vec![],
        ),
        (
            "Slack, a message edited",
            app_step(
                "slack",
                "slack_update_message",
                json!({"channel_id": "C1", "ts": "1.2", "text": "fixed"}),
            ),
            vec![],
        ),
        (
            "Outlook, a message archived in German",
            app_step("outlook", "nachricht_archivieren", json!({"id": "m1"})),
            vec![],
        ),
        (
            "users changed without a message reach nobody",
            app_step(
                "admin",
                "update_users",
                json!({"users": ["u1", "u2"], "active": false}),
            ),
            vec![],
        ),
    ];
    for (what, step, want) in cases {
        assert_eq!(
            counted_kinds(&step),
            want,
            "{what}: {}:{}",
            step.app,
            step.tool
        );
        assert_eq!(
            counts(&step)
                .iter()
                .filter(|(kind, _)| kind.starts_with(CHANGES))
                .count(),
            1,
            "{what}: every change is counted once as itself"
        );
    }
}

#[test]
fn lookups_count_nothing() {
    let cases = [
        app_step(
            "gmail",
            "search_emails",
            json!({"query": "is:unread", "max_results": 10}),
        ),
        app_step("gmail", "read_email", json!({"message_id": "m1"})),
        app_step("slack", "slack_list_channels", json!({"limit": 100})),
        app_step("slack", "slack_get_users", json!({"users": ["U1", "U2"]})),
        app_step(
            "github",
            "get_file_contents",
            json!({"owner": "o", "repo": "r", "path": "README.md"}),
        ),
        app_step(
            "github",
            "list_issues",
            json!({"owner": "o", "repo": "r", "assignee": "octocat"}),
        ),
        app_step("notion", "notion-search", json!({"query": "roadmap"})),
        app_step("notion", "notion-fetch", json!({"id": "p1"})),
    ];
    for step in cases {
        assert!(
            counts(&step).is_empty(),
            "{}:{} is a lookup: {:?}",
            step.app,
            step.tool,
            counts(&step)
        );
    }
}

#[test]
fn the_watch_is_total() {
    // A limit's arithmetic never overflows or divides by zero, whatever comes in.
    let counted = vec![
        (T0, RECIPIENTS.to_string(), u32::MAX),
        (T0, RECIPIENTS.to_string(), u32::MAX),
    ];
    let risks = watch(
        &counted,
        i64::MIN,
        i64::MIN,
        &[(RECIPIENTS.to_string(), u32::MAX)],
        &Thresholds::new(),
    );
    assert!(risks.iter().any(|risk| risk.refused));
    assert!(watch(&[], i64::MAX, i64::MAX, &[], &Thresholds::new()).is_empty());
    assert!(
        watch(
            &[],
            T0,
            T0,
            &[("unknown".into(), 7), (MESSAGES.into(), 0)],
            &Thresholds::new()
        )
        .is_empty()
    );
}

#[test]
fn an_app_step_naming_warden_s_address_is_refused_with_the_watch_joined_in() {
    // Regression: the runtime judges app steps here, and this once skipped `warden.itself`,
    // so an MCP call to warden's own address went through `warden serve` while `warden judge`
    // refused it.
    let step = app_step(
        "fetch",
        "fetch",
        json!({"url": "http://127.0.0.1:7411/v1/chats/c/questions/1", "method": "POST"}),
    );
    for mode in [
        Mode::Auto,
        Mode::FullTrust,
        Mode::EditFreely,
        Mode::PlanOnly,
    ] {
        let (decision, verdict) = decision(&Chat::default(), &step, mode, T0);
        assert_eq!(decision, Decision::Deny, "{mode}: {verdict:?}");
        assert!(
            verdict.risks.iter().any(|s| s.risk.rule == "warden.itself"),
            "{mode}: {verdict:?}"
        );
        let alone = law::judge(&Step::App(step.clone()), &ctx(mode), &FakeFacts::unknown());
        assert_eq!(
            (alone.decision, alone.reason),
            (decision, verdict.reason),
            "{mode}: the law alone and with the watch agree"
        );
    }
}

/// The person's thresholds replace LIMITS' numbers: a newsletter limit of 10 asks at ten
/// people; a stop may come sooner but never later; an unknown rule is named.
#[test]
fn the_person_s_thresholds_replace_the_limits_numbers() {
    let mut given = std::collections::BTreeMap::new();
    given.insert("watch.recipients".to_string(), 10);
    let mine = thresholds(&given).unwrap_or_else(|e| panic!("{e}"));
    assert!(watch(&[], T0, T0, &counts(&send_to(9)), &mine).is_empty());
    let risks = watch(&[], T0, T0, &counts(&send_to(10)), &mine);
    assert!(
        risks.iter().any(|r| r.rule == "watch.recipients"),
        "{risks:?}"
    );
    assert!(watch(&[], T0, T0, &counts(&send_to(10)), &Thresholds::new()).is_empty());

    let mut sooner = std::collections::BTreeMap::new();
    sooner.insert("watch.stop_recipients".to_string(), 200);
    let sooner = thresholds(&sooner).unwrap_or_else(|e| panic!("{e}"));
    let risks = watch(&[], T0, T0, &counts(&send_to(200)), &sooner);
    assert!(
        risks
            .iter()
            .any(|r| r.rule == "watch.stop_recipients" && r.refused),
        "{risks:?}"
    );
    for (rule, n, names) in [
        ("watch.stop_recipients", 5_000, "never later"),
        ("watch.recipients", 0, "above zero"),
        ("watch.newsletters", 10, "watch.newsletters"),
    ] {
        let mut bad = std::collections::BTreeMap::new();
        bad.insert(rule.to_string(), n);
        let error = thresholds(&bad).err().unwrap_or_default();
        assert!(error.contains(names), "{rule} {n}: {error}");
    }
}
