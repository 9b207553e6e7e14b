//! What a command does to files by where they are: deletes and writes outside the work
//! folder, keys read, authorized_keys and sudoers, another assistant's permission files.

use super::{Scan, has_flag, positional};
use crate::law::paths::{self as place, Place};
use crate::law::rule::RuleId;
use crate::shell::{Command, RedirectOp};
use crate::verdict::{Harm, Risk};
use crate::wish::{Act, Name, Wish};

/// Another assistant's own permission files: the one way an assistant raises its own
/// powers by a file it writes. No words lift writing them, Full trust included.
#[rustfmt::skip]
const ASSISTANT_FILES: &[&str] = &[
    ".claude/settings.json", ".claude/settings.local.json", ".claude.json", ".mcp.json",
    ".codex/config.toml", ".codex/config.json", ".gemini/settings.json", ".cursor/mcp.json",
    ".cursor/cli-config.json", ".vscode/mcp.json", "claude_desktop_config.json", ".windsurf/mcp_config.json",
    ".codeium/windsurf/mcp_config.json", ".aider.conf.yml", ".continue/config.json",
    "opencode.json", "opencode.jsonc", ".opencode/opencode.json",
];

/// The folders that hold an assistant's permission files, and little else: one written
/// whole (`tar x -C .claude`, `unzip -d ~/.codex`), moved away or deleted is its files.
#[rustfmt::skip]
const ASSISTANT_FOLDERS: &[&str] = &[
    ".claude", ".codex", ".gemini", ".cursor", ".windsurf", ".codeium/windsurf", ".continue",
];

/// Files under the home folder that hold keys or credentials (relative to home).
#[rustfmt::skip]
const KEY_FILES: &[&str] = &[
    ".aws/credentials", ".azure", ".config/gcloud", ".docker/config.json", ".git-credentials", ".gnupg",
    ".kube/config", ".netrc", ".npmrc", ".pypirc", ".password-store", ".config/gh/hosts.yml",
    ".terraform.d/credentials.tfrc.json", ".cargo/credentials", ".cargo/credentials.toml", ".gem/credentials",
    "Library/Keychains", ".local/share/keyrings", ".vault-token", ".config/hub", ".pgpass", ".my.cnf",
    ".config/rclone/rclone.conf", ".s3cfg", ".boto", ".config/op", ".databrickscfg", ".snowflake/config.toml",
    ".oci/config", ".config/doctl/config.yaml", ".fly/config.yml", ".config/helm/repositories.yaml",
    // Build tools' and hosted services' CLIs that keep a token or a password in a file of
    // their own, and AI assistants' sign-ins.
    ".m2/settings.xml", ".m2/settings-security.xml", ".gradle/gradle.properties", ".terraformrc",
    ".dockercfg", ".composer/auth.json", ".config/composer/auth.json", ".pulumi/credentials.json",
    ".netlify/config.json", ".config/netlify/config.json", ".config/configstore/firebase-tools.json",
    ".wrangler/config", ".config/.wrangler/config", ".railway/config.json", ".supabase/access-token",
    ".vercel/auth.json", ".local/share/com.vercel.cli/auth.json", ".config/stripe/config.toml",
    ".sentryclirc", ".circleci/cli.yml", ".config/glab-cli/config.yml", ".config/tea/config.yml",
    ".config/hcloud/cli.toml", ".config/linode-cli", ".config/scw/config.yaml",
    ".config/ngrok/ngrok.yml", ".ngrok2/ngrok.yml", ".huggingface/token", ".cache/huggingface/token",
    ".kaggle/kaggle.json", ".aws/sso/cache", ".aws/cli/cache", ".config/github-copilot",
    ".codex/auth.json", ".claude/.credentials.json",
];

/// A browser's stores of cookies and saved passwords, by their file names (Firefox's, and
/// Chromium's, Chrome's, Brave's and Edge's, and Safari's cookies): signed-in sessions and
/// passwords, as good as keys.
const BROWSER_SECRETS: &[&str] = &[
    "Cookies",
    "Cookies.binarycookies",
    "Login Data",
    "Web Data",
    "cookies.sqlite",
    "key3.db",
    "key4.db",
    "logins.json",
];

/// Where browsers keep their profiles, as a part of a path.
const BROWSER_PROFILES: &[&str] = &[
    ".mozilla/firefox",
    "Firefox/Profiles",
    "google-chrome",
    "chromium",
    "Google/Chrome",
    "BraveSoftware",
    "Microsoft Edge",
    "microsoft-edge",
    // Safari's cookies: `~/Library/Cookies`, or its container's.
    "Library/Cookies",
    "com.apple.Safari",
];

/// A service account's token mounted into a pod (`/var/run/secrets/kubernetes.io/…`) and
/// the secrets a container runtime mounts (`/run/secrets/…`).
const MOUNTED_SECRETS: &[&str] = &["/run/secrets", "/var/run/secrets"];

/// Programs that may name a key file without reading it out.
const KEY_SAFE: &[&str] = &[
    "ls",
    "stat",
    "ssh",
    "ssh-add",
    "ssh-keygen",
    "ssh-copy-id",
    "chmod",
    "chown",
    "test",
    "[",
    "file",
    "mkdir",
    "touch",
    "git",
    "scp",
    "rsync",
    "sftp",
    "shred",
];

/// Private keys and credential files, wherever the home folder is. Called for every word of
/// every command, so it compares in place and allocates nothing.
pub(crate) fn is_key_path(abs: &str, home: &str) -> bool {
    // Every key file and folder is a dot-name or a keychain: a path with neither is none,
    // found without searching for each (this runs for every argument of every command).
    if MOUNTED_SECRETS.iter().any(|dir| place::under(abs, dir)) {
        return true;
    }
    // Another process's environment (`/proc/1/environ`, `/proc/*/environ`, `/proc/$PPID/…`):
    // the secrets it was started with. Its own (`/proc/self/environ`, the shell's
    // `/proc/$$/environ`) is what `env` prints.
    if let Some(process) = abs
        .strip_prefix("/proc/")
        .and_then(|rest| rest.strip_suffix("/environ"))
        && !matches!(
            process,
            "self" | "thread-self" | "$$" | "$BASHPID" | "${BASHPID}"
        )
        && !process.contains('/')
    {
        return true;
    }
    let name = basename_of(abs);
    if BROWSER_SECRETS.contains(&name) && BROWSER_PROFILES.iter().any(|dir| abs.contains(dir)) {
        return true;
    }
    if !abs.contains("/.") && !abs.contains("Keychains") && !abs.starts_with("/etc/") {
        return false;
    }
    let ssh_private = abs.contains("/.ssh/")
        && (name.starts_with("id_") || name.ends_with(".pem") || name.ends_with("_key"))
        && !name.ends_with(".pub");
    let home = home.trim_end_matches('/');
    let in_home = in_home(abs, home);
    // `{home}/{rel}` or below it, or `/{rel}` as whole segments anywhere (another home).
    let under_home = |rel: &str| {
        in_home.is_some_and(|inside| place::under(inside, rel)) || names_segments(abs, rel)
    };
    // A whole key folder, or a glob over one, reads every key in it; so does a file of it
    // only known when it runs (`$HOME/.ssh/$f`, read as `~/.ssh/…`).
    let whole_folder = KEY_FOLDERS
        .iter()
        .any(|dir| in_home == Some(*dir) || ends_with_segments(abs, dir))
        || (abs.contains("/.ssh/")
            && (name.contains('*') || name.contains('?') || name == "…")
            && !name.ends_with(".pub"));
    ssh_private
        || whole_folder
        || KEY_FILES.iter().any(|rel| under_home(rel))
        || abs == "/etc/shadow"
        || abs == "/etc/gshadow"
}

/// A key file where `place` judges it: every path [`is_key_path`] finds, and a file with
/// one of OpenSSH's names for a private key kept outside the work folder.
pub(crate) fn is_key_at(abs: &str, place: &Place<'_>) -> bool {
    is_key_path(abs, place.home)
        || ((is_ssh_key_name(basename_of(abs))
            || is_key_container(basename_of(abs))
            || is_credentials_file(basename_of(abs)))
            && !place.inside_work(abs))
        || place::under(abs, "/etc/ssl/private")
}

/// A file whose name alone says it holds a key or credentials (`id_ed25519`, `server.key`,
/// `credentials.json`): wherever it is, as an app's argument sends it.
pub(crate) fn names_key_file(name: &str) -> bool {
    is_ssh_key_name(name) || is_key_container(name) || is_credentials_file(name)
}

/// A file whose name says it holds a private key, outside the work folder: a TLS key
/// (`server.key`), a PKCS#12 bundle (`.p12`, `.pfx`). A certificate (`.crt`, `.pem`,
/// `.cer`) may be public, and a Java keystore is mostly listed for its fingerprints
/// (`keytool -list -keystore ~/.android/debug.keystore`), so neither is one.
fn is_key_container(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    [".key", ".p12", ".pfx"]
        .iter()
        .any(|ext| lower.len() > ext.len() && lower.ends_with(ext))
}

/// A file whose name says it keeps credentials, in a format that holds them as text
/// (`credentials.json`, `gcp-credentials.yaml`, `api_keys.txt`, Google's `client_secret.json`
/// and `token.json`, `service-account.json`, `secrets.toml`). A name that only holds such a
/// word among others (`secret_santa.txt`, `tokenizer.json`, `token_counts.csv`) or a file
/// of code or prose (`credentials.py`, `secrets.md`) is none.
fn is_credentials_file(name: &str) -> bool {
    const FORMATS: &[&str] = &[
        "", "cfg", "conf", "csv", "env", "ini", "json", "toml", "txt", "xml", "yaml", "yml",
    ];
    const STEMS: &[&str] = &[
        "access_keys",
        "accesskeys",
        "api-key",
        "api-keys",
        "api_key",
        "api_keys",
        "apikey",
        "apikeys",
        "creds",
        "credential",
        "credentials",
        "password",
        "passwords",
        "secret",
        "secrets",
        "token",
        "tokens",
    ];
    const WITHIN: &[&str] = &[
        "api-key",
        "api_key",
        "apikey",
        "client_secret",
        "credential",
        "service-account",
        "service_account",
    ];
    let lower = name.to_ascii_lowercase();
    let (stem, format) = match lower.rsplit_once('.') {
        Some((stem, format)) if !stem.is_empty() => (stem, format),
        _ => (lower.trim_start_matches('.'), ""),
    };
    FORMATS.contains(&format)
        && (STEMS.contains(&stem)
            || WITHIN.iter().any(|word| stem.contains(word))
            || stem.starts_with("secrets"))
}

/// The home folder itself, the root, or a folder above a key file or folder (`~/.kube`,
/// which holds its config; `~/.config`, which holds gcloud's; `/home`): copied or sent
/// whole, the keys in it go too.
pub(crate) fn holds_keys(abs: &str, place: &Place<'_>) -> bool {
    if abs == "/" || place.is_home(abs) {
        return true;
    }
    let home = place.home.trim_end_matches('/');
    match in_home(abs, home) {
        Some(inside) => KEY_FILES
            .iter()
            .chain(&KEY_FOLDERS)
            .any(|rel| rel.len() > inside.len() && place::under(rel, inside)),
        None => home.len() > abs.len() && place::under(home, abs),
    }
}

/// Folders under the home folder that are keys as a whole.
const KEY_FOLDERS: [&str; 5] = [".ssh", ".aws", ".gnupg", ".config/gcloud", ".azure"];

