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
//!
//! Converse and Gemini carry a JSON object as a value: in raw answers it is written as it is
//! ([`write_json_value`]), measured the same way, so neither format walks it first to bound its
//! length (nor, for Gemini, to find a `$ref` key: the writer refuses one as it meets it).

use std::cell::Cell;
use std::io;

use serde::Serialize;
use serde_json::ser::{CharEscape, CompactFormatter, Formatter};
use serde_json::value::RawValue;
use serde_json::Value;

/// `value`'s compact JSON text as a JSON string literal (quotes included), and the length in
/// bytes of the text it carries (`serde_json::to_string(value)`'s), when that text is at most
/// `most` bytes; `None` as soon as the render passes `most` (it stops there: an output over
/// the limit costs no more than the limit to find out).
pub(crate) fn json_text_literal(value: &Value, most: usize) -> Option<(Box<RawValue>, usize)> {
    // Room for an output of a kilobyte or two without growing; a smaller one's buffer is
    // shrunk to fit (a reallocation) when it becomes a `RawValue`.
    let mut bytes = Vec::with_capacity(2048.min(most.saturating_add(2)));
    // Fails only where `Capped` refuses a write past `most` (a `Vec` cannot fail otherwise,
    // and a `Value`'s keys are strings).
    let text_len = write_json_text_literal(value, &mut bytes, most).ok()?;
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
/// `writer`, in one pass, and returns the length in bytes of the text it carries
/// (`serde_json::to_string(value)`'s); an error once that text passes `most`, having written
/// at most a token past it (what was written is then a part of the literal). For
/// [`json_text_literal`], and for a raw message that carries the output in place
/// ([`Splice`](super::out::Splice)).
pub(crate) fn write_json_text_literal<W: ?Sized + io::Write>(
    value: &Value,
    writer: &mut W,
    most: usize,
) -> io::Result<usize> {
    let count = Count {
        written: Cell::new(0),
        extra: Cell::new(0),
        most,
    };
    writer.write_all(b"\"")?;
    let out = Counted {
        writer: &mut *writer,
        count: &count,
    };
    // `Counted` itself, not a reference to it, so each write is its own, inlined.
    let mut serializer = serde_json::Serializer::with_formatter(out, InString { count: &count });
    value.serialize(&mut serializer).map_err(io::Error::other)?;
    // Exact: the checks on the way may let the text pass `most` by a token.
    count.check(0)?;
    writer.write_all(b"\"")?;
    Ok(count.text_len())
}

/// Writes `value`'s compact JSON text into `writer` as `serde_json` writes it, in one pass,
/// measured as it is written: an error once the text passes `most` (having written at most a
/// token past it), or, with `refuse_ref`, where an object has a `$ref` key (Gemini reads one
/// as a reference: `gemini/answers.rs`). For a raw message that carries a JSON output as a
/// value in place ([`Splice`](super::out::Splice)).
pub(crate) fn write_json_value<W: ?Sized + io::Write>(
    value: &Value,
    writer: &mut W,
    most: usize,
    refuse_ref: bool,
) -> io::Result<()> {
    let count = Count {
        written: Cell::new(0),
        extra: Cell::new(0),
        most,
    };
    let out = Counted {
        writer: &mut *writer,
        count: &count,
    };
    let formatter = Plain {
        count: &count,
        refuse_ref,
        key: Key::Value,
    };
    let mut serializer = serde_json::Serializer::with_formatter(out, formatter);
    value.serialize(&mut serializer).map_err(io::Error::other)?;
    count.check(0)
}

/// Where [`Plain`] is in an object key, for telling a `$ref` key: a key's text comes as string
/// fragments and escapes, and `$ref` is one fragment alone (it holds nothing to escape).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Key {
    /// Not in a key.
    Value,
    /// At a key's start.
    Start,
    /// After a key's first fragment, `$ref`.
    Ref,
    /// In a key that is not `$ref`.
    Other,
}

/// `serde_json`'s compact formatting (its `Formatter`'s default methods), measured as
/// [`InString`] is, and telling a `$ref` key where `refuse_ref`.
struct Plain<'a> {
    count: &'a Count,
    refuse_ref: bool,
    key: Key,
}

