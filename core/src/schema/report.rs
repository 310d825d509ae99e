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
/// assert_eq!(loss.format.as_deref(), Some("uri"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Loss {
    /// The JSON pointer of the node it stood on, in the tool's own schema.
    pub pointer: String,
    /// The keyword dropped or changed.
    pub keyword: String,
    /// What was lost, in words the model reads (also written into the node's description).
    pub note: String,
    /// Whether the loss forbids arguments the tool's own schema accepts (an over-restriction,
    /// which fails the rail whatever guards the tool) rather than only widening the set. Set
    /// where the loss is made (`schema/rewrite/`): only strict's own changes narrow (closing
    /// an object the tool leaves open, required-or-null where `null` and absence may differ,
    /// typing an untyped node as an object, in `rewrite/strict.rs`); "A non-strict dialect
    /// never forbids what the tool accepts" (`tool-schema-wire.md`, "Where each part lives").
    pub narrows: bool,
    /// The format lost, when `keyword` is `format` (and its value a string): whether the loss
    /// is guarded depends on it, since a validator checks only the formats it knows
    /// ([`Loss::checked_by_validators`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
}

impl Loss {
    /// Whether the `#[tool]`'s validator (`jsonschema`, draft 2020-12, built with
    /// [`arguments_validator_options`](crate::schema::arguments_validator_options)) checks the
    /// rule lost, so a tool that validates its own arguments refuses what breaks it: an
    /// extension keyword, `contentMediaType`/`contentEncoding`, or a `format` it does not know
    /// (`"upper-case-word"`, jiff's `"zoned-date-time"`; it knows `date-time`, `email`, `uri`,
    /// `uuid`, `ipv4` and the other formats of 2020-12 but the `idn-*` ones, and schemars'
    /// `ip`, `partial-date-time` and `partial-time`) is never checked, and its loss is
    /// unguarded whoever runs the tool.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolwire_core::schema::{prepare_schema, Dialect};
    /// let schema = json!({"type": "object", "properties": {"q": {"type": "string",
    ///     "pattern": "^a", "x-rule": "lower case"}}});
    /// let prepared = prepare_schema(Dialect::Gemini, &schema).unwrap();
    /// let checked: Vec<(&str, bool)> = prepared.losses.iter()
    ///     .map(|l| (l.keyword.as_str(), l.checked_by_validators())).collect();
    /// assert!(checked.contains(&("x-rule", false)), "{checked:?}");
    /// // A format the validator checks, and one it ignores.
    /// let formats = json!({"type": "object", "properties": {
    ///     "ip": {"type": "string", "format": "ip"},
    ///     "word": {"type": "string", "format": "upper-case-word"}}});
    /// let prepared = prepare_schema(Dialect::Gemini, &formats).unwrap();
    /// let checked: Vec<(Option<&str>, bool)> = prepared.losses.iter()
    ///     .map(|l| (l.format.as_deref(), l.checked_by_validators())).collect();
    /// assert!(checked.contains(&(Some("ip"), true)), "{checked:?}");
    /// assert!(checked.contains(&(Some("upper-case-word"), false)), "{checked:?}");
    /// ```
    pub fn checked_by_validators(&self) -> bool {
        use crate::schema::keywords::is_checked_rule;
        use crate::schema::validator::is_checked_format;
        match self.keyword.as_str() {
            "format" => self.format.as_deref().is_some_and(is_checked_format),
            keyword => is_checked_rule(keyword),
        }
    }

    /// This loss's standing for a tool whose runner does (`validates_arguments`) or does not
    /// validate its arguments: guarded only if it does and a validator checks the rule lost.
    /// The one judge the report, the rail and `toolwire wire` share.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolwire_core::schema::{prepare_schema, Dialect, Standing};
    /// let schema = json!({"type": "object", "properties": {"n": {"type": "integer", "maximum": 9}}});
    /// let prepared = prepare_schema(Dialect::AnthropicStrict, &schema).unwrap();
    /// let loss = &prepared.losses[0];
    /// assert_eq!(loss.standing(true), Standing::Guarded);
    /// assert_eq!(loss.standing(false), Standing::Unguarded);
    /// ```
    pub fn standing(&self, validates_arguments: bool) -> Standing {
        Standing::of_widening(validates_arguments && self.checked_by_validators())
    }

