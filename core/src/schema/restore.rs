//! The way back (`tool-schema-wire.md`, "Where each part lives"): what a rewrite changed on the
//! way out is undone on the arguments before dispatch.
//!
//! Policy: OpenAI strict makes every optional property required-or-`null`, so a model sends
//! `"limit": null` for "no limit". Where the tool's own schema has that property optional and
//! not nullable, the `null` is removed: the tool receives what its schema accepts. Nothing is
//! removed on a guess: a `null` stays unless the tool's schema certainly refuses it there.

use serde_json::{Map, Value};

use super::refs::{resolve, MAX_DEPTH};

/// Removes from `arguments` every `null` that stands for a property the tool's own `schema`
/// has optional and refuses as `null` (what OpenAI strict sends for "left out"). Returns how
/// many were removed.
///
/// ```
/// use serde_json::json;
/// use toolwire_core::schema::restore_arguments;
/// let schema = json!({"type": "object", "properties": {
///     "q": {"type": "string"}, "limit": {"type": "integer"}, "tag": {"type": ["string", "null"]},
/// }, "required": ["q"]});
/// let mut args = json!({"q": "rust", "limit": null, "tag": null});
/// assert_eq!(restore_arguments(&schema, &mut args), 1);
/// assert_eq!(args, json!({"q": "rust", "tag": null}));
/// ```
pub fn restore_arguments(schema: &Value, arguments: &mut Value) -> usize {
    let mut removed = 0;
    walk(schema, schema, arguments, 0, &mut removed);
    removed
}

/// `schema` with its references followed (a few hops at most).
fn followed<'a>(root: &'a Value, mut schema: &'a Value) -> &'a Value {
    for _ in 0..32 {
        match schema.get("$ref").and_then(Value::as_str) {
            Some(reference) => match resolve(root, reference) {
                Ok((target, _)) => schema = target,
                Err(_) => return schema,
            },
            None => return schema,
        }
    }
    schema
}

fn walk(root: &Value, schema: &Value, instance: &mut Value, depth: usize, removed: &mut usize) {
    if depth > MAX_DEPTH {
        return;
    }
    let mut parts = Vec::new();
    let mut alternatives = Vec::new();
    collect_parts(root, schema, instance, 0, &mut parts, &mut alternatives);
    // Where the instance could match several branches, what every one of them would undo is
    // undone: they agree, so nothing is guessed.
    // (Bounded: each level of ambiguity walks every branch again.)
    for group in alternatives.iter().filter(|_| depth < 8) {
        let mut outcomes = group.iter().map(|(branch, _)| {
            let mut copy = instance.clone();
            let mut count = 0;
            walk(root, branch, &mut copy, depth + 1, &mut count);
            (copy, count)
        });
        if let Some(first) = outcomes.next() {
            if first.1 > 0 && outcomes.all(|other| other.0 == first.0) {
                *instance = first.0;
                *removed += first.1;
            }
        }
    }
    match instance {
        Value::Object(fields) => {
            // Every part applies (a conjunction): a property declared in several is checked
            // against each; one that refuses `null` there is enough.
            let declared = |key: &str| -> Vec<&Value> {
                parts
                    .iter()
                    .filter_map(|part| part.get("properties").and_then(|p| p.get(key)))
                    .collect()
            };
            let required = |key: &str| {
                parts.iter().any(|part| {
                    part.get("required")
                        .and_then(Value::as_array)
                        .is_some_and(|names| names.iter().any(|n| n.as_str() == Some(key)))
                })
            };
            // Union branches the object could match, where more than one could: a `null` goes
            // only when one of them refuses it there and none requires it or takes it, so the
            // object without it matches whatever it matched before.
            let refused_by_every_alternative = |key: &str| {
                alternatives.iter().any(|group: &Alternatives| {
                    let declared: Vec<Vec<&Value>> = group
                        .iter()
                        .map(|(_, parts)| {
                            parts
                                .iter()
                                .filter_map(|m| m.get("properties").and_then(|p| p.get(key)))
                                .collect()
                        })
                        .collect();
                    declared.iter().flatten().any(|p| rejects_null(root, p, 0))
                        && group.iter().zip(&declared).all(|((_, parts), props)| {
                            !parts.iter().any(|m| requires(m, key))
                                && props.iter().all(|p| rejects_null(root, p, 0))
                        })
                })
            };
            fields.retain(|key, value| {
                let drop = value.is_null()
                    && !required(key)
                    && (declared(key).iter().any(|prop| rejects_null(root, prop, 0))
                        || refused_by_every_alternative(key));
                *removed += usize::from(drop);
                !drop
            });
            for (key, value) in fields.iter_mut() {
                for prop in declared(key) {
                    walk(root, prop, value, depth + 1, removed);
                }
            }
        }
        Value::Array(items) => {
            for part in &parts {
                let prefix = part.get("prefixItems").and_then(Value::as_array);
                for (i, item) in items.iter_mut().enumerate() {
                    let schema = match (prefix.and_then(|p| p.get(i)), part.get("items")) {
                        (Some(position), _) => position,
                        (None, Some(Value::Array(tuple))) => match tuple.get(i) {
                            Some(position) => position,
                            None => continue,
                        },
                        (None, Some(items)) => items,
                        (None, None) => continue,
                    };
                    walk(root, schema, item, depth + 1, removed);
                }
            }
        }
        _ => {}
    }
}

