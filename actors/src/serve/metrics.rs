//! What `GET /metrics` shows, in Prometheus's text format, written by hand: decisions by
//! verdict and by rule, how long judging took, the chats in memory (and how many have an
//! actor), the log's size, and the
//! second look's looks (asked, answered by kind, unreadable, timed out, busy, failed, refused
//! by calibration, their latency) and whether it is on, and the connections refused past the
//! cap or closed for a head or an answer that didn't move in time (`hold.rs`).

use crate::runtime::InMemory;
use crate::second_look::{BUCKETS as LOOK_BUCKETS, Figures};
use std::fmt::Write as _;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
use warden::law::rule::RULES;
use warden::verdict::{Decision, Verdict};

/// The judge latency histogram's upper bounds, in seconds.
pub const BUCKETS: [f64; 14] = [
    0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
];

/// The counters, shared by every request.
#[derive(Debug)]
pub struct Metrics {
    /// allow, ask, deny.
    decisions: [AtomicU64; 3],
    /// How many judged steps each rule fired in, by the rule's place in [`RULES`]: counters,
    /// not a map behind a lock, since every judge request counts.
    rules: Box<[AtomicU64]>,
    /// Judge requests per bucket (not cumulative; summed when shown), the last for +Inf.
    buckets: [AtomicU64; BUCKETS.len() + 1],
    /// Total judge time, in nanoseconds.
    sum_nanos: AtomicU64,
    /// Judge requests that failed (500): the hook asks.
    failures: AtomicU64,
    /// Connections answered 503 and closed: past `limits.connections`.
    refused: AtomicU64,
    /// Connections closed because a head didn't arrive, or an answer wasn't taken, in time.
    timed_out: AtomicU64,
}

impl Default for Metrics {
    fn default() -> Metrics {
        Metrics {
            decisions: Default::default(),
            rules: RULES.iter().map(|_| AtomicU64::new(0)).collect(),
            buckets: Default::default(),
            sum_nanos: AtomicU64::new(0),
            failures: AtomicU64::new(0),
            refused: AtomicU64::new(0),
            timed_out: AtomicU64::new(0),
        }
    }
}

fn index(decision: Decision) -> usize {
    match decision {
        Decision::Allow => 0,
        Decision::Ask => 1,
        Decision::Deny => 2,
    }
}

/// The process-wide figures that are read, not counted.
#[derive(Debug, Clone, Default)]
pub struct Gauges {
    /// The second look's figures, when one is configured.
    pub look: Option<Figures>,
    /// Chats in memory, if the runtime answered.
    pub chats: Option<InMemory>,
    /// The event log's bytes on disk, if it could be read.
    pub log_bytes: Option<u64>,
}

impl Metrics {
    /// Counts one judged step and how long it took.
    pub fn judged(&self, verdict: &Verdict, took: Duration) {
        if let Some(counter) = self.decisions.get(index(verdict.decision)) {
            counter.fetch_add(1, Ordering::Relaxed);
        }
        for scored in &verdict.risks {
            if let Some(counter) = self.rules.get(scored.risk.rule as usize) {
                counter.fetch_add(1, Ordering::Relaxed);
            }
        }
        let seconds = took.as_secs_f64();
        let bucket = BUCKETS
            .iter()
            .position(|le| seconds <= *le)
            .unwrap_or(BUCKETS.len());
        if let Some(counter) = self.buckets.get(bucket) {
            counter.fetch_add(1, Ordering::Relaxed);
        }
        let nanos = u64::try_from(took.as_nanos()).unwrap_or(u64::MAX);
        self.sum_nanos.fetch_add(nanos, Ordering::Relaxed);
    }

    /// Counts one judge request that failed.
    pub fn failed(&self) {
        self.failures.fetch_add(1, Ordering::Relaxed);
    }

    /// Counts one connection refused past the cap.
    pub fn refused(&self) {
        self.refused.fetch_add(1, Ordering::Relaxed);
    }

