//! Cutting folded text into words and the marks between them, once, in one pass.
//!
//! A word is a run of ASCII letters, digits and `_`, with an English contraction kept on
//! it ("don't", "i've"). A hyphen between letters, a slash, a quote or any other sign
//! only separates words ("force-push" reads "force push", "--force" reads "force"). A
//! comma, semicolon, colon before a space, bracket or free-standing dash ends a clause;
//! a full stop before a space, `!`, `?` or a line break ends a sentence.

/// What a token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Word,
    /// The end of a clause: `,` `;` `:` `(` `)` or a dash standing between spaces.
    Clause,
    /// The end of a sentence: `.` `!` `?` or a line break.
    Sentence,
}

/// One word or mark, as a byte range of the folded text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token {
    pub kind: Kind,
    pub start: usize,
    pub end: usize,
}

fn is_word(b: u8) -> bool {
    b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b.is_ascii_uppercase()
}

fn is_space(b: Option<&u8>) -> bool {
    b.is_none_or(|b| b.is_ascii_whitespace())
}

/// The length of an English contraction's ending after an apostrophe ("t", "ve", …), if
/// the bytes after the apostrophe are one and the word ends there.
fn contraction(rest: &[u8]) -> usize {
    for suffix in [&b"ve"[..], b"re", b"ll", b"t", b"s", b"d", b"m"] {
        if rest.starts_with(suffix) && !rest.get(suffix.len()).is_some_and(|b| is_word(*b)) {
            return suffix.len();
        }
    }
    0
}

/// Cuts folded text into tokens, one at a time. Runs of marks collapse into one (a
/// sentence end wins).
pub struct Tokens<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Tokens<'a> {
    pub fn new(text: &'a str) -> Tokens<'a> {
        Tokens {
            bytes: text.as_bytes(),
            at: 0,
        }
    }

    /// The mark at `self.at` (consuming it), or `None` for a byte that only separates.
    fn mark(&mut self) -> Option<Kind> {
        let bytes = self.bytes;
        let start = self.at;
        let next = bytes.get(start + 1);
        let mark = match bytes[start] {
            b'!' | b'?' | b'\n' => Some(Kind::Sentence),
            b'.' if !next.is_some_and(|b| is_word(*b)) => Some(Kind::Sentence),
            b',' | b';' | b'(' | b')' | b'[' | b']' => Some(Kind::Clause),
            b':' if is_space(next) => Some(Kind::Clause),
            b'-' => {
                let before = start.checked_sub(1).and_then(|i| bytes.get(i));
                while bytes.get(self.at + 1) == Some(&b'-') {
                    self.at += 1;
                }
                let after = bytes.get(self.at + 1);
                let long = self.at > start;
                if is_space(after) && (long || is_space(before)) {
                    Some(Kind::Clause)
                } else {
                    None
                }
            }
            _ => None,
        };
        self.at += 1;
        mark
    }
}

impl Iterator for Tokens<'_> {
    type Item = Token;

    fn next(&mut self) -> Option<Token> {
        let bytes = self.bytes;
        let mut pending: Option<Token> = None;
        while self.at < bytes.len() {
            if is_word(bytes[self.at]) {
                if pending.is_some() {
                    return pending;
                }
                let start = self.at;
                while self.at < bytes.len() && is_word(bytes[self.at]) {
                    self.at += 1;
                }
                if bytes.get(self.at) == Some(&b'\'') {
                    let more = contraction(&bytes[self.at + 1..]);
                    if more > 0 {
                        self.at += 1 + more;
                    }
                }
                return Some(Token {
                    kind: Kind::Word,
                    start,
                    end: self.at,
                });
            }
            let start = self.at;
            if let Some(kind) = self.mark() {
                let end = self.at;
                match pending.as_mut() {
                    Some(mark) => {
                        if kind == Kind::Sentence {
                            mark.kind = Kind::Sentence;
                        }
                        mark.end = end;
                    }
                    None => pending = Some(Token { kind, start, end }),
                }
            }
        }
        pending
    }
}

/// Every token of a text.
#[cfg(test)]
pub fn tokens(text: &str) -> Vec<Token> {
    Tokens::new(text).collect()
}

/// The words of a text, for tests and for checking word lists.
#[cfg(test)]
pub fn words(text: &str) -> Vec<&str> {
    tokens(text)
        .into_iter()
        .filter(|t| t.kind == Kind::Word)
        .map(|t| &text[t.start..t.end])
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{Kind, tokens, words};

    #[test]
    fn cuts_words_and_marks() {
        let cases: &[(&str, &[&str])] = &[
            ("don't push", &["don't", "push"]),
            ("force-push main", &["force", "push", "main"]),
            (
                "git push --force-with-lease",
                &["git", "push", "force", "with", "lease"],
            ),
            (
                "pousse le sur gh-pages",
                &["pousse", "le", "sur", "gh", "pages"],
            ),
            ("i've pushed it's fine", &["i've", "pushed", "it's", "fine"]),
            ("dell'app o'clock", &["dell", "app", "o", "clock"]),
            ("main.rs v1.2", &["main", "rs", "v1", "2"]),
        ];
        for (text, want) in cases {
            assert_eq!(words(text), *want, "words({text:?})");
        }
    }

    #[test]
    fn marks_collapse_and_a_sentence_wins() {
        let kinds = |text: &str| tokens(text).into_iter().map(|t| t.kind).collect::<Vec<_>>();
        use Kind::{Clause, Sentence, Word};
        let cases: &[(&str, &[Kind])] = &[
            (
                "push it. no, wait.",
                &[Word, Word, Sentence, Word, Clause, Word, Sentence],
            ),
            ("push it - no wait", &[Word, Word, Clause, Word, Word]),
            ("push it -- no", &[Word, Word, Clause, Word]),
            ("push -f now", &[Word, Word, Word]),
            ("push,. wait", &[Word, Sentence, Word]),
            (
                "see http://x.io: ok",
                &[Word, Word, Word, Word, Clause, Word],
            ),
            ("push\nwait", &[Word, Sentence, Word]),
        ];
        for (text, want) in cases {
            assert_eq!(kinds(text), *want, "tokens({text:?})");
        }
    }
}
