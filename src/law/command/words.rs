//! A program's own words: what a command does, read from its subcommand words and a few
//! telling options, for the commands no other rule found anything in (`gh auth token`,
//! `vault kv get`, `loft delete vcluster x`, `systemctl restart nginx`, `kill -9 1234`,
//! `nvm install 20`, and the long tail of programs no one will ever list).
//!
//! An app's tool name is read the same way (`law::app`), in seven languages. A command's
//! subcommands are English words whatever the person speaks (`delete`, `get`, `install`: a
//! `loeschen` subcommand is rare), so these tables are English-first: they keep the
//! [`Table`] shape of `intent::words`, with one line, English. A word is cut into parts
//! (`get-secret-value`, `config:get`, `getSecretValue` → `get secret value`), and an entry
//! is one part or a phrase of two (`api key`, `self update`).
//!
//! How a command is read:
//!
//! - **Which programs.** The catalogue says: never one that only reads, a builtin, a shell,
//!   a wrapper, an editor, a project's runner or script (`make publish`, `./release.sh
//!   publish`: its words are the project's), a version control tool (git's own rules judge
//!   it); and not an interpreter, a downloader, a relay, a mailer, a remover, a decoder, a
//!   file tool or a database client, whose own rules read them, unless it is also a cloud,
//!   secrets, packages, services or system program; a container tool only for what stops a
//!   container (`docker stop`). A program the catalogue doesn't know is read: that is what
//!   this rule is for, and for it a halt is read too (`daemon --stop`, `gdm-stop`; a cloud's
//!   CLI's halt, `pct stop 100`, `az vm deallocate`, is a change to what is deployed), as is a local path copied to a transfer URL
//!   (`duplicity ./docs ftps://host/d`).
//! - **Where it reaches.** A cloud's CLI, a secret store, a host named, a package
//!   registry's own things (`npm team`, `npm owner`, `npm dist-tag`): outside this machine.
//!   A forge's change others see (`gh issue close`, `gh label create`) speaks for the
//!   person, as `gh pr create` does, unless `--web` hands the form to the person's browser.
//!   A session or a run on a cloud's machine (`gcloud compute ssh`, `aws lambda invoke`)
//!   is `remote.exec`. A machine's package manager upgrading everything it keeps (`yum
//!   update`, `brew upgrade`, `fisher update`) installs; `apt update` only refreshes lists,
//!   and a project's `cargo update` stays in the work folder.
//! - **Which words.** The first three positional words that look like words (a letter
//!   first, then letters, digits, `-`, `_`, `:`), skipping the values of known options; the
//!   other positionals are its operands. The first verb among them decides: a verb that is
//!   also a noun (`post`, `access`) gives way to a verb after it and is a noun inside a
//!   longer word (`access_token`), and in a word joined by `_` only the first part is a verb
//!   (`add_user`, not `expect_send_pairs`). With none, a verb in a long option's name
//!   (`--add-port`, `--delete-secret-keys`), unless when it happens follows it
//!   (`-halt-on-error`, `--stop-on-failure`: when the program itself stops). `run`,
//!   `exec`, `x` hand the rest to a script or another program: nothing is read after them. What a command names as a secret or a
//!   grant is read only before its first option, whose value may be a placeholder
//!   (`-p secret`).
//! - **A program's own settings.** A word naming them (`config`, `context`, `profile`,
//!   `settings`, a Windows registry key) with a changing verb or a choice (`aws configure
//!   set`, `docker context use`, `wine reg add 'HKEY_…'`, `--edit-config`), a change written
//!   as an option or as a key and its value after `config` (`conda config --set k v`, `go
//!   env -w K=V`, `poetry config k v`), or a switch thrown by its first words (`gotelemetry
//!   on`, `ng analytics off`): every later run reads them, and they live outside the work
//!   folder (`words.setting`, moderate and lasting). So do a version control tool's
//!   settings for every repository (`jj config set --user`, `hg config --edit`, `fossil
//!   settings autosync off --global`), though its other words are its own rules'. Reading
//!   them (`config get`, `config list`, `--show`) is not, nor the project's own (`--local`,
//!   `--repo`, `composer config` and `fossil settings` without their global flags).
//! - **A secret by default.** A secret store given an entry's path and no verb shows it
//!   (`pass email/work`, `gopass web/github`), and a program nobody lists named for a secret,
//!   with no verb in its name, prints it when run (`wifi-password`).
//! - **What stays routine.** Help, a version, a dry run, and reading verbs (`list`,
//!   `status`, `describe`, `logs`, `diff`, `plan`, `whoami`…) never fire; `get`, `show`,
//!   `view`, `read` fire only for a secret. A program with no telling word stays allowed
//!   (`frobnicate --verbose build`).
//!
//! The score, as an app's change is scored (ADR 0117, 0118): moderate, and lasting when
//! what it reaches is outside this machine (a cloud program, a secret store, an argument
//! naming a remote host, sudo) or can't be taken back (a system setting, a user, a firewall
//! rule); severe when it destroys a hosted service's resources, unpublishes, publishes or
//! deploys (as `infra.destroy`, `publish.package`, `infra.change`), or prints a secret
//! (severe, not lasting, as `secrets.in_args`: it goes before reading and asks after). A
//! private key or a wallet printed (`bitcoin-cli dumpwallet`, `charm backup-keys`, `gpg
//! --export-secret-keys`) is a key read, `secrets.key_read`, NEVER, as a key file read is
//! in `paths`. A word some programs write as one (`dumpprivkey`) is cut into its verb and
//! its noun when both are known. A delete that loses what was there (`drop`, `purge`,
//! `wipe`) is lasting, and severe when told not to ask first (`--force`, `--yes`, `-y`). So is a kill and a container stopped (`kill 12345`, `pkill node`,
//! `docker stop app`): what the process held is gone, and which process it was is only known
//! when it runs, so after reading it asks (issue 10's "changing the system … kill"). Every risk
//! carries a wish with its act and the names that make it dangerous, so "delete the old
//! vcluster x" lifts `loft delete vcluster x`.

use super::table::{Row, row};
use super::{Scan, infra};
use crate::catalogue::{self, Class};
use crate::intent::words::Lang::En;
use crate::intent::words::Table;
use crate::law::rule::RuleId;
use crate::shell::{Command, RedirectOp};
use crate::verdict::{Harm, Risk};
use crate::wish::{Act, Name, Wish};

// ---------------------------------------------------------------------------------------
// Verbs: the first one among a command's words decides what it does.
// ---------------------------------------------------------------------------------------

/// Words after which the rest is a script's or another program's (`npm run deploy`,
/// `pipx run x`, `heroku run bash`): nothing after them is read. Whole words only.
#[rustfmt::skip]
pub(super) const STOPS: Table = &[
    (En, &["dlx", "exec", "run", "run-script", "x"]),
];

/// Reading: what follows is looked at, not changed.
#[rustfmt::skip]
pub(super) const READS: Table = &[
    (En, &["audit", "check", "describe", "diff", "doctor", "dryrun", "explain", "help", "history", "info", "inspect", "lint", "list", "log", "logs", "ls", "outdated", "plan", "query", "report", "search", "stat", "stats", "status", "top", "validate", "verify", "version", "wait", "whoami"]),
];

/// Showing what something holds: routine, unless what it shows is a secret.
#[rustfmt::skip]
pub(super) const REVEALS: Table = &[
    (En, &["access", "backup", "cat", "download", "dump", "export", "extract", "fetch", "get", "lookup", "print", "read", "retrieve", "show", "view"]),
];

/// Turning a secret into plain text, wherever they stand (`decrypt`, `--with-decryption`,
/// `--reveal`): they print a secret by themselves.
#[rustfmt::skip]
pub(super) const UNVEILS: Table = &[
    (En, &["decrypt", "decryption", "plaintext", "reveal"]),
];

/// Destroying what the words name. On a hosted service it is severe: nobody else keeps a
/// copy.
#[rustfmt::skip]
pub(super) const DESTROYS: Table = &[
    (En, &["autoremove", "clear", "decommission", "del", "delete", "deregister", "destroy", "drop", "erase", "evict", "flush", "nuke", "prune", "purge", "remove", "reset", "revoke", "rm", "rmi", "teardown", "terminate", "truncate", "undefine", "uninstall", "unregister", "wipe"]),
];

/// Taking back what others already pull from a registry: a destroy outside this machine,
/// whoever runs it.
#[rustfmt::skip]
pub(super) const UNPUBLISHES: Table = &[
    (En, &["unpublish", "yank"]),
];

/// Publishing for others to pull, as `publish.package` does: severe and lasting.
#[rustfmt::skip]
pub(super) const PUBLISHES: Table = &[
    (En, &["publish"]),
];

/// Deploying, as `infra.change` does: severe and lasting.
#[rustfmt::skip]
pub(super) const DEPLOYS: Table = &[
    (En, &["deploy", "redeploy"]),
];

/// Sending to someone or somewhere else: moderate and lasting, a way out.
#[rustfmt::skip]
pub(super) const SENDS: Table = &[
    (En, &["broadcast", "mail", "post", "send", "submit", "tweet", "upload"]),
];

/// Copying or pushing: a send only when the destination is a remote (`aws s3 cp f
/// s3://b`, `rclone sync . drive:backup`, `hg push ssh://host/repo`), or a push by a cloud
/// program (`supabase db push`).
#[rustfmt::skip]
pub(super) const TRANSFERS: Table = &[
    (En, &["copy", "cp", "mirror", "mv", "push", "rsync", "sync"]),
];

/// Signing in: the credential stays on this machine for what runs next.
#[rustfmt::skip]
pub(super) const LOGINS: Table = &[
    (En, &["login", "signin"]),
];

/// The system's own account programs' names, which other programs take for their
/// subcommands on the users they keep: a grant (a password set: a secret changed).
#[rustfmt::skip]
pub(super) const ACCOUNTS: Table = &[
    (En, &["addgroup", "chpasswd", "delgroup", "gpasswd", "groupadd", "groupdel", "groupmod", "passwd", "useradd", "userdel", "usermod"]),
];

/// Giving someone access: moderate and lasting, as `app.grants`.
#[rustfmt::skip]
pub(super) const GRANTS: Table = &[
    (En, &["authorize", "chmod", "chown", "grant", "invite", "share"]),
];

/// Installing what the operands name: moderate and lasting, as `install.undeclared`.
#[rustfmt::skip]
pub(super) const INSTALLS: Table = &[
    (En, &["install", "install extension", "reinstall", "self update", "selfupdate"]),
];

/// A package manager's words for installing that other programs use for any change:
/// installs only for a packages program (`rustup component add clippy`, `brew upgrade
/// node`). Also in [`CHANGES`].
#[rustfmt::skip]
pub(super) const PACKAGE_VERBS: Table = &[
    (En, &["add", "update", "upgrade"]),
];

/// What a system or services program does to the machine (`systemctl restart`, `ufw
/// allow`, `ip link set … up`, `chkconfig sshd on`). Read only for those programs: `vagrant up` and `minikube
/// start` are a project's own.
#[rustfmt::skip]
pub(super) const SYSTEM: Table = &[
    (En, &["allow", "connect", "default", "deny", "disable", "disconnect", "down", "enable", "halt", "hibernate", "isolate", "kill", "limit", "mask", "mount", "off", "on", "pair", "poweroff", "reboot", "reject", "reload", "restart", "shutdown", "start", "stop", "suspend", "trust", "umount", "unload", "unmask", "unmount", "unpair", "untrust", "up"]),
];

/// System verbs whose opposite takes them back (a service started can be stopped). A kill
/// has no opposite: what the process held is lost. Every system change but a kill is
/// lasting too as an administrator's, and so is a setting, a user, a firewall rule, something
/// turned off.
#[rustfmt::skip]
pub(super) const REVERSIBLE: Table = &[
    (En, &["connect", "disconnect", "down", "hibernate", "mount", "reload", "restart", "start", "stop", "suspend", "umount", "unload", "unmount", "up"]),
];

/// What halts or stops something, read for a program the catalogue doesn't know and for a
/// container tool (`pct stop 100`, `daemon --stop`, `docker stop web`, `screen -X quit`):
/// what ran is gone. A restart stops it first (`pm2 restart api`, `az vm restart`); a cancel
/// stops what is under way (`gcloud builds cancel 1`, `koji cancel 42`); a drain moves
/// off a node what ran there (`nomad node drain -enable n1`). `start`
/// and `up` are not here: a project's own tool starts its dev server every day (`expo
/// start`, `vagrant up`). Nor is `pause`: what is paused loses nothing, and its resume takes
/// it back (`docker pause web`, `pueue pause 3`).
#[rustfmt::skip]
pub(super) const HALTS: Table = &[
    (En, &["cancel", "deallocate", "drain", "halt", "kill", "poweroff", "quit", "reboot", "restart", "restartall", "shutdown", "stop", "stopall", "suspend", "umount", "unmount"]),
];

/// What starts a cloud's machine or a hosted app again (`gcloud compute instances start
/// vm`, `az vm start`, `doctl compute droplet-action power-on 1`, `fly machine start x`):
/// read only for a cloud or hosted service's CLI, where what runs is someone else's system
/// and is billed as it runs. A local tool's `start` is a project's own (`expo start`).
#[rustfmt::skip]
pub(super) const STARTS: Table = &[
    (En, &["boot", "power on", "poweron", "resume", "start", "startvm", "unsuspend"]),
];

/// Closing, archiving or moving what a forge or a hosted service keeps (`gh issue close`,
/// `gh repo archive`, `gh project close`): a change others see.
#[rustfmt::skip]
pub(super) const CLOSES: Table = &[
    (En, &["archive", "close", "lock", "reopen", "transfer", "unarchive", "unlock"]),
];

/// A session or a run on a hosted service's machine (`gcloud compute ssh`, `aws lambda
/// invoke`, `az serial-console connect`, `gh codespace ssh`, a Proxmox guest's console: `qm
/// terminal 100`; and a cloud's `exec`, a word after which the rest is the command run there:
/// `qm guest exec 100 …`, `pct exec 100 -- …`): what it does there is done there, where Undo
/// can't reach.
#[rustfmt::skip]
pub(super) const REMOTE_RUNS: Table = &[
    (En, &["connect", "console", "invoke", "ssh", "terminal"]),
];

/// A package registry's own things (`npm team destroy`, `npm dist-tag rm`, `npm owner add`,
/// `npm access grant`): what a package manager changes there is outside this machine.
#[rustfmt::skip]
pub(super) const REGISTRY_NOUNS: Table = &[
    (En, &["access", "deprecate", "dist tag", "hook", "org", "owner", "team", "token"]),
];

/// Where packages come from (`nix-channel --add URL`, `dnf config-manager --add-repo URL`,
/// `zypper addrepo URL`): a source added is where every later install comes from.
#[rustfmt::skip]
pub(super) const SOURCE_NOUNS: Table = &[
    (En, &["channel", "channels", "ppa", "repo", "repos", "repositories", "repository", "source", "sources", "tap"]),
];

/// Package managers whose `update` only refreshes the lists of what can be installed
/// (`apt update`, `brew update`); every other one's `update` upgrades what is installed
/// (`yum update`, `fisher update`, `conda update --all`).
const REFRESHERS: &[&str] = &[
    "apk", "apt", "apt-get", "aptitude", "brew", "nala", "opkg", "pkg",
];

/// The pacman family's removal, written as an option (`pacman -Rs x`, `paru -Rns x`).
pub(super) const PACMAN_FAMILY: &[&str] = &["pacman", "paru", "yay"];

/// Does a package manager take packages off the machine or the person's home (`apt remove`,
/// `brew uninstall`, `pacman -Rs`, `npm uninstall -g`), not a project's?
fn removes_from_machine(reading: &Reading<'_>) -> bool {
    let global = reading
        .args
        .iter()
        .any(|a| matches!(a.as_str(), "-g" | "--global" | "--location=global"));
    // A project's tool managing what it keeps for every project (`uv tool uninstall ruff`,
    // `uv python uninstall 3.12`, `poetry self remove x`).
    let its_own = reading
        .words
        .first()
        .is_some_and(|(_, parts)| matches!(parts.as_slice(), [w] if matches!(w.as_str(), "tool" | "python" | "self")));
    catalogue::is(&reading.program, Class::Global)
        || ((reading.kind.packages || reading.kind.installer) && (global || its_own))
}

/// Secrets that are keys: printing one is reading a key, which can't be taken back
/// (`bitcoin-cli dumpwallet`, `charm backup-keys`, `gpg --export-secret-keys`).
#[rustfmt::skip]
pub(super) const KEY_NOUNS: Table = &[
    (En, &["keys", "mnemonic", "private key", "privkey", "seed phrase", "signing key", "wallet"]),
];

/// Changing something: a grant when what changes is access or a secret (`gh secret set`,
/// `vault kv put`, `heroku access:add`), a system change for a system program
/// (`timedatectl set-timezone`); nothing by itself (`wp post create`).
#[rustfmt::skip]
pub(super) const CHANGES: Table = &[
    (En, &["add", "append", "apply", "assign", "attach", "bind", "bootstrap", "change", "create", "edit", "enroll", "generate", "give", "import", "insert", "migrate", "mk", "modify", "mutate", "new", "prepend", "put", "reconcile", "register", "replace", "resize", "restore", "revert", "rollback", "rotate", "save", "scale", "set", "store", "unset", "update", "upsert", "write"]),
];

/// A wallet's or a payment tool's own words for moving money (`bitcoin-cli sendtoaddress`,
/// `lncli payinvoice`, `lightning-cli pay`): no words lift it, as an app's payment.
#[rustfmt::skip]
pub(super) const PAYS: Table = &[
    (En, &["keysend", "originate", "pay", "payinvoice", "payto", "sendcoins", "sendfrom", "sendmany", "sendpayment", "sendrawtransaction", "sendtoaddress", "sendtoroute"]),
];

/// What moves money when it is broadcast, sent, submitted or transferred (`hsd-cli
/// broadcast TX`, `solana transfer … --allow-unfunded-recipient`, `stripe payments create`).
#[rustfmt::skip]
pub(super) const MONEY_NOUNS: Table = &[
    (En, &["charge", "charges", "coins", "funds", "lamports", "payment", "payments", "payout", "payouts", "rawtransaction", "rawtx", "refund", "refunds", "transaction", "transactions", "tx", "txs", "wei"]),
];

/// The verbs that move what [`MONEY_NOUNS`] name.
#[rustfmt::skip]
pub(super) const MONEY_VERBS: Table = &[
    (En, &["broadcast", "create", "send", "submit", "transfer"]),
];

/// Verbs that are also nouns (`wp post list`, `heroku access:add`): a verb after them
/// decides.
#[rustfmt::skip]
pub(super) const NOUN_VERBS: Table = &[
    (En, &["access", "mail", "post", "tweet"]),
];

// ---------------------------------------------------------------------------------------
// Nouns: what the verb acts on.
// ---------------------------------------------------------------------------------------

/// What a secret is called. With a verb that shows, it prints one; with a change, it
/// grants (a new token, a secret set).
#[rustfmt::skip]
pub(super) const SECRET_NOUNS: Table = &[
    (En, &["access key", "api key", "apikey", "authtoken", "credential", "credentials", "creds", "keys", "kubeconfig", "mnemonic", "passphrase", "password", "passwords", "private key", "privkey", "sas", "secret", "secrets", "seed phrase", "signing key", "token", "tokens", "wallet"]),
];

/// A cluster's kind of object: `kubectl get secret db` shows a table of names, not the
/// data; only an output format (`-o yaml`, `-o jsonpath=…`) prints it.
#[rustfmt::skip]
pub(super) const SECRET_KINDS: Table = &[
    (En, &["secret", "secrets"]),
];

/// Who may do what: a change to one of these grants access.
#[rustfmt::skip]
pub(super) const GRANT_NOUNS: Table = &[
    (En, &["access", "acl", "acls", "admin", "admins", "binding", "bindings", "collaborator", "collaborators", "deploy key", "gpg key", "iam", "member", "members", "oauth", "org", "organization", "organizations", "orgs", "owner", "owners", "permission", "permissions", "policies", "policy", "role", "rolebinding", "roles", "scope", "scopes", "ssh key", "team", "teams", "user", "users", "webhook", "webhooks"]),
];

/// What a subcommand written as one word with its verb names (`pct delsnapshot`, `pvecm
/// delnode`, `qm listsnapshot`): the verb is read as one of its own, the thing as the noun
/// after it. Only things a verb is written together with; not `db` (`updatedb` refreshes
/// locate's index).
#[rustfmt::skip]
pub(super) const COMPOUND_NOUNS: Table = &[
    (En, &["backup", "backups", "bucket", "buckets", "cluster", "clusters", "container", "containers", "database", "databases", "deployment", "deployments", "disk", "disks", "image", "images", "instance", "instances", "node", "nodes", "pool", "pools", "snapshot", "snapshots", "stack", "stacks", "vm", "vms", "volume", "volumes"]),
];

