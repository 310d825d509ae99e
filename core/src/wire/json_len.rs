//! The length of a value's compact JSON text (what `serde_json::to_string` writes), bounded
//! by a walk that formats nothing, or counted exactly without keeping the text: for the limits
//! on a call's arguments and on an answer's text, which only the rare value near the limit
//! needs counted.

use serde_json::{Number, Value};

/// An upper bound of the length of `value`'s compact JSON: a string's bytes each escaped at
/// most to six (`\u001f`), its quotes; a number as [`number_len_bound`] says; the punctuation.
pub(crate) fn json_len_bound(value: &Value) -> usize {
    match value {
        Value::Null | Value::Bool(_) => 5,
        Value::Number(number) => number_len_bound(number),
        Value::String(text) => 2 + 6 * text.len(),
        Value::Array(items) => {
            2 + items
                .iter()
                .map(|item| json_len_bound(item) + 1)
                .sum::<usize>()
        }
        Value::Object(map) => {
            2 + map
                .iter()
                .map(|(key, item)| 2 + 6 * key.len() + 2 + json_len_bound(item))
                .sum::<usize>()
        }
    }
}

/// At least the length of `number` as `serde_json` writes it, without formatting a float: an
/// integer's digits exactly, a float 24 bytes (the most `serde_json` writes of an `f64`: it
/// formats them with `zmij`, whose buffer is 24 bytes, `zmij` 1.0 `BUFFER_SIZE`; and a shortest
/// round-trip `f64` needs no more: a sign, 17 digits, a point and `e` with a sign and three
/// digits, as `-2.8000497941101916e+275` is). With
/// serde_json's `arbitrary_precision` feature, which any crate of the build can turn on, a
/// `Number` holds its text as it was read, of any length and form (`-0`, `1E400`): then its
/// length is counted exactly.
pub(crate) fn number_len_bound(number: &Number) -> usize {
    /// The most bytes `serde_json` writes of an `f64`.
    const F64_TEXT_MAX: usize = 24;
    if holds_number_text() {
        number_len(number)
    } else if let Some(n) = number.as_u64() {
        digits(n)
    } else if let Some(n) = number.as_i64() {
        1 + digits(n.unsigned_abs())
    } else {
        F64_TEXT_MAX
    }
}

/// The decimal digits of `n`.
fn digits(n: u64) -> usize {
    n.checked_ilog10().map_or(1, |log| log as usize + 1)
}

/// The length of `number` as `serde_json` writes it, counted without a copy: its `Display` is
/// the text its serializer writes (`itoa` / `zmij`, or the held text under
/// `arbitrary_precision`).
pub(crate) fn number_len(number: &Number) -> usize {
    use std::fmt::Write as _;
    let mut count = CharCount(0);
    // Infallible: `CharCount` never refuses a write.
    let _ = write!(count, "{number}");
    count.0
}

/// A `fmt::Write` that keeps only how many bytes it was given.
struct CharCount(usize);

impl std::fmt::Write for CharCount {
    fn write_str(&mut self, text: &str) -> std::fmt::Result {
        self.0 += text.len();
        Ok(())
    }
}

/// The length of `value`'s compact JSON text, counted as `serde_json` writes it: no copy.
pub(crate) fn json_len(value: &Value) -> usize {
    let mut count = ByteCount(0);
    // Infallible: `ByteCount` never refuses a write, and a `Value` always serializes.
    let _ = serde_json::to_writer(&mut count, value);
    count.0
}

/// An `io::Write` that keeps only how many bytes it was given.
struct ByteCount(usize);

impl std::io::Write for ByteCount {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len();
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Whether this build's `serde_json` keeps a number's text as it was read
/// (`arbitrary_precision`): told by the text it writes of `1.50`. Asked once.
pub(crate) fn holds_number_text() -> bool {
    static HOLDS: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *HOLDS.get_or_init(|| {
        serde_json::from_str::<Number>("1.50").is_ok_and(|number| number.to_string() == "1.50")
    })
}