impl Formatter for Plain<'_> {
    #[inline(always)]
    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.count.check(0)?;
        if first {
            Ok(())
        } else {
            writer.write_all(b",")
        }
    }

    #[inline(always)]
    fn end_array<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.count.check(0)?;
        writer.write_all(b"]")
    }

    #[inline(always)]
    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.count.check(0)?;
        if self.refuse_ref {
            self.key = Key::Start;
        }
        if first {
            Ok(())
        } else {
            writer.write_all(b",")
        }
    }

    #[inline(always)]
    fn end_object_key<W: ?Sized + io::Write>(&mut self, _writer: &mut W) -> io::Result<()> {
        if self.key == Key::Ref {
            return Err(io::Error::other("a `$ref` key"));
        }
        self.key = Key::Value;
        Ok(())
    }

    #[inline(always)]
    fn end_object<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.count.check(0)?;
        writer.write_all(b"}")
    }

    #[inline(always)]
    fn write_string_fragment<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        self.count.check(fragment.len())?;
        match self.key {
            Key::Value => {}
            Key::Start if fragment == "$ref" => self.key = Key::Ref,
            _ => self.key = Key::Other,
        }
        writer.write_all(fragment.as_bytes())
    }

    #[inline(always)]
    fn write_char_escape<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        char_escape: CharEscape,
    ) -> io::Result<()> {
        self.count.check(0)?;
        if self.key != Key::Value {
            self.key = Key::Other;
        }
        CompactFormatter.write_char_escape(writer, char_escape)
    }

    #[inline(always)]
    fn write_number_str<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        value: &str,
    ) -> io::Result<()> {
        self.count.check(value.len())?;
        writer.write_all(value.as_bytes())
    }
}

/// What the literal's text has come to: the bytes `written` after its opening quote, the
/// `extra` ones among them that escape the text they stand for, and the most that text may be.
struct Count {
    written: Cell<usize>,
    extra: Cell<usize>,
    most: usize,
}

impl Count {
    /// The length of the text written so far.
    #[inline(always)]
    fn text_len(&self) -> usize {
        // `extra` counts bytes among those `written`: never more.
        self.written.get().saturating_sub(self.extra.get())
    }

    /// An error when the text written so far and `more` bytes of it pass `most`.
    #[inline(always)]
    fn check(&self, more: usize) -> io::Result<()> {
        if self.text_len().saturating_add(more) > self.most {
            return Err(io::Error::other("past the limit"));
        }
        Ok(())
    }
}

/// Where the literal's text goes (after its opening quote), counted.
struct Counted<'a, W: ?Sized> {
    writer: &'a mut W,
    count: &'a Count,
}

impl<W: ?Sized + io::Write> io::Write for Counted<'_, W> {
    // Inlined where `serde_json` writes each token: most are of a length known there (a quote,
    // an escape, a comma), which then is copied without a call (not inlined, every token was
    // a call and a `memcpy`: 40% more instructions for a 1.5 KB output).
    #[inline(always)]
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.writer.write_all(buf)?;
        self.count.written.set(self.count.written.get() + buf.len());
        Ok(buf.len())
    }

    #[inline(always)]
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
/// level escaped them), so they are written as they are. `count.extra` counts the bytes
/// written beyond the text they stand for.
///
/// The limit is checked before each array element and object member, each string fragment
/// (with its length) and each escape, and at each array's and object's end: not at every
/// write (measured at 10% of a 1.5 KB output's render), but so that the render stops at most
/// a token (a number, `null`, `true`, `false`, a bracket) past the limit, however large the
/// value.
struct InString<'a> {
    count: &'a Count,
}

impl Formatter for InString<'_> {
    #[inline(always)]
    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.count.check(0)?;
        if first {
            Ok(())
        } else {
            writer.write_all(b",")
        }
    }

    #[inline(always)]
    fn end_array<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.count.check(0)?;
        writer.write_all(b"]")
    }

    #[inline(always)]
    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.count.check(0)?;
        if first {
            Ok(())
        } else {
            writer.write_all(b",")
        }
    }

    #[inline(always)]
    fn end_object<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.count.check(0)?;
        writer.write_all(b"}")
    }

    #[inline(always)]
    fn write_string_fragment<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        self.count.check(fragment.len())?;
        writer.write_all(fragment.as_bytes())
    }

    #[inline(always)]
    fn write_number_str<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        value: &str,
    ) -> io::Result<()> {
        self.count.check(value.len())?;
        writer.write_all(value.as_bytes())
    }

    fn begin_string<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.count.extra.set(self.count.extra.get() + 1);
        writer.write_all(b"\\\"")
    }

    fn end_string<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.count.extra.set(self.count.extra.get() + 1);
        writer.write_all(b"\\\"")
    }

    fn write_char_escape<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        char_escape: CharEscape,
    ) -> io::Result<()> {
        self.count.check(0)?;
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
                self.count.extra.set(self.count.extra.get() + 1);
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
        self.count
            .extra
            .set(self.count.extra.get() + escaped.len() - 2);
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
