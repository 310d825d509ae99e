//! The table: each public key of the wire to the LLM API that implements it
//! ([`LlmApi`](super::api::LlmApi), one type in each provider's folder). The one file outside
//! the provider folders that names them for dispatch: adding an API is its folder, a line in
//! each map here, and a variant of the public enums it is keyed by.
//!
//! The `const` maps beside [`api`] serve the public `const fn`s ([`LlmProvider::definition_rule`],
//! [`LlmProvider::history_name_limit`], [`Dialect::rules`](crate::schema::Dialect::rules),
//! [`WireFormat::dialect`](crate::WireFormat::dialect)), which a trait object cannot be called
//! from (and the name rules serve builds without the `runtime` feature, which have no APIs);
//! they read the providers' own constants (name rules, dialect tables, history-name limits).
//! An API's name rule and dialect rules are read from these maps too (`LlmApi`'s provided
//! methods), so each fact has one map; a test checks that each API's provider and dialect are
//! the ones the maps give its keys.
//!
//! Dependencies run one way: a provider folder imports the generic modules, and no generic
//! module imports a provider folder, only this table (a test below reads the sources).

use super::name_rules::{LlmProvider, NameRule};
use super::{anthropic, converse, gemini, openai};
#[cfg(feature = "runtime")]
use crate::schema::{dialect::DialectRules, Dialect};
#[cfg(feature = "runtime")]
use crate::wire::{api::LlmApi, calls::CallFormat, WireFormat};

// OpenAI's per-request tool limit, public as `wire::OPENAI_MAX_TOOLS`: re-exported through
// the table, so `wire/mod.rs` names no provider item.
#[cfg(feature = "runtime")]
pub use super::openai::OPENAI_MAX_TOOLS;

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
    use crate::wire::RequestLimit;

    /// The `const` maps and the APIs are one table: every key reaches the API that says the
    /// same, and every API is reached.
    #[test]
    fn the_const_maps_agree_with_the_apis() {
        for format in WireFormat::ALL {
            let api = api(format.call_format());
            let strict = format.is_strict();
            assert_eq!(api.dialect(strict), wire_dialect(format), "{format}");
            assert_eq!(api.provider(), format.llm_provider(), "{format}");
        }
    }

    /// A [`RequestLimit`] is one number: every API that sets it sets the same, and some API
    /// sets each.
    #[test]
    fn each_request_limit_is_one_number() {
        let limits = [
            RequestLimit::OpenAiTools,
            RequestLimit::StrictTools,
            RequestLimit::StrictOptionalParameters,
            RequestLimit::StrictUnionParameters,
            RequestLimit::AnthropicDeferredTools,
        ];
        // Every limit is in the list: a new one fails to compile here until it is added.
        let at = |limit: RequestLimit| match limit {
            RequestLimit::OpenAiTools => 0,
            RequestLimit::StrictTools => 1,
            RequestLimit::StrictOptionalParameters => 2,
            RequestLimit::StrictUnionParameters => 3,
            RequestLimit::AnthropicDeferredTools => 4,
        };
        for limit in limits {
            assert_eq!(limits[at(limit)], limit);
            let set: Vec<usize> = WireFormat::ALL
                .into_iter()
                .filter_map(|f| api(f.call_format()).request_limit(limit, f.is_strict()))
                .collect();
            assert!(!set.is_empty(), "{limit:?}");
            assert!(set.iter().all(|&most| most == limit.most()), "{limit:?}");
        }
    }

    /// The provider folders: the folders under `src/wire/` that hold an LLM API (`api.rs`, or
    /// an `*_api.rs` as `openai/` has two).
    fn provider_folders(wire: &std::path::Path) -> Vec<String> {
        let mut folders: Vec<String> = std::fs::read_dir(wire)
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .filter(|path| path.is_dir())
            .filter(|path| {
                std::fs::read_dir(path).unwrap().any(|file| {
                    let name = file.unwrap().file_name();
                    let name = name.to_string_lossy();
                    name == "api.rs" || name.ends_with("_api.rs")
                })
            })
            .map(|path| path.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        folders.sort();
        folders
    }

    /// No generic module imports a provider folder: outside the folders and this table, no
    /// line of code names `openai::` (or another provider's path), and no `use` brings one in.
    /// A `mod` line declaring a folder (in `wire/mod.rs`) is no import.
    #[test]
    fn no_generic_module_imports_a_provider_folder() {
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let providers = provider_folders(&src.join("wire"));
        // The folders are found (a new one is found alike).
        for known in ["anthropic", "converse", "gemini", "openai"] {
            assert!(providers.iter().any(|p| p == known), "{providers:?}");
        }
        let providers: Vec<&str> = providers.iter().map(String::as_str).collect();
        let mut files = vec![src.clone()];
        let mut checked = 0;
        let mut reaches = Vec::new();
        while let Some(path) = files.pop() {
            if path.is_dir() {
                let is_provider = path.parent() == Some(&src.join("wire"))
                    && providers.iter().any(|p| path.ends_with(p));
                if !is_provider {
                    for entry in std::fs::read_dir(&path).unwrap() {
                        files.push(entry.unwrap().path());
                    }
                }
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") || path == src.join("wire/apis.rs") {
                continue;
            }
            checked += 1;
            let text = std::fs::read_to_string(&path).unwrap();
            // Each `use` statement whole (it may span lines), and every other line.
            let mut statement = String::new();
            for line in text.lines() {
                let code = line.split("//").next().unwrap_or("").trim();
                let starts_use = code.starts_with("use ") || code.contains(" use ");
                if statement.is_empty() && !starts_use {
                    if providers.iter().any(|p| code.contains(&format!("{p}::"))) {
                        reaches.push(format!("{}: {code}", path.display()));
                    }
                    continue;
                }
                statement.push_str(code);
                statement.push(' ');
                if !code.ends_with(';') {
                    continue;
                }
                let words = statement.split(|c: char| !(c.is_alphanumeric() || c == '_'));
                if words.into_iter().any(|w| providers.contains(&w)) {
                    reaches.push(format!("{}: {statement}", path.display()));
                }
                statement.clear();
            }
        }
        assert!(
            checked > 50,
            "only {checked} files read: is the path right?"
        );
        assert!(
            reaches.is_empty(),
            "generic code reaches a provider: {reaches:#?}"
        );
    }
}