    /// Counts one connection closed for a head or an answer that didn't move in time.
    pub fn timed_out(&self) {
        self.timed_out.fetch_add(1, Ordering::Relaxed);
    }

    /// The text `GET /metrics` answers.
    pub fn render(&self, gauges: Gauges) -> String {
        let mut out = String::with_capacity(2048);
        out.push_str("# HELP warden_decisions_total Steps judged over HTTP, by decision.\n");
        out.push_str("# TYPE warden_decisions_total counter\n");
        for (decision, counter) in ["allow", "ask", "deny"].iter().zip(&self.decisions) {
            let n = counter.load(Ordering::Relaxed);
            let _ = writeln!(out, "warden_decisions_total{{decision=\"{decision}\"}} {n}");
        }
        out.push_str(
            "# HELP warden_decision_rules_total Steps judged over HTTP in which a rule fired, by rule.\n",
        );
        out.push_str("# TYPE warden_decision_rules_total counter\n");
        // RULES is sorted by name: the rules that fired, in that order.
        for (rule, counter) in RULES.iter().zip(self.rules.iter()) {
            let n = counter.load(Ordering::Relaxed);
            if n > 0 {
                let _ = writeln!(
                    out,
                    "warden_decision_rules_total{{rule=\"{}\"}} {n}",
                    escape(rule.name)
                );
            }
        }
        out.push_str("# HELP warden_judge_seconds Time to answer a judge request.\n");
        out.push_str("# TYPE warden_judge_seconds histogram\n");
        let mut cumulative = 0u64;
        for (le, counter) in BUCKETS.iter().zip(&self.buckets) {
            cumulative += counter.load(Ordering::Relaxed);
            let _ = writeln!(
                out,
                "warden_judge_seconds_bucket{{le=\"{le}\"}} {cumulative}"
            );
        }
        if let Some(counter) = self.buckets.last() {
            cumulative += counter.load(Ordering::Relaxed);
        }
        let _ = writeln!(
            out,
            "warden_judge_seconds_bucket{{le=\"+Inf\"}} {cumulative}"
        );
        let sum = self.sum_nanos.load(Ordering::Relaxed) as f64 / 1e9;
        let _ = writeln!(out, "warden_judge_seconds_sum {sum}");
        let _ = writeln!(out, "warden_judge_seconds_count {cumulative}");
        out.push_str("# HELP warden_judge_failures_total Judge requests that failed (answered 500; the hook asks).\n");
        out.push_str("# TYPE warden_judge_failures_total counter\n");
        let _ = writeln!(
            out,
            "warden_judge_failures_total {}",
            self.failures.load(Ordering::Relaxed)
        );
        for (name, help, counter) in [
            (
                "warden_http_connections_refused_total",
                "Connections answered 503 and closed: past limits.connections.",
                &self.refused,
            ),
            (
                "warden_http_connections_timed_out_total",
                "Connections closed because a request's head didn't arrive, or an answer wasn't taken, in time.",
                &self.timed_out,
            ),
        ] {
            let _ = writeln!(out, "# HELP {name} {help}");
            let _ = writeln!(out, "# TYPE {name} counter");
            let _ = writeln!(out, "{name} {}", counter.load(Ordering::Relaxed));
        }
        if let Some(n) = gauges.chats {
            out.push_str("# HELP warden_chats_in_memory Chats and tasks held in memory.\n");
            out.push_str("# TYPE warden_chats_in_memory gauge\n");
            let _ = writeln!(out, "warden_chats_in_memory {}", n.total());
            out.push_str("# HELP warden_chat_actors Chats and tasks in memory with an actor; the others are idle, held as their state alone.\n");
            out.push_str("# TYPE warden_chat_actors gauge\n");
            let _ = writeln!(out, "warden_chat_actors {}", n.actors);
        }
        if let Some(n) = gauges.log_bytes {
            out.push_str("# HELP warden_log_bytes The event log's size on disk, in bytes.\n");
            out.push_str("# TYPE warden_log_bytes gauge\n");
            let _ = writeln!(out, "warden_log_bytes {n}");
        }
        if let Some(look) = &gauges.look {
            render_look(&mut out, look);
        }
        out
    }
}

