//! Any chunking of a stream's bytes gives the same calls and the same end: bytes split
//! anywhere (inside `data:`, inside a CRLF, inside `Zürich`'s two-byte `ü`), into any number
//! of chunks.

use proptest::prelude::*;
use proptest::sample::Index;

use crate::fixtures::{assemble, bytes, entries, Assembled};

fn streams() -> Vec<(
    String,
    toolwire_core::wire::calls::CallFormat,
    Vec<u8>,
    Assembled,
)> {
    entries("stream")
        .into_iter()
        .map(|entry| {
            let text = bytes(&entry.file);
            let whole = assemble(&entry.file, entry.format(), &text, &[]);
            (entry.file.clone(), entry.format(), text, whole)
        })
        .collect()
}

#[test]
fn one_byte_at_a_time_gives_the_same_calls() {
    for (file, format, text, whole) in streams() {
        let cuts: Vec<usize> = (1..text.len()).collect();
        assert_eq!(assemble(&file, format, &text, &cuts), whole, "{file}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn random_cuts_give_the_same_calls(picks in prop::collection::vec(any::<Index>(), 0..48)) {
        for (file, format, text, whole) in streams() {
            let mut cuts: Vec<usize> = picks.iter().map(|pick| pick.index(text.len() + 1)).collect();
            cuts.sort_unstable();
            let chunked = assemble(&file, format, &text, &cuts);
            prop_assert_eq!(&chunked, &whole, "{} cut at {:?}", file, cuts);
        }
    }
}
