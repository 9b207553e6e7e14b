//! The keys of the `events` tree. Every record is kept once, in the **record area**, under
//! `[FF FF FF][u64 BE sequence]` (its value starts with the chat's prefix), so the writer
//! always appends at the tree's end. A chat's records are found through its **index runs**,
//! `[u16 BE length][chat id bytes][u64 BE first sequence]['I']`, each the sequence numbers of
//! the chat's records in one stretch of the log; the records appended since the last run are
//! indexed in memory, and [`MARK`] holds the newest sequence the runs cover. An older warden
//! kept each record under `[u16 BE length][chat id bytes][u64 BE sequence]` (a **legacy**
//! key), which is still read. Byte order within one chat is time order either way.
//!
//! No chat's prefix starts with `FF FF FE` or `FF FF FF`: a 65,535-byte id would follow with
//! its first byte, and no UTF-8 text has the bytes `FE` or `FF`.

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

/// The first key past every chat's: the mark, then the record area.
pub(crate) const MARK: &[u8] = &[0xff, 0xff, 0xfe];

/// What every key of the record area starts with.
pub(crate) const AREA: &[u8] = &[0xff, 0xff, 0xff];

/// The last byte of an index run's key, after its first sequence.
const RUN: u8 = b'I';

/// The key of the record `seq` in the record area.
pub(crate) fn area(seq: u64) -> Vec<u8> {
    let mut key = Vec::with_capacity(AREA.len() + 8);
    key.extend_from_slice(AREA);
    key.extend_from_slice(&seq.to_be_bytes());
    key
}

/// The sequence number of a record area's key, if it is one.
pub(crate) fn area_seq(key: &[u8]) -> Option<u64> {
    key.strip_prefix(AREA)?
        .try_into()
        .ok()
        .map(u64::from_be_bytes)
}

/// The key of the chat's index run whose first record is `first`.
pub(crate) fn run(prefix: &[u8], first: u64) -> Vec<u8> {
    let mut key = key(prefix, first);
    key.push(RUN);
    key
}

/// The first sequence of an index run's key, if it is one.
pub(crate) fn run_first(key: &[u8]) -> Option<u64> {
    let (len, rest) = key.split_first_chunk::<2>()?;
    let rest = rest.get(usize::from(u16::from_be_bytes(*len))..)?;
    match rest {
        [seq @ .., RUN] => seq.try_into().ok().map(u64::from_be_bytes),
        _ => None,
    }
}

/// The sequence numbers an index run holds (whole big-endian `u64`s; a torn tail is ignored).
pub(crate) fn run_seqs(value: &[u8]) -> impl Iterator<Item = u64> + '_ {
    value
        .chunks_exact(8)
        .filter_map(|chunk| chunk.try_into().ok().map(u64::from_be_bytes))
}

/// What a **bundle** starts with: the records of one group commit kept under one key of the
/// record area, the key of its first record. No record's value starts so (its chat's
/// prefix would be a 65,535-byte id whose first byte is `FF`, which no UTF-8 text has).
/// After it, each record as `[u64 BE sequence][u32 BE length][its value]`, in sequence
/// order. One insert for a group instead of one a record: sled copies the leaf it writes
/// into on every insert, which was half of what the log writer spent.
pub(crate) const BUNDLE: &[u8] = &[0xff, 0xff, 0xff];

/// Adds one record (its sequence number and its value, prefix first) to a bundle that
/// starts with [`BUNDLE`]; `false`, adding nothing, for a value of 4 GiB or more.
#[must_use]
pub(crate) fn bundle_push(bundle: &mut Vec<u8>, seq: u64, value: &[u8]) -> bool {
    let Ok(len) = u32::try_from(value.len()) else {
        return false;
    };
    bundle.extend_from_slice(&seq.to_be_bytes());
    bundle.extend_from_slice(&len.to_be_bytes());
    bundle.extend_from_slice(value);
    true
}

/// The records one value of the record area holds, each with its sequence number: the
/// value itself under its key's `seq`, or every record of a bundle (a torn tail is
/// ignored, as sled's checksums make one a bug, not a disk's fault).
pub(crate) fn area_records(seq: u64, value: &[u8]) -> Vec<(u64, &[u8])> {
    area_spans(seq, value)
        .into_iter()
        .filter_map(|(seq, span)| Some((seq, value.get(span)?)))
        .collect()
}

