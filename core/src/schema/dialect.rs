//! What each provider accepts as a tool's parameter schema, as data (`tool-schema-wire.md`,
//! "Dialects").
//!
//! Policy: the types here are generic; the facts live in one file per LLM provider
//! (`core/src/wire/{openai,anthropic,converse,gemini}/mod.rs`), each citing its
//! source, and [`Dialect::rules`] returns the provider file's table.
//! [`crate::schema::check_schema`] and [`crate::schema::prepare_schema`] read only these tables,
//! so a provider that changes its mind is one edit in its file.
//!
//! ```
//! use toolwire_core::schema::Dialect;
//! use toolwire_core::WireFormat;
//!
//! // Each wire format sends its schemas in one dialect; the dialect's rules are data.
//! assert_eq!(WireFormat::Gemini.dialect(), Dialect::Gemini);
//! let gemini = Dialect::Gemini.rules();
//! assert!(gemini.upper_case_types && gemini.nullable && !gemini.type_arrays);
//! assert!(Dialect::OpenAiStrict.rules().closed_objects);
//! ```

use std::fmt;

use crate::wire::{apis, LlmProvider};

/// A request field's schema dialect: what one provider accepts as a tool's parameters.
///
/// ```
/// use toolwire_core::schema::Dialect;
/// assert_eq!(Dialect::ALL.len(), 6);
/// assert_eq!(Dialect::from_key("openai-strict"), Some(Dialect::OpenAiStrict));
/// assert!(Dialect::AnthropicStrict.is_strict());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Dialect {
    /// Chat Completions `tools[].function.parameters` and Responses function tools.
    OpenAi,
    /// The same with `strict: true` (structured outputs).
    OpenAiStrict,
    /// Messages API `tools[].input_schema`.
    Anthropic,
    /// The same with `strict: true`; also Bedrock Converse strict.
    AnthropicStrict,
    /// Bedrock `toolSpec.inputSchema.json`.
    Converse,
    /// Gemini `functionDeclarations[].parameters` (an OpenAPI 3.0 subset).
    Gemini,
}

/// Which keywords a dialect takes in a schema node.
///
/// ```
/// use toolwire_core::{schema::Dialect, schema::dialect::Keywords};
/// assert_eq!(Dialect::OpenAi.rules().keywords, Keywords::Any);
/// assert!(matches!(Dialect::Gemini.rules().keywords, Keywords::Only(list) if list.contains(&"nullable")));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keywords {
    /// Broad JSON Schema: any keyword.
    Any,
    /// These keywords only; any other fails the request.
    Only(&'static [&'static str]),
}

impl Keywords {
    /// Whether `keyword` may stand in a node.
    ///
    /// ```
    /// use toolwire_core::schema::Dialect;
    /// assert!(!Dialect::Gemini.rules().keywords.allows("$ref"));
    /// assert!(Dialect::Anthropic.rules().keywords.allows("$ref"));
    /// ```
    pub fn allows(self, keyword: &str) -> bool {
        match self {
            Keywords::Any => true,
            Keywords::Only(list) => list.contains(&keyword),
        }
    }
}

/// Which `enum` values a dialect takes.
///
/// ```
/// use toolwire_core::{schema::Dialect, schema::dialect::EnumValues};
/// assert_eq!(Dialect::Gemini.rules().enum_values, EnumValues::Strings);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EnumValues {
    /// Any JSON values.
    Any,
    /// Strings, numbers, booleans and null.
    Primitives,
    /// Strings only.
    Strings,
}

/// Where a dialect takes `$ref`, and so whether a recursive schema can travel to it: a schema
/// that refers to itself cannot be inlined, so it travels only where references may recurse.
///
/// ```
/// use toolwire_core::{schema::Dialect, schema::dialect::RefSupport};
/// assert_eq!(Dialect::OpenAi.rules().refs, RefSupport::LocalAndRecursive);
/// assert_eq!(Dialect::OpenAiStrict.rules().refs, RefSupport::LocalAndRecursive);
/// // The Messages API's strict mode documents refusing recursion; Gemini takes no `$ref`.
/// assert_eq!(Dialect::AnthropicStrict.rules().refs, RefSupport::Local);
/// assert_eq!(Dialect::Gemini.rules().refs, RefSupport::None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefSupport {
    /// No `$ref` at all: every reference must be inlined.
    None,
    /// Local references (`#/$defs/X`), never recursive.
    Local,
    /// Local references, recursion included (`#` or a definition that refers to itself).
    LocalAndRecursive,
}

