//! The conjunction of two schemas as one node, where that is exact: how `allOf` flattens and
//! how a `$ref`'s siblings join what it names.
//!
//! Policy: merge only what provably means the same merged as apart; hand back the rest for the
//! caller to keep apart (under `allOf`) or to drop loudly.

use serde_json::{Map, Value};

use super::keywords::is_annotation;

/// Keywords whose meaning depends on which properties stand beside them.
const PROPERTY_ADJACENT: &[&str] = &["additionalProperties", "unevaluatedProperties"];
const PROPERTY_DECLARING: &[&str] = &["properties", "patternProperties"];
/// Keywords whose meaning depends on which items stand beside them.
const ITEM_ADJACENT: &[&str] = &["items", "additionalItems", "unevaluatedItems"];

/// Merges `other` into `target` as a conjunction (both must hold). Returns what could not be
/// merged exactly: the caller keeps it as a separate conjunct.
pub(crate) fn merge_into(
    target: &mut Map<String, Value>,
    other: Map<String, Value>,
) -> Map<String, Value> {
    let mut leftover = Map::new();
    // Adjacency is judged against the target as it was: keys that come in from `other` stand
    // beside their own siblings there, which mean the same merged.
    let before = Adjacent {
        keys: target.keys().cloned().collect(),
        tuple_items: target.get("items").is_some_and(Value::is_array),
    };
    for (key, value) in other {
        let k = key.as_str();
        if is_annotation(k) {
            // Annotations change no verdict: the target's win.
            target.entry(key).or_insert(value);
            continue;
        }
        if before.conflicts(k) {
            leftover.insert(key, value);
            continue;
        }
        let Some(existing) = target.get_mut(k) else {
            target.insert(key, value);
            continue;
        };
        if *existing == value {
            continue;
        }
        let merged = match k {
            "required" => union(existing, &value),
            "properties" => merge_properties(existing, value.clone()),
            "allOf" => match (existing.as_array_mut(), &value) {
                (Some(list), Value::Array(more)) => {
                    list.extend(more.iter().cloned());
                    true
                }
                _ => false,
            },
            "type" => intersect_types(existing, &value),
            "enum" => intersect_enums(existing, &value),
            "minimum" | "exclusiveMinimum" | "minLength" | "minItems" | "minProperties" => {
                pick(existing, &value, |a, b| a >= b)
            }
            "maximum" | "exclusiveMaximum" | "maxLength" | "maxItems" | "maxProperties" => {
                pick(existing, &value, |a, b| a <= b)
            }
            _ => false,
        };
        if !merged {
            leftover.insert(key, value);
        }
    }
    leftover
}

/// The keys a merge target had before the merge began.
struct Adjacent {
    keys: Vec<String>,
    tuple_items: bool,
}

impl Adjacent {
    /// Whether `key` would change meaning beside what the target had.
    fn conflicts(&self, key: &str) -> bool {
        let has = |keys: &[&str]| keys.iter().any(|k| self.keys.iter().any(|t| t == k));
        match key {
            "properties" | "patternProperties" => has(PROPERTY_ADJACENT),
            "additionalProperties" | "unevaluatedProperties" => has(PROPERTY_DECLARING),
            "prefixItems" => has(ITEM_ADJACENT),
            "items" | "additionalItems" | "unevaluatedItems" => {
                has(&["prefixItems"]) || self.tuple_items
            }
            _ => false,
        }
    }
}

fn union(existing: &mut Value, more: &Value) -> bool {
    let (Some(list), Some(more)) = (existing.as_array_mut(), more.as_array()) else {
        return false;
    };
    for name in more {
        if !list.contains(name) {
            list.push(name.clone());
        }
    }
    true
}

fn merge_properties(existing: &mut Value, more: Value) -> bool {
    let (Some(props), Value::Object(more)) = (existing.as_object_mut(), more) else {
        return false;
    };
    for (name, schema) in more {
        match props.get_mut(&name) {
            None => {
                props.insert(name, schema);
            }
            Some(same) if *same == schema => {}
            // Both must hold: the property's schema is the conjunction of the two.
            Some(other) => {
                let first = other.take();
                *other = Value::Object(Map::from_iter([(
                    "allOf".to_owned(),
                    Value::Array(vec![first, schema]),
                )]));
            }
        }
    }
    true
}

fn type_set(value: &Value) -> Option<Vec<&str>> {
    match value {
        Value::String(t) => Some(vec![t.as_str()]),
        Value::Array(list) => list.iter().map(Value::as_str).collect(),
        _ => None,
    }
}

fn intersect_types(existing: &mut Value, more: &Value) -> bool {
    let (Some(a), Some(b)) = (type_set(existing), type_set(more)) else {
        return false;
    };
    let mut both: Vec<String> = Vec::new();
    for t in &a {
        for u in &b {
            // An integer is a number: their conjunction is the integer.
            let meet = match (*t, *u) {
                (x, y) if x == y => Some(x),
                ("integer", "number") | ("number", "integer") => Some("integer"),
                _ => None,
            };
            if let Some(m) = meet {
                if !both.iter().any(|x| x == m) {
                    both.push(m.to_owned());
                }
            }
        }
    }
    match both.len() {
        // Nothing satisfies both: keep them apart, so the conflict stays visible.
        0 => false,
        1 => {
            *existing = Value::String(both.remove(0));
            true
        }
        _ => {
            *existing = Value::Array(both.into_iter().map(Value::String).collect());
            true
        }
    }
}

fn intersect_enums(existing: &mut Value, more: &Value) -> bool {
    let (Some(a), Some(b)) = (existing.as_array(), more.as_array()) else {
        return false;
    };
    let both: Vec<Value> = a.iter().filter(|v| b.contains(v)).cloned().collect();
    if both.is_empty() {
        return false;
    }
    *existing = Value::Array(both);
    true
}

fn pick(existing: &mut Value, more: &Value, keep_existing: impl Fn(f64, f64) -> bool) -> bool {
    let (Some(a), Some(b)) = (existing.as_f64(), more.as_f64()) else {
        return false;
    };
    if !keep_existing(a, b) {
        *existing = more.clone();
    }
    true
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn map(value: Value) -> Map<String, Value> {
        value.as_object().unwrap().clone()
    }

    #[test]
    fn properties_and_required_merge() {
        let mut a = map(
            json!({"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"]}),
        );
        let rest = merge_into(
            &mut a,
            map(json!({"properties": {"y": {"type": "integer"}}, "required": ["y"]})),
        );
        assert!(rest.is_empty());
        assert_eq!(a["required"], json!(["x", "y"]));
        assert_eq!(a["properties"]["y"], json!({"type": "integer"}));
    }

    #[test]
    fn closed_objects_are_not_merged_with_more_properties() {
        let mut a = map(json!({"properties": {"x": {}}, "additionalProperties": false}));
        let rest = merge_into(&mut a, map(json!({"properties": {"y": {}}})));
        assert_eq!(rest, map(json!({"properties": {"y": {}}})));
    }

    #[test]
    fn bounds_tighten_and_types_meet() {
        let mut a = map(json!({"type": ["number", "null"], "minimum": 1, "maximum": 9}));
        let rest = merge_into(
            &mut a,
            map(json!({"type": "integer", "minimum": 3, "maximum": 20})),
        );
        assert!(rest.is_empty());
        assert_eq!(
            a,
            map(json!({"type": "integer", "minimum": 3, "maximum": 9}))
        );
        let rest = merge_into(&mut a, map(json!({"type": "string"})));
        assert_eq!(rest, map(json!({"type": "string"})));
    }
}