    /// Whether this loss fails a check, in `exact` mode or not, for a tool whose runner does
    /// or does not validate: an over-restriction always, else by its
    /// [`standing`](Self::standing).
    ///
    /// ```
    /// use serde_json::json;
    /// use toolwire_core::schema::{prepare_schema, Dialect};
    /// let schema = json!({"type": "object", "properties": {"n": {"type": "integer", "maximum": 9}}});
    /// let prepared = prepare_schema(Dialect::AnthropicStrict, &schema).unwrap();
    /// let lost = |keyword| prepared.losses.iter().find(|l| l.keyword == keyword).unwrap();
    /// let maximum = lost("maximum");
    /// assert!(!maximum.fails(true, false), "guarded: listed, not failing");
    /// assert!(maximum.fails(true, true) && maximum.fails(false, false));
    /// // Strict closes the object: that forbids valid arguments, so it fails whoever runs the tool.
    /// assert!(lost("additionalProperties").fails(true, false));
    /// ```
    pub fn fails(&self, validates_arguments: bool, exact: bool) -> bool {
        self.narrows || self.standing(validates_arguments).fails(exact)
    }
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

/// Where a loss stands (`tool-schema-wire.md`, "What the rail fails on, revised 2026-12"): what
/// decides whether it fails the schema rail.
///
/// ```
/// use toolwire_core::schema::Standing;
/// assert!(Standing::Refused.fails(false) && Standing::Unguarded.fails(false));
/// assert!(!Standing::Guarded.fails(false), "listed, not failed");
/// assert!(Standing::Guarded.fails(true), "the exact mode fails it too");
/// assert_eq!(serde_json::to_value(Standing::Guarded).unwrap(), "guarded");
/// assert!(Standing::Refused < Standing::Unguarded, "ordered from the worst");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Standing {
    /// "The tool does not travel to that provider."
    Refused,
    /// "The set of valid arguments widened and nothing on our side enforces the original (an
    /// MCP tool whose server is not known to validate)."
    Unguarded,
    /// "The set widened, and the tool's own validation refuses every argument outside the
    /// original set before the tool runs, with an answer that names the rule (every
    /// `#[tool]`, which validates against its own schema)."
    Guarded,
}

impl Standing {
    /// The standing of a widening loss of a tool that does, or does not, validate its own
    /// arguments ([`crate::ToolDefinition::validates_arguments`]).
    ///
    /// ```
    /// use toolwire_core::schema::Standing;
    /// assert_eq!(Standing::of_widening(true), Standing::Guarded);
    /// assert_eq!(Standing::of_widening(false), Standing::Unguarded);
    /// ```
    pub const fn of_widening(validates_arguments: bool) -> Standing {
        if validates_arguments {
            Standing::Guarded
        } else {
            Standing::Unguarded
        }
    }

    /// Whether it fails the schema rail: "The schema rail fails on refused and unguarded
    /// losses [...]; a guarded loss is listed in the report [...] but does not fail it. An app
    /// that wants every provider to see every rule asks for that, and then a guarded loss fails
    /// too" (`exact`).
    ///
    /// ```
    /// assert!(!toolwire_core::schema::Standing::Guarded.fails(false));
    /// ```
    pub const fn fails(self, exact: bool) -> bool {
        match self {
            Standing::Refused | Standing::Unguarded => true,
            Standing::Guarded => exact,
        }
    }

    /// The stable key (`refused`, `unguarded`, `guarded`).
    ///
    /// ```
    /// assert_eq!(toolwire_core::schema::Standing::Unguarded.key(), "unguarded");
    /// ```
    pub const fn key(self) -> &'static str {
        match self {
            Standing::Refused => "refused",
            Standing::Unguarded => "unguarded",
            Standing::Guarded => "guarded",
        }
    }
}

impl fmt::Display for Standing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

/// How one tool's schema travels in one dialect, for reports: the status, the losses, the
/// reason when refused, and where it stands for the rail.
///
/// ```
/// use serde_json::json;
/// use toolwire_core::schema::{Dialect, SchemaReport, SchemaStatus, Standing};
/// let schema = json!({"type": "object", "properties": {"n": {"$ref": "#/$defs/n"}}});
/// let report = SchemaReport::of(Dialect::Gemini, &schema);
/// assert_eq!((report.status, report.standing), (SchemaStatus::Refused, Some(Standing::Refused)));
/// assert!(report.reason.as_deref().unwrap().contains("#/$defs/n"));
/// assert!(report.fails(false));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct SchemaReport {
    /// As is, rewritten, lossy or refused.
    pub status: SchemaStatus,
    /// What a lossy rewrite lost.
    pub losses: Vec<Loss>,
    /// Why it is refused, when it is.
    pub reason: Option<String>,
    /// Where its losses stand: refused when refused; guarded or unguarded when lossy (by
    /// whether the tool validates its own arguments); `None` when it travels exactly.
    pub standing: Option<Standing>,
    /// Whether a loss forbids arguments the tool accepts ([`Loss::narrows`]): this fails the
    /// rail whatever the standing.
    pub over_restricts: bool,
}

