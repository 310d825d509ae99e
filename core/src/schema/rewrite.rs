//! The rewrites of one schema node for one dialect (`tool-schema-wire.md`, "Rewrites"): the
//! exact ones always, the lossy ones recorded with a note, a refusal for what cannot travel.
//!
//! Why one file of this size: it is one pass over a node, and the order of its steps is part of
//! the rules (a `const` becomes an `enum` before enum values are judged, `allOf` is flattened
//! before types are, optional properties are made nullable before objects are closed…); kept
//! together, that order reads top to bottom in [`Rewriter::node`].
//!
//! Policy: change only what the dialect refuses. A lossy rewrite only widens (drops a
//! constraint, the tool still enforces it), except the strict dialects' own changes (closing
//! objects, required-or-null), which the spec lists as losses of the same kind.

use serde_json::{Map, Value};

use super::keywords::{
    child, holds, is_annotation, is_validation, note_for, Holds, TOLD_ANNOTATIONS,
};
use super::merge::merge_into;
use super::prepare::PrepareOptions;
use super::refs::MAX_DEPTH;
use super::report::{Loss, RefusalReason, SchemaRefusal};
use super::restore::rejects_null;
use super::shape::{
    accepts_null, common_type, constant_union, format_fits, is_null_schema, is_simple_pattern,
    provably_exclusive, type_is, type_names, values_take_null,
};
use crate::schema::dialect::{DialectRules, EnumValues};
use crate::schema::Dialect;

/// Where a node stands: the root, a required property (which must never be emptied), or
/// anywhere else.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Place {
    Root,
    RequiredProperty,
    Other,
}

/// Rewrites nodes for one dialect and keeps the record.
pub(crate) struct Rewriter {
    pub dialect: Dialect,
    pub rules: DialectRules,
    /// Write each loss's note into the description of the node it stood on.
    pub notes_in_descriptions: bool,
    /// The tool reads `null` for an optional property as its absence.
    pub null_is_absent: bool,
    /// The schema the references that stay point into (`Null` when every one was inlined).
    pub references: Value,
    pub losses: Vec<Loss>,
    pub changed: bool,
}

const JSON_TYPES: &[&str] = &[
    "string", "number", "integer", "boolean", "object", "array", "null",
];

impl Rewriter {
    pub(crate) fn new(dialect: Dialect, options: PrepareOptions) -> Rewriter {
        Rewriter {
            dialect,
            rules: dialect.rules(),
            notes_in_descriptions: options.notes_in_descriptions,
            null_is_absent: options.null_is_absent,
            references: Value::Null,
            losses: Vec::new(),
            changed: false,
        }
    }

    fn refuse(
        &self,
        pointer: &str,
        keyword: &str,
        reason: RefusalReason,
        why: impl Into<String>,
    ) -> SchemaRefusal {
        SchemaRefusal::new(self.dialect, pointer, keyword, reason, why)
    }

    fn lose(&mut self, notes: &mut Vec<String>, pointer: &str, keyword: &str, note: String) {
        self.changed = true;
        notes.push(note.clone());
        self.losses.push(Loss {
            pointer: pointer.to_owned(),
            keyword: keyword.to_owned(),
            note,
        });
    }

    fn allows(&self, keyword: &str) -> bool {
        self.rules.keywords.allows(keyword)
    }

    /// Rewrites `value`, a schema standing at `pointer`, and everything under it.
    pub(crate) fn node(
        &mut self,
        value: &mut Value,
        pointer: &str,
        place: Place,
        depth: usize,
    ) -> Result<(), SchemaRefusal> {
        if depth > MAX_DEPTH {
            return Err(self.refuse(
                pointer,
                "",
                RefusalReason::TooLarge,
                format!("nested deeper than {MAX_DEPTH} levels"),
            ));
        }
        let narrow = !matches!(self.rules.keywords, crate::schema::dialect::Keywords::Any);
        match value {
            Value::Bool(true) if narrow || place == Place::Root => {
                *value = Value::Object(Map::new());
                self.changed = true;
            }
            Value::Bool(false) if narrow || place == Place::Root => {
                return Err(self.refuse(
                    pointer,
                    "",
                    RefusalReason::Inexpressible,
                    "a `false` schema accepts nothing",
                ));
            }
            Value::Bool(_) => return Ok(()),
            Value::Object(_) => {}
            _ => {
                return Err(self.refuse(
                    pointer,
                    "",
                    RefusalReason::NotJsonSchema,
                    "a schema must be an object or a boolean",
                ));
            }
        }
        let Value::Object(map) = value else {
            unreachable_object()
        };
        let had_validation = map.keys().any(|k| is_validation(k));
        let mut notes = Vec::new();

        if place != Place::Root {
            self.constant_union(map);
            // Before `oneOf` is judged: the branch `null_branch` lifts may carry one (an
            // `Option<Enum>` whose enum is a `oneOf`). (A root takes no `null`: arguments are
            // an object, and `root` drops the union.)
            self.null_branch(map);
        }
        self.flatten_all_of(map, pointer, place, &mut notes)?;
        self.one_of(map, pointer, &mut notes)?;
        if place == Place::Root {
            self.root(map, pointer, &mut notes)?;
        }
        self.types(map, pointer, &mut notes)?;
        self.constant(map, pointer)?;
        self.enumeration(map, pointer, &mut notes)?;
        self.exclusive_bounds(map, &mut notes, pointer);
        self.format(map, pointer, &mut notes);
        self.min_items(map, pointer, &mut notes);
        self.pattern(map, pointer, &mut notes);
        // (Before `typed`: the `items` it leaves is what a strict array needs.)
        self.prefix_items(map, pointer, &mut notes);
        self.objects(map, pointer, place, &mut notes)?;
        self.typed(map, pointer, &mut notes)?;
        self.all_required(map, pointer)?;
        self.unknown_keywords(map, pointer, &mut notes);
        self.children(map, pointer, depth)?;

        if self.notes_in_descriptions && !notes.is_empty() {
            add_notes(map, &notes);
        }
        if place == Place::RequiredProperty
            && had_validation
            && !map.keys().any(|k| is_validation(k))
        {
            return Err(self.refuse(
                pointer,
                "type",
                RefusalReason::WouldEmpty,
                format!(
                    "{} would leave this required property without a type",
                    self.dialect
                ),
            ));
        }
        Ok(())
    }

