//! Constraints the dialect does not take (`tool-schema-wire.md`, "Rewrites"): the lossy drops.
//! Exclusive bounds, `format`, `pattern`, `minItems`, `prefixItems` and any keyword the dialect
//! refuses go or widen, each with a loss (an exclusive bound on an integer moves exactly); an
//! annotation goes quietly, a default or an example into the description.

use serde_json::{Map, Value};

use super::Rewriter;
use crate::schema::keywords::{
    is_validation, note_for, shown_value, CONTENT_RULES, TOLD_ANNOTATIONS,
};
use crate::schema::shape::{format_fits, is_simple_pattern};

impl Rewriter {
    /// `exclusiveMinimum: n` on an integer is `minimum: n + 1` (exact); on a number it becomes
    /// `minimum: n` with a loss. Likewise the maximum.
    pub(super) fn exclusive_bounds(
        &mut self,
        map: &mut Map<String, Value>,
        notes: &mut Vec<String>,
        pointer: &str,
    ) {
        let integer = map
            .get("type")
            .and_then(Value::as_str)
            .is_some_and(|t| t.eq_ignore_ascii_case("integer"));
        for (exclusive, inclusive, up) in [
            ("exclusiveMinimum", "minimum", true),
            ("exclusiveMaximum", "maximum", false),
        ] {
            if self.allows(exclusive) {
                continue;
            }
            let Some(bound) = map.remove(exclusive) else {
                continue;
            };
            self.changed = true;
            let Some(n) = bound.as_f64() else {
                // Draft 4's boolean form: `true` makes `minimum` exclusive.
                if bound == Value::Bool(true) {
                    self.lose(
                        notes,
                        pointer,
                        exclusive,
                        format!("The {inclusive} is excluded."),
                    );
                }
                continue;
            };
            let exact = integer && n.is_finite() && n.abs() < 9.0e15;
            let new = if exact {
                Value::from(if up {
                    n.floor() as i64 + 1
                } else {
                    n.ceil() as i64 - 1
                })
            } else {
                bound.clone()
            };
            if !exact {
                self.lose(notes, pointer, exclusive, note_for(exclusive, &bound));
            }
            if !self.allows(inclusive) {
                if exact {
                    self.lose(notes, pointer, exclusive, note_for(exclusive, &bound));
                }
                continue;
            }
            let tighter = match map.get(inclusive).and_then(Value::as_f64) {
                Some(old) => {
                    let new_f = new.as_f64().unwrap_or(n);
                    if up {
                        new_f > old
                    } else {
                        new_f < old
                    }
                }
                None => true,
            };
            if tighter {
                map.insert(inclusive.to_owned(), new);
            }
        }
    }

    /// A `format` the dialect does not take for the node's type goes, with a loss.
    pub(super) fn format(
        &mut self,
        map: &mut Map<String, Value>,
        pointer: &str,
        notes: &mut Vec<String>,
    ) {
        if !map.contains_key("format") || format_fits(&self.rules, map) {
            return;
        }
        let format = map.remove("format").unwrap_or(Value::Null);
        self.lose_format(notes, pointer, &format);
    }

    /// `prefixItems` where the dialect has none: every position may hold any of the listed
    /// schemas or the rest's (`items`), a widening. Dropping `prefixItems` alone would narrow:
    /// `items` would then apply to the first positions too.
    pub(super) fn prefix_items(
        &mut self,
        map: &mut Map<String, Value>,
        pointer: &str,
        notes: &mut Vec<String>,
    ) {
        if self.allows("prefixItems") {
            return;
        }
        let Some(Value::Array(prefix)) = map.remove("prefixItems") else {
            return;
        };
        let note = format!(
            "Items in order: {}.",
            shown_value(&Value::Array(prefix.clone()))
        );
        // A tuple as schemars writes it: no rule for the rest, but `maxItems` leaves none.
        let no_rest = map
            .get("maxItems")
            .and_then(Value::as_u64)
            .is_some_and(|max| max <= prefix.len() as u64);
        let rest = match map.remove("items") {
            None if no_rest => Some(Value::Bool(false)),
            rest => rest,
        };
        match rest {
            // No rule for the rest: any item is valid somewhere, so no `items` at all.
            None | Some(Value::Bool(true)) => {}
            Some(rest) => {
                let mut branches = prefix;
                if rest != Value::Bool(false) {
                    branches.push(rest);
                }
                if branches.is_empty() {
                    // `prefixItems: []` and no rest: only `[]`; without `items`, a widening.
                    self.lose(notes, pointer, "prefixItems", note);
                    return;
                }
                map.insert(
                    "items".to_owned(),
                    Value::Object(Map::from_iter([(
                        "anyOf".to_owned(),
                        Value::Array(branches),
                    )])),
                );
            }
        }
        self.lose(notes, pointer, "prefixItems", note);
    }

    /// A `pattern` the dialect finds too complex goes, with a loss.
    pub(super) fn pattern(
        &mut self,
        map: &mut Map<String, Value>,
        pointer: &str,
        notes: &mut Vec<String>,
    ) {
        if !self.rules.simple_patterns {
            return;
        }
        if map
            .get("pattern")
            .and_then(Value::as_str)
            .is_some_and(|p| !is_simple_pattern(p))
        {
            let pattern = map.remove("pattern").unwrap_or(Value::Null);
            self.lose(notes, pointer, "pattern", note_for("pattern", &pattern));
        }
    }

    /// `minItems` over what the dialect takes: lowered to its limit (a widening), with a loss.
    pub(super) fn min_items(
        &mut self,
        map: &mut Map<String, Value>,
        pointer: &str,
        notes: &mut Vec<String>,
    ) {
        let Some(max) = self.rules.max_min_items else {
            return;
        };
        let Some(n) = map.get("minItems").and_then(Value::as_u64) else {
            return;
        };
        if n > max {
            let old = map
                .insert("minItems".to_owned(), Value::from(max))
                .unwrap_or(Value::Null);
            self.lose(notes, pointer, "minItems", note_for("minItems", &old));
        }
    }

    /// Keywords the dialect does not take: annotations go quietly (a default or an example
    /// moves into the description), constraints go with a loss, and so do `contentEncoding`
    /// and `contentMediaType` in a schema that names draft-07 or older ([`CONTENT_RULES`]:
    /// rules to a draft-07 server; annotations in 2020-12, the dialect of a schema without
    /// `$schema`).
    pub(super) fn unknown_keywords(
        &mut self,
        map: &mut Map<String, Value>,
        pointer: &str,
        notes: &mut Vec<String>,
    ) {
        if matches!(self.rules.keywords, crate::schema::dialect::Keywords::Any) {
            return;
        }
        let refused: Vec<String> = map.keys().filter(|k| !self.allows(k)).cloned().collect();
        for key in refused {
            let Some(value) = map.remove(&key) else {
                continue;
            };
            self.changed = true;
            // A content keyword of a 2019-09 or later schema is an annotation, yet one that
            // tells the model how to write the value (`base64`, `application/json`): told, as
            // `default` and `examples` are, not a loss.
            let told_content = !self.content_asserts && CONTENT_RULES.contains(&key.as_str());
            if TOLD_ANNOTATIONS.contains(&key.as_str()) || told_content {
                notes.push(note_for(&key, &value));
            } else if key == "format" {
                self.lose_format(notes, pointer, &value);
            } else if is_validation(&key)
                || (self.content_asserts && CONTENT_RULES.contains(&key.as_str()))
            {
                // (`nullable` is no JSON Schema keyword: a validator ignores it.)
                self.lose(notes, pointer, &key, note_for(&key, &value));
            }
        }
    }
}
