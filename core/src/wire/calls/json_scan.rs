//! Whether a streamed call's argument text is one whole JSON value yet, decided from every
//! fragment as it comes, kept or not. A stream stops keeping a call's text once it passes the
//! arguments limit (`ArgumentsText`), so a decision read from the kept text would change with
//! the limit: the Chat Completions machine asks "are these arguments whole?" to tell a second
//! call at a reused index from the same call with an id minted anew, and under a small limit
//! it would merge two calls into one (as the `calls` fuzz target found on
//! `fixtures/provider-wire/openai-chat/stream-quirk-index-missing.sse`). This scanner holds
//! no text, only a state of a few bytes, so the limit never changes which calls there are.
//!
//! Why no crate: a partial-JSON parser (jiter's partial mode, `partial-json-fixer`) or
//! serde_json's `StreamDeserializer` reads a buffer it is given again on every fragment, so it
//! needs the text kept, which past the limit it is not, and costs the whole text per fragment.
//! What is wanted is a push scanner of fixed size that holds no text and answers one question
//! (has the value ended?); that is these few hundred lines, less than a dependency of every
//! user (our choice).
//!
//! The grammar is the one serde_json 1.0 checks when it skips a value (`Deserializer::
//! ignore_value`, `ignore_integer`, `ignore_decimal`, `ignore_exponent` in `de.rs`;
//! `ignore_str`, `ignore_escape` in `read.rs`), which is what the machine asked before
//! (`serde_json::from_str::<IgnoredAny>`): RFC 8259 JSON, whitespace `' ' \n \t \r`, no
//! control character in a string, `\u` followed by any four hex digits, and nothing but
//! whitespace after the value. One difference, our caution: serde_json skips any depth, and
//! this scanner holds the kinds of its open containers in a `u128`, so a hostile stream cannot
//! grow it. Text nested deeper than 127 levels is never whole ([`JsonScan::is_whole`]): that is
//! the depth past which `serde_json::Value`, which reads the arguments in the end, refuses them
//! ("recursion limit exceeded": `remaining_depth` starts at 128 in `de.rs`), so such arguments
//! are never usable. But the scanner still follows such text to its end, counting the levels
//! past 127 and reading only strings and brackets there ([`JsonScan::is_ended`]): whether a
//! call's arguments have ended is what tells a second call at a reused index from the same
//! call with an id minted anew, and too deep arguments must not merge the call after them.

/// Deepest nesting of arrays and objects the scanner follows (see the module doc).
const MAX_DEPTH: u8 = 127;

/// Where the scanner stands in the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// A value must come; `close` when a `]` may come instead (right after `[`).
    Value { close: bool },
    /// An object key must come; `close` when a `}` may come instead (right after `{`).
    Key { close: bool },
    /// After a key, `:` must come.
    Colon,
    /// After a value inside a container: `,` or the container's close.
    AfterValue,
    /// Inside a string (a key when `key`), and within an escape how far.
    Str { key: bool, escape: Escape },
    /// Inside a number, at this point of its grammar.
    Number(Number),
    /// Inside `true`, `false` or `null`: the bytes still to come.
    Literal(&'static [u8]),
    /// Past [`MAX_DEPTH`] levels: only strings and brackets are read, until the levels past it
    /// close.
    Deep(Deep),
    /// The top-level value is done: only whitespace may follow.
    End,
    /// The text can never be one JSON value.
    Broken,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Escape {
    None,
    /// Just after `\`.
    Backslash,
    /// Inside `\uXXXX`, with this many hex digits still to come.
    Hex(u8),
}

/// Where the scanner stands past [`MAX_DEPTH`] levels: outside a string, inside one, or just
/// after a `\` inside one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Deep {
    Out,
    Str,
    Escaped,
}

/// The parts of a number (`-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Number {
    Minus,
    Zero,
    Int,
    Dot,
    Frac,
    Exp,
    ExpSign,
    ExpDigits,
}

impl Number {
    /// Whether a number may end here.
    fn can_end(self) -> bool {
        matches!(
            self,
            Number::Zero | Number::Int | Number::Frac | Number::ExpDigits
        )
    }
}

