//! A forge's API called by its own CLI (`gh api`, `glab api`), in the person's name. The
//! method is what it does: the one given (`-X DELETE`, `--method PUT`), else POST as soon
//! as a field or an input is given (`-f key=…`, `-F`, `--input`), as both CLIs do, else GET.
//! A GraphQL call changes something only with a `mutation`.
//!
//! What a change reaches decides its rule, as an app's change is read (ADR 0118):
//! - a delete (`DELETE`, a mutation named `delete…`/`remove…`) destroys what the address
//!   names on the forge: severe and lasting, as `glab api -X DELETE` read by its words is;
//! - an endpoint of access (`/user/keys`, `collaborators`, `hooks`, `members`,
//!   `permissions`, `secrets`, `tokens`…) gives someone access or writes a secret
//!   (`words.grant`, moderate and lasting);
//! - any other change is what others see on the forge, said for the person
//!   (`forge.speaks`, moderate and lasting).
//!
//! A read (`gh api user`, `gh api repos/o/r/pulls`) is routine.

use super::{Scan, host_names};
use crate::law::rule::RuleId;
use crate::verdict::{Harm, Risk};
use crate::wish::{Act, Name, Wish};

/// Options of `gh api` and `glab api` that take a value (the endpoint is the first word
/// that is neither an option nor one's value).
const VALUED: &[&str] = &[
    "--cache",
    "--field",
    "--header",
    "--hostname",
    "--input",
    "--jq",
    "--method",
    "--preview",
    "--raw-field",
    "--template",
    "-F",
    "-H",
    "-X",
    "-f",
    "-q",
    "-t",
];

/// Options that give the request a body, which makes it a POST unless a method is given.
const FIELDS: &[&str] = &["--field", "--input", "--raw-field", "-F", "-f"];

/// An endpoint's words that name access or a secret (its path's segments, or a GraphQL
/// mutation's name in parts).
#[rustfmt::skip]
const ACCESS: &[&str] = &[
    "collaborator", "collaborators", "gpg_keys", "hook", "hooks", "installations", "invitation",
    "invitations", "invite", "keys", "member", "members", "membership", "memberships",
    "permission", "permissions", "protection", "rulesets", "secret", "secrets",
    "ssh_signing_keys", "team", "teams", "token", "tokens", "variables", "webhook", "webhooks",
];

/// Of [`ACCESS`], what writes a secret rather than gives access.
const SECRETS: &[&str] = &["secret", "secrets", "token", "tokens", "variables"];

/// What a call does to the forge.
#[derive(Debug, PartialEq, Eq)]
enum Does {
    Reads,
    Deletes,
    Grants { secret: bool },
    Changes,
}

/// The method as written (`-X delete`, `--method=PUT`), upper case.
fn method(args: &[String]) -> Option<String> {
    let mut words = args.iter();
    while let Some(arg) = words.next() {
        let value = match arg.as_str() {
            "-X" | "--method" => words.next().cloned(),
            other => other
                .strip_prefix("--method=")
                .or_else(|| other.strip_prefix("-X").filter(|rest| !rest.is_empty()))
                .map(str::to_string),
        };
        if let Some(value) = value {
            return Some(value.trim_matches(['\'', '"']).to_ascii_uppercase());
        }
    }
    None
}

/// The endpoint: the first word after `api` that is neither an option nor an option's value.
fn endpoint(args: &[String]) -> Option<&str> {
    let mut rest = args.iter().skip(1);
    while let Some(arg) = rest.next() {
        if VALUED.contains(&arg.as_str()) {
            rest.next();
        } else if !arg.starts_with('-') {
            return Some(arg);
        }
    }
    None
}

/// The text of a GraphQL query given as a field (`-f query='mutation { … }'`); `None` when
/// it is read from a file (`-F query=@q.graphql`) or not given.
fn query(args: &[String]) -> Option<&str> {
    args.windows(2).find_map(|pair| {
        let [option, value] = pair else { return None };
        (FIELDS.contains(&option.as_str()))
            .then(|| value.strip_prefix("query="))
            .flatten()
            .filter(|q| !q.starts_with('@'))
    })
}