impl SchemaReport {
    /// The report of `schema` (a tool's parameter schema, as [`crate::tools::ToolDefinition::parameters_schema`]
    /// gives it) in `dialect`, from the same cached preparation the wire uses. A bare schema
    /// says nothing of what validates the arguments, so its losses are unguarded.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolwire_core::schema::{Dialect, SchemaReport, SchemaStatus};
    /// let schema = json!({"type": "object", "properties": {"q": {"type": "string"}}});
    /// assert_eq!(SchemaReport::of(Dialect::OpenAi, &schema).status, SchemaStatus::AsIs);
    /// ```
    pub fn of(dialect: crate::schema::Dialect, schema: &serde_json::Value) -> SchemaReport {
        SchemaReport::of_preparation(
            &crate::schema::prepare_schema_cached(dialect, schema),
            false,
        )
    }

    /// The report of a bare tool definition in `dialect`: what the wire sends for it
    /// ([`crate::schema::prepare_definition_cached`], so a tool that reads `null` as absent
    /// loses nothing to strict's required-or-null), its losses *unguarded*: a definition alone
    /// does not say what runs the tool (a `#[tool]`'s definition may be handed to a closure
    /// that checks nothing), so it is judged as the rail judges a bare
    /// [`ToolDefinition`](crate::ToolDefinition). With the runner,
    /// [`of_definition_run_by`](Self::of_definition_run_by).
    ///
    /// ```
    /// use serde_json::json;
    /// use toolwire_core::{schema::{Dialect, SchemaReport, SchemaStatus, Standing}, ToolDefinition};
    /// let schema = json!({"type": "object", "additionalProperties": false,
    ///     "properties": {"days": {"type": ["integer", "null"]}}});
    /// let own = ToolDefinition::new("t", "d", schema).with_null_is_absent(true);
    /// assert_eq!(SchemaReport::of_definition(Dialect::OpenAiStrict, &own).status, SchemaStatus::Rewritten);
    /// // Gemini cannot close the object; nothing said what checks this tool's arguments.
    /// let gemini = SchemaReport::of_definition(Dialect::Gemini, &own);
    /// assert_eq!((gemini.status, gemini.standing), (SchemaStatus::Lossy, Some(Standing::Unguarded)));
    /// ```
    pub fn of_definition(
        dialect: crate::schema::Dialect,
        definition: &crate::tools::ToolDefinition,
    ) -> SchemaReport {
        SchemaReport::of_definition_run_by(dialect, definition, false)
    }

    /// The report of a tool's definition in `dialect` when the code that runs it is known:
    /// `runner_validates` says whether that code checks every call against the schema the
    /// definition carries before the tool runs (a `#[tool]` registration's
    /// [`validates_arguments`](crate::tools::ToolRegistration::validates_arguments), or
    /// [`ToolProvider::validates_arguments`](crate::provider::ToolProvider::validates_arguments)
    /// of the provider that runs it, as `ToolRuntime::report` asks). Guarded only when it does
    /// *and* the definition is still the schema it checks
    /// ([`ToolDefinition::validates_arguments`](crate::ToolDefinition::validates_arguments)):
    /// the one judge of the report, the runtime and the rail.
    ///
    /// ```
    /// use toolwire_core::schema::{Dialect, SchemaReport, Standing};
    /// use toolwire_core::tools::ToolRegistration;
    /// static COUNT: ToolRegistration = ToolRegistration {
    ///     name: "count", form: "count", description: "Counts.",
    ///     schema: || serde_json::json!({"type": "object", "properties": {"n": {"type": "integer", "maximum": 9}}}),
    ///     handler: |input| Box::pin(async move { Ok(input.arguments) }),
    ///     module_path: "demo", file: "demo.rs", line: 1,
    ///     // Its handler would check every call against `schema`, as `#[tool]`'s does.
    ///     validates_arguments: true,
    /// };
    /// let definition = COUNT.definition();
    /// let run_by = |validates| SchemaReport::of_definition_run_by(Dialect::AnthropicStrict, &definition, validates).standing;
    /// assert_eq!(run_by(true), Some(Standing::Guarded), "run by its own handler");
    /// assert_eq!(run_by(false), Some(Standing::Unguarded), "handed to code that checks nothing");
    /// let bare = SchemaReport::of_definition(Dialect::AnthropicStrict, &definition);
    /// assert_eq!(bare.standing, Some(Standing::Unguarded), "a bare definition says no runner");
    /// ```
    pub fn of_definition_run_by(
        dialect: crate::schema::Dialect,
        definition: &crate::tools::ToolDefinition,
        runner_validates: bool,
    ) -> SchemaReport {
        SchemaReport::of_preparation(
            &crate::schema::prepare_definition_cached(dialect, definition),
            definition.guarded_when_run(runner_validates),
        )
    }

