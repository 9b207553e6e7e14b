//! Text hidden in base64: `-EncodedCommand`'s UTF-16LE and `[Convert]::FromBase64String`'s
//! bytes, decoded by hand (the law has no base64 dependency, and this is all it needs).

/// The bytes of standard or URL-safe base64, blanks skipped, padding optional; `None` for
/// anything else.
pub(super) fn base64(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    let mut buffer: u32 = 0;
    let mut bits = 0u32;
    let mut padded = false;
    for c in text.chars() {
        let value = match c {
            'A'..='Z' => u32::from(c) - u32::from('A'),
            'a'..='z' => u32::from(c) - u32::from('a') + 26,
            '0'..='9' => u32::from(c) - u32::from('0') + 52,
            '+' | '-' => 62,
            '/' | '_' => 63,
            '=' => {
                padded = true;
                continue;
            }
            c if c.is_whitespace() => continue,
            _ => return None,
        };
        if padded {
            return None;
        }
        buffer = (buffer << 6) | value;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push(((buffer >> bits) & 0xff) as u8);
        }
    }
    Some(out)
}

/// Bytes as text: UTF-16LE when they look like it (what `-EncodedCommand` carries and
/// `[Text.Encoding]::Unicode` reads), UTF-8 otherwise. `None` when they aren't text.
pub(super) fn text(bytes: &[u8]) -> Option<String> {
    if bytes.is_empty() {
        return Some(String::new());
    }
    let pairs = bytes.len() / 2;
    let zero_high = bytes
        .chunks(2)
        .filter(|pair| pair.get(1) == Some(&0))
        .count();
    if bytes.len().is_multiple_of(2) && pairs > 0 && zero_high * 2 >= pairs {
        return utf16le(bytes);
    }
    let text = std::str::from_utf8(bytes).ok()?;
    let control = text
        .chars()
        .filter(|c| c.is_control() && !c.is_whitespace())
        .count();
    (control * 10 <= text.chars().count()).then(|| text.to_string())
}

/// UTF-16LE bytes as text; `None` for an odd length or a lone surrogate.
pub(super) fn utf16le(bytes: &[u8]) -> Option<String> {
    if !bytes.len().is_multiple_of(2) {
        return None;
    }
    let units = bytes.chunks(2).map(|pair| {
        u16::from_le_bytes([
            pair.first().copied().unwrap_or(0),
            pair.get(1).copied().unwrap_or(0),
        ])
    });
    char::decode_utf16(units)
        .collect::<Result<String, _>>()
        .ok()
}

/// `-EncodedCommand`'s argument: base64 of UTF-16LE text.
pub(super) fn encoded_command(blob: &str) -> Option<String> {
    utf16le(&base64(blob)?)
}