/// The size limits of a dialect; over one, the provider refuses the whole request.
///
/// ```
/// let limits = toolwire_core::schema::Dialect::OpenAiStrict.rules().limits.unwrap();
/// assert_eq!((limits.properties, limits.nesting, limits.enum_values), (5_000, 10, 1_000));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SizeLimits {
    /// Object properties in the whole schema.
    pub properties: usize,
    /// Levels of nesting (the root object is level 1).
    pub nesting: usize,
    /// Characters of property, definition, enum and const names and values, summed.
    pub name_chars: usize,
    /// Values of all enums, summed.
    pub enum_values: usize,
}

/// Per-request limits of strict tools (Messages API and Converse strict).
///
/// ```
/// let limits = toolwire_core::schema::Dialect::AnthropicStrict.rules().strict_request.unwrap();
/// assert_eq!((limits.tools, limits.optional_parameters, limits.union_parameters), (20, 24, 16));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StrictRequestLimits {
    /// Strict tools in one request.
    pub tools: usize,
    /// Optional parameters, summed over all strict tools.
    pub optional_parameters: usize,
    /// Parameters with `anyOf` or a type array, summed over all strict tools.
    pub union_parameters: usize,
}

/// Everything a dialect accepts, as data. Read by [`crate::schema::check_schema`] and
/// [`crate::schema::prepare_schema`] only.
///
/// ```
/// use toolwire_core::schema::Dialect;
/// let gemini = Dialect::Gemini.rules();
/// assert!(!gemini.type_arrays && gemini.nullable && gemini.upper_case_types);
/// assert!(Dialect::OpenAiStrict.rules().all_required);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DialectRules {
    /// The keywords a node may carry.
    pub keywords: Keywords,
    /// Keywords refused at the root even where the dialect takes them deeper.
    pub root_refused: &'static [&'static str],
    /// Whether `type` may be an array (`["integer", "null"]`).
    pub type_arrays: bool,
    /// Whether type names are written in capitals (`OBJECT`).
    pub upper_case_types: bool,
    /// Whether the dialect has OpenAPI's `nullable`.
    pub nullable: bool,
    /// Which enum values it takes.
    pub enum_values: EnumValues,
    /// The `(type, format)` pairs it takes (`"*"` for any type); `None`: any format.
    pub formats: Option<&'static [(&'static str, &'static str)]>,
    /// Where `$ref` may stand.
    pub refs: RefSupport,
    /// Every object must say `additionalProperties: false`.
    pub closed_objects: bool,
    /// Every property must be in `required` (optional ones take `null` instead).
    pub all_required: bool,
    /// Every array must say `items`, and every node must say what it is (a type).
    pub typed_nodes: bool,
    /// The largest `minItems` it takes, if limited.
    pub max_min_items: Option<u64>,
    /// Only "simple" regular expressions in `pattern`: no lookaround, no backreference.
    pub simple_patterns: bool,
    /// Size limits of one schema.
    pub limits: Option<SizeLimits>,
    /// Per-request limits of strict tools.
    pub strict_request: Option<StrictRequestLimits>,
    /// The fewest characters a tool description may have.
    pub min_description_chars: usize,
}

/// Combinators a root may not carry. OpenAI: "schema must have type 'object' and not have
/// 'oneOf'/'anyOf'/'allOf'/'enum'/'not' at the top level" (function calling guide and the error
/// it returns); Anthropic: no top-level `oneOf`/`allOf`/`anyOf` (define-tools); Bedrock and Gemini
/// take an object root only (`toolSpec.inputSchema.json.type must be one of the following:
/// object`; `Schema` reference), so no root combinator is sent to any provider.
const ROOT_REFUSED: &[&str] = &["oneOf", "anyOf", "allOf", "enum", "not"];

/// Broad JSON Schema: the table each provider's file starts from (`..BROAD`) and changes where
/// its provider says otherwise. Any keyword, type arrays, any enum value and format, local
/// `$ref` (recursion included), no limits; the root combinators of [`ROOT_REFUSED`] are refused
/// everywhere.
pub(crate) const BROAD: DialectRules = DialectRules {
    keywords: Keywords::Any,
    root_refused: ROOT_REFUSED,
    type_arrays: true,
    upper_case_types: false,
    nullable: false,
    enum_values: EnumValues::Any,
    formats: None,
    // JSON Schema's own `$ref` may recurse (`#`, or a definition that refers to itself), and a
    // local one travels as it is. `tool-schema-wire.md` ("Recursion, revised"): the old refusal
    // outside `openai-strict` was that page's caution, not a provider's word; a provider whose
    // references refuse recursion says so in its own table, with its source.
    refs: RefSupport::LocalAndRecursive,
    closed_objects: false,
    all_required: false,
    typed_nodes: false,
    max_min_items: None,
    simple_patterns: false,
    limits: None,
    strict_request: None,
    min_description_chars: 0,
};

