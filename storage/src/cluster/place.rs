//! Which live node serves a chat: rendezvous hashing (highest random weight). Every node that
//! knows the same live set computes the same owner for every chat, with no table to share;
//! when a node leaves, only its own chats move (each to the node that scored second for it),
//! and when one joins it takes about `1/n` of the chats, from every other node alike.
//!
//! The hash is fixed here, not borrowed from `std` (whose `DefaultHasher` may change between
//! Rust releases, and then two nodes built apart would disagree): FNV-1a 64 over the node id,
//! a `0xFF` byte (which no UTF-8 text holds, so `("ab", "c")` and `("a", "bc")` differ), and
//! the chat id, then the splitmix64 finalizer so that ids differing in their last byte score
//! apart. [`score`] is part of the cluster's wire contract: changing it moves every chat.

/// FNV-1a 64's offset basis.
const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a 64's prime.
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// The weight of `node` for `chat`: the chat goes to the live node of the highest weight.
pub fn score(node: &str, chat: &str) -> u64 {
    let mut hash = FNV_OFFSET;
    for byte in node.bytes().chain([0xFF]).chain(chat.bytes()) {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(FNV_PRIME);
    }
    mix(hash)
}

/// splitmix64's finalizer (Steele, Lea and Flood 2014): every input bit moves every output
/// bit.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The node among `nodes` that serves `chat`: the highest [`score`], a tie (one chance in
/// 2^64) to the smaller id, so the answer doesn't depend on the order of `nodes`. `None` when
/// there is no node.
pub fn owner<'a, I>(chat: &str, nodes: I) -> Option<&'a str>
where
    I: IntoIterator<Item = &'a str>,
{
    nodes
        .into_iter()
        .map(|node| (score(node, chat), std::cmp::Reverse(node)))
        .max()
        .map(|(_, std::cmp::Reverse(node))| node)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    const NODES: [&str; 3] = [
        "0190a3c4-6f1e-7b8a-9c2d-3e4f5a6b7c8d",
        "0190a3c4-7a2b-7c9d-8e1f-2a3b4c5d6e7f",
        "0190a3c4-8b3c-7dae-9f20-1b2c3d4e5f60",
    ];

    fn chats(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("chat-{i}")).collect()
    }

    fn placed<'a>(chats: &[String], nodes: &[&'a str]) -> Vec<&'a str> {
        chats
            .iter()
            .map(|chat| owner(chat, nodes.iter().copied()).unwrap_or(""))
            .collect()
    }

    /// The hash is a contract between nodes built apart: these values are FNV-1a 64 and
    /// splitmix64 as published, and must never change.
    #[test]
    fn the_hash_is_fixed() {
        // FNV-1a 64 of the empty input is its offset basis; of "a", 0xaf63dc4c8601ec8c.
        let fnv = |bytes: &[u8]| {
            bytes.iter().fold(FNV_OFFSET, |h, b| {
                (h ^ u64::from(*b)).wrapping_mul(FNV_PRIME)
            })
        };
        assert_eq!(fnv(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv(b"foobar"), 0x8594_4171_f739_67e8);
        // splitmix64's first output from seed 0 is mix(0x9e3779b97f4a7c15) = 0xe220a8397b1dcdaf.
        assert_eq!(mix(0x9e37_79b9_7f4a_7c15), 0xe220_a839_7b1d_cdaf);
        assert_eq!(score("n", "c"), mix(fnv(b"n\xFFc")));
        assert_ne!(score("ab", "c"), score("a", "bc"));
    }

    #[test]
    fn the_same_live_set_places_the_same_way_in_any_order() {
        let chats = chats(1_000);
        let forward = placed(&chats, &NODES);
        let mut backward = NODES;
        backward.reverse();
        assert_eq!(forward, placed(&chats, &backward));
        assert_eq!(owner("c1", std::iter::empty()), None);
        assert_eq!(owner("c1", ["only"]), Some("only"));
    }

    #[test]
    fn every_node_gets_a_fair_share() {
        let chats = chats(10_000);
        let mut share: BTreeMap<&str, usize> = BTreeMap::new();
        for node in placed(&chats, &NODES) {
            *share.entry(node).or_default() += 1;
        }
        assert_eq!(share.len(), 3, "{share:?}");
        for (node, n) in &share {
            // 3,333 each, within ±10%.
            assert!(
                (3_000..=3_667).contains(n),
                "{node} has {n} of 10,000: {share:?}"
            );
        }
    }

    #[test]
    fn a_node_that_leaves_moves_only_its_own_chats() {
        let chats = chats(10_000);
        let before = placed(&chats, &NODES);
        let after = placed(&chats, &NODES[..2]);
        let mut moved = 0;
        for ((chat, was), is) in chats.iter().zip(&before).zip(&after) {
            if *was == NODES[2] {
                moved += 1;
                assert_ne!(*is, NODES[2], "{chat}");
            } else {
                assert_eq!(was, is, "{chat} moved though its node stayed");
            }
        }
        assert!(moved > 3_000, "{moved}");
    }

    #[test]
    fn a_node_that_joins_takes_about_one_in_n() {
        let chats = chats(10_000);
        let joined = "0190a3c4-9c4d-7ebf-a031-0c1d2e3f4a5b";
        let before = placed(&chats, &NODES);
        let four = [NODES[0], NODES[1], NODES[2], joined];
        let after = placed(&chats, &four);
        let mut taken = 0;
        for ((chat, was), is) in chats.iter().zip(&before).zip(&after) {
            if was != is {
                assert_eq!(*is, joined, "{chat} moved between two old nodes");
                taken += 1;
            }
        }
        // 2,500 of 10,000, within ±10%.
        assert!(
            (2_250..=2_750).contains(&taken),
            "the new node took {taken}"
        );
    }
}