/// What an archive packs or a recursive copy copies: `tar -c`'s, `zip`'s and `7z a`'s
/// sources, `cp -r`'s (`-R`, `-a`) all but its destination.
fn packed(cmd: &Command) -> Vec<std::borrow::Cow<'_, str>> {
    use std::borrow::Cow;
    let args = cmd.args();
    let words = positional(args);
    match cmd.program() {
        "tar" if builds(args) => {
            let archive = tar_archive(args);
            // The old style's first word is its options (`tar czf a.tgz dir`).
            let old_style = args.first().is_some_and(|a| !a.starts_with('-'));
            let mut sources: Vec<&str> = words
                .into_iter()
                .skip(usize::from(old_style))
                .filter(|w| Some(*w) != archive.as_deref())
                .collect();
            // `-C DIR` (`--directory`) packs what follows it from DIR: `tar cf a.tar -C
            // ~/.local/share app/x` packs `~/.local/share/app/x`, not the folder.
            let mut dir: Option<&str> = None;
            let mut out = Vec::new();
            let mut at = 0;
            while let Some(arg) = args.get(at) {
                let value = match arg.as_str() {
                    "-C" | "--directory" => {
                        at += 1;
                        args.get(at).map(String::as_str)
                    }
                    a => a.strip_prefix("--directory="),
                };
                if let Some(value) = value {
                    sources.retain(|w| *w != value);
                    dir = Some(value);
                } else if let Some(found) = sources.iter().position(|w| *w == arg.as_str()) {
                    let source = sources.remove(found);
                    out.push(match dir {
                        Some(dir) if !source.starts_with(['/', '~']) => {
                            Cow::Owned(format!("{}/{source}", dir.trim_end_matches('/')))
                        }
                        _ => Cow::Borrowed(source),
                    });
                }
                at += 1;
            }
            out
        }
        "zip" => words.into_iter().skip(1).map(Cow::Borrowed).collect(),
        "7z" | "7za" | "7zr" if words.first() == Some(&"a") => {
            words.into_iter().skip(2).map(Cow::Borrowed).collect()
        }
        "cp" if args.iter().any(|a| {
            a == "--recursive"
                || a == "--archive"
                || (a.starts_with('-') && !a.starts_with("--") && a.contains(['r', 'R', 'a']))
        }) =>
        {
            words.split_last().map_or(Vec::new(), |(_, rest)| {
                rest.iter().copied().map(Cow::Borrowed).collect()
            })
        }
        _ => Vec::new(),
    }
}

/// The archive a command makes: `tar -c`'s file, `zip`'s, `7z a`'s.
pub(super) fn archive_of(cmd: &Command) -> Option<String> {
    let args = cmd.args();
    match cmd.program() {
        "tar" if builds(args) => tar_archive(args),
        "zip" => positional(args).first().map(|w| w.to_string()),
        "7z" | "7za" | "7zr" => {
            let words = positional(args);
            (words.first() == Some(&"a")).then(|| words.get(1).map(|w| w.to_string()))?
        }
        _ => None,
    }
}

/// OpenSSH's own names for a private key (`id_rsa`, `id_ed25519`, `id_ecdsa_sk`…): a key
/// wherever it is kept outside the work folder (a copy of `~/.ssh` in a backup, a key left in
/// the home folder), not only in `.ssh`. In the work folder it may be a test's fixture.
/// A glob that names one (`id_*`, `*_ed25519`: what `find ~ -name 'id_*'` finds) is one
/// too, when it spells at least two characters of its own (`*` alone names anything).
fn is_ssh_key_name(name: &str) -> bool {
    const NAMES: [&str; 8] = [
        "id_rsa",
        "id_dsa",
        "id_ecdsa",
        "id_ed25519",
        "id_rsa_sk",
        "id_dsa_sk",
        "id_ecdsa_sk",
        "id_ed25519_sk",
    ];
    if name.contains(['*', '?', '[']) {
        // What a bracket holds is a set of characters, not a spelling of its own
        // (`*[0-9]` spells nothing).
        let mut literal = 0;
        let mut in_bracket = false;
        for c in name.chars() {
            match c {
                '[' => in_bracket = true,
                ']' => in_bracket = false,
                '*' | '?' => {}
                _ if !in_bracket => literal += 1,
                _ => {}
            }
        }
        return literal >= 2
            && NAMES
                .iter()
                .any(|key| crate::shell::glob_matches(name, key));
    }
    NAMES.contains(&name)
}

/// Can `text` be part of a path [`is_key_path`] finds? Every key path holds `/.`,
/// `Keychains`, or starts with `/etc/` or `/proc/` (or holds one of the few names below),
/// and a path resolved is made of parts of the word and of the folders it is resolved
/// against, cut at `/` (normalising only takes parts away): a word resolved against folders
/// none of which holds one of them is no key, and needs no resolving to say so.
///
/// One pass over the bytes, each word tried only where its first byte stands: a `contains`
/// for each word sets up a searcher seven times, and this runs for every word of most commands.
fn may_name_key(text: &str) -> bool {
    let bytes = text.as_bytes();
    (0..bytes.len()).any(|at| {
        let rest = bytes.get(at..).unwrap_or(&[]);
        match rest.first() {
            Some(b'.') => true,
            Some(b'K') => rest.starts_with(b"Keychains"),
            Some(b'e') => rest.starts_with(b"etc"),
            Some(b's') => rest.starts_with(b"secrets"),
            Some(b'C') => rest.starts_with(b"Cookies"),
            Some(b'L') => rest.starts_with(b"Login Data"),
            Some(b'W') => rest.starts_with(b"Web Data"),
            Some(b'p') => rest.starts_with(b"proc"),
            _ => false,
        }
    })
}

/// `abs` relative to the home folder, when it is below it.
fn in_home<'a>(abs: &'a str, home: &str) -> Option<&'a str> {
    abs.strip_prefix(home)
        .and_then(|rest| rest.strip_prefix('/'))
        .filter(|rest| !rest.is_empty())
}

/// Whether `abs` holds `/{rel}/` or ends with `/{rel}`: among the places `rel` is found, left
/// to right and not overlapping (as `match_indices` finds them), one between slashes.
fn names_segments(abs: &str, rel: &str) -> bool {
    let (text, word) = (abs.as_bytes(), rel.as_bytes());
    if word.is_empty() {
        return abs
            .match_indices(rel)
            .any(|(at, _)| ends_segment(abs, rel, at));
    }
    // A plain walk, not the searcher `match_indices` builds for each call: a path and a
    // folder of a few bytes, asked about ten times for every file a command writes.
    let mut at = 0;
    while at + word.len() <= text.len() {
        if text.get(at..at + word.len()) == Some(word) {
            if ends_segment(abs, rel, at) {
                return true;
            }
            at += word.len();
        } else {
            at += 1;
        }
    }
    false
}

/// Is `rel`, found at `at` in `abs`, whole segments: a slash before it, and its end the
/// text's or a slash?
fn ends_segment(abs: &str, rel: &str, at: usize) -> bool {
    abs.get(..at).is_some_and(|before| before.ends_with('/')) && {
        let rest = abs.get(at + rel.len()..).unwrap_or("");
        rest.is_empty() || rest.starts_with('/')
    }
}

/// Whether `abs` ends with `/{rel}`.
fn ends_with_segments(abs: &str, rel: &str) -> bool {
    abs.strip_suffix(rel)
        .is_some_and(|head| head.ends_with('/'))
}

pub(super) fn basename_of(path: &str) -> &str {
    place::basename(path)
}

/// Files every new shell or login runs: what is written there runs again and again.
#[rustfmt::skip]
const STARTUP_FILES: &[&str] = &[
    ".bashrc", ".bash_profile", ".bash_login", ".profile", ".zshrc", ".zprofile", ".zshenv", ".zlogin",
    ".config/fish/config.fish", ".kshrc", ".cshrc", ".tcshrc", ".bash_aliases",
];

/// Folders of the home folder whose files start by themselves at a login or a session's
/// start (a desktop's autostart, launchd's agents, the user's systemd units), and files a
/// login, a session or an ssh login runs.
#[rustfmt::skip]
const AUTOSTART_PLACES: &[&str] = &[
    ".bash_logout", ".bashrc.d", ".config/autostart", ".config/autostart-scripts", ".config/environment.d", ".config/fish/conf.d", ".config/openbox/autostart",
    ".config/plasma-workspace/env", ".config/plasma-workspace/shutdown", ".config/systemd/user",
    ".kde/Autostart", ".kde4/Autostart", ".local/share/systemd/user", ".oh-my-zsh/custom", ".pam_environment",
    ".ssh/rc", ".xinitrc", ".xprofile", ".xsession", ".xsessionrc", ".zlogout",
    "Library/LaunchAgents",
];

/// The system's own places for the same (`/etc/xdg/autostart`, launchd's folders).
const SYSTEM_AUTOSTART: &[&str] = &[
    "/etc/xdg/autostart",
    "/Library/LaunchAgents",
    "/Library/LaunchDaemons",
];

fn is_startup_file(abs: &str, place: Place<'_>) -> bool {
    let in_home = in_home(abs, place.home.trim_end_matches('/'));
    STARTUP_FILES.iter().any(|file| in_home == Some(*file))
        || in_home.is_some_and(|rel| {
            AUTOSTART_PLACES
                .iter()
                .any(|at| rel == *at || place::under(rel, at))
        })
        || SYSTEM_AUTOSTART.iter().any(|at| place::under(abs, at))
        || abs == "/etc/profile"
        || abs == "/etc/bash.bashrc"
        || place::under(abs, "/etc/profile.d")
}

fn is_assistant_file(abs: &str) -> bool {
    ASSISTANT_FILES
        .iter()
        .any(|file| ends_with_segments(abs, file))
        || is_assistant_folder(abs)
}

/// One of [`ASSISTANT_FOLDERS`], or everything in one (`.claude/*`).
fn is_assistant_folder(abs: &str) -> bool {
    let folder = abs.trim_end_matches("/*").trim_end_matches('/');
    ASSISTANT_FOLDERS
        .iter()
        .any(|name| ends_with_segments(folder, name))
}

/// A search for secrets through files outside the work folder (`grep -r password
/// ~/.config`, `rg -i 'api_key' /etc`, `grep -ri token ~`): what it finds, it prints. The
/// pattern names a secret as the words' tables do (`password`, `token`, `secret`, `api key`,
/// `credentials`…); a search of the work folder is the project's own (`rg -n password src/`).
fn secret_hunt(cmd: &Command, scan: &mut Scan<'_>) {
    let program = cmd.program();
    if !matches!(
        program,
        "grep" | "egrep" | "fgrep" | "rg" | "ag" | "ack" | "ugrep"
    ) {
        return;
    }
    let args = cmd.args();
    // Options whose value is no operand (`-e PATTERN` is the pattern; `-f FILE` patterns).
    let valued = [
        "-A",
        "-B",
        "-C",
        "-m",
        "--max-count",
        "-g",
        "--glob",
        "-t",
        "--type",
        "-T",
        "--type-not",
        "--include",
        "--exclude",
        "--exclude-dir",
        "-d",
        "-D",
        "--color",
        "--colour",
        "-M",
        "--max-columns",
        "-j",
        "--threads",
    ];
    let mut patterns: Vec<&str> = Vec::new();
    let mut operands: Vec<&str> = Vec::new();
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "-e" | "--regexp" => patterns.extend(rest.next().map(String::as_str)),
            a if valued.contains(&a) => {
                rest.next();
            }
            a if a.starts_with("--regexp=") => patterns.push(a.trim_start_matches("--regexp=")),
            // A cluster of short options ends with the one that takes the next word
            // (`-ie PASSWORD`, `-rA 3`).
            a if a.starts_with('-') && !a.starts_with("--") && a.ends_with('e') => {
                patterns.extend(rest.next().map(String::as_str));
            }
            a if a.starts_with('-')
                && !a.starts_with("--")
                && a.len() > 2
                && a.ends_with(['A', 'B', 'C', 'm', 'd', 'D', 'f', 'g', 't', 'T', 'M', 'j']) =>
            {
                rest.next();
            }
            a if a.starts_with('-') && a.len() > 1 => {}
            a => operands.push(a),
        }
    }
    if patterns.is_empty() && !operands.is_empty() {
        patterns.push(operands.remove(0));
    }
    // The start every credential of a kind has (`AKIA` an AWS key's id, `ghp_` a GitHub
    // token, `xoxb-` a Slack bot's, `glpat-` a GitLab token, `AIza` a Google API key).
    const SHAPES: &[&str] = &[
        "AIza",
        "AKIA",
        "ASIA",
        "github_pat_",
        "glpat-",
        "gho_",
        "ghp_",
        "ghs_",
        "sk_live_",
        "xoxb-",
        "xoxp-",
    ];
    let names_secret = patterns.iter().any(|pattern| {
        if SHAPES.iter().any(|shape| pattern.contains(shape)) {
            return true;
        }
        let parts = super::words::parts(pattern);
        (0..parts.len()).any(|at| {
            super::words::has(super::words::SECRET_NOUNS, &parts[at])
                || parts.get(at + 1).is_some_and(|next| {
                    super::words::has(super::words::SECRET_NOUNS, &format!("{} {next}", parts[at]))
                })
        })
    });
    if !names_secret {
        return;
    }
    let place = scan.place;
    let outside = operands.iter().find_map(|operand| {
        let abs = place.resolve(operand)?;
        let inside = place::under(&abs, place.work) || place::is_sink(&abs);
        let temporary = place::under(&abs, "/tmp") || place::under(&abs, "/var/tmp");
        (!inside && !temporary).then_some(abs)
    });
    if let Some(abs) = outside {
        scan.add(
            Risk::new(
                RuleId::SecretsHunt,
                Harm::Severe,
                false,
                format!("search {abs} for passwords, tokens or keys with {program}, printing what it finds where the chat can read it"),
            )
            .wish(Wish::new(Act::Secrets).naming(Name::one(place::basename(&abs)))),
        );
    }
}