/// A cloud program's own settings on this machine (`kubectl config delete-context`, `gh
/// alias delete`, `helm repo remove`, `az extension remove`): changing them reaches no
/// service.
#[rustfmt::skip]
pub(super) const LOCAL_NOUNS: Table = &[
    (En, &["alias", "aliases", "auth", "completion", "completions", "config", "configs", "configuration", "configurations", "configure", "context", "contexts", "default", "ext", "extension", "extensions", "plugin", "plugins", "profile", "profiles", "repo"]),
];

/// What a program keeps as its own settings, on this machine and outside the work folder
/// (`aws configure set`, `pixi config append`, `docker context use`, `--edit-config`):
/// changed, every later run of it reads them, and Undo can't take them back.
#[rustfmt::skip]
pub(super) const SETTINGS_NOUNS: Table = &[
    (En, &["config", "configs", "configuration", "configure", "context", "contexts", "defaults", "preference", "preferences", "prefs", "profile", "profiles", "setting", "settings"]),
];

/// Choosing one of the settings a program keeps (`docker context use`, `kubectl config
/// use-context`): only with one of [`SETTINGS_NOUNS`].
#[rustfmt::skip]
pub(super) const CHOOSES: Table = &[
    (En, &["select", "switch", "use"]),
];

/// A setting's last word that makes it a connection string (`DATABASE_URL`), which carries
/// its password, with one of [`DATASTORES`] before it.
#[rustfmt::skip]
pub(super) const CONNECTION_ENDS: Table = &[
    (En, &["dsn", "uri", "url"]),
];

/// What a connection string connects to.
#[rustfmt::skip]
pub(super) const DATASTORES: Table = &[
    (En, &["amqp", "database", "db", "mongo", "mongodb", "mysql", "pg", "postgres", "postgresql", "redis", "sql"]),
];

/// Output formats that print a whole object, data and all (`kubectl get secret db -o yaml`).
#[rustfmt::skip]
pub(super) const DUMPS: Table = &[
    (En, &["custom-columns", "go-template", "go-template-file", "json", "jsonpath", "jsonpath-file", "template", "templatefile", "yaml"]),
];

// ---------------------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------------------

/// Options that ask for help or change nothing: the command is left alone.
#[rustfmt::skip]
pub(super) const HELP: Table = &[
    (En, &["--dry-run", "--dryrun", "--generate-cli-skeleton", "--help", "--noop", "--preview", "--simulate", "--version", "--what-if", "--whatif", "-dry-run", "-h", "-help", "-version"]),
];

/// Options whose value is where the command goes (`--host db.example.com`).
#[rustfmt::skip]
pub(super) const REMOTE_OPTIONS: Table = &[
    (En, &["--address", "--api-url", "--endpoint", "--endpoint-url", "--host", "--remote", "--server", "--url"]),
];

/// A switch a program keeps thrown (`gotelemetry on`, `corepack disable`, `byobu-disable`):
/// for a program nobody lists, the words are no system change but its own setting.
#[rustfmt::skip]
pub(super) const SWITCHES: Table = &[
    (En, &["disable", "enable", "off", "on"]),
];

/// Long options that skip the program's own confirmation (`--force`, `--yes`,
/// `--noconfirm`, `--assume-yes`), as their parts.
#[rustfmt::skip]
pub(super) const FORCES: Table = &[
    (En, &["assume yes", "force", "no confirm", "noconfirm", "yes"]),
];

/// Short options with which a system tool that acts only lists (`kill -l`, `iptables -L`,
/// `iptables -S`, `kill -0` only checks).
#[rustfmt::skip]
pub(super) const LISTS: Table = &[
    (En, &["-0", "-L", "-S", "-l"]),
];

/// Every table, by name, for the tests.
#[cfg(test)]
pub(super) const TABLES: &[(&str, Table)] = &[
    ("STOPS", STOPS),
    ("READS", READS),
    ("REVEALS", REVEALS),
    ("UNVEILS", UNVEILS),
    ("DESTROYS", DESTROYS),
    ("UNPUBLISHES", UNPUBLISHES),
    ("PUBLISHES", PUBLISHES),
    ("DEPLOYS", DEPLOYS),
    ("SENDS", SENDS),
    ("TRANSFERS", TRANSFERS),
    ("LOGINS", LOGINS),
    ("ACCOUNTS", ACCOUNTS),
    ("GRANTS", GRANTS),
    ("INSTALLS", INSTALLS),
    ("PACKAGE_VERBS", PACKAGE_VERBS),
    ("SYSTEM", SYSTEM),
    ("HALTS", HALTS),
    ("STARTS", STARTS),
    ("CLOSES", CLOSES),
    ("REMOTE_RUNS", REMOTE_RUNS),
    ("REGISTRY_NOUNS", REGISTRY_NOUNS),
    ("KEY_NOUNS", KEY_NOUNS),
    ("SOURCE_NOUNS", SOURCE_NOUNS),
    ("REVERSIBLE", REVERSIBLE),
    ("CHANGES", CHANGES),
    ("PAYS", PAYS),
    ("MONEY_NOUNS", MONEY_NOUNS),
    ("MONEY_VERBS", MONEY_VERBS),
    ("NOUN_VERBS", NOUN_VERBS),
    ("SECRET_NOUNS", SECRET_NOUNS),
    ("SECRET_KINDS", SECRET_KINDS),
    ("GRANT_NOUNS", GRANT_NOUNS),
    ("COMPOUND_NOUNS", COMPOUND_NOUNS),
    ("LOCAL_NOUNS", LOCAL_NOUNS),
    ("SETTINGS_NOUNS", SETTINGS_NOUNS),
    ("CHOOSES", CHOOSES),
    ("RECORDS", RECORDS),
    ("CONNECTION_ENDS", CONNECTION_ENDS),
    ("DATASTORES", DATASTORES),
    ("DUMPS", DUMPS),
    ("HELP", HELP),
    ("FORCES", FORCES),
    ("SWITCHES", SWITCHES),
    ("REMOTE_OPTIONS", REMOTE_OPTIONS),
    ("LISTS", LISTS),
];

/// A word that only reads or asks for help (`list`, `status`, `doctor`): for the rules that
/// follow from what a program is.
pub(super) fn is_read_word(word: &str) -> bool {
    has(READS, word) || word == "help"
}

/// An option that asks for help or changes nothing (`--help`, `-h`, `--dry-run`).
pub(super) fn is_help_option(word: &str) -> bool {
    // INVARIANT: every entry of `HELP` is an option (tested): a word that isn't needs no
    // search (this runs for every argument of most commands).
    word.starts_with('-') && has(HELP, word.split('=').next().unwrap_or(word))
}

/// Does an option say the command only shows its help or version, or changes nothing (`sudo
/// modprobe --dry-run m`, `sudo tool --help`, `su -h`)? `-h` counts alone only: it is
/// something else to many (`df -h`, `shutdown -h`).
pub(super) fn changes_nothing(cmd: &Command) -> bool {
    let args = cmd.args();
    let alone = args.len() == 1;
    args.iter().any(|arg| {
        let option = arg.split('=').next().unwrap_or(arg);
        if option == "-h" {
            alone
        } else {
            option == "--usage" || is_help_option(arg)
        }
    })
}

/// Is one of the command's first two words (options aside) a reading verb (or a compound
/// that starts with one), with no option but those that only shape what it shows and no
/// word that changes or names a secret (`sudo trace-cmd stat`, `sudo tool status web`, `sudo
/// ip addr show`, `sudo trace-cmd report --cpu 1`; not `sudo emaint logs -C`, which cleans
/// them)?
pub(super) fn asks_to_read(cmd: &Command) -> bool {
    let args = cmd.args();
    if args.iter().any(|a| a.starts_with('-') && !shapes_output(a)) {
        return false;
    }
    let words: Vec<Vec<String>> = args
        .iter()
        .filter(|a| !a.starts_with('-'))
        .map(|a| parts(a))
        .collect();
    // A reading verb first, or second after a group's name (`ip addr show`, `docker network
    // ls`), alone or first in a compound (`systemctl list-timers`); no word that changes,
    // destroys or names a secret (`kubeadm token list` lists tokens).
    let reads = |word: &Vec<String>| {
        word.first().is_some_and(|first| {
            has(READS, first) || matches!(first.as_str(), "show" | "get" | "view" | "print")
        })
    };
    let changes = words.iter().flatten().any(|p| acts(p));
    words.iter().take(2).any(reads) && !changes
}

/// An option that only shapes what a reading shows (`-v`, `-q`, `--cpu 1`, `--json`): a
/// short one only when it is verbosity or quiet, a long one when none of its words acts,
/// says where output goes or runs something (`--output f`, `--fix`, `--exec cmd`). Its
/// value, a word of its own, is read with the others.
fn shapes_output(option: &str) -> bool {
    const NOT_SHAPING: &[&str] = &[
        "cmd",
        "command",
        "commit",
        "dest",
        "destination",
        "exec",
        "file",
        "fix",
        "force",
        "hook",
        "load",
        "log",
        "logfile",
        "out",
        "outdir",
        "outfile",
        "output",
        "rebuild",
        "repair",
        "run",
        "save",
        "script",
        "shell",
        "target",
        "to",
        "trigger",
        "yes",
    ];
    if let Some(long) = option.strip_prefix("--") {
        let name = long.split('=').next().unwrap_or(long);
        !name.is_empty()
            && parts(name)
                .iter()
                .all(|p| !acts(p) && !NOT_SHAPING.contains(&p.as_str()))
    } else {
        matches!(option, "-v" | "-vv" | "-vvv" | "-q")
    }
}

/// The tables whose words say a command acts, or names a secret: a command that holds one
/// only reads if nothing else says so.
const ACTING: [Table; 17] = [
    CHANGES,
    DESTROYS,
    SYSTEM,
    SECRET_NOUNS,
    INSTALLS,
    PACKAGE_VERBS,
    PUBLISHES,
    DEPLOYS,
    SENDS,
    TRANSFERS,
    GRANTS,
    HALTS,
    UNPUBLISHES,
    PAYS,
    SWITCHES,
    CLOSES,
    LOGINS,
];

fn acts(part: &str) -> bool {
    ACTING.iter().any(|table| has(table, part))
}

/// Is the command a listing asked for by an option, and nothing else: `--list` or
/// `--list-…` (`sudo rpmkeys --list`, `sudo lchage --list alice`), or `-l` or `-L` after
/// nothing but subcommand words and before nothing but letters that shape the listing
/// (`sudo auditctl -l`, `sudo semanage boolean -l -C -n`, `sudo arptables -L`)? Not when a
/// letter takes a value (`sudo lvcreate -L 10G vg1`, `sudo cu -l /dev/ttyS0`), an option has
/// one, a word names a path, or any word acts or names a secret.
pub(super) fn lists(cmd: &Command) -> bool {
    let args = cmd.args();
    let plain = |a: &str| {
        !a.is_empty()
            && a.bytes()
                .all(|b| b.is_ascii_lowercase() || b == b'-' || b == b'_')
            && !a.starts_with('-')
    };
    let letter = |a: &str| {
        a.len() == 2
            && a.starts_with('-')
            && a.as_bytes().get(1).is_some_and(u8::is_ascii_alphabetic)
    };
    // `--info`, `--status` and `--show` ask to be shown what is there, as `--list` does
    // (`sudo f5fpc --info`); `--check` asks whether there is anything to do (`sudo
    // synoupgrade --check`).
    let long = args.iter().position(|a| {
        matches!(
            a.as_str(),
            "--list" | "--info" | "--status" | "--show" | "--check"
        ) || (a.starts_with("--list-") || a.starts_with("--check-")) && !a.contains('=')
    });
    let short = args.iter().position(|a| a == "-l" || a == "-L");
    let shaped = match (long, short) {
        (Some(_), _) => args
            .iter()
            .all(|a| plain(a) || (a.starts_with('-') && !a.contains('='))),
        (None, Some(at)) => {
            args.iter().take(at).all(|a| plain(a)) && args.iter().skip(at + 1).all(|a| letter(a))
        }
        (None, None) => false,
    };
    shaped
        && !args.iter().any(|a| {
            parts(a.trim_start_matches('-'))
                .iter()
                .any(|p| p != "list" && (acts(p) || OPENS.binary_search(&p.as_str()).is_ok()))
        })
}

/// Words that open a shell or a session, or run something, whatever option follows (`sudo
/// machinectl shell -l` is a login shell): sorted.
const OPENS: &[&str] = &[
    "attach", "console", "enter", "exec", "execute", "login", "repl", "run", "session", "sh",
    "shell", "spawn", "ssh", "terminal",
];

/// Reading what the system holds into a file (`sudo trace-cmd record`, `sudo log collect
/// --output f`, `sudo vgcfgbackup -f f`): run as the administrator, it changes nothing of
/// the machine when where it writes is the work folder.
#[rustfmt::skip]
pub(super) const RECORDS: Table = &[
    (En, &["backup", "capture", "collect", "dump", "export", "record"]),
];

/// Does the command read the system into a file: its first word a recording verb, or its
/// name ending in one (`vgcfgbackup`, `pg_dump`), with no word after that
/// changes or destroys (`gitlab-backup create`)? Where it writes is the caller's to check.
pub(super) fn records(cmd: &Command) -> bool {
    let name = cmd.program();
    let by_name = RECORDS
        .iter()
        .flat_map(|(_, words)| words.iter())
        .any(|verb| name.len() > verb.len() && name.ends_with(verb));
    let words: Vec<String> = super::positional(cmd.args())
        .iter()
        .map(|w| w.to_ascii_lowercase())
        .collect();
    let by_word = words.first().is_some_and(|first| has(RECORDS, first));
    let changes = words.iter().any(|w| {
        parts(w)
            .iter()
            .any(|p| has(CHANGES, p) || has(DESTROYS, p) || has(SYSTEM, p))
    });
    (by_name || by_word) && !changes
}

/// Is `entry` one of the table's words? Tables are sorted (checked by a test).
pub(super) fn has(table: Table, entry: &str) -> bool {
    table
        .iter()
        .any(|(_, words)| crate::intent::words::is_listed(words, entry))
}

// ---------------------------------------------------------------------------------------
// Reading a command
// ---------------------------------------------------------------------------------------

/// What a program is, as far as these words go.
#[derive(Clone, Copy)]
struct Kind {
    /// A cloud, cluster or hosted service's CLI.
    cloud: bool,
    /// A secret store (secrets, not a cloud CLI that can also print one): `vault`, `pass`.
    store: bool,
    /// Secrets of any kind (a store, or a cloud CLI that prints one).
    secrets: bool,
    packages: bool,
    /// One the install rules install with: its install words are theirs.
    installer: bool,
    /// Changes the machine itself (system or services).
    system: bool,
    /// Its name is its act (`kill`, `mount`, `useradd`).
    acts: bool,
    /// A daemon: run at all, it starts (`bluetoothd`, `emond -c f`).
    daemon: bool,
    /// A language's toolchain (`dotnet`, `bun`): its `publish` builds a folder, and its
    /// registry's publishes are the install rules' lines.
    toolchain: bool,
    /// Not in the catalogue, or in it only as a keeper of what nobody else has a copy of
    /// (`vagrant`, `timew`), a runner of other programs (`pueue`, `toolbox`) or another agent
    /// (`claude mcp remove x`; `copilot app delete`, AWS Copilot's by the same name): no class
    /// of it has rules for these words, so they read it as any program nobody lists.
    unlisted: bool,
    /// Runs containers: only its halting words are read here (`docker stop`); its other
    /// subcommands have rules of their own.
    container: bool,
    /// Keeps programs running in sessions or as managed processes (`tmux`, `pm2`): only its
    /// halting words are read (`tmux kill-server`, `pm2 delete all`); its others are its own.
    sessions: bool,
    /// Runs virtual machines here (`multipass`, `virsh`): starting one changes what runs.
    machines: bool,
    /// A forge whose pull requests and issues speak for the person (`gh`, `glab`).
    forge: bool,
}

impl Kind {
    fn of(program: &str) -> Kind {
        // One lookup, then its classes (`catalogue::is` looks the program up each time).
        let found = catalogue::program(program);
        let is = |class| found.is_some_and(|found| found.is(class));
        let cloud = is(Class::Cloud);
        Kind {
            cloud,
            store: is(Class::Secrets) && !cloud,
            secrets: is(Class::Secrets),
            // The install rules' installers keep their install words (`install::is_installer`).
            packages: is(Class::Packages) && !super::install::is_installer(program),
            installer: super::install::is_installer(program),
            toolchain: is(Class::Interpreter),
            system: is(Class::System) || is(Class::Services),
            acts: is(Class::Acts),
            daemon: is(Class::Daemon),
            unlisted: found.is_none_or(|found| {
                found.classes.iter().all(|c| {
                    matches!(
                        c,
                        Class::Keeps | Class::Runs | Class::Agent | Class::Machines
                    )
                })
            }),
            container: is(Class::Container),
            sessions: is(Class::Sessions),
            machines: is(Class::Machines),
            forge: super::install::is_forge(program),
        }
    }
}

/// Is a program read by these words at all?
fn is_read(program: &str) -> bool {
    let Some(found) = catalogue::program(program) else {
        return true;
    };
    // A shell or a runner that keeps sessions: its halting words only (`Kind::sessions`).
    if found.is(Class::Sessions) {
        return true;
    }
    let never = [
        Class::ReadOnly,
        Class::Builtin,
        Class::Shell,
        Class::Source,
        Class::Wrapper,
        Class::Editor,
        Class::ProjectRunner,
        Class::VersionControl,
        Class::Player,
        Class::Desktop,
        Class::Index,
        Class::Tracer,
    ];
    if never.iter().any(|class| found.is(*class)) {
        return false;
    }
    let read = [
        Class::Cloud,
        Class::Secrets,
        Class::Packages,
        Class::Services,
        Class::System,
    ];
    if read.iter().any(|class| found.is(*class)) {
        return true;
    }
    let others = [
        Class::Interpreter,
        Class::Downloader,
        Class::Relay,
        Class::Mail,
        Class::Remover,
        Class::Decoder,
        Class::Files,
        Class::Database,
        // A load generator's words are HTTP's (`hey -m POST`): `kinds.rs` reads its target.
        Class::Flood,
    ];
    !others.iter().any(|class| found.is(*class))
}

/// A program named by a path inside the work folder (`./release.sh publish`, `bin/deploy
/// prod`) the catalogue doesn't know: the project's own script, whose words are the
/// project's, as `make publish` is.
/// A project's own tool and the words it is given: a script by its path (`bin/rails`,
/// `./artisan`), one an interpreter runs (`php artisan …`, `python manage.py …`, `node ace
/// …`: its name without its extension), or a project runner's task (`rake db:drop`). `None`
/// for anything else, whose own rules read it.
fn project_tool(cmd: &Command) -> Option<(String, &[String])> {
    let args = cmd.args();
    if is_project_script(cmd) {
        return Some((cmd.program().to_string(), args));
    }
    let found = catalogue::program(cmd.program())?;
    if found.is(Class::ProjectRunner) {
        return Some((found.name.to_string(), args));
    }
    let code = found.code.filter(|_| found.is(Class::Interpreter))?;
    if code.inline.contains(&"") {
        return None;
    }
    let at = args.iter().position(|a| !a.starts_with('-'))?;
    if args
        .get(..at)?
        .iter()
        .any(|a| code.inline.contains(&a.as_str()) || a == "-m")
    {
        return None;
    }
    let script = super::paths::basename_of(args.get(at)?);
    let name = script
        .split('.')
        .next()
        .unwrap_or(script)
        .to_ascii_lowercase();
    Some((name, args.get(at + 1..)?))
}

/// Django's `manage.py flush` (every row of every table deleted) and django-extensions'
/// `reset_db`: no database noun in their words.
fn flushes_django(reading: &Reading<'_>) -> bool {
    reading.program == "manage"
        && matches!(
            reading.lead().first(),
            Some(&("flush" | "reset_db" | "sqlflush"))
        )
}

fn is_project_script(cmd: &Command) -> bool {
    let word = cmd.words.first().map(String::as_str).unwrap_or("");
    word.contains('/')
        && !word.starts_with('/')
        && !word.starts_with('~')
        && catalogue::program(word).is_none()
}

/// A word cut into lower-case parts: at every character that isn't a letter or a digit,
/// and where a lower-case letter meets an upper-case one (`getSecretValue`).
pub(super) fn parts(word: &str) -> Vec<String> {
    // By bytes: a byte past ASCII is never a letter or a digit, so it cuts as its character
    // does. Each part is made once, at its length, from the run of the word it is.
    let part = |from: usize, to: usize| word.get(from..to).unwrap_or("").to_ascii_lowercase();
    let mut out: Vec<String> = Vec::new();
    let mut start: Option<usize> = None;
    let mut last_lower = false;
    for (at, b) in word.bytes().enumerate() {
        if !b.is_ascii_alphanumeric() {
            if let Some(from) = start.take() {
                out.push(part(from, at));
            }
            last_lower = false;
            continue;
        }
        match start {
            Some(from) if b.is_ascii_uppercase() && last_lower => {
                out.push(part(from, at));
                start = Some(at);
            }
            Some(_) => {}
            None => start = Some(at),
        }
        last_lower = b.is_ascii_lowercase() || b.is_ascii_digit();
    }
    if let Some(from) = start {
        out.push(part(from, word.len()));
    }
    if out.iter().any(|part| part.len() >= 7) {
        out = out.into_iter().flat_map(split_compound).collect();
    }
    out
}

