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
///
/// Judged pair by pair too: two branches exclude each other when their types are disjoint,
/// when the values they allow (`const`/`enum`, an upper bound of what they take) are, when the
/// values one allows are all outside the other's type, when both require one property with
/// disjoint values, or when one is a closed object and the other an object that requires a
/// property the first does not declare (the shape of an externally tagged enum).
pub(crate) fn provably_exclusive(branches: &[Value]) -> bool {
    if branches.len() < 2 {
        return true;
    }
    let all: Vec<&Value> = branches.iter().collect();
    if disjoint_types(&all) || discriminated(&all) {
        return true;
    }
    branches.iter().enumerate().all(|(i, a)| {
        branches[i + 1..].iter().all(|b| {
            let pair = [a, b];
            disjoint_types(&pair)
                || discriminated(&pair)
                || disjoint_values(a, b)
                || values_outside_type(a, b)
                || values_outside_type(b, a)
                || closed_refuses_required(a, b)
                || closed_refuses_required(b, a)
        })
    })
}

/// The values `schema` may take at most, from its own `const` and `enum` (other keywords only
/// narrow them further); `None` when it names none.
fn value_bound(schema: &Value) -> Option<Vec<&Value>> {
    let mut bound: Option<Vec<&Value>> = schema.get("const").map(|v| vec![v]);
    if let Some(Value::Array(values)) = schema.get("enum") {
        bound = Some(match bound {
            None => values.iter().collect(),
            Some(have) => have
                .into_iter()
                .filter(|v| contains_value(values, v))
                .collect(),
        });
    }
    bound
}

fn disjoint_values(a: &Value, b: &Value) -> bool {
    match (value_bound(a), value_bound(b)) {
        (Some(x), Some(y)) => !x.iter().any(|v| y.iter().any(|w| same_value(v, w))),
        _ => false,
    }
}

/// Whether every value `a` may take is outside `b`'s type.
fn values_outside_type(a: &Value, b: &Value) -> bool {
    let (Some(values), Some(names)) = (value_bound(a), b.get("type").and_then(type_names)) else {
        return false;
    };
    values
        .iter()
        .all(|v| !names.iter().any(|n| admits_type(n, v)))
}

/// Whether `a` is a closed object (nothing but its declared properties) and `b` takes only
/// objects that carry a property `a` does not declare: no value matches both.
fn closed_refuses_required(a: &Value, b: &Value) -> bool {
    let closed = a.get("additionalProperties") == Some(&Value::Bool(false))
        && !["patternProperties", "unevaluatedProperties"]
            .iter()
            .any(|k| a.get(*k).is_some());
    let b_objects = b
        .get("type")
        .and_then(type_names)
        .is_some_and(|names| names.iter().all(|n| n.eq_ignore_ascii_case("object")));
    if !closed || !b_objects {
        return false;
    }
    let declared = a.get("properties").and_then(Value::as_object);
    b.get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .any(|name| !declared.is_some_and(|d| d.contains_key(name)))
}

fn disjoint_types(branches: &[&Value]) -> bool {
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

fn discriminated(branches: &[&Value]) -> bool {
    // A required property constrains objects only: every non-object would match every branch.
    let objects_only = |b: &Value| {
        b.get("type")
            .and_then(type_names)
            .is_some_and(|names| names.iter().all(|n| n.eq_ignore_ascii_case("object")))
    };
    if !branches.iter().all(|b| objects_only(b)) {
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
                if seen.iter().any(|s| same_value(s, value)) {
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

/// The values a union of constants allows, found by [`constant_union`], with the descriptions
/// that stood on its branches.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct ConstantUnion {
    /// Every value the node allows, in the order its branches list them, each once.
    pub values: Vec<Value>,
    /// A branch's own description (or title), with the values that branch stood for.
    pub documented: Vec<(Vec<Value>, String)>,
    /// The description of a union nested inside (an `Option<Enum>`'s enum), outermost first.
    pub inner_descriptions: Vec<String>,
}

/// Whether two JSON values are the same JSON Schema value (`1` and `1.0` are).
pub(crate) fn same_value(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(x), Some(y)) => x == y,
            _ => x.as_f64() == y.as_f64() && x.as_f64().is_some(),
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_value(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| same_value(v, w)))
        }
        _ => a == b,
    }
}

fn contains_value(values: &[Value], value: &Value) -> bool {
    values.iter().any(|v| same_value(v, value))
}

