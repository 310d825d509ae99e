//! What a schema node says, read without changing it: its types, whether it lets `null`
//! through, whether its branches exclude each other, whether its `format` and `pattern` fit a
//! dialect. The rewrites ([`super::rewrite`]) and the check ([`super::check`]) ask the same
//! questions here, so they judge a node alike.
//!
//! Policy: only read, never follow a `$ref`; where a reading cannot be sure, it answers the
//! cautious way (`accepts_null` and `provably_exclusive` say no), so nothing is kept or claimed
//! on a guess.

use serde_json::{Map, Value};

use super::keywords::is_annotation;
use crate::schema::dialect::DialectRules;

/// The names a `type` value lists (`"string"` or `["string", "null"]`), or `None` when it is
/// neither a name nor a list of names.
pub(crate) fn type_names(t: &Value) -> Option<Vec<&str>> {
    match t {
        Value::String(name) => Some(vec![name.as_str()]),
        Value::Array(list) => list.iter().map(Value::as_str).collect(),
        _ => None,
    }
}

/// Whether the node's `type` lists `name`, in any case.
pub(crate) fn type_is(map: &Map<String, Value>, name: &str) -> bool {
    map.get("type")
        .and_then(type_names)
        .is_some_and(|names| names.iter().any(|n| n.eq_ignore_ascii_case(name)))
}

/// Whether `schema` accepts `null`, read without following references.
pub(crate) fn accepts_null(schema: &Value) -> bool {
    let map = match schema {
        Value::Bool(b) => return *b,
        Value::Object(map) => map,
        _ => return false,
    };
    if map.get("nullable") == Some(&Value::Bool(true)) {
        return true;
    }
    if let Some(t) = map.get("type") {
        if !type_names(t).is_some_and(|names| names.iter().any(|n| n.eq_ignore_ascii_case("null")))
        {
            return false;
        }
    }
    if let Some(Value::Array(values)) = map.get("enum") {
        if !values.contains(&Value::Null) {
            return false;
        }
    }
    if let Some(value) = map.get("const") {
        if !value.is_null() {
            return false;
        }
    }
    for union in ["anyOf", "oneOf"] {
        if let Some(Value::Array(branches)) = map.get(union) {
            if !branches.iter().any(accepts_null) {
                return false;
            }
        }
    }
    if let Some(Value::Array(branches)) = map.get("allOf") {
        if !branches.iter().all(accepts_null) {
            return false;
        }
    }
    if map.contains_key("$ref") || map.contains_key("not") {
        // Unknown without following it: say no, so a `null` is never kept on a guess.
        return false;
    }
    true
}

/// Whether the node's `enum` and `const`, if any, let `null` through.
pub(crate) fn values_take_null(map: &Map<String, Value>) -> bool {
    let by_enum = match map.get("enum") {
        Some(Value::Array(values)) => values.contains(&Value::Null),
        _ => true,
    };
    by_enum && map.get("const").is_none_or(Value::is_null)
}

/// Whether `schema` is `{"type": "null"}` and nothing else but annotations.
pub(crate) fn is_null_schema(schema: &Value) -> bool {
    schema
        .get("type")
        .and_then(Value::as_str)
        .is_some_and(|t| t.eq_ignore_ascii_case("null"))
        && schema
            .as_object()
            .is_some_and(|m| m.keys().all(|k| k == "type" || is_annotation(k)))
}

/// The JSON type every one of `values` has, if they share one (an `enum`'s values).
pub(crate) fn common_type(values: &[Value]) -> Option<&'static str> {
    let kind = |v: &Value| match v {
        Value::String(_) => "string",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::Bool(_) => "boolean",
        Value::Null => "null",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    };
    let first = kind(values.first()?);
    values.iter().all(|v| kind(v) == first).then_some(first)
}

/// Whether the node's `format` (if any) is one the dialect takes for the node's type.
pub(crate) fn format_fits(rules: &DialectRules, map: &Map<String, Value>) -> bool {
    let (Some(list), Some(format)) = (rules.formats, map.get("format")) else {
        return true;
    };
    let kinds: Vec<String> = map
        .get("type")
        .and_then(type_names)
        .map(|names| {
            names
                .iter()
                .map(|n| n.to_ascii_lowercase())
                .filter(|n| n != "null")
                .collect()
        })
        .unwrap_or_default();
    format.as_str().is_some_and(|f| {
        list.iter()
            .any(|(t, allowed)| *allowed == f && (*t == "*" || kinds.iter().any(|k| k == t)))
    })
}

/// Whether a regular expression is "simple": no lookahead or lookbehind, no backreference.
pub(crate) fn is_simple_pattern(pattern: &str) -> bool {
    let lookaround = ["(?=", "(?!", "(?<=", "(?<!"]
        .iter()
        .any(|l| pattern.contains(l));
    let bytes = pattern.as_bytes();
    let backreference = bytes.windows(2).enumerate().any(|(i, w)| {
        w[0] == b'\\'
            && (w[1].is_ascii_digit() && w[1] != b'0' || w[1] == b'k')
            && (i == 0 || bytes[i - 1] != b'\\')
    });
    !lookaround && !backreference
}

/// Whether no value can match two of `branches`: their types are disjoint, or each requires
/// one property whose allowed values (`const`/`enum`) are disjoint across the branches.
pub(crate) fn provably_exclusive(branches: &[Value]) -> bool {
    if branches.len() < 2 {
        return true;
    }
    disjoint_types(branches) || discriminated(branches)
}

fn disjoint_types(branches: &[Value]) -> bool {
    let mut seen: Vec<String> = Vec::new();
    for branch in branches {
        let Some(names) = branch.get("type").and_then(type_names) else {
            return false;
        };
        for name in names {
            let name = name.to_ascii_lowercase();
            let clash = seen.iter().any(|s| {
                *s == name
                    || (s == "number" && name == "integer")
                    || (s == "integer" && name == "number")
            });
            if clash {
                return false;
            }
            seen.push(name);
        }
    }
    true
}

fn discriminated(branches: &[Value]) -> bool {
    // A required property constrains objects only: every non-object would match every branch.
    let objects_only = |b: &Value| {
        b.get("type")
            .and_then(type_names)
            .is_some_and(|names| names.iter().all(|n| n.eq_ignore_ascii_case("object")))
    };
    if !branches.iter().all(objects_only) {
        return false;
    }
    let Some(first) = branches[0].get("properties").and_then(Value::as_object) else {
        return false;
    };
    'candidate: for name in first.keys() {
        let mut seen: Vec<&Value> = Vec::new();
        for branch in branches {
            let required = branch
                .get("required")
                .and_then(Value::as_array)
                .is_some_and(|r| r.iter().any(|n| n.as_str() == Some(name)));
            let Some(values) = branch
                .get("properties")
                .and_then(|p| p.get(name))
                .and_then(allowed_values)
            else {
                continue 'candidate;
            };
            if !required {
                continue 'candidate;
            }
            for value in values {
                if seen.contains(&value) {
                    continue 'candidate;
                }
                seen.push(value);
            }
        }
        return true;
    }
    false
}

fn allowed_values(schema: &Value) -> Option<Vec<&Value>> {
    if let Some(value) = schema.get("const") {
        return Some(vec![value]);
    }
    schema
        .get("enum")
        .and_then(Value::as_array)
        .map(|v| v.iter().collect())
}