/// A word written as one that is a verb and what it acts on (`dumpwallet`, `dumpprivkey`,
/// `getsecret`, `addowner`), as some programs spell their subcommands: cut in two when the
/// head is a verb and the rest names a secret or a grant. Anything else stays whole
/// (`address` is no `add`).
fn split_compound(part: String) -> Vec<String> {
    let verbs = [REVEALS, DESTROYS, SENDS, CHANGES, GRANTS, READS];
    let nouns = [SECRET_NOUNS, KEY_NOUNS, GRANT_NOUNS, COMPOUND_NOUNS];
    if part.len() < 7 || verbs.iter().chain(&nouns).any(|t| has(t, &part)) {
        return vec![part];
    }
    // The verbs in the order of their tables, by their first byte: only those can start it.
    let first = part.as_bytes().first().map_or(0, |b| usize::from(*b));
    for verb in COMPOUND_VERBS.get(first).into_iter().flatten() {
        if let Some(rest) = part.strip_prefix(verb)
            && rest.len() >= 3
            && nouns.iter().any(|t| has(t, rest))
        {
            return vec![(*verb).to_string(), rest.to_string()];
        }
    }
    vec![part]
}

/// The verbs a compound word may start with ([`split_compound`]: one word, no phrase), in
/// the order of their tables, kept by their first byte.
static COMPOUND_VERBS: std::sync::LazyLock<Vec<Vec<&'static str>>> =
    std::sync::LazyLock::new(|| {
        let mut by_first: Vec<Vec<&'static str>> = vec![Vec::new(); 256];
        for table in [REVEALS, DESTROYS, SENDS, CHANGES, GRANTS, READS] {
            for (_, words) in table {
                for verb in *words {
                    if let (Some(first), false) = (verb.as_bytes().first(), verb.contains(' '))
                        && let Some(slot) = by_first.get_mut(usize::from(*first))
                    {
                        slot.push(verb);
                    }
                }
            }
        }
        by_first
    });

/// Does a table hold a part, or the phrase it starts with its next part? The longer wins;
/// the answer is how many parts it took.
fn phrase_at(table: Table, parts: &[String], at: usize) -> Option<usize> {
    let one = parts.get(at)?;
    if let Some(two) = parts.get(at + 1)
        && with_phrase(one, two, |phrase| has(table, phrase))
    {
        return Some(2);
    }
    has(table, one).then_some(1)
}

/// `f` of the phrase `ONE TWO`, put together on the stack when it is short (this runs for
/// every table a command's words are looked up in).
fn with_phrase<R>(one: &str, two: &str, f: impl FnOnce(&str) -> R) -> R {
    let mut buffer = [0u8; 64];
    let len = one.len() + 1 + two.len();
    if let Some(slot) = buffer.get_mut(..len) {
        let (head, rest) = slot.split_at_mut(one.len());
        head.copy_from_slice(one.as_bytes());
        if let Some((space, tail)) = rest.split_first_mut() {
            *space = b' ';
            tail.copy_from_slice(two.as_bytes());
        }
        if let Ok(phrase) = std::str::from_utf8(slot) {
            return f(phrase);
        }
    }
    f(&format!("{one} {two}"))
}

/// Does a table hold any part (or two-part phrase) of these parts?
fn any_in(table: Table, parts: &[String]) -> bool {
    (0..parts.len()).any(|at| phrase_at(table, parts, at).is_some())
}

/// A subcommand word: a letter first, then letters, digits, `-`, `_`, `:`.
fn is_word(text: &str) -> bool {
    let mut chars = text.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | ':'))
}

/// One long option (`--show-token`, `-field=password`): its name's parts and its value.
struct Opt<'a> {
    name: &'a str,
    parts: Vec<String>,
    value: Option<&'a str>,
}

/// A command, read for its words.
struct Reading<'a> {
    program: String,
    kind: Kind,
    args: &'a [String],
    /// The positional words, in order (values of known options left out).
    positionals: Vec<&'a str>,
    /// The subcommand words: where each stands among the positionals, and its parts.
    words: Vec<(usize, Vec<String>)>,
    /// Long options, and single-dash ones longer than a cluster of letters.
    options: Vec<Opt<'a>>,
    /// How many positionals come before the first option that isn't a known one with a
    /// value: what the command names before any option's value could be read as a word
    /// (`atuin login -u alice -p secret` names no secret).
    lead: usize,
    /// Run as the administrator or another role (`sudo`, `newrole`): the rule for that says
    /// it better than a name does.
    administrator: bool,
    /// Given something on its standard input (a pipe, `<`, a here-document): what a tool whose
    /// name is its act reads there is what it acts on (`echo 'alice:pw' | chpasswd`).
    fed: bool,
}

impl<'a> Reading<'a> {
    /// The subcommand words are the first three positionals that look like words: a value
    /// or a path before them is skipped (`gh -R o/r release delete v1`), one after them
    /// ends them (`aws s3 cp file.txt s3://b`).
    fn of(program: String, args: &'a [String]) -> Reading<'a> {
        Reading::of_words(program, args, 3)
    }

    /// The same, with up to `most` subcommand words.
    fn of_words(program: String, args: &'a [String], most: usize) -> Reading<'a> {
        let positionals = infra::positional_after_values_of(&program, args);
        // A value that follows an option of the program's own (`grafana cli --homepath
        // /usr/share/grafana plugins install x`, `docker compose -f path/compose.yml stop`) is
        // that option's, not an operand that ends the words.
        let after_option = |positional: &str| {
            args.iter()
                .position(|a| std::ptr::eq(a.as_str(), positional))
                .and_then(|at| at.checked_sub(1))
                .and_then(|before| args.get(before))
                .is_some_and(|option| {
                    option.starts_with('-') && option.len() > 1 && !option.contains('=')
                })
        };
        let mut words: Vec<(usize, Vec<String>)> = Vec::new();
        for (at, positional) in positionals.iter().enumerate() {
            if words.len() == most {
                break;
            }
            if is_word(positional) {
                words.push((at, parts(positional)));
            } else if !words.is_empty() && !after_option(positional) {
                break;
            }
        }
        let options = args
            .iter()
            .take_while(|a| *a != "--")
            .filter_map(|arg| Opt::parse(arg))
            .collect();
        let mut lead = 0;
        let mut value_next = false;
        for arg in args {
            if value_next {
                value_next = false;
            } else if infra::VALUED.contains(&arg.as_str()) {
                value_next = true;
            } else if arg.starts_with('-') && arg != "-" {
                break;
            } else {
                lead += 1;
            }
        }
        Reading {
            lead,
            administrator: false,
            fed: false,
            kind: Kind::of(&program),
            program,
            args,
            positionals,
            words,
            options,
        }
    }

    /// The positionals before the first option (see [`Reading::lead`]).
    fn lead(&self) -> &[&'a str] {
        self.positionals
            .get(..self.lead)
            .unwrap_or(&self.positionals)
    }

    /// A subcommand word as written.
    fn word(&self, at: usize) -> &'a str {
        self.words
            .get(at)
            .and_then(|(place, _)| self.positionals.get(*place))
            .copied()
            .unwrap_or("")
    }

    /// Every positional that isn't a subcommand word.
    fn operands(&self) -> impl Iterator<Item = &'a str> + '_ {
        self.positionals
            .iter()
            .enumerate()
            .filter(|(at, _)| !self.words.iter().any(|(place, _)| place == at))
            .map(|(_, w)| *w)
    }

    /// The positionals after the subcommand word `word` (all of them after the words, when
    /// `word` is past the last one).
    fn after(&self, word: usize) -> &[&'a str] {
        let from = match self.words.get(word) {
            Some((place, _)) => place + 1,
            None => self.words.last().map_or(0, |(place, _)| place + 1),
        };
        self.positionals.get(from..).unwrap_or(&[])
    }

    /// Every part of the subcommand words, with the word it came from.
    fn flat(&self) -> Vec<(usize, String)> {
        self.words
            .iter()
            .enumerate()
            .flat_map(|(at, (_, parts))| parts.iter().map(move |p| (at, p.clone())))
            .collect()
    }

    /// The program and its first two subcommand words, as a reason says them.
    fn describe(&self) -> String {
        let mut out = self.program.clone();
        for at in 0..self.words.len().min(2) {
            let word = self.word(at);
            if word.len() < 30 {
                out.push(' ');
                out.push_str(word);
            }
        }
        out
    }

    /// Short options as written (`-d`, `-L`, `-9`).
    fn short(&self) -> impl Iterator<Item = &'a str> {
        self.args
            .iter()
            .take_while(|a| *a != "--")
            .map(String::as_str)
            .filter(|a| a.starts_with('-') && !a.starts_with("--") && a.len() == 2)
    }

    fn has_all(&self) -> bool {
        self.args.iter().any(|a| a == "--all")
    }

    /// Told not to ask first (`--force`, `--yes`, `--noconfirm`, `-f`, `-y`): the question
    /// the program would have put to the person is skipped.
    fn forced(&self) -> bool {
        self.short().any(|s| matches!(s, "-f" | "-y"))
            || self.options.iter().any(|o| has(FORCES, &o.parts.join(" ")))
    }

    /// A switch thrown by the program's first two words (`gotelemetry on`, `ng analytics
    /// off`, `chkconfig sshd on`), or by a third that ends the command (`nmcli radio wifi
    /// on`), before any option, whose value an `on` could be (`-i on`). One past them with
    /// more after it is an operand (`tool report build on main`).
    /// A tool's own setup asked for by one word and nothing else, by a program no line of
    /// the catalogue knows (`paci configure`, `notmuch setup`, `p10k configure`): it writes
    /// the settings it keeps, outside the work folder. Given a place or more words it is the
    /// project's (`propelauth setup -f dir`); a bare `config` shows as often as it writes
    /// (`ng config`, `spicetify config`), and a known program's is its own line's to read.
    fn sets_up(&self) -> bool {
        self.kind.unlisted
            && self.args.len() == 1
            && matches!(self.positionals.as_slice(), [word]
                if matches!(word.to_ascii_lowercase().as_str(), "configure" | "setup"))
    }

    fn switches(&self) -> bool {
        let lead = self.lead();
        let switch = |w: &&str| has(SWITCHES, &w.to_ascii_lowercase());
        lead.iter().take(2).any(switch)
            || (lead.len() == 3
                && self.positionals.len() == 3
                && self.args.last().map(String::as_str) == lead.get(2).copied()
                && lead.get(2).is_some_and(switch))
    }
}

impl<'a> Opt<'a> {
    /// `--show-token`, `--add-port=80/tcp`, `-field=password`; not `-rf`, `-9` or `-o`.
    fn parse(arg: &'a str) -> Option<Opt<'a>> {
        let long = arg.starts_with("--");
        let body = arg.strip_prefix("--").or_else(|| {
            arg.strip_prefix('-')
                .filter(|b| b.len() > 1 && b.starts_with(|c: char| c.is_ascii_alphabetic()))
        })?;
        let (name, value) = match body.split_once('=') {
            Some((name, value)) => (name, Some(value)),
            None => (body, None),
        };
        if !long && value.is_none() && name.len() <= 3 {
            return None;
        }
        Some(Opt {
            name: arg.split('=').next().unwrap_or(arg),
            parts: parts(name),
            value,
        })
    }
}

/// What the first verb among a command's words does.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Verb {
    Stops,
    Reads,
    Unveils,
    Reveals,
    Unpublishes,
    Destroys,
    Publishes,
    Deploys,
    Sends,
    Transfers,
    Grants,
    Installs,
    Package,
    System,
    Halts,
    Starts,
    Closes,
    RemoteRun,
    Changes,
}

/// The verb a phrase is, for a program of this kind, and how many parts it took.
fn verb_at(parts: &[String], at: usize, kind: Kind) -> Option<(Verb, usize)> {
    let applies = [
        true,
        true,
        true,
        true,
        true,
        !kind.toolchain,
        !kind.toolchain,
        true,
        true,
        true,
        true,
        kind.system,
        kind.packages || kind.installer,
        kind.unlisted || kind.container || kind.sessions || kind.cloud || kind.machines,
        kind.cloud || kind.machines,
        kind.cloud,
        kind.cloud,
        true,
    ];
    let applies = applies
        .iter()
        .enumerate()
        .filter(|(_, applies)| **applies)
        .fold(0u32, |mask, (n, _)| mask | 1 << n);
    let one = parts.get(at)?;
    let verbs = &*VERBS;
    let of = |phrase: &str| verbs.get(phrase).copied().unwrap_or(0);
    let two = parts.get(at + 1).map_or(0, |two| with_phrase(one, two, of));
    // The first table that applies and holds the phrase or the part; the phrase if both.
    let found = (two | of(one)) & applies;
    let table = found.trailing_zeros() as usize;
    let (_, verb) = VERB_TABLES.get(table)?;
    Some((*verb, if two & (1 << table) != 0 { 2 } else { 1 }))
}

/// The verb tables [`verb_at`] reads, in the order it reads them (the first that holds a
/// word decides).
const VERB_TABLES: [(Table, Verb); 18] = [
    (READS, Verb::Reads),
    (UNVEILS, Verb::Unveils),
    (REVEALS, Verb::Reveals),
    (UNPUBLISHES, Verb::Unpublishes),
    (DESTROYS, Verb::Destroys),
    (PUBLISHES, Verb::Publishes),
    (DEPLOYS, Verb::Deploys),
    (SENDS, Verb::Sends),
    (TRANSFERS, Verb::Transfers),
    (GRANTS, Verb::Grants),
    (INSTALLS, Verb::Installs),
    (SYSTEM, Verb::System),
    (PACKAGE_VERBS, Verb::Package),
    (HALTS, Verb::Halts),
    (STARTS, Verb::Starts),
    (CLOSES, Verb::Closes),
    (REMOTE_RUNS, Verb::RemoteRun),
    (CHANGES, Verb::Changes),
];

/// Every entry of the verb tables, with the tables that hold it as bits (bit `n`:
/// `VERB_TABLES[n]`): a command's part is looked up once, not once a table.
static VERBS: std::sync::LazyLock<
    std::collections::HashMap<
        &'static str,
        u32,
        std::hash::BuildHasherDefault<crate::intent::lexicon::WordHasher>,
    >,
> = std::sync::LazyLock::new(|| {
    let mut verbs = std::collections::HashMap::default();
    for (n, (table, _)) in VERB_TABLES.iter().enumerate() {
        for (_, words) in *table {
            for word in *words {
                *verbs.entry(*word).or_insert(0u32) |= 1 << n;
            }
        }
    }
    verbs
});

/// The deciding verb of a command's words: what it does, the subcommand word it stands in,
/// and its phrase (`get`, `self update`).
struct Found {
    verb: Verb,
    word: usize,
    phrase: String,
}

/// The first verb, unless it is also a noun and another verb comes after it.
fn deciding_verb(reading: &Reading<'_>) -> Option<Found> {
    let stop =
        (0..reading.words.len()).find(|at| has(STOPS, &reading.word(*at).to_ascii_lowercase()));
    let flat: Vec<(usize, String)> = reading
        .flat()
        .into_iter()
        .filter(|(word, _)| stop.is_none_or(|stop| *word < stop))
        .collect();
    let parts: Vec<String> = flat.iter().map(|(_, p)| p.clone()).collect();
    let mut found: Vec<Found> = Vec::new();
    let mut at = 0;
    while at < parts.len() {
        // A verb that is also a noun is a noun inside a longer word (`access_token`,
        // `post_upgrade`): only a word of its own is the verb (`gcloud … access latest`).
        // In a word joined by `_` only the first part is a verb: a real subcommand says
        // its verb first (`add_user`, `upload_file`), a placeholder names a thing
        // (`expect_send_pairs`, `key_share`).
        let word_of = |i: usize| flat.get(i).map(|(w, _)| *w);
        let first = at == 0 || word_of(at - 1) != word_of(at);
        let alone = word_of(at) != word_of(at + 1) && first;
        let snake = word_of(at)
            .and_then(|w| reading.words.get(w))
            .and_then(|(place, _)| reading.positionals.get(*place))
            .is_some_and(|w| w.contains('_'));
        match verb_at(&parts, at, reading.kind).filter(|(_, len)| {
            let phrase = parts.get(at..at + len).unwrap_or(&[]).join(" ");
            (alone || !has(NOUN_VERBS, &phrase))
                && (first || !snake)
                && (alone || !has(REMOTE_RUNS, &phrase))
        }) {
            Some((verb, len)) => {
                let phrase = parts.get(at..at + len).unwrap_or(&[]).join(" ");
                let word = flat.get(at).map_or(0, |(w, _)| *w);
                found.push(Found { verb, word, phrase });
                at += len;
            }
            None => at += 1,
        }
    }
    if found.is_empty()
        && let Some(stop) = stop
    {
        return Some(Found {
            verb: Verb::Stops,
            word: stop,
            phrase: reading.word(stop).to_ascii_lowercase(),
        });
    }
    let first = found.iter().position(|f| !has(NOUN_VERBS, &f.phrase));
    match first {
        Some(at) => found.into_iter().nth(at),
        None => found.into_iter().next(),
    }
}

/// The verb in a long option's name, when the words have none (`--add-port`,
/// `--delete-secret-keys`, `--list-all`): a destroy, a change or a system verb, one that
/// unveils a secret, or one that reads.
/// The words after an option's verb that make the option say when, where or with what the
/// program acts, not an act (`--stop-on-failure`, `--stop-position 200`): sorted.
const WHEN_OR_WHERE: &[&str] = &[
    "after",
    "date",
    "datetime",
    "delay",
    "if",
    "offset",
    "on",
    "pos",
    "position",
    "signal",
    "time",
    "timeout",
    "timestamp",
    "upon",
    "when",
];

fn option_verb(reading: &Reading<'_>) -> Option<(Verb, usize)> {
    reading.options.iter().enumerate().find_map(|(at, opt)| {
        // A verb followed by when it happens says when the program itself stops or acts, on
        // nothing named (`pdflatex -halt-on-error`, `phpunit --stop-on-failure`, `--exit-after
        // 10`): no act of its own. So does one followed by where in time or in a stream, or
        // by the signal it is done with (`mysqlbinlog --stop-position 200`, `docker run
        // --stop-signal SIGINT --stop-timeout 30`): a value the program reads, not an act.
        // (Not a thing's name: `--drop-index x` and `--delete-line 5` act.)
        if opt
            .parts
            .get(1)
            .is_some_and(|next| WHEN_OR_WHERE.binary_search(&next.as_str()).is_ok())
        {
            return None;
        }
        let (verb, _) = verb_at(&opt.parts, 0, reading.kind)?;
        matches!(
            verb,
            Verb::Reads
                | Verb::Unveils
                | Verb::Destroys
                | Verb::Changes
                | Verb::System
                | Verb::Halts
                | Verb::Sends
        )
        .then_some((verb, at))
    })
}

// ---------------------------------------------------------------------------------------
// What the words say
// ---------------------------------------------------------------------------------------

/// Is a word a secret's name or a setting that holds one (`API_TOKEN`, `DATABASE_URL`,
/// `aws_secret_access_key`, `~/.config/tokens.json`)?
pub(crate) fn is_secret_key(word: &str) -> bool {
    let parts = parts(word);
    any_in(SECRET_NOUNS, &parts)
        || (parts.last().is_some_and(|last| has(CONNECTION_ENDS, last))
            && parts.iter().any(|p| has(DATASTORES, p)))
}

/// A pattern that picks the environment's secrets out of its names: one naming a secret
/// (`token`, `API_KEY`), or a part a secret's name is made of (`key` for `*_KEY`, the start
/// of one: `pass`, `cred`, `secr`, `toke`).
fn filters_for_secret(pattern: &str) -> bool {
    is_secret_key(pattern)
        || parts(pattern).iter().any(|part| {
            matches!(part.as_str(), "key" | "pwd" | "passwd")
                || (part.len() >= 4
                    && SECRET_NOUNS
                        .iter()
                        .flat_map(|(_, words)| words.iter())
                        .any(|noun| !noun.contains(' ') && noun.starts_with(part.as_str())))
        })
}

/// Programs that show every variable of the environment (`env`, `printenv`, `set`,
/// `export -p`, `declare -p`).
pub(super) const SHOWS_ENVIRONMENT: &[&str] =
    &["declare", "env", "export", "printenv", "set", "typeset"];

