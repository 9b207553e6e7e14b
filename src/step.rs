//! A step an agent wants to take, and the chat it comes from.

use crate::mode::Mode;

/// One step, normalised from a tool call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// A shell command (`Bash`).
    Command { command: String },
    /// A tool the law does not judge yet: it asks (fail closed).
    Unjudged { tool: String },
}

/// What the law knows about the chat a step comes from.
#[derive(Debug, Clone, Default)]
pub struct Context {
    pub mode: Mode,
    /// The work folder.
    pub cwd: String,
    /// The person's own messages, oldest first. Empty when someone else's words are in
    /// the chat: [`Context::owner_words`] enforces it.
    pub said: Vec<String>,
    /// The marks: names of the untrusted sources the chat has read ("a web page",
    /// "GitHub content"). Empty: nothing read.
    pub read: Vec<String>,
    /// Someone else's words are in the chat.
    pub others: bool,
}

impl Context {
    /// The person's words as the law may count them: none when someone else's words are in
    /// the chat.
    pub fn owner_words(&self) -> &[String] {
        // INVARIANT: someone else's words in the chat make the person's words count for nothing.
        if self.others { &[] } else { &self.said }
    }

    /// Whether the chat counts as having read something untrusted.
    pub fn has_read(&self) -> bool {
        !self.read.is_empty() || self.others
    }
}
