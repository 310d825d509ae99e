//! Unions (`tool-schema-wire.md`, "Rewrites"): `allOf` merged into its node where the dialect
//! refuses it, `oneOf` sent as `anyOf`, and a union of constants sent as the one `enum` it is.
//!
//! Why these run first in [`Rewriter::node`]: what they leave (merged keywords, an `enum`) is
//! what the type and value rewrites then judge.

use serde_json::{Map, Value};

use super::{Place, Rewriter};
use crate::schema::dialect::EnumValues;
use crate::schema::keywords::{note_for, shown_value};
use crate::schema::merge::merge_into;
use crate::schema::refs::MAX_DEPTH;
use crate::schema::report::{RefusalReason, SchemaRefusal};
use crate::schema::shape::{common_type, constant_union, provably_exclusive};

impl Rewriter {
    /// `allOf` where the dialect refuses it: merged into the node where that is exact; what
    /// cannot be merged is dropped with a loss (the node only widens).
    pub(super) fn flatten_all_of(
        &mut self,
        map: &mut Map<String, Value>,
        pointer: &str,
        place: Place,
        notes: &mut Vec<String>,
    ) -> Result<(), SchemaRefusal> {
        let refused_here = place == Place::Root && self.rules.root_refused.contains(&"allOf");
        // A branch may carry an `allOf` of its own: flatten until none is left (bounded).
        for _ in 0..MAX_DEPTH {
            if !map.contains_key("allOf") || (self.allows("allOf") && !refused_here) {
                return Ok(());
            }
            let Some(Value::Array(branches)) = map.remove("allOf") else {
                return Err(self.refuse(
                    pointer,
                    "allOf",
                    RefusalReason::NotJsonSchema,
                    "`allOf` must be an array of schemas",
                ));
            };
            self.changed = true;
            for branch in branches {
                match branch {
                    Value::Bool(true) => {}
                    Value::Object(branch) => {
                        let leftover = merge_into(map, branch);
                        if !leftover.is_empty() {
                            let note = note_for("allOf", &Value::Object(leftover));
                            self.lose(notes, pointer, "allOf", note);
                        }
                    }
                    Value::Bool(false) => {
                        return Err(self.refuse(
                            pointer,
                            "allOf",
                            RefusalReason::Inexpressible,
                            "an `allOf` branch that accepts nothing",
                        ));
                    }
                    _ => {
                        return Err(self.refuse(
                            pointer,
                            "allOf",
                            RefusalReason::NotJsonSchema,
                            "`allOf` must be an array of schemas",
                        ))
                    }
                }
            }
        }
        Err(self.refuse(
            pointer,
            "allOf",
            RefusalReason::TooLarge,
            "`allOf` nested too deeply",
        ))
    }

    /// `oneOf` where the dialect refuses it: `anyOf` when the branches provably exclude each
    /// other (exact), otherwise `anyOf` with a loss ("exactly one" is lost).
    pub(super) fn one_of(
        &mut self,
        map: &mut Map<String, Value>,
        pointer: &str,
        notes: &mut Vec<String>,
    ) -> Result<(), SchemaRefusal> {
        if !map.contains_key("oneOf") || self.allows("oneOf") {
            return Ok(());
        }
        let Some(Value::Array(branches)) = map.remove("oneOf") else {
            return Err(self.refuse(
                pointer,
                "oneOf",
                RefusalReason::NotJsonSchema,
                "`oneOf` must be an array of schemas",
            ));
        };
        self.changed = true;
        if map.contains_key("anyOf") {
            let note = format!(
                "Must match exactly one of {}.",
                shown_value(&Value::Array(branches))
            );
            self.lose(notes, pointer, "oneOf", note);
            return Ok(());
        }
        let exclusive = provably_exclusive(&branches);
        map.insert("anyOf".to_owned(), Value::Array(branches));
        if !exclusive {
            self.lose(notes, pointer, "oneOf", note_for("oneOf", &Value::Null));
        }
        Ok(())
    }

    /// A union of constants (`oneOf`/`anyOf` of `const`s, however nested, `{type: null}`
    /// among them) where the dialect names its keywords: one `enum` of the values it allows
    /// (exact), each branch's description kept in the node's, a line per value. Only where the
    /// dialect takes every value in an `enum` (Gemini: strings, and `null` as `nullable`);
    /// otherwise the branches travel one by one.
    pub(super) fn constant_union(&mut self, map: &mut Map<String, Value>) {
        if matches!(self.rules.keywords, crate::schema::dialect::Keywords::Any) {
            return;
        }
        let Some(found) = constant_union(map) else {
            return;
        };
        let others: Vec<&Value> = found.values.iter().filter(|v| !v.is_null()).collect();
        let fits = match self.rules.enum_values {
            EnumValues::Any => true,
            EnumValues::Primitives => others.iter().all(|v| !v.is_object() && !v.is_array()),
            EnumValues::Strings => others.iter().all(|v| v.is_string()),
        };
        let null = found.values.len() > others.len();
        if others.is_empty() || !fits {
            return;
        }
        let kind = common_type(&others.iter().map(|v| (*v).clone()).collect::<Vec<_>>());
        let mut text: Vec<String> = map
            .get("description")
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .or_else(|| found.inner_descriptions.first().map(String::as_str))
            .map(|t| vec![t.to_owned()])
            .unwrap_or_default();
        for (values, doc) in &found.documented {
            let shown: Vec<String> = values.iter().map(Value::to_string).collect();
            text.push(format!("- {}: {doc}", shown.join(", ")));
        }
        for key in ["anyOf", "oneOf", "const", "enum", "type", "description"] {
            map.remove(key);
        }
        if let Some(kind) = kind {
            let t = if null {
                Value::from(vec![Value::from(kind), Value::from("null")])
            } else {
                Value::from(kind)
            };
            map.insert("type".to_owned(), t);
        }
        map.insert("enum".to_owned(), Value::Array(found.values));
        if !text.is_empty() {
            map.insert("description".to_owned(), Value::from(text.join("\n")));
        }
        self.changed = true;
    }
}