/// The union branches an instance could match, more than one: each branch with the nodes that
/// apply inside it.
type Alternatives<'a> = Vec<(&'a Value, Vec<&'a Map<String, Value>>)>;

/// The schema nodes that apply to `instance` where `schema` stands: the node itself (its
/// references followed), every `allOf` branch, and the one `anyOf`/`oneOf` branch the instance
/// can match, when exactly one can (never a guess between two).
fn collect_parts<'a>(
    root: &'a Value,
    schema: &'a Value,
    instance: &Value,
    depth: usize,
    out: &mut Vec<&'a Map<String, Value>>,
    alternatives: &mut Vec<Alternatives<'a>>,
) {
    if depth > 32 {
        return;
    }
    let Some(map) = followed(root, schema).as_object() else {
        return;
    };
    out.push(map);
    for branch in map
        .get("allOf")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        collect_parts(root, branch, instance, depth + 1, out, alternatives);
    }
    for union in ["anyOf", "oneOf"] {
        let branches = map
            .get(union)
            .and_then(Value::as_array)
            .into_iter()
            .flatten();
        let fitting: Vec<&Value> = branches
            .filter(|b| could_match(root, b, instance, 0))
            .collect();
        match fitting.as_slice() {
            [only] => collect_parts(root, only, instance, depth + 1, out, alternatives),
            [] => {}
            several => {
                let mut group = Vec::new();
                for branch in several {
                    // Each candidate with what applies inside it (its own unions resolved where
                    // they can be; deeper ambiguity is left alone).
                    let (mut parts, mut deeper) = (Vec::new(), Vec::new());
                    collect_parts(root, branch, instance, depth + 1, &mut parts, &mut deeper);
                    group.push((*branch, parts));
                }
                alternatives.push(group);
            }
        }
    }
}

/// Whether `instance` could match `branch`, judged by what tells branches apart: the type, a
/// `const` or `enum`, the values of the properties those constrain, the required keys and a
/// closed object's keys.
fn could_match(root: &Value, branch: &Value, instance: &Value, depth: usize) -> bool {
    if depth > 32 {
        return true;
    }
    let map = match followed(root, branch) {
        Value::Bool(accepts) => return *accepts,
        Value::Object(map) => map,
        _ => return false,
    };
    if let Some(t) = map.get("type") {
        let names: Vec<&str> = match t {
            Value::String(name) => vec![name.as_str()],
            Value::Array(list) => list.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        if !names.iter().any(|name| admits(name, instance)) {
            return false;
        }
    }
    if map.get("const").is_some_and(|c| c != instance) {
        return false;
    }
    if let Some(Value::Array(values)) = map.get("enum") {
        if !values.contains(instance) {
            return false;
        }
    }
    // A union inside the branch: one of its own branches must be able to match.
    for union in ["anyOf", "oneOf"] {
        if let Some(Value::Array(branches)) = map.get(union) {
            if !branches
                .iter()
                .any(|b| could_match(root, b, instance, depth + 1))
            {
                return false;
            }
        }
    }
    let fields = match instance {
        Value::Object(fields) => fields,
        // An array: each item must be able to match the branch's `items`.
        Value::Array(items) => {
            return match map.get("items") {
                Some(schema @ (Value::Object(_) | Value::Bool(_))) => items
                    .iter()
                    .all(|item| could_match(root, schema, item, depth + 1)),
                _ => true,
            }
        }
        _ => return true,
    };
    let properties = map.get("properties").and_then(Value::as_object);
    if let Some(Value::Array(required)) = map.get("required") {
        if !required
            .iter()
            .filter_map(Value::as_str)
            .all(|k| fields.contains_key(k))
        {
            return false;
        }
    }
    if map.get("additionalProperties") == Some(&Value::Bool(false))
        && !fields
            .keys()
            .all(|k| properties.is_some_and(|p| p.contains_key(k)))
    {
        return false;
    }
    properties.into_iter().flatten().all(|(key, prop)| {
        let Some(value) = fields.get(key) else {
            return true;
        };
        // A `null` for an optional property may be strict's "left out": no evidence either way.
        let required = map
            .get("required")
            .and_then(Value::as_array)
            .is_some_and(|r| r.iter().any(|n| n.as_str() == Some(key)));
        if value.is_null() && !required {
            return true;
        }
        let prop = followed(root, prop);
        let by_const = prop.get("const").is_none_or(|c| c == value);
        let by_enum = prop
            .get("enum")
            .and_then(Value::as_array)
            .is_none_or(|values| values.contains(value));
        by_const && by_enum
    })
}

/// Whether an instance is of the JSON Schema type `name`.
fn admits(name: &str, instance: &Value) -> bool {
    match (name.to_ascii_lowercase().as_str(), instance) {
        ("null", Value::Null) | ("boolean", Value::Bool(_)) | ("string", Value::String(_)) => true,
        ("number", Value::Number(_))
        | ("array", Value::Array(_))
        | ("object", Value::Object(_)) => true,
        ("integer", Value::Number(n)) => {
            n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0)
        }
        _ => false,
    }
}

