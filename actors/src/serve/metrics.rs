//! What `GET /metrics` shows, in Prometheus's text format, written by hand: decisions by
//! verdict and by rule, how long judging took, the chats in memory, the log's size, and the
//! second look's looks (asked, answered by kind, unreadable, timed out, busy, failed, refused
//! by calibration, their latency) and whether it is on, and the connections refused past the
//! cap or closed for a head or an answer that didn't move in time (`hold.rs`).

use crate::second_look::{BUCKETS as LOOK_BUCKETS, Figures};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
use warden::verdict::{Decision, Verdict};

/// The judge latency histogram's upper bounds, in seconds.
pub const BUCKETS: [f64; 14] = [
    0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
];

/// The counters, shared by every request.
#[derive(Debug, Default)]
pub struct Metrics {
    /// allow, ask, deny.
    decisions: [AtomicU64; 3],
    /// How many judged steps each rule fired in.
    rules: Mutex<BTreeMap<&'static str, u64>>,
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
    pub chats_in_memory: Option<usize>,
    /// The event log's bytes on disk, if it could be read.
    pub log_bytes: Option<u64>,
}

impl Metrics {
    /// Counts one judged step and how long it took.
    pub fn judged(&self, verdict: &Verdict, took: Duration) {
        if let Some(counter) = self.decisions.get(index(verdict.decision)) {
            counter.fetch_add(1, Ordering::Relaxed);
        }
        if !verdict.risks.is_empty() {
            let mut rules = self.rules.lock().unwrap_or_else(|e| e.into_inner());
            for scored in &verdict.risks {
                *rules.entry(scored.risk.rule.name()).or_default() += 1;
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
        {
            let rules = self.rules.lock().unwrap_or_else(|e| e.into_inner());
            for (rule, n) in rules.iter() {
                let _ = writeln!(
                    out,
                    "warden_decision_rules_total{{rule=\"{}\"}} {n}",
                    escape(rule)
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
        if let Some(n) = gauges.chats_in_memory {
            out.push_str("# HELP warden_chats_in_memory Chats and tasks held in memory.\n");
            out.push_str("# TYPE warden_chats_in_memory gauge\n");
            let _ = writeln!(out, "warden_chats_in_memory {n}");
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
            chats_in_memory: Some(2),
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
    }
}
