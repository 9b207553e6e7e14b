//! Someone else's systems: cloud infrastructure, clusters and deployed apps. A change scores
//! three before reading (Auto asks unless the person asked), production needs its word.

use super::Scan;
use crate::law::rule::RuleId;
use crate::shell::Command;
use crate::verdict::{Harm, Risk};
use crate::wish::{Act, Name, Wish};

/// What a tool's subcommand does to the systems it reaches.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Effect {
    Change,
    Destroy,
}

/// (program, subcommand words, effect): the first positional words must match in order.
/// `*` matches any one word.
#[rustfmt::skip]
const TABLE: &[(&str, &[&str], Effect)] = &[
    ("terraform", &["apply"], Effect::Change),
    ("terraform", &["destroy"], Effect::Destroy),
    ("terraform", &["import"], Effect::Change),
    ("terraform", &["taint"], Effect::Change),
    ("terraform", &["state", "rm"], Effect::Destroy),
    ("terraform", &["state", "push"], Effect::Change),
    ("terraform", &["workspace", "delete"], Effect::Destroy),
    ("tofu", &["apply"], Effect::Change),
    ("tofu", &["destroy"], Effect::Destroy),
    ("terragrunt", &["apply"], Effect::Change),
    ("terragrunt", &["run-all", "apply"], Effect::Change),
    ("terragrunt", &["destroy"], Effect::Destroy),
    ("terragrunt", &["run-all", "destroy"], Effect::Destroy),
    ("kubectl", &["apply"], Effect::Change),
    ("kubectl", &["create"], Effect::Change),
    ("kubectl", &["replace"], Effect::Change),
    ("kubectl", &["patch"], Effect::Change),
    ("kubectl", &["edit"], Effect::Change),
    ("kubectl", &["scale"], Effect::Change),
    ("kubectl", &["autoscale"], Effect::Change),
    ("kubectl", &["set"], Effect::Change),
    ("kubectl", &["rollout", "restart"], Effect::Change),
    ("kubectl", &["rollout", "undo"], Effect::Change),
    ("kubectl", &["drain"], Effect::Change),
    ("kubectl", &["cordon"], Effect::Change),
    ("kubectl", &["taint"], Effect::Change),
    ("kubectl", &["label"], Effect::Change),
    ("kubectl", &["annotate"], Effect::Change),
    ("kubectl", &["expose"], Effect::Change),
    ("kubectl", &["run"], Effect::Change),
    ("kubectl", &["delete"], Effect::Destroy),
    ("helm", &["install"], Effect::Change),
    ("helm", &["upgrade"], Effect::Change),
    ("helm", &["rollback"], Effect::Change),
    ("helm", &["uninstall"], Effect::Destroy),
    ("helm", &["delete"], Effect::Destroy),
    ("fly", &["deploy"], Effect::Change),
    ("fly", &["scale"], Effect::Change),
    ("fly", &["secrets", "set"], Effect::Change),
    ("fly", &["apps", "destroy"], Effect::Destroy),
    ("fly", &["destroy"], Effect::Destroy),
    ("vercel", &[], Effect::Change),
    ("vercel", &["deploy"], Effect::Change),
    ("vercel", &["promote"], Effect::Change),
    ("vercel", &["rollback"], Effect::Change),
    ("vercel", &["remove"], Effect::Destroy),
    ("vercel", &["rm"], Effect::Destroy),
    ("netlify", &["deploy"], Effect::Change),
    ("pulumi", &["up"], Effect::Change),
    ("pulumi", &["update"], Effect::Change),
    ("pulumi", &["destroy"], Effect::Destroy),
    ("cdk", &["deploy"], Effect::Change),
    ("cdk", &["destroy"], Effect::Destroy),
    ("serverless", &["deploy"], Effect::Change),
    ("serverless", &["remove"], Effect::Destroy),
    ("heroku", &["releases:rollback"], Effect::Change),
    ("heroku", &["apps:destroy"], Effect::Destroy),
    ("ansible-playbook", &["*"], Effect::Change),
    ("eb", &["deploy"], Effect::Change),
    ("eb", &["terminate"], Effect::Destroy),
    ("firebase", &["deploy"], Effect::Change),
    ("wrangler", &["deploy"], Effect::Change),
    ("wrangler", &["publish"], Effect::Change),
    ("railway", &["up"], Effect::Change),
    ("docker", &["stack", "deploy"], Effect::Change),
    ("docker", &["stack", "rm"], Effect::Destroy),
    ("doctl", &["*", "*", "delete"], Effect::Destroy),
    ("doctl", &["*", "*", "create"], Effect::Change),
    ("aws", &["cloudformation", "deploy"], Effect::Change),
    ("aws", &["cloudformation", "create-stack"], Effect::Change),
    ("aws", &["cloudformation", "update-stack"], Effect::Change),
    ("aws", &["cloudformation", "delete-stack"], Effect::Destroy),
    ("aws", &["s3", "rb"], Effect::Destroy),
    ("aws", &["ecs", "update-service"], Effect::Change),
    ("aws", &["lambda", "update-function-code"], Effect::Change),
];