/// The second look's series.
fn render_look(out: &mut String, look: &Figures) {
    let counter = |out: &mut String, name: &str, help: &str, n: u64| {
        let _ = writeln!(out, "# HELP {name} {help}");
        let _ = writeln!(out, "# TYPE {name} counter");
        let _ = writeln!(out, "{name} {n}");
    };
    out.push_str("# HELP warden_look_on Whether the second look is on: its model passed its last calibration.\n");
    out.push_str("# TYPE warden_look_on gauge\n");
    let _ = writeln!(out, "warden_look_on {}", u8::from(look.usable));
    counter(
        out,
        "warden_look_asked_total",
        "Looks asked of the model for a step.",
        look.asked,
    );
    out.push_str("# HELP warden_look_answered_total Looks the model answered, by kind.\n");
    out.push_str("# TYPE warden_look_answered_total counter\n");
    for (kind, n) in &look.answered {
        let _ = writeln!(
            out,
            "warden_look_answered_total{{kind=\"{}\"}} {n}",
            kind.name()
        );
    }
    counter(
        out,
        "warden_look_unreadable_total",
        "Looks whose answer was not exactly one kind (the question stood).",
        look.unreadable,
    );
    counter(
        out,
        "warden_look_timed_out_total",
        "Looks with no answer within timeout_ms (the question stood).",
        look.timed_out,
    );
    counter(
        out,
        "warden_look_failed_total",
        "Looks that failed otherwise: unreachable, an HTTP error, not a completion (the question stood).",
        look.failed,
    );
    counter(
        out,
        "warden_look_busy_total",
        "Steps that didn't wait because another look was in flight (the question stood).",
        look.busy,
    );
    counter(
        out,
        "warden_look_refused_total",
        "Looks not asked because the model isn't calibrated or failed its calibration (the question stood).",
        look.refused,
    );
    out.push_str("# HELP warden_look_calibrations_total Calibrations of the model, by result.\n");
    out.push_str("# TYPE warden_look_calibrations_total counter\n");
    let _ = writeln!(
        out,
        "warden_look_calibrations_total{{result=\"passed\"}} {}",
        look.calibrations_passed
    );
    let _ = writeln!(
        out,
        "warden_look_calibrations_total{{result=\"failed\"}} {}",
        look.calibrations_failed
    );
    out.push_str(
        "# HELP warden_look_seconds Time a look asked for a step took, answered or not.\n",
    );
    out.push_str("# TYPE warden_look_seconds histogram\n");
    for (le, n) in LOOK_BUCKETS.iter().zip(&look.buckets) {
        let _ = writeln!(out, "warden_look_seconds_bucket{{le=\"{le}\"}} {n}");
    }
    let total = look.buckets.last().copied().unwrap_or_default();
    let _ = writeln!(out, "warden_look_seconds_bucket{{le=\"+Inf\"}} {total}");
    let _ = writeln!(out, "warden_look_seconds_sum {}", look.sum_seconds);
    let _ = writeln!(out, "warden_look_seconds_count {total}");
}

