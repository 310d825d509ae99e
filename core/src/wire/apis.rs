//! The table: each public key of the wire to the LLM API that implements it
//! ([`LlmApi`](super::api::LlmApi), one type in each provider's folder). The one file outside
//! the provider folders that names them for dispatch: adding an API is its folder, a line in
//! each map here, and a variant of the public enums it is keyed by.
//!
//! The `const` maps beside [`api`] serve the public `const fn`s ([`LlmProvider::definition_rule`],
//! [`Dialect::rules`](crate::schema::Dialect::rules),
//! [`WireFormat::dialect`](crate::WireFormat::dialect)), which a trait object cannot be called
//! from; they read the providers' own constants (name rules, dialect tables, history-name
//! limits), and a test checks that each API's dialect and provider agree with these maps.

use super::name_rules::{LlmProvider, NameRule};
use super::{anthropic, converse, gemini, openai};
#[cfg(feature = "runtime")]
use crate::schema::{dialect::DialectRules, Dialect};
#[cfg(feature = "runtime")]
use crate::wire::{api::LlmApi, calls::CallFormat, WireFormat};

/// The API of a response format.
#[cfg(feature = "runtime")]
pub(crate) fn api(format: CallFormat) -> &'static dyn LlmApi {
    match format {
        CallFormat::OpenAiChat => &openai::chat_api::ChatCompletions,
        CallFormat::OpenAiResponses => &openai::responses_api::Responses,
        CallFormat::Anthropic => &anthropic::api::AnthropicMessages,
        CallFormat::Converse => &converse::api::Converse,
        CallFormat::Gemini => &gemini::api::Gemini,
    }
}

/// A provider's rule for a tool definition's name.
pub(crate) const fn name_rule(provider: LlmProvider) -> NameRule {
    match provider {
        LlmProvider::OpenAi => openai::NAME_RULE,
        LlmProvider::Anthropic => anthropic::NAME_RULE,
        LlmProvider::Converse => converse::NAME_RULE,
        LlmProvider::Gemini => gemini::NAME_RULE,
    }
}

/// How long a name in a past tool call may be, where the provider says.
pub(crate) const fn history_name_limit(provider: LlmProvider) -> Option<usize> {
    match provider {
        LlmProvider::Anthropic => Some(anthropic::HISTORY_NAME_MAX_CHARS),
        _ => None,
    }
}

/// What a dialect accepts.
#[cfg(feature = "runtime")]
pub(crate) const fn dialect_rules(dialect: Dialect) -> DialectRules {
    match dialect {
        Dialect::OpenAi => openai::DIALECT,
        Dialect::OpenAiStrict => openai::STRICT_DIALECT,
        Dialect::Anthropic => anthropic::DIALECT,
        Dialect::AnthropicStrict => anthropic::STRICT_DIALECT,
        Dialect::Converse => converse::DIALECT,
        Dialect::Gemini => gemini::DIALECT,
    }
}

/// The dialect of a tool-list shape's parameters.
#[cfg(feature = "runtime")]
pub(crate) const fn wire_dialect(format: WireFormat) -> Dialect {
    match format {
        WireFormat::OpenAi | WireFormat::OpenAiResponses => Dialect::OpenAi,
        WireFormat::OpenAiStrict | WireFormat::OpenAiResponsesStrict => Dialect::OpenAiStrict,
        WireFormat::Anthropic => Dialect::Anthropic,
        WireFormat::AnthropicStrict => Dialect::AnthropicStrict,
        WireFormat::ConverseStrict => converse::STRICT_DIALECT,
        WireFormat::Converse => Dialect::Converse,
        WireFormat::Gemini => Dialect::Gemini,
    }
}

#[cfg(all(test, feature = "runtime"))]
mod tests {
    use super::*;

    /// The `const` maps and the APIs are one table: every key reaches the API that says the
    /// same, and every API is reached.
    #[test]
    fn the_const_maps_agree_with_the_apis() {
        for format in WireFormat::ALL {
            let api = api(format.call_format());
            assert_eq!(
                api.dialect(format.is_strict()),
                wire_dialect(format),
                "{format}"
            );
            assert_eq!(api.provider(), format.llm_provider(), "{format}");
        }
    }
}
