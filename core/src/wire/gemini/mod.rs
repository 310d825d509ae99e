//! Google Gemini (Generative Language API and Vertex AI), as toolwire knows it: its name rule,
//! its `gemini` schema dialect (an OpenAPI 3.0 subset) and the shape of its tool list, one
//! `functionDeclarations` object. Its return leg sits beside this file: the `functionCall`
//! parts of a body (`calls.rs`) and of the stream's chunks (`stream.rs`); the
//! `functionResponse` parts sent back join them.
//!
//! Policy: facts only, each citing its source (a rule that is our own caution says so).
//!
//! Sources, read 2026-11: Google's `FunctionDeclaration` and `Schema` references (Gemini API
//! v1beta and Vertex AI v1), and the refusals quoted in `tool-schema-wire.md` ("Real
//! refusals").

// The return leg: the calls of a body (`calls.rs`) and of a stream, with the turn it builds
// (`stream.rs`).
#[cfg(feature = "runtime")]
pub(crate) mod answers;
#[cfg(feature = "runtime")]
pub(crate) mod api;
#[cfg(feature = "runtime")]
pub(crate) mod calls;
#[cfg(feature = "runtime")]
pub(crate) mod stream;
// The replay: the assistant turn as history carries it.
#[cfg(feature = "runtime")]
pub(crate) mod replay;

#[cfg(feature = "runtime")]
use serde_json::{json, Value};

use super::name_rules::{CharClass, NameRule};
#[cfg(feature = "runtime")]
use crate::schema::dialect::{DialectRules, EnumValues, Keywords, RefSupport, BROAD};
#[cfg(feature = "runtime")]
use crate::tools::ToolDefinition;

// Names.

/// `FunctionDeclaration.name` "must start with a letter or an underscore. Must be a-z, A-Z,
/// 0-9, or contain underscores, dots and dashes, with a maximum length of 64" (Vertex AI v1
/// reference; the Generative Language API also allows colons).
pub(crate) const NAME_RULE: NameRule = NameRule {
    first: Some(CharClass::LetterOrUnderscore),
    rest: CharClass::FormCharsDotColon,
    max_chars: 64,
};

// Schemas.

/// Gemini `Schema` fields (Google `Schema` reference, Gemini API v1beta): the OpenAPI 3.0 subset.
/// Confirmed 2026-12 field by field against the Gemini API's own `Schema` as Google's client
/// reference lists it (`protos.google.ai.generativelanguage.v1beta.ISchema`,
/// `@google-ai/generativelanguage` 3.7): these 22 fields, no more. Refused there: `$schema`,
/// `$ref`, `$defs`, `additionalProperties`, `propertyNames`, `const`, `exclusiveMinimum`/`Maximum`,
/// `oneOf`, `allOf`, `not`, `if`/`then`/`else` (`Unknown name …: Cannot find field`, reported in
/// public issues), and the SDK `Schema`'s `ref`/`defs` (see below).
#[cfg(feature = "runtime")]
const KEYWORDS: &[&str] = &[
    "type",
    "format",
    "title",
    "description",
    "nullable",
    "enum",
    "items",
    "minItems",
    "maxItems",
    "properties",
    "required",
    "minProperties",
    "maxProperties",
    "minLength",
    "maxLength",
    "pattern",
    "minimum",
    "maximum",
    "anyOf",
    "propertyOrdering",
    "example",
    "default",
];

/// Gemini formats (`Schema.format`): "for NUMBER type: float, double; for INTEGER type: int32,
/// int64; for STRING type: enum, date-time".
#[cfg(feature = "runtime")]
const FORMATS: &[(&str, &str)] = &[
    ("number", "float"),
    ("number", "double"),
    ("integer", "int32"),
    ("integer", "int64"),
    ("string", "enum"),
    ("string", "date-time"),
];