/// Whether `instance` is of the JSON Schema type `name` (any case).
pub(crate) fn admits_type(name: &str, instance: &Value) -> bool {
    match (name.to_ascii_lowercase().as_str(), instance) {
        ("null", Value::Null)
        | ("boolean", Value::Bool(_))
        | ("string", Value::String(_))
        | ("number", Value::Number(_))
        | ("array", Value::Array(_))
        | ("object", Value::Object(_)) => true,
        ("integer", Value::Number(n)) => {
            n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0)
        }
        _ => false,
    }
}

/// The exact values `schema` allows, when it is a union (`anyOf`/`oneOf`, however nested) of
/// constants: every node in it says only `const`, `enum`, `type` and annotations, so what it
/// allows is a finite list (`schemars` writes a documented enum as `oneOf` of `const`s, and an
/// `Option` of it as `anyOf: [that, {type: null}]`). `None` when anything else constrains it,
/// when it has no union, or when it would allow nothing.
pub(crate) fn constant_union(map: &Map<String, Value>) -> Option<ConstantUnion> {
    if !map.contains_key("anyOf") && !map.contains_key("oneOf") {
        return None;
    }
    let mut found = ConstantUnion::default();
    let values = constants(map, 0, true, &mut found)?;
    if values.is_empty() {
        return None;
    }
    found.values = values;
    Some(found)
}

/// The values a node allows, if finitely many (see [`constant_union`]).
fn constants(
    map: &Map<String, Value>,
    depth: usize,
    outermost: bool,
    found: &mut ConstantUnion,
) -> Option<Vec<Value>> {
    if depth > 32 {
        return None;
    }
    let known = ["type", "const", "enum", "anyOf", "oneOf"];
    if map
        .keys()
        .any(|k| !known.contains(&k.as_str()) && !is_annotation(k))
    {
        return None;
    }
    // `None`: not constrained to a list (yet).
    let mut allowed: Option<Vec<Value>> = None;
    let narrow = |allowed: &mut Option<Vec<Value>>, more: Vec<Value>| {
        *allowed = Some(match allowed.take() {
            None => more,
            Some(have) => have
                .into_iter()
                .filter(|v| contains_value(&more, v))
                .collect(),
        });
    };
    if let Some(value) = map.get("const") {
        narrow(&mut allowed, vec![value.clone()]);
    }
    if let Some(values) = map.get("enum") {
        narrow(&mut allowed, values.as_array()?.clone());
    }
    let mut branch_docs = Vec::new();
    for union in ["anyOf", "oneOf"] {
        let Some(branches) = map.get(union) else {
            continue;
        };
        let mut each = Vec::new();
        for branch in branches.as_array()? {
            let mut inner = ConstantUnion::default();
            each.push(constants(
                branch.as_object()?,
                depth + 1,
                false,
                &mut inner,
            )?);
            branch_docs.push(inner);
        }
        let mut union_values: Vec<Value> = Vec::new();
        for (i, values) in each.iter().enumerate() {
            for value in values {
                // `oneOf`: a value two branches allow matches both, so it is refused.
                let elsewhere = union == "oneOf"
                    && each
                        .iter()
                        .enumerate()
                        .any(|(j, other)| j != i && contains_value(other, value));
                if !elsewhere && !contains_value(&union_values, value) {
                    union_values.push(value.clone());
                }
            }
        }
        narrow(&mut allowed, union_values);
    }
    if let Some(t) = map.get("type") {
        let names = type_names(t)?;
        match &mut allowed {
            Some(values) => values.retain(|v| names.iter().any(|n| admits_type(n, v))),
            // A type alone is a finite list only for `null`.
            None if names.iter().all(|n| n.eq_ignore_ascii_case("null")) => {
                allowed = Some(vec![Value::Null]);
            }
            None => return None,
        }
    }
    let allowed = allowed?;
    let text = map
        .get("description")
        .or_else(|| map.get("title"))
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|t| !t.is_empty());
    let is_union = map.contains_key("anyOf") || map.contains_key("oneOf");
    for inner in branch_docs {
        found.inner_descriptions.extend(inner.inner_descriptions);
        for (values, text) in inner.documented {
            let kept: Vec<Value> = values
                .into_iter()
                .filter(|v| contains_value(&allowed, v))
                .collect();
            if !kept.is_empty() {
                found.documented.push((kept, text));
            }
        }
    }
    match text {
        Some(text) if !outermost && is_union => {
            found.inner_descriptions.insert(0, text.to_owned());
        }
        Some(text) if !outermost && !allowed.is_empty() => {
            found.documented.push((allowed.clone(), text.to_owned()));
        }
        _ => {}
    }
    Some(allowed)
}
