//! `check_schema`: what a dialect refuses in a schema, every finding with its pointer.
//!
//! Policy: the same rules as the rewrites, read from the same table ([`crate::schema::dialect::DialectRules`]),
//! so a prepared schema always checks clean (a property test holds both to it).

use serde_json::{Map, Value};

use super::keywords::{child, for_each_subschema};
use super::refs::{no_recursion_why, ref_faults, MAX_DEPTH};
use super::report::{RefusalReason, SchemaProblem};
use super::shape::{format_fits, is_simple_pattern, type_is, type_names};
use crate::schema::dialect::{DialectRules, EnumValues, Keywords, RefSupport};
use crate::schema::Dialect;

/// Every problem `dialect` has with `schema` (a tool's parameter schema), in document order:
/// what would make the provider refuse the request. An empty list means the schema travels as
/// it is.
///
/// ```
/// use serde_json::json;
/// use toolwire_core::schema::{Dialect, check_schema};
/// let schema = json!({
///     "$schema": "http://json-schema.org/draft-07/schema#",
///     "type": "object",
///     "properties": {"days": {"type": ["integer", "null"]}},
/// });
/// assert!(check_schema(Dialect::OpenAi, &schema).is_empty());
/// let gemini: Vec<_> = check_schema(Dialect::Gemini, &schema).into_iter().map(|p| p.keyword).collect();
/// assert_eq!(gemini, ["$schema", "type", "type"]);
/// ```
pub fn check_schema(dialect: Dialect, schema: &Value) -> Vec<SchemaProblem> {
    let rules = dialect.rules();
    let mut problems = Vec::new();
    let mut say = |pointer: &str, keyword: &str, why: String| {
        problems.push(SchemaProblem {
            pointer: pointer.to_owned(),
            keyword: keyword.to_owned(),
            why,
        })
    };
    let Value::Object(root) = schema else {
        say(
            "",
            "type",
            "the parameters must be an object schema".to_owned(),
        );
        return problems;
    };
    let object_word = if rules.upper_case_types {
        "OBJECT"
    } else {
        "object"
    };
    // (How the type name is written is the walk's to say, once.)
    if !root
        .get("type")
        .and_then(Value::as_str)
        .is_some_and(|t| t.eq_ignore_ascii_case("object"))
    {
        say(
            "",
            "type",
            format!("the root must say `\"type\": \"{object_word}\"`"),
        );
    }
    for keyword in rules.root_refused {
        if root.contains_key(*keyword) {
            say(
                "",
                keyword,
                format!("{dialect} refuses `{keyword}` at the root"),
            );
        }
    }
    for finding in ref_faults(schema) {
        let why = match finding.reason {
            RefusalReason::Recursive if rules.refs == RefSupport::LocalAndRecursive => continue,
            RefusalReason::Recursive => no_recursion_why(dialect, &finding.reference),
            RefusalReason::ExternalRef => format!("`{}` leaves the schema", finding.reference),
            RefusalReason::RefToNowhere => {
                format!("`{}` names nothing in the schema", finding.reference)
            }
            _ => "references nested too deeply".to_owned(),
        };
        say(&finding.pointer, "$ref", why);
    }
    let mut walk = Walk {
        dialect,
        rules,
        problems: Vec::new(),
        properties: 0,
        deepest_object: 0,
        name_chars: 0,
        enum_values: 0,
    };
    walk.node(schema, "", 0, 0);
    problems.extend(walk.problems);
    if let Some(limits) = rules.limits {
        let mut over = |what: &str, found: usize, limit: usize| {
            if found > limit {
                problems.push(SchemaProblem {
                    pointer: String::new(),
                    keyword: what.to_owned(),
                    why: format!("{dialect} takes at most {limit} {what}; this schema has {found}"),
                });
            }
        };
        over("object properties", walk.properties, limits.properties);
        over("levels of nesting", walk.deepest_object, limits.nesting);
        over(
            "characters of names and values",
            walk.name_chars,
            limits.name_chars,
        );
        over("enum values", walk.enum_values, limits.enum_values);
    }
    problems
}

struct Walk {
    dialect: Dialect,
    rules: DialectRules,
    problems: Vec<SchemaProblem>,
    properties: usize,
    deepest_object: usize,
    name_chars: usize,
    enum_values: usize,
}

impl Walk {
    fn say(&mut self, pointer: &str, keyword: &str, why: String) {
        self.problems.push(SchemaProblem {
            pointer: pointer.to_owned(),
            keyword: keyword.to_owned(),
            why,
        });
    }