/// A secret the environment holds, printed where the chat reads it: a variable named for one
/// expanded by `echo` or `printf` (`echo $AWS_SECRET_ACCESS_KEY`, `printf '%s' "${API_KEY}"`),
/// given to `printenv` (`printenv GITHUB_TOKEN`), or the whole environment filtered for one
/// (`env | grep -i token`). What goes into a pipe or a file is not printed here (`echo
/// $TOKEN | gh auth login --with-token`, `echo "$KEY" > .key`), nor a test of it (`${KEY:+set}`,
/// `${#KEY}`). Severe, not lasting, as a secret printed by its own tool (`words.secret`).
pub(super) fn prints_secret_variable(cmd: &Command, scan: &mut Scan<'_>) {
    let program = cmd.program();
    let line = scan.line;
    let next = |cmd: &Command| {
        line.commands.iter().find(|c| {
            c.pipeline == cmd.pipeline && c.stage == cmd.stage + 1 && c.parent == cmd.parent
        })
    };
    let to_output = |cmd: &Command| {
        next(cmd).is_none()
            && !cmd.redirects.iter().any(|r| {
                matches!(r.op, RedirectOp::Write | RedirectOp::Append)
                    && matches!(r.fd, None | Some(1))
                    && !matches!(
                        r.target.as_str(),
                        "/dev/stdout" | "/dev/tty" | "/dev/stderr"
                    )
            })
    };
    let named = match program {
        "echo" | "printf" | "print" => cmd
            .args()
            .iter()
            .find_map(|a| expanded_secret(a))
            .filter(|_| to_output(cmd)),
        "printenv" if cmd.args().iter().any(|a| !a.starts_with('-')) => cmd
            .args()
            .iter()
            .find(|a| !a.starts_with('-') && is_secret_key(a))
            .map(String::as_str)
            .filter(|_| to_output(cmd)),
        _ if SHOWS_ENVIRONMENT.contains(&program)
            && cmd.args().iter().all(|a| a.starts_with('-')) =>
        {
            // The whole environment, filtered by a pattern naming a secret.
            next(cmd)
                .filter(|grep| matches!(grep.program(), "grep" | "egrep" | "rg" | "ag"))
                .filter(|grep| to_output(grep))
                .and_then(|grep| {
                    grep.args()
                        .iter()
                        .filter(|a| !a.starts_with('-'))
                        .find(|a| filters_for_secret(a))
                })
                .map(String::as_str)
        }
        _ => None,
    };
    if let Some(name) = named {
        scan.add(
            Risk::new(
                RuleId::WordsSecret,
                Harm::Severe,
                false,
                format!("print {name} from the environment, a secret, where the chat can read it"),
            )
            .way_out()
            .wish(Wish::new(Act::Secrets).naming(Name::one(name))),
        );
    }
}

/// The name of a variable named for a secret that `word` expands as it is (`$API_KEY`,
/// `${GITHUB_TOKEN}`, `${KEY:-x}`), not one only tested (`${KEY:+set}`, `${#KEY}`).
pub(super) fn expanded_secret(word: &str) -> Option<&str> {
    let mut rest = word;
    while let Some(at) = rest.find('$') {
        let after = &rest[at + 1..];
        let (braced, body) = match after.strip_prefix('{') {
            Some(body) => (true, body),
            None => (false, after),
        };
        let len = body
            .bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
            .count();
        let name = &body[..len];
        let tested = braced && {
            let op = &body[len..];
            op.starts_with(":+") || op.starts_with('+')
        };
        if len > 0 && !tested && is_secret_key(name) {
            return Some(name);
        }
        rest = &body[len..];
    }
    None
}

/// Where a word points when it names another machine: a URL's host (not this machine, not
/// `file:`), or the host of `user@host` (an address or an ssh login).
fn remote_host(word: &str) -> Option<String> {
    if let Some((scheme, _)) = word.split_once("://") {
        if scheme.eq_ignore_ascii_case("file") {
            return None;
        }
    } else if !word.contains('@') || word.starts_with('@') {
        return None;
    }
    super::net::url_host(word).filter(|host| !super::net::is_local(host))
}

/// A copy's destination as a remote: a URL or `user@host` as above, or rclone's and scp's
/// `name:path` (`drive:backup`, `pod:/tmp`), the name a host's too (`example.com:`,
/// `100.64.0.2:docs`), as scp reads any name before a colon with no slash before it.
fn remote_destination(word: &str) -> Option<String> {
    if let Some(host) = remote_host(word) {
        return Some(host);
    }
    let (head, _) = word.split_once(':')?;
    let host_name = || {
        head.contains('.')
            && head.starts_with(|c: char| c.is_ascii_alphanumeric())
            && head
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.'))
    };
    (head.len() >= 2 && !head.contains('/') && (is_word(head) || host_name()))
        .then(|| head.to_lowercase())
        .filter(|host| !super::net::is_local(host))
}

/// pacman's options read as one set of letters, however they are written (`-Syu`, `-S -y
/// -u`, `--sync --refresh --sysupgrade`): a sync (`S`) that upgrades (`u`) and does nothing
/// else instead (a search, an info, a listing, a group, a print, a download only or a
/// clean).
pub(super) fn syncs_every_package(args: &[String]) -> bool {
    let letters = pacman_letters(args);
    letters.contains('S')
        && letters.contains('u')
        && !letters.contains(['s', 'i', 'l', 'g', 'p', 'w', 'c'])
}

/// Every letter of pacman's options, short ones as written and long ones by their letter.
pub(super) fn pacman_letters(args: &[String]) -> String {
    let mut letters = String::new();
    for arg in args {
        match arg.strip_prefix("--") {
            Some(long) => letters.push(match long {
                "sync" => 'S',
                "sysupgrade" => 'u',
                "refresh" => 'y',
                "search" => 's',
                "info" => 'i',
                "list" => 'l',
                "groups" => 'g',
                "print" => 'p',
                "downloadonly" => 'w',
                "clean" => 'c',
                _ => continue,
            }),
            None => {
                if let Some(short) = arg.strip_prefix('-') {
                    letters.push_str(short);
                }
            }
        }
    }
    letters
}

/// The remote host a command names: an operand, an option's value, or the value of
/// `--host`-like options.
fn names_remote(reading: &Reading<'_>) -> Option<String> {
    let from_operands = reading.operands().find_map(remote_host);
    let from_values = reading
        .options
        .iter()
        .filter_map(|o| o.value)
        .find_map(remote_host);
    let from_remote_options = reading.args.windows(2).find_map(|pair| match pair {
        [option, value] if has(REMOTE_OPTIONS, option) => super::net::url_host(value)
            .or_else(|| Some(value.to_lowercase()))
            .filter(|host| !super::net::is_local(host)),
        _ => None,
    });
    let from_remote_values = reading.options.iter().find_map(|o| {
        o.value
            .filter(|_| has(REMOTE_OPTIONS, o.name))
            .map(|v| super::net::url_host(v).unwrap_or_else(|| v.to_lowercase()))
            .filter(|host| !super::net::is_local(host))
    });
    // An address given to any option (`jenkins-cli -s http://jenkins.example/ …`): where the
    // command goes.
    let from_any_address = || {
        reading
            .args
            .iter()
            .filter(|a| a.contains("://"))
            .find_map(|a| remote_host(a))
    };
    from_operands
        .or(from_values)
        .or(from_remote_options)
        .or(from_remote_values)
        .or_else(from_any_address)
}

/// Schemes that name a place files are stored on another machine, not a page: a local path
/// given before one of them is copied there (`duplicity ./docs ftps://u@host/backup`,
/// `tool sync out s3://bucket/x`).
const TRANSFER_SCHEMES: &[&str] = &[
    "azure", "b2", "ftp", "ftps", "gs", "rsync", "s3", "scp", "sftp", "ssh", "swift", "webdav",
    "webdavs",
];

/// The host a program the catalogue doesn't know copies a local path to: its last operand
/// a transfer URL on another machine, a local path before it.
fn sends_to_transfer_url(reading: &Reading<'_>) -> Option<String> {
    let operands: Vec<&str> = reading.positionals.to_vec();
    let (last, before) = operands.split_last()?;
    let (scheme, _) = last.split_once("://")?;
    if !TRANSFER_SCHEMES.contains(&scheme.to_ascii_lowercase().as_str()) {
        return None;
    }
    let host = super::net::url_host(last)
        .or_else(|| {
            // `s3://bucket/key`: the bucket is the place.
            last.split_once("://")
                .and_then(|(_, rest)| rest.split('/').next())
                .filter(|b| !b.is_empty())
                .map(str::to_lowercase)
        })
        .filter(|host| !super::net::is_local(host))?;
    let local = before.iter().any(|w| {
        !w.contains("://") && (w.contains('/') || w.contains('.') || *w == ".") && !w.contains('=')
    });
    local.then_some(host)
}

/// A cloud program's word that keeps what it changes on this machine. A forge's `repo` is
/// the hosted repository (`gh repo archive`), not a list of sources kept here (`helm repo
/// remove`).
fn is_local_change(reading: &Reading<'_>) -> bool {
    reading.words.iter().any(|(_, parts)| {
        (0..parts.len()).any(|at| {
            phrase_at(LOCAL_NOUNS, parts, at).is_some()
                && !(reading.kind.forge && parts.get(at).is_some_and(|p| p == "repo"))
        })
    })
}

/// Do the words change the program's own settings: a word naming its settings, with a
/// changing verb (`aws configure set`, `pixi config append`, `gh config set`) or a choice
/// (`docker context use`, `kubectl config use-context`) among the words, or an option that
/// says both (`--edit-config`, `--set-default`)? A read of them (`config get`, `config
/// list`) or a program's first run of `configure` with nothing after it sets nothing here.
fn changes_settings(reading: &Reading<'_>) -> bool {
    let settings = |parts: &[String]| any_in(SETTINGS_NOUNS, parts);
    let setter = |parts: &[String]| {
        parts
            .iter()
            .any(|p| has(CHOOSES, p) || (has(CHANGES, p) && !has(NOUN_VERBS, p)))
    };
    // A Windows registry key (`wine reg add 'HKEY_CURRENT_USER\…'`, `reg copy HKCU\…`):
    // every program run under that prefix reads it.
    let key = reading.positionals.iter().any(|w| is_registry_key(w));
    // A default chosen by one word (`foo set-default x`, `pactl set-default-sink y`): a
    // setting named by its verb. A forge's is the repository's (`gh repo set-default`
    // writes `.git/config`).
    let sets_default = |parts: &[String]| {
        !reading.kind.forge
            && parts.len() >= 2
            && parts
                .first()
                .is_some_and(|p| has(CHANGES, p) && !has(NOUN_VERBS, p))
            && parts.iter().skip(1).any(|p| p == "default")
    };
    let named = key
        || reading
            .words
            .iter()
            .any(|(_, parts)| settings(parts) || sets_default(parts));
    let set = reading.words.iter().any(|(_, parts)| {
        setter(parts) || (key && parts.iter().any(|p| has(TRANSFERS, p) || has(DESTROYS, p)))
    });
    let reading_word = |p: &String| is_read_word(p) || has(REVEALS, p);
    let read = reading
        .words
        .iter()
        .any(|(_, parts)| parts.iter().any(reading_word));
    let by_option = reading
        .options
        .iter()
        .any(|o| settings(&o.parts) && setter(&o.parts));
    // Where the word naming the settings stands, when it is the first word (`conda config`,
    // `hg config`, `fossil settings`): what follows it says what is done to them.
    let settings_word = reading
        .words
        .first()
        .filter(
            |(_, parts)| matches!(parts.as_slice(), [w] if KEYED_SETTINGS.contains(&w.as_str())),
        )
        .and_then(|_| {
            let word = reading.word(0);
            reading.args.iter().position(|a| a.as_str() == word)
        });
    let after_word = settings_word.map_or(&[][..], |at| reading.args.get(at + 1..).unwrap_or(&[]));
    // The change written as an option after it (`conda config --set ssl_verify false`,
    // `mamba config --add channels x`, `hg config --edit`), or as one of the letters a
    // program takes for it (`go env -w GOFLAGS=-insecure`, `hg config -e`).
    let set_by_option = after_word.iter().any(|a| {
        a.starts_with("--")
            && parts(a.trim_start_matches('-'))
                .first()
                .is_some_and(|p| (has(CHANGES, p) && !has(NOUN_VERBS, p)) || has(DESTROYS, p))
    });
    let set_by_letter = SETTING_LETTERS.iter().any(|(program, word, letters)| {
        *program == reading.program
            && reading.word(0) == *word
            && letters
                .chars()
                .any(|c| super::has_flag(reading.args, Some(c), &[]))
    });
    // A key and its value right after it, past the flags that say whose settings
    // (`poetry config virtualenvs.in-project true`, `composer config -g secure-http false`,
    // `sl config --user ui.username alice`): the key set to the value. One operand alone
    // reads it; an option between is another's value (`qm config --current true 100`).
    let key_and_value = settings_word.is_some_and(|at| {
        matches!(
            reading
                .args
                .get(at + 1..)
                .unwrap_or(&[])
                .iter()
                .skip_while(|a| {
                    GLOBAL_SETTINGS.contains(&a.as_str()) || LOCAL_SETTINGS.contains(&a.as_str())
                })
                .take(2)
                .filter(|a| !a.starts_with('-'))
                .count(),
            2
        )
    });
    // A read, as an option or the word after the one naming the settings (`conda config
    // --show channels`, `sl config --list`, `npm config get registry`), not a part of a
    // key's name (`ssl_verify`).
    let reads = reading
        .options
        .iter()
        .any(|o| o.parts.first().is_some_and(reading_word))
        || reading
            .words
            .get(1)
            .is_some_and(|(_, parts)| parts.first().is_some_and(reading_word));
    let changed =
        (named && set && !read) || ((set_by_option || set_by_letter || key_and_value) && !reads);
    (changed && !settings_here(reading)) || by_option
}

/// The words naming a program's settings as a whole, which a change written as an option,
/// or a key and its value, follow (`conda config --set KEY VALUE`, `poetry config KEY
/// VALUE`, `fossil settings KEY VALUE`); not a context or a profile named (`zstyle -b
/// context style name`, `sips --deleteProperty profile`).
const KEYED_SETTINGS: &[&str] = &["config", "configuration", "setting", "settings"];

/// The flags that say a command changes every project's settings, not the project's: no
/// value follows them. With [`LOCAL_SETTINGS`], the flags that say whose settings.
const GLOBAL_SETTINGS: &[&str] = &["--global", "--home", "--system", "--user", "-g"];

/// A program's settings that are the project's unless it is told otherwise: the global
/// flags that make them every project's (`composer config -g secure-http false`, `fossil
/// settings autosync off --global`, `ng config cli.analytics false -g`; without, `ng
/// config` writes the project's `angular.json`). Sorted by program.
const PROJECT_SETTINGS: &[(&str, &[&str])] = &[
    ("composer", &["-g", "--global"]),
    ("dolt", &["--global"]),
    ("dvc", &["--global", "--system"]),
    ("fossil", &["--global"]),
    ("ng", &["-g", "--global"]),
    // A stack's settings are its file in the project (`Pulumi.dev.yaml`), whatever is set.
    ("pulumi", &[]),
    ("sf", &["-g", "--global"]),
    ("sfdx", &["-g", "--global"]),
];

/// The options that name the project's own settings (`poetry config --local`, `jj config set
/// --repo`, `npm config set --location=project`): a file in the work folder, not the
/// program's settings for every project.
const LOCAL_SETTINGS: &[&str] = &[
    "--local",
    "--location=project",
    "--project",
    "--repo",
    "--workspace",
];

/// Are the settings a command changes the project's own, in the work folder: a local flag,
/// or a program whose settings are the project's with no global flag?
fn settings_here(reading: &Reading<'_>) -> bool {
    if reading
        .args
        .iter()
        .any(|a| LOCAL_SETTINGS.contains(&a.as_str()))
    {
        return true;
    }
    PROJECT_SETTINGS
        .iter()
        .find(|(program, _)| *program == reading.program)
        .is_some_and(|(_, global)| !reading.args.iter().any(|a| global.contains(&a.as_str())))
}

/// A program's letter options that change its settings, after the word naming them: Go's
/// environment file (`go env -w`, `-u`), Mercurial's and Sapling's settings opened in an
/// editor (`hg config -e`). Sorted by program.
#[rustfmt::skip]
const SETTING_LETTERS: &[(&str, &str, &str)] = &[
    ("chg", "config", "e"),
    ("go", "env", "uw"),
    ("hg", "config", "e"),
    ("sl", "config", "e"),
];

/// A Windows registry key as written to `reg` (`HKEY_CURRENT_USER\x`, `HKLM\Software`).
fn is_registry_key(word: &str) -> bool {
    let head = word.split(['\\', '/']).next().unwrap_or(word);
    let head = head.trim_start_matches(['\'', '"']).to_ascii_uppercase();
    head.starts_with("HKEY_") || matches!(head.as_str(), "HKLM" | "HKCU" | "HKCR" | "HKU" | "HKCC")
}

/// A package manager's subcommand about its registry's own things (`npm team`, `npm
/// owner`, `npm dist-tag`): what it changes is on the registry.
fn on_registry(reading: &Reading<'_>) -> bool {
    (reading.kind.packages || reading.kind.installer)
        && reading
            .words
            .first()
            .is_some_and(|(_, parts)| phrase_at(REGISTRY_NOUNS, parts, 0).is_some())
}

/// A verb whose delete loses what was there for good (`drop`, `purge`, `wipe`), not one that
/// removes an entry (`remove`, `rm`).
fn loses_data(part: &str) -> bool {
    matches!(
        part,
        "destroy" | "drop" | "erase" | "flush" | "nuke" | "purge" | "truncate" | "wipe"
    )
}

/// An option of a delete that takes what an entry holds with it (`virsh undefine --storage`,
/// `--remove-all-storage`, `--delete-volumes`, `--with-data`): the data goes, not the entry.
fn takes_storage(part: &str) -> bool {
    matches!(
        part,
        "data" | "disk" | "disks" | "storage" | "volume" | "volumes"
    )
}

/// A package manager adding a source: `add` (or `enable`) with a source's name in its
/// words, its options or its own name (`nix-channel --add`, `--add-repo`, `addrepo`).
fn adds_source(reading: &Reading<'_>, verb: Option<&Found>) -> bool {
    let adds = |parts: &[String]| {
        parts
            .iter()
            .any(|p| p == "add" || p.starts_with("add") && has(SOURCE_NOUNS, &p[3..]))
    };
    let sourced = |parts: &[String]| {
        parts.iter().any(|p| {
            has(SOURCE_NOUNS, p) || p.strip_prefix("add").is_some_and(|r| has(SOURCE_NOUNS, r))
        })
    };
    let in_words = verb.is_some_and(|verb| {
        matches!(verb.verb, Verb::Changes | Verb::Package)
            && verb.phrase == "add"
            && reading.words.iter().any(|(_, parts)| sourced(parts))
    });
    let in_options = reading
        .options
        .iter()
        .any(|o| adds(&o.parts) && (sourced(&o.parts) || sourced(&parts(&reading.program))));
    let compound = reading.words.iter().any(|(_, parts)| {
        parts
            .iter()
            .any(|p| p.strip_prefix("add").is_some_and(|r| has(SOURCE_NOUNS, r)))
    });
    in_words || in_options || compound || sets_registry(reading)
}

/// Where a package manager installs from, set to an address (`npm config set registry URL`,
/// `pip config set global.index-url URL`, `go env -w GOPROXY=URL`, `gem sources -a URL`):
/// a source every later install comes from. A read that names one (`npm view x
/// --registry URL`) sets nothing.
fn sets_registry(reading: &Reading<'_>) -> bool {
    const PLACES: &[&str] = &[
        "index",
        "mirror",
        "proxy",
        "goproxy",
        "registry",
        "repositories",
        "repository",
        "sources",
    ];
    let Some(url) = reading.args.iter().position(|a| a.contains("://")) else {
        return false;
    };
    // `composer config repositories.x vcs URL`: `config` given a key and a value sets it.
    let sets = reading.args.iter().take(url).any(|a| {
        matches!(
            a.to_ascii_lowercase().as_str(),
            "set" | "add" | "append" | "-w" | "-a" | "--add" | "--append" | "config"
        )
    });
    let names_place = reading.args.iter().take(url + 1).any(|a| {
        let key = a.split('=').next().unwrap_or(a);
        parts(key).iter().any(|p| PLACES.contains(&p.as_str()))
    });
    sets && names_place
}

/// A halting word's act: a kill, or a stop.
fn halt_act(phrase: &str) -> SystemAct {
    if phrase == "kill" {
        SystemAct::Kill
    } else {
        SystemAct::Halt
    }
}

/// An output option that prints a whole object (`-o yaml`, `--output=jsonpath={.data}`).
fn dumps(reading: &Reading<'_>) -> bool {
    let format = |value: &str| {
        let name = value.split(['=', '{']).next().unwrap_or(value);
        has(DUMPS, &name.to_ascii_lowercase())
    };
    reading.args.windows(2).any(|pair| match pair {
        [option, value] => matches!(option.as_str(), "-o" | "--output") && format(value),
        _ => false,
    }) || reading.args.iter().any(|arg| {
        ["-o=", "--output=", "-o"].iter().any(|prefix| {
            arg.strip_prefix(prefix)
                .is_some_and(|v| !v.is_empty() && format(v.trim_start_matches('=')))
        })
    })
}