/// What a command lets run by itself later, or lets in: `direnv allow` trusts a folder's
/// `.envrc`, which the person's shell then runs whenever it enters the folder (direnv's own
/// question, answered for the person); `ssh-copy-id` puts a key in a host's
/// `authorized_keys` (this machine's, when the host is this one).
fn runs_by_itself(cmd: &Command, scan: &mut Scan<'_>) {
    let args = cmd.args();
    let words = positional(args);
    match cmd.program() {
        "direnv" if matches!(words.first(), Some(&("allow" | "permit" | "grant"))) => {
            let folder = match words.get(1).copied() {
                None | Some("." | "./") => "the work folder".to_string(),
                Some(folder) => folder.to_string(),
            };
            scan.add(
                Risk::new(
                    RuleId::PersistStartup,
                    Harm::Moderate,
                    true,
                    format!("trust {folder}'s .envrc for direnv, which the person's shell then runs by itself whenever it enters the folder"),
                )
                .wish(Wish::new(Act::Update).naming(Name::one(".envrc"))),
            );
        }
        // AppleScript making a login item (`tell application "System Events" to make login
        // item at end with properties {path:"/tmp/x"}`): what it names starts by itself at
        // every login, as a file in ~/Library/LaunchAgents does.
        "osascript"
            if args.iter().any(|a| {
                let code = a.to_ascii_lowercase();
                code.contains("login item") && code.contains("make")
            }) =>
        {
            scan.add(
                Risk::new(
                    RuleId::PersistStartup,
                    Harm::Severe,
                    true,
                    "add a login item (osascript): what it names starts by itself at every login"
                        .to_string(),
                )
                .wish(Wish::new(Act::Update).naming(Name::one("login item"))),
            );
        }
        "ssh-copy-id" if !args.iter().any(|a| a == "-n") => {
            // The destination: the last operand (`-i KEY`, `-p PORT`, `-o OPT` take values).
            let mut rest = args.iter();
            let mut host = None;
            while let Some(arg) = rest.next() {
                if matches!(arg.as_str(), "-i" | "-p" | "-o" | "-F" | "-J" | "-t") {
                    rest.next();
                } else if !arg.starts_with('-') {
                    host = Some(arg.as_str());
                }
            }
            let Some(host) = host else { return };
            let name = host.rsplit('@').next().unwrap_or(host);
            if super::net::is_local(name) {
                if let Some(risk) = write_risk(
                    &format!("{}/.ssh/authorized_keys", scan.place.home),
                    scan.place,
                ) {
                    scan.add(risk);
                }
            } else {
                scan.add(
                    Risk::new(
                        RuleId::WordsGrant,
                        Harm::Moderate,
                        true,
                        format!("let a key log in to {host} (ssh-copy-id)"),
                    )
                    .way_out()
                    .wish(Wish::new(Act::Access).naming(Name::one(name))),
                );
            }
        }
        _ => {}
    }
}

/// A write into VS Code's own files whose text the line spells out (`echo … >
/// .vscode/tasks.json`, `cat > .vscode/settings.json <<EOF`, `tee … <<< …`): read as the
/// file tool's write of that text is (`file::editor_runs`: a task run when the folder opens,
/// an assistant's auto-approval turned on).
/// The commands a file written here with known text keeps for a program to run by itself
/// (`echo 'curl … | sh' > .husky/pre-commit`, `cat > .devcontainer/devcontainer.json <<EOF`):
/// each judged as a line of its own, as a file tool's write of it is.
pub(super) fn kept_written(cmd: &Command, scan: &Scan<'_>) -> Vec<String> {
    written_text(cmd, scan, crate::law::file::kept_commands)
}

/// A program file the command writes with literal text that no code reader reads where it
/// is written (`cat > deploy.sh <<EOF`, a file whose `#!` line names its interpreter): the
/// line its interpreter would run it with, for the caller to keep what is severe there, as a
/// file tool's write of the same text is judged (`file::program_run`). Not a file the line
/// writes again later (`echo … > x.sh; echo ls > x.sh; bash x.sh`): the last text is the one
/// that stays, and the one a run in the line is judged by.
pub(super) fn program_written(cmd: &Command, scan: &Scan<'_>) -> Vec<String> {
    let texts = texts_written(cmd, scan);
    if texts.is_empty() {
        return Vec::new();
    }
    let later: Vec<&Command> = scan
        .line
        .commands
        .iter()
        .skip_while(|c| !std::ptr::eq(*c, cmd))
        .skip(1)
        .collect();
    texts
        .into_iter()
        .filter(|(target, abs, _)| {
            !crate::law::code::read_where_written(abs)
                && !later.iter().any(|c| written(c).contains(target))
        })
        .filter_map(|(_, abs, text)| crate::law::file::program_run(&abs, &text))
        .collect()
}

/// The commands of a CI pipeline's file the command writes with literal text (`cat >
/// .github/workflows/x.yml <<EOF`).
pub(super) fn ci_written(cmd: &Command, scan: &Scan<'_>) -> Vec<String> {
    written_text(cmd, scan, crate::law::file::ci_commands)
}

/// What `read` finds in each file the command writes with literal text.
fn written_text(
    cmd: &Command,
    scan: &Scan<'_>,
    read: fn(&str, &str) -> Vec<String>,
) -> Vec<String> {
    texts_written(cmd, scan)
        .into_iter()
        .flat_map(|(_, abs, text)| read(&abs, &text))
        .collect()
}

/// Each file the command writes with literal text: as the line names it, its absolute path,
/// and the text.
pub(super) fn texts_written(cmd: &Command, scan: &Scan<'_>) -> Vec<(String, String, String)> {
    let Some(text) = crate::law::code::text_written(cmd, scan.line) else {
        return Vec::new();
    };
    written(cmd)
        .into_iter()
        .filter_map(|target| {
            let abs = scan.place.resolve(&target)?;
            Some((target, abs, text.clone()))
        })
        .collect()
}

fn editor_runs(target: &str, cmd: &Command, place: Place<'_>, scan: &mut Scan<'_>) {
    if !target.contains(".vscode/") && !target.contains("Code/User/") {
        return;
    }
    let Some(abs) = place.resolve(target) else {
        return;
    };
    let Some(text) = crate::law::code::text_written(cmd, scan.line) else {
        return;
    };
    if let Some(risk) = crate::law::file::editor_runs(&abs, &text) {
        scan.add(risk);
    }
}

