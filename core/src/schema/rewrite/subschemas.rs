//! The walk into a node's subschemas: each one checked to hold schemas, then rewritten in turn
//! (a required property as one that must never be emptied), a draft 7 tuple's `items` first
//! widened to an `anyOf` of its positions where the dialect names its keywords.

use serde_json::{Map, Value};

use super::{add_notes, Place, Rewriter};
use crate::schema::keywords::{child, holds, shown_value, Holds};
use crate::schema::report::{RefusalReason, SchemaRefusal};

impl Rewriter {
    /// Rewrites every subschema the node kept.
    pub(super) fn children(
        &mut self,
        map: &mut Map<String, Value>,
        pointer: &str,
        depth: usize,
    ) -> Result<(), SchemaRefusal> {
        for (key, value) in map.iter() {
            let k = key.as_str();
            let schema_like = |v: &Value| v.is_object() || v.is_boolean();
            let fits = match holds(k) {
                Some(Holds::One) => schema_like(value),
                Some(Holds::OneOrList) => {
                    schema_like(value)
                        || value.as_array().is_some_and(|l| l.iter().all(schema_like))
                }
                Some(Holds::Map) => value
                    .as_object()
                    .is_some_and(|m| m.values().all(schema_like)),
                Some(Holds::List) => value.as_array().is_some_and(|l| l.iter().all(schema_like)),
                None => true,
            };
            if !fits {
                return Err(self.refuse(
                    pointer,
                    k,
                    RefusalReason::NotJsonSchema,
                    format!("`{k}` must hold schemas"),
                ));
            }
        }
        let required: Vec<String> = map
            .get("required")
            .and_then(Value::as_array)
            .map(|l| {
                l.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default();
        if let Some(Value::Array(items)) = map.get("items") {
            if !matches!(self.rules.keywords, crate::schema::dialect::Keywords::Any) {
                // Draft 7 tuples: each position is one of the listed schemas (a widening).
                let items = items.clone();
                let mut notes = Vec::new();
                self.lose(
                    &mut notes,
                    pointer,
                    "items",
                    format!(
                        "Items in order: {}.",
                        shown_value(&Value::Array(items.clone()))
                    ),
                );
                map.insert(
                    "items".to_owned(),
                    Value::Object(Map::from_iter([("anyOf".to_owned(), Value::Array(items))])),
                );
                if self.notes_in_descriptions {
                    add_notes(map, &notes);
                }
            }
        }
        for (key, value) in map.iter_mut() {
            let k = key.as_str();
            match (holds(k), value) {
                // (`definitions` is not rewritten here: the inliner drops it, and a kept
                // recursive schema has its root's moved into `$defs`.)
                (Some(Holds::Map), Value::Object(subs)) if k != "definitions" => {
                    for (name, sub) in subs.iter_mut() {
                        let place = if k == "properties" && required.contains(name) {
                            Place::RequiredProperty
                        } else {
                            Place::Other
                        };
                        self.node(sub, &child(pointer, &[k, name]), place, depth + 1)?;
                    }
                }
                (Some(Holds::OneOrList | Holds::List), Value::Array(subs)) => {
                    for (i, sub) in subs.iter_mut().enumerate() {
                        self.node(
                            sub,
                            &child(pointer, &[k, &i.to_string()]),
                            Place::Other,
                            depth + 1,
                        )?;
                    }
                }
                (Some(Holds::One | Holds::OneOrList), sub)
                    if sub.is_object() || (k == "items" && sub.is_boolean()) =>
                {
                    self.node(sub, &child(pointer, &[k]), Place::Other, depth + 1)?;
                }
                _ => {}
            }
        }
        Ok(())
    }
}
