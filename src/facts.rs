//! Facts about the world the law needs, reached through one small trait the host implements.
//!
//! The law never does I/O: git status, the manifests, the remotes and the home folder come
//! from here, so every rule is testable with [`FakeFacts`].

use serde::Deserialize;
use std::collections::BTreeMap;

/// One of a repository's remotes.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Remote {
    pub name: String,
    pub url: String,
}

/// What the host knows about the world. `None` means unknown: the law treats unknown as
/// the riskier answer.
pub trait Facts {
    /// Is the git tree at `dir` clean (nothing staged, changed or untracked)?
    fn tree_clean(&self, dir: &str) -> Option<bool>;
    /// The remotes of the repository at `dir`.
    fn remotes(&self, dir: &str) -> Option<Vec<Remote>>;
    /// Package names (lower case) the manifests in `dir` declare, across ecosystems.
    fn declared(&self, dir: &str) -> Option<Vec<String>>;
    /// The person's home folder.
    fn home(&self) -> Option<String>;
    /// Is `program` a command the project's installed packages give (`node_modules/.bin/`
    /// in `dir`), which `npx` runs without fetching anything? `None` when unknown.
    fn installed_bin(&self, _dir: &str, _program: &str) -> Option<bool> {
        None
    }
    /// Whether asking may wait on the world (a process, the disk): an async host then judges
    /// off its event loop. Facts given as values never wait.
    fn may_wait(&self) -> bool {
        false
    }
}

/// Facts given as values, for tests, the corpus and hosts that know nothing.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FakeFacts {
    #[serde(default)]
    pub clean: Option<bool>,
    #[serde(default)]
    pub remotes: Option<BTreeMap<String, String>>,
    #[serde(default)]
    pub declared: Option<Vec<String>>,
    #[serde(default)]
    pub home: Option<String>,
    /// The commands the project's installed packages give (`node_modules/.bin`).
    #[serde(default)]
    pub bins: Option<Vec<String>>,
}

impl FakeFacts {
    /// A world where nothing is known.
    pub fn unknown() -> FakeFacts {
        FakeFacts::default()
    }

    /// The usual test repository: uncommitted changes, `origin` at
    /// `git@github.com:acme/app.git`, these packages declared, home `/home/user`.
    pub fn repo(declared: &[&str]) -> FakeFacts {
        FakeFacts {
            clean: Some(false),
            remotes: Some(BTreeMap::from([(
                "origin".to_string(),
                "git@github.com:acme/app.git".to_string(),
            )])),
            declared: Some(declared.iter().map(|name| name.to_string()).collect()),
            home: Some("/home/user".to_string()),
            bins: None,
        }
    }
}

impl Facts for FakeFacts {
    fn tree_clean(&self, _dir: &str) -> Option<bool> {
        self.clean
    }

    fn remotes(&self, _dir: &str) -> Option<Vec<Remote>> {
        self.remotes.as_ref().map(|remotes| {
            remotes
                .iter()
                .map(|(name, url)| Remote {
                    name: name.clone(),
                    url: url.clone(),
                })
                .collect()
        })
    }

    fn declared(&self, _dir: &str) -> Option<Vec<String>> {
        self.declared.clone()
    }

    fn home(&self) -> Option<String> {
        self.home.clone()
    }

    fn installed_bin(&self, _dir: &str, program: &str) -> Option<bool> {
        self.bins
            .as_ref()
            .map(|bins| bins.iter().any(|bin| bin == program))
    }
}
