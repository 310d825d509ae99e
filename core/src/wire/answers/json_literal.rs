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

use std::cell::Cell;
use std::io;

use serde::Serialize;
use serde_json::ser::{CharEscape, Formatter};
use serde_json::value::RawValue;
use serde_json::Value;

/// `value`'s compact JSON text as a JSON string literal (quotes included), and the length in
/// bytes of the text it carries (`serde_json::to_string(value)`'s), when that text is at most
/// `most` bytes; `None` as soon as the render passes `most` (it stops there: an output over
/// the limit costs no more than the limit to find out).
pub(crate) fn json_text_literal(value: &Value, most: usize) -> Option<(Box<RawValue>, usize)> {
    // Room for an output of a kilobyte or two without growing; a smaller one's buffer is
    // shrunk to fit (a reallocation) when it becomes a `RawValue`.
    let extra = Cell::new(0);
    let mut out = Capped {
        bytes: Vec::with_capacity(2048.min(most.saturating_add(2))),
        extra: &extra,
        most,
    };
    out.bytes.push(b'"');
    let mut serializer =
        serde_json::Serializer::with_formatter(&mut out, InString { extra: &extra });
    // Fails only where `Capped` refuses a write past `most` (a `Vec` cannot fail otherwise,
    // and a `Value`'s keys are strings).
    value.serialize(&mut serializer).ok()?;
    let mut bytes = out.bytes;
    bytes.push(b'"');
    let text_len = bytes.len() - 2 - extra.get();
    // Checked: `serde_json` writes only UTF-8 (the strings it copies are `str`s), and the check
    // is an ASCII fast path, cheap beside the render. The fallback (never taken) renders and
    // escapes in two passes.
    let Ok(text) = String::from_utf8(bytes) else {
        let text = serde_json::to_string(value).unwrap_or_default();
        let literal = serde_json::value::to_raw_value(&text);
        return Some((literal.unwrap_or_default(), text.len()));
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
    Some((literal, text_len))
}

/// Writes `value`'s compact JSON text as a JSON string literal (quotes included) into
/// `writer`, in one pass and with no limit: for a raw message that carries the output in place
/// ([`Splice`](super::out::Splice)), once the output is known to fit (its length bound is
/// within the limit). The same bytes as [`json_text_literal`]'s literal (tested below).
pub(crate) fn write_json_text_literal<W: ?Sized + io::Write>(
    value: &Value,
    writer: &mut W,
) -> io::Result<()> {
    let extra = Cell::new(0);
    writer.write_all(b"\"")?;
    let mut serializer =
        serde_json::Serializer::with_formatter(&mut *writer, InString { extra: &extra });
    value.serialize(&mut serializer).map_err(io::Error::other)?;
    writer.write_all(b"\"")
}

/// The literal's bytes so far, refusing a write once the text they stand for (the bytes
/// after the opening quote, less the `extra` escaping bytes) passes `most`.
struct Capped<'a> {
    bytes: Vec<u8>,
    extra: &'a Cell<usize>,
    most: usize,
}

impl io::Write for Capped<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        // `InString` counts a write's escaping bytes before it writes them, so the text this
        // write would make is known before it is copied.
        if self.bytes.len() + buf.len() - 1 - self.extra.get() > self.most {
            return Err(io::Error::other("past the limit"));
        }
        self.bytes.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.write(buf).map(drop)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// `serde_json`'s compact formatting, each token written as it reads inside a JSON string.
/// Only strings need it: punctuation, numbers, `true`, `false` and `null` hold no quote,
/// backslash or control character, and a string's unescaped runs hold none either (the first
/// level escaped them), so they are written as they are. `extra` counts the bytes written
/// beyond the text they stand for.
struct InString<'a> {
    extra: &'a Cell<usize>,
}

impl Formatter for InString<'_> {
    fn begin_string<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.extra.set(self.extra.get() + 1);
        writer.write_all(b"\\\"")
    }

    fn end_string<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.extra.set(self.extra.get() + 1);
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
                self.extra.set(self.extra.get() + 1);
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
        self.extra.set(self.extra.get() + escaped.len() - 2);
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
        let (literal, len) = json_text_literal(&value, usize::MAX).unwrap();
        assert_eq!((literal.get().to_owned(), len), twice(&value));
    }

    #[test]
    fn a_render_past_the_limit_stops_and_one_at_it_is_whole() {
        let value = json!({"a\"b": ["\n\u{1}", 1.5, null]});
        let (_, len) = twice(&value);
        assert_eq!(json_text_literal(&value, len).unwrap().1, len);
        assert!(json_text_literal(&value, len - 1).is_none());
        assert!(json_text_literal(&value, 0).is_none());
    }

    proptest! {
        /// The literal is the text `to_string` of the value's text writes, and the length is
        /// that text's.
        #[test]
        fn the_literal_is_the_text_escaped(value in value()) {
            let (text, len) = twice(&value);
            let (literal, counted) = json_text_literal(&value, len).unwrap();
            prop_assert_eq!((literal.get().to_owned(), counted), (text, len));
            prop_assert!(len == 0 || json_text_literal(&value, len - 1).is_none());
        }
    }
}