/// A short option a program documents as printing a secret, where the letter alone says
/// nothing: the program, its subcommand words, the option (`gh auth status -t` is its
/// `--show-token`, which the option's own words already tell).
const SHORT_REVEALS: &[Row<&str>] = &[
    row(
        "gh",
        &["auth", "status"],
        "-t",
        &[
            "gh auth status -t",
            "gh auth status --hostname github.com -t",
        ],
        &[
            "gh auth status",
            "gh pr list -t draft",
            "gh auth login -h github.com",
        ],
    ),
    row(
        "glab",
        &["auth", "status"],
        "-t",
        &[
            "glab auth status -t",
            "glab auth status --hostname gitlab.com -t",
        ],
        &["glab auth status", "glab mr list -t x"],
    ),
    // KDE's wallet: `-r ENTRY` reads a password out (`-l` lists the entries, `-w` writes).
    row(
        "kwallet-query",
        &[],
        "-r",
        &["kwallet-query -r github kdewallet"],
        &[
            "kwallet-query -l kdewallet",
            "kwallet-query -f Passwords -l kdewallet",
        ],
    ),
];

/// A short option a program documents as deleting what it keeps, where the letter alone
/// says nothing: the program, its subcommand words, the option.
const SHORT_DESTROYS: &[Row<&str>] = &[
    // OpenSC's tool for a smart card or hardware key: `-b` is `--delete-object` (a key, a
    // certificate or data taken off the token, which keeps no other copy).
    row(
        "pkcs11-tool",
        &[],
        "-b",
        &[
            "pkcs11-tool --slot 0 -p 1234 -y cert -a label -b",
            "pkcs11-tool -b -y data -d 01 --login",
            "pkcs11-tool --login -b --type cert --id 01",
        ],
        &[
            "pkcs11-tool -O",
            "pkcs11-tool -r -y cert -a label -o cert.der",
            "rsync -b src/ dst/",
        ],
    ),
];

/// The row of `SHORT_REVEALS` this command is, if any.
fn short_reveal(reading: &Reading<'_>) -> Option<(usize, &'static Row<&'static str>)> {
    short_row(SHORT_REVEALS, reading)
}

/// The row of `table` this command is: its program, its subcommand words, the short option.
fn short_row(
    table: &'static [Row<&'static str>],
    reading: &Reading<'_>,
) -> Option<(usize, &'static Row<&'static str>)> {
    table.iter().enumerate().find(|(_, row)| {
        row.program == reading.program
            && reading.positionals.len() >= row.words.len()
            && row
                .words
                .iter()
                .zip(&reading.positionals)
                .all(|(w, p)| w == p)
            && reading.short().any(|s| s == row.then)
    })
}

/// `SHORT_REVEALS` and `SHORT_DESTROYS` for the rows test.
#[cfg(test)]
pub(super) fn walked() -> Vec<super::rows::Walked> {
    let reveals = SHORT_REVEALS
        .iter()
        .enumerate()
        .map(|(index, row)| super::rows::Walked {
            table: "words::SHORT_REVEALS",
            index,
            program: row.program,
            words: row.words,
            examples: row.examples,
            judges: judges_short_reveal,
        });
    let destroys = SHORT_DESTROYS
        .iter()
        .enumerate()
        .map(|(index, row)| super::rows::Walked {
            table: "words::SHORT_DESTROYS",
            index,
            program: row.program,
            words: row.words,
            examples: row.examples,
            judges: judges_short_destroy,
        });
    reveals.chain(destroys).collect()
}

/// Does row `at` of `SHORT_DESTROYS` judge the line: it is the row of one of its commands,
/// and the line deletes what the program keeps?
#[cfg(test)]
fn judges_short_destroy(at: usize, line: &crate::shell::Line, found: &super::Assessment) -> bool {
    line.commands.iter().any(|cmd| {
        let reading = Reading::of(cmd.program().to_string(), cmd.args());
        short_row(SHORT_DESTROYS, &reading).is_some_and(|(index, _)| index == at)
    }) && found.risks.iter().any(|r| r.rule == RuleId::WordsDestroy)
}

/// Does row `at` of `SHORT_REVEALS` judge the line: it is the row of one of its commands, and
/// the line prints a secret?
#[cfg(test)]
fn judges_short_reveal(at: usize, line: &crate::shell::Line, found: &super::Assessment) -> bool {
    line.commands.iter().any(|cmd| {
        let reading = Reading::of(cmd.program().to_string(), cmd.args());
        short_reveal(&reading).is_some_and(|(index, _)| index == at)
    }) && found.risks.iter().any(|r| r.rule == RuleId::WordsSecret)
}

/// An option that says the command prints a secret: `--show-token`, `--reveal`,
/// `--with-decryption`, `--export-secret-keys`; a store's `-d` (decrypt); a short option
/// `SHORT_REVEALS` names.
fn telling_reveal(reading: &Reading<'_>) -> Option<String> {
    if let Some((_, row)) = short_reveal(reading) {
        return Some(row.then.to_string());
    }
    // Terraform prints an output marked sensitive in the clear when asked for it by name as
    // JSON or raw (the plain listing hides it): `tofu output -raw db_password`. The whole
    // set as JSON (`terraform output -json`) is how tools read a stack's outputs.
    if matches!(
        reading.program.as_str(),
        "terraform" | "tofu" | "terragrunt"
    ) && reading.lead().first() == Some(&"output")
        && reading
            .args
            .iter()
            .any(|a| matches!(a.as_str(), "-json" | "-raw" | "--json" | "--raw"))
        && let Some(name) = reading
            .positionals
            .iter()
            .skip(1)
            .find(|name| parts(name).iter().any(|p| has(SECRET_NOUNS, p)))
    {
        return Some((*name).to_string());
    }
    // `--show-token` shows one; `--access-token x` takes one.
    let shows = |parts: &[String]| parts.iter().any(|p| has(REVEALS, p) && !has(NOUN_VERBS, p));
    let named = reading.options.iter().find(|opt| {
        any_in(UNVEILS, &opt.parts) || (shows(&opt.parts) && any_in(SECRET_NOUNS, &opt.parts))
    });
    if let Some(opt) = named {
        return Some(opt.name.to_string());
    }
    (reading.kind.store && reading.short().any(|s| s == "-d")).then(|| "-d".to_string())
}

/// The secret a showing verb at word `verb_word` shows, if it is one.
fn shows_secret(reading: &Reading<'_>, verb: &Found) -> bool {
    if reading.kind.store {
        return true;
    }
    // A cluster's config shown raw (`kubectl config view --raw`): its client keys and
    // tokens, not the copy with them left out.
    if reading.kind.cloud
        && reading.args.iter().any(|a| a == "--raw")
        && reading
            .words
            .iter()
            .any(|(_, parts)| parts.iter().any(|p| p == "config"))
    {
        return true;
    }
    // `netlify env:get X`, `vercel env pull`: a hosted app's environment.
    if prints_app_env(reading) {
        return true;
    }
    let same_word = reading
        .words
        .get(verb.word)
        .is_some_and(|(_, parts)| any_in(SECRET_NOUNS, parts));
    let verb_place = reading.words.get(verb.word).map(|(place, _)| *place);
    let keys = reading
        .lead()
        .iter()
        .enumerate()
        .filter(|(at, _)| Some(*at) != verb_place)
        .map(|(_, w)| *w);
    let mut kinds_only = true;
    let mut any = false;
    for key in keys {
        if is_secret_key(key) {
            any = true;
            kinds_only &= has(SECRET_KINDS, &key.to_ascii_lowercase());
        }
    }
    let cluster_get = reading.kind.cloud && verb.phrase == "get";
    same_word || (any && !(cluster_get && kinds_only)) || (any && dumps(reading))
}

/// Does what the command prints name a key (`dumpwallet`, `backup-keys`,
/// `--export-secret-keys`)?
fn names_key(reading: &Reading<'_>) -> bool {
    reading
        .words
        .iter()
        .any(|(_, parts)| any_in(KEY_NOUNS, parts))
        || reading.options.iter().any(|o| any_in(KEY_NOUNS, &o.parts))
        || any_in(KEY_NOUNS, &parts(&reading.program))
}

/// A secret named before any option (an option's value is often a placeholder: `-p secret`).
fn names_secret(reading: &Reading<'_>) -> bool {
    reading.lead().iter().any(|w| is_secret_key(w))
}

fn names_grant(reading: &Reading<'_>) -> bool {
    reading
        .words
        .iter()
        .any(|(place, parts)| *place < reading.lead && any_in(GRANT_NOUNS, parts))
}

// ---------------------------------------------------------------------------------------
// The risks
// ---------------------------------------------------------------------------------------

/// What the words found, before it becomes a risk.
enum Finding {
    DestroyRemote,
    Destroy,
    Send(Option<String>),
    Publish,
    Deploy,
    Secret,
    Grant {
        secret: bool,
    },
    System(SystemAct),
    Install(Vec<String>),
    /// Every package a machine's package manager keeps, upgraded (`yum update`, `brew
    /// upgrade`, `fisher update`).
    UpgradeAll,
    /// A cloud, cluster or hosted service's resource created or changed.
    CloudChange,
    /// A forge's issue, pull request, project or repository changed (`gh issue close`,
    /// `gh pr edit`, `gh label create`): others see it, in the person's name.
    ForgeChange,
    /// A session or a run on a hosted service's machine.
    RemoteRun,
    /// A place packages are installed from, added.
    Source,
    /// The program's own settings changed, outside the work folder.
    Setting,
    /// A change by a program nobody lists, on the machine an option names (`--host`,
    /// `-http-addr=URL`).
    RemoteChange(String),
    /// Money moved.
    Pays,
    /// A program the catalogue doesn't know, with no word to read, told not to ask before
    /// what it does: on another machine when one is named.
    Unconfirmed(Option<String>),
}

#[derive(Clone, Copy)]
enum SystemAct {
    /// Taken back by its opposite (start/stop, mount/umount).
    Reversible,
    /// A process killed: moderate and lasting, since nothing brings it back.
    Kill,
    /// Turned off (`ufw disable`, `systemctl disable`, `mask`).
    Off,
    /// A setting, a user, a firewall rule.
    Setting,
    /// Something stopped or shut down by a program the catalogue doesn't know, or a
    /// container stopped: what it held in memory is gone.
    Halt,
}

/// Reads one command's words and adds what they say. Called only for a command no other
/// rule found anything in.
pub(super) fn judge(cmd: &Command, scan: &mut Scan<'_>) {
    // `java -jar jenkins-cli.jar -s URL delete-job x`: the jar is the program, its words
    // after it.
    if let Some(jar) = jar_run(cmd) {
        judge(&jar, scan);
        return;
    }
    // What the infra table knows to only read has nothing for the words to find
    // (`terraform console` is a local REPL, not a hosted machine's console).
    if infra::only_reads(cmd) {
        return;
    }
    let program = cmd.program();
    // A project runner's words are the project's own scripts (`make publish`), but a
    // runner's own login keeps a credential here as any other does (`turbo login`), and its
    // own settings are its own (`yarn config set registry URL`, as npm's).
    // So is a switch it throws for every project (`corepack enable`, `next telemetry
    // disable`): its shims or its settings, outside the work folder.
    let runner_login = catalogue::is(program, Class::ProjectRunner)
        && (cmd
            .args()
            .first()
            .is_some_and(|first| has(LOGINS, first) || first == "config")
            || cmd
                .args()
                .iter()
                .take_while(|a| !a.starts_with('-'))
                .take(2)
                .any(|w| matches!(w.as_str(), "enable" | "disable")));
    // A project's own tool that empties its database, however it is started (`bin/rails
    // db:reset`, `rake db:drop`, `php artisan migrate:fresh`, `python manage.py flush`): its
    // words say what it does to the data, as the same words of a program do.
    if let Some((name, args)) = project_tool(cmd) {
        let reading = Reading::of(name, args);
        if wipes_database(&reading) || flushes_django(&reading) {
            // As `finding` gives a database wiped: the words from the first name it.
            scan.changes = true;
            let risk = risk(&reading, cmd, Finding::Destroy, 0);
            scan.add(risk);
            return;
        }
    }
    // A version control tool's words are its own rules' (`vcs.rs`, `git.rs`), but its
    // settings for every repository are its own settings as any program's are (`jj config
    // set --user`, `hg config --edit`, `fossil settings autosync off --global`); git's are
    // `git.config_global`.
    if program != "git" && catalogue::is(program, Class::VersionControl) {
        let reading = Reading::of(program.to_string(), cmd.args());
        if changes_settings(&reading) {
            scan.changes = true;
            let risk = risk(&reading, cmd, Finding::Setting, 0);
            scan.add(risk);
        }
        return;
    }
    if program.is_empty() || (!is_read(program) && !runner_login) || is_project_script(cmd) {
        return;
    }
    let args = cmd.args();
    // `--version` asks for the program's version only alone (`cargo yank --version 1.0.0`
    // names a version).
    // `-h` with a value after it names a host (`glab auth login -h gitlab.example.com`,
    // `lprm -h server job`), not help.
    let asks_help = args.iter().enumerate().any(|(at, a)| {
        let name = a.split('=').next().unwrap_or(a);
        has(HELP, name)
            && (!name.ends_with("version") || args.len() == 1)
            && (name != "-h" || args.get(at + 1).is_none_or(|next| next.starts_with('-')))
    });
    // `systemctl kill -s help`: the signals listed, nothing killed.
    let lists_signals = args
        .windows(2)
        .any(|pair| matches!(pair[0].as_str(), "-s" | "--signal") && pair[1] == "help");
    if asks_help || lists_signals {
        return;
    }
    // A program nobody lists named for deleting what it is given (`xbps-remove curl`,
    // `steamos-factory-reset`, `lxc-destroy -n c1`) is read as its first name with the rest
    // of its name for a subcommand (`xbps remove curl`): the same verb scores the same, in
    // its name or in its words.
    let named: Vec<String>;
    let (program, args) = match named_for_deleting(program) {
        Some((first, verb)) => {
            named = std::iter::once(verb).chain(args.iter().cloned()).collect();
            (first, named.as_slice())
        }
        None => (program, args),
    };
    let mut reading = Reading::of(program.to_string(), args);
    reading.administrator = cmd.sudo;
    reading.fed = cmd.stage > 0
        || cmd.redirects.iter().any(|r| {
            matches!(
                r.op,
                RedirectOp::Read | RedirectOp::HereDoc | RedirectOp::HereString
            ) && r.fd.is_none_or(|fd| fd == 0)
        });
    if (0..reading.words.len()).any(|at| reading.word(at).eq_ignore_ascii_case("help")) {
        return;
    }
    // A global option nobody lists may take a value (`supabase --workdir x db reset`,
    // `railway --service api down`): when the words as written say nothing, they are read
    // again with the word after it as its value. A reading proves danger.
    let without_value: Vec<String>;
    // A cloud's commands nest deeper than three words (`exo compute sks nodepool delete c
    // np`): when the first three say nothing, five are read.
    let reading = if reading.kind.cloud
        && finding(&reading, scan).is_none()
        && unconfirmed(&reading).is_none()
    {
        let mut deeper = Reading::of_words(program.to_string(), args, 5);
        deeper.administrator = reading.administrator;
        deeper.fed = reading.fed;
        if finding(&deeper, scan).is_some() {
            deeper
        } else {
            reading
        }
    } else {
        reading
    };
    let (reading, (finding, at)) = match finding(&reading, scan).or_else(|| unconfirmed(&reading)) {
        Some(found) => (reading, found),
        None => {
            let Some(args) = leading_value_taken(args) else {
                return;
            };
            without_value = args;
            let mut again = Reading::of(program.to_string(), &without_value);
            again.administrator = reading.administrator;
            again.fed = reading.fed;
            match finding(&again, scan).or_else(|| unconfirmed(&again)) {
                Some(found) => (again, found),
                None => return,
            }
        }
    };
    // A secret printed to the program that asked for it (`RESTIC_PASSWORD_COMMAND='pass show
    // restic'`, `SSH_ASKPASS=…`): what it prints goes to that program, not to the chat.
    if matches!(finding, Finding::Secret) && answers_a_password_prompt(cmd, scan) {
        return;
    }
    // What a send names may be the project's secrets or a key (`croc send .env`, `gdrive
    // upload ~/.aws/credentials`): those leave as they would by curl.
    // So does one given to what a forge shows others (`glab snippet create .env`).
    let leaving = match &finding {
        Finding::Send(host) => Some(host.clone()),
        Finding::ForgeChange => Some(Some(program.to_string())),
        _ => None,
    };
    if let Some(host) = leaving {
        let label = host.unwrap_or_else(|| "another machine".to_string());
        for word in cmd
            .args()
            .iter()
            .filter(|w| !w.starts_with('-') || w.contains('='))
        {
            let value = word.split_once('=').map_or(word.as_str(), |(_, v)| v);
            super::net::file_leaves(scan, value, &label);
        }
    }
    let mut risk = risk(&reading, cmd, finding, at);
    // A delete of files it names outside the work folder (`clamscan -r --remove ~/Downloads`,
    // `tool purge /var/lib/x`), where Undo can't bring them back: lasting, as `rm` there is.
    if risk.rule == RuleId::WordsDestroy && !risk.lasting && names_outside(&reading, scan) {
        risk.lasting = true;
    }
    if risk.way_out {
        scan.network = true;
    }
    scan.add(risk);
}

/// Does the command name a path outside the work folder (`~/Downloads`, `/var/lib/x`,
/// `../other`), not a temporary one?
fn names_outside(reading: &Reading<'_>, scan: &Scan<'_>) -> bool {
    reading.positionals.iter().any(|word| {
        (word.starts_with(['/', '~']) || word.starts_with("../"))
            && !word.contains('$')
            && scan.place.resolve(word).is_some_and(|abs| {
                !scan.place.inside_work(&abs)
                    && !abs.starts_with("/tmp")
                    && !abs.starts_with("/dev/")
            })
    })
}

/// The arguments without the first operand when a long option with no `=` comes right
/// before it and another operand follows (`--workdir x db reset` → `--workdir db reset`):
/// the words as read when that option takes a value. `None` when no option stands so.
fn leading_value_taken(args: &[String]) -> Option<Vec<String>> {
    let mut skip = false;
    let mut first = None;
    for (at, arg) in args.iter().enumerate() {
        if skip {
            skip = false;
        } else if arg == "--" {
            return None;
        } else if arg.starts_with('-') {
            skip = infra::VALUED.contains(&arg.as_str());
        } else {
            first = Some(at);
            break;
        }
    }
    let first = first?;
    let option = args.get(first.checked_sub(1)?)?;
    let more = args.iter().skip(first + 1).any(|a| !a.starts_with('-'));
    (option.starts_with("--")
        && !option.contains('=')
        && more
        && args.get(first).is_some_and(|word| is_word(word)))
    .then(|| {
        let mut out = args.to_vec();
        out.remove(first);
        out
    })
}

/// Is `cmd` the command a program runs to get a password, by a variable set for it
/// (`RESTIC_PASSWORD_COMMAND`, `BORG_PASSCOMMAND`, `SSH_ASKPASS`, `GIT_ASKPASS`)?
fn answers_a_password_prompt(cmd: &Command, scan: &Scan<'_>) -> bool {
    cmd.via == crate::shell::Via::Setting
        && scan.parent(cmd).is_some_and(|holder| {
            holder.assignments.iter().any(|(name, _)| {
                name.ends_with("ASKPASS")
                    || name.ends_with("PASSWORD_COMMAND")
                    || name.ends_with("PASSCOMMAND")
            })
        })
}

/// Do the words move money: a wallet's own word for it (`sendtoaddress`, `payinvoice`), or
/// what moves it broadcast, sent, submitted or transferred (`broadcast TX`, `payments
/// create`, `transfer … lamports`)?
fn moves_money(reading: &Reading<'_>) -> bool {
    // Read for every command that reaches this reader: no copies of its words.
    let parts = || reading.words.iter().flat_map(|(_, parts)| parts.iter());
    let whole = reading.words.iter().any(|(place, _)| {
        reading.positionals.get(*place).is_some_and(|w| {
            if w.bytes().any(|b| b.is_ascii_uppercase()) {
                has(PAYS, &w.to_ascii_lowercase())
            } else {
                has(PAYS, w)
            }
        })
    });
    if whole {
        return true;
    }
    // `--amount 100` with a verb that moves it counts as what it moves.
    let amount = || {
        reading
            .options
            .iter()
            .any(|o| o.parts.iter().any(|p| p == "amount"))
    };
    if parts().any(|p| has(MONEY_VERBS, p)) && (amount() || parts().any(|p| has(MONEY_NOUNS, p))) {
        return true;
    }
    // A send or transfer to a wallet's address with a sum (`solana transfer ADDRESS 10`,
    // `cast send 0xADDRESS --value 1ether`, `monero-wallet-cli transfer ADDRESS 1`).
    // A sum moved between two parties the words name (`octez-client transfer 5 from alice to
    // bob`) or by a program that keeps secrets (a wallet: its keys sign what it sends) is
    // one too.
    let moves = parts().any(|p| matches!(p.as_str(), "send" | "transfer" | "pay"));
    if moves {
        let sum = reading.positionals.iter().any(|w| is_sum(w))
            || reading.options.iter().any(|o| {
                o.parts
                    .iter()
                    .any(|p| matches!(p.as_str(), "amount" | "value"))
            });
        // Signed with a key given to it (`--private-key $PK`, `--keypair k.json`, `--signer`,
        // `--mnemonic`), or to a name a chain's name service keeps (`vitalik.eth`,
        // `toly.sol`): a wallet's send whatever the address looks like.
        let signed = reading.options.iter().any(|o| {
            o.parts
                .iter()
                .any(|p| matches!(p.as_str(), "keypair" | "signer" | "mnemonic" | "seed"))
                || (o.parts.iter().any(|p| p == "private") && o.parts.iter().any(|p| p == "key"))
        });
        let named = reading.positionals.iter().any(|w| {
            let lower = w.to_ascii_lowercase();
            [".eth", ".sol"].iter().any(|tld| {
                lower.len() > tld.len() + 1
                    && lower.ends_with(tld)
                    && lower
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-'))
            })
        });
        let parties = reading.positionals.iter().any(|w| is_wallet_address(w))
            || (reading.positionals.contains(&"from") && reading.positionals.contains(&"to"))
            || reading.kind.secrets
            || catalogue::is(&reading.program, Class::Wallet)
            || signed
            || named;
        if sum && parties {
            return true;
        }
    }
    // A raw transaction broadcast as hex (`hsd-cli broadcast 0100…`, `cast publish 0x02f8…`).
    parts().any(|p| matches!(p.as_str(), "broadcast" | "publish"))
        && reading.positionals.iter().any(|w| {
            let hex = w.strip_prefix("0x").unwrap_or(w);
            hex.len() >= 16 && hex.bytes().all(|b| b.is_ascii_hexdigit())
        })
}