/// The name of a mutation's first field (`mutation { deleteRepository(…) }` →
/// `deleteRepository`).
fn mutation_name(query: &str) -> String {
    let Some(at) = query.find('{') else {
        return String::new();
    };
    query
        .get(at + 1..)
        .unwrap_or("")
        .trim_start()
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect()
}

/// What the call does, and the call as a reason says it (`DELETE /repos/o/r`, `the GraphQL
/// mutation deleteRepository`).
fn does(args: &[String]) -> (Does, String) {
    let Some(endpoint) = endpoint(args) else {
        return (Does::Reads, String::new());
    };
    let path = endpoint
        .split(['?', '#'])
        .next()
        .unwrap_or(endpoint)
        .trim_start_matches('/');
    let fields = args.iter().any(|a| {
        FIELDS.contains(&a.as_str())
            || FIELDS
                .iter()
                .any(|f| f.starts_with("--") && a.starts_with(&format!("{f}=")))
    });
    let method = method(args).unwrap_or_else(|| if fields { "POST" } else { "GET" }.to_string());
    let at_path = format!("{method} /{path}");
    if path == "graphql" {
        let Some(query) = query(args) else {
            // A query read from a file can't be read here: fail closed, as a change.
            let what = "a GraphQL query read from a file".to_string();
            return if fields && args.iter().any(|a| a.starts_with("query=@")) {
                (Does::Changes, what)
            } else {
                (Does::Reads, what)
            };
        };
        let mutation = query
            .split(|c: char| !c.is_ascii_alphanumeric())
            .any(|word| word == "mutation");
        if !mutation {
            return (Does::Reads, at_path);
        }
        let name = mutation_name(query);
        let words = super::super::words::parts(&name);
        let first = words.first().map(String::as_str);
        let found = if matches!(first, Some("delete" | "remove" | "destroy")) {
            Does::Deletes
        } else if let Some(word) = words.iter().find(|w| ACCESS.contains(&w.as_str())) {
            Does::Grants {
                secret: SECRETS.contains(&word.as_str()),
            }
        } else {
            Does::Changes
        };
        return (found, format!("the GraphQL mutation {name}"));
    }
    let found = match method.as_str() {
        "GET" | "HEAD" | "OPTIONS" => Does::Reads,
        "DELETE" => Does::Deletes,
        _ => match path
            .split('/')
            .map(str::to_ascii_lowercase)
            .find(|segment| ACCESS.contains(&segment.as_str()))
        {
            Some(segment) => Does::Grants {
                secret: SECRETS.contains(&segment.as_str()),
            },
            None => Does::Changes,
        },
    };
    (found, at_path)
}

/// Judges `gh api …` or `glab api …` (`args` start with `api`).
pub(super) fn judge(program: &str, args: &[String], scan: &mut Scan<'_>) {
    scan.network = true;
    let host = match program {
        "glab" => "gitlab.com",
        _ => "api.github.com",
    };
    // A field's value read from a file (`-F 'files[a][content]=@.env'`) or a body read from
    // one (`--input .env`) goes to the forge, whatever the method.
    for file in sent_files(args) {
        super::file_leaves(scan, file, host);
    }
    let (found, what) = does(args);
    let wish = |act| Wish::new(act).naming(Name::AnyOf(host_names(host)));
    let risk = match found {
        Does::Reads => return,
        Does::Deletes => Risk::new(
            RuleId::NetDelete,
            Harm::Severe,
            true,
            format!(
                "{what} on {program}'s API deletes what it names, which warden can't take back"
            ),
        )
        .wish(wish(Act::Delete)),
        Does::Grants { secret: false } => Risk::new(
            RuleId::WordsGrant,
            Harm::Moderate,
            true,
            format!("{what} on {program}'s API gives someone access"),
        )
        .wish(wish(Act::Access)),
        Does::Grants { secret: true } => Risk::new(
            RuleId::WordsGrant,
            Harm::Moderate,
            true,
            format!("{what} on {program}'s API writes a secret, a token or a key"),
        )
        .wish(wish(Act::Secrets)),
        Does::Changes => Risk::new(
            RuleId::ForgeSpeaks,
            Harm::Moderate,
            true,
            format!("{what} on {program}'s API changes what others see, in the person's name"),
        )
        .wish(wish(Act::Send)),
    };
    scan.add(risk.way_out());
}