impl Dialect {
    /// Every dialect, in a stable order.
    ///
    /// ```
    /// use toolwire_core::schema::Dialect;
    /// let keys = Dialect::ALL.map(Dialect::key);
    /// assert_eq!(keys, ["openai", "openai-strict", "anthropic", "anthropic-strict", "converse", "gemini"]);
    /// ```
    pub const ALL: [Dialect; 6] = [
        Dialect::OpenAi,
        Dialect::OpenAiStrict,
        Dialect::Anthropic,
        Dialect::AnthropicStrict,
        Dialect::Converse,
        Dialect::Gemini,
    ];

    /// The dialect's stable key, as the command and JSON output write it.
    ///
    /// ```
    /// assert_eq!(toolwire_core::schema::Dialect::AnthropicStrict.key(), "anthropic-strict");
    /// ```
    pub const fn key(self) -> &'static str {
        match self {
            Dialect::OpenAi => "openai",
            Dialect::OpenAiStrict => "openai-strict",
            Dialect::Anthropic => "anthropic",
            Dialect::AnthropicStrict => "anthropic-strict",
            Dialect::Converse => "converse",
            Dialect::Gemini => "gemini",
        }
    }

    /// The dialect of `key`, if it is one.
    ///
    /// ```
    /// use toolwire_core::schema::Dialect;
    /// assert_eq!(Dialect::from_key("gemini"), Some(Dialect::Gemini));
    /// assert_eq!(Dialect::from_key("GEMINI"), None);
    /// ```
    pub fn from_key(key: &str) -> Option<Dialect> {
        Dialect::ALL.into_iter().find(|d| d.key() == key)
    }

    /// The provider whose request field this is (for its name rule and its per-request limits).
    ///
    /// ```
    /// use toolwire_core::{schema::Dialect, wire::LlmProvider};
    /// assert_eq!(Dialect::OpenAiStrict.llm_provider(), LlmProvider::OpenAi);
    /// ```
    pub const fn llm_provider(self) -> LlmProvider {
        match self {
            Dialect::OpenAi | Dialect::OpenAiStrict => LlmProvider::OpenAi,
            Dialect::Anthropic | Dialect::AnthropicStrict => LlmProvider::Anthropic,
            Dialect::Converse => LlmProvider::Converse,
            Dialect::Gemini => LlmProvider::Gemini,
        }
    }

    /// Whether the dialect is a strict one (`strict: true` on the wire).
    ///
    /// ```
    /// assert!(!toolwire_core::schema::Dialect::Converse.is_strict());
    /// ```
    pub const fn is_strict(self) -> bool {
        matches!(self, Dialect::OpenAiStrict | Dialect::AnthropicStrict)
    }

    /// What the dialect accepts.
    ///
    /// ```
    /// use toolwire_core::schema::Dialect;
    /// assert_eq!(Dialect::Converse.rules().min_description_chars, 1);
    /// ```
    pub const fn rules(self) -> DialectRules {
        apis::dialect_rules(self)
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_round_trip_and_are_distinct() {
        for dialect in Dialect::ALL {
            assert_eq!(Dialect::from_key(dialect.key()), Some(dialect));
        }
        let mut keys = Dialect::ALL.map(Dialect::key).to_vec();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), Dialect::ALL.len());
    }

    #[test]
    fn recursion_travels_wherever_no_provider_refuses_it() {
        // `tool-schema-wire.md`, "Recursion, revised": the Messages API's strict mode documents
        // refusing recursion, Gemini's `parameters` takes no `$ref`; every other dialect takes a
        // recursive local `$ref`.
        for dialect in Dialect::ALL {
            let expected = match dialect {
                Dialect::AnthropicStrict => RefSupport::Local,
                Dialect::Gemini => RefSupport::None,
                _ => RefSupport::LocalAndRecursive,
            };
            assert_eq!(dialect.rules().refs, expected, "{dialect}");
        }
    }

    #[test]
    fn only_strict_dialects_close_objects() {
        for dialect in Dialect::ALL {
            assert_eq!(
                dialect.rules().closed_objects,
                dialect.is_strict(),
                "{dialect}"
            );
        }
    }
}
