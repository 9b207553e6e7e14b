//! What a person says to ask for a step: the act, and the names their message must carry.

use serde::Serialize;

/// The kinds of act a person can ask for or hold back, in any of the seven languages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Act {
    Push,
    /// Force-push and overwrite.
    ForcePush,
    Deploy,
    Install,
    Delete,
    Clean,
    Discard,
    /// Send and reply.
    Send,
    Copy,
    Publish,
    Update,
    Run,
    Destroy,
    Restart,
    Schedule,
    Safety,
    /// Access and sharing.
    Access,
    Merge,
    Mirror,
    Public,
    Secrets,
    /// Creating, adding, appending, editing, moving or renaming something in an app: what
    /// an app's change does when its name says no other act.
    Change,
}

impl Act {
    /// Every act, in a fixed order.
    pub const ALL: [Act; 22] = [
        Act::Push,
        Act::ForcePush,
        Act::Deploy,
        Act::Install,
        Act::Delete,
        Act::Clean,
        Act::Discard,
        Act::Send,
        Act::Copy,
        Act::Publish,
        Act::Update,
        Act::Run,
        Act::Destroy,
        Act::Restart,
        Act::Schedule,
        Act::Safety,
        Act::Access,
        Act::Merge,
        Act::Mirror,
        Act::Public,
        Act::Secrets,
        Act::Change,
    ];

    /// The act's name as the protocol and the CLI write it (`force_push`).
    pub fn name(self) -> &'static str {
        match self {
            Act::Push => "push",
            Act::ForcePush => "force_push",
            Act::Deploy => "deploy",
            Act::Install => "install",
            Act::Delete => "delete",
            Act::Clean => "clean",
            Act::Discard => "discard",
            Act::Send => "send",
            Act::Copy => "copy",
            Act::Publish => "publish",
            Act::Update => "update",
            Act::Run => "run",
            Act::Destroy => "destroy",
            Act::Restart => "restart",
            Act::Schedule => "schedule",
            Act::Safety => "safety",
            Act::Access => "access",
            Act::Merge => "merge",
            Act::Mirror => "mirror",
            Act::Public => "public",
            Act::Secrets => "secrets",
            Act::Change => "change",
        }
    }

    /// The broader act this one is a kind of: holding the broader act holds this one too
    /// ("don't push anything" holds a force-push), while asking for it does not ask for this
    /// one ("push it" doesn't force-push).
    pub fn broader(self) -> Option<Act> {
        match self {
            Act::ForcePush | Act::Mirror => Some(Act::Push),
            Act::Destroy => Some(Act::Delete),
            _ => None,
        }
    }

    /// Reads an act's name (`force-push` and `force_push` alike).
    pub fn parse(raw: &str) -> Option<Act> {
        let want = raw.trim().to_ascii_lowercase().replace('-', "_");
        Act::ALL.into_iter().find(|act| act.name() == want)
    }
}

/// A name the person's message must carry for the step to count as asked for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Name {
    /// Any one of these words (already lower case): a branch, a package, a host and its
    /// shorter forms, a remote and its host, a file's basename. An alternative with an `@`
    /// is an email address: named whole, or by its local part where that is not the local
    /// part of another address ("send it to alice" names `alice@example.com`; "send it to
    /// alice@other.example" does not).
    AnyOf(Vec<String>),
    /// The word production, in any of the seven languages (PROD_WORDS).
    Production,
}

impl Name {
    /// One literal name.
    pub fn one(name: impl Into<String>) -> Name {
        Name::AnyOf(vec![name.into().to_lowercase()])
    }
}

/// The words and names that ask for one step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Wish {
    pub act: Act,
    /// Every one of these must be named in the message that asks.
    pub names: Vec<Name>,
    /// What the step acts on that asking needn't name but a boundary may rule out ("push
    /// when you're done, but not to main" holds a push to main, and only that push).
    pub targets: Vec<Name>,
    /// The step as written (a command line): a message that quotes it whole asks for it, or
    /// holds it, with every name it needs ("run `docker compose down -v`").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub literal: Option<String>,
}

impl Wish {
    pub fn new(act: Act) -> Wish {
        Wish {
            act,
            names: Vec::new(),
            targets: Vec::new(),
            literal: None,
        }
    }

    pub fn naming(mut self, name: Name) -> Wish {
        self.names.push(name);
        self
    }

    /// A target a boundary may rule out, though asking needn't name it.
    pub fn targeting(mut self, name: Name) -> Wish {
        self.targets.push(name);
        self
    }
}