/// The files a command writes: redirects, tee, cp/mv/ln/install destinations, in-place
/// edits, touch, dd's `of=`, download outputs.
fn written(cmd: &Command) -> Vec<String> {
    let mut out: Vec<String> = cmd
        .redirects
        .iter()
        .filter(|r| matches!(r.op, RedirectOp::Write | RedirectOp::Append))
        .map(|r| r.target.clone())
        .collect();
    // A version manager's choice for every new shell (`pyenv global 3.12`).
    out.extend(super::versions::written(cmd));
    let args = cmd.args();
    let words = positional(args);
    match cmd.program() {
        // moreutils' `sponge FILE` soaks its input up, then writes FILE with it.
        "tee" | "sponge" => out.extend(words.iter().map(|w| w.to_string())),
        // `find … -fprint FILE`, `-fprintf FILE FORMAT`, `-fls FILE`: find writes FILE.
        "find" | "gfind" => {
            let mut rest = args.iter();
            while let Some(arg) = rest.next() {
                if matches!(arg.as_str(), "-fprint" | "-fprint0" | "-fprintf" | "-fls")
                    && let Some(file) = rest.next()
                {
                    out.push(file.clone());
                }
            }
        }
        // `git clone URL DEST`: the folder it makes (by default one in the work folder).
        "git" if words.first() == Some(&"clone") => {
            let url = words.iter().skip(1).position(|w| {
                w.contains("://") || w.ends_with(".git") || w.contains('@') || w.starts_with('/')
            });
            if let Some(dest) = url.and_then(|at| words.get(at + 2)) {
                out.push(dest.to_string());
            }
        }
        // `patch [ORIGINAL [PATCH]]`: ORIGINAL is changed; `-o OUT` writes OUT instead, and
        // `-d DIR` changes the files the patch names under DIR (GNU patch refuses absolute
        // names and `..` in them).
        "patch" => {
            let valued = [
                "-i",
                "--input",
                "-o",
                "--output",
                "-d",
                "--directory",
                "-p",
                "-F",
                "-D",
                "-r",
                "-z",
                "-B",
                "-Y",
                "-V",
            ];
            let mut rest = args.iter();
            let mut operands = Vec::new();
            let mut output = None;
            let mut directory = None;
            while let Some(arg) = rest.next() {
                let (name, value) = match arg.split_once('=') {
                    Some((n, v)) if n.starts_with("--") => (n, Some(v.to_string())),
                    _ => (arg.as_str(), None),
                };
                let value = |rest: &mut std::slice::Iter<'_, String>| {
                    value.clone().or_else(|| rest.next().cloned())
                };
                match name {
                    "-o" | "--output" => output = value(&mut rest),
                    "-d" | "--directory" => directory = value(&mut rest),
                    _ if valued.contains(&name) => {
                        value(&mut rest);
                    }
                    _ if name.starts_with('-') && name.len() > 1 => {}
                    _ => operands.push(arg.clone()),
                }
            }
            match (output, directory, operands.first()) {
                (Some(output), _, _) => out.push(output),
                (None, Some(dir), _) => out.push(format!("{}/…", dir.trim_end_matches('/'))),
                (None, None, Some(original)) => out.push(original.clone()),
                _ => {}
            }
        }
        // `git apply --unsafe-paths --directory=DIR`: the patch's files under DIR, wherever
        // it is (without `--unsafe-paths` git keeps them in the work tree).
        "git" if words.first() == Some(&"apply") && args.iter().any(|a| a == "--unsafe-paths") => {
            let dir = args.iter().enumerate().find_map(|(at, a)| {
                a.strip_prefix("--directory=")
                    .map(str::to_string)
                    .or_else(|| {
                        (a == "--directory")
                            .then(|| args.get(at + 1).cloned())
                            .flatten()
                    })
            });
            if let Some(dir) = dir {
                out.push(format!("{}/…", dir.trim_end_matches('/')));
            }
        }
        // `git checkout REF -- PATHS`, `git restore [--source REF] PATHS`: the paths are
        // written with what another commit holds (`.claude/settings.json` from a branch).
        "git" if matches!(words.first(), Some(&("checkout" | "restore"))) => {
            match args.iter().position(|a| a == "--") {
                Some(at) => out.extend(args.iter().skip(at + 1).cloned()),
                None if words.first() == Some(&"restore") => {
                    let valued = ["-s", "--source"];
                    let mut rest = args.iter().skip(1);
                    while let Some(arg) = rest.next() {
                        if valued.contains(&arg.as_str()) {
                            rest.next();
                        } else if !arg.starts_with('-') {
                            out.push(arg.clone());
                        }
                    }
                }
                None => {}
            }
        }
        // chezmoi writes the person's dotfiles into the home folder from its source.
        "chezmoi" if matches!(words.first(), Some(&("apply" | "update"))) => {
            out.push("~/…".to_string());
        }
        // yadm is git whose work tree is the home folder: what brings other files into a
        // work tree brings them into the person's dotfiles (`yadm clone URL -f`, `yadm
        // pull`, `yadm checkout -- ~/.bashrc`), and `alt` and `decrypt` write there too.
        "yadm"
            if matches!(
                words.first(),
                Some(
                    &("alt"
                        | "am"
                        | "checkout"
                        | "cherry-pick"
                        | "clone"
                        | "decrypt"
                        | "merge"
                        | "pull"
                        | "rebase"
                        | "reset"
                        | "restore"
                        | "revert"
                        | "stash"
                        | "switch")
                )
            ) =>
        {
            out.push("~/…".to_string());
        }
        // `rename EXPR FILES` (Perl's: `rename 's/a/b/' *.txt`, `-e EXPR`) and `rename FROM
        // TO FILES` (util-linux's): every file is renamed where it is. A dry run (`-n`,
        // `--no-act`, `--nono`, `--dry-run`) renames nothing.
        "rename" | "prename" | "file-rename" | "perl-rename"
            if !args.iter().any(|a| {
                matches!(
                    a.as_str(),
                    "-n" | "--no-act"
                        | "--nono"
                        | "--dry-run"
                        | "--help"
                        | "-h"
                        | "-V"
                        | "--version"
                )
            }) =>
        {
            let given = args.iter().any(|a| a == "-e" || a == "-E");
            let perl = |w: &str| {
                let mut chars = w.chars();
                match (chars.next(), chars.next()) {
                    (Some('s' | 'y'), Some(c)) => !c.is_alphanumeric() && !c.is_whitespace(),
                    (Some('t'), Some('r')) => chars.next().is_some_and(|c| !c.is_alphanumeric()),
                    _ => false,
                }
            };
            let skip = match words.first() {
                _ if given => 0,
                Some(first) if cmd.program() != "rename" || perl(first) => 1,
                Some(_) => 2,
                None => 0,
            };
            out.extend(words.iter().skip(skip).map(|w| w.to_string()));
        }
        // `ddrescue IN OUT [MAP]`: what it rescues is written to OUT.
        "ddrescue" => out.extend(words.get(1).map(|w| w.to_string())),
        // `rsync -n`: a dry run writes nothing.
        "rsync" if has_flag(args, Some('n'), &["dry-run"]) => {}
        "cp" | "mv" | "install" | "ln" | "rsync" => {
            let into = args.iter().enumerate().find_map(|(at, a)| {
                if a == "-t" || a == "--target-directory" {
                    args.get(at + 1).cloned()
                } else {
                    a.strip_prefix("--target-directory=").map(str::to_string)
                }
            });
            let (folder, sources) = match into {
                Some(into) => (Some(into), &words[..]),
                None => match words.split_last() {
                    Some((dest, sources)) if !sources.is_empty() => {
                        (Some(dest.to_string()), sources)
                    }
                    _ => (None, &[][..]),
                },
            };
            if let Some(folder) = folder {
                // Into a folder (`cp -r template/.claude .`, `cp x ~/`, `-t DIR`): each source
                // lands under its own name there.
                let is_folder = folder.ends_with('/')
                    || matches!(folder.as_str(), "." | ".." | "~")
                    || cmd
                        .args()
                        .iter()
                        .any(|a| a == "-t" || a.starts_with("--target-directory"));
                if is_folder {
                    for source in sources.iter().filter(|s| !s.contains(['$', '`', '*'])) {
                        let name = place::basename(source.trim_end_matches('/'));
                        if !name.is_empty() && !matches!(name, "." | "..") {
                            out.push(format!("{}/{name}", folder.trim_end_matches('/')));
                        }
                    }
                }
                out.push(folder);
            }
        }
        "sed" | "perl"
            if args
                .iter()
                .any(|a| a.starts_with("-i") || a == "--in-place" || a.starts_with("-pi")) =>
        {
            out.extend(in_place_files(cmd.program(), args));
        }
        // `setcap cap_setuid+ep /usr/bin/python3` changes what the file may do when it runs
        // (`-v` only verifies). `touch -c` makes no file: it only moves the times of one that
        // is there.
        "touch" | "truncate" | "chmod" | "chown" | "chgrp" | "mkdir" | "setfacl" | "chattr"
        | "setcap"
            if !only_checks_or_times(cmd.program(), args) =>
        {
            out.extend(
                words
                    .iter()
                    .skip(usize::from(matches!(
                        cmd.program(),
                        "chmod" | "chown" | "chgrp" | "setfacl" | "setcap"
                    )))
                    .map(|w| w.to_string()),
            );
        }
        // Windows' owners and permissions: `icacls PATH /grant …` (its first word),
        // `takeown /f PATH`.
        "icacls" => out.extend(args.first().cloned()),
        "takeown" => out.extend(
            args.iter()
                .position(|a| a.eq_ignore_ascii_case("/f") || a.eq_ignore_ascii_case("-f"))
                .and_then(|at| args.get(at + 1))
                .cloned(),
        ),
        // A compressor replaces each file it is given with the packed (or unpacked) one,
        // unless it writes to stdout, keeps the original, lists or tests.
        "gzip" | "gunzip" | "bzip2" | "bunzip2" | "xz" | "unxz" | "lzma" | "unlzma"
        | "compress" | "lzip" | "pigz" | "pbzip2"
            if !args.iter().any(|a| {
                matches!(
                    a.as_str(),
                    "--stdout" | "--to-stdout" | "--keep" | "--list" | "--test"
                ) || (a.starts_with('-')
                    && !a.starts_with("--")
                    && a.chars()
                        .skip(1)
                        .any(|c| matches!(c, 'c' | 'k' | 'l' | 't')))
            }) =>
        {
            // A folder is packed only with `-r`: without it the compressor says it is a
            // directory and skips it (`gzip -d --force * /etc`). Only a folder every system
            // has is known for one here; any other path may be a file.
            let recursive = has_flag(args, Some('r'), &["recursive"]);
            out.extend(
                words
                    .iter()
                    .filter(|w| recursive || !is_system_folder(w))
                    .map(|w| w.to_string()),
            );
        }
        "dd" => out.extend(
            args.iter()
                .filter_map(|a| a.strip_prefix("of=").map(str::to_string)),
        ),
        "curl" => {
            if let Some(pos) = args.iter().position(|a| a == "-o" || a == "--output") {
                out.extend(args.get(pos + 1).cloned());
            }
        }
        "wget" => {
            if let Some(pos) = args
                .iter()
                .position(|a| a == "-O" || a == "--output-document")
            {
                out.extend(args.get(pos + 1).cloned().filter(|f| f != "-"));
            }
        }
        // `visudo -c` (`-cf FILE`, `--check`) checks the file's syntax and writes nothing;
        // otherwise it edits the file `-f` names, or the sudoers file itself.
        "visudo"
            if !args.iter().any(|a| {
                a == "--check" || (a.starts_with('-') && !a.starts_with("--") && a.contains('c'))
            }) =>
        {
            let file = args
                .iter()
                .position(|a| a == "-f" || a == "--file")
                .and_then(|at| args.get(at + 1).cloned());
            out.push(file.unwrap_or_else(|| "/etc/sudoers".to_string()));
        }
        // `ssh-keygen -R host` rewrites the known hosts file (`-f` names another).
        "ssh-keygen" if args.iter().any(|a| a == "-R") => {
            let file = args
                .iter()
                .position(|a| a == "-f")
                .and_then(|at| args.get(at + 1).cloned());
            out.push(file.unwrap_or_else(|| "~/.ssh/known_hosts".to_string()));
        }
        // A capture written to a file.
        "tcpdump" | "tshark" | "ngrep" => {
            let flag = if cmd.program() == "ngrep" { "-O" } else { "-w" };
            if let Some(at) = args.iter().position(|a| a == flag) {
                out.extend(args.get(at + 1).cloned().filter(|f| f != "-"));
            }
        }
        // What an archive is extracted into: `tar -xf a.tar -C DIR`, `unzip a.zip -d DIR`,
        // `cpio -pdm DIR` (pass-through copies into DIR).
        "tar" if extracts(args) => {
            let dir = args.iter().enumerate().find_map(|(at, a)| {
                if a == "-C" || a == "--directory" {
                    args.get(at + 1).cloned()
                } else {
                    a.strip_prefix("--directory=").map(str::to_string)
                }
            });
            out.extend(dir);
        }
        // The archive made, added to or updated: `tar -czf /foo/a.tgz .`, `zip -r out.zip
        // dir`, `7z a out.7z dir`; what is extracted where: `7z x a.7z -oDIR`.
        "tar" if builds(args) => out.extend(tar_archive(args).filter(|file| file != "-")),
        "zip" => out.extend(words.first().map(|w| w.to_string())),
        "7z" | "7za" | "7zr" => match words.first().copied() {
            Some("a" | "u" | "d" | "rn") => out.extend(words.get(1).map(|w| w.to_string())),
            Some("x" | "e") => out.extend(
                args.iter()
                    .find_map(|a| a.strip_prefix("-o").map(str::to_string)),
            ),
            _ => {}
        },
        "unzip" => {
            if let Some(at) = args.iter().position(|a| a == "-d") {
                out.extend(args.get(at + 1).cloned());
            }
        }
        "cpio"
            if args
                .iter()
                .any(|a| a.starts_with('-') && !a.starts_with("--") && a.contains('p')) =>
        {
            out.extend(words.last().map(|w| w.to_string()));
        }
        // `cpio -o -O /target/a.cpio` (or `-F`, `--file=`): the archive it makes.
        "cpio" => out.extend(args.iter().enumerate().find_map(|(at, a)| {
            if a == "-O" || a == "-F" || a == "--file" {
                args.get(at + 1).cloned()
            } else {
                a.strip_prefix("--file=").map(str::to_string)
            }
        })),
        _ => {}
    }
    out
}

/// `tar -x…`, `tar x…`, `tar --extract`: it writes what the archive holds.
fn extracts(args: &[String]) -> bool {
    args.iter().any(|a| a == "--extract" || a == "--get")
        || args.first().is_some_and(|first| {
            let flags = first.strip_prefix('-').unwrap_or(first);
            !first.starts_with("--") && flags.contains('x')
        })
        || args
            .iter()
            .any(|a| a.starts_with('-') && !a.starts_with("--") && a.contains('x'))
}

/// `tar -c…`, `tar r…`, `--create`, `--append`, `--update`, `--concatenate`: it writes the
/// archive.
fn builds(args: &[String]) -> bool {
    let first_cluster = args.first().is_some_and(|first| {
        !first.starts_with("--") && {
            let flags = first.strip_prefix('-').unwrap_or(first);
            flags.chars().any(|c| matches!(c, 'c' | 'r' | 'u' | 'A'))
        }
    });
    first_cluster
        || args.iter().any(|a| {
            matches!(
                a.as_str(),
                "--create" | "--append" | "--update" | "--concatenate" | "--catenate"
            ) || (a.starts_with('-')
                && !a.starts_with("--")
                && a.chars().skip(1).any(|c| matches!(c, 'c' | 'r' | 'u')))
        })
}

/// The archive `tar` reads or writes: `--file=X`, `--file X`, `-f X`, a cluster ending in
/// `f` followed by it (`-czf X`, `cvf X`), or `-fX`.
fn tar_archive(args: &[String]) -> Option<String> {
    for (at, arg) in args.iter().enumerate() {
        if let Some(file) = arg.strip_prefix("--file=") {
            return Some(file.to_string());
        }
        if arg == "--file" {
            return args.get(at + 1).cloned();
        }
        let cluster = match arg.strip_prefix('-') {
            Some(rest) if !rest.starts_with('-') => rest,
            // The old style's first word, without its dash (`tar cvf a.tar dir`).
            None if at == 0 => arg.as_str(),
            _ => continue,
        };
        if let Some(f) = cluster.find('f') {
            let after = cluster.get(f + 1..).unwrap_or("");
            return if after.is_empty() || at == 0 && !arg.starts_with('-') {
                args.get(at + 1).cloned()
            } else {
                Some(after.to_string())
            };
        }
    }
    None
}

/// Folders of the home folder a desktop client keeps in step with its cloud: what is put
/// there is uploaded.
const SYNCED: &[&str] = &[
    "Box",
    "Box Sync",
    "Dropbox",
    "Google Drive",
    "GoogleDrive",
    "Library/CloudStorage",
    "Library/Mobile Documents",
    "MEGA",
    "MEGAsync",
    "Nextcloud",
    "OneDrive",
    "ownCloud",
    "pCloudDrive",
    "Sync",
    "iCloud Drive",
];

/// The synced folder (of [`SYNCED`]) `abs` is in, if any: `~/Dropbox/x` is in `Dropbox`.
fn synced_folder(abs: &str, home: &str) -> Option<&'static str> {
    let rel = in_home(abs, home.trim_end_matches('/'))?;
    SYNCED.iter().copied().find(|folder| {
        rel.strip_prefix(folder)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
            || rel.starts_with(&format!("{folder} ("))
    })
}

