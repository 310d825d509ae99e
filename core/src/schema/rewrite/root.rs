//! The root (`tool-schema-wire.md`, "Rewrites"): arguments are always a JSON object, so the root
//! says `object`, and loses the keywords providers refuse there (`root_refused`).

use serde_json::{Map, Value};

use super::Rewriter;
use crate::schema::keywords::{note_for, shown_value};
use crate::schema::report::{RefusalReason, SchemaRefusal};
use crate::schema::shape::type_names;

impl Rewriter {
    /// The root: an object, without the combinators providers refuse there.
    pub(super) fn root(
        &mut self,
        map: &mut Map<String, Value>,
        pointer: &str,
        notes: &mut Vec<String>,
    ) -> Result<(), SchemaRefusal> {
        match map.get("type") {
            None => {
                // Arguments are always a JSON object: saying so changes no call.
                map.insert("type".to_owned(), Value::from("object"));
                self.changed = true;
            }
            Some(t)
                if type_names(t).is_some_and(|names| {
                    names.iter().any(|n| n.eq_ignore_ascii_case("object"))
                }) =>
            {
                if !t.is_string() {
                    map.insert("type".to_owned(), Value::from("object"));
                    self.changed = true;
                }
            }
            Some(_) => {
                return Err(self.refuse(
                    pointer,
                    "type",
                    RefusalReason::RootNotObject,
                    "the parameters must be an object schema",
                ));
            }
        }
        // A root `const` would become a root `enum` where the dialect has no `const`.
        if !self.allows("const") {
            if let Some(value) = map.remove("const") {
                self.lose(notes, pointer, "const", note_for("const", &value));
            }
        }
        for keyword in self.rules.root_refused {
            if let Some(value) = map.remove(*keyword) {
                let note = match *keyword {
                    "anyOf" | "oneOf" => format!("Must match one of {}.", shown_value(&value)),
                    other => note_for(other, &value),
                };
                self.lose(notes, pointer, keyword, note);
            }
        }
        Ok(())
    }
}
