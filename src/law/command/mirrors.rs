//! Object storage brought down to this machine: `aws s3 sync s3://b /srv/data --delete`,
//! `gsutil rsync -d gs://b DIR`, `rclone sync remote:b DIR`. What they copy is written into
//! a local destination, and a mirror that prunes deletes whatever in it the source lacks:
//! everything under it, when the source is empty or not what the agent thought. `rsync
//! --delete` is read the same way in `paths` (its remote is `host:path`, its options its
//! own); this is the same rule for the storage clients, one table of rows with examples.
//!
//! The destination is any operand after the source: an option's value read as an operand
//! (`--exclude '*.log'`) is then judged as a destination too, which can only add a question.
//! One on another host (`s3://`, `gs://`, `https://`, rclone's `remote:path`) is not this
//! machine's, and a dry run changes nothing.

use super::Scan;
use super::paths;
use super::table::{Row, row};
use crate::shell::Command;

/// When a mirror deletes in its destination what its source doesn't have.
#[derive(Clone, Copy)]
pub(super) enum Prunes {
    /// Whatever it is told (`rclone sync`).
    Always,
    /// Only with one of these options, as written or with a value after `=`.
    With(&'static [&'static str]),
    /// Never: it only copies (`aws s3 cp`, `rclone copy`).
    Never,
}

/// The storage clients' copies and mirrors, by program and subcommand words.
#[rustfmt::skip]
pub(super) const MIRRORS: &[Row<Prunes>] = &[
    row("aws", &["s3", "cp"], Prunes::Never,
        &["aws s3 cp s3://bucket/hosts /etc/hosts", "aws s3 cp --recursive s3://bucket/site /srv/www"],
        &["aws s3 cp s3://bucket/data.csv ./data.csv", "aws s3 cp ./dist/app.js s3://bucket/app.js", "aws s3 cp s3://bucket/x /tmp/x"]),
    row("aws", &["s3", "mv"], Prunes::Never,
        &["aws s3 mv s3://bucket/conf /etc/app/conf"],
        &["aws s3 mv s3://bucket/a s3://bucket/b"]),
    row("aws", &["s3", "sync"], Prunes::With(&["--delete"]),
        &["aws s3 sync s3://my-bucket /restore --delete", "aws s3 sync --exclude '*.log' s3://b ~/data --delete", "aws s3 sync s3://b /srv/www"],
        &["aws s3 sync s3://my-bucket ./restore --delete", "aws s3 sync s3://b /srv/www --delete --dryrun", "aws s3 sync ./dist s3://b --delete", "aws s3 ls s3://b"]),
    row("azcopy", &["sync"], Prunes::With(&["--delete-destination"]),
        &["azcopy sync https://acct.blob.core.windows.net/c /srv/data --delete-destination=true"],
        &["azcopy sync https://acct.blob.core.windows.net/c ./data --delete-destination=true", "azcopy sync ./site https://acct.blob.core.windows.net/c --delete-destination=true"]),
    row("gcloud", &["storage", "rsync"], Prunes::With(&["--delete-unmatched-destination-objects"]),
        &["gcloud storage rsync gs://b /srv/data --recursive --delete-unmatched-destination-objects"],
        &["gcloud storage rsync gs://b ./data --recursive --delete-unmatched-destination-objects", "gcloud storage rsync ./site gs://b --delete-unmatched-destination-objects"]),
    row("gsutil", &["cp"], Prunes::Never,
        &["gsutil cp gs://bucket/authorized_keys ~/.ssh/authorized_keys"],
        &["gsutil cp gs://bucket/data.csv data/", "gsutil cp report.pdf gs://bucket/"]),
    row("gsutil", &["rsync"], Prunes::With(&["-d", "--delete-unmatched-destination-objects"]),
        &["gsutil -m rsync -d -r gs://bucket /srv/data", "gsutil rsync -r -d gs://bucket ~/photos"],
        &["gsutil -m rsync -d -r gs://bucket ./data", "gsutil rsync -n -d -r gs://bucket /srv/data", "gsutil rsync -d -r ./site gs://bucket"]),
    row("rclone", &["copy"], Prunes::Never,
        &["rclone copy remote:backup /etc/nginx"],
        &["rclone copy remote:backup ./backup", "rclone copy ./site remote:www"]),
    row("rclone", &["move"], Prunes::Never,
        &["rclone move remote:inbox /srv/inbox"],
        &["rclone move remote:inbox ./inbox"]),
    row("rclone", &["sync"], Prunes::Always,
        &["rclone sync remote:bucket /srv/data", "rclone sync gdrive:photos ~/Pictures -P"],
        &["rclone sync remote:bucket ./data", "rclone sync remote:bucket /srv/data --dry-run", "rclone sync ./site remote:www", "rclone lsd remote:"]),
    row("s3cmd", &["sync"], Prunes::With(&["--delete-removed"]),
        &["s3cmd sync --delete-removed s3://bucket/ /srv/data/"],
        &["s3cmd sync --delete-removed s3://bucket/ ./data/", "s3cmd sync --dry-run --delete-removed s3://bucket/ /srv/data/"]),
];