/// Does the infrastructure table read this program's changes? Then its words are the
/// table's, not `words.rs`'s.
pub(super) fn knows(program: &str) -> bool {
    TABLE.iter().any(|(name, ..)| *name == program)
}

/// Kubernetes objects whose deletion takes everything in them.
const WHOLESALE: &[&str] = &[
    "namespace",
    "namespaces",
    "ns",
    "pv",
    "pvc",
    "persistentvolume",
    "persistentvolumeclaim",
    "node",
    "nodes",
    "crd",
];

/// Words in a command that say it targets production.
const PROD_MARKS: &[&str] = &["prod", "production", "prd", "live"];

pub(super) fn judge(cmd: &Command, scan: &mut Scan<'_>) {
    let program = cmd.program();
    let words = positional_after_values(cmd.args());
    let kafka_deletes = program.starts_with("kafka-")
        && (program == "kafka-delete-records"
            || cmd
                .args()
                .iter()
                .any(|a| a == "--delete" || a == "--remove" || a == "--delete-config"));
    let effect = table_effect(&program, &words)
        .or_else(|| cloud_effect(&program, &words))
        .or(kafka_deletes.then_some(Effect::Destroy));
    let Some(mut effect) = effect else { return };
    // A dry run, a check or a request for help changes nothing.
    // (`--generate-cli-skeleton` prints a template of the request.)
    let asks_help = cmd
        .args()
        .iter()
        .any(|a| a == "help" || super::words::is_help_option(a));
    let checks = cmd.args().iter().any(|a| {
        a.starts_with("--dry-run")
            || a == "--preview"
            || a == "--check"
            || (program == "ansible-playbook"
                && matches!(
                    a.as_str(),
                    "-C" | "--syntax-check" | "--list-tasks" | "--list-hosts"
                ))
    });
    if asks_help || checks {
        return;
    }
    if program == "kubectl" && words.first() == Some(&"delete") {
        let wholesale = words.get(1).is_some_and(|kind| WHOLESALE.contains(kind))
            || cmd.args().iter().any(|a| a == "--all");
        if !wholesale {
            effect = Effect::Change;
        }
    }
    scan.network = true;
    let prod = targets_production(cmd);
    let what = describe(&program, &words);
    let where_ = if prod { " in production" } else { "" };
    let (rule, act, reason) = match effect {
        Effect::Change => (
            RuleId::InfraChange,
            Act::Deploy,
            format!("{what} changes deployed systems{where_}, which warden can't take back"),
        ),
        Effect::Destroy => (
            RuleId::InfraDestroy,
            Act::Destroy,
            format!("{what} destroys deployed resources{where_}"),
        ),
    };
    let mut wish = Wish::new(act);
    if prod {
        wish = wish.naming(Name::Production);
    }
    scan.add(
        Risk::new(rule, Harm::Severe, true, reason)
            .way_out()
            .wish(wish),
    );
}

/// Global options of these tools that take a value: the value is not a subcommand.
pub(super) const VALUED: &[&str] = &[
    "--context",
    "-n",
    "--namespace",
    "--kubeconfig",
    "--cluster",
    "--user",
    "-s",
    "--server",
    "--project",
    "--region",
    "--profile",
    "-a",
    "--app",
    "--chdir",
    "--stack",
    "--cwd",
    "--scope",
    "--token",
    "-c",
    "--config",
    "--kube-context",
    "--account",
    "--zone",
    "-e",
    "--environment",
    "--env",
];

pub(super) fn positional_after_values(args: &[String]) -> Vec<&str> {
    let mut out = Vec::new();
    let mut skip = false;
    for arg in args {
        if skip {
            skip = false;
        } else if VALUED.contains(&arg.as_str()) {
            skip = true;
        } else if !arg.starts_with('-') {
            out.push(arg.as_str());
        }
    }
    out
}

