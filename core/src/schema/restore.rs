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
/// use toolwire_core::restore_arguments;
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
    let schema = followed(root, schema);
    let Some(map) = schema.as_object() else {
        return;
    };
    match instance {
        Value::Object(fields) => {
            let (properties, required) = object_parts(root, map, fields);
            fields.retain(|key, value| {
                let drop = value.is_null()
                    && !required.contains(&key.as_str())
                    && properties
                        .iter()
                        .find(|(name, _)| *name == key)
                        .is_some_and(|(_, prop)| rejects_null(root, prop, 0));
                *removed += usize::from(drop);
                !drop
            });
            for (key, value) in fields.iter_mut() {
                if let Some((_, prop)) = properties.iter().find(|(name, _)| *name == key) {
                    walk(root, prop, value, depth + 1, removed);
                }
            }
        }
        Value::Array(items) => {
            let prefix = map.get("prefixItems").and_then(Value::as_array);
            for (i, item) in items.iter_mut().enumerate() {
                let schema = match (prefix.and_then(|p| p.get(i)), map.get("items")) {
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
        _ => {}
    }
}

/// The properties and required names that apply to an object instance: the node's own, those
/// of its `allOf` branches, and those of the first `anyOf`/`oneOf` branch that declares every
/// key the instance has.
fn object_parts<'a>(
    root: &'a Value,
    map: &'a Map<String, Value>,
    fields: &Map<String, Value>,
) -> (Vec<(&'a String, &'a Value)>, Vec<&'a str>) {
    let mut properties = Vec::new();
    let mut required = Vec::new();
    let mut add = |node: &'a Map<String, Value>| {
        if let Some(Value::Object(props)) = node.get("properties") {
            properties.extend(props.iter());
        }
        if let Some(Value::Array(names)) = node.get("required") {
            required.extend(names.iter().filter_map(Value::as_str));
        }
    };
    add(map);
    for branch in map
        .get("allOf")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if let Some(branch) = followed(root, branch).as_object() {
            add(branch);
        }
    }
    for union in ["anyOf", "oneOf"] {
        let branches = map
            .get(union)
            .and_then(Value::as_array)
            .into_iter()
            .flatten();
        let fitting = branches.map(|b| followed(root, b)).find(|b| {
            b.get("properties")
                .and_then(Value::as_object)
                .is_some_and(|props| fields.keys().all(|k| props.contains_key(k)))
        });
        if let Some(branch) = fitting.and_then(Value::as_object) {
            add(branch);
        }
    }
    (properties, required)
}

/// Whether `schema` certainly refuses `null`.
fn rejects_null(root: &Value, schema: &Value, depth: usize) -> bool {
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
    let refuses_by_all = map
        .get("allOf")
        .and_then(Value::as_array)
        .is_some_and(|branches| branches.iter().any(|b| rejects_null(root, b, depth + 1)));
    refuses_by_type || refuses_by_enum || refuses_by_const || refuses_by_union || refuses_by_all
}