/// A copy or a move of a secrets file or a key into a folder synced to a cloud (`cp .env
/// ~/Dropbox/`, `rsync -a ~/.ssh ~/OneDrive/`): it leaves this machine as a send does.
fn synced_copy(cmd: &Command, place: Place<'_>, scan: &mut Scan<'_>) {
    if !matches!(cmd.program(), "cp" | "mv" | "rsync" | "install" | "ditto") {
        return;
    }
    let words = positional(cmd.args());
    let Some((dest, sources)) = words.split_last() else {
        return;
    };
    let Some(folder) = place
        .resolve(dest)
        .and_then(|abs| synced_folder(&abs, place.home))
    else {
        return;
    };
    for source in sources {
        super::net::file_leaves(
            scan,
            source,
            &format!("~/{folder}, which its client uploads"),
        );
    }
}

/// What `rsync` deletes on this machine: with `--delete` (and its kin), whatever in the
/// destination the sources don't have, so everything under it when they are empty (`rsync
/// -a --delete /tmp/empty/ ~/` empties the home folder); with `--remove-source-files`, the
/// files it sent, so the home folder or `/` sent away is everything under it gone, as `mv ~`
/// is. A destination or a source on another host (`host:path`) is not this machine's.
fn rsync_deletes(cmd: &Command, place: Place<'_>, scan: &mut Scan<'_>) {
    let args = cmd.args();
    if has_flag(args, Some('n'), &["dry-run"]) {
        return;
    }
    let words = positional(args);
    let Some((dest, sources)) = words.split_last() else {
        return;
    };
    let remote = |w: &str| {
        w.split_once(':')
            .is_some_and(|(host, _)| !host.is_empty() && !host.contains('/'))
    };
    let literal = |w: &str| !w.contains(['$', '`']);
    if args
        .iter()
        .any(|a| a == "--del" || a.starts_with("--delete"))
        && !sources.is_empty()
        && !remote(dest)
    {
        let under = format!("{}/*", dest.trim_end_matches('/'));
        delete(&under, true, place, scan);
    }
    if args.iter().any(|a| a == "--remove-source-files") {
        for source in sources.iter().filter(|s| !remote(s) && literal(s)) {
            moved_away(source, cmd, place, scan);
        }
    }
}

/// A source a move takes away (`mv`, `rsync --remove-source-files`): changed where it was, as
/// a written file is; `/` or the home folder moved away is everything under it gone.
fn moved_away(source: &str, cmd: &Command, place: Place<'_>, scan: &mut Scan<'_>) {
    let whole = place.resolve(source).is_some_and(|abs| {
        abs == "/" || abs.trim_end_matches('/') == place.home.trim_end_matches('/')
    });
    if whole {
        delete(source, true, place, scan);
    } else {
        write(source, cmd, place, scan);
    }
}

/// Where the desktop's trash keeps what was thrown away (freedesktop.org's).
const TRASH: &str = "~/.local/share/Trash/*";

/// The paths a command puts in the trash: moved there, taken back from it only by hand
/// (`trash-put F`, `trash F`, `gio trash F`, `gtrash put F`, `kioclient move F trash:/`).
fn trashed(cmd: &Command) -> Vec<&str> {
    let args = cmd.args();
    let words = positional(args);
    match cmd.program() {
        "trash-put" | "trash" => words,
        "gio" | "gtrash" if matches!(words.first(), Some(&("trash" | "put"))) => {
            words.get(1..).unwrap_or(&[]).to_vec()
        }
        "kioclient" | "kioclient5" | "kioclient6"
            if words.first() == Some(&"move") && words.last() == Some(&"trash:/") =>
        {
            words
                .get(1..words.len().saturating_sub(1))
                .unwrap_or(&[])
                .to_vec()
        }
        _ => Vec::new(),
    }
}

/// The files `truncate` cuts to nothing: its size given as 0 (`-s 0`, `-s0`, `--size=0`,
/// `--size 0`), the operands that aren't an option's value.
fn truncated_to_nothing(args: &[String]) -> Option<Vec<&str>> {
    let mut files = Vec::new();
    let mut empties = false;
    let mut words = args.iter().map(String::as_str);
    while let Some(arg) = words.next() {
        match arg {
            "-s" | "--size" => empties |= words.next() == Some("0"),
            "-r" | "--reference" => {
                words.next();
            }
            _ if arg.starts_with("--size=") => empties |= arg == "--size=0",
            _ if arg.starts_with("-s") && !arg.starts_with("--") => empties |= arg == "-s0",
            _ if arg.starts_with('-') => {}
            _ => files.push(arg),
        }
    }
    empties.then_some(files)
}

/// The files `sed -i` or `perl -pi` rewrites: its operands, but the script. The script is
/// the first operand unless an option gives it (`sed -i -e '1d' -e '$d' f`, `sed -i -f
/// script.sed f`, `perl -pi -e 's/a/b/' f`), whose value is no file either.
fn in_place_files(program: &str, args: &[String]) -> Vec<String> {
    // Options whose value follows as a word of its own (`-e SCRIPT`), and the long ones
    // that take it after `=` too.
    let script_options: &[&str] = match program {
        "sed" => &["-e", "--expression", "-f", "--file"],
        _ => &["-e", "-E"],
    };
    let other_valued: &[&str] = match program {
        // Only options known to take the next word: one read as valued wrongly would hide a
        // file (`-s` is `--separate`, with no value).
        "sed" => &["-l", "--line-length"],
        _ => &[],
    };
    let mut operands = Vec::new();
    let mut scripted = false;
    let mut rest = args.iter();
    let mut options_end = false;
    while let Some(arg) = rest.next() {
        if options_end || !arg.starts_with('-') || arg == "-" {
            operands.push(arg.clone());
            continue;
        }
        if arg == "--" {
            options_end = true;
        } else if script_options.contains(&arg.as_str()) {
            scripted = true;
            rest.next();
        } else if script_options
            .iter()
            .any(|o| o.starts_with("--") && arg.starts_with(&format!("{o}=")))
        {
            scripted = true;
        } else if other_valued.contains(&arg.as_str()) {
            rest.next();
        } else if program == "sed" && !arg.starts_with("--") {
            // A cluster ending in a script option takes the next word (`-ne`, `-i.bak`
            // aside: `-i` takes its suffix attached).
            let cluster = arg.trim_start_matches('-');
            if !cluster.starts_with('i') && (cluster.ends_with('e') || cluster.ends_with('f')) {
                scripted = true;
                rest.next();
            }
        } else if program != "sed" && !arg.starts_with("--") {
            // perl's `-pie 's/a/b/'`, `-pi.bak -e …`: `e` last in a cluster takes the code.
            let cluster = arg.trim_start_matches('-');
            if cluster.ends_with('e') && !cluster.contains('.') {
                scripted = true;
                rest.next();
            }
        }
    }
    operands.into_iter().skip(usize::from(!scripted)).collect()
}

/// `setcap -v` (verifies), `touch -c` (moves the times of a file that is there, makes none).
pub(super) fn only_checks_or_times(program: &str, args: &[String]) -> bool {
    match program {
        "setcap" => args.iter().any(|a| a == "-v"),
        "touch" => has_flag(args, Some('c'), &["no-create"]),
        _ => false,
    }
}

/// Does the command delete files these rules judge by where they are (`cmake -E rm -r
/// build`)? Its words say nothing more.
pub(super) fn deletes_files(cmd: &Command) -> bool {
    // A program nobody lists named for deleting is read by its words too.
    let named = named_to_delete(cmd.program())
        && (crate::catalogue::program(cmd.program()).is_none() || own_script(cmd));
    !named && deleted(cmd).is_some()
}

/// A program run by a path into the work folder (`./truncate`, `scripts/wipe-cache`): the
/// project's own script, whatever program of the same name the catalogue keeps.
fn own_script(cmd: &Command) -> bool {
    cmd.words
        .first()
        .is_some_and(|word| word.contains('/') && !word.starts_with(['/', '~', '$']))
}

/// Files a command deletes, and whether recursively.
fn deleted(cmd: &Command) -> Option<(Vec<&str>, bool)> {
    let args = cmd.args();
    // `find . -exec ./truncate {} \;`: the project's script named for emptying, not the
    // system's `truncate`.
    if own_script(cmd) && named_to_delete(cmd.program()) {
        return Some((positional(args), true));
    }
    match cmd.program() {
        // `rmdir` removes only empty folders: nothing is lost, so it deletes nothing here.
        // `srm` and `wipe` delete as `rm` does, overwriting first.
        "rm" | "unlink" | "srm" | "wipe" => Some((
            positional(args),
            has_flag(args, Some('r'), &["recursive"]) || has_flag(args, Some('R'), &[]),
        )),
        // Without `-u` it leaves the file, its contents overwritten: lost all the same.
        "shred" => Some((positional(args), false)),
        // Node's `rm -rf`: every operand with what is under it.
        "rimraf" => Some((positional(args), true)),
        // `cmake -E rm -r`, `remove`, `remove_directory` (whole): CMake's own file commands.
        "cmake" if args.first().is_some_and(|a| a == "-E") => {
            let rest = args.get(2..).unwrap_or(&[]);
            match args.get(1).map(String::as_str) {
                Some("rm") => Some((
                    positional(rest),
                    has_flag(rest, Some('r'), &[]) || has_flag(rest, Some('R'), &[]),
                )),
                Some("remove") => Some((positional(rest), false)),
                Some("remove_directory") => Some((positional(rest), true)),
                _ => None,
            }
        }
        // Cut to nothing (`truncate -s 0 F`), a file's contents are lost as a shred's are.
        "truncate" => truncated_to_nothing(args).map(|files| (files, false)),
        "find" if args.iter().any(|a| a == "-delete") => {
            let search = crate::shell::search("find", args)?;
            Some((search.starts, !search.narrows))
        }
        // The trash emptied (`trash-empty`, `gio trash --empty`) or cleared of what a
        // pattern names (`trash-rm '*'`): what was thrown away earlier is gone for good.
        "trash-empty" | "trash-rm"
            if !args
                .iter()
                .any(|a| matches!(a.as_str(), "-h" | "--help" | "--version")) =>
        {
            Some((vec![TRASH], true))
        }
        "gio"
            if args.first().is_some_and(|a| a == "trash")
                && args.iter().any(|a| a == "--empty") =>
        {
            Some((vec![TRASH], true))
        }
        // A program nobody lists whose own name says it deletes (`wipe-logs.sh /var/log/app`,
        // `find DIR -exec truncate.sh {} \;`) deletes the paths it is given, for all warden
        // can tell: what it does to them is its own, so it may take a folder whole.
        name if named_to_delete(name) && crate::catalogue::program(name).is_none() => {
            Some((positional(args), true))
        }
        _ => None,
    }
}

/// Is a part of the program's name (`wipe-logs.sh`, `truncate.sh`, `deleteOld.py`) a verb of
/// deleting or emptying?
fn named_to_delete(name: &str) -> bool {
    super::words::parts(name).iter().any(|part| {
        matches!(
            part.as_str(),
            "del"
                | "delete"
                | "destroy"
                | "erase"
                | "nuke"
                | "prune"
                | "purge"
                | "remove"
                | "rm"
                | "shred"
                | "truncate"
                | "wipe"
        )
    })
}

/// The `find` whose paths `cmd` gets as `{}`: the one that runs it (`-exec rm {} \;`), or
/// runs the shell whose text it is (`-exec sh -c 'rm "$1"' _ {} \;`, `-exec sh -c 'rm {}' \;`).
fn finder<'s>(cmd: &Command, scan: &'s Scan<'_>) -> Option<&'s Command> {
    use crate::shell::Via;
    let holder = match cmd.via {
        Via::FindExec => scan.parent(cmd)?,
        Via::ShellC => {
            let shell = scan.parent(cmd)?;
            if shell.via != Via::FindExec {
                return None;
            }
            scan.parent(shell)?
        }
        _ => return None,
    };
    matches!(holder.program(), "find" | "gfind" | "fd" | "fdfind").then_some(holder)
}

