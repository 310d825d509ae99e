//! Strict's own changes (`tool-schema-wire.md`, "Strict, revised"): objects closed
//! (`additionalProperties: false`; where a dialect refuses `additionalProperties` instead, it
//! is dropped here too), every node typed and every array's items said, and every property
//! required, an optional one taking `null` in its place (required-or-null).

use serde_json::{Map, Value};

use super::{add_notes, Place, Rewriter};
use crate::schema::keywords::{child, is_annotation, note_for};
use crate::schema::refs::MAX_DEPTH;
use crate::schema::report::{Loss, RefusalReason, SchemaRefusal};
use crate::schema::restore::rejects_null;
use crate::schema::shape::{accepts_null, type_is};

impl Rewriter {
    /// Objects: closed where the dialect wants every object closed; `additionalProperties`
    /// dropped where the dialect refuses it (exactly, when it allowed anything).
    pub(super) fn objects(
        &mut self,
        map: &mut Map<String, Value>,
        pointer: &str,
        place: Place,
        notes: &mut Vec<String>,
    ) -> Result<(), SchemaRefusal> {
        let is_object = map.contains_key("properties") || type_is(map, "object");
        if self.rules.closed_objects && is_object {
            if map.get("additionalProperties") == Some(&Value::Bool(false)) {
                return Ok(());
            }
            let declared = map
                .get("properties")
                .and_then(Value::as_object)
                .is_some_and(|p| !p.is_empty());
            if !declared && place != Place::Root {
                return Err(self.refuse(
                    pointer,
                    "additionalProperties",
                    RefusalReason::Inexpressible,
                    format!("{} closes every object, and this one declares no properties: nothing could be sent in it", self.dialect),
                ));
            }
            let had = map.insert("additionalProperties".to_owned(), Value::Bool(false));
            let note = match had {
                None | Some(Value::Bool(true)) => {
                    "Closed for strict mode; the tool takes other properties too.".to_owned()
                }
                Some(other) => note_for("additionalProperties", &other),
            };
            // Closed where the tool takes more: narrows.
            self.narrow(notes, pointer, "additionalProperties", note);
        } else if !self.allows("additionalProperties") {
            match map.remove("additionalProperties") {
                None => {}
                Some(Value::Bool(true)) => self.changed = true,
                Some(Value::Object(open)) if open.keys().all(|k| is_annotation(k)) => {
                    self.changed = true
                }
                Some(other) => self.lose(
                    notes,
                    pointer,
                    "additionalProperties",
                    note_for("additionalProperties", &other),
                ),
            }
        }
        Ok(())
    }

    /// Strict dialects: every node says what it is, and every array what its items are.
    pub(super) fn typed(
        &mut self,
        map: &mut Map<String, Value>,
        pointer: &str,
        notes: &mut Vec<String>,
    ) -> Result<(), SchemaRefusal> {
        if !self.rules.typed_nodes {
            return Ok(());
        }
        let says = ["type", "enum", "const", "anyOf", "$ref"]
            .iter()
            .any(|k| map.contains_key(*k));
        if !says {
            if map.contains_key("properties") {
                map.insert("type".to_owned(), Value::from("object"));
                // Typed where the tool took any type: every other type is refused now.
                self.narrow(notes, pointer, "type", "Must be an object.".to_owned());
            } else {
                return Err(self.refuse(
                    pointer,
                    "type",
                    RefusalReason::Inexpressible,
                    format!(
                        "{} needs a type on every schema, and this one takes any value",
                        self.dialect
                    ),
                ));
            }
        }
        if type_is(map, "array") && !map.contains_key("items") {
            return Err(self.refuse(
                pointer,
                "items",
                RefusalReason::Inexpressible,
                format!(
                    "{} needs `items` on every array, and this one takes any items",
                    self.dialect
                ),
            ));
        }
        Ok(())
    }