/// A label value as Prometheus's text format writes it.
fn escape(value: &str) -> String {
    value
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use warden::verdict::{Harm, Risk, Scored};

    fn verdict(decision: Decision, rules: &[&'static str]) -> Verdict {
        Verdict {
            decision,
            score: 0,
            reason: String::new(),
            risks: rules
                .iter()
                .map(|rule| Scored {
                    risk: Risk::new(
                        warden::law::rule::RuleId::parse(rule)
                            .unwrap_or(warden::law::rule::RuleId::ShellUnknown),
                        Harm::Moderate,
                        false,
                        "x",
                    ),
                    score: 1,
                    wanted: warden::intent::Wanted::Neither,
                    because: None,
                })
                .collect(),
        }
    }

    #[test]
    fn the_text_counts_decisions_rules_and_latency() {
        let metrics = Metrics::default();
        metrics.judged(
            &verdict(Decision::Ask, &["git.push"]),
            Duration::from_micros(300),
        );
        metrics.judged(&verdict(Decision::Allow, &[]), Duration::from_millis(3));
        metrics.judged(&verdict(Decision::Allow, &[]), Duration::from_secs(9));
        let text = metrics.render(Gauges {
            chats: Some(InMemory { actors: 1, idle: 1 }),
            log_bytes: Some(4096),
            look: None,
        });
        assert!(!text.contains("warden_look"), "no look configured: {text}");
        for line in [
            "warden_decisions_total{decision=\"allow\"} 2",
            "warden_decisions_total{decision=\"ask\"} 1",
            "warden_decisions_total{decision=\"deny\"} 0",
            "warden_decision_rules_total{rule=\"git.push\"} 1",
            "warden_judge_seconds_bucket{le=\"0.00025\"} 0",
            "warden_judge_seconds_bucket{le=\"0.0005\"} 1",
            "warden_judge_seconds_bucket{le=\"0.005\"} 2",
            "warden_judge_seconds_bucket{le=\"2.5\"} 2",
            "warden_judge_seconds_bucket{le=\"+Inf\"} 3",
            "warden_judge_seconds_count 3",
            "warden_chats_in_memory 2",
            "warden_chat_actors 1",
            "warden_log_bytes 4096",
        ] {
            assert!(
                text.lines().any(|l| l == line),
                "missing `{line}` in:\n{text}"
            );
        }
        let sum: f64 = text
            .lines()
            .find_map(|l| l.strip_prefix("warden_judge_seconds_sum "))
            .and_then(|s| s.parse().ok())
            .unwrap_or_default();
        assert!((sum - 9.0033).abs() < 1e-9, "{sum}");
    }

    #[test]
    fn the_look_s_series_show_each_count_and_a_cumulative_histogram() {
        use warden::second_look::Kind;
        let mut answered = [(Kind::NotRisky, 0); 6];
        for (n, kind) in Kind::ALL.into_iter().enumerate() {
            answered[n] = (kind, u64::from(kind == Kind::Destroy) * 4);
        }
        let mut buckets = vec![0; LOOK_BUCKETS.len() + 1];
        for (n, b) in buckets.iter_mut().enumerate() {
            *b = if n < 4 { 0 } else { 5 };
        }
        let figures = Figures {
            asked: 5,
            answered,
            unreadable: 1,
            timed_out: 0,
            busy: 2,
            failed: 0,
            refused: 7,
            calibrations_passed: 0,
            calibrations_failed: 3,
            buckets,
            sum_seconds: 6.5,
            usable: false,
        };
        let text = Metrics::default().render(Gauges {
            look: Some(figures),
            ..Gauges::default()
        });
        for line in [
            "warden_look_on 0",
            "warden_look_asked_total 5",
            "warden_look_answered_total{kind=\"destroy\"} 4",
            "warden_look_answered_total{kind=\"not_risky\"} 0",
            "warden_look_unreadable_total 1",
            "warden_look_busy_total 2",
            "warden_look_refused_total 7",
            "warden_look_calibrations_total{result=\"failed\"} 3",
            "warden_look_seconds_bucket{le=\"1\"} 0",
            "warden_look_seconds_bucket{le=\"2\"} 5",
            "warden_look_seconds_bucket{le=\"+Inf\"} 5",
            "warden_look_seconds_sum 6.5",
            "warden_look_seconds_count 5",
            "# TYPE warden_look_seconds histogram",
        ] {
            assert!(
                text.lines().any(|l| l == line),
                "missing `{line}` in:\n{text}"
            );
        }
    }

    #[test]
    fn label_values_are_escaped() {
        assert_eq!(escape("a\"b\\c\nd"), "a\\\"b\\\\c\\nd");
        // Read back as Prometheus reads it, any value is itself again.
        for value in ["a\"b\\c\nd", "\\n", "\"\"", "x\\", "plain.rule", ""] {
            let line = format!("warden_x_total{{rule=\"{}\"}} 1", escape(value));
            let samples = exposition(&format!(
                "# HELP warden_x_total x.\n# TYPE warden_x_total counter\n{line}\n"
            ))
            .unwrap_or_else(|e| panic!("{value:?}: {e}"));
            assert_eq!(
                samples[0].labels,
                [("rule".to_string(), value.to_string())],
                "{line}"
            );
        }
    }

    /// Every figure shown, every family, every label.
    fn everything() -> String {
        let metrics = Metrics::default();
        metrics.judged(
            &verdict(Decision::Ask, &["git.push", "shell.unknown"]),
            Duration::from_micros(300),
        );
        metrics.judged(&verdict(Decision::Deny, &[]), Duration::from_secs(9));
        metrics.failed();
        metrics.refused();
        metrics.timed_out();
        let figures = Figures {
            asked: 5,
            answered: warden::second_look::Kind::ALL.map(|kind| (kind, 1)),
            unreadable: 1,
            timed_out: 1,
            busy: 2,
            failed: 1,
            refused: 7,
            calibrations_passed: 1,
            calibrations_failed: 3,
            buckets: (0..=LOOK_BUCKETS.len() as u64).collect(),
            sum_seconds: 6.5,
            usable: true,
        };
        metrics.render(Gauges {
            look: Some(figures),
            chats: Some(InMemory { actors: 3, idle: 4 }),
            log_bytes: Some(1 << 20),
        })
    }

    #[test]
    fn the_text_is_prometheus_s_exposition_format() {
        let text = everything();
        let samples = exposition(&text).unwrap_or_else(|e| panic!("{e} in:\n{text}"));
        let families: std::collections::BTreeSet<&str> = text
            .lines()
            .filter_map(|l| l.strip_prefix("# TYPE "))
            .filter_map(|l| l.split(' ').next())
            .collect();
        assert_eq!(families.len(), 19, "{families:?}");
        // Three decisions, two rules, the judge's histogram (its buckets, +Inf, sum and
        // count), six figures of the server's and two of the look's (on, asked), six kinds,
        // five of the look's other counts, two calibration results and the look's histogram.
        let histogram = |buckets: usize| buckets + 3;
        assert_eq!(
            samples.len(),
            3 + 2 + histogram(BUCKETS.len()) + 6 + 2 + 6 + 5 + 2 + histogram(LOOK_BUCKETS.len()),
            "{text}"
        );
        // With nothing counted yet, still the format (a family may have no sample).
        let empty = Metrics::default().render(Gauges::default());
        exposition(&empty).unwrap_or_else(|e| panic!("{e} in:\n{empty}"));
    }

    #[test]
    fn the_format_check_finds_what_is_wrong() {
        let head = "# HELP warden_x_total x.\n# TYPE warden_x_total counter\n";
        let histogram = "# HELP warden_h_seconds h.\n# TYPE warden_h_seconds histogram\n";
        for (text, wrong) in [
            ("warden_x_total 1\n".to_string(), "before its TYPE"),
            (format!("{head}{head}warden_x_total 1\n"), "twice"),
            (
                format!("{head}warden_x_total{{rule=\"a\"b\"}} 1\n"),
                "label",
            ),
            (
                format!("{head}warden_x_total{{rule=\"a\\qb\"}} 1\n"),
                "escape",
            ),
            (format!("{head}warden_x_total{{rule=\"a\"}} one\n"), "value"),
            (
                format!("{head}warden_x_total 1\nwarden_x_total 2\n"),
                "twice",
            ),
            (format!("{head}warden_y_total 1\n"), "family"),
            (format!("{head}warden x_total 1\n"), "value"),
            (
                format!("# HELP warden_g g.\n# TYPE warden_g gauge\n{head}warden_g 1\n"),
                "family",
            ),
            (
                format!(
                    "{histogram}warden_h_seconds_bucket{{le=\"1\"}} 2\nwarden_h_seconds_bucket{{le=\"+Inf\"}} 1\nwarden_h_seconds_sum 1\nwarden_h_seconds_count 1\n"
                ),
                "cumulative",
            ),
            (
                format!(
                    "{histogram}warden_h_seconds_bucket{{le=\"1\"}} 1\nwarden_h_seconds_sum 1\nwarden_h_seconds_count 1\n"
                ),
                "+Inf",
            ),
            (
                format!(
                    "{histogram}warden_h_seconds_bucket{{le=\"+Inf\"}} 2\nwarden_h_seconds_sum 1\nwarden_h_seconds_count 1\n"
                ),
                "count",
            ),
            (
                "# HELP warden_c c.\n# TYPE warden_c counter\nwarden_c 1\n".to_string(),
                "_total",
            ),
            (format!("{head}warden_x_total 1"), "newline"),
        ] {
            match exposition(&text) {
                Ok(_) => panic!("`{wrong}` passed:\n{text}"),
                Err(e) => assert!(e.contains(wrong), "`{wrong}`: {e}\n{text}"),
            }
        }
    }

    /// One sample as Prometheus reads it.
    #[derive(Debug)]
    struct Sample {
        name: String,
        labels: Vec<(String, String)>,
        value: f64,
    }

    fn is_name(name: &str, colons: bool) -> bool {
        let mut chars = name.chars();
        chars
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || (colons && c == ':'))
            && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || (colons && c == ':'))
    }

    /// Reads `text` as Prometheus's text exposition format (0.0.4) reads it, with the rules
    /// warden keeps beside it: each family's HELP then TYPE once, before its samples, which
    /// follow together; a counter named `_total`; a histogram's buckets cumulative up to
    /// `+Inf`, which is its count. The first rule broken is the error.
    fn exposition(text: &str) -> Result<Vec<Sample>, String> {
        if !text.ends_with('\n') {
            return Err("the text doesn't end with a newline".into());
        }
        let mut samples: Vec<Sample> = Vec::new();
        let mut helped = std::collections::BTreeSet::new();
        let mut typed = std::collections::BTreeMap::new();
        let mut family: Option<(String, String)> = None;
        let mut seen = std::collections::BTreeSet::new();
        let mut buckets: Vec<(f64, f64)> = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let at = |e: &str| format!("line {}: {e}: `{line}`", n + 1);
            if let Some(help) = line.strip_prefix("# HELP ") {
                let (name, doc) = help
                    .split_once(' ')
                    .ok_or_else(|| at("a HELP without text"))?;
                if !is_name(name, true) || !helped.insert(name.to_string()) {
                    return Err(at("a HELP twice, or of no name"));
                }
                if doc.replace("\\\\", "").replace("\\n", "").contains('\\') {
                    return Err(at("a HELP escape other than \\\\ and \\n"));
                }
                continue;
            }
            if let Some(kind) = line.strip_prefix("# TYPE ") {
                let (name, kind) = kind
                    .split_once(' ')
                    .ok_or_else(|| at("a TYPE without kind"))?;
                if !["counter", "gauge", "histogram"].contains(&kind) {
                    return Err(at("a TYPE of no kind warden writes"));
                }
                if typed.insert(name.to_string(), kind.to_string()).is_some() {
                    return Err(at("a TYPE twice"));
                }
                if !helped.contains(name) {
                    return Err(at("a TYPE before its HELP"));
                }
                if kind == "counter" && !name.ends_with("_total") {
                    return Err(at("a counter not named _total"));
                }
                check_buckets(&buckets, &samples).map_err(|e| at(&e))?;
                buckets.clear();
                family = Some((name.to_string(), kind.to_string()));
                continue;
            }
            if line.starts_with('#') || line.is_empty() {
                return Err(at("a line that is neither HELP, TYPE nor a sample"));
            }
            let sample = sample(line).map_err(|e| at(&e))?;
            let Some((name, kind)) = &family else {
                return Err(at("a sample before its TYPE"));
            };
            let suffix = sample.name.strip_prefix(name.as_str());
            let belongs = match kind.as_str() {
                "histogram" => matches!(suffix, Some("_bucket" | "_sum" | "_count")),
                _ => suffix == Some(""),
            };
            if !belongs {
                return Err(at(&format!(
                    "a sample outside its family `{name}` (or before its TYPE)"
                )));
            }
            if !seen.insert(format!("{}{:?}", sample.name, sample.labels)) {
                return Err(at("a sample twice"));
            }
            if suffix == Some("_bucket") {
                let le = sample
                    .labels
                    .iter()
                    .find(|(k, _)| k == "le")
                    .and_then(|(_, v)| v.parse::<f64>().ok())
                    .ok_or_else(|| at("a bucket without its le"))?;
                buckets.push((le, sample.value));
            }
            samples.push(sample);
        }
        check_buckets(&buckets, &samples)?;
        Ok(samples)
    }

    /// A histogram's buckets: `le` rising, counts cumulative, the last `+Inf` and its count.
    fn check_buckets(buckets: &[(f64, f64)], samples: &[Sample]) -> Result<(), String> {
        if buckets.is_empty() {
            return Ok(());
        }
        if buckets
            .windows(2)
            .any(|w| w[0].0 >= w[1].0 || w[0].1 > w[1].1)
        {
            return Err("buckets not rising, or counts not cumulative".into());
        }
        if buckets.last().map(|b| b.0) != Some(f64::INFINITY) {
            return Err("a histogram without its +Inf bucket".into());
        }
        let count = samples
            .iter()
            .rev()
            .find(|s| s.name.ends_with("_count"))
            .map(|s| s.value);
        if count != buckets.last().map(|b| b.1) {
            return Err("the +Inf bucket is not the histogram's count".into());
        }
        Ok(())
    }

    /// `name{label="value",…} value`, label values unescaped.
    fn sample(line: &str) -> Result<Sample, String> {
        let end = line.find(['{', ' ']).ok_or("a sample without a value")?;
        let name = &line[..end];
        if !is_name(name, true) {
            return Err(format!("`{name}` is no metric name"));
        }
        let mut rest = &line[end..];
        let mut labels = Vec::new();
        if let Some(after) = rest.strip_prefix('{') {
            rest = after;
            while let Some(eq) = rest.find("=\"") {
                let label = &rest[..eq];
                if !is_name(label, false) || labels.iter().any(|(k, _)| k == label) {
                    return Err(format!("`{label}` is no label name, or twice"));
                }
                let mut value = String::new();
                let mut chars = rest[eq + 2..].char_indices();
                let close = loop {
                    match chars.next() {
                        Some((_, '\\')) => match chars.next() {
                            Some((_, '\\')) => value.push('\\'),
                            Some((_, '"')) => value.push('"'),
                            Some((_, 'n')) => value.push('\n'),
                            _ => {
                                return Err(
                                    "a label value's escape other than \\\\, \\\" and \\n".into()
                                );
                            }
                        },
                        Some((i, '"')) => break eq + 2 + i,
                        Some((_, '\n')) | None => return Err("a label value not closed".into()),
                        Some((_, c)) => value.push(c),
                    }
                };
                labels.push((label.to_string(), value));
                rest = &rest[close + 1..];
                match rest.as_bytes().first() {
                    Some(b',') => rest = &rest[1..],
                    Some(b'}') => break,
                    _ => return Err("a label value followed by neither , nor }".into()),
                }
            }
            rest = rest.strip_prefix('}').ok_or("labels not closed by }")?;
        }
        let value = rest
            .strip_prefix(' ')
            .filter(|v| !v.contains(' '))
            .and_then(|v| v.parse::<f64>().ok())
            .ok_or("a sample's value is not one number")?;
        Ok(Sample {
            name: name.to_string(),
            labels,
            value,
        })
    }
}