/// A wallet's address by its shape: Ethereum's (`0x` and 40 hex digits), Bitcoin's
/// (`bc1…`, or base58 from `1` or `3`), or any other base58 run of 32 to 106 characters
/// (Solana's, Monero's). Bounded by the word's length.
fn is_wallet_address(word: &str) -> bool {
    if let Some(hex) = word.strip_prefix("0x") {
        return hex.len() == 40 && hex.bytes().all(|b| b.is_ascii_hexdigit());
    }
    let base58 = |w: &str| {
        w.bytes()
            .all(|b| b.is_ascii_alphanumeric() && !matches!(b, b'0' | b'O' | b'I' | b'l'))
    };
    if word.starts_with("bc1") || word.starts_with("tb1") {
        return (14..=90).contains(&word.len())
            && word
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit());
    }
    // Mixed case and digits, as base58 is; a word of letters only is a name.
    (26..=106).contains(&word.len())
        && base58(word)
        && word.bytes().any(|b| b.is_ascii_digit())
        && word.bytes().any(|b| b.is_ascii_uppercase())
        && word.bytes().any(|b| b.is_ascii_lowercase())
}

/// A sum: a number, a fraction, or one with a unit after it (`10`, `0.5`, `1ether`).
fn is_sum(word: &str) -> bool {
    let digits = word.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    !digits.is_empty()
        && digits.bytes().any(|b| b.is_ascii_digit())
        && digits.bytes().all(|b| b.is_ascii_digit() || b == b'.')
}

/// Do the words empty a database: a verb that wipes with a database's noun among the words
/// (`prisma migrate reset`, `rails db:reset`, `artisan migrate:fresh`, `atlas schema clean`,
/// `flyway clean`), a rollback of every migration (`knex migrate:rollback --all`, `artisan
/// migrate:refresh`), a downgrade to before the first (`alembic downgrade base`), or
/// fixtures loaded over the tables (`doctrine:fixtures:load`)? Its rows go, not only its
/// shape.
fn wipes_database(reading: &Reading<'_>) -> bool {
    let parts = || reading.words.iter().flat_map(|(_, parts)| parts.iter());
    let noun = parts().any(|p| {
        matches!(
            p.as_str(),
            "db" | "database" | "databases" | "schema" | "migrate" | "migration" | "migrations"
        )
    }) || matches!(reading.program.as_str(), "flyway");
    let wipe = parts().any(|p| {
        matches!(
            p.as_str(),
            "drop" | "reset" | "flush" | "fresh" | "wipe" | "purge" | "clean" | "truncate"
        )
    });
    let all = reading.args.iter().any(|a| a == "--all");
    let rollback_all = parts().any(|p| p == "rollback") && all;
    let to_base = parts().any(|p| p == "downgrade") && reading.positionals.contains(&"base");
    // Every migration rolled back and run again (`artisan migrate:refresh`, `rails
    // db:migrate:reset`): what the tables held is gone.
    let refresh = parts().any(|p| p == "refresh")
        && parts().any(|p| matches!(p.as_str(), "migrate" | "migration" | "migrations"));
    // Fixtures loaded over the tables (`doctrine:fixtures:load`, `rails db:fixtures:load`):
    // what they held is purged first, unless told to add to it (`--append`).
    let fixtures = parts().any(|p| p == "fixtures")
        && parts().any(|p| p == "load")
        && !reading.args.iter().any(|a| a == "--append");
    (noun && (wipe || rollback_all)) || to_base || refresh || fixtures
}

/// `java [OPTIONS] -jar PATH.jar ARGS` as the program the jar is (`jenkins-cli ARGS`), when
/// the jar is named.
fn jar_run(cmd: &Command) -> Option<Command> {
    if cmd.program() != "java" {
        return None;
    }
    let args = cmd.args();
    let at = args.iter().position(|a| a == "-jar")?;
    let jar = args.get(at + 1)?;
    let name = jar.rsplit('/').next()?.strip_suffix(".jar")?;
    if name.is_empty() || name.contains(['$', '`']) {
        return None;
    }
    let mut words = vec![name.to_string()];
    words.extend(args.iter().skip(at + 2).cloned());
    Some(cmd.with_words(words))
}

/// What the words say, and the word the verb stands at (names come after it).
fn finding(reading: &Reading<'_>, scan: &Scan<'_>) -> Option<(Finding, usize)> {
    let verb = deciding_verb(reading);
    // A program whose name is its act does it whatever its operands say (`useradd x` makes
    // the user `x`; `x` hands nothing to another program there).
    if let Some(stop) = verb.as_ref().filter(|v| v.verb == Verb::Stops)
        && !reading.kind.acts
    {
        // A cloud's `exec` runs what follows on its machine (`pct exec 100 -- ls`, `qm guest
        // exec 100 …`); another stop hands the rest to a program here.
        // What a pod's or a container's exec runs is read as a command of its own
        // (`kubectl exec pod -- ls` only reads).
        let remote = stop.phrase == "exec"
            && reading.kind.cloud
            && !is_local_change(reading)
            && !super::runs::reads_what_runs_inside(&reading.program);
        // A cloud's `run` given a job's file runs that job on the cluster (`nomad job run
        // web.nomad`): a change to what is deployed, not a program run here.
        let job = stop.phrase == "run"
            && reading.kind.cloud
            && !is_local_change(reading)
            && reading.after(stop.word).iter().any(|operand| {
                let lower = operand.to_ascii_lowercase();
                [".nomad", ".hcl", ".json", ".yaml", ".yml", ".toml"]
                    .iter()
                    .any(|ext| lower.ends_with(ext))
            });
        if job {
            return Some((Finding::CloudChange, stop.word));
        }
        return remote.then_some((Finding::RemoteRun, stop.word));
    }
    // A program nobody lists whose name is a send glued to what it sends by (`sendxmpp
    // alice@example.org`, `tgsend -u 12 "hi"`): its name is its act, as a listed one's is.
    // Only where its words say no other act (`ffsend download URL` downloads, `resend
    // domains ls` lists).
    if reading.kind.unlisted
        && named_for_sending(&reading.program)
        && verb.as_ref().is_none_or(|v| v.verb == Verb::Sends)
        && !reading.flat().iter().any(|(_, p)| is_read_word(p))
    {
        return Some((Finding::Send(names_remote(reading)), 0));
    }
    // A delete says what the command does, whatever else it shows on the way.
    if short_row(SHORT_DESTROYS, reading).is_some() {
        return Some((Finding::Destroy, reading.words.len()));
    }
    if telling_reveal(reading).is_some() {
        return Some((Finding::Secret, 0));
    }
    if moves_money(reading) {
        return Some((Finding::Pays, 0));
    }
    // Whichever table knows the program's deploys (`infra.rs`), a hosted app's environment
    // changed is a change to what is deployed.
    if sets_app_env(reading) {
        return Some((Finding::CloudChange, reading.words.len()));
    }
    // A cloud's resource given to everyone on the internet, whatever the verb's spelling
    // (`gsutil iam ch allUsers:objectViewer gs://b`, `gsutil acl ch -u AllUsers:R`).
    // A search or a listing for them reads (`gcloud asset search-all-iam-policies
    // --query=policy:allUsers`).
    if reading.kind.cloud
        && names_everyone(reading)
        && !reading.flat().iter().any(|(_, p)| is_read_word(p))
    {
        return Some((Finding::CloudChange, reading.words.len()));
    }
    if wipes_database(reading) {
        // A hosted database (`supabase db reset --linked`) is destroyed where no Undo reaches.
        let remote = reading.kind.cloud && !is_local_change(reading);
        let found = if remote {
            Finding::DestroyRemote
        } else {
            Finding::Destroy
        };
        return Some((found, 0));
    }
    // A package's state on its registry changed by a word with no verb of its own (`npm
    // deprecate pkg "msg"`, `npm access public pkg`): made public, it is published for
    // others to pull; otherwise others see the change, in the person's name. A listing
    // (`npm access list packages`, `npm owner ls pkg`) has a reading verb, and the noun
    // alone names nothing to change (`cargo owner --registry r`). (The registry's noun may
    // read as a verb of its own: `access`.)
    if verb.as_ref().is_none_or(|v| has(REGISTRY_NOUNS, &v.phrase))
        && names_an_operand(reading)
        && on_registry(reading)
        && !reading.flat().iter().any(|(_, p)| is_read_word(p))
        && !reading
            .options
            .iter()
            .any(|o| o.parts.iter().any(|p| is_read_word(p)))
    {
        let public = reading.flat().iter().any(|(_, p)| p == "public");
        let found = if public {
            Finding::Publish
        } else {
            Finding::ForgeChange
        };
        return Some((found, reading.words.len()));
    }
    // An option that installs, with no verb to say otherwise (`xcode-select --install`,
    // `tool --self-update`): the program installs what it is for.
    if verb.is_none()
        && !reading.kind.installer
        && reading
            .options
            .iter()
            .any(|o| o.value.is_none() && has(INSTALLS, &o.parts.join(" ")))
    {
        return Some((
            Finding::Install(vec![reading.program.clone()]),
            reading.words.len(),
        ));
    }
    // A login keeps a credential on this machine for whatever runs next (`aws sso login`,
    // `ibmcloud cr login`): a grant of access, as a token written is.
    // Only a subcommand before any option counts (`go test -run TestLogin` runs a test).
    let lead = reading.lead().len().min(3);
    // A listing option or a reading word right after the word (`semanage login -l` lists
    // login mappings; `pulumi login -l` is its local backend, no credential kept; `codex
    // login status` says whether one is kept).
    let lists = reading.args.windows(2).any(|pair| {
        has(LOGINS, &pair[0])
            && (pair[1] == "-l"
                || pair[1] == "--list"
                || is_read_word(&pair[1].to_ascii_lowercase()))
    });
    // So is a credential refreshed or activated by its noun (`gh auth refresh -s admin:org`,
    // `tool token refresh`, `gcloud auth activate-service-account --key-file k.json`): a new
    // one kept, with whatever scopes it now asks for.
    let refreshed = |at: usize| {
        at > 0
            && reading.words.get(at).is_some_and(|(_, parts)| {
                parts
                    .first()
                    .is_some_and(|p| matches!(p.as_str(), "refresh" | "activate"))
            })
            && matches!(
                reading.word(at - 1).to_ascii_lowercase().as_str(),
                "auth" | "token" | "credentials" | "creds"
            )
    };
    if let Some(at) = (0..lead.min(reading.words.len()))
        .filter(|_| !lists)
        .find(|&at| {
            refreshed(at)
                || reading.words.get(at).is_some_and(|(_, parts)| {
                    parts.iter().any(|p| has(LOGINS, p)) && !any_in(SECRET_NOUNS, parts)
                })
        })
    {
        return Some((Finding::Grant { secret: true }, at));
    }
    // A subcommand named as the system's own account programs are (`elasticsearch-users
    // useradd alice`, `pveum passwd bob`): a user made, changed or given a password, on
    // whatever this program keeps its users, as `useradd` does on the machine. Not a
    // shell's own word's operand (`read -s passwd` names a variable).
    let builtin = catalogue::is(&reading.program, Class::Builtin);
    if let Some(at) = (0..lead.min(reading.words.len()))
        .filter(|_| !builtin)
        .find(|&at| {
            reading
                .words
                .get(at)
                .is_some_and(|(_, parts)| parts.len() == 1 && has(ACCOUNTS, &parts[0]))
        })
    {
        let secret = reading
            .words
            .get(at)
            .is_some_and(|(_, parts)| parts[0].contains("passwd"));
        return Some((Finding::Grant { secret }, at));
    }
    let kind = reading.kind;
    if kind.unlisted
        && let Some(host) = sends_to_transfer_url(reading)
    {
        return Some((Finding::Send(Some(host)), reading.words.len()));
    }
    // `pacman -Rs x`: the family says its removal with an option.
    if PACMAN_FAMILY.contains(&reading.program.as_str())
        && reading
            .args
            .iter()
            .any(|a| a.starts_with("-R") && !a.starts_with("--"))
    {
        return Some((Finding::Destroy, reading.words.len()));
    }
    // `pacman -Syu`, `yay -Su`: every package it keeps upgraded, as `yum update` is (with a
    // package named, the install rules read it as an install). Some do so given nothing at
    // all: the AUR helpers (`yay`, `paru`: `-Syu`) and topgrade (every package manager's).
    let upgrades_alone =
        matches!(reading.program.as_str(), "paru" | "yay" | "topgrade") && reading.args.is_empty();
    if upgrades_alone
        || (PACMAN_FAMILY.contains(&reading.program.as_str())
            && reading.operands().next().is_none()
            && syncs_every_package(reading.args))
    {
        return Some((Finding::UpgradeAll, reading.words.len()));
    }
    // A container tool's other words have rules of their own (`docker cp`, `docker push`,
    // `docker volume rm`); only stopping one is read here.
    if kind.container || kind.sessions {
        // A token it prints, named by a word of its own (`docker swarm join-token worker`:
        // what lets a machine join); `docker secret ls` lists names.
        let prints_token = kind.container
            && reading.lead().iter().take(2).any(|w| {
                let parts = parts(w);
                is_word(w)
                    && parts.len() >= 2
                    && parts
                        .last()
                        .is_some_and(|p| has(SECRET_NOUNS, p) && !has(KEY_NOUNS, p))
            });
        if prints_token {
            return Some((Finding::Secret, reading.words.len()));
        }
        return match verb {
            // A container stopped loses what it held in memory, as a kill does; so does a
            // session ended or a managed process deleted (`pm2 delete all`).
            Some(verb)
                if verb.verb == Verb::Halts
                    || (kind.sessions
                        && (verb.verb == Verb::Destroys || has(HALTS, &verb.phrase))) =>
            {
                Some((Finding::System(SystemAct::Halt), verb.word))
            }
            // Which engine every later command talks to (`docker context use remote`).
            _ if changes_settings(reading) => Some((Finding::Setting, 0)),
            _ => None,
        };
    }
    // `add-apt-repository ppa:x/y`, `brew tap user/repo`: a source added by its name.
    let named_source = {
        let name = parts(&reading.program);
        name.iter().any(|p| p == "add") && any_in(SOURCE_NOUNS, &name)
    };
    let tapped = kind.installer
        && reading.word(0) == "tap"
        && reading.after(0).iter().any(|w| w.contains('/'));
    if named_source || tapped {
        return Some((Finding::Source, 0));
    }
    // A cloud CLI's own package sources too (`helm repo add x URL`: charts installed next).
    if (kind.packages || kind.installer || kind.cloud) && adds_source(reading, verb.as_ref()) {
        return Some((Finding::Source, verb.as_ref().map_or(0, |v| v.word)));
    }
    let Some(verb) = verb.filter(|_| !kind.acts) else {
        return without_verb(reading);
    };
    let at = verb.word;
    // A listing after the verb lists what the verb names (`serverless deploy list`, `tool
    // backup status`, `az lock show -n l`): the verb is that listing's noun.
    if reading.words.iter().skip(at + 1).any(|(_, parts)| {
        parts.len() == 1
            && matches!(
                parts[0].as_str(),
                "list" | "ls" | "status" | "describe" | "show" | "view" | "info"
            )
    }) {
        return None;
    }
    let registry = on_registry(reading);
    // `nix flake update`, `nix flake lock`: the flake in the work folder and its lock file,
    // not what the machine keeps.
    if reading.program == "nix" && reading.word(0) == "flake" {
        return None;
    }
    // A machine's package manager upgrading everything it keeps; a list refresh only reads.
    if (kind.packages || catalogue::is(&reading.program, Class::Global))
        && matches!(
            verb.phrase.as_str(),
            "update" | "upgrade" | "full upgrade" | "dist upgrade"
        )
        && matches!(verb.verb, Verb::Package | Verb::Changes)
    {
        if verb.phrase == "update" && REFRESHERS.contains(&reading.program.as_str()) {
            return None;
        }
        if packages(reading, at, scan).is_empty() {
            return Some((Finding::UpgradeAll, at));
        }
    }
    let found = match verb.verb {
        // `netlify env:list`, `heroku config` list what a hosted app's environment holds.
        Verb::Reads if prints_app_env(reading) || lists_values(reading, &verb) => Finding::Secret,
        Verb::Stops | Verb::Reads => return None,
        Verb::Unveils => Finding::Secret,
        Verb::Reveals => {
            if !shows_secret(reading, &verb) {
                return None;
            }
            Finding::Secret
        }
        Verb::Unpublishes => Finding::DestroyRemote,
        Verb::Destroys if kind.system => Finding::System(SystemAct::Setting),
        Verb::Destroys if (kind.cloud && !is_local_change(reading)) || registry => {
            Finding::DestroyRemote
        }
        // A delete on the machine an option names (`tool delete key --host db.example.com`).
        Verb::Destroys if acts_on_host(reading).is_some() => Finding::DestroyRemote,
        Verb::Destroys => Finding::Destroy,
        // A cloud's machine stopped (`gcloud compute instances stop vm`, `az vm deallocate`):
        // a change to what is deployed, as starting or resizing it is.
        // So is a hosted app's (`fly apps suspend web`, `heroku ps:stop web`), though infra's
        // table knows the program by its deploys.
        Verb::Halts if kind.cloud && !is_local_change(reading) => Finding::CloudChange,
        Verb::Halts => Finding::System(halt_act(&verb.phrase)),
        Verb::Starts if kind.cloud && !is_local_change(reading) => Finding::CloudChange,
        // A virtual machine started here (`multipass start vm`, `virsh start vm`).
        Verb::Starts if kind.machines => Finding::System(SystemAct::Reversible),
        Verb::Starts => return None,
        // `gh pr new --web`: the form opens in the person's browser, and they send it.
        Verb::Closes | Verb::Changes
            if kind.forge && reading.args.iter().any(|a| a == "--web" || a == "-w") =>
        {
            return None;
        }
        Verb::Closes | Verb::Changes
            if kind.forge
                && !is_local_change(reading)
                && !names_secret(reading)
                && !names_grant(reading) =>
        {
            Finding::ForgeChange
        }
        Verb::Closes => {
            if kind.cloud && !is_local_change(reading) && !super::infra::knows(&reading.program) {
                Finding::CloudChange
            } else {
                return None;
            }
        }
        Verb::RemoteRun => Finding::RemoteRun,
        Verb::Publishes => Finding::Publish,
        Verb::Deploys => Finding::Deploy,
        Verb::Sends => Finding::Send(names_remote(reading)),
        Verb::Transfers => {
            let after = reading.after(at);
            let to = after.last().copied().and_then(remote_destination);
            let from_here = after
                .iter()
                .rev()
                .skip(1)
                .any(|w| remote_destination(w).is_none());
            match to {
                Some(host) if from_here => Finding::Send(Some(host)),
                // From one remote place to another on a cloud's own storage (`gsutil mv
                // gs://a/x gs://a/y`, `skopeo copy docker://a docker://b`): nothing leaves
                // this machine, and what the target held is changed there.
                // (A name before a colon may be a local place: skopeo's `dir:out`.)
                Some(_)
                    if kind.cloud
                        && !is_local_change(reading)
                        && after.last().is_some_and(|w| w.contains("://")) =>
                {
                    Finding::CloudChange
                }
                _ if verb.phrase == "push" && (kind.cloud || names_remote(reading).is_some()) => {
                    Finding::Send(names_remote(reading))
                }
                // `wine reg copy 'HKEY_…\a' 'HKEY_…\b'`: a setting copied.
                _ if changes_settings(reading) => Finding::Setting,
                _ => return None,
            }
        }
        Verb::Grants => Finding::Grant { secret: false },
        Verb::Installs if kind.installer && !verb.phrase.contains("update") => return None,
        Verb::Installs => {
            if verb.phrase.contains("update") {
                Finding::Install(vec![reading.program.clone()])
            } else {
                let packages = packages(reading, at, scan);
                if packages.is_empty() {
                    // Installed from an address, named by its host (`flatpak install --from
                    // https://x.example/app.flatpakref`).
                    let host = reading
                        .args
                        .iter()
                        .filter(|a| a.contains("://"))
                        .find_map(|a| {
                            super::net::url_host(a.split_once('=').map_or(a, |(_, v)| v))
                        });
                    return host.map(|host| (Finding::Install(vec![host]), at));
                }
                Finding::Install(packages)
            }
        }
        // An installer's `upgrade node` upgrades what is there already (its own rules read
        // its installs); its `add` is any change (`npm owner add`), and on the registry's own
        // things one that others see (`npm dist-tag add pkg@1.1.0 latest`: what everyone's
        // install of `latest` gets; `npm hook add`).
        Verb::Package if kind.installer && verb.phrase != "add" => return None,
        Verb::Package if kind.installer => {
            if names_grant(reading) {
                Finding::Grant { secret: false }
            } else if on_registry(reading) {
                Finding::ForgeChange
            } else {
                return None;
            }
        }
        Verb::Package => {
            let packages = packages(reading, at, scan);
            if packages.is_empty() {
                return None;
            }
            Finding::Install(packages)
        }
        Verb::System => Finding::System(system_act(&verb.phrase)),
        Verb::Changes => {
            if kind.store && generates_only(reading, at) {
                return None;
            } else if kind.store {
                Finding::Grant { secret: true }
            } else if kind.system {
                Finding::System(SystemAct::Setting)
            } else if names_secret(reading) {
                Finding::Grant { secret: true }
            } else if names_grant(reading) {
                Finding::Grant { secret: false }
            } else if kind.cloud
                && !is_local_change(reading)
                && !super::infra::knows(&reading.program)
                && !super::install::is_forge(&reading.program)
            {
                Finding::CloudChange
            } else if let Some(host) = acts_on_host(reading) {
                Finding::RemoteChange(host)
            } else if names_machine_setting(reading, at) {
                Finding::System(SystemAct::Setting)
            } else if changes_settings(reading) {
                Finding::Setting
            } else {
                return None;
            }
        }
    };
    Some((found, at))
}

