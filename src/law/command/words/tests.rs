//! The command words' tables (English, folded, sorted, unique, one verb table per word) and
//! what they make of commands: each row a command and the rule it must (or must not) fire.

use super::*;
use crate::facts::FakeFacts;
use crate::law::command::assess;
use std::collections::BTreeMap;

#[test]
fn tables_are_one_english_line_folded_sorted_and_unique() {
    for (name, table) in TABLES {
        assert_eq!(table.len(), 1, "{name} has one line");
        for (lang, entries) in table.iter() {
            assert_eq!(*lang, En, "{name} is English");
            assert!(!entries.is_empty(), "{name} is empty");
            for pair in entries.windows(2) {
                if let [a, b] = pair {
                    assert!(
                        a < b,
                        "{name}: {a:?} must come before {b:?} (sorted, unique)"
                    );
                }
            }
            for entry in entries.iter() {
                let options = matches!(*name, "HELP" | "REMOTE_OPTIONS" | "LISTS");
                let folded = if options {
                    entry.starts_with('-') && !entry.contains(' ')
                } else {
                    parts(entry).join(" ") == *entry
                        || (*name == "STOPS" || *name == "DUMPS" || *name == "LOCAL_NOUNS")
                            && !entry.contains(' ')
                };
                assert!(folded, "{name}: {entry:?} is not folded parts");
                assert!(
                    entry.split(' ').count() <= 2,
                    "{name}: {entry:?} is longer than two parts"
                );
            }
        }
    }
}

#[test]
fn word_lists_searched_by_halves_are_sorted_and_unique() {
    for (name, list) in [
        ("WHEN_OR_WHERE", WHEN_OR_WHERE),
        ("MACHINE_SETTINGS", MACHINE_SETTINGS),
        ("OPENS", OPENS),
    ] {
        assert!(
            list.windows(2).all(|pair| pair[0] < pair[1]),
            "{name} is sorted and unique: {list:?}"
        );
    }
}

#[test]
fn a_verb_is_in_one_verb_table() {
    // PACKAGE_VERBS are CHANGES a packages program reads as installs, and REVERSIBLE is a
    // part of SYSTEM: those overlaps are the design.
    let verbs = [
        ("READS", READS),
        ("REVEALS", REVEALS),
        ("UNVEILS", UNVEILS),
        ("DESTROYS", DESTROYS),
        ("UNPUBLISHES", UNPUBLISHES),
        ("PUBLISHES", PUBLISHES),
        ("DEPLOYS", DEPLOYS),
        ("SENDS", SENDS),
        ("TRANSFERS", TRANSFERS),
        ("GRANTS", GRANTS),
        ("INSTALLS", INSTALLS),
        ("SYSTEM", SYSTEM),
        ("CHANGES", CHANGES),
    ];
    for (i, (a_name, a)) in verbs.iter().enumerate() {
        for (b_name, b) in verbs.iter().skip(i + 1) {
            for (_, words) in a.iter() {
                for word in words.iter() {
                    assert!(!has(b, word), "{word:?} is in {a_name} and {b_name}");
                }
            }
        }
    }
    for (_, words) in REVERSIBLE.iter() {
        for word in words.iter() {
            assert!(
                has(SYSTEM, word),
                "REVERSIBLE {word:?} must be a SYSTEM verb"
            );
        }
    }
    for (_, words) in PACKAGE_VERBS.iter() {
        for word in words.iter() {
            assert!(
                has(CHANGES, word) || word == &"upgrade",
                "PACKAGE_VERBS {word:?} is a change for other programs"
            );
        }
    }
    for (_, words) in NOUN_VERBS.iter() {
        for word in words.iter() {
            let tables = [REVEALS, SENDS];
            assert!(
                tables.iter().any(|t| has(t, word)),
                "NOUN_VERBS {word:?} must be a verb"
            );
        }
    }
}

