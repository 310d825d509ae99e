//! The model-safe form of a tool name: the one name every provider accepts.
//!
//! Policy: this file is pure (no I/O, no allocation unless a character must change) and uses
//! nothing but `std`, so `toolwire-macros` computes forms at compile time with this very code.

use std::borrow::Cow;

/// The longest model-safe form, in characters (OpenAI function calling and Bedrock Converse
/// accept at most 64).
///
/// ```
/// assert_eq!(toolwire_core::names::MAX_FORM_CHARS, 64);
/// ```
pub const MAX_FORM_CHARS: usize = 64;

/// Whether `c` may stand in a model-safe form: `[A-Za-z0-9_-]`.
///
/// ```
/// use toolwire_core::names::is_form_char;
/// assert!(is_form_char('a') && is_form_char('-') && is_form_char('_'));
/// assert!(!is_form_char('/') && !is_form_char('é'));
/// ```
#[inline]
pub const fn is_form_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

/// The model-safe form of a tool's real name: each Unicode scalar value outside
/// `[A-Za-z0-9_-]` becomes one `_`, then the result is cut to [`MAX_FORM_CHARS`] characters.
///
/// A name already in that form comes back borrowed, with no allocation. The empty name's form
/// is empty (and is not model-safe: see [`is_model_safe`]).
///
/// ```
/// use std::borrow::Cow;
/// use toolwire_core::model_safe_name;
///
/// assert_eq!(model_safe_name("mcp/server/echo"), "mcp_server_echo");
/// assert_eq!(model_safe_name("café"), "caf_");
/// assert_eq!(model_safe_name("🦀-tool"), "_-tool");
/// assert!(matches!(model_safe_name("get_weather"), Cow::Borrowed("get_weather")));
/// assert_eq!(model_safe_name(&"x".repeat(70)).len(), 64);
/// ```
pub fn model_safe_name(name: &str) -> Cow<'_, str> {
    match safe_prefix_len(name) {
        Ok(form_len) => Cow::Borrowed(&name[..form_len]),
        Err(safe_prefix) => {
            let mut form = String::with_capacity(MAX_FORM_CHARS.min(name.len()));
            push_form(name, safe_prefix, &mut form);
            Cow::Owned(form)
        }
    }
}

/// `Ok(len)` when the form is `name[..len]` (every byte up to the cut is an ASCII form
/// character); otherwise `Err(n)`: the first `n` bytes are form characters and byte `n` is not.
pub(crate) fn safe_prefix_len(name: &str) -> Result<usize, usize> {
    let bytes = name.as_bytes();
    // A prefix of ASCII is valid UTF-8 at every byte boundary.
    let safe_prefix = bytes
        .iter()
        .position(|&b| !FORM_BYTES[b as usize])
        .unwrap_or(bytes.len());
    if safe_prefix == bytes.len() || safe_prefix >= MAX_FORM_CHARS {
        Ok(safe_prefix.min(MAX_FORM_CHARS))
    } else {
        Err(safe_prefix)
    }
}

/// Appends the form of `name` to `out` (which starts empty), given its safe prefix length.
pub(crate) fn push_form(name: &str, safe_prefix: usize, out: &mut String) {
    let bytes = name.as_bytes();
    out.push_str(&name[..safe_prefix]);
    // Bytes, not chars: every output character is ASCII, and a scalar value starts at every
    // byte that is not a UTF-8 continuation byte (0b10xx_xxxx), so decoding is not needed.
    // The rest is written into a stack buffer, then appended at once.
    let mut rest = [0u8; MAX_FORM_CHARS];
    let room = MAX_FORM_CHARS - safe_prefix;
    let mut len = 0;
    for &b in &bytes[safe_prefix..] {
        if len == room {
            break;
        }
        if b & 0xC0 != 0x80 {
            rest[len] = if FORM_BYTES[b as usize] { b } else { b'_' };
            len += 1;
        }
    }
    // Only ASCII bytes were written, so this is valid UTF-8 and never falls back.
    out.push_str(std::str::from_utf8(&rest[..len]).unwrap_or_default());
}

/// `FORM_BYTES[b]`: whether byte `b` is an ASCII form character.
const FORM_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 128 {
        table[b] = is_form_char(b as u8 as char);
        b += 1;
    }
    table
};

/// Whether `name` is already a model-safe form: 1 to 64 characters of `[A-Za-z0-9_-]`.
///
/// ```
/// use toolwire_core::names::is_model_safe;
/// assert!(is_model_safe("mcp_server_echo"));
/// assert!(!is_model_safe("mcp/server/echo"));
/// assert!(!is_model_safe(""));
/// assert!(!is_model_safe(&"a".repeat(65)));
/// ```
pub fn is_model_safe(name: &str) -> bool {
    (1..=MAX_FORM_CHARS).contains(&name.len()) && name.chars().all(is_form_char)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_other_scalar_becomes_one_underscore() {
        assert_eq!(model_safe_name("mcp/server/echo"), "mcp_server_echo");
        assert_eq!(model_safe_name("café"), "caf_");
        assert_eq!(model_safe_name("a👩‍🚀b"), "a___b"); // a ZWJ sequence is three scalars
        assert_eq!(model_safe_name("search.web"), "search_web");
        assert_eq!(model_safe_name("a b\tc"), "a_b_c");
    }

    #[test]
    fn the_cut_counts_characters_after_replacement() {
        let long = format!("{}/{}", "a".repeat(40), "é".repeat(40));
        let form = model_safe_name(&long);
        assert_eq!(form.chars().count(), MAX_FORM_CHARS);
        assert_eq!(&form[..41], &format!("{}_", "a".repeat(40)));
        assert!(is_model_safe(&form));
        // A safe name longer than 64 is cut but still borrowed.
        let safe_long = "b".repeat(100);
        assert!(matches!(model_safe_name(&safe_long), Cow::Borrowed(s) if s.len() == 64));
    }

    #[test]
    fn a_safe_name_is_borrowed_and_its_own_form() {
        for name in ["echo", "get-sum", "A_1", "x"] {
            assert!(matches!(model_safe_name(name), Cow::Borrowed(s) if s == name));
        }
        assert!(matches!(model_safe_name("a.b"), Cow::Owned(_)));
    }

    #[test]
    fn dash_and_underscore_stay_distinct() {
        assert_ne!(model_safe_name("a-b"), model_safe_name("a_b"));
        assert_eq!(model_safe_name("a.b"), model_safe_name("a_b"));
    }
}