/// A name that starts or ends with `send` and holds more (`sendxmpp`, `tgsend`): a sender
/// by its name. `send` alone is a word of its own, read as any verb is.
fn named_for_sending(program: &str) -> bool {
    let name = program.to_ascii_lowercase();
    name.len() > "send".len()
        && (name.starts_with("send") || name.ends_with("send"))
        && name.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// The options that say which machine a program acts on, by their name without dashes
/// (`--host`, `-http-addr`, `--endpoint-url`): sorted.
const HOST_OPTIONS: &[&str] = &[
    "addr",
    "address",
    "api-url",
    "endpoint",
    "endpoint-url",
    "endpoints",
    "host",
    "hostname",
    "http-addr",
    "server",
];

/// The other machine a program nobody lists acts on, as an option names it (`--host
/// db.example.com`, `-http-addr=https://c.example.com:8500`, `--server=10.0.0.5`): none
/// for a program the catalogue knows (its own rules read it), nor for this machine.
fn acts_on_host(reading: &Reading<'_>) -> Option<String> {
    if !reading.kind.unlisted {
        return None;
    }
    let named = |name: &str| HOST_OPTIONS.binary_search(&name).is_ok();
    let host_of = |value: &str| {
        let host = super::net::url_host(value).unwrap_or_else(|| {
            let bare = value.rsplit_once('@').map_or(value, |(_, h)| h);
            bare.split(':').next().unwrap_or(bare).to_lowercase()
        });
        (!host.is_empty() && !host.starts_with(['-', '$', '/']) && !super::net::is_local(&host))
            .then_some(host)
    };
    reading.args.iter().enumerate().find_map(|(at, arg)| {
        let option = arg.strip_prefix("--").or_else(|| arg.strip_prefix('-'))?;
        match option.split_once('=') {
            Some((name, value)) => named(name).then(|| host_of(value)).flatten(),
            None => named(option)
                .then(|| reading.args.get(at + 1).and_then(|v| host_of(v)))
                .flatten(),
        }
    })
}

/// What the machine itself is set to, whichever program sets it: every program and user on
/// it reads these (`timedatectl set-timezone` knows its program; `foo set-timezone` and
/// `foo set hostname x` don't).
const MACHINE_SETTINGS: &[&str] = &["hostname", "keymap", "locale", "ntp", "timezone"];

/// Does the verb at `at`, or the word after it, name a setting of the machine itself?
fn names_machine_setting(reading: &Reading<'_>, at: usize) -> bool {
    reading.words.iter().skip(at).take(2).any(|(_, parts)| {
        parts
            .iter()
            .any(|p| MACHINE_SETTINGS.binary_search(&p.as_str()).is_ok())
    })
}

/// Does a word after the command's first name something to act on: an operand, not a long
/// option's value written apart from it (`cargo owner --registry r` names no crate)?
fn names_an_operand(reading: &Reading<'_>) -> bool {
    let mut after_first = false;
    let mut previous: Option<&str> = None;
    for arg in reading.args.iter().map(String::as_str) {
        let operand = !arg.starts_with('-')
            && !previous.is_some_and(|p| p.starts_with("--") && !p.contains('='));
        if operand {
            if after_first {
                return true;
            }
            after_first = true;
        }
        previous = Some(arg);
    }
    false
}

/// Names for a hosted app's environment (its variables, secrets among them).
const APP_ENV_NOUNS: &[&str] = &[
    "appsettings",
    "env",
    "envs",
    "environment",
    "variables",
    "vars",
];

/// Hosts of Heroku's lineage, whose `config` is the app's environment (`heroku config`,
/// `dokku config:show app`), not the program's own settings (`fly config show`).
const CONFIG_IS_ENV: &[&str] = &["dokku", "heroku"];

/// Where a cloud program's lead words name its hosted app's environment: those words cut
/// into parts, and the noun's place among them. Not a forge's, which keeps its variables
/// apart from its secrets (`gh variable list`).
fn app_env_noun(reading: &Reading<'_>) -> Option<(Vec<String>, usize)> {
    if !reading.kind.cloud || super::install::is_forge(&reading.program) {
        return None;
    }
    let config_is_env = CONFIG_IS_ENV.contains(&reading.program.as_str());
    let words: Vec<String> = reading.lead().iter().flat_map(|w| parts(w)).collect();
    let at = words
        .iter()
        .position(|w| APP_ENV_NOUNS.contains(&w.as_str()) || (config_is_env && w == "config"))?;
    Some((words, at))
}

/// A verb that only shows what it names.
fn only_shows(verb: Verb) -> bool {
    matches!(verb, Verb::Reads | Verb::Reveals | Verb::Unveils)
}

/// A hosted app's environment changed: a changing verb before its noun or right after it,
/// or in an option (`netlify env:set K V`, `vercel env add K`, `heroku config:unset K`,
/// `cf set-env app K V`, `railway variables --set K=V`, `az webapp config appsettings
/// set`). The app runs with it, now or at its next build: a change to what is deployed.
fn sets_app_env(reading: &Reading<'_>) -> bool {
    let Some((words, at)) = app_env_noun(reading) else {
        return false;
    };
    let changes = |n: usize| verb_at(&words, n, reading.kind).is_some_and(|(v, _)| !only_shows(v));
    (0..=at + 1).any(|n| n != at && changes(n))
        || option_verb(reading).is_some_and(|(verb, _)| !only_shows(verb))
}

/// A hosted app's environment, its secrets among it, printed or pulled where the chat reads
/// it: its noun in the lead words with no change said ([`sets_app_env`]), then a verb that
/// shows or pulls it, a listing told to print values, the app's name, or nothing (`vercel
/// env pull`, `netlify env:list --plain`, `railway variables`, `heroku config -a app`, `cf
/// env app`, `az webapp config appsettings`); not `get` of one variable whose name is no
/// secret's (`heroku config:get PORT`).
fn prints_app_env(reading: &Reading<'_>) -> bool {
    let Some((words, at)) = app_env_noun(reading) else {
        return false;
    };
    if sets_app_env(reading) {
        return false;
    }
    let after = words.get(at + 1..).unwrap_or(&[]);
    match after {
        [] => true,
        // One variable got by its name says by its name whether it is a secret, as a
        // filter of the environment does (`netlify env:get STRIPE_KEY`, `heroku config:get
        // DATABASE_URL`, not `config:get PORT`).
        [verb, name @ ..] if verb == "get" && !name.is_empty() => {
            filters_for_secret(&name.join("_"))
        }
        // A listing names the variables (`vercel env ls`, `pulumi env ls`), unless told to
        // print their values (`netlify env:list --plain`, `railway variables --kv`); Azure's
        // app settings are listed as names and values.
        [verb, ..] if matches!(verb.as_str(), "list" | "ls") => {
            words.get(at).is_some_and(|noun| noun == "appsettings")
                || reading.options.iter().any(|o| {
                    o.parts.iter().any(|p| {
                        matches!(
                            p.as_str(),
                            "plain" | "plaintext" | "kv" | "values" | "reveal" | "decrypt"
                        )
                    })
                })
        }
        [verb, ..] => {
            verb == "pull"
                || verb_at(after, 0, reading.kind).is_none_or(|(verb, _)| only_shows(verb))
        }
    }
}

/// Stores whose listing prints the secrets themselves, not their names: every item of
/// Bitwarden's vault with its password (`bw list items`), every key of a Kubernetes secret
/// with its value (`k8sec list db`). The word after the listing that must name them, if any.
const LISTS_VALUES: &[(&str, Option<&str>)] = &[("bw", Some("items")), ("k8sec", None)];

/// A secret store's listing that prints values: one the store always prints them in (see
/// [`LISTS_VALUES`]), or one told to (`chamber list svc --expand`, `tool ls --values`,
/// `--reveal`, `--plain`, `--decrypt`, `--base64`). A listing of names (`pass ls`, `vault kv
/// list`, `bw list folders`) prints none.
fn lists_values(reading: &Reading<'_>, verb: &Found) -> bool {
    if !reading.kind.store || !matches!(verb.phrase.as_str(), "list" | "ls") {
        return false;
    }
    let next = reading
        .words
        .get(verb.word + 1)
        .map(|(_, parts)| parts.join("-"));
    let always = LISTS_VALUES.iter().any(|(program, noun)| {
        *program == reading.program && noun.is_none_or(|noun| next.as_deref() == Some(noun))
    });
    always
        || reading.options.iter().any(|o| {
            o.parts.iter().any(|p| {
                matches!(
                    p.as_str(),
                    "base64" | "decrypt" | "expand" | "plain" | "plaintext" | "reveal" | "values"
                )
            })
        })
}

/// A secret store's `generate` given nothing but options and a length (`rbw generate 20`,
/// `bw generate -uln --length 18`): it prints a new password and keeps none. Given a name
/// (`pass generate email/x 15`), it stores one.
fn generates_only(reading: &Reading<'_>, at: usize) -> bool {
    matches!(reading.word(at), "generate" | "gen")
        && reading
            .after(at)
            .iter()
            .all(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit()))
}

/// A daemon asked only to check its configuration and exit (`sshd -t`, `cupsd -t -c f`,
/// `nginx -T`, `--test-config`, `--configtest`): it starts nothing. `-t` is that for the
/// daemons that have it; one whose `-t` means otherwise is not a daemon run bare either.
fn tests_config(reading: &Reading<'_>) -> bool {
    reading.args.iter().any(|arg| {
        matches!(
            arg.as_str(),
            "-t" | "-T" | "--test" | "--test-config" | "--configtest" | "--check-config"
        )
    })
}

/// A tool that acts given only its version or its configuration verified (`named -V`,
/// `postgres -V`, `slurmrestd --verify-config`): it acts on nothing and starts nothing. Not
/// `-v`, which is as often a verbose start (`automountd -v`) or a run (`fsck -v`).
fn version_alone(reading: &Reading<'_>) -> bool {
    matches!(
        reading.args,
        [only] if matches!(only.as_str(), "-V" | "-version" | "--verify-config")
    )
}

/// `kill %1`, `kill -9 $!`, `wait %2`: only jobs this shell started itself (a job's number
/// or name after `%`, or `$!`, the last one it put in the background): the agent's own.
fn own_jobs(reading: &Reading<'_>) -> bool {
    let mut operands = reading
        .args
        .iter()
        .filter(|a| !a.starts_with('-'))
        .peekable();
    operands.peek().is_some()
        && operands
            .all(|a| a.starts_with('%') || a == "$!" || a == "${!}" || a.starts_with("$(jobs -p"))
}

/// Options that turn a program's own question off (`--yes`, `-yes`, `--assume-yes`,
/// `--no-confirm`, `--noconfirm`, `--no-prompt`); not `--force`, `-f` or `-y`, which name
/// other things in many programs.
const SKIPS_CONFIRMATION: &[&str] = &["assume yes", "no confirm", "no prompt", "noconfirm", "yes"];

/// A program the catalogue doesn't know, whose words no other reading finds a risk in,
/// told not to ask first (`immich-go -server=URL -key=K duplicate -yes`, `fuck --yes`): the question it would
/// have put is about a change, whatever it is; on the machine a server option names, when
/// one does.
fn unconfirmed(reading: &Reading<'_>) -> Option<(Finding, usize)> {
    // Read from the words themselves: `-yes` is one option to Go's flag package, not `-y -e -s`.
    let skips = reading.args.iter().take_while(|a| *a != "--").any(|arg| {
        let body = arg.trim_start_matches('-');
        arg.starts_with('-')
            && !body.is_empty()
            && SKIPS_CONFIRMATION.contains(&body.to_ascii_lowercase().replace('-', " ").as_str())
    });
    // `tool list --yes`: a listing asks nothing of its own.
    let reads = reading.flat().iter().any(|(_, p)| is_read_word(p));
    if !reading.kind.unlisted || !skips || reads {
        return None;
    }
    let server = || {
        reading.args.iter().enumerate().find_map(|(at, arg)| {
            let body = arg.strip_prefix("--").or_else(|| arg.strip_prefix('-'))?;
            let (name, value) = match body.split_once('=') {
                Some((name, value)) => (name, Some(value)),
                None => (body, reading.args.get(at + 1).map(String::as_str)),
            };
            let value = value.filter(|v| !v.is_empty() && !v.starts_with('-'))?;
            // REMOTE_OPTIONS's names, with one dash too (Go's `-server=URL`).
            has(REMOTE_OPTIONS, &format!("--{}", name.to_ascii_lowercase()))
                .then(|| super::net::url_host(value).unwrap_or_else(|| value.to_lowercase()))
                .filter(|host| !super::net::is_local(host))
        })
    };
    let host = names_remote(reading).or_else(server);
    Some((Finding::Unconfirmed(host), reading.words.len()))
}

/// Google Cloud's principals for every user on the internet (`allUsers`,
/// `allAuthenticatedUsers`, `AllUsers` in an ACL), as a word or an option's value, alone or
/// before a role (`allUsers:objectViewer`, `--member=allUsers`).
fn names_everyone(reading: &Reading<'_>) -> bool {
    reading.args.iter().any(|arg| {
        arg.split(['=', ':', ',']).any(|part| {
            part.eq_ignore_ascii_case("allusers")
                || part.eq_ignore_ascii_case("allauthenticatedusers")
        })
    })
}

/// A command whose words hold no verb: a verb in an option, a secret its last word names
/// (`gh auth token`, `doppler secrets`), or a system tool whose name is its act.
fn without_verb(reading: &Reading<'_>) -> Option<(Finding, usize)> {
    let kind = reading.kind;
    // A tool whose name is its act: its name says what it does, not its words or options
    // (`mount --bind a b` and `mount /a /b -o bind` mount).
    if kind.acts {
        let lists = reading.short().any(|s| has(LISTS, s))
            || reading
                .options
                .iter()
                .any(|o| any_in(READS, &o.parts) || any_in(REVEALS, &o.parts))
            // `setcap -v`: verifies what is set, sets nothing.
            || super::paths::only_checks_or_times(&reading.program, reading.args)
            // `nagios4 -v`, `haproxy -c`, `zabbix_server -T`: a check of its configuration.
            || super::options_read(&reading.program, reading.args)
            // `mount -t ntfs`: the mounts of a type listed; given a device or a place, it mounts.
            || (reading.program == "mount"
                && reading.args.iter().any(|a| a == "-t")
                && reading.args.iter().filter(|a| !a.starts_with('-')).count() <= 1);
        let acts_on = kind.daemon
            || reading.fed
            || !reading.words.is_empty()
            || reading.operands().next().is_some()
            || reading.args.iter().any(|a| a.starts_with('-'));
        // `traefik version`, `openvpn --help`: a read word first asks only to be told.
        let reads_first = reading
            .words
            .first()
            .is_some_and(|(_, parts)| matches!(parts.as_slice(), [w] if is_read_word(w)));
        if lists
            || !acts_on
            || reads_first
            || version_alone(reading)
            || (kind.daemon && tests_config(reading))
            || own_jobs(reading)
        {
            return None;
        }
        // A daemon started changes what runs here; its opposite stops it.
        let act = if kind.daemon {
            SystemAct::Reversible
        } else {
            named_act(&reading.program)
        };
        return Some((Finding::System(act), 0));
    }
    // `docker context use x`, `kubectl config use-context x`: a choice has no verb of
    // the tables; `--edit-config`: an option says it; `gotelemetry on`, `ng analytics off`:
    // a switch the program keeps thrown.
    // A version manager's settings are its choices, which `versions.rs` reads: what else it
    // switches (`perlbrew off`) holds for this shell only.
    if !kind.system
        && !super::versions::knows(&reading.program)
        && (changes_settings(reading) || reading.switches() || reading.sets_up())
    {
        return Some((Finding::Setting, 0));
    }
    if kind.system && reading.switches() {
        return Some((Finding::System(SystemAct::Setting), 0));
    }
    if let Some((verb, at)) = option_verb(reading) {
        let opt = reading.options.get(at)?;
        let found = match verb {
            Verb::Reads => return None,
            Verb::Unveils => Finding::Secret,
            Verb::Destroys | Verb::Changes | Verb::System if kind.system => {
                let phrase = opt.parts.first().cloned().unwrap_or_default();
                Finding::System(system_act(&phrase))
            }
            Verb::Destroys if kind.cloud && !is_local_change(reading) => Finding::DestroyRemote,
            // A delete on the machine an option names (`tool delete key --host db.example.com`).
            Verb::Destroys if acts_on_host(reading).is_some() => Finding::DestroyRemote,
            Verb::Destroys => Finding::Destroy,
            // `daemon -n web --stop`
            Verb::Halts => Finding::System(halt_act(opt.parts.first().map_or("", String::as_str))),
            Verb::Changes if names_grant(reading) => Finding::Grant { secret: false },
            Verb::Changes if any_in(SECRET_NOUNS, &opt.parts) => Finding::Grant { secret: true },
            // `tool --host h.example --upload-file f`: an option that sends, with another
            // machine named.
            Verb::Sends => match names_remote(reading) {
                Some(host) => Finding::Send(Some(host)),
                None => return None,
            },
            _ => return None,
        };
        return Some((found, reading.words.len()));
    }
    // `gh auth token`, `doppler secrets`: before any option, so that a value (`-p secret`)
    // isn't read as the subcommand.
    let lead = reading.lead();
    if lead.len() <= 3
        && lead.iter().all(|w| is_word(w))
        && let Some(last) = lead.last()
        && parts(last).last().is_some_and(|p| has(SECRET_NOUNS, p))
        // `heroku auth:token`: a colon joins a group and its subcommand in one word.
        && (kind.secrets || lead.len() >= 2 || last.contains(':'))
    {
        return Some((Finding::Secret, reading.words.len()));
    }
    // `vercel env pull`, `netlify env:list`, `az webapp config appsettings list`: a hosted
    // app's environment, its secrets among it, printed or pulled where the chat reads it.
    if prints_app_env(reading) {
        return Some((Finding::Secret, reading.words.len()));
    }
    // The same with what it is for after it (`crane auth token registry.example.com`): a
    // group's word first, the secret's second, then one operand (`tool config token x`
    // sets one: not this).
    if (kind.cloud || kind.secrets || kind.unlisted)
        && lead.len() == 3
        && lead.iter().take(2).all(|w| is_word(w))
        && lead
            .get(1)
            .is_some_and(|second| parts(second).last().is_some_and(|p| has(SECRET_NOUNS, p)))
        && lead
            .first()
            .is_some_and(|first| !is_secret_key(first) && !any_in(SETTINGS_NOUNS, &parts(first)))
    {
        return Some((Finding::Secret, reading.words.len()));
    }
    if kind.system && has_setting(reading) {
        return Some((Finding::System(SystemAct::Setting), 0));
    }
    // A store given an entry's path and no verb (`pass email/work`, `gopass web/github`):
    // showing it is what the store does by default; copied to the clipboard instead (`pass
    // -c email/work`, `--clip`), or encrypted (`sops -e f.json`, `--encrypt`), it is not
    // printed.
    if kind.store
        && reading.words.is_empty()
        && !reading.short().any(|s| s == "-c" || s == "-e")
        && !reading
            .args
            .iter()
            .any(|a| a.starts_with("--clip") || a == "--encrypt")
        && reading
            .positionals
            .first()
            .is_some_and(|entry| entry.contains('/') && !entry.starts_with(['/', '.', '~', '-']))
    {
        return Some((Finding::Secret, 0));
    }
    // A program nobody lists named for a secret and no verb, and given no word of what to
    // do with it (`wifi-password`, `wifi-password home`): run, it prints it
    // (`reset-password alice` names its verb: not this).
    if kind.unlisted
        && reading.options.is_empty()
        && reading.words.len() <= 1
        && let name = parts(&reading.program)
        && name.len() >= 2
        && name.last().is_some_and(|last| has(SECRET_NOUNS, last))
        && !name.iter().any(|part| VERBS.contains_key(part.as_str()))
    {
        return Some((Finding::Secret, 0));
    }
    // Named for a private key and given no word of what to do with it
    // (`rpi-otp-private-key`): run, it prints the key, as a `show` would.
    if (kind.unlisted || kind.secrets)
        && reading.words.is_empty()
        && names_a_key(&parts(&reading.program))
    {
        return Some((Finding::Secret, 0));
    }
    // A program nobody lists whose own name says it shows or makes a secret
    // (`elasticsearch-create-enrollment-token`), stops something (`gdm-stop`) or deletes.
    if kind.unlisted {
        let name = parts(&reading.program);
        if name.len() >= 2
            && let Some(last) = name.last()
            && has(HALTS, last)
        {
            return Some((Finding::System(halt_act(last)), reading.words.len()));
        }
        // Named for deleting what it is given (`xbps-remove -R curl`, `distrobox-rm box`),
        // or for a switch it throws (`byobu-disable`).
        if name.len() >= 2 && name.last().is_some_and(|last| has(DESTROYS, last)) {
            return Some((Finding::Destroy, reading.words.len()));
        }
        if name.len() >= 2 && name.last().is_some_and(|last| has(SWITCHES, last)) {
            return Some((Finding::Setting, 0));
        }
        let acts = any_in(REVEALS, &name) || any_in(CHANGES, &name);
        if acts && any_in(SECRET_NOUNS, &name) {
            return Some((Finding::Secret, reading.words.len()));
        }
        // Named for making a user, a role or a member, and given who (`createuser -D
        // alice`, `addmember team bob`): access given.
        let grants = any_in(CHANGES, &name) || any_in(GRANTS, &name);
        if grants
            && any_in(GRANT_NOUNS, &name)
            && !reading.positionals.is_empty()
            && !reading.administrator
        {
            return Some((Finding::Grant { secret: false }, 0));
        }
    }
    None
}