#[test]
fn words_are_cut_into_parts() {
    for (word, want) in [
        ("get-secret-value", &["get", "secret", "value"][..]),
        ("config:get", &["config", "get"]),
        ("getSecretValue", &["get", "secret", "value"]),
        ("DATABASE_URL", &["database", "url"]),
        ("_authToken", &["auth", "token"]),
        ("set-timezone", &["set", "timezone"]),
        ("web-1", &["web", "1"]),
        ("", &[]),
        // A character past ASCII cuts as any other that isn't a letter or a digit.
        ("héllo-Wörld", &["h", "llo", "w", "rld"]),
        ("aB2cD", &["a", "b2c", "d"]),
        ("ABCdef", &["abcdef"]),
    ] {
        assert_eq!(parts(word), want, "parts({word:?})");
    }
}

#[test]
fn secret_keys_are_told_from_settings() {
    for key in [
        "DATABASE_URL",
        "API_TOKEN",
        "aws_secret_access_key",
        "password",
        "REDIS_URL",
        "//registry.npmjs.org/:_authToken",
    ] {
        assert!(is_secret_key(key), "{key} holds a secret");
    }
    for key in [
        "PORT",
        "project",
        "region",
        "registry",
        "keybindings",
        "url",
    ] {
        assert!(!is_secret_key(key), "{key} holds no secret");
    }
}

fn facts() -> FakeFacts {
    FakeFacts {
        clean: None,
        remotes: Some(BTreeMap::from([(
            "origin".to_string(),
            "git@github.com:acme/app.git".to_string(),
        )])),
        declared: Some(vec!["serde".to_string(), "lodash".to_string()]),
        home: Some("/home/user".to_string()),
        bins: None,
    }
}

/// The rules an assessment found, and the score of this rule's risk (harm + lasting).
fn found(command: &str) -> Vec<(&'static str, u8)> {
    assess(command, "/home/user/app", &facts())
        .risks
        .iter()
        .map(|r| (r.rule.name(), r.base()))
        .collect()
}