    /// OpenAI strict: every property required; an optional one takes `null` instead (the way
    /// back removes that `null` before the tool sees it). Exact where the tool's own schema
    /// refuses `null` there (the way back removes it) or the tool reads `null` as absent; a
    /// loss only where the schema takes both and the tool may treat them apart
    /// (`tool-schema-wire.md`, "Strict, revised"). The note that says how to leave it out is
    /// written either way: it is how the model must now say "absent".
    pub(super) fn all_required(
        &mut self,
        map: &mut Map<String, Value>,
        pointer: &str,
    ) -> Result<(), SchemaRefusal> {
        if !self.rules.all_required {
            return Ok(());
        }
        let Some(Value::Object(properties)) = map.get("properties") else {
            return Ok(());
        };
        let required: Vec<String> = match map.get("required") {
            None => Vec::new(),
            Some(Value::Array(list)) => list
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect(),
            Some(_) => {
                return Err(self.refuse(
                    pointer,
                    "required",
                    RefusalReason::NotJsonSchema,
                    "`required` must be an array of names",
                ))
            }
        };
        let optional: Vec<String> = properties
            .keys()
            .filter(|k| !required.contains(k))
            .cloned()
            .collect();
        if optional.is_empty() {
            return Ok(());
        }
        let mut all: Vec<Value> = required.iter().map(|s| Value::from(s.as_str())).collect();
        all.extend(optional.iter().map(|s| Value::from(s.as_str())));
        map.insert("required".to_owned(), Value::Array(all));
        let Some(Value::Object(properties)) = map.get_mut("properties") else {
            return Ok(());
        };
        let mut typed_objects = Vec::new();
        for name in optional {
            let Some(schema) = properties.get_mut(&name) else {
                continue;
            };
            // An untyped object takes `null` already in JSON Schema, but strict wants a type
            // on it (`typed`): name it here (in union branches too), so the `null` that means
            // "left out" survives.
            let at = child(pointer, &["properties", &name]);
            let exact = self.null_is_absent || rejects_null(&self.references, schema, 0);
            type_untyped_objects(schema, &at, &mut typed_objects, 0);
            make_nullable(schema);
            let note = note_for("required", &Value::Null);
            if self.notes_in_descriptions {
                if let Value::Object(prop) = schema {
                    add_notes(prop, std::slice::from_ref(&note));
                }
            }
            self.changed = true;
            if !exact {
                self.losses.push(Loss {
                    pointer: at,
                    keyword: "required".to_owned(),
                    note,
                    // Required-or-null where `null` and absence may differ: an absent
                    // property, which the tool takes, is refused on the wire.
                    narrows: true,
                    format: None,
                });
            }
        }
        for at in typed_objects {
            self.losses.push(Loss {
                pointer: at,
                keyword: "type".to_owned(),
                note: "Must be an object.".to_owned(),
                // Typed where the tool took any type (as `typed` does): narrows.
                narrows: true,
                format: None,
            });
        }
        Ok(())
    }
}

/// Types as `object` every node that declares properties but no type, here and in its union
/// branches (what strict's `typed` would do later), collecting their pointers.
fn type_untyped_objects(schema: &mut Value, pointer: &str, typed: &mut Vec<String>, depth: usize) {
    let Value::Object(node) = schema else {
        return;
    };
    if depth > MAX_DEPTH {
        return;
    }
    let says = ["type", "enum", "const", "anyOf", "oneOf", "allOf", "$ref"]
        .iter()
        .any(|k| node.contains_key(*k));
    if !says && node.contains_key("properties") {
        node.insert("type".to_owned(), Value::from("object"));
        typed.push(pointer.to_owned());
    }
    for union in ["anyOf", "oneOf", "allOf"] {
        if let Some(Value::Array(branches)) = node.get_mut(union) {
            for (i, branch) in branches.iter_mut().enumerate() {
                let at = child(pointer, &[union, &i.to_string()]);
                type_untyped_objects(branch, &at, typed, depth + 1);
            }
        }
    }
}

/// Makes `schema` also accept `null` (OpenAI strict's way to say "optional").
pub(crate) fn make_nullable(schema: &mut Value) {
    if accepts_null(schema) {
        return;
    }
    let Value::Object(map) = schema else { return };
    if let Some(value) = map.remove("const") {
        map.insert("enum".to_owned(), Value::Array(vec![value]));
    }
    if let Some(Value::Array(values)) = map.get_mut("enum") {
        values.push(Value::Null);
    }
    let has_enum = map.contains_key("enum");
    match map.get_mut("type") {
        Some(Value::String(name)) => {
            let name = std::mem::take(name);
            map.insert(
                "type".to_owned(),
                Value::Array(vec![Value::from(name), Value::from("null")]),
            );
        }
        Some(Value::Array(names)) => names.push(Value::from("null")),
        _ if has_enum => {}
        _ => {
            let description = map.remove("description");
            let inner = std::mem::take(map);
            let mut outer = Map::new();
            if let Some(description) = description {
                outer.insert("description".to_owned(), description);
            }
            outer.insert(
                "anyOf".to_owned(),
                Value::Array(vec![
                    Value::Object(inner),
                    Value::Object(Map::from_iter([("type".to_owned(), Value::from("null"))])),
                ]),
            );
            *map = outer;
        }
    }
}
