//! RFC 6901 pointers read without an allocation per token.
//!
//! `serde_json::Value::pointer` unescapes every token with two `str::replace`s, each a new
//! `String`, even when it holds no `~`: in a replay, where each call's name is found by its
//! pointer, that was two thirds of the replay's instructions (`core/benches/calls.rs`,
//! `calls_body_*/replay`). Same semantics, tested against it.

use std::borrow::Cow;

use serde_json::Value;

/// The value `pointer` names in `value`, as `Value::pointer` finds it: `""` is the value
/// itself, a pointer not starting with `/` names nothing, `~1` is `/` and `~0` is `~`, and an
/// array index is decimal digits without a sign or a leading zero.
pub(crate) fn get<'v>(value: &'v Value, pointer: &str) -> Option<&'v Value> {
    if pointer.is_empty() {
        return Some(value);
    }
    let mut rest = pointer.strip_prefix('/')?;
    // One scan for an escape, not one per token.
    let escaped = rest.contains('~');
    let mut target = value;
    loop {
        // A byte scan: the tokens are short, and `str::split`'s searcher cost more than the walk.
        let (token, next) = match rest.as_bytes().iter().position(|&byte| byte == b'/') {
            Some(at) => (&rest[..at], Some(&rest[at + 1..])),
            None => (rest, None),
        };
        let token = if escaped {
            unescape(token)
        } else {
            Cow::Borrowed(token)
        };
        target = match target {
            Value::Object(map) => map.get(token.as_ref())?,
            Value::Array(items) => items.get(index(&token)?)?,
            _ => return None,
        };
        match next {
            Some(next) => rest = next,
            None => return Some(target),
        }
    }
}

/// A token unescaped (`~1` is `/`, then `~0` is `~`), borrowed when it holds no `~`.
fn unescape(token: &str) -> Cow<'_, str> {
    if token.contains('~') {
        Cow::Owned(token.replace("~1", "/").replace("~0", "~"))
    } else {
        Cow::Borrowed(token)
    }
}

/// An array index as `Value::pointer` reads one: no `+`, no leading zero.
fn index(token: &str) -> Option<usize> {
    if token.starts_with('+') || (token.starts_with('0') && token.len() != 1) {
        return None;
    }
    token.parse().ok()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::get;

    /// Every pointer finds what `Value::pointer` finds (or nothing where it does).
    #[test]
    fn a_pointer_names_what_serde_json_finds() {
        let value = json!({
            "a": [{"b": 1}, {"c/d": 2, "e~f": 3, "~1": 4, "": 5}],
            "": {"": 6},
            "0": 7,
            "x": {"01": 8, "1": 9, "+1": 10},
        });
        let pointers = [
            "",
            "/",
            "//",
            "a",
            "/a",
            "/a/0",
            "/a/0/b",
            "/a/1/c~1d",
            "/a/1/e~0f",
            "/a/1/~01",
            "/a/1/",
            "/a/01",
            "/a/+1",
            "/a/-1",
            "/a/2",
            "/a/1/c/d",
            "/a/1/e~f",
            "/0",
            "/x/01",
            "/x/1",
            "/x/+1",
            "/a/0/b/c",
            "/a/18446744073709551616",
            "/a/ 1",
            "/~2",
            "/a~",
        ];
        let mut found = 0;
        for pointer in pointers {
            assert_eq!(get(&value, pointer), value.pointer(pointer), "{pointer:?}");
            found += usize::from(get(&value, pointer).is_some());
        }
        // Both kinds met: pointers that find a value, and pointers that find none.
        assert!(found >= 12 && found < pointers.len(), "{found} found");
    }
}
