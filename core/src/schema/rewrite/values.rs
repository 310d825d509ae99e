//! Values (`tool-schema-wire.md`, "Rewrites"): `const` as a one-value `enum` where the dialect
//! has no `const`, and `enum` cut to the values the dialect lists (strings only, or
//! primitives); values it cannot list are dropped with a loss, the node kept typed.

use serde_json::{Map, Value};

use super::Rewriter;
use crate::schema::dialect::EnumValues;
use crate::schema::keywords::note_for;
use crate::schema::report::{RefusalReason, SchemaRefusal};
use crate::schema::shape::{common_type, type_is};

impl Rewriter {
    /// `const: v` is `enum: [v]` where the dialect has no `const` (exact).
    pub(super) fn constant(
        &mut self,
        map: &mut Map<String, Value>,
        pointer: &str,
    ) -> Result<(), SchemaRefusal> {
        if self.allows("const") {
            return Ok(());
        }
        let Some(value) = map.remove("const") else {
            return Ok(());
        };
        self.changed = true;
        match map.get_mut("enum") {
            Some(Value::Array(values)) => {
                values.retain(|v| *v == value);
                if values.is_empty() {
                    return Err(self.refuse(
                        pointer,
                        "const",
                        RefusalReason::Inexpressible,
                        "`const` and `enum` exclude each other: nothing is valid",
                    ));
                }
            }
            _ => {
                map.insert("enum".to_owned(), Value::Array(vec![value]));
            }
        }
        Ok(())
    }

    /// `enum` values the dialect takes: strings only (Gemini, with `type: STRING`), or
    /// primitives (strict). Others are dropped with a loss.
    pub(super) fn enumeration(
        &mut self,
        map: &mut Map<String, Value>,
        pointer: &str,
        notes: &mut Vec<String>,
    ) -> Result<(), SchemaRefusal> {
        let Some(values) = map.get("enum") else {
            return Ok(());
        };
        let Value::Array(values) = values else {
            return Err(self.refuse(
                pointer,
                "enum",
                RefusalReason::NotJsonSchema,
                "`enum` must be an array",
            ));
        };
        let mut values = values.clone();
        if self.rules.nullable && values.iter().any(Value::is_null) {
            // `null` travels as `nullable`, which only a typed node can carry.
            values.retain(|v| !v.is_null());
            if values.is_empty() {
                map.remove("enum");
                map.insert("type".to_owned(), Value::from(self.type_name("null")));
                self.changed = true;
                return Ok(());
            }
            map.insert("nullable".to_owned(), Value::Bool(true));
            map.insert("enum".to_owned(), Value::Array(values.clone()));
            self.changed = true;
        }
        let fits = match self.rules.enum_values {
            EnumValues::Any => true,
            EnumValues::Primitives => values.iter().all(|v| !v.is_object() && !v.is_array()),
            EnumValues::Strings => values.iter().all(Value::is_string),
        };
        if fits {
            if self.rules.enum_values == EnumValues::Strings {
                match map.get("type") {
                    None => {
                        // The values are strings: saying so changes nothing.
                        map.insert("type".to_owned(), Value::from(self.type_name("string")));
                        self.changed = true;
                    }
                    Some(t) if !type_is(map, "string") => {
                        let t = t.clone();
                        return Err(self.refuse(
                            pointer,
                            "enum",
                            RefusalReason::Inexpressible,
                            format!("string values on a node of type {t}: nothing but null is valid, and {} takes `enum` on strings only", self.dialect),
                        ));
                    }
                    Some(_) => {}
                }
            }
            return Ok(());
        }
        let dropped = map.remove("enum").unwrap_or(Value::Null);
        // What the values are, when they agree: keeps the node typed (a widening).
        if !map.contains_key("type") {
            if let Some(kind) = common_type(&values) {
                map.insert("type".to_owned(), Value::from(self.type_name(kind)));
            } else if !map.contains_key("anyOf") && self.allows("anyOf") {
                // Values of several types: a branch per type, the strings still listed where
                // the dialect lists strings (a widening that keeps every value typed).
                self.typed_branches(map, &values);
            }
        }
        self.lose(notes, pointer, "enum", note_for("enum", &dropped));
        Ok(())
    }

    /// `anyOf` of one branch per JSON type among `values` (`null` aside where the dialect has
    /// `nullable`: the node says it already), for an `enum` the dialect cannot list.
    fn typed_branches(&mut self, map: &mut Map<String, Value>, values: &[Value]) {
        let mut kinds: Vec<&'static str> = Vec::new();
        for value in values
            .iter()
            .filter(|v| !(v.is_null() && self.rules.nullable))
        {
            let Some(kind) = common_type(std::slice::from_ref(value)) else {
                continue;
            };
            // An integer is a number: one `number` branch holds both.
            let kind = if kind == "integer" && values.iter().any(|v| v.is_f64()) {
                "number"
            } else {
                kind
            };
            if !kinds.contains(&kind) {
                kinds.push(kind);
            }
        }
        if kinds.len() < 2 {
            if let Some(kind) = kinds.first() {
                map.insert("type".to_owned(), Value::from(self.type_name(kind)));
            }
            return;
        }
        let strings: Vec<Value> = values.iter().filter(|v| v.is_string()).cloned().collect();
        let branches = kinds
            .into_iter()
            .map(|kind| {
                let mut branch = Map::new();
                branch.insert("type".to_owned(), Value::from(self.type_name(kind)));
                if kind == "string" {
                    // Every dialect that lists values lists strings.
                    branch.insert("enum".to_owned(), Value::Array(strings.clone()));
                }
                Value::Object(branch)
            })
            .collect();
        map.insert("anyOf".to_owned(), Value::Array(branches));
    }

    fn type_name(&self, name: &str) -> String {
        if self.rules.upper_case_types {
            name.to_ascii_uppercase()
        } else {
            name.to_owned()
        }
    }
}