pub(super) fn judge(cmd: &Command, scan: &mut Scan<'_>) {
    let place = scan.place;
    runs_by_itself(cmd, scan);
    secret_hunt(cmd, scan);
    // `find START … -exec rm {} \;`: `{}` is each file found under START.
    if let Some(finder) = finder(cmd, scan)
        && let Some((targets, _)) = deleted(cmd)
        && targets.iter().any(|t| t.contains("{}"))
    {
        let search = crate::shell::search(finder.program(), finder.args());
        let starts: Vec<String> = search
            .iter()
            .flat_map(|search| &search.starts)
            .map(|s| format!("{}/*", s.trim_end_matches('/')))
            .collect();
        // With nothing to narrow what find matches, `find / -exec rm -rf {} \;` takes
        // everything under its start, as `rm -rf /*` does (a plain `rm` every file).
        let everything = search.is_some_and(|search| !search.narrows);
        for start in starts {
            delete(&start, everything, place, scan);
        }
    }
    // `find START … -exec gzip {} \;`: what is written in place is each file under START.
    let found_under: Vec<String> = match finder(cmd, scan) {
        Some(finder) => crate::shell::search(finder.program(), finder.args())
            .iter()
            .flat_map(|search| &search.starts)
            .map(|s| format!("{}/*", s.trim_end_matches('/')))
            .collect(),
        _ => Vec::new(),
    };
    synced_copy(cmd, place, scan);
    for target in written(cmd) {
        if target.contains("{}") && !found_under.is_empty() {
            for start in &found_under {
                write(start, cmd, place, scan);
            }
        } else {
            write(&target, cmd, place, scan);
            editor_runs(&target, cmd, place, scan);
        }
    }
    if let Some((targets, recursive)) = deleted(cmd) {
        // `find START … -delete` deletes what it finds under START, as `-exec rm {} \;`
        // does: `find /tmp -name '*.tmp' -delete` is a temporary folder's own files.
        let found = cmd.program() == "find";
        for target in targets {
            if found {
                delete(
                    &format!("{}/*", target.trim_end_matches('/')),
                    recursive,
                    place,
                    scan,
                );
            } else {
                delete(target, recursive, place, scan);
            }
        }
    }
    // What `mv` moves leaves where it was: a source is changed as a written file is, and `/`
    // or the home folder moved away is everything under it gone from there.
    if cmd.program() == "mv" {
        let args = cmd.args();
        let words = positional(args);
        let into = args
            .iter()
            .any(|a| a == "-t" || a.starts_with("--target-directory"));
        let sources = if into {
            &words[..]
        } else {
            words.split_last().map_or(&[][..], |(_, rest)| rest)
        };
        // A source only known when it runs (`mv "$f" "unix_$f"`, `{}`) is left to where it
        // goes: most are the work folder's own files renamed.
        let literal = |w: &&&str| !w.contains(['$', '`']) && !w.contains("{}");
        for source in sources.iter().filter(literal) {
            moved_away(source, cmd, place, scan);
        }
    }
    // What goes to the trash leaves where it was, as what `mv` moves away does.
    for source in trashed(cmd)
        .into_iter()
        .filter(|w| !w.contains(['$', '`']) && !w.contains("{}"))
    {
        moved_away(source, cmd, place, scan);
    }
    if cmd.program() == "rsync" {
        rsync_deletes(cmd, place, scan);
    }
    // `usermod -aG sudo x`, `useradd -G wheel,dev x`, `adduser x sudo`: a group that is the
    // administrator's, alone or in a list.
    if matches!(cmd.program(), "usermod" | "gpasswd" | "adduser" | "useradd")
        && cmd.args().iter().any(|a| {
            a.split(',').any(|group| {
                matches!(
                    group,
                    "sudo" | "wheel" | "admin" | "root" | "administrators"
                )
            })
        })
    {
        scan.add(
            Risk::new(
                RuleId::SystemSudoers,
                Harm::Severe,
                true,
                "give a user administrator rights",
            )
            .never(),
        );
    }
    // `usermod -aG docker $USER`: a group whose members are root in all but name (the
    // docker and LXD daemons run what they are told as root; `disk` writes every disk). Not
    // sudoers, so the person's words lift it ("add me to the docker group"), but asked before
    // reading: what it gives lasts for every later session. The person names the group as
    // a group, in their language ("add me to the docker group", "füge mich zur
    // docker-Gruppe hinzu"): an add alone, or docker alone, is not it.
    if matches!(cmd.program(), "usermod" | "gpasswd" | "adduser" | "useradd")
        && let Some(group) = cmd.args().iter().find_map(|a| {
            a.split(',').find(|group| {
                matches!(
                    *group,
                    "docker" | "lxd" | "incus-admin" | "libvirt" | "disk"
                )
            })
        })
    {
        scan.add(
            Risk::new(
                RuleId::WordsGrant,
                Harm::Severe,
                true,
                format!("give a user the {group} group, root in all but name"),
            )
            .wish(Wish::new(Act::Update).naming(Name::AnyOf(group_names(group)))),
        );
    }
    read_keys(cmd, scan);
}

/// A group named as a group in the seven languages the person's words are read in, as
/// folding writes them (lower case, no accents, a hyphen kept or a space).
fn group_names(group: &str) -> Vec<String> {
    [
        format!("{group} group"),
        format!("{group} gruppe"),
        format!("{group}-gruppe"),
        format!("groupe {group}"),
        format!("grupo {group}"),
        format!("gruppo {group}"),
        format!("{group} groep"),
        format!("{group}-groep"),
    ]
    .into()
}

/// A name made by `date` (`` `date +%d%m%Y`_archive.tar ``, `$(date -u +%F)-dump.sql`,
/// `` `date '+%Y%m%d_backup.tgz'` ``), written as `date` would print it, each conversion a
/// digit: a format with no slash and no conversion that can print one (`%D`, the locale's
/// `%x` and `%c`) prints one name in the folder the command runs in. `None` for anything
/// else a command prints, which stays a place only known when it runs.
fn dated_name(target: &str) -> Option<String> {
    let (open, close) = if target.starts_with("$(") {
        ("$(", ')')
    } else if target.starts_with('`') {
        ("`", '`')
    } else {
        return None;
    };
    let inner_and_rest = &target[open.len()..];
    let end = inner_and_rest.find(close)?;
    let (inner, rest) = (&inner_and_rest[..end], &inner_and_rest[end + 1..]);
    if inner.contains(['$', '`', '(', ')', ';', '|', '&', '<', '>', '\\', '\n']) {
        return None;
    }
    let mut words = inner.split_whitespace();
    if words.next() != Some("date") {
        return None;
    }
    let mut printed = None;
    let mut value_next = false;
    for word in words {
        let word: String = word.chars().filter(|c| !matches!(c, '\'' | '"')).collect();
        if value_next {
            value_next = false;
        } else if let Some(format) = word.strip_prefix('+') {
            printed = Some(date_format(format)?);
        } else if matches!(word.as_str(), "-d" | "--date" | "-r" | "--reference") {
            value_next = true;
        } else if !(word.starts_with("--date=")
            || matches!(word.as_str(), "-u" | "--utc" | "--universal"))
        {
            return None;
        }
    }
    Some(format!("{}{rest}", printed?))
}

/// `date`'s format as it prints it, each conversion a digit; `None` when a conversion may
/// print a slash, or is not one `date` has.
fn date_format(format: &str) -> Option<String> {
    let mut out = String::new();
    let mut chars = format.chars();
    while let Some(c) = chars.next() {
        if c == '/' {
            return None;
        }
        if c != '%' {
            out.push(c);
            continue;
        }
        // Flags and a width (`%-d`, `%_H`, `%03N`), then the conversion.
        let conversion = chars
            .by_ref()
            .find(|c| !matches!(c, '-' | '_' | '0'..='9' | '^' | '#' | ':'))?;
        match conversion {
            'a' | 'A' | 'b' | 'B' | 'C' | 'd' | 'e' | 'F' | 'g' | 'G' | 'h' | 'H' | 'I' | 'j'
            | 'k' | 'l' | 'm' | 'M' | 'N' | 'p' | 'P' | 'q' | 's' | 'S' | 'T' | 'u' | 'U' | 'V'
            | 'w' | 'W' | 'y' | 'Y' | 'z' | 'Z' | 'R' | 'r' => out.push('0'),
            '%' => out.push('%'),
            _ => return None,
        }
    }
    Some(out)
}

/// The paths a command substitution prints, when it is one search whose folders are
/// known (`$(find src -name '*.js')`, `$(grep -rl foo src)`, `$(rg -l foo)`, `$(git ls-files
/// -m)`, `$(ls scripts/*.sh)`): each folder with `…` under it (`*` when nothing narrows what find finds), for the
/// path rules to judge where they are, as `find src | xargs …` is judged. `None` for anything else, which stays a place only known
/// when it runs.
fn printed_paths(target: &str) -> Option<Vec<String>> {
    let inner = target
        .strip_prefix("$(")
        .and_then(|t| t.strip_suffix(')'))
        .or_else(|| target.strip_prefix('`').and_then(|t| t.strip_suffix('`')))?;
    let line = crate::shell::Line::parse(inner);
    let [cmd] = line.commands.as_slice() else {
        return None;
    };
    if line.unknown.is_some() || !cmd.redirects.is_empty() || cmd.dynamic_program {
        return None;
    }
    let program = cmd.program();
    let args = cmd.args();
    // What a search finds with nothing to narrow it (`find /`, `find . -maxdepth 1`) is
    // everything under its folder, as `rm -rf /*` is; else some of it.
    let mut leaf = "…";
    let folders: Vec<&str> = if let Some(search) = crate::shell::search(program, args) {
        if !search.narrows {
            leaf = "*";
        }
        search.starts
    } else {
        match program {
            "grep" | "egrep" | "fgrep" | "rg" | "ag" | "ack" => {
                let names_files = has_flag(args, Some('l'), &["files-with-matches"])
                    || (program == "rg" && args.iter().any(|a| a == "--files"));
                let recursive = !matches!(program, "grep" | "egrep" | "fgrep")
                    || has_flag(args, Some('r'), &["recursive"])
                    || has_flag(args, Some('R'), &["dereference-recursive"]);
                if !names_files {
                    return None;
                }
                // The pattern is the first operand unless an option gives it.
                let given = args.iter().any(|a| {
                    matches!(a.as_str(), "-e" | "-f" | "--files")
                        || a.starts_with("--regexp")
                        || a.starts_with("--file=")
                });
                let operands: Vec<&str> = positional(args)
                    .into_iter()
                    .skip(usize::from(!given))
                    .collect();
                match operands.as_slice() {
                    [] if recursive => vec!["."],
                    [] => return None,
                    _ => operands,
                }
            }
            // What it is given (`$(ls scripts/*.sh)`, `$(ls -d ~/*)`), or what is in a folder
            // (`$(ls build)`, `$(ls)`: everything here, as `*` is).
            "ls" => {
                let whole = has_flag(args, Some('d'), &["directory"]);
                let operands = positional(args);
                let listed = |word: &str| {
                    if whole || word.contains(['*', '?', '[']) {
                        word.to_string()
                    } else {
                        format!("{}/*", word.trim_end_matches('/'))
                    }
                };
                return Some(if operands.is_empty() {
                    vec!["*".to_string()]
                } else {
                    operands.into_iter().map(listed).collect()
                });
            }
            // The repository's own files, named from the folder it runs in.
            "git" => {
                let words = positional(args);
                let lists = matches!(words.first(), Some(&"ls-files"))
                    || (matches!(words.first(), Some(&"diff"))
                        && args.iter().any(|a| a == "--name-only"));
                if !lists
                    || args
                        .iter()
                        .any(|a| a.starts_with("-C") || a.starts_with("--git-dir"))
                {
                    return None;
                }
                vec!["."]
            }
            _ => return None,
        }
    };
    Some(
        folders
            .iter()
            .map(|folder| format!("{}/{leaf}", folder.trim_end_matches('/')))
            .collect(),
    )
}

pub(super) fn write(target: &str, cmd: &Command, place: Place<'_>, scan: &mut Scan<'_>) {
    if let Some(name) = dated_name(target) {
        return write(&name, cmd, place, scan);
    }
    let Some(abs) = place.resolve_under_prefix(target) else {
        if let Some(printed) = printed_paths(target) {
            for path in printed {
                write(&path, cmd, place, scan);
            }
            return;
        }
        // `$HOME/.ssh/authorized_keys`: the home folder is known, so the place is. Read
        // again only when that changed the target: `$X/sudoers` stays a place only known
        // when it runs (and is not read again for ever).
        let homed = target
            .replace("$HOME", place.home)
            .replace("${HOME}", place.home);
        if homed != target
            && (target.contains("authorized_keys")
                || target.contains("sudoers")
                || is_assistant_file(target))
        {
            write(&homed, cmd, place, scan);
        } else if !target.starts_with("&") && !target.chars().all(|c| c.is_ascii_digit()) {
            scan.add(Risk::new(
                RuleId::WriteOutside,
                Harm::Moderate,
                !creates_only(cmd) && !inert_name(target),
                format!("write to {target}, a place only known when it runs"),
            ));
        }
        return;
    };
    if let Some(mut risk) = write_risk(&abs, place) {
        if risk.rule == RuleId::WriteOutside && creates_only(cmd) {
            risk.lasting = false;
        }
        // `mkdir -p .claude`: a folder made empty holds no permission yet.
        if risk.rule == RuleId::AssistantPermissions
            && is_assistant_folder(&abs)
            && creates_only(cmd)
        {
            return;
        }
        scan.add(risk);
    }
}

