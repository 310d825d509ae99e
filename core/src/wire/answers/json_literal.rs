//! A JSON value's text carried as a JSON string, written in one pass: what Chat Completions,
//! the Responses API and the Messages API need of a JSON output in raw answers
//! ([`write_raw_answers`](super::write_raw_answers)).
//!
//! Rendering the value to a `String` and then escaping that `String` into the message reads
//! and writes the text twice; here `serde_json`'s own serializer walks the value once, through
//! a [`Formatter`] that writes each token as it reads inside a JSON string (a quote as `\"`,
//! an escape such as `\n` as `\\n`), and counts the text it stands for, for the length limit.
//! The result is byte for byte `serde_json::to_string` of the `String` `to_string` of the
//! value would give (tested below, and by `fixtures/provider-wire/written/`).

use std::io;

use serde::Serialize;
use serde_json::ser::{CharEscape, Formatter};
use serde_json::value::RawValue;
use serde_json::Value;

/// `value`'s compact JSON text as a JSON string literal (quotes included), and the length in
/// bytes of the text it carries (`serde_json::to_string(value)`'s).
pub(crate) fn json_text_literal(value: &Value) -> (Box<RawValue>, usize) {
    // Room for an output of a kilobyte or two without growing; a smaller one is shrunk to fit
    // (in place) when it becomes a `RawValue`.
    let mut bytes = Vec::with_capacity(2048);
    bytes.push(b'"');
    let mut extra = 0;
    let mut serializer =
        serde_json::Serializer::with_formatter(&mut bytes, InString { extra: &mut extra });
    // Infallible: writing to a `Vec` cannot fail, and a `Value`'s keys are strings.
    let _ = value.serialize(&mut serializer);
    bytes.push(b'"');
    let text_len = bytes.len() - 2 - extra;
    // Checked: `serde_json` writes only UTF-8 (the strings it copies are `str`s), and the check
    // is an ASCII fast path, cheap beside the render. The fallback (never taken) renders and
    // escapes in two passes.
    let Ok(text) = String::from_utf8(bytes) else {
        let text = serde_json::to_string(value).unwrap_or_default();
        let literal = serde_json::value::to_raw_value(&text);
        return (literal.unwrap_or_default(), text.len());
    };
    // SAFETY: `text` is one well-formed JSON string and nothing else: a quote, what
    // `serde_json`'s serializer wrote of the value through `InString` (which writes every
    // quote and backslash it is given escaped, and `serde_json` hands it no control
    // character unescaped), and a quote; the tests below hold it equal to `serde_json`'s own
    // escaping of the text, for every kind of value. `from_string_unchecked` exists for this
    // case ("the output of another JSON serializer"); the checked `from_string` parses the
    // literal again, which measured as much as the render itself (docs/performance.md).
    // Debug builds check it anyway (`serde_json`'s `debug_assert!`).
    let literal = unsafe { RawValue::from_string_unchecked(text) };
    (literal, text_len)
}

/// `serde_json`'s compact formatting, each token written as it reads inside a JSON string.
/// Only strings need it: punctuation, numbers, `true`, `false` and `null` hold no quote,
/// backslash or control character, and a string's unescaped runs hold none either (the first
/// level escaped them), so they are written as they are. `extra` counts the bytes written
/// beyond the text they stand for.
struct InString<'a> {
    extra: &'a mut usize,
}

impl Formatter for InString<'_> {
    fn begin_string<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        *self.extra += 1;
        writer.write_all(b"\\\"")
    }

    fn end_string<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        *self.extra += 1;
        writer.write_all(b"\\\"")
    }

    fn write_char_escape<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        char_escape: CharEscape,
    ) -> io::Result<()> {
        // Each escape as `serde_json` writes it (its `Formatter::write_char_escape`), then that
        // text escaped again: its backslash doubled, and a quote or backslash after it escaped.
        let escaped: &[u8] = match char_escape {
            CharEscape::Quote => b"\\\\\\\"",
            CharEscape::ReverseSolidus => b"\\\\\\\\",
            CharEscape::Solidus => b"\\\\/",
            CharEscape::Backspace => b"\\\\b",
            CharEscape::FormFeed => b"\\\\f",
            CharEscape::LineFeed => b"\\\\n",
            CharEscape::CarriageReturn => b"\\\\r",
            CharEscape::Tab => b"\\\\t",
            CharEscape::AsciiControl(byte) => {
                const HEX_DIGITS: [u8; 16] = *b"0123456789abcdef";
                *self.extra += 1;
                return writer.write_all(&[
                    b'\\',
                    b'\\',
                    b'u',
                    b'0',
                    b'0',
                    HEX_DIGITS[usize::from(byte >> 4)],
                    HEX_DIGITS[usize::from(byte & 0xF)],
                ]);
            }
        };
        // The first level wrote two bytes.
        *self.extra += escaped.len() - 2;
        writer.write_all(escaped)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::{json, Value};

    use super::json_text_literal;

    fn value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            any::<f64>().prop_map(Value::from),
            any::<String>().prop_map(Value::String),
            "[\"\\\\\u{0}-\u{1f}\u{7f}é/ a]{0,12}".prop_map(Value::String),
        ];
        leaf.prop_recursive(4, 32, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                prop::collection::btree_map(any::<String>(), inner, 0..6)
                    .prop_map(|map| Value::Object(map.into_iter().collect())),
            ]
        })
    }

    fn twice(value: &Value) -> (String, usize) {
        let text = serde_json::to_string(value).unwrap();
        (serde_json::to_string(&text).unwrap(), text.len())
    }

    #[test]
    fn every_escape_is_escaped_again() {
        let value = json!({"a\"b": ["\\", "/", "\u{8}\u{c}\n\r\t", "\u{0}\u{1f}\u{7f}", "é"], "n": [1, -2, 0.5, null, true]});
        let (literal, len) = json_text_literal(&value);
        assert_eq!((literal.get().to_owned(), len), twice(&value));
    }

    proptest! {
        /// The literal is the text `to_string` of the value's text writes, and the length is
        /// that text's.
        #[test]
        fn the_literal_is_the_text_escaped(value in value()) {
            let (literal, len) = json_text_literal(&value);
            prop_assert_eq!((literal.get().to_owned(), len), twice(&value));
        }
    }
}