fn table_effect(program: &str, words: &[&str]) -> Option<Effect> {
    let mut best: Option<(usize, Effect)> = None;
    for (name, pattern, effect) in TABLE {
        if *name != program {
            continue;
        }
        let matches = if pattern.is_empty() {
            // A bare tool (`vercel`) deploys; a known harmless subcommand does not.
            words.first().is_none_or(|first| {
                first.starts_with('-') || first.starts_with('.') || first.starts_with('/')
            })
        } else {
            pattern.len() <= words.len()
                && pattern
                    .iter()
                    .zip(words)
                    .all(|(want, got)| *want == "*" || want == got)
        };
        if matches && best.is_none_or(|(len, _)| pattern.len() > len) {
            best = Some((pattern.len(), *effect));
        }
    }
    best.map(|(_, effect)| effect)
}

/// gcloud, az and aws verbs that aren't in the table: `… deploy`, `delete-*`, `terminate-*`,
/// `create-*`, `put-*`, `update-*`.
fn cloud_effect(program: &str, words: &[&str]) -> Option<Effect> {
    match program {
        "gcloud" | "az" => {
            if words.iter().any(|w| matches!(*w, "delete" | "destroy")) {
                Some(Effect::Destroy)
            } else if words.iter().any(|w| {
                matches!(
                    *w,
                    "deploy"
                        | "create"
                        | "update"
                        | "set-iam-policy"
                        | "add-iam-policy-binding"
                        | "apply"
                        | "resize"
                )
            }) {
                Some(Effect::Change)
            } else {
                None
            }
        }
        "aws" => {
            let verb = words.get(1).copied().unwrap_or("");
            if verb.starts_with("delete-")
                || verb.starts_with("terminate-")
                || verb.starts_with("remove-")
                || verb == "deregister"
            {
                Some(Effect::Destroy)
            } else if [
                "create-", "put-", "update-", "run-", "attach-", "modify-", "start-", "stop-",
                "reboot-",
            ]
            .iter()
            .any(|p| verb.starts_with(p))
            {
                Some(Effect::Change)
            } else if words.first() == Some(&"s3") && verb == "rm" {
                Some(Effect::Destroy)
            } else {
                None
            }
        }
        _ => service_effect(program, words),
    }
}

/// Services that keep what nobody else has a copy of (secrets, backups, queues, CI, code
/// hosting): a destructive verb among their first words destroys it.
#[rustfmt::skip]
const SERVICES: &[&str] = &[
    "vault", "op", "doppler", "rclone", "restic", "borg", "velero", "rabbitmqctl", "rabbitmqadmin", "nats", "circleci",
    "gitlab-runner", "gh", "glab", "kafka-topics", "kafka-consumer-groups", "kafka-delete-records", "kafka-acls",
    "kafka-configs", "consul", "etcdctl", "mc", "gsutil", "influx", "supabase", "neonctl", "planetscale", "pscale",
    "heroku", "netlify", "railway", "render", "linode-cli", "hcloud", "scw", "exoscale", "openstack",
];

/// Verbs that destroy, as a service's subcommand words say them.
#[rustfmt::skip]
const DESTROY_VERBS: &[&str] = &[
    "delete", "destroy", "purge", "rm", "rb", "drop", "flush", "prune", "forget", "unregister", "revoke", "rdelete",
    "repo-delete", "deletefile", "delete_user", "delete_vhost", "delete_queue", "clear_permissions", "remove-secret",
    "del", "disable", "archive", "cleanup", "deleteall", "del-key", "delete-records", "apps:destroy", "pg:reset",
];

fn service_effect(program: &str, words: &[&str]) -> Option<Effect> {
    if !SERVICES.contains(&program) {
        return None;
    }
    if program.starts_with("kafka-") {
        // kafka's tools say what they do with an option (`--delete`, `--remove`).
        return None;
    }
    // gh's read-only and local subcommands don't reach the service's data.
    if matches!(program, "gh" | "glab")
        && words.first().is_some_and(|w| {
            matches!(
                *w,
                "alias"
                    | "config"
                    | "extension"
                    | "completion"
                    | "auth"
                    | "codespace"
                    | "cache"
                    | "label"
            )
        })
    {
        return None;
    }
    let verb = words.iter().take(3).find(|w| DESTROY_VERBS.contains(w));
    verb.map(|_| Effect::Destroy)
}

pub(super) fn targets_production(cmd: &Command) -> bool {
    cmd.words
        .iter()
        .skip(1)
        .chain(cmd.assignments.iter().map(|(_, value)| value))
        .any(|word| {
            word.to_lowercase()
                .split(|c: char| !c.is_ascii_alphanumeric())
                .any(|part| PROD_MARKS.contains(&part))
        })
}

fn describe(program: &str, words: &[&str]) -> String {
    let sub: Vec<&str> = words
        .iter()
        .take(2)
        .copied()
        .filter(|w| !w.contains('/') && w.len() < 30)
        .collect();
    if sub.is_empty() {
        program.to_string()
    } else {
        format!("{program} {}", sub.join(" "))
    }
}