/// Extensions of files that do nothing by themselves: archives, logs, tables, images, a
/// backup's copy. No startup file, key, unit, hook or program is named so.
const INERT_EXTENSIONS: &[&str] = &[
    "7z", "bak", "bz2", "csv", "gif", "gz", "jpeg", "jpg", "log", "pdf", "png", "rar", "tar",
    "tgz", "tmp", "tsv", "xz", "zip", "zst",
];

/// A place only known when it runs whose name ends in an inert extension written out
/// (`"$archive.tar"`, `${OUT}/run.log`): whatever it names, it is no file that runs or
/// unlocks anything, so what it overwrites is at most data of that kind, not lasting harm.
fn inert_name(target: &str) -> bool {
    let name = target.rsplit('/').next().unwrap_or(target);
    name.rsplit_once('.').is_some_and(|(stem, extension)| {
        !stem.is_empty() && INERT_EXTENSIONS.contains(&extension.to_ascii_lowercase().as_str())
    })
}

/// A write that only makes something new and overwrites nothing: `mkdir` (an empty folder),
/// `touch` (an empty file, or a time stamp), `ln` without `-f` (it fails where a file
/// is). Outside the work folder it is still a change, but not a lasting one: removing it
/// takes it back, and nothing was lost. A redirect overwrites, so it is not one.
fn creates_only(cmd: &Command) -> bool {
    let redirects = cmd
        .redirects
        .iter()
        .any(|r| matches!(r.op, RedirectOp::Write | RedirectOp::Append));
    let forced = || {
        cmd.args().iter().any(|a| {
            a == "--force" || (a.starts_with('-') && !a.starts_with("--") && a.contains('f'))
        })
    };
    !redirects
        && match cmd.program() {
            "mkdir" | "touch" => true,
            "ln" => !forced(),
            _ => false,
        }
}

/// What writing the file `abs` risks, wherever the write comes from: a shell redirect, `cp`,
/// or a file tool. `None` for the work folder, temporary folders and sinks.
pub(crate) fn write_risk(abs: &str, place: Place<'_>) -> Option<Risk> {
    if place::is_sink(abs) {
        return None;
    }
    let name = place::basename(abs).to_string();
    let update = || Wish::new(Act::Update).naming(Name::one(&name));
    let risk = if is_assistant_file(abs) {
        Risk::new(
            RuleId::AssistantPermissions,
            Harm::Severe,
            true,
            format!("change {abs}, an assistant's own permission file: an agent could raise its own powers with it"),
        )
        .never()
        .irreducible()
    } else if name == "authorized_keys" || name == "authorized_keys2" {
        Risk::new(
            RuleId::SystemAuthorizedKeys,
            Harm::Severe,
            true,
            format!("change {abs}, which decides who can log in to this machine"),
        )
        .never()
    } else if abs == "/etc/sudoers" || place::under(abs, "/etc/sudoers.d") {
        Risk::new(
            RuleId::SystemSudoers,
            Harm::Severe,
            true,
            format!("change {abs}, which decides who is administrator"),
        )
        .never()
    } else if abs.starts_with("/dev/") && is_disk(abs) {
        Risk::new(
            RuleId::CriticalDiskWrite,
            Harm::Severe,
            true,
            format!("write straight onto the disk {abs}"),
        )
        .critical()
    } else if let Some(what) = git_runs(abs) {
        Risk::new(
            RuleId::PersistGitHooks,
            Harm::Moderate,
            true,
            format!("change {abs}, {what}"),
        )
        .wish(update())
    } else if let Some(what) = assistant_instructions(abs) {
        Risk::new(
            RuleId::AssistantInstructions,
            Harm::Moderate,
            true,
            format!("change {abs}, {what}"),
        )
        .wish(update())
    } else if let Some(folder) = shadows_program(abs, place) {
        Risk::new(
            RuleId::PersistStartup,
            Harm::Severe,
            true,
            format!("put a program named {name} in {folder}, ahead of the real one: the next `{name}` run in a shell runs this"),
        )
        .wish(update())
    } else if is_startup_file(abs, place) {
        Risk::new(
            RuleId::PersistStartup,
            Harm::Severe,
            true,
            format!("change {abs}, which runs by itself at every new shell or login"),
        )
        .wish(update())
    } else if place.inside_work(abs) || place::is_temp(abs) || place::is_temp(&format!("{abs}/x")) {
        // The work folder is the agent's to change; Undo keeps it. Temporary folders are thrown away.
        return None;
    } else if place::is_system(abs) && !place.in_home(abs) {
        Risk::new(
            RuleId::WriteSystem,
            Harm::Severe,
            true,
            format!("change the system file {abs}"),
        )
        .wish(update())
    } else {
        // Under the home folder, a boundary on it holds the change ("hands off my home
        // folder", "ne touche pas à mon dossier personnel").
        let wish = if place.in_home(abs) {
            update().targeting(Name::AnyOf(
                HOME_NAMES.iter().map(|name| (*name).to_string()).collect(),
            ))
        } else {
            update()
        };
        Risk::new(
            RuleId::WriteOutside,
            Harm::Moderate,
            true,
            format!("change {abs}, outside the work folder"),
        )
        .wish(wish)
    };
    Some(risk)
}

/// The home folder as the person names it, in the seven languages (folded, lower case).
const HOME_NAMES: &[&str] = &[
    "carpeta personal",
    "cartella home",
    "cartella personale",
    "diretorio pessoal",
    "directorio personal",
    "dossier personnel",
    "heimverzeichnis",
    "home dir",
    "home directory",
    "home folder",
    "home-map",
    "home-ordner",
    "home-verzeichnis",
    "homeverzeichnis",
    "pasta pessoal",
    "persoonlijke map",
    "repertoire personnel",
    "thuismap",
];

/// Folders of the home folder that shells put on the PATH ahead of the system's (by the
/// distribution's profile, or the installer that made them: `~/.local/bin`, `~/bin`,
/// `~/.cargo/bin`, …).
const USER_BINS: &[&str] = &[
    ".bun/bin",
    ".cargo/bin",
    ".deno/bin",
    ".local/bin",
    ".npm-global/bin",
    ".volta/bin",
    "bin",
    "go/bin",
];

/// The folder `abs` is in when it puts a program the catalogue knows (`git`, `ls`, `sudo`,
/// `python3`) in a folder of the home folder on the PATH: every later run of that name in a
/// shell runs the file instead. A program of the person's own name (`~/.local/bin/mytool`)
/// shadows nothing.
fn shadows_program(abs: &str, place: Place<'_>) -> Option<String> {
    let (folder, name) = abs.rsplit_once('/')?;
    let inside = folder.strip_prefix(place.home)?.strip_prefix('/')?;
    if !USER_BINS.contains(&inside) || name.is_empty() {
        return None;
    }
    crate::catalogue::program(name)
        .filter(|program| program.name == name)
        .map(|_| folder.replacen(place.home, "~", 1))
}

/// An assistant's standing instructions (each is read into every later session as what the
/// person wants), and the scripts an assistant's hooks run by themselves.
#[rustfmt::skip]
const INSTRUCTION_FILES: &[&str] = &[
    ".clinerules", ".cursorrules", ".github/copilot-instructions.md", ".windsurfrules", "AGENTS.md",
    "AGENTS.override.md", "CLAUDE.local.md", "CLAUDE.md", "GEMINI.md",
];

/// Folders whose files an assistant reads as commands, agents, skills or rules.
#[rustfmt::skip]
const INSTRUCTION_FOLDERS: &[&str] = &[
    ".claude/agents", ".claude/commands", ".claude/skills", ".codex/prompts", ".cursor/rules",
    ".gemini/commands", ".github/instructions", ".github/prompts", ".windsurf/rules",
];

/// What an assistant's file is, when it is one of its standing instructions or a script its
/// hooks run: written after reading, a page's words would give the next session its orders.
fn assistant_instructions(abs: &str) -> Option<&'static str> {
    if INSTRUCTION_FILES
        .iter()
        .any(|file| ends_with_segments(abs, file))
    {
        return Some("an assistant's standing instructions, which every later session of it obeys");
    }
    if INSTRUCTION_FOLDERS
        .iter()
        .any(|folder| names_segments(abs, folder) && !ends_with_segments(abs, folder))
    {
        return Some("one of an assistant's commands, agents or rules, which later sessions obey");
    }
    (names_segments(abs, ".claude/hooks") && !ends_with_segments(abs, ".claude/hooks"))
        .then_some("a script an assistant's hooks run by themselves at its later steps")
}

/// A repository's file git runs by itself: a hook (`.git/hooks/pre-commit`, not a
/// `.sample`), or its config, whose settings run commands (`core.hooksPath`,
/// `core.fsmonitor`, `core.sshCommand`, an alias with `!`). Written, what it holds runs on
/// the person's next commit, checkout or push, outside any step warden sees.
fn git_runs(abs: &str) -> Option<&'static str> {
    let (_, after) = abs.rsplit_once("/.git/")?;
    if let Some(hook) = after.strip_prefix("hooks/") {
        return (!hook.is_empty() && !hook.ends_with(".sample") && !hook.contains('/')).then_some(
            "a git hook, which git runs by itself on later commits, checkouts or pushes",
        );
    }
    (after == "config").then_some(
        "the repository's git config, whose settings git runs as commands (hooks, aliases, fsmonitor)",
    )
}

/// `$DIR/`, `"${DIR}"/*`: a path that is `/` (or everything under it) when the
/// variable is empty.
fn empty_variable_is_root(target: &str) -> bool {
    let Some(rest) = target.strip_prefix('$') else {
        return false;
    };
    let after = match rest.strip_prefix('{') {
        Some(inner) => match inner.split_once('}') {
            Some((name, after)) if !name.contains([':', '-', '=', '?', '+']) => after,
            _ => return false,
        },
        None => rest.trim_start_matches(|c: char| c.is_ascii_alphanumeric() || c == '_'),
    };
    // `rm -rf "$DIR"` with DIR empty removes "" and fails; `"$DIR/"` is `/`. A `..` after it
    // climbs by a depth only known when it runs (`$TMPDIR/../etc`): a system folder or `/`
    // itself when the variable is empty or shallow.
    matches!(after, "/" | "/*" | "/.") || after.split('/').any(|part| part == "..")
}

pub(super) fn is_disk(abs: &str) -> bool {
    let dev = abs.trim_start_matches("/dev/");
    [
        "sd", "hd", "vd", "xvd", "nvme", "mmcblk", "disk", "rdisk", "md", "dm-", "mapper/", "loop",
        // SCSI generic devices (a raw command reaches the disk behind it), network block devices.
        "sg", "nbd",
    ]
    .iter()
    .any(|prefix| dev.starts_with(prefix))
}