// What the official SDK's `Schema` now carries and the Gemini API (not Vertex) does not take, as
// read 2026-12 (`tool-schema-wire.md`, "Revised 2026-12", asks each to be confirmed before a
// rewrite relies on it). None is confirmed, so the table below keeps refusing all three (a unit
// test pins it):
//
// - `ref` / `defs` (references without `$`): google-genai 3.6's `Schema` has them, but that type
//   serves Vertex too. The Gemini API's own `Schema` (`google.ai.generativelanguage.v1beta`, as
//   Google's client reference lists it: `protos.google.ai.generativelanguage.v1beta.ISchema`,
//   `@google-ai/generativelanguage` 3.7) has no `ref` or `defs`, while Vertex's
//   (`google.cloud.aiplatform.v1beta1.ISchema`, `@google-cloud/aiplatform` 6.2) has both; and
//   the Gemini API publicly refuses `ref` in `parameters`: `Invalid JSON payload received.
//   Unknown name "ref" at 'tools[0].function_declarations[4].parameters.properties[0].value.
//   items': Cannot find field.` (decolua/9router#1036, Kilo-Org/kilocode#10923). So recursion
//   stays refused for `gemini`.
// - `additionalProperties`: the same Gemini API `Schema` has none, and the SDK itself refuses
//   it there in the schemas it converts (`google/genai/_transformers.py`, `process_schema` →
//   `_raise_for_unsupported_mldev_properties`, for any value but `false`): `additionalProperties
//   is only supported in Gemini Enterprise Agent Platform mode, [...] not in Gemini Developer API
//   mode`. So it is still dropped, and the loss recorded.
// - `parametersJsonSchema`'s `additionalProperties` and `propertyOrdering`: its reference
//   (`FunctionDeclaration.parametersJsonSchema`) shows them in one example and lists no
//   keywords; the keyword list Google does publish (`GenerationConfig.responseJsonSchema`: `$id`,
//   `$defs`, `$ref`, `$anchor`, `type`, `format`, `title`, `description`, `enum`, `items`,
//   `prefixItems`, `minItems`, `maxItems`, `minimum`, `maximum`, `anyOf`, `oneOf`, `properties`,
//   `additionalProperties`, `required`, `propertyOrdering`; cyclic references "unrolled to a
//   limited degree") is another field's. So `parametersJsonSchema` is not offered as a dialect.

/// The `gemini` dialect: `functionDeclarations[].parameters`, a `Schema` object.
#[cfg(feature = "runtime")]
pub(crate) const DIALECT: DialectRules = DialectRules {
    keywords: Keywords::Only(KEYWORDS),
    // `type` is one `Type` value: "Proto field is not repeating, cannot start list".
    type_arrays: false,
    // `Type`: STRING, NUMBER, INTEGER, BOOLEAN, ARRAY, OBJECT, NULL.
    upper_case_types: true,
    nullable: true,
    // `enum`: "Possible values of the element of Type.STRING with enum format".
    enum_values: EnumValues::Strings,
    formats: Some(FORMATS),
    // `$ref` is refused in `parameters` (`reference to undefined schema`), so a recursive
    // schema, which cannot be inlined, has nothing to travel by. The `ref`/`defs` the SDK's
    // `Schema` now has are not the Gemini API's (see above).
    refs: RefSupport::None,
    ..BROAD
};

// The request.

/// One declaration in `functionDeclarations`: `{name, description, parameters}`
/// (`FunctionDeclaration`). Gemini has no strict shape.
#[cfg(feature = "runtime")]
pub(crate) fn declaration(form: &str, def: &ToolDefinition, schema: &Value) -> Value {
    json!({"name": form, "description": def.description, "parameters": schema})
}

/// The value of `tools`: one `Tool` holding every declaration
/// (`{"functionDeclarations":[…]}`, `Tool` reference), or an empty list when nothing is
/// offered (our own choice: a request without tools carries no empty `Tool`).
#[cfg(feature = "runtime")]
pub(crate) fn tool_list(declarations: Vec<Value>) -> Value {
    if declarations.is_empty() {
        json!([])
    } else {
        json!([{ "functionDeclarations": declarations }])
    }
}

#[cfg(all(test, feature = "runtime"))]
mod tests {
    use super::*;

    #[test]
    fn what_only_vertex_takes_stays_refused() {
        // The SDK's `Schema` has these, the Gemini API's does not (see the note above `DIALECT`):
        // a rewrite that kept one would fail the whole request there.
        for keyword in ["ref", "defs", "$ref", "$defs", "additionalProperties"] {
            assert!(!DIALECT.keywords.allows(keyword), "{keyword}");
        }
        assert_eq!(DIALECT.refs, RefSupport::None);
    }
}