/// Whether `map` lists `key` in its `required`.
fn requires(map: &Map<String, Value>, key: &str) -> bool {
    map.get("required")
        .and_then(Value::as_array)
        .is_some_and(|names| names.iter().any(|n| n.as_str() == Some(key)))
}

/// Whether `schema` certainly takes `null`: no type, or one that says so, and nothing beside
/// it that could refuse it.
fn takes_null(root: &Value, schema: &Value, depth: usize) -> bool {
    if depth > 32 {
        return false;
    }
    let map = match followed(root, schema) {
        Value::Bool(accepts) => return *accepts,
        Value::Object(map) => map,
        _ => return false,
    };
    // Without a type, only the keywords below can refuse `null`: the others (`properties`,
    // `minLength`…) apply to other kinds of value.
    let typed_null = match map.get("type") {
        None => true,
        Some(Value::String(name)) => name.eq_ignore_ascii_case("null"),
        Some(Value::Array(names)) => names
            .iter()
            .any(|n| n.as_str().is_some_and(|n| n.eq_ignore_ascii_case("null"))),
        _ => false,
    };
    let branches = |key: &str| map.get(key).and_then(Value::as_array);
    let unions_take = branches("anyOf")
        .is_none_or(|b| b.iter().any(|b| takes_null(root, b, depth + 1)))
        && branches("allOf").is_none_or(|b| b.iter().all(|b| takes_null(root, b, depth + 1)))
        && branches("oneOf").is_none_or(|b| {
            // Exactly one branch must take it, so every other must certainly refuse it.
            let taking = b.iter().filter(|b| takes_null(root, b, depth + 1)).count();
            taking == 1
                && b.iter()
                    .filter(|b| rejects_null(root, b, depth + 1))
                    .count()
                    == b.len() - 1
        });
    let unknown = ["not", "if"].iter().any(|k| map.contains_key(*k));
    typed_null
        && unions_take
        && !unknown
        && map.get("const").is_none_or(Value::is_null)
        && map
            .get("enum")
            .and_then(Value::as_array)
            .is_none_or(|values| values.contains(&Value::Null))
}

/// Whether `schema` certainly refuses `null` (references followed in `root`). Preparing asks
/// this too: strict's required-or-null is exact where it holds, because the way back then
/// removes the `null`.
pub(crate) fn rejects_null(root: &Value, schema: &Value, depth: usize) -> bool {
    if depth > 32 {
        return false;
    }
    let schema = followed(root, schema);
    let map = match schema {
        Value::Bool(accepts) => return !accepts,
        Value::Object(map) => map,
        _ => return false,
    };
    if map.get("nullable") == Some(&Value::Bool(true)) {
        return false;
    }
    let refuses_by_type = map.get("type").is_some_and(|t| match t {
        Value::String(name) => !name.eq_ignore_ascii_case("null"),
        Value::Array(names) => !names
            .iter()
            .any(|n| n.as_str().is_some_and(|n| n.eq_ignore_ascii_case("null"))),
        _ => false,
    });
    let refuses_by_enum = map
        .get("enum")
        .and_then(Value::as_array)
        .is_some_and(|values| !values.contains(&Value::Null));
    let refuses_by_const = map.get("const").is_some_and(|v| !v.is_null());
    let refuses_by_union = ["anyOf", "oneOf"].iter().any(|union| {
        map.get(*union)
            .and_then(Value::as_array)
            .is_some_and(|branches| branches.iter().all(|b| rejects_null(root, b, depth + 1)))
    });
    // `oneOf`: a `null` that two branches take matches more than one, so it is refused.
    let refuses_by_one_of = map
        .get("oneOf")
        .and_then(Value::as_array)
        .is_some_and(|branches| {
            branches
                .iter()
                .filter(|b| takes_null(root, b, depth + 1))
                .count()
                > 1
        });
    let refuses_by_all = map
        .get("allOf")
        .and_then(Value::as_array)
        .is_some_and(|branches| branches.iter().any(|b| rejects_null(root, b, depth + 1)));
    refuses_by_type
        || refuses_by_enum
        || refuses_by_const
        || refuses_by_union
        || refuses_by_one_of
        || refuses_by_all
}