pub(super) fn delete(target: &str, recursive: bool, place: Place<'_>, scan: &mut Scan<'_>) {
    let glob_root =
        target == "/*" || target == "~/*" || target == "$HOME/*" || target == "${HOME}/*";
    let base = match target.strip_suffix("/*").unwrap_or(target) {
        "" => "/",
        base => base,
    };
    let Some(abs) = place.resolve_under_prefix(base) else {
        if let Some(printed) = printed_paths(base) {
            for path in printed {
                delete(&path, recursive, place, scan);
            }
            return;
        }
        // `rm -rf "$DIR/"` is `rm -rf /` when DIR is empty or unset: severe.
        let empty_is_root = recursive && empty_variable_is_root(target);
        // `rm -rf "$(cd ~ && pwd)"`, `rm -rf $(getent passwd $USER | cut -d: -f6)`: what a
        // command prints, computed from the home folder, may well be it.
        let from_home = recursive
            && target.contains(['$', '`'])
            && (target.contains("$(") || target.contains('`'))
            && ["~", "HOME", "passwd", "USERPROFILE"]
                .iter()
                .any(|home| target.contains(home));
        let (harm, reason) = if empty_is_root {
            (
                Harm::Severe,
                format!(
                    "delete {target}, which is / or a folder of the system's when the variable is empty"
                ),
            )
        } else if from_home {
            (
                Harm::Severe,
                format!(
                    "delete {target}, what a command prints from the home folder, which may be all of it"
                ),
            )
        } else {
            (
                Harm::Moderate,
                format!("delete {target}, a place only known when it runs"),
            )
        };
        scan.add(Risk::new(RuleId::DeleteUnknown, harm, true, reason).wish(Wish::new(Act::Delete)));
        return;
    };
    // `rm -rf *` (or `.`, `./*`) takes the folder it runs in: after `cd ~` that is the home.
    // `.*` too: every hidden file there (`.git`, `.env`, `.ssh` in the home folder).
    let here = matches!(target, "*" | "./*" | "." | "./" | ".*" | "./.*");
    let folder = if here { place.cwd } else { abs.as_str() };
    let everything = place::is_root_like(folder)
        || place.is_home(folder)
        || (glob_root && (abs == "/" || place.is_home(&abs)));
    if everything && recursive {
        scan.add(
            Risk::new(
                RuleId::CriticalWipe,
                Harm::Severe,
                true,
                format!("delete everything under {folder}"),
            )
            .critical(),
        );
        return;
    }
    if is_assistant_file(&abs) {
        scan.add(
            Risk::new(
                RuleId::AssistantPermissions,
                Harm::Severe,
                true,
                format!("delete {abs}, an assistant's own permission file"),
            )
            .never()
            .irreducible(),
        );
        return;
    }
    let folder = folder.trim_end_matches("/*");
    let whole_work = folder.trim_end_matches('/') == place.work.trim_end_matches('/');
    if here && !whole_work {
        // The whole of another folder: judged as that folder is.
        if !place.inside_work(folder) && !place::is_temp(folder) && recursive {
            let name = place::basename(folder).to_string();
            scan.add(
                Risk::new(
                    RuleId::DeleteOutside,
                    Harm::Severe,
                    true,
                    format!("delete everything in {folder}, outside the work folder, which Undo can't bring back"),
                )
                .wish(Wish::new(Act::Delete).naming(Name::one(&name))),
            );
        }
        return;
    }
    if recursive && whole_work && !place::is_temp(&abs) {
        // The whole work folder (`rm -rf .`, `rm -rf *`, `find . -delete`): Undo keeps it,
        // but everything the project has goes at once: severe, not lasting, as discarding
        // changes is (seed 002).
        let name = place::basename(&abs).to_string();
        scan.add(
            Risk::new(
                RuleId::DeleteWorkFolder,
                Harm::Severe,
                false,
                "delete everything in the work folder".to_string(),
            )
            .wish(Wish::new(Act::Delete).naming(Name::AnyOf(vec![name, "everything".to_string()]))),
        );
        return;
    }
    // `rm -rf .git`: the repository's history, with every commit, branch and stash not pushed
    // anywhere, as `git reflog expire` with `gc --prune=now` throws away.
    if recursive && place::basename(&abs) == ".git" && place.inside_work(&abs) {
        scan.add(
            Risk::new(
                RuleId::GitDiscard,
                Harm::Severe,
                false,
                format!("delete {abs}, the repository's history: commits, branches and stashes not pushed can't be got back"),
            )
            .wish(Wish::new(Act::Discard)),
        );
        return;
    }
    // `rm -rf /tmp/*`: what is in a temporary folder, not the folder itself.
    let in_temp = target.ends_with("/*") && place::is_temp(&format!("{abs}/x"));
    if place.inside_work(&abs) || place::is_temp(&abs) || in_temp || is_cache(&abs, place) {
        return;
    }
    let name = place::basename(&abs).to_string();
    let what = if place::is_system(&abs) && !place.in_home(&abs) {
        "the system's"
    } else {
        "outside the work folder"
    };
    scan.add(
        Risk::new(
            RuleId::DeleteOutside,
            Harm::Severe,
            true,
            format!("delete {abs}, {what}, which Undo can't bring back"),
        )
        .wish(Wish::new(Act::Delete).naming(Name::one(&name))),
    );
}

/// The person's cache folder or something in it (`~/.cache/pip`, `~/Library/Caches/x`): what
/// a program keeps there it makes again when it is gone, so deleting it loses nothing
/// (writing there is still a write: a cache can be poisoned).
fn is_cache(abs: &str, place: Place<'_>) -> bool {
    in_home(abs, place.home.trim_end_matches('/')).is_some_and(|rel| {
        [".cache", "Library/Caches"]
            .iter()
            .any(|cache| place::under(rel, cache))
    })
}

fn read_keys(cmd: &Command, scan: &mut Scan<'_>) {
    let program = cmd.program();
    let args = cmd.args();
    // git's credential helpers print what they keep for a host (`git credential fill`,
    // `git credential-osxkeychain get`, `git credential-store get`).
    let git_credential = program == "git" && {
        let words = positional(args);
        words.windows(2).any(|pair| {
            (pair[0] == "credential" && matches!(pair[1], "fill" | "get"))
                || (pair[0].starts_with("credential-") && pair[1] == "get")
        })
    };
    if git_credential {
        super::net::key_leaves(scan, "print a password or token git keeps for a host");
        return;
    }
    // A credential helper run by itself speaks its protocol: `get` prints what it keeps for
    // the host on its input (`git-credential-manager get`, `docker-credential-desktop get`);
    // `list` names hosts and users, and `store`/`erase` print nothing.
    let helper = ["git-credential-", "docker-credential-"]
        .iter()
        .find(|prefix| program.len() > prefix.len() && program.starts_with(*prefix));
    if helper.is_some() && positional(args).first().is_some_and(|w| *w == "get") {
        super::net::key_leaves(
            scan,
            &format!("print the password or token {program} keeps for a host"),
        );
        return;
    }
    // scp and rsync are judged by where they send; a copy on this machine (`rsync ~/.ssh/
    // ./keys/`, `scp ~/.ssh/id_rsa ./k`) takes the keys where the agent reads them, as `cp`.
    let local_copy = matches!(program, "scp" | "rsync")
        && !positional(cmd.args())
            .iter()
            .any(|w| w.contains(':') && !w.starts_with(['/', '.', '~']));
    if KEY_SAFE.contains(&program) && !local_copy {
        return;
    }
    // The home folder packed or copied whole (`tar czf h.tgz ~`, `zip -r h.zip ~`, `cp -r ~
    // /mnt/b`) takes its keys with it.
    if let Some(abs) = packed(cmd)
        .iter()
        .filter_map(|source| scan.place.resolve(source))
        .find(|abs| holds_keys(abs, &scan.place))
    {
        super::net::key_leaves(scan, &format!("pack {abs} whole, the keys in it with it"));
        return;
    }
    let home = scan.place.home;
    let words = cmd.args().iter().map(String::as_str);
    let inputs = cmd
        .redirects
        .iter()
        .filter(|r| r.op == RedirectOp::Read)
        .map(|r| r.target.as_str());
    let folders_may = may_name_key(scan.place.cwd) || may_name_key(home);
    for word in words.chain(inputs) {
        let word = word
            .split_once('=')
            .map_or(word, |(_, v)| v)
            .trim_start_matches('@');
        let named = is_ssh_key_name(basename_of(word))
            || is_key_container(basename_of(word))
            || is_credentials_file(basename_of(word))
            || word.starts_with("/etc/ssl/private");
        if !folders_may && !named && !may_name_key(word) {
            continue;
        }
        // Another process's environment by a variable's pid (`/proc/$PPID/environ`) is one
        // whichever process it is.
        let process_env = word.starts_with("/proc/$") && word.ends_with("/environ");
        if let Some(abs) = scan
            .place
            .resolve(word)
            .or_else(|| process_env.then(|| word.to_string()))
            && (is_key_path(&abs, home) || (named && is_key_at(&abs, &scan.place)))
        {
            super::net::key_leaves(scan, &format!("read {abs} with {program}"));
            return;
        }
        // A container's, a pod's or another machine's path (`kubectl cp app:/var/run/secrets/…
        // .`, `docker cp web:/run/secrets/db .`): its own absolute path, a mounted secret
        // there as here.
        if let Some((_, remote)) = word.split_once(":/")
            && let remote = format!("/{remote}")
            && MOUNTED_SECRETS.iter().any(|dir| place::under(&remote, dir))
        {
            super::net::key_leaves(scan, &format!("read {word} with {program}"));
            return;
        }
    }
    let keychain = match program {
        "security" => args.iter().any(|a| {
            matches!(
                a.as_str(),
                "dump-keychain" | "find-generic-password" | "find-internet-password" | "export"
            )
        }),
        "secret-tool" => args.iter().any(|a| a == "lookup"),
        _ => false,
    };
    if keychain {
        super::net::key_leaves(scan, "read a password or key from the keychain");
    }
}

/// A key or token in the line's words, or a long encoded blob (carriesSecrets).
pub(super) fn secrets_in_args(text: &str, scan: &mut Scan<'_>) {
    if let Some(kind) = crate::secrets::secret_kind(text) {
        scan.add(Risk::new(
            RuleId::SecretsInArgs,
            Harm::Severe,
            false,
            format!("the command carries {kind}"),
        ));
    }
}

/// A folder every Unix-like system has, by its path (`/etc`, `/usr/`, `/`): never a file.
fn is_system_folder(path: &str) -> bool {
    const FOLDERS: &[&str] = &[
        "bin", "boot", "dev", "etc", "home", "lib", "opt", "proc", "root", "run", "sbin", "srv",
        "sys", "tmp", "usr", "var",
    ];
    let trimmed = path.trim_end_matches('/');
    (trimmed.is_empty() && path.starts_with('/'))
        || trimmed
            .strip_prefix('/')
            .is_some_and(|name| FOLDERS.contains(&name))
}

#[cfg(test)]
mod tests {
    use super::{is_credentials_file, may_name_key, names_segments};

    #[test]
    fn credentials_files_are_told_by_their_whole_name_and_format() {
        for name in [
            "credentials",
            "credentials.json",
            "gcp-credentials.yaml",
            "aws_credentials.ini",
            "api_keys.txt",
            "apikey",
            "openai-api-key.txt",
            "client_secret_42.apps.googleusercontent.com.json",
            "token.json",
            "secrets.toml",
            "secrets.prod.yaml",
            "service-account.json",
            "my_service_account_key.json",
            "passwords.csv",
            "Credentials.JSON",
        ] {
            assert!(is_credentials_file(name), "{name}");
        }
        for name in [
            "credentials.py",
            "credentials.rs",
            "secrets.md",
            "secret_santa.txt",
            "tokenizer.json",
            "token_counts.csv",
            "tokens.py",
            "passwd",
            "README",
            "keys.json",
            ".json",
        ] {
            assert!(!is_credentials_file(name), "{name}");
        }
    }

    #[test]
    fn names_segments_finds_what_match_indices_would() {
        let rels = ["a/a", "a", ".ssh", ".config/autostart", "bin", "", "é/b"];
        for abs in [
            "",
            "/",
            "/a/a/a",
            "xa/a/a",
            "/xa/a/a/",
            "a/a",
            "/a",
            "/home/user/.ssh/config",
            "/home/user/x.ssh",
            "/home/user/.config/autostart/x.desktop",
            "/home/user/.config/autostartx",
            "/usr/local/bin",
            "/usr/local/binx/bin/",
            "/é/b/é/b",
        ] {
            for rel in rels {
                let plain = abs.match_indices(rel).any(|(at, _)| {
                    abs[..at].ends_with('/') && {
                        let rest = &abs[at + rel.len()..];
                        rest.is_empty() || rest.starts_with('/')
                    }
                });
                assert_eq!(names_segments(abs, rel), plain, "{abs:?} {rel:?}");
            }
        }
    }

    #[test]
    fn may_name_key_finds_what_each_word_contained_would() {
        const WORDS: &[&str] = &[
            "Keychains",
            "etc",
            "secrets",
            "Cookies",
            "Login Data",
            "Web Data",
            "proc",
        ];
        for text in [
            "",
            ".",
            "/home/user/app",
            "/home/user/.ssh/id_rsa",
            "~/Library/Keychains/login.keychain-db",
            "/etc/shadow",
            "fetch",
            "et",
            "Keychain",
            "run/secrets/db",
            "Default/Cookies",
            "Login Dat",
            "Default/Login Data",
            "Default/Web Data",
            "src/main.rs",
        ] {
            let plain = text.contains('.') || WORDS.iter().any(|word| text.contains(word));
            assert_eq!(may_name_key(text), plain, "{text:?}");
        }
    }
}
