//! The keys of the `events` tree: `[u16 BE length][chat id bytes][u64 BE sequence]`, so one
//! chat's events are one prefix and byte order within it is time order.

use crate::LogError;

/// The bytes every key of one chat starts with: its id's length, then the id.
pub(crate) fn prefix(chat: &str) -> Result<Vec<u8>, LogError> {
    let len = u16::try_from(chat.len()).map_err(|_| LogError::too_long(chat))?;
    let mut prefix = Vec::with_capacity(2 + chat.len() + 8);
    prefix.extend_from_slice(&len.to_be_bytes());
    prefix.extend_from_slice(chat.as_bytes());
    Ok(prefix)
}

/// The key of the event `seq` in the chat whose prefix is `prefix`.
pub(crate) fn key(prefix: &[u8], seq: u64) -> Vec<u8> {
    let mut key = Vec::with_capacity(prefix.len() + 8);
    key.extend_from_slice(prefix);
    key.extend_from_slice(&seq.to_be_bytes());
    key
}

/// A key cut into its chat id bytes and its sequence number. A key of the wrong shape still
/// names the bytes it claims as its chat (so a walk can group it and move past it) but has no
/// sequence number.
pub(crate) fn split(key: &[u8]) -> (&[u8], Option<u64>) {
    let Some((len, rest)) = key.split_first_chunk::<2>() else {
        return (&[], None);
    };
    let len = usize::from(u16::from_be_bytes(*len));
    match rest.split_at_checked(len) {
        Some((chat, seq)) => (chat, seq.try_into().ok().map(u64::from_be_bytes)),
        None => (rest, None),
    }
}

/// The smallest key greater than every key that starts with `prefix` (`None` when no key is).
pub(crate) fn after_prefix(prefix: &[u8]) -> Option<Vec<u8>> {
    let mut next = prefix.to_vec();
    while let Some(last) = next.pop() {
        if last < u8::MAX {
            next.push(last + 1);
            return Some(next);
        }
    }
    None
}

/// A key as text for an error message: printable ASCII as is, other bytes as `\xNN`.
pub(crate) fn shown(key: &[u8]) -> String {
    key.iter()
        .flat_map(|b| std::ascii::escape_default(*b))
        .map(char::from)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_splits_back_into_its_chat_and_sequence() -> Result<(), LogError> {
        for chat in ["", "c1", "a chat with spaces", "émoji 🦀"] {
            let key = key(&prefix(chat)?, 42);
            assert_eq!(split(&key), (chat.as_bytes(), Some(42)), "{chat:?}");
        }
        Ok(())
    }

    #[test]
    fn byte_order_is_chat_then_time() -> Result<(), LogError> {
        let c1 = prefix("c1")?;
        assert!(key(&c1, 1) < key(&c1, 2));
        assert!(key(&c1, 255) < key(&c1, 256), "big-endian: 255 before 256");
        assert!(key(&c1, u64::MAX) < key(&prefix("c2")?, 0));
        assert!(key(&c1, u64::MAX) < after_prefix(&c1).unwrap_or_default());
        Ok(())
    }

    #[test]
    fn a_key_of_the_wrong_shape_has_no_sequence() {
        let cases: &[(&[u8], &[u8])] = &[
            (b"", b""),
            (b"\x00", b""),
            (b"\x00\x02c1\x00\x00\x01", b"c1"),
            (b"\x00\x09c1", b"c1"),
        ];
        for (key, chat) in cases {
            assert_eq!(split(key), (*chat, None), "{key:?}");
        }
    }

    #[test]
    fn a_chat_id_past_65535_bytes_is_refused() {
        let long = "x".repeat(70_000);
        let Err(e) = prefix(&long) else {
            panic!("a 70,000-byte id made a key")
        };
        assert_eq!(
            e.to_string(),
            format!(
                "the chat id `{}…` is 70000 bytes long: at most 65535 fit in a key",
                "x".repeat(40)
            )
        );
        assert!(prefix(&"x".repeat(65_535)).is_ok());
    }

    #[test]
    fn after_prefix_carries() {
        assert_eq!(after_prefix(&[0, 1, 0xff]), Some(vec![0, 2]));
        assert_eq!(after_prefix(&[0xff, 0xff]), None);
    }
}
