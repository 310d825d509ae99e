//! A call's arguments, from the text OpenAI and the streams send or the object the other
//! bodies hold. Policy: an object or an error of that call; empty or blank text is `{}`; a text
//! over the limit is refused before it is parsed, and a stream stops buffering it.

use serde_json::Value;

use super::json_scan::JsonScan;
use super::tool_call::{Arguments, ArgumentsError};
use crate::wire::json_len::{json_len, json_len_bound};

/// The default limit of one call's arguments text: 1 MiB. Our own caution (no provider
/// documents a limit; a model's output tokens bound it far below this): a limit keeps a
/// runaway or hostile stream from growing a buffer without end.
///
/// ```
/// assert_eq!(toolwire_core::wire::calls::DEFAULT_MAX_ARGUMENT_BYTES, 1 << 20);
/// ```
pub const DEFAULT_MAX_ARGUMENT_BYTES: usize = 1 << 20;

/// The arguments a JSON text stands for: `{}` when it is empty or blank (OpenAI sends
/// `"arguments": ""` for a call without parameters), else the object it parses to.
pub(crate) fn from_text(text: &str, limit: usize) -> Result<Arguments, ArgumentsError> {
    if text.len() > limit {
        return Err(ArgumentsError::TooLong {
            bytes: text.len(),
            limit,
        });
    }
    if text.trim().is_empty() {
        return Ok(Arguments::new());
    }
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(object)) => Ok(object),
        Ok(other) => Err(ArgumentsError::NotObject {
            found: json_kind(&other),
        }),
        Err(error) => Err(ArgumentsError::NotJson {
            message: error.to_string(),
        }),
    }
}

/// The arguments an already parsed value stands for: absent or `null` is `{}` (Gemini leaves
/// `args` out of a call without parameters), an object is itself.
pub(crate) fn from_value(value: Option<&Value>) -> Result<Arguments, ArgumentsError> {
    match value {
        None | Some(Value::Null) => Ok(Arguments::new()),
        Some(Value::Object(object)) => Ok(object.clone()),
        Some(other) => Err(ArgumentsError::NotObject {
            found: json_kind(other),
        }),
    }
}

/// The arguments an already parsed value stands for, as [`from_value`], within `limit`: an
/// object whose compact JSON text is longer than `limit` is [`ArgumentsError::TooLong`], as
/// the same arguments sent as text would be (Converse `input`, Gemini `args` arrive as
/// objects). The length is bounded, or counted by serializing into a counter: nothing is kept.
pub(crate) fn from_value_within(
    value: Option<&Value>,
    limit: usize,
) -> Result<Arguments, ArgumentsError> {
    if let Some(object @ Value::Object(_)) = value {
        within(object, limit)?;
    }
    from_value(value)
}

/// The arguments a value read for them stands for, as [`from_value_within`] of it, the value
/// moved, not copied: what `CallParser::parse_owned` gives for an object it moves out of the
/// body, and for any other value (`null` as absent).
pub(crate) fn from_owned_value_within(
    value: Value,
    limit: usize,
) -> Result<Arguments, ArgumentsError> {
    if value.is_object() {
        within(&value, limit)?;
    }
    match value {
        Value::Object(object) => Ok(object),
        other => from_value(Some(&other)),
    }
}

/// Whether an object of arguments is within `limit` ([`from_value_within`]).
pub(crate) fn within(object: &Value, limit: usize) -> Result<(), ArgumentsError> {
    // Counted only where a bound that formats nothing does not fit.
    if json_len_bound(object) > limit {
        let bytes = json_len(object);
        if bytes > limit {
            return Err(ArgumentsError::TooLong { bytes, limit });
        }
    }
    Ok(())
}

/// What a JSON value is, in words.
pub(crate) fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// What a built body holds for arguments that passed the limit and were dropped (not JSON).
pub(crate) const OVER_LIMIT: &str = "(arguments over the limit: not kept)";

/// What a built body holds for the arguments of a call the stream's end ended before any
/// argument text came (not JSON, so the body's parse reads them as unusable too).
pub(crate) const NO_ARGUMENTS: &str = "(the stream ended before the arguments came)";

/// A streamed call's argument fragments, concatenated, up to the limit: past it the text is
/// dropped and only its length is counted, so the call ends as [`ArgumentsError::TooLong`].
/// What the machines decide from the arguments (whether any came, whether they are whole JSON
/// yet, whether they are the placeholder `{}`) is read from every fragment as it came, kept or
/// not ([`JsonScan`]), so the limit changes only the arguments, never which calls there are.
#[derive(Debug)]
pub(crate) struct ArgumentsText {
    text: String,
    bytes: usize,
    /// Whether every fragment so far was whitespace (`char::is_whitespace`, as `from_text`'s
    /// `trim` reads blank text).
    blank: bool,
    scan: JsonScan,
}