/// [`area_records`] as where each record's bytes are in the value, in sequence order (a
/// bundle is written so): a reader of many records of one bundle looks each up by halving.
pub(crate) fn area_spans(seq: u64, value: &[u8]) -> Vec<(u64, std::ops::Range<usize>)> {
    if !is_bundle(value) {
        return vec![(seq, 0..value.len())];
    }
    let mut spans = Vec::new();
    let mut at = BUNDLE.len();
    while let Some(head) = value.get(at..at + 12)
        && let Some((seq, len)) = head.split_first_chunk::<8>()
        && let Ok(len) = <[u8; 4]>::try_from(len)
        && let Ok(len) = usize::try_from(u32::from_be_bytes(len))
        && value.len() >= at + 12 + len
    {
        spans.push((u64::from_be_bytes(*seq), at + 12..at + 12 + len));
        at += 12 + len;
    }
    spans
}

/// Whether a record area's value is a bundle.
pub(crate) fn is_bundle(value: &[u8]) -> bool {
    value.starts_with(BUNDLE)
}

/// A record area's value cut into its chat's prefix and the record's bytes.
pub(crate) fn area_value(value: &[u8]) -> Option<(&[u8], &[u8])> {
    let (len, rest) = value.split_first_chunk::<2>()?;
    let len = usize::from(u16::from_be_bytes(*len));
    rest.get(len..)?;
    Some(value.split_at(2 + len))
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
    fn runs_and_the_area_sort_where_they_should() -> Result<(), LogError> {
        let c1 = prefix("c1")?;
        assert!(key(&c1, 7) < run(&c1, 7) && run(&c1, 7) < key(&c1, 8));
        assert_eq!(run_first(&run(&c1, 7)), Some(7));
        assert_eq!(run_first(&key(&c1, 7)), None);
        assert_eq!(split(&run(&c1, 7)), (b"c1".as_slice(), None));
        let longest = prefix(&"\u{10ffff}".repeat(16_383))?;
        assert!(run(&longest, u64::MAX) < MARK.to_vec() && MARK < AREA);
        assert_eq!(area_seq(&area(42)), Some(42));
        assert_eq!(area_seq(&run(&c1, 42)), None);
        let mut value = c1.clone();
        value.extend_from_slice(b"record");
        assert_eq!(
            area_value(&value),
            Some((c1.as_slice(), b"record".as_slice()))
        );
        assert_eq!(area_value(b"\x00\x09c1"), None);
        let seqs: Vec<u64> = run_seqs(&[0, 0, 0, 0, 0, 0, 0, 5, 1]).collect();
        assert_eq!(seqs, vec![5]);
        Ok(())
    }

    #[test]
    fn a_bundle_gives_back_its_records_and_a_plain_value_itself() -> Result<(), LogError> {
        let mut one = prefix("c1")?;
        one.extend_from_slice(b"first");
        let mut two = prefix("c2")?;
        two.extend_from_slice(b"second");
        let mut bundle = BUNDLE.to_vec();
        assert!(bundle_push(&mut bundle, 7, &one) && bundle_push(&mut bundle, 9, &two));
        assert!(is_bundle(&bundle) && !is_bundle(&one));
        assert_eq!(
            area_records(7, &bundle),
            vec![(7, one.as_slice()), (9, two.as_slice())]
        );
        assert_eq!(area_records(3, &one), vec![(3, one.as_slice())]);
        // A torn tail names no record.
        let torn = bundle.get(..bundle.len() - 2).unwrap_or_default();
        assert_eq!(area_records(7, torn), vec![(7, one.as_slice())]);
        // A prefix of the longest id still isn't a bundle's start: its third byte is text.
        let longest = prefix(&format!("{}a", "é".repeat(32_767)))?;
        assert!(longest.starts_with(&[0xff, 0xff]));
        assert!(!is_bundle(&longest));
        Ok(())
    }

    #[test]
    fn after_prefix_carries() {
        assert_eq!(after_prefix(&[0, 1, 0xff]), Some(vec![0, 2]));
        assert_eq!(after_prefix(&[0xff, 0xff]), None);
    }
}
