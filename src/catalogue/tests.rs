//! The catalogue's own checks: sorted and unique, every family line exists, and every class
//! has a program that must have it and a look-alike that must not.

use super::*;

#[test]
fn lines_are_sorted_unique_and_lower_case() {
    for pair in CATALOGUE.windows(2) {
        if let [a, b] = pair {
            assert!(a.name < b.name, "{} must come before {}", a.name, b.name);
        }
    }
    for line in CATALOGUE {
        assert_eq!(line.name, line.name.to_ascii_lowercase(), "{}", line.name);
        assert!(!line.name.ends_with(".exe"), "{}", line.name);
    }
}

#[test]
fn every_line_is_found_by_its_name_and_nothing_else_is() {
    for line in CATALOGUE {
        let found = find(line.name).map(|found| found.name);
        assert_eq!(found, Some(line.name), "{}", line.name);
        // Its name with a byte more, less or changed is another name.
        for other in [
            format!("{}x", line.name),
            format!("x{}", line.name),
            line.name
                .get(..line.name.len() - 1)
                .unwrap_or("")
                .to_string(),
            format!("{}\0", line.name),
        ] {
            if let Some(found) = find(&other) {
                assert_eq!(found.name, other, "{other} found as {}", found.name);
            }
        }
    }
    for word in [
        "",
        "-",
        "zzzzzzzzzzzzzzzzzzzz",
        "git status",
        "docker-composer",
    ] {
        assert!(find(word).is_none_or(|found| found.name == word), "{word}");
    }
}

#[test]
fn the_words_kept_answer_as_a_look_up_does() {
    // Names, look-alikes, a suffix, a helper, a path, a word of 16 bytes and one of 17, and
    // words that differ only past their eighth byte or in their length: asked in turn and
    // again, more of them than the memo keeps, each answer is the look-up's.
    let words = [
        "git",
        "gi",
        "git\0",
        "python3",
        "python3.12",
        "mount.nfs",
        "/usr/bin/Git",
        "",
        "rg",
        "kubectl",
        "kubectl-",
        "aaaaaaaabbbbbbbb",
        "aaaaaaaabbbbbbbbc",
        "aaaaaaaabbbbbbbc",
        "docker-compose",
        "docker-composf",
        "npm",
        "npx",
        "GIT.EXE",
    ];
    for round in 0..3 {
        for (n, word) in words.iter().enumerate() {
            let word = if round == 1 {
                words[(n * 7) % words.len()]
            } else {
                word
            };
            let kept = program(word).map(|line| line.name);
            assert_eq!(kept, look_up(word).map(|line| line.name), "{word:?}");
            assert_eq!(program(word).map(|line| line.name), kept, "{word:?} again");
        }
    }
}

#[test]
fn every_family_is_a_line_of_its_own() {
    for line in CATALOGUE {
        if let Some(family) = line.of {
            let found = find(family).unwrap_or_else(|| unreachable!("{family} for {}", line.name));
            assert!(
                found.of.is_none(),
                "{} → {family} → another family",
                line.name
            );
            assert!(
                line.classes.is_empty(),
                "{} takes its family's classes",
                line.name
            );
        }
    }
}

#[test]
fn names_resolve_as_the_shell_runs_them() {
    for (word, want) in [
        ("python3.12", "python"),
        ("/usr/bin/Python3", "python"),
        ("pypy3", "python"),
        ("gawk", "awk"),
        ("mawk", "awk"),
        ("nodejs", "node"),
        (
            "C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe",
            "pwsh",
        ),
        ("perl5.36", "perl"),
        ("lua5.1", "lua"),
        ("pip3", "pip"),
        ("php8.2", "php"),
        ("BASH", "bash"),
        ("base64", "base64"),
        ("sha256sum", "sha256sum"),
        ("./configure", "configure"),
        ("frobnicate", "frobnicate"),
        ("x.exe", "x"),
        ("mount.nfs", "mount"),
        ("/sbin/mount.steamos", "mount"),
        ("fsck.ext4", "fsck"),
        ("grub2-install", "grub-install"),
        ("mount.sh", "mount.sh"),
        ("mountpoint", "mountpoint"),
        ("git.wip", "git.wip"),
    ] {
        assert_eq!(name(word), want, "{word}");
    }
}