/// The scanner: fed every fragment in order, it says whether the text so far is one whole
/// JSON value (and whether that value is the empty object).
#[derive(Clone, Copy, Debug)]
pub(crate) struct JsonScan {
    state: State,
    /// One bit per open container, innermost at bit `depth - 1`: set for an object.
    objects: u128,
    depth: u8,
    /// The levels open past [`MAX_DEPTH`] (only counted: their kinds are not kept).
    extra: u32,
    /// Whether the text went past [`MAX_DEPTH`] levels: it is then never whole.
    too_deep: bool,
    /// Bytes other than JSON whitespace so far, up to 3 (enough to know `{}`).
    significant: u8,
    /// The first byte other than whitespace.
    first: Option<u8>,
}

impl Default for JsonScan {
    fn default() -> JsonScan {
        JsonScan {
            state: State::Value { close: false },
            objects: 0,
            depth: 0,
            extra: 0,
            too_deep: false,
            significant: 0,
            first: None,
        }
    }
}

fn is_whitespace(byte: u8) -> bool {
    matches!(byte, b' ' | b'\n' | b'\t' | b'\r')
}

impl JsonScan {
    /// Reads one more fragment.
    pub(crate) fn feed(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            if self.state == State::Broken {
                return;
            }
            if !is_whitespace(byte) {
                self.first.get_or_insert(byte);
                self.significant = self.significant.saturating_add(1).min(3);
            }
            self.byte(byte);
        }
    }

    /// Whether the text so far is exactly one JSON value, with whitespace around it (never
    /// when it nests deeper than [`MAX_DEPTH`] levels).
    pub(crate) fn is_whole(&self) -> bool {
        self.is_ended() && !self.too_deep
    }

    /// Whether the text so far is one value that has ended, as [`is_whole`](Self::is_whole)
    /// but for text nested deeper than [`MAX_DEPTH`] levels, whose deep part is read for its
    /// strings and brackets only: it ends where its brackets close.
    pub(crate) fn is_ended(&self) -> bool {
        match self.state {
            State::End => true,
            State::Number(number) => self.depth == 0 && number.can_end(),
            _ => false,
        }
    }

    /// Whether the text so far is the empty object `{}` (whitespace around and inside it).
    pub(crate) fn is_empty_object(&self) -> bool {
        // The only whole JSON text of two bytes that begins with `{`.
        self.is_whole() && self.significant == 2 && self.first == Some(b'{')
    }

    fn byte(&mut self, byte: u8) {
        self.state = match self.state {
            State::Value { close } => match byte {
                _ if is_whitespace(byte) => self.state,
                b']' if close => self.close(),
                _ => self.value(byte),
            },
            State::Key { close } => match byte {
                _ if is_whitespace(byte) => self.state,
                b'}' if close => self.close(),
                b'"' => State::Str {
                    key: true,
                    escape: Escape::None,
                },
                _ => State::Broken,
            },
            State::Colon => match byte {
                _ if is_whitespace(byte) => State::Colon,
                b':' => State::Value { close: false },
                _ => State::Broken,
            },
            State::AfterValue => self.after_value(byte),
            State::End => match byte {
                _ if is_whitespace(byte) => State::End,
                _ => State::Broken,
            },
            State::Str { key, escape } => self.string(key, escape, byte),
            State::Number(number) => match Self::number(number, byte) {
                Some(next) => State::Number(next),
                // The number ends before this byte, which the value's end then reads.
                None if number.can_end() => {
                    self.state = self.value_done();
                    return self.byte(byte);
                }
                None => State::Broken,
            },
            State::Literal(rest) => match rest.split_first() {
                Some((&want, [])) if want == byte => self.value_done(),
                Some((&want, rest)) if want == byte => State::Literal(rest),
                _ => State::Broken,
            },
            State::Deep(deep) => self.deep(deep, byte),
            State::Broken => State::Broken,
        };
    }

    /// One byte past [`MAX_DEPTH`] levels: strings are skipped, brackets counted; when the
    /// last level past it closes, the container at [`MAX_DEPTH`] goes on.
    fn deep(&mut self, deep: Deep, byte: u8) -> State {
        State::Deep(match (deep, byte) {
            (Deep::Out, b'"') => Deep::Str,
            (Deep::Out, b'[' | b'{') => match self.extra.checked_add(1) {
                Some(extra) => {
                    self.extra = extra;
                    Deep::Out
                }
                None => return State::Broken,
            },
            (Deep::Out, b']' | b'}') => {
                self.extra -= 1;
                if self.extra == 0 {
                    return self.value_done();
                }
                Deep::Out
            }
            (Deep::Out, _) => Deep::Out,
            (Deep::Str, b'\\') => Deep::Escaped,
            (Deep::Str, b'"') => Deep::Out,
            (Deep::Str | Deep::Escaped, _) => Deep::Str,
        })
    }

    /// The first byte of a value.
    fn value(&mut self, byte: u8) -> State {
        match byte {
            b'{' => self.open(true),
            b'[' => self.open(false),
            b'"' => State::Str {
                key: false,
                escape: Escape::None,
            },
            b'-' => State::Number(Number::Minus),
            b'0' => State::Number(Number::Zero),
            b'1'..=b'9' => State::Number(Number::Int),
            b't' => State::Literal(b"rue"),
            b'f' => State::Literal(b"alse"),
            b'n' => State::Literal(b"ull"),
            _ => State::Broken,
        }
    }

    fn after_value(&mut self, byte: u8) -> State {
        let in_object = self.innermost_is_object();
        match byte {
            _ if is_whitespace(byte) => State::AfterValue,
            b',' if in_object => State::Key { close: false },
            b',' => State::Value { close: false },
            b'}' if in_object => self.close(),
            b']' if !in_object => self.close(),
            _ => State::Broken,
        }
    }

    fn string(&self, key: bool, escape: Escape, byte: u8) -> State {
        let escape = match (escape, byte) {
            (Escape::None, b'"') if key => return State::Colon,
            (Escape::None, b'"') => return self.value_done(),
            (Escape::None, b'\\') => Escape::Backslash,
            (_, 0x00..=0x1f) => return State::Broken,
            (Escape::None, _) => Escape::None,
            (Escape::Backslash, b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => {
                Escape::None
            }
            (Escape::Backslash, b'u') => Escape::Hex(4),
            (Escape::Hex(left), b'0'..=b'9' | b'a'..=b'f' | b'A'..=b'F') => match left {
                1 => Escape::None,
                _ => Escape::Hex(left - 1),
            },
            _ => return State::Broken,
        };
        State::Str { key, escape }
    }

    /// The number's next part after `byte`, or `None` when `byte` is not part of it.
    fn number(number: Number, byte: u8) -> Option<Number> {
        Some(match (number, byte) {
            (Number::Minus, b'0') => Number::Zero,
            (Number::Minus, b'1'..=b'9') => Number::Int,
            (Number::Int, b'0'..=b'9') => Number::Int,
            (Number::Zero | Number::Int, b'.') => Number::Dot,
            (Number::Dot | Number::Frac, b'0'..=b'9') => Number::Frac,
            (Number::Zero | Number::Int | Number::Frac, b'e' | b'E') => Number::Exp,
            (Number::Exp, b'+' | b'-') => Number::ExpSign,
            (Number::Exp | Number::ExpSign | Number::ExpDigits, b'0'..=b'9') => Number::ExpDigits,
            // Nothing follows a leading `0` but `.` or an exponent: serde_json, "There can be
            // only one leading '0'" (`ignore_integer`); the digit then breaks the text.
            _ => return None,
        })
    }

    fn innermost_is_object(&self) -> bool {
        self.depth > 0 && self.objects >> (self.depth - 1) & 1 == 1
    }

    fn open(&mut self, object: bool) -> State {
        if self.depth == MAX_DEPTH {
            self.too_deep = true;
            self.extra = 1;
            return State::Deep(Deep::Out);
        }
        let bit = 1u128 << self.depth;
        if object {
            self.objects |= bit;
        } else {
            self.objects &= !bit;
        }
        self.depth += 1;
        if object {
            State::Key { close: true }
        } else {
            State::Value { close: true }
        }
    }

    /// Closes the innermost container (the caller checked its kind).
    fn close(&mut self) -> State {
        self.depth -= 1;
        self.value_done()
    }

    /// A value just ended: the container's rest, or the end of the text.
    fn value_done(&self) -> State {
        if self.depth == 0 {
            State::End
        } else {
            State::AfterValue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// serde_json's own answer to "is this one JSON value?", as the machine asked it before.
    fn serde_whole(text: &str) -> bool {
        serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok()
    }

    fn scanned(fragments: &[&str]) -> JsonScan {
        let mut scan = JsonScan::default();
        for fragment in fragments {
            scan.feed(fragment.as_bytes());
        }
        scan
    }

    const TEXTS: &[&str] = &[
        "",
        " ",
        "{",
        "}",
        "{}",
        " { } ",
        "[]",
        "[ ]",
        "[",
        "]",
        "[1,]",
        "[,1]",
        "{,}",
        "{\"a\":1}",
        "{\"a\":1,}",
        "{\"a\" 1}",
        "{\"a\":}",
        "{1:2}",
        "{\"a\":1}}",
        "{\"a\":1} x",
        "\"s\"",
        "\"s",
        "\"\\u00e9\"",
        "\"\\u00g9\"",
        "\"\\x\"",
        "\"\\\"\"",
        "\"a\tb\"",
        "\"é🦀\"",
        "0",
        "-",
        "-0",
        "01",
        "1.",
        "1.5",
        "1e",
        "1e+",
        "1e+5",
        "1E-0",
        "-1.5e10",
        ".5",
        "+1",
        "0.0e0",
        "1.5.2",
        "10",
        "1 2",
        "true",
        "tru",
        "truee",
        "false",
        "null",
        "nul",
        "nan",
        "[true,false,null]",
        "{\"a\":[{\"b\":{}}]}",
        "{\"a\":[{\"b\":{}]}}",
        "[{]}",
        "{[}]",
        "{\"city\":\"Paris\",\"unit\":\"celsius\"}",
        "{\"q\":\"a}",
        "\u{a0}{}",
        "{}\u{a0}",
        "[\"\u{7f}\"]",
        "{\"k\":\"v\"}\r\n",
    ];

    #[test]
    fn it_agrees_with_serde_json_on_texts_and_every_cut_of_them() {
        for text in TEXTS {
            for cut in (0..=text.len()).filter(|&cut| text.is_char_boundary(cut)) {
                let (head, tail) = text.split_at(cut);
                let scan = scanned(&[head, tail]);
                assert_eq!(scan.is_whole(), serde_whole(text), "{text:?} cut at {cut}");
                assert_eq!(
                    scanned(&[head]).is_whole(),
                    serde_whole(head),
                    "{head:?}, a prefix of {text:?}"
                );
            }
        }
    }

    #[test]
    fn it_knows_the_empty_object() {
        for (text, empty) in [
            ("{}", true),
            (" {\n} ", true),
            ("{\"a\":1}", false),
            ("[]", false),
            ("{", false),
            ("{}}", false),
            ("\"{}\"", false),
        ] {
            assert_eq!(scanned(&[text]).is_empty_object(), empty, "{text:?}");
        }
    }

    #[test]
    fn past_127_levels_strings_and_brackets_are_read_and_the_levels_above_are_checked_again() {
        let open = format!("{{\"a\":{}", "[".repeat(127));
        let close = format!("{}}}", "]".repeat(127));
        // Brackets inside a deep string, an escaped quote among them, are not levels.
        let inner = r#"[{"k": "]]}}\"]"}, 1]"#;
        let text = format!("{open}{inner}{close}");
        assert!(scanned(&[&text]).is_ended() && !scanned(&[&text]).is_whole());
        // Fed a byte at a time, the same.
        let bytes: Vec<String> = text.chars().map(String::from).collect();
        let pieces: Vec<&str> = bytes.iter().map(String::as_str).collect();
        assert!(scanned(&pieces).is_ended());
        // Back at 127 levels the grammar is checked again: `}` cannot close an array (the
        // first `]` closes the level past 127, whose kind is not kept).
        let wrong = format!("{open}{inner}]}}{}", &close[2..]);
        assert!(!scanned(&[&wrong]).is_ended());
        // Text after the end breaks it, as after a whole value.
        assert!(!scanned(&[&format!("{text}{{}}")]).is_ended());
        // Not ended before its last bracket.
        assert!(!scanned(&[&text[..text.len() - 1]]).is_ended());
    }

    #[test]
    fn nesting_past_127_levels_is_never_whole_as_serde_json_values_refuse_it() {
        let deep = |levels: usize| format!("{}{}", "[".repeat(levels), "]".repeat(levels));
        assert!(scanned(&[&deep(127)]).is_whole());
        assert!(serde_json::from_str::<serde_json::Value>(&deep(127)).is_ok());
        assert!(!scanned(&[&deep(128)]).is_whole());
        assert!(serde_json::from_str::<serde_json::Value>(&deep(128)).is_err());
        // Too deep is never whole, but it still ends where its brackets close, and not before.
        assert!(scanned(&[&deep(128)]).is_ended());
        assert!(scanned(&[&deep(100_000)]).is_ended());
        assert!(!scanned(&[&deep(100_000)[..199_999]]).is_ended());
        // Objects and arrays interleaved keep their kinds at every depth.
        let mixed = format!("{}1{}", "{\"a\":[".repeat(60), "]}".repeat(60));
        assert!(scanned(&[&mixed]).is_whole());
        assert!(serde_whole(&mixed));
    }
}