    /// `allOf` where the dialect refuses it: merged into the node where that is exact; what
    /// cannot be merged is dropped with a loss (the node only widens).
    fn flatten_all_of(
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
    fn one_of(
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
                super::keywords::shown_value(&Value::Array(branches))
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

    /// The root: an object, without the combinators providers refuse there.
    fn root(
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
                    "anyOf" | "oneOf" => format!(
                        "Must match one of {}.",
                        super::keywords::shown_value(&value)
                    ),
                    other => note_for(other, &value),
                };
                self.lose(notes, pointer, keyword, note);
            }
        }
        Ok(())
    }

    /// `type`: one value where the dialect has no type arrays (`nullable` for `null`, `anyOf`
    /// for several), in capitals where the dialect writes them so.
    fn types(
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

    /// A union of constants (`oneOf`/`anyOf` of `const`s, however nested, `{type: null}`
    /// among them) where the dialect names its keywords: one `enum` of the values it allows
    /// (exact), each branch's description kept in the node's, a line per value. Only where the
    /// dialect takes every value in an `enum` (Gemini: strings, and `null` as `nullable`);
    /// otherwise the branches travel one by one.
    fn constant_union(&mut self, map: &mut Map<String, Value>) {
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

    /// Gemini: `anyOf: [X, {type: null}]` is X with `nullable: true` (exact), when nothing but
    /// annotations stands beside the `anyOf`.
    fn null_branch(&mut self, map: &mut Map<String, Value>) {
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

    /// `const: v` is `enum: [v]` where the dialect has no `const` (exact).
    fn constant(
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
    fn enumeration(
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

    /// `exclusiveMinimum: n` on an integer is `minimum: n + 1` (exact); on a number it becomes
    /// `minimum: n` with a loss. Likewise the maximum.
    fn exclusive_bounds(
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
    fn format(&mut self, map: &mut Map<String, Value>, pointer: &str, notes: &mut Vec<String>) {
        if !map.contains_key("format") || format_fits(&self.rules, map) {
            return;
        }
        {
            let format = map.remove("format").unwrap_or(Value::Null);
            self.lose(notes, pointer, "format", note_for("format", &format));
        }
    }

    /// `prefixItems` where the dialect has none: every position may hold any of the listed
    /// schemas or the rest's (`items`), a widening. Dropping `prefixItems` alone would narrow:
    /// `items` would then apply to the first positions too.
    fn prefix_items(
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
            super::keywords::shown_value(&Value::Array(prefix.clone()))
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
    fn pattern(&mut self, map: &mut Map<String, Value>, pointer: &str, notes: &mut Vec<String>) {
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
    fn min_items(&mut self, map: &mut Map<String, Value>, pointer: &str, notes: &mut Vec<String>) {
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

    /// Objects: closed where the dialect wants every object closed; `additionalProperties`
    /// dropped where the dialect refuses it (exactly, when it allowed anything).
    fn objects(
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
            self.lose(notes, pointer, "additionalProperties", note);
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
    fn typed(
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
                self.lose(notes, pointer, "type", "Must be an object.".to_owned());
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
    fn all_required(
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
                });
            }
        }
        for at in typed_objects {
            self.losses.push(Loss {
                pointer: at,
                keyword: "type".to_owned(),
                note: "Must be an object.".to_owned(),
            });
        }
        Ok(())
    }

    /// Keywords the dialect does not take: annotations go quietly (a default or an example
    /// moves into the description), constraints go with a loss.
    fn unknown_keywords(
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
            if TOLD_ANNOTATIONS.contains(&key.as_str()) {
                notes.push(note_for(&key, &value));
            } else if is_validation(&key) {
                // (`nullable` is no JSON Schema keyword: a validator ignores it.)
                self.lose(notes, pointer, &key, note_for(&key, &value));
            }
        }
    }

    /// Rewrites every subschema the node kept.
    fn children(
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
                        super::keywords::shown_value(&Value::Array(items.clone()))
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

fn unreachable_object() -> ! {
    unreachable!("matched as an object above")
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

/// Appends notes to a node's description, as sentences after what it already says.
pub(crate) fn add_notes(map: &mut Map<String, Value>, notes: &[String]) {
    let mut text = map
        .get("description")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .trim_end()
        .to_owned();
    // A description written a line per value (a union of constants) takes its notes on a line
    // of their own.
    let separator = if text.contains('\n') { '\n' } else { ' ' };
    for note in notes {
        if !text.is_empty() {
            text.push(separator);
        }
        text.push_str(note);
    }
    map.insert("description".to_owned(), Value::String(text));
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