/// The files `gh api` and `glab api` send: a typed field's `@FILE` (`-F k=@f`, `--field`;
/// `-f`, a raw field, sends `@f` as it is written) and `--input FILE`. Standard input (`-`)
/// is its stage's.
fn sent_files(args: &[String]) -> Vec<&str> {
    let fields = super::super::option_values(args, &["-F", "--field"])
        .into_iter()
        .filter_map(|field| field.split_once('=').map(|(_, value)| value))
        .filter_map(|value| value.strip_prefix('@'));
    fields
        .chain(super::super::option_values(args, &["--input"]))
        .filter(|file| !file.is_empty() && *file != "-")
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(line: &str) -> Vec<String> {
        line.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn files_sent_are_typed_fields_and_inputs() {
        for (line, want) in [
            ("api /gists -F files[a][content]=@.env", vec![".env"]),
            (
                "api x --field=body=@notes.md --input=data.json",
                vec!["notes.md", "data.json"],
            ),
            ("api x --input body.json", vec!["body.json"]),
            ("api x -f body=@.env", vec![]),
            ("api x -F body=@- --input -", vec![]),
        ] {
            assert_eq!(sent_files(&args(line)), want, "{line}");
        }
    }

    #[test]
    fn the_method_is_given_or_implied_by_fields() {
        for (line, want) in [
            ("api user", Does::Reads),
            ("api repos/o/r/pulls --jq .[].title", Does::Reads),
            ("api -X GET repos/o/r/issues -f state=open", Does::Reads),
            ("api repos/o/r/issues -f title=bug", Does::Changes),
            (
                "api --method=PATCH repos/o/r -f private=false",
                Does::Changes,
            ),
            ("api -X DELETE repos/o/r", Does::Deletes),
            ("api --method delete repos/o/r/releases/1", Does::Deletes),
            (
                "api /user/keys -f key=ssh-ed25519",
                Does::Grants { secret: false },
            ),
            (
                "api -X PUT repos/o/r/collaborators/bob",
                Does::Grants { secret: false },
            ),
            (
                "api repos/o/r/hooks -f url=https://x/h",
                Does::Grants { secret: false },
            ),
            (
                "api -X PUT repos/o/r/actions/secrets/X -f encrypted_value=v",
                Does::Grants { secret: true },
            ),
            // `keys-app` is a repository's name, not its keys.
            ("api repos/o/keys-app/issues -f title=x", Does::Changes),
        ] {
            assert_eq!(does(&args(line)).0, want, "{line}");
        }
    }

    #[test]
    fn graphql_changes_only_with_a_mutation() {
        let call = |query: &str| {
            let mut args = args("api graphql -f");
            args.push(format!("query={query}"));
            does(&args).0
        };
        assert_eq!(call("query { viewer { login } }"), Does::Reads);
        assert_eq!(call("{ viewer { login } }"), Does::Reads);
        assert_eq!(
            call("mutation { deleteRepository(input:{id:\"x\"}) { clientMutationId } }"),
            Does::Deletes
        );
        assert_eq!(
            call("mutation { addStar(input:{starrableId:\"x\"}) { clientMutationId } }"),
            Does::Changes
        );
        assert_eq!(
            call("mutation { inviteEnterpriseAdmin(input:{}) { clientMutationId } }"),
            Does::Grants { secret: false }
        );
        // Read from a file: not known here, so a change.
        assert_eq!(
            does(&args("api graphql -F query=@q.graphql")).0,
            Does::Changes
        );
    }
}