#[test]
fn commands_read_by_their_words() {
    // (command, rule, harm + lasting)
    let fires: &[(&str, &str, u8)] = &[
        // Printing a secret: severe, not lasting.
        ("gh auth token", "words.secret", 2),
        ("gh auth status --show-token", "words.secret", 2),
        (
            "vault kv get -field=password secret/prod/db",
            "words.secret",
            2,
        ),
        (
            "kubectl get secret db -o jsonpath='{.data.password}'",
            "words.secret",
            2,
        ),
        ("kubectl get secret db -o yaml", "words.secret", 2),
        (
            "aws secretsmanager get-secret-value --secret-id x",
            "words.secret",
            2,
        ),
        (
            "aws ssm get-parameter --name x --with-decryption",
            "words.secret",
            2,
        ),
        ("aws ecr get-login-password", "words.secret", 2),
        (
            "gcloud secrets versions access latest --secret=x",
            "words.secret",
            2,
        ),
        ("gcloud auth print-access-token", "words.secret", 2),
        (
            "az keyvault secret show --vault-name v --name x",
            "words.secret",
            2,
        ),
        ("op read op://vault/item/password", "words.secret", 2),
        ("pass show email", "words.secret", 2),
        ("doppler secrets download --no-file", "words.secret", 2),
        ("heroku config:get DATABASE_URL", "words.secret", 2),
        ("sops -d secrets.enc.yaml", "words.secret", 2),
        // A private key printed is a key read: NEVER.
        ("gpg --export-secret-keys me", "secrets.key_read", 3),
        ("bitcoin-cli dumpwallet wallet.txt", "secrets.key_read", 3),
        ("charm backup-keys", "secrets.key_read", 3),
        ("kind get kubeconfig", "words.secret", 2),
        // Secrets and access changed: moderate, lasting.
        ("secret-tool store --label=x service x", "words.grant", 2),
        // Every package a machine keeps, upgraded: moderate, lasting.
        ("brew upgrade", "words.install", 2),
        ("rustup update", "words.install", 2),
        ("yum update", "words.install", 2),
        ("gh secret set API_KEY", "words.grant", 2),
        ("gh ssh-key add key.pub", "words.grant", 2),
        ("vault kv put secret/x password=y", "words.grant", 2),
        ("heroku access:add bob@example.com", "words.grant", 2),
        ("frobnicate grant bob admin", "words.grant", 2),
        // Destroying.
        ("npm unpublish pkg@1.0.0", "words.destroy_remote", 3),
        ("cargo yank --version 1.0.0", "words.destroy_remote", 3),
        ("gh cache delete --all", "words.destroy_remote", 3),
        ("loft delete vcluster x", "words.destroy_remote", 3),
        ("vcluster delete x", "words.destroy_remote", 3),
        ("gh codespace delete -c x", "words.destroy_remote", 3),
        ("fly volumes destroy vol_123", "words.destroy_remote", 3),
        // On another host: a remote resource destroyed, severe and lasting.
        (
            "frobnicate delete https://api.example.com/things/1",
            "words.destroy",
            3,
        ),
        ("frobnicate delete old-thing", "words.destroy", 2),
        ("frobctl truncate table users", "words.destroy", 3),
        ("pass rm email", "words.destroy", 2),
        // Sending and publishing.
        ("gsutil cp backup.tar gs://bucket/", "words.send", 2),
        ("rclone copy ./dump drive:backup", "egress.send", 2),
        ("wormhole send secrets.txt", "egress.send", 2),
        ("supabase db push", "words.send", 2),
        ("vsce publish", "words.publish", 3),
        ("mkdocs gh-deploy", "words.deploy", 3),
        ("supabase functions deploy hello", "words.deploy", 3),
        // The machine itself.
        ("systemctl start x", "words.system", 2),
        // A cloud program's own settings on this machine, a package removed from the
        // project: read, and routine (one point).
        ("gh alias delete co", "words.destroy", 1),
        ("kubectl config delete-context old", "words.destroy", 1),
        ("npm uninstall lodash", "words.destroy", 1),
        // A machine's package manager takes it off the machine, outside the work folder.
        ("conda remove -n env --all", "words.destroy", 2),
        ("systemctl restart nginx", "words.system", 2),
        ("sudo systemctl restart nginx", "words.system", 2),
        ("systemctl disable nginx", "words.system", 2),
        ("systemctl set-default graphical.target", "words.system", 2),
        ("kill -9 1234", "words.system", 2),
        ("pkill node", "words.system", 2),
        ("killall node", "words.system", 2),
        ("kill %1 4321", "words.system", 2),
        ("sudo kill -9 1234", "words.system", 2),
        ("mount /dev/sdb1 /mnt", "words.system", 2),
        ("mount --bind /a /b", "words.system", 2),
        ("mount /a /b -o bind", "words.system", 2),
        ("rabbitmqctl add_user alice s3cret", "words.grant", 2),
        ("timedatectl set-timezone Europe/Berlin", "words.system", 2),
        ("hostnamectl set-hostname box", "words.system", 2),
        ("useradd bob", "words.system", 2),
        ("ufw enable", "words.system", 2),
        ("ufw allow 22", "words.system", 2),
        (
            "iptables -A INPUT -p tcp --dport 22 -j ACCEPT",
            "words.system",
            2,
        ),
        ("iptables -F INPUT", "words.system", 2),
        ("ip link set eth0 down", "words.system", 2),
        ("sysctl -w vm.swappiness=10", "words.system", 2),
        (
            "firewall-cmd --permanent --add-port=80/tcp",
            "words.system",
            2,
        ),
        // Installing.
        ("nvm install 20", "words.install", 2),
        ("rustup component add clippy", "words.install", 2),
        ("pyenv install 3.12.0", "words.install", 2),
        ("gh extension install owner/gh-ext", "words.install", 2),
        ("composer self-update", "words.install", 2),
    ];
    let wrong: Vec<String> = fires
        .iter()
        .filter_map(|(command, rule, base)| {
            let risks = found(command);
            (!risks.iter().any(|(r, b)| r == rule && b == base))
                .then(|| format!("{command}: want {rule} at {base}, found {risks:?}"))
        })
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn look_alikes_stay_routine() {
    let spares: &[&str] = &[
        "frobnicate --verbose build",
        "kill %1",
        "kill -9 $!",
        "gh secret list",
        "gh auth status",
        "gh release view v1",
        "gh cache list",
        "kubectl get secrets",
        "kubectl get secret db",
        "kubectl get secret db -o name",
        "kubectl describe secret db",
        "aws secretsmanager list-secrets",
        "aws sts get-caller-identity",
        "aws configure get region",
        "gcloud secrets list",
        "gcloud config get project",
        "az keyvault secret list --vault-name v",
        "vault kv list secret/",
        "vault status",
        "vault --help",
        "pass ls",
        "op item list",
        "op whoami",
        "heroku config:get PORT",
        "npm config get registry",
        "npm run deploy",
        "npm update lodash",
        "cargo update -p serde",
        "pipx run black .",
        "heroku run bash",
        "heroku logs --tail --app delete-me",
        "gh workflow run deploy.yml",
        "gpg --list-keys",
        "gpg --export me",
        "gpg --import key.asc",
        "systemctl status nginx",
        "systemctl list-units",
        "systemctl cat nginx",
        "service --status-all",
        "kill -l",
        "kill -0 1234",
        "iptables -L",
        "iptables -t nat -L -n -v",
        "mount",
        "ip addr",
        "ip route show",
        "ifconfig eth0",
        "hostnamectl",
        "timedatectl list-timezones",
        "ufw status",
        "firewall-cmd --list-all",
        "passwd",
        "nvm use 20",
        "nvm install",
        "brew upgrade node",
        "poetry install --without dev",
        "dotnet publish -c Release",
        "dotnet add reference ../lib/lib.csproj",
        "kubectl wait --for delete pod x",
        "dd if=/dev/zero of=file.img bs=1M count=10",
        "atuin stats -u alice -p secret",
        "calibre-server --username alice --password secret",
        "aws sso list-account-roles --access-token token",
        "chown -R nobody upload_directory",
        "doctl balance g -t access_token",
        "gh project create --owner owner --title project_title",
        "create_ap wlan0 eth0 access_point_ssid passphrase",
        "rt tweet_id",
        "chat 'expect_send_pairs'",
        "vault unseal key_share_x",
        "apt update",
        "npm install",
        "ninja -C build install",
        "vagrant up",
        "minikube start",
        "supabase start",
        "wp post list",
        "wp post create --post_title=x",
        "doctl compute droplet list",
        "loft delete vcluster x --dry-run",
        "gh cache delete --help",
        "frobnicate help delete",
        "frobctl truncate --help",
        "tool delete -h",
        "hg push",
        "dvc push",
        "aws s3 cp s3://bucket/file .",
        "rsync -av src/ dst/",
        "getent passwd",
        "docker rm --help",
        "git branch -D old",
        "make deploy",
        "./scripts/release.sh publish",
        "bin/deploy production",
        "yarn deploy",
    ];
    let wrong: Vec<String> = spares
        .iter()
        .filter_map(|command| {
            let risks = found(command);
            risks
                .iter()
                .any(|(r, _)| r.starts_with("words."))
                .then(|| format!("{command}: want no words rule, found {risks:?}"))
        })
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn a_known_rule_is_never_doubled() {
    for command in [
        "gh release delete v1",
        "security find-generic-password -w -s x",
        "secret-tool lookup service x",
        "npm install left-pad",
        "npm publish",
        "systemctl enable nginx",
        "kill -9 1",
        "gh pr create --fill",
        "terraform destroy",
    ] {
        let risks = found(command);
        assert!(!risks.is_empty(), "{command}: another rule fires");
        assert!(
            !risks.iter().any(|(r, _)| r.starts_with("words.")),
            "{command}: {risks:?} doubles a known rule"
        );
    }
}

#[test]
fn wishes_name_what_makes_it_dangerous() {
    for (command, act, name) in [
        ("loft delete vcluster x", Act::Delete, "x"),
        ("loft delete vcluster x", Act::Delete, "vcluster"),
        ("npm unpublish pkg@1.0.0", Act::Delete, "pkg"),
        ("nvm install 20", Act::Install, "20"),
        ("systemctl restart nginx", Act::Restart, "nginx"),
        (
            "timedatectl set-timezone Europe/Berlin",
            Act::Update,
            "timezone",
        ),
        ("useradd bob", Act::Update, "bob"),
        (
            "vault kv get -field=password secret/prod/db",
            Act::Secrets,
            "vault",
        ),
        ("gh secret set API_KEY", Act::Secrets, "api_key"),
        ("gsutil cp backup.tar gs://bucket/", Act::Send, "bucket"),
    ] {
        let assessment = assess(command, "/home/user/app", &facts());
        let wish = assessment
            .risks
            .iter()
            .find(|r| r.rule.name().starts_with("words."))
            .and_then(|r| r.wish.clone());
        let Some(wish) = wish else {
            unreachable!("{command}: no words risk with a wish");
        };
        assert_eq!(wish.act, act, "{command}");
        let names: Vec<String> = wish
            .names
            .iter()
            .flat_map(|n| match n {
                Name::AnyOf(names) => names.clone(),
                Name::Production => vec!["production".to_string()],
            })
            .collect();
        assert!(
            names.iter().any(|n| n == name),
            "{command}: {name} not among {names:?}"
        );
    }
}

/// `verb_at` looks a part up once in an index of the verb tables; it must say what reading
/// the tables one by one, in order, says.
#[test]
fn the_verb_index_reads_as_the_tables_do() {
    fn by_tables(parts: &[String], at: usize, applies: &[bool; 18]) -> Option<(Verb, usize)> {
        VERB_TABLES
            .iter()
            .zip(applies)
            .filter(|(_, applies)| **applies)
            .find_map(|((table, verb), _)| phrase_at(table, parts, at).map(|len| (*verb, len)))
    }
    let mut words: Vec<&str> = VERB_TABLES
        .iter()
        .flat_map(|(table, _)| table.iter().flat_map(|(_, words)| words.iter().copied()))
        .collect();
    words.extend(["frobnicate", "build", "token", "self", "update", "all"]);
    let programs = [
        "kubectl",
        "vault",
        "apt",
        "npm",
        "systemctl",
        "docker",
        "frob",
        "cargo",
        "multipass",
    ];
    for program in programs {
        let kind = Kind::of(program);
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
        for first in &words {
            let one: Vec<String> = first.split(' ').map(str::to_string).collect();
            for next in ["", "update", "key", "token", "x"] {
                let mut parts = one.clone();
                if !next.is_empty() {
                    parts.push(next.to_string());
                }
                for at in 0..parts.len() {
                    assert_eq!(
                        verb_at(&parts, at, kind).map(|(v, n)| (format!("{v:?}"), n)),
                        by_tables(&parts, at, &applies).map(|(v, n)| (format!("{v:?}"), n)),
                        "{program}: {parts:?} at {at}"
                    );
                }
            }
        }
    }
}

/// A cloud CLI's own setting is the program's, on this machine: not the cloud changed
/// (`infra.change`, severe), but a setting Undo can't take back (moderate, lasting).
#[test]
fn a_cloud_clis_own_setting_is_a_setting_not_the_cloud() {
    for command in [
        "gcloud config set project x",
        "aws configure set region eu-west-1",
        "kubectl config use-context prod",
    ] {
        let risks = found(command);
        assert_eq!(risks, vec![("words.setting", 2)], "{command}");
    }
}