#[test]
fn every_class_has_a_program_and_a_look_alike_that_is_not() {
    let cases: &[(Class, &str, &str)] = &[
        (Class::Shell, "mksh", "mkshrc"),
        (Class::Shell, "yash", "yasm"),
        (Class::Shell, "rbash", "rbac"),
        (Class::Source, "source", "sourcery"),
        (Class::Interpreter, "python3.12", "pythonic"),
        (Class::Interpreter, "pypy3", "pypyx"),
        (Class::Interpreter, "osascript", "script"),
        (Class::Wrapper, "xargs", "xarg"),
        (Class::Wrapper, "systemd-run", "systemd"),
        (Class::Runs, "kubectl", "kubectx"),
        (Class::ProjectRunner, "make", "makedepend"),
        (Class::Downloader, "wget", "wgetrc"),
        (Class::Network, "whois", "who"),
        (Class::Mail, "swaks", "swak"),
        (Class::Relay, "socat", "socks"),
        (Class::Tunnel, "ngrok", "ngrep"),
        (Class::Tunnel, "chisel", "chsh"),
        (Class::Server, "http-server", "http-proxy"),
        (Class::Secrets, "vault", "vaultwarden-server"),
        (Class::Attack, "hydra", "hydrate"),
        (Class::Attack, "GetUserSPNs.py", "getusers.py"),
        (Class::Agent, "claude", "claudette"),
        (Class::Agent, "aider", "aide"),
        (Class::Secrets, "secret-tool", "secret"),
        (Class::Packages, "nvm", "nv"),
        (Class::Services, "systemctl", "system"),
        (Class::System, "mount", "mountpoint"),
        (Class::Acts, "pkill", "pgrep"),
        (Class::Daemon, "bluetoothd", "bluetoothctl"),
        (Class::Daemon, "cupsd", "cups-config"),
        (Class::Acts, "useradd", "ip"),
        (Class::Acts, "fsck.ext4", "fsck.sh"),
        (Class::Disk, "sgdisk", "sg"),
        (Class::Disk, "grub2-install", "grub-mkconfig"),
        (Class::Disk, "pvremove", "pvs"),
        (Class::VersionControl, "git", "gitk"),
        (Class::Cloud, "loft", "lofty"),
        (Class::Keeps, "restic", "rest"),
        (Class::Keeps, "etcdctl", "etcd"),
        (Class::Database, "psql", "psq"),
        (Class::Uploads, "tarsnap", "tar"),
        (Class::Uploads, "ipfs", "ipfw"),
        (Class::Tokens, "oauth2c", "oauth"),
        (Class::Wallet, "solana", "solana-keygen"),
        (Class::Wallet, "lncli", "lnd"),
        (Class::Tokens, "gke-gcloud-auth-plugin", "gcloud"),
        (Class::Agent, "chatgpt", "chat"),
        (Class::Container, "podman", "pod"),
        (Class::Sessions, "tmux", "tmuxp"),
        (Class::Sessions, "pm2", "pmap"),
        (Class::Remover, "shred", "shreds"),
        (Class::Files, "chmod", "chmodx"),
        (Class::Files, "cp", "cpio"),
        (Class::Decoder, "base64", "base"),
        (Class::RemoteAccess, "tmate", "tmux"),
        (Class::Session, "xfreerdp", "freerdp-shadow-cli"),
        (Class::Session, "telnet", "telnetd"),
        (Class::Flood, "wrk", "wc"),
        (Class::Flood, "hey", "head"),
        (Class::RemoteAccess, "ttyd", "tty"),
        (Class::Builtin, "declare", "declared"),
        (Class::ReadOnly, "grep", "grepx"),
        (Class::ReadOnly, "lvscan", "lvremove"),
        (Class::ReadOnly, "tcpdump", "tcpreplay"),
        (Class::Editor, "nvim", "nvimx"),
        (Class::Prints, "jq", "jo"),
        (Class::Global, "pyenv", "pip"),
        (Class::Global, "apt-get", "cargo"),
        (Class::Prints, "gzip", "gzexe"),
        (Class::Prints, "gawk", "wc"),
        (Class::Player, "mpc", "mpd"),
        (Class::Player, "playerctl", "pactl"),
        (Class::Desktop, "pactl", "pacman"),
        (Class::Desktop, "xinput", "xinit"),
        (Class::Index, "updatedb", "update-alternatives"),
        (Class::Index, "mandb", "man"),
        (Class::Tracer, "trace-cmd", "tracepath"),
        (Class::Tracer, "strace", "stress"),
        (Class::Machines, "multipass", "vagrant"),
        (Class::Machines, "virsh", "minikube"),
    ];
    for (class, must, must_not) in cases {
        assert!(is(must, *class), "{must} must be {class:?}");
        assert!(!is(must_not, *class), "{must_not} must not be {class:?}");
    }
    // Every class is named above.
    for line in CATALOGUE {
        for class in line.classes {
            assert!(
                cases.iter().any(|(c, _, _)| c == class),
                "{class:?} (of {}) has no case",
                line.name
            );
        }
    }
}

#[test]
fn interpreters_say_how_they_take_code() {
    for word in [
        "python3",
        "node",
        "perl",
        "ruby",
        "php",
        "lua",
        "rscript",
        "julia",
        "osascript",
        "pwsh",
    ] {
        let found = program(word).and_then(|p| p.code);
        assert!(found.is_some_and(|c| !c.inline.is_empty()), "{word}");
    }
    assert_eq!(
        program("gawk").and_then(|p| p.code).map(|c| c.inline),
        Some(&[""][..])
    );
}
