//! Folding a person's text so word lists match: lower case, accents off, one apostrophe.

/// Folds text for matching: lower case, accents off, one kind of apostrophe.
pub fn fold(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\u{2019}' | '\u{2018}' | '\u{00b4}' | '\u{02bc}' | '`' => out.push('\''),
            'ß' => out.push_str("ss"),
            c if c.is_ascii() => out.push(c.to_ascii_lowercase()),
            c => {
                let ascii = any_ascii::any_ascii_char(c);
                if ascii.is_empty() {
                    out.push(c);
                } else {
                    out.push_str(&ascii.to_ascii_lowercase());
                }
            }
        }
    }
    out
}
