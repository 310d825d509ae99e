//! What checking and preparing a schema say: problems, losses, refusals.
//!
//! Policy: every finding names the JSON pointer of the node it stands on and the keyword at
//! fault, so a message can always say where to look.

use std::fmt;

use serde::Serialize;

/// One thing a dialect refuses in a schema, found by [`crate::schema::check_schema`].
///
/// ```
/// use serde_json::json;
/// use toolwire_core::schema::{Dialect, check_schema};
/// let problems = check_schema(Dialect::Gemini, &json!({"type": "OBJECT", "properties": {
///     "n": {"type": ["INTEGER", "NULL"]}
/// }}));
/// assert_eq!((problems[0].pointer.as_str(), problems[0].keyword.as_str()), ("/properties/n", "type"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SchemaProblem {
    /// Where: the JSON pointer of the node (`""` is the root).
    pub pointer: String,
    /// The keyword at fault.
    pub keyword: String,
    /// Why the dialect refuses it.
    pub why: String,
}

impl fmt::Display for SchemaProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "at `{}`, `{}`: {}",
            shown(&self.pointer),
            self.keyword,
            self.why
        )
    }
}

/// What a lossy rewrite changed: the set of valid arguments on the wire is not the tool's own.
///
/// ```
/// use serde_json::json;
/// use toolwire_core::schema::{Dialect, prepare_schema};
/// let schema = json!({"type": "object", "properties": {"id": {"type": "string", "format": "uri"}}});
/// let prepared = prepare_schema(Dialect::Gemini, &schema).unwrap();
/// let loss = &prepared.losses[0];
/// assert_eq!((loss.pointer.as_str(), loss.keyword.as_str()), ("/properties/id", "format"));
/// assert_eq!(loss.note, "Format: uri.");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Loss {
    /// The JSON pointer of the node it stood on, in the tool's own schema.
    pub pointer: String,
    /// The keyword dropped or changed.
    pub keyword: String,
    /// What was lost, in words the model reads (also written into the node's description).
    pub note: String,
}

impl fmt::Display for Loss {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "at `{}`, `{}`: {}",
            shown(&self.pointer),
            self.keyword,
            self.note
        )
    }
}

/// Why a schema cannot travel in a dialect at all.
///
/// ```
/// use toolwire_core::schema::RefusalReason;
/// assert_eq!(RefusalReason::ExternalRef.key(), "external_ref");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum RefusalReason {
    /// The schema is not JSON Schema (a keyword's value has the wrong kind).
    NotJsonSchema,
    /// The root is not an object schema.
    RootNotObject,
    /// A `$ref` names nothing in the schema.
    RefToNowhere,
    /// A `$ref` leaves the schema (another document or a URL).
    ExternalRef,
    /// A `$ref` refers back to a schema it stands in, and the dialect has no recursion.
    Recursive,
    /// Over one of the dialect's size limits, or too large to prepare at all.
    TooLarge,
    /// The dialect cannot express it at all.
    Inexpressible,
    /// The rewrite would leave a required property without a type.
    WouldEmpty,
}

impl RefusalReason {
    /// A stable key for JSON output.
    ///
    /// ```
    /// assert_eq!(toolwire_core::schema::RefusalReason::WouldEmpty.key(), "would_empty");
    /// ```
    pub const fn key(&self) -> &'static str {
        match self {
            RefusalReason::NotJsonSchema => "not_json_schema",
            RefusalReason::RootNotObject => "root_not_object",
            RefusalReason::RefToNowhere => "ref_to_nowhere",
            RefusalReason::ExternalRef => "external_ref",
            RefusalReason::Recursive => "recursive",
            RefusalReason::TooLarge => "too_large",
            RefusalReason::Inexpressible => "inexpressible",
            RefusalReason::WouldEmpty => "would_empty",
        }
    }
}

/// A schema that cannot travel in a dialect, and why: the tool is left out of that provider's
/// list, loudly.
///
/// ```
/// use serde_json::json;
/// use toolwire_core::schema::{Dialect, RefusalReason, prepare_schema};
/// let schema = json!({"type": "object", "properties": {"x": {"$ref": "#/$defs/missing"}}});
/// let refusal = prepare_schema(Dialect::OpenAi, &schema).unwrap_err();
/// assert_eq!(refusal.reason, RefusalReason::RefToNowhere);
/// assert_eq!(refusal.pointer, "/properties/x");
/// assert!(refusal.to_string().contains("#/$defs/missing"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
#[error(
    "{dialect} refuses the schema at `{}`, `{keyword}`: {why}",
    shown(pointer)
)]
pub struct SchemaRefusal {
    /// The dialect that refuses it.
    #[serde(serialize_with = "crate::schema::report::dialect_key")]
    pub dialect: crate::schema::Dialect,
    /// Where: the JSON pointer of the node, in the tool's own schema.
    pub pointer: String,
    /// The keyword at fault.
    pub keyword: String,
    /// The kind of refusal.
    pub reason: RefusalReason,
    /// Why, in words.
    pub why: String,
}

impl SchemaRefusal {
    pub(crate) fn new(
        dialect: crate::schema::Dialect,
        pointer: &str,
        keyword: &str,
        reason: RefusalReason,
        why: impl Into<String>,
    ) -> SchemaRefusal {
        SchemaRefusal {
            dialect,
            pointer: pointer.to_owned(),
            keyword: keyword.to_owned(),
            reason,
            why: why.into(),
        }
    }
}

