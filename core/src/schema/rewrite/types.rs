//! Types and nulls (`tool-schema-wire.md`, "Rewrites"): `type` as the dialect writes it (one
//! name where it has no type arrays, capitals where it wants them), and `null` as `nullable`
//! where the dialect says it so (a type array's `null`, an `anyOf` with a `null` branch).

use serde_json::{Map, Value};

use super::Rewriter;
use crate::schema::keywords::is_validation;
use crate::schema::merge::merge_into;
use crate::schema::report::{RefusalReason, SchemaRefusal};
use crate::schema::shape::{is_null_schema, type_names, values_take_null};

const JSON_TYPES: &[&str] = &[
    "string", "number", "integer", "boolean", "object", "array", "null",
];

impl Rewriter {
    /// `type`: one value where the dialect has no type arrays (`nullable` for `null`, `anyOf`
    /// for several), in capitals where the dialect writes them so.
    pub(super) fn types(
        &mut self,
        map: &mut Map<String, Value>,
        pointer: &str,
        notes: &mut Vec<String>,
    ) -> Result<(), SchemaRefusal> {
        let Some(t) = map.get("type") else {
            return Ok(());
        };
        let Some(names) = type_names(t) else {
            return Err(self.refuse(
                pointer,
                "type",
                RefusalReason::NotJsonSchema,
                "`type` must be a type name or an array of them",
            ));
        };
        let mut names: Vec<String> = names.iter().map(|n| n.to_ascii_lowercase()).collect();
        if let Some(bad) = names.iter().find(|n| !JSON_TYPES.contains(&n.as_str())) {
            return Err(self.refuse(
                pointer,
                "type",
                RefusalReason::NotJsonSchema,
                format!("`{bad}` is not a JSON Schema type"),
            ));
        }
        if names.is_empty() {
            return Err(self.refuse(
                pointer,
                "type",
                RefusalReason::NotJsonSchema,
                "an empty `type` array accepts nothing",
            ));
        }
        names.dedup();
        let was_array = t.is_array();
        let written = |name: &str| {
            if self.rules.upper_case_types {
                name.to_ascii_uppercase()
            } else {
                name.to_owned()
            }
        };
        let new_type = if was_array && !self.rules.type_arrays {
            // `null` in the type counts only where an `enum` or `const` beside it lets it through.
            let nullable = names.iter().any(|n| n == "null") && values_take_null(map);
            let rest: Vec<&String> = names.iter().filter(|n| *n != "null").collect();
            match rest.as_slice() {
                [] => Value::from(written("null")),
                [one] => {
                    if nullable {
                        map.insert("nullable".to_owned(), Value::Bool(true));
                    }
                    Value::from(written(one))
                }
                several => {
                    if map.contains_key("anyOf") {
                        // Both a union of types and an `anyOf`: the types go, loudly.
                        map.remove("type");
                        self.lose(
                            notes,
                            pointer,
                            "type",
                            format!("Type: {}.", names.join(" or ")),
                        );
                        return Ok(());
                    }
                    let mut branches: Vec<Value> = several
                        .iter()
                        .map(|n| {
                            Value::Object(Map::from_iter([(
                                "type".to_owned(),
                                Value::from(written(n)),
                            )]))
                        })
                        .collect();
                    if nullable {
                        branches.push(Value::Object(Map::from_iter([(
                            "type".to_owned(),
                            Value::from(written("null")),
                        )])));
                    }
                    map.remove("type");
                    map.insert("anyOf".to_owned(), Value::Array(branches));
                    self.changed = true;
                    return Ok(());
                }
            }
        } else if was_array {
            Value::Array(names.iter().map(|n| Value::from(written(n))).collect())
        } else {
            Value::from(written(&names[0]))
        };
        if map.get("type") != Some(&new_type) {
            map.insert("type".to_owned(), new_type);
            self.changed = true;
        }
        Ok(())
    }

    /// Gemini: `anyOf: [X, {type: null}]` is X with `nullable: true` (exact), when nothing but
    /// annotations stands beside the `anyOf`.
    pub(super) fn null_branch(&mut self, map: &mut Map<String, Value>) {
        if !self.rules.nullable {
            return;
        }
        let Some(Value::Array(branches)) = map.get("anyOf") else {
            return;
        };
        if branches.len() != 2 || map.keys().any(|k| k != "anyOf" && is_validation(k)) {
            return;
        }
        let Some(null_at) = branches.iter().position(is_null_schema) else {
            return;
        };
        let Value::Object(other) = &branches[1 - null_at] else {
            return;
        };
        if other.get("type").and_then(Value::as_array).is_some() {
            return;
        }
        let other = other.clone();
        let before = map.clone();
        map.remove("anyOf");
        if !merge_into(map, other).is_empty() {
            // Nothing but annotations stood beside it, so nothing should conflict; if anything
            // does, keep the union as it was rather than lose a part of it.
            *map = before;
            return;
        }
        map.insert("nullable".to_owned(), Value::Bool(true));
        self.changed = true;
    }
}