/// Options that say a run changes nothing (`--dryrun`, `--dry-run`, gsutil's and rclone's
/// `-n`).
fn dry(program: &str, args: &[String]) -> bool {
    args.iter().any(|a| {
        matches!(a.as_str(), "--dryrun" | "--dry-run")
            || (a == "-n" && matches!(program, "gsutil" | "rclone" | "s3cmd"))
    })
}

/// A place on another host: a URL (`s3://b/x`, `https://…`), or rclone's `remote:path`.
fn remote(word: &str) -> bool {
    word.contains("://")
        || word
            .split_once(':')
            .is_some_and(|(name, _)| !name.is_empty() && !name.contains('/') && name.len() > 1)
}

/// The row that reads this command, and the operands after its words.
fn row_of(cmd: &Command) -> Option<(usize, &'static Row<Prunes>, Vec<&str>)> {
    let program = cmd.program();
    let operands = super::infra::positional_after_values(cmd.args());
    MIRRORS.iter().enumerate().find_map(|(at, row)| {
        (row.program == program
            && operands.len() > row.words.len()
            && operands.iter().zip(row.words).all(|(w, want)| w == want))
        .then(|| {
            (
                at,
                row,
                operands.get(row.words.len()..).unwrap_or(&[]).to_vec(),
            )
        })
    })
}

/// What a storage client's copy or mirror writes and deletes on this machine.
pub(super) fn judge(cmd: &Command, scan: &mut Scan<'_>) {
    let Some((_, row, operands)) = row_of(cmd) else {
        return;
    };
    let args = cmd.args();
    if dry(row.program, args) {
        return;
    }
    let prunes = match row.then {
        Prunes::Always => true,
        Prunes::With(options) => args.iter().any(|a| {
            let name = a.split('=').next().unwrap_or(a);
            options.contains(&name)
                && a.split_once('=')
                    .is_none_or(|(_, value)| !value.eq_ignore_ascii_case("false"))
        }),
        Prunes::Never => false,
    };
    let place = scan.place;
    // The first operand is the source; every later local one may be where it goes.
    for dest in operands.iter().skip(1).filter(|w| !remote(w)) {
        if prunes {
            let under = format!("{}/*", dest.trim_end_matches('/'));
            paths::delete(&under, true, place, scan);
        }
        paths::write(dest, cmd, place, scan);
    }
}

#[cfg(test)]
pub(super) fn walked() -> Vec<super::rows::Walked> {
    super::rows::rows_of("mirrors::MIRRORS", MIRRORS, judges).collect()
}

/// Does row `at` judge the line: it is the row for one of the line's commands, and the line
/// deletes or writes outside the work folder?
#[cfg(test)]
fn judges(at: usize, line: &crate::shell::Line, found: &super::Assessment) -> bool {
    use crate::law::rule::RuleId;
    let picked = line
        .commands
        .iter()
        .any(|cmd| row_of(cmd).is_some_and(|(index, _, _)| index == at));
    picked
        && found.risks.iter().any(|r| {
            matches!(
                r.rule,
                RuleId::DeleteOutside
                    | RuleId::WriteOutside
                    | RuleId::WriteSystem
                    | RuleId::SystemAuthorizedKeys
            )
        })
}