pub(crate) fn dialect_key<S: serde::Serializer>(
    dialect: &crate::schema::Dialect,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(dialect.key())
}

/// How a tool's schema travels in one dialect.
///
/// ```
/// use toolwire_core::schema::SchemaStatus;
/// assert_eq!(serde_json::to_value(SchemaStatus::AsIs).unwrap(), "as_is");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SchemaStatus {
    /// Sent exactly as the tool wrote it.
    AsIs,
    /// Rewritten, exactly: the same arguments are valid.
    Rewritten,
    /// Sent with losses (listed), each written into a description.
    Lossy,
    /// Not sent to this provider.
    Refused,
}

impl SchemaStatus {
    /// The stable key (`as_is`, `rewritten`, `lossy`, `refused`).
    ///
    /// ```
    /// assert_eq!(toolwire_core::schema::SchemaStatus::Lossy.key(), "lossy");
    /// ```
    pub const fn key(self) -> &'static str {
        match self {
            SchemaStatus::AsIs => "as_is",
            SchemaStatus::Rewritten => "rewritten",
            SchemaStatus::Lossy => "lossy",
            SchemaStatus::Refused => "refused",
        }
    }
}

/// The root's pointer is empty; messages show it as `(root)`, which no reader mistakes for a
/// property named "".
pub(crate) fn shown(pointer: &str) -> &str {
    if pointer.is_empty() {
        "(root)"
    } else {
        pointer
    }
}

/// How one tool's schema travels in one dialect, for reports: the status, the losses, and the
/// reason when refused.
///
/// ```
/// use serde_json::json;
/// use toolwire_core::schema::{Dialect, SchemaReport, SchemaStatus};
/// let schema = json!({"type": "object", "properties": {"n": {"$ref": "#/$defs/n"}}});
/// let report = SchemaReport::of(Dialect::Gemini, &schema);
/// assert_eq!(report.status, SchemaStatus::Refused);
/// assert!(report.reason.unwrap().contains("#/$defs/n"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SchemaReport {
    /// As is, rewritten, lossy or refused.
    pub status: SchemaStatus,
    /// What a lossy rewrite lost.
    pub losses: Vec<Loss>,
    /// Why it is refused, when it is.
    pub reason: Option<String>,
}

impl SchemaReport {
    /// The report of `schema` (a tool's parameter schema, as [`crate::tools::ToolDefinition::parameters_schema`]
    /// gives it) in `dialect`, from the same cached preparation the wire uses.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolwire_core::schema::{Dialect, SchemaReport, SchemaStatus};
    /// let schema = json!({"type": "object", "properties": {"q": {"type": "string"}}});
    /// assert_eq!(SchemaReport::of(Dialect::OpenAi, &schema).status, SchemaStatus::AsIs);
    /// ```
    pub fn of(dialect: crate::schema::Dialect, schema: &serde_json::Value) -> SchemaReport {
        SchemaReport::from(&*crate::schema::prepare_schema_cached(dialect, schema))
    }

    /// The report of a tool's definition in `dialect`: what the wire sends for it
    /// ([`crate::schema::prepare_definition_cached`], so a tool that reads `null` as absent
    /// loses nothing to strict's required-or-null).
    ///
    /// ```
    /// use serde_json::json;
    /// use toolwire_core::{schema::{Dialect, SchemaReport, SchemaStatus}, ToolDefinition};
    /// let schema = json!({"type": "object", "additionalProperties": false,
    ///     "properties": {"days": {"type": ["integer", "null"]}}});
    /// let own = ToolDefinition::new("t", "d", schema).with_null_is_absent(true);
    /// assert_eq!(SchemaReport::of_definition(Dialect::OpenAiStrict, &own).status, SchemaStatus::Rewritten);
    /// ```
    pub fn of_definition(
        dialect: crate::schema::Dialect,
        definition: &crate::tools::ToolDefinition,
    ) -> SchemaReport {
        SchemaReport::from(&*crate::schema::prepare_definition_cached(
            dialect, definition,
        ))
    }
}

impl From<&crate::schema::Preparation> for SchemaReport {
    /// The report of a preparation already made (a refusal is `refused`, with its message as
    /// the reason).
    ///
    /// ```
    /// use serde_json::json;
    /// use toolwire_core::schema::{prepare_schema_cached, Dialect, SchemaReport, SchemaStatus};
    /// let schema = json!({"type": "object", "properties": {"next": {"$ref": "#"}}});
    /// let preparation = prepare_schema_cached(Dialect::Gemini, &schema);
    /// assert_eq!(SchemaReport::from(&*preparation).status, SchemaStatus::Refused);
    /// ```
    fn from(preparation: &crate::schema::Preparation) -> SchemaReport {
        match preparation {
            Ok(prepared) => SchemaReport {
                status: prepared.status,
                losses: prepared.losses.clone(),
                reason: None,
            },
            Err(refusal) => SchemaReport {
                status: SchemaStatus::Refused,
                losses: Vec::new(),
                reason: Some(refusal.to_string()),
            },
        }
    }
}