impl Default for ArgumentsText {
    fn default() -> ArgumentsText {
        ArgumentsText {
            text: String::new(),
            bytes: 0,
            blank: true,
            scan: JsonScan::default(),
        }
    }
}

impl ArgumentsText {
    /// Appends one fragment.
    pub(crate) fn push(&mut self, fragment: &str, limit: usize) {
        self.bytes = self.bytes.saturating_add(fragment.len());
        self.blank = self.blank && fragment.chars().all(char::is_whitespace);
        self.scan.feed(fragment.as_bytes());
        if self.bytes > limit {
            self.text = String::new();
        } else {
            self.text.push_str(fragment);
        }
    }

    /// Replaces the fragments with the whole text a done event carries.
    pub(crate) fn replace(&mut self, whole: &str, limit: usize) {
        *self = ArgumentsText::default();
        self.push(whole, limit);
    }

    /// Whether no fragment (or only blank ones) came, kept or not.
    pub(crate) fn is_blank(&self) -> bool {
        self.blank
    }

    /// Whether the fragments so far, kept or not, make one value that has ended: whole, or
    /// nested too deep to be whole but with every bracket closed ([`JsonScan::is_ended`]).
    pub(crate) fn is_ended(&self) -> bool {
        self.scan.is_ended()
    }

    /// Whether the fragments so far, kept or not, make the empty object `{}`.
    pub(crate) fn is_empty_object(&self) -> bool {
        self.scan.is_empty_object()
    }

    /// The text as a built body records it: the text kept, or, once it passed the limit and
    /// was dropped, [`OVER_LIMIT`], which is not JSON, so the body's parse reads that call's
    /// arguments as unusable too, as the stream does (`TooLong`), and the replay repairs it.
    pub(crate) fn recorded(&self) -> &str {
        self.kept().unwrap_or(OVER_LIMIT)
    }

    /// The text so far, or `None` once it passed the limit and was dropped.
    pub(crate) fn kept(&self) -> Option<&str> {
        (self.bytes <= self.text.len()).then_some(self.text.as_str())
    }

    /// The arguments the fragments make.
    pub(crate) fn finish(&self, limit: usize) -> Result<Arguments, ArgumentsError> {
        if self.bytes > limit {
            return Err(ArgumentsError::TooLong {
                bytes: self.bytes,
                limit,
            });
        }
        from_text(&self.text, limit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blank_text_is_an_empty_object() {
        for text in ["", "  ", "\n\t"] {
            assert_eq!(from_text(text, 100), Ok(Arguments::new()), "{text:?}");
        }
    }

    #[test]
    fn text_that_is_not_an_object_is_refused_with_what_it_is() {
        assert_eq!(
            from_text("\"Paris\"", 100),
            Err(ArgumentsError::NotObject { found: "a string" })
        );
        assert!(matches!(
            from_text("{\"city\": ", 100),
            Err(ArgumentsError::NotJson { .. })
        ));
    }

    #[test]
    fn a_text_over_the_limit_is_refused_before_it_is_parsed() {
        assert_eq!(
            from_text("{\"a\":1}", 6),
            Err(ArgumentsError::TooLong { bytes: 7, limit: 6 })
        );
        assert!(from_text("{\"a\":1}", 7).is_ok());
    }

    #[test]
    fn an_object_over_the_limit_is_refused_as_its_text_would_be() {
        let object = serde_json::json!({"a": 1});
        assert_eq!(
            from_value_within(Some(&object), 6),
            Err(ArgumentsError::TooLong { bytes: 7, limit: 6 })
        );
        assert_eq!(
            from_value_within(Some(&object), 7),
            from_value(Some(&object))
        );
        assert_eq!(from_value_within(None, 0), Ok(Arguments::new()));
    }

    #[test]
    fn fragments_past_the_limit_are_counted_not_kept() {
        let mut text = ArgumentsText::default();
        text.push("{\"a\":", 8);
        text.push("\"long\"}", 8);
        assert_eq!(text.text, "");
        assert!(
            text.is_ended(),
            "wholeness is read from every fragment, kept or not"
        );
        assert_eq!(
            text.finish(8),
            Err(ArgumentsError::TooLong {
                bytes: 12,
                limit: 8
            })
        );
        assert!(!text.is_blank());
    }

    #[test]
    fn blank_fragments_past_the_limit_are_still_blank() {
        let mut text = ArgumentsText::default();
        text.push("\u{a0}", 1);
        assert!(text.is_blank(), "blank as `trim` reads it");
        text.replace("  \n", 2);
        assert!(text.is_blank());
        assert!(!text.is_ended());
        text.push("{ }", 2);
        assert!(!text.is_blank());
        assert!(text.is_empty_object());
        text.replace("{\"a\":", 2);
        assert!(!text.is_ended() && !text.is_blank());
    }
}