/// A name whose last words are a private key's (`private key`, `privkey`, `signing key`,
/// `seed phrase`, `mnemonic`); not `keys` or `wallet`, which name stores and apps.
fn names_a_key(name: &[String]) -> bool {
    let len = name.len();
    [2, 1].iter().any(|&take| {
        len >= take
            && phrase_at(KEY_NOUNS, name, len - take) == Some(take)
            && !matches!(name[len - 1].as_str(), "keys" | "wallet")
    })
}

/// A system tool's setting written as `key=value` or with `-w` (`sysctl -w vm.x=1`).
fn has_setting(reading: &Reading<'_>) -> bool {
    reading.short().any(|s| s == "-w")
        || reading.operands().any(|w| {
            // `vm.swappiness=10`; not dd's `if=/dev/zero`.
            w.split_once('=')
                .is_some_and(|(key, _)| key.contains('.') && !key.contains('/'))
        })
}

/// What a system verb does to the machine.
fn system_act(phrase: &str) -> SystemAct {
    if phrase == "kill" {
        SystemAct::Kill
    } else if matches!(phrase, "disable" | "mask" | "off") {
        SystemAct::Off
    } else if has(REVERSIBLE, phrase) {
        SystemAct::Reversible
    } else {
        SystemAct::Setting
    }
}

/// A program nobody lists whose name is another name nobody lists and, after `-` or `_`,
/// a deleting verb (`xbps-remove` → `xbps`, `remove`; `steamos-factory-reset` → `steamos`,
/// `factory-reset`): the first name, and the rest as the subcommand it stands for.
fn named_for_deleting(program: &str) -> Option<(&str, String)> {
    if catalogue::program(program).is_some() {
        return None;
    }
    let cut = program.find(['-', '_'])?;
    let (first, rest) = (program.get(..cut)?, program.get(cut + 1..)?);
    let deletes = parts(rest).last().is_some_and(|last| has(DESTROYS, last));
    (deletes && !first.is_empty() && catalogue::program(first).is_none())
        .then(|| (first, rest.to_string()))
}

/// The act of a system tool whose name is its act: the verb its name starts or ends with
/// (`pkill`, `killall`, `useradd`, `userdel`, `umount`), else a setting.
fn named_act(program: &str) -> SystemAct {
    let verbs = [SYSTEM, CHANGES, DESTROYS];
    for table in verbs {
        for (_, words) in table {
            for verb in *words {
                let inside = program == *verb
                    || (verb.len() >= 3 && (program.starts_with(verb) || program.ends_with(verb)));
                if inside && !verb.contains(' ') {
                    return system_act(verb);
                }
            }
        }
    }
    SystemAct::Setting
}

/// The packages an install names: the operands and words after the verb that are names,
/// not paths, and that the project's manifests don't declare.
/// Every word the verb acts on is a path in the work folder (`tool delete build/cache`), or
/// what it deletes is its own cache (`pio system prune --cache`).
fn names_local_paths(reading: &Reading<'_>, verb_word: usize) -> bool {
    let cache = |w: &str| {
        parts(w)
            .iter()
            .any(|p| matches!(p.as_str(), "cache" | "caches" | "tmp" | "temp"))
    };
    if reading.args.iter().any(|a| cache(a)) {
        return true;
    }
    let after = reading.after(verb_word);
    !after.is_empty()
        && after.iter().all(|w| {
            (w.starts_with("./") || w.contains('/') || (has_extension(w) && !is_domain_like(w)))
                && !w.starts_with(['/', '~', '$'])
                && !w.contains("://")
                && !w.contains("..")
        })
}

/// A host's name or an app's reverse-domain id, not a file's (`local.example.com`,
/// `com.example.app`, `org.mozilla.firefox`): three dotted labels or more, the last or the
/// first of them a common top-level domain.
fn is_domain_like(word: &str) -> bool {
    const TOP: &[&str] = &["app", "com", "de", "dev", "io", "net", "org", "uk"];
    let labels: Vec<&str> = word.split('.').collect();
    labels.len() >= 3
        && labels.iter().all(|l| {
            !l.is_empty()
                && l.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        })
        && (labels
            .last()
            .is_some_and(|l| TOP.contains(&l.to_ascii_lowercase().as_str()))
            || labels
                .first()
                .is_some_and(|l| TOP.contains(&l.to_ascii_lowercase().as_str())))
}

/// A file's name by its ending (`notes.txt`, `a.tar.gz`, `.env`): after the last dot, a
/// short run of letters and digits with a lower-case letter among them. A version
/// (`1.2`) or a name with a placeholder's dot (`namespaceX.Y`) is not one.
fn has_extension(word: &str) -> bool {
    word.rsplit_once('.').is_some_and(|(_, end)| {
        (1..=8).contains(&end.len())
            && end.bytes().all(|b| b.is_ascii_alphanumeric())
            && end.bytes().any(|b| b.is_ascii_lowercase())
    })
}

fn packages(reading: &Reading<'_>, verb_word: usize, scan: &Scan<'_>) -> Vec<String> {
    let declared = scan.facts.declared(scan.place.cwd).unwrap_or_default();
    reading
        .after(verb_word)
        .iter()
        .filter(|w| {
            !w.is_empty()
                && !w.starts_with(['.', '/', '~', '$'])
                && !w.contains("://")
                && !w.contains('=')
        })
        .map(|w| w.to_lowercase())
        .filter(|name| !declared.iter().any(|d| d.eq_ignore_ascii_case(name)))
        .collect()
}

/// The names a person would use for what a command acts on: the words after its verb and
/// its operands (and the part after a path's last `/`); else the words before the verb;
/// else the program.
fn names_of(reading: &Reading<'_>, verb_word: usize, with_program: bool) -> Vec<String> {
    let clean = |w: &str| -> Vec<String> {
        let w = w.trim_matches(|c| c == '"' || c == '\'').to_lowercase();
        if w.is_empty() || w.starts_with('-') || w.len() > 64 {
            return Vec::new();
        }
        let mut out = vec![w.clone()];
        if let Some((_, base)) = w.rsplit_once('/')
            && !base.is_empty()
        {
            out.push(base.to_string());
        }
        if let Some((stem, _)) = w.split_once('@')
            && !stem.is_empty()
        {
            out.push(stem.to_string());
        }
        out
    };
    let mut names: Vec<String> = reading
        .after(verb_word)
        .iter()
        .flat_map(|w| clean(w))
        .collect();
    // `set-timezone` names the timezone.
    if let Some((_, parts)) = reading.words.get(verb_word) {
        names.extend(
            parts
                .iter()
                .filter(|p| {
                    p.len() > 2 && verb_at(std::slice::from_ref(p), 0, reading.kind).is_none()
                })
                .cloned(),
        );
    }
    if names.is_empty() {
        names = (0..verb_word.min(reading.words.len()))
            .flat_map(|at| clean(reading.word(at)))
            .collect();
    }
    if with_program || names.is_empty() {
        names.push(reading.program.clone());
    }
    let mut unique: Vec<String> = Vec::new();
    for name in names {
        if !unique.contains(&name) {
            unique.push(name);
        }
    }
    unique.truncate(8);
    unique
}

fn risk(reading: &Reading<'_>, cmd: &Command, finding: Finding, at: usize) -> Risk {
    let what = reading.describe();
    let kind = reading.kind;
    let remote = names_remote(reading);
    let outside = (kind.cloud && !is_local_change(reading))
        || kind.store
        || remote.is_some()
        || on_registry(reading);
    let prod = infra::targets_production(cmd);
    let named = |act: Act, with_program: bool| {
        Wish::new(act).naming(Name::AnyOf(names_of(reading, at, with_program)))
    };
    let production = |wish: Wish| {
        if prod {
            wish.naming(Name::Production)
        } else {
            wish
        }
    };
    let delete_act = |reading: &Reading<'_>| -> Act {
        let destroys = reading.flat().iter().any(|(_, p)| {
            matches!(
                p.as_str(),
                "destroy" | "nuke" | "reset" | "terminate" | "decommission" | "teardown" | "wipe"
            )
        });
        if destroys { Act::Destroy } else { Act::Delete }
    };
    match finding {
        Finding::DestroyRemote => {
            let every = if reading.has_all() {
                "every one of "
            } else {
                ""
            };
            Risk::new(
                RuleId::WordsDestroyRemote,
                Harm::Severe,
                true,
                format!("{what} deletes {every}what it names on a hosted service, which warden can't take back"),
            )
            .way_out()
            .wish(production(named(delete_act(reading), false)))
        }
        Finding::Destroy => {
            // What a program nobody lists deletes, when it isn't a path of the work folder,
            // is its own: a model, a team, an app's containers. As an app's delete, it is
            // severe and lasting (seed 001). Every one of them somewhere else is severe too
            // (`--all` on a local tool is its own business).
            let unlisted =
                kind.unlisted && at < reading.words.len() && !names_local_paths(reading, at);
            let destroys = delete_act(reading) == Act::Destroy;
            // Dropping, purging, wiping or erasing loses what was there, wherever it is named
            // (`pg_recvlogical --drop-slot`, `tool cache purge` aside: a cache is its own).
            let loses = !names_local_paths(reading, at)
                && (reading.flat().iter().any(|(_, p)| loses_data(p))
                    || reading
                        .options
                        .iter()
                        .any(|o| o.parts.iter().any(|p| loses_data(p) || takes_storage(p))));
            // A program nobody lists that destroys or empties what it keeps (`tool nuke`,
            // `cradle sql flush`) loses what nobody else has a copy of: severe, as an app's
            // delete is; one that removes an entry (`pueue remove 3`) stays moderate. A delete
            // on another host (`apptainer delete --library https://…`) destroys a remote
            // resource: severe, as a hosted service's delete is.
            // Told not to ask (`ndctl destroy-namespace --force x`, `tool wipe -y`), a
            // delete that loses what was there skips the one question the program had.
            // A store that keeps what nobody else has a copy of (a key on a hardware token,
            // a wallet, a vault's secret): what it deletes is gone.
            let only_copy = kind.store && catalogue::is(&reading.program, Class::Keeps);
            // A database or its migrations in the words up to the delete (`db:drop`,
            // `db:reset`, `migrate:fresh`, `database drop`): its rows are emptied, which no
            // Undo brings back, whichever project tool runs it (`rails`, `rake`, `artisan`):
            // lasting, so it asks after reading.
            let empties_store = reading
                .flat()
                .iter()
                .any(|(word, p)| *word <= at && (has(DATASTORES, p) || p == "migrate"));
            let harm = if (reading.has_all() && outside)
                || only_copy
                || (unlisted && (destroys || loses))
                || (loses && reading.forced())
                || remote.is_some()
            {
                Harm::Severe
            } else {
                Harm::Moderate
            };
            // Packages taken off the machine, not a project's (`brew uninstall node`, `pacman
            // -Rs x`): outside the work folder, where Undo can't bring them back.
            let machine = removes_from_machine(reading);
            let lasting = outside || cmd.sudo || unlisted || loses || machine || empties_store;
            let where_ = match &remote {
                Some(host) => format!(" on {host}"),
                None if kind.store => " from a secret store".to_string(),
                None => String::new(),
            };
            Risk::new(
                RuleId::WordsDestroy,
                harm,
                lasting,
                format!("{what} deletes what it names{where_}"),
            )
            .wish(named(delete_act(reading), false))
        }
        Finding::Send(host) => {
            let to = match &host {
                Some(host) => format!(" to {host}"),
                None => " off this machine".to_string(),
            };
            let wish = match &host {
                Some(host) => Wish::new(Act::Send).naming(Name::AnyOf(super::host_names(host))),
                None => named(Act::Send, true),
            };
            Risk::new(
                RuleId::WordsSend,
                Harm::Moderate,
                true,
                format!("{what} sends what it names{to}"),
            )
            .way_out()
            .wish(wish)
        }
        Finding::Publish => Risk::new(
            RuleId::WordsPublish,
            Harm::Severe,
            true,
            format!("{what} publishes for others to pull, which warden can't take back"),
        )
        .way_out()
        .wish(production(Wish::new(Act::Publish))),
        Finding::Deploy => {
            let where_ = if prod { " in production" } else { "" };
            Risk::new(
                RuleId::WordsDeploy,
                Harm::Severe,
                true,
                format!("{what} changes deployed systems{where_}, which warden can't take back"),
            )
            .way_out()
            .wish(production(Wish::new(Act::Deploy)))
        }
        // A private key or a wallet printed is a key read, which no words lift (seed 002:
        // keys read or sent); a token or a password is severe, not lasting.
        Finding::Secret if names_key(reading) => Risk::new(
            RuleId::SecretsKeyRead,
            Harm::Severe,
            true,
            format!("{what} prints a private key where the chat can read it"),
        )
        .never(),
        Finding::Secret => Risk::new(
            RuleId::WordsSecret,
            Harm::Severe,
            false,
            format!("{what} prints a secret (a password, token or key) where the chat can read it"),
        )
        .way_out()
        .wish(named(Act::Secrets, true)),
        Finding::Grant { secret } => {
            let (does, act) = if secret {
                ("changes a secret, a token or a key", Act::Secrets)
            } else {
                ("gives someone access", Act::Access)
            };
            Risk::new(
                RuleId::WordsGrant,
                Harm::Moderate,
                true,
                format!("{what} {does}, which warden can't take back"),
            )
            .way_out()
            .wish(named(act, secret))
        }
        Finding::System(act) => {
            let (lasting, does, wish_act) = match act {
                SystemAct::Reversible => (true, "changes what runs on this machine", Act::Restart),
                SystemAct::Kill => (true, "kills processes", Act::Restart),
                SystemAct::Off => (true, "turns something off on this machine", Act::Safety),
                SystemAct::Setting => (
                    true,
                    "changes a setting of the machine itself, which Undo can't take back",
                    Act::Update,
                ),
                SystemAct::Halt => (true, "stops what it names", Act::Restart),
            };
            Risk::new(
                RuleId::WordsSystem,
                Harm::Moderate,
                lasting || cmd.sudo,
                format!("{what} {does}"),
            )
            .wish(named(wish_act, false))
        }
        Finding::CloudChange => {
            let where_ = if prod { " in production" } else { "" };
            Risk::new(
                RuleId::InfraChange,
                Harm::Severe,
                true,
                format!("{what} changes a cloud or cluster's resources{where_}, which warden can't take back"),
            )
            .way_out()
            .wish(if sets_app_env(reading) {
                // What the person asks for is the variable set, on the app or the host:
                // "set API_KEY on netlify".
                production(named(Act::Update, true))
            } else {
                production(Wish::new(Act::Deploy))
            })
        }
        // Set in the program's settings (`npm config set registry URL`, `pip config set
        // global.index-url URL`, `conda config --add channels x`), the person asks for it, or
        // holds it, as a setting ("set the npm registry to URL", "don't change any settings").
        Finding::Source => Risk::new(
            RuleId::WordsInstall,
            Harm::Moderate,
            true,
            format!("{what} adds a source every later install can come from"),
        )
        .wish(named(
            if reading.positionals.iter().take(2).any(|w| *w == "config") {
                Act::Update
            } else {
                Act::Install
            },
            true,
        )),
        Finding::UpgradeAll => Risk::new(
            RuleId::WordsInstall,
            Harm::Moderate,
            true,
            format!("{what} upgrades every package it keeps on this machine"),
        )
        .wish(Wish::new(Act::Install).naming(Name::AnyOf(vec![reading.program.clone()]))),
        Finding::ForgeChange => {
            // Made public (`gh repo edit acme/site --visibility public`): asked for as making
            // it public ("make acme/site public"), by the name of what it makes public.
            let public = reading.args.iter().any(|a| a == "--public" || a == "--visibility=public")
                || reading
                    .args
                    .windows(2)
                    .any(|pair| pair[0] == "--visibility" && pair[1] == "public");
            let wish = if public {
                let mut names: Vec<String> = names_of(reading, at, false)
                    .into_iter()
                    .filter(|name| name != "public")
                    .collect();
                if names.is_empty() {
                    names.push(reading.program.clone());
                }
                Wish::new(Act::Public).naming(Name::AnyOf(names))
            } else {
                named(Act::Send, false)
            };
            Risk::new(
                RuleId::ForgeSpeaks,
                Harm::Moderate,
                true,
                format!(
                    "{what} changes what others see on {}, in the person's name",
                    reading.program
                ),
            )
            .way_out()
            .wish(wish)
        }
        Finding::RemoteRun => {
            let where_ = if prod { " in production" } else { "" };
            Risk::new(
                RuleId::RemoteExec,
                Harm::Moderate,
                true,
                format!(
                    "{what} runs on a hosted service's machine{where_}, where Undo can't reach"
                ),
            )
            .way_out()
            .wish(production(named(Act::Run, true)))
        }
        Finding::Unconfirmed(host) => {
            let (harm, on) = match &host {
                Some(host) => (Harm::Severe, format!(" on {host}")),
                None => (Harm::Moderate, String::new()),
            };
            let risk = Risk::new(
                RuleId::WordsUnconfirmed,
                harm,
                true,
                format!("{what} is told not to ask before what it does{on}, which warden can't take back"),
            )
            .wish(named(Act::Update, true));
            if host.is_some() { risk.way_out() } else { risk }
        }
        Finding::Pays => Risk::new(
            RuleId::WordsPays,
            Harm::Severe,
            true,
            format!("{what} moves money, which no words lift"),
        )
        .never(),
        Finding::RemoteChange(host) => Risk::new(
            RuleId::WordsRemoteChange,
            Harm::Moderate,
            true,
            format!("{what} changes what {host} holds, where Undo can't reach"),
        )
        .way_out()
        .wish(Wish::new(Act::Update).naming(Name::AnyOf(super::host_names(&host)))),
        Finding::Setting => Risk::new(
            RuleId::WordsSetting,
            Harm::Moderate,
            true,
            format!(
                "{what} changes {}'s own settings, outside the work folder, which Undo can't take back",
                reading.program
            ),
        )
        .wish(named(Act::Update, true)),
        Finding::Install(packages) => {
            let names = packages.join(", ");
            Risk::new(
                RuleId::WordsInstall,
                Harm::Moderate,
                true,
                format!("{what} installs {names}, which the project's manifests don't list"),
            )
            .wish(Wish::new(Act::Install).naming(Name::AnyOf(packages)))
        }
    }
}

#[cfg(test)]
mod tests;
