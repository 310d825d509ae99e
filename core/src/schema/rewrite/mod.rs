//! The rewrites of one schema node for one dialect (`tool-schema-wire.md`, "Rewrites"): the
//! exact ones always, the lossy ones recorded with a note, a refusal for what cannot travel.
//!
//! One pass over a node, and the order of its steps is part of the rules (a `const` becomes an
//! `enum` before enum values are judged, `allOf` is flattened before types are, optional
//! properties are made nullable before objects are closed…): that order reads top to bottom in
//! [`Rewriter::node`], here; each step lives in the file of what it rewrites:
//! - `unions.rs`: `allOf` merged, `oneOf` as `anyOf`, a union of constants as one `enum`;
//! - `root.rs`: the root as an object, without the keywords providers refuse there;
//! - `types.rs`: types and nulls (`type` arrays and names, `null` as `nullable`);
//! - `values.rs`: `const` and `enum`, cut to the values the dialect lists;
//! - `constraints.rs`: the lossy drops (bounds, `format`, `pattern`, `minItems`,
//!   `prefixItems`, keywords the dialect does not take);
//! - `strict.rs`: strict's closed objects, typed nodes and required-or-null;
//! - `subschemas.rs`: the walk into every subschema the node kept.
//!
//! References are not rewritten here: `refs.rs` inlines them before this pass (`prepare.rs`).
//!
//! Policy: change only what the dialect refuses. A lossy rewrite only widens (drops a
//! constraint, the tool still enforces it), except the strict dialects' own changes (closing
//! objects, required-or-null), which the spec lists as losses of the same kind.

mod constraints;
mod root;
mod strict;
mod subschemas;
mod types;
mod unions;
mod values;

use serde_json::{Map, Value};

use super::keywords::{is_validation, note_for};
use super::prepare::PrepareOptions;
use super::refs::MAX_DEPTH;
use super::report::{Loss, RefusalReason, SchemaRefusal};
use crate::schema::dialect::DialectRules;
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
    /// The schema names draft-07 or older, where `contentEncoding` and `contentMediaType` may
    /// be rules rather than annotations (`keywords.rs`, `CONTENT_RULES`).
    pub content_asserts: bool,
    pub losses: Vec<Loss>,
    pub changed: bool,
}

impl Rewriter {
    pub(crate) fn new(dialect: Dialect, options: PrepareOptions) -> Rewriter {
        Rewriter {
            dialect,
            rules: dialect.rules(),
            notes_in_descriptions: options.notes_in_descriptions,
            null_is_absent: options.null_is_absent,
            references: Value::Null,
            content_asserts: false,
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

    /// Records a loss that widens the set (a keyword the dialect cannot say, dropped).
    fn lose(&mut self, notes: &mut Vec<String>, pointer: &str, keyword: &str, note: String) {
        self.record(notes, pointer, keyword, note, false, None);
    }

    /// Records a loss that narrows the set: the wire forbids what the tool's own schema takes
    /// (strict's own changes, `strict.rs`), which fails the rail whatever guards the tool.
    fn narrow(&mut self, notes: &mut Vec<String>, pointer: &str, keyword: &str, note: String) {
        self.record(notes, pointer, keyword, note, true, None);
    }

    /// Records a loss, with the format lost when `keyword` is `format` (its value a string).
    fn record(
        &mut self,
        notes: &mut Vec<String>,
        pointer: &str,
        keyword: &str,
        note: String,
        narrows: bool,
        format: Option<&str>,
    ) {
        self.changed = true;
        notes.push(note.clone());
        self.losses.push(Loss {
            pointer: pointer.to_owned(),
            keyword: keyword.to_owned(),
            note,
            narrows,
            format: format.map(str::to_owned),
        });
    }

    /// Records a dropped `format: value` (a widening), the loss knowing its format: whether a
    /// validator checks it depends on which format it is ([`Loss::checked_by_validators`]).
    fn lose_format(&mut self, notes: &mut Vec<String>, pointer: &str, value: &Value) {
        let note = note_for("format", value);
        self.record(notes, pointer, "format", note, false, value.as_str());
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
}

fn unreachable_object() -> ! {
    unreachable!("matched as an object above")
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