    fn node(&mut self, node: &Value, pointer: &str, depth: usize, objects: usize) {
        let dialect = self.dialect;
        if depth > MAX_DEPTH {
            self.say(
                pointer,
                "",
                format!("nested deeper than {MAX_DEPTH} levels"),
            );
            return;
        }
        let map = match node {
            Value::Object(map) => map,
            Value::Bool(_) if self.rules.keywords == Keywords::Any => return,
            Value::Bool(_) => {
                return self.say(pointer, "", format!("{dialect} takes no boolean schema"))
            }
            _ => {
                return self.say(
                    pointer,
                    "",
                    "a schema must be an object or a boolean".to_owned(),
                )
            }
        };
        if let Keywords::Only(_) = self.rules.keywords {
            for key in map.keys() {
                if !self.rules.keywords.allows(key) {
                    self.say(pointer, key, format!("{dialect} does not take `{key}`"));
                }
            }
        }
        self.types(map, pointer);
        self.enumeration(map, pointer);
        if !format_fits(&self.rules, map) {
            self.say(
                pointer,
                "format",
                format!("{dialect} does not take this format here"),
            );
        }
        if self.rules.simple_patterns
            && map
                .get("pattern")
                .and_then(Value::as_str)
                .is_some_and(|p| !is_simple_pattern(p))
        {
            self.say(
                pointer,
                "pattern",
                format!("{dialect} takes only simple patterns (no lookaround, no backreference)"),
            );
        }
        if let (Some(max), Some(n)) = (
            self.rules.max_min_items,
            map.get("minItems").and_then(Value::as_u64),
        ) {
            if n > max {
                self.say(
                    pointer,
                    "minItems",
                    format!("{dialect} takes `minItems` of at most {max}"),
                );
            }
        }
        let is_object = map.contains_key("properties") || type_is(map, "object");
        if self.rules.closed_objects
            && is_object
            && map.get("additionalProperties") != Some(&Value::Bool(false))
        {
            self.say(
                pointer,
                "additionalProperties",
                format!("{dialect} wants `\"additionalProperties\": false` on every object"),
            );
        }
        if self.rules.all_required {
            if let Some(Value::Object(properties)) = map.get("properties") {
                let required = map.get("required").and_then(Value::as_array);
                for name in properties.keys() {
                    if !required.is_some_and(|r| r.iter().any(|n| n.as_str() == Some(name))) {
                        self.say(
                            &child(pointer, &["properties", name]),
                            "required",
                            format!("{dialect} wants every property in `required`"),
                        );
                    }
                }
            }
        }
        if self.rules.typed_nodes {
            if !["type", "enum", "const", "anyOf", "$ref"]
                .iter()
                .any(|k| map.contains_key(*k))
            {
                self.say(
                    pointer,
                    "type",
                    format!("{dialect} needs a type on every schema"),
                );
            }
            if type_is(map, "array") && !map.contains_key("items") {
                self.say(
                    pointer,
                    "items",
                    format!("{dialect} needs `items` on every array"),
                );
            }
        }
        // Sizes, for the dialect's limits.
        let objects = objects + usize::from(is_object);
        self.deepest_object = self.deepest_object.max(objects);
        if let Some(Value::Object(properties)) = map.get("properties") {
            self.properties += properties.len();
            self.name_chars += properties.keys().map(|k| k.chars().count()).sum::<usize>();
        }
        if let Some(Value::Array(values)) = map.get("enum") {
            self.enum_values += values.len();
            self.name_chars += values.iter().map(value_chars).sum::<usize>();
        }
        if let Some(value) = map.get("const") {
            self.name_chars += value_chars(value);
        }
        if let Some(Value::Object(defs)) = map.get("$defs") {
            self.name_chars += defs.keys().map(|k| k.chars().count()).sum::<usize>();
        }
        let mut children = Vec::new();
        for_each_subschema(map, |segments, sub| {
            children.push((child(pointer, segments), sub))
        });
        for (at, sub) in children {
            // `additionalProperties: false` closes an object: every dialect that takes the
            // keyword takes it so.
            if sub.is_boolean() && at.ends_with("/additionalProperties") {
                continue;
            }
            self.node(sub, &at, depth + 1, objects);
        }
    }

    fn types(&mut self, map: &Map<String, Value>, pointer: &str) {
        let dialect = self.dialect;
        let Some(t) = map.get("type") else { return };
        let Some(names) = type_names(t) else {
            return self.say(
                pointer,
                "type",
                "`type` must be a type name or an array of them".to_owned(),
            );
        };
        if t.is_array() && !self.rules.type_arrays {
            return self.say(
                pointer,
                "type",
                format!("{dialect} takes one type, not an array of them"),
            );
        }
        let written_right = names.iter().all(|n| {
            if self.rules.upper_case_types {
                n.chars().all(|c| c.is_ascii_uppercase())
            } else {
                n.chars().all(|c| c.is_ascii_lowercase())
            }
        });
        if !written_right {
            let case = if self.rules.upper_case_types {
                "capitals"
            } else {
                "lower case"
            };
            self.say(
                pointer,
                "type",
                format!("{dialect} writes type names in {case}"),
            );
        }
    }

    fn enumeration(&mut self, map: &Map<String, Value>, pointer: &str) {
        let dialect = self.dialect;
        let Some(values) = map.get("enum") else {
            return;
        };
        let Some(values) = values.as_array() else {
            return self.say(pointer, "enum", "`enum` must be an array".to_owned());
        };
        let fits = match self.rules.enum_values {
            EnumValues::Any => true,
            EnumValues::Primitives => values.iter().all(|v| !v.is_object() && !v.is_array()),
            EnumValues::Strings => values.iter().all(Value::is_string),
        };
        if !fits {
            self.say(
                pointer,
                "enum",
                format!("{dialect} does not take these enum values"),
            );
        }
        if self.rules.enum_values == EnumValues::Strings && !type_is(map, "string") {
            self.say(
                pointer,
                "enum",
                format!("{dialect} takes `enum` on strings only"),
            );
        }
    }
}

fn value_chars(value: &Value) -> usize {
    match value {
        Value::String(s) => s.chars().count(),
        other => other.to_string().chars().count(),
    }
}
