//! The person's token: 64 hex characters in `DATA/token`, made from the OS's randomness the
//! first time `warden serve` starts, readable by the owner only, and never logged. Routes
//! that carry the person's own words or settings check it in constant time.

use anyhow::{Context as _, Result, bail};
use std::fmt;
use std::io::Write as _;
use std::os::unix::fs::{OpenOptionsExt as _, PermissionsExt as _};
use std::path::Path;

/// The token's file name in the data folder.
pub const FILE: &str = "token";

/// How many random bytes make a token (64 hex characters).
const BYTES: usize = 32;

/// The person's token. Its `Debug` never shows it.
#[derive(Clone)]
pub struct Token(String);

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Token(…)")
    }
}

/// How a request's `Authorization` header stands against the token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Check {
    /// The right token.
    Good,
    /// No `Authorization: Bearer …` header.
    Missing,
    /// A token, but not this one.
    Wrong,
}

impl Token {
    /// Reads `DATA/token`, or makes one (mode 0600) if there is none.
    pub fn load_or_create(data: &Path) -> Result<Token> {
        let path = data.join(FILE);
        match std::fs::read_to_string(&path) {
            Ok(text) => {
                let token = text.trim();
                if token.len() != 2 * BYTES || !token.bytes().all(|b| b.is_ascii_hexdigit()) {
                    bail!(
                        "{} is not 64 hex characters; delete it and warden makes a new one",
                        path.display()
                    );
                }
                let mode = std::fs::metadata(&path)
                    .map(|m| m.permissions().mode() & 0o777)
                    .unwrap_or(0);
                if mode & 0o077 != 0 {
                    tracing::warn!(
                        path = %path.display(),
                        mode = format!("{mode:o}"),
                        "the token file can be read by others; `chmod 600` it"
                    );
                }
                Ok(Token(token.to_ascii_lowercase()))
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Token::create(&path),
            Err(e) => Err(e).with_context(|| format!("reading {}", path.display())),
        }
    }

    /// Makes a new token in `path`, which must not exist yet.
    fn create(path: &Path) -> Result<Token> {
        let mut bytes = [0u8; BYTES];
        getrandom::fill(&mut bytes)
            .map_err(|e| anyhow::anyhow!("the OS gave no randomness for the token: {e}"))?;
        let token: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(path)
            .with_context(|| format!("creating {}", path.display()))?;
        file.write_all(token.as_bytes())
            .and_then(|()| file.write_all(b"\n"))
            .and_then(|()| file.sync_all())
            .with_context(|| format!("writing {}", path.display()))?;
        tracing::info!(path = %path.display(), "made the person's token");
        Ok(Token(token))
    }

    /// Checks an `Authorization` header's value (`Bearer <token>`), in constant time.
    pub fn check(&self, authorization: Option<&[u8]>) -> Check {
        let Some(value) = authorization else {
            return Check::Missing;
        };
        let Some((scheme, given)) = value.split_first_chunk::<7>() else {
            return Check::Missing;
        };
        if !scheme.eq_ignore_ascii_case(b"Bearer ") {
            return Check::Missing;
        }
        if equal(self.0.as_bytes(), given.trim_ascii()) {
            Check::Good
        } else {
            Check::Wrong
        }
    }
}

/// Compares two byte strings in time that depends only on their lengths (a token's length is
/// no secret: it is always 64).
fn equal(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let diff = a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y));
    std::hint::black_box(diff) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_is_made_once_readable_by_its_owner_only() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let made = Token::load_or_create(dir.path()).unwrap_or_else(|e| panic!("{e:#}"));
        assert_eq!(made.0.len(), 64);
        assert!(made.0.bytes().all(|b| b.is_ascii_hexdigit()));
        let mode = std::fs::metadata(dir.path().join(FILE))
            .unwrap_or_else(|e| panic!("{e}"))
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
        let again = Token::load_or_create(dir.path()).unwrap_or_else(|e| panic!("{e:#}"));
        assert_eq!(made.0, again.0, "an existing token is kept");
        assert_eq!(format!("{made:?}"), "Token(…)", "Debug never shows it");
        let other =
            Token::load_or_create(tempfile::tempdir().unwrap_or_else(|e| panic!("{e}")).path())
                .unwrap_or_else(|e| panic!("{e:#}"));
        assert_ne!(made.0, other.0);
    }

    #[test]
    fn a_broken_token_file_is_an_error() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(dir.path().join(FILE), "short\n").unwrap_or_else(|e| panic!("{e}"));
        let error = Token::load_or_create(dir.path())
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(error.contains("64 hex"), "{error}");
    }

    #[test]
    fn the_header_is_checked() {
        let token = Token("ab".repeat(32));
        let good = format!("Bearer {}", "ab".repeat(32));
        let table: [(Option<&str>, Check); 7] = [
            (Some(&good), Check::Good),
            (Some(&good.replace("Bearer", "bearer")), Check::Good),
            (None, Check::Missing),
            (Some("Basic dXNlcjpwYXNz"), Check::Missing),
            (Some("Bearer"), Check::Missing),
            (Some("Bearer ab"), Check::Wrong),
            (Some(&format!("Bearer {}", "ba".repeat(32))), Check::Wrong),
        ];
        for (header, want) in table {
            assert_eq!(token.check(header.map(str::as_bytes)), want, "{header:?}");
        }
    }
}