    /// The report of a preparation already made (a refusal is `refused`, with
    /// its message as the reason), for a tool that does or does not validate its own arguments.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolwire_core::schema::{prepare_schema_cached, Dialect, SchemaReport, SchemaStatus, Standing};
    /// let schema = json!({"type": "object", "properties": {"s": {"type": "string", "format": "uri"}}});
    /// let preparation = prepare_schema_cached(Dialect::Gemini, &schema);
    /// let guarded = SchemaReport::of_preparation(&preparation, true);
    /// assert_eq!((guarded.status, guarded.standing), (SchemaStatus::Lossy, Some(Standing::Guarded)));
    /// assert!(!guarded.fails(false) && guarded.fails(true));
    /// ```
    pub fn of_preparation(
        preparation: &crate::schema::Preparation,
        validates_arguments: bool,
    ) -> SchemaReport {
        match preparation {
            Ok(prepared) => SchemaReport {
                status: prepared.status,
                // Guarded only if the tool's validation checks every rule lost.
                standing: (prepared.status == SchemaStatus::Lossy).then(|| {
                    Standing::of_widening(
                        validates_arguments
                            && prepared.losses.iter().all(Loss::checked_by_validators),
                    )
                }),
                over_restricts: prepared.losses.iter().any(|loss| loss.narrows),
                losses: prepared.losses.clone(),
                reason: None,
            },
            Err(refusal) => SchemaReport {
                status: SchemaStatus::Refused,
                losses: Vec::new(),
                reason: Some(refusal.to_string()),
                standing: Some(Standing::Refused),
                over_restricts: false,
            },
        }
    }

    /// Whether this fails the schema rail: refused, unguarded, over-restricting, or (when
    /// `exact`) guarded.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolwire_core::schema::{Dialect, SchemaReport};
    /// let exact = json!({"type": "object", "properties": {"q": {"type": "string"}}});
    /// assert!(!SchemaReport::of(Dialect::Gemini, &exact).fails(true));
    /// ```
    pub fn fails(&self, exact: bool) -> bool {
        self.over_restricts || self.standing.is_some_and(|s| s.fails(exact))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::schema::{prepare_schema, Dialect};

    /// The `(keyword, narrows)` of each loss `schema` makes in `dialect`.
    fn narrowing(dialect: Dialect, schema: &serde_json::Value) -> Vec<(String, bool)> {
        let prepared = prepare_schema(dialect, schema).unwrap();
        prepared
            .losses
            .into_iter()
            .map(|l| (l.keyword, l.narrows))
            .collect()
    }

    #[test]
    fn typing_an_untyped_node_as_an_object_narrows_and_a_dropped_type_union_widens() {
        // Strict types a node that declares properties but no type: an array, which the tool
        // took there, is refused on the wire.
        let untyped = json!({"type": "object", "additionalProperties": false, "required": ["o"],
            "properties": {"o": {"properties": {"a": {"type": "string"}}, "additionalProperties": false, "required": ["a"]}}});
        let losses = narrowing(Dialect::AnthropicStrict, &untyped);
        assert!(losses.contains(&("type".to_owned(), true)), "{losses:?}");
        // A union of types beside an `anyOf`, dropped: only widens, the same keyword.
        let union = json!({"type": "object", "properties": {"v": {"type": ["string", "integer"],
            "anyOf": [{"minLength": 1}, {"minimum": 0}]}}});
        let losses = narrowing(Dialect::Gemini, &union);
        assert!(losses.contains(&("type".to_owned(), false)), "{losses:?}");
        assert!(losses.iter().all(|(_, narrows)| !narrows), "{losses:?}");
    }

    #[test]
    fn a_guarded_report_that_over_restricts_fails() {
        // An open object: anthropic-strict closes it, forbidding what the tool accepts.
        let open = json!({"type": "object", "properties": {"q": {"type": "string"}}});
        let preparation = crate::schema::prepare_schema_cached(Dialect::AnthropicStrict, &open);
        let report = SchemaReport::of_preparation(&preparation, true);
        assert_eq!(report.standing, Some(Standing::Guarded));
        assert!(report.over_restricts);
        assert!(
            report.fails(false),
            "an over-restriction fails whatever guards it"
        );
        let json = serde_json::to_value(&report).unwrap();
        assert_eq!(json["losses"][0]["narrows"], true, "{json}");
    }
}
