//! What each provider accepts as a tool name, as data.
//!
//! Policy: one checker over data. A rule says which characters may stand first and after, and
//! how long a name may be; each provider's rule, with its source, lives in its own file
//! (`openai/`, `anthropic/`, `converse/`, `gemini/`). [`check_definition_name`] says
//! whether a tool *definition* carrying a name is accepted and, if not, why. Past tool calls in
//! history follow looser rules ([`LlmProvider::history_name_limit`]).

use std::fmt;

use super::apis;

/// An LLM API whose tool-name rule toolwire knows.
///
/// ```
/// use toolwire_core::wire::LlmProvider;
/// assert_eq!(LlmProvider::ALL.len(), 4);
/// assert_eq!(LlmProvider::Gemini.key(), "gemini");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LlmProvider {
    /// OpenAI function calling (Chat Completions and Responses).
    OpenAi,
    /// The Anthropic Messages API.
    Anthropic,
    /// Amazon Bedrock Converse.
    Converse,
    /// Google Gemini (Generative Language and Vertex AI function declarations).
    Gemini,
}

/// The character classes a rule allows.
///
/// ```
/// use toolwire_core::wire::{CharClass, LlmProvider};
/// assert_eq!(LlmProvider::OpenAi.definition_rule().rest, CharClass::FormChars);
/// assert!(CharClass::FormChars.allows('-'));
/// assert!(!CharClass::FormChars.allows('.'));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CharClass {
    /// `[A-Za-z0-9_-]`.
    FormChars,
    /// `[A-Za-z_]`.
    LetterOrUnderscore,
    /// `[A-Za-z0-9_.:-]`.
    FormCharsDotColon,
}

impl CharClass {
    /// Whether `c` is in the class.
    ///
    /// ```
    /// use toolwire_core::wire::CharClass;
    /// assert!(CharClass::FormCharsDotColon.allows('.'));
    /// assert!(!CharClass::LetterOrUnderscore.allows('3'));
    /// ```
    pub const fn allows(self, c: char) -> bool {
        match self {
            CharClass::FormChars => crate::names::is_form_char(c),
            CharClass::LetterOrUnderscore => c.is_ascii_alphabetic() || c == '_',
            CharClass::FormCharsDotColon => crate::names::is_form_char(c) || c == '.' || c == ':',
        }
    }

    /// The class written as a regex character class, for messages.
    ///
    /// ```
    /// assert_eq!(toolwire_core::wire::CharClass::FormChars.pattern(), "[A-Za-z0-9_-]");
    /// ```
    pub const fn pattern(self) -> &'static str {
        match self {
            CharClass::FormChars => "[A-Za-z0-9_-]",
            CharClass::LetterOrUnderscore => "[A-Za-z_]",
            CharClass::FormCharsDotColon => "[A-Za-z0-9_.:-]",
        }
    }
}

/// A provider's rule for the name in a tool definition.
///
/// ```
/// use toolwire_core::wire::LlmProvider;
/// let rule = LlmProvider::Anthropic.definition_rule();
/// assert_eq!(rule.max_chars, 128);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NameRule {
    /// Characters allowed as the first character (`None`: the same as the rest).
    pub first: Option<CharClass>,
    /// Characters allowed everywhere (after the first, when `first` is set).
    pub rest: CharClass,
    /// The most characters a name may have (and at least one is required).
    pub max_chars: usize,
}

impl LlmProvider {
    /// Every provider, in a stable order.
    ///
    /// ```
    /// use toolwire_core::wire::LlmProvider;
    /// let keys = LlmProvider::ALL.map(LlmProvider::key);
    /// assert_eq!(keys, ["openai", "anthropic", "converse", "gemini"]);
    /// ```
    pub const ALL: [LlmProvider; 4] = [
        LlmProvider::OpenAi,
        LlmProvider::Anthropic,
        LlmProvider::Converse,
        LlmProvider::Gemini,
    ];

    /// A short stable key (`openai`, `anthropic`, `converse`, `gemini`) used in JSON output.
    ///
    /// ```
    /// assert_eq!(toolwire_core::wire::LlmProvider::OpenAi.key(), "openai");
    /// ```
    pub const fn key(self) -> &'static str {
        match self {
            LlmProvider::OpenAi => "openai",
            LlmProvider::Anthropic => "anthropic",
            LlmProvider::Converse => "converse",
            LlmProvider::Gemini => "gemini",
        }
    }

    /// The provider's name for people.
    ///
    /// ```
    /// assert_eq!(toolwire_core::wire::LlmProvider::Converse.display_name(), "Bedrock Converse");
    /// ```
    pub const fn display_name(self) -> &'static str {
        match self {
            LlmProvider::OpenAi => "OpenAI",
            LlmProvider::Anthropic => "Anthropic Messages API",
            LlmProvider::Converse => "Bedrock Converse",
            LlmProvider::Gemini => "Gemini",
        }
    }

    /// The rule for a name in a tool definition, as the provider's API reference states it
    /// (each rule, with its source, lives in the provider's file under `core/src/wire/`).
    ///
    /// ```
    /// use toolwire_core::wire::{CharClass, LlmProvider};
    /// assert_eq!(LlmProvider::Gemini.definition_rule().first, Some(CharClass::LetterOrUnderscore));
    /// assert_eq!(LlmProvider::Converse.definition_rule().max_chars, 64);
    /// ```
    pub const fn definition_rule(self) -> NameRule {
        apis::name_rule(self)
    }

    /// How long a name in a *past tool call* (turn history) may be, if the provider says: the
    /// Messages API takes up to 200 characters of any kind there.
    ///
    /// ```
    /// use toolwire_core::wire::LlmProvider;
    /// assert_eq!(LlmProvider::Anthropic.history_name_limit(), Some(200));
    /// assert_eq!(LlmProvider::OpenAi.history_name_limit(), None);
    /// ```
    pub const fn history_name_limit(self) -> Option<usize> {
        apis::history_name_limit(self)
    }
}

impl fmt::Display for LlmProvider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.display_name())
    }
}

/// Why a provider refuses a tool definition's name.
///
/// ```
/// use toolwire_core::wire::{LlmProvider, NameRejection, check_definition_name};
/// let why = check_definition_name(LlmProvider::Gemini, "3d-render").unwrap_err();
/// assert!(matches!(why, NameRejection::BadFirstChar { found: '3', .. }));
/// assert!(why.to_string().contains("Gemini"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NameRejection {
    /// The name is empty.
    Empty {
        /// Who refuses it.
        provider: LlmProvider,
    },
    /// The name has more characters than the provider allows.
    TooLong {
        /// Who refuses it.
        provider: LlmProvider,
        /// The name's length in characters.
        chars: usize,
        /// The provider's limit.
        max: usize,
    },
    /// The first character is not one the provider allows first.
    BadFirstChar {
        /// Who refuses it.
        provider: LlmProvider,
        /// The character found.
        found: char,
        /// The class it must be in.
        allowed: CharClass,
    },
    /// A character is outside the provider's alphabet.
    BadChar {
        /// Who refuses it.
        provider: LlmProvider,
        /// The character found.
        found: char,
        /// Its position, in characters.
        at: usize,
        /// The class it must be in.
        allowed: CharClass,
    },
}

impl fmt::Display for NameRejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NameRejection::Empty { provider } => write!(f, "{provider} refuses an empty tool name"),
            NameRejection::TooLong {
                provider,
                chars,
                max,
            } => write!(
                f,
                "{provider} accepts at most {max} characters in a tool name; this one has {chars}"
            ),
            NameRejection::BadFirstChar {
                provider,
                found,
                allowed,
            } => write!(
                f,
                "{provider} wants a tool name to start with {}, not {found:?}",
                allowed.pattern()
            ),
            NameRejection::BadChar {
                provider,
                found,
                at,
                allowed,
            } => write!(
                f,
                "{provider} accepts only {} in a tool name; {found:?} at character {at} is not",
                allowed.pattern()
            ),
        }
    }
}

impl std::error::Error for NameRejection {}

/// Whether `provider` accepts a tool definition named `name`, and if not, why.
///
/// ```
/// use toolwire_core::wire::{LlmProvider, check_definition_name};
/// assert!(check_definition_name(LlmProvider::OpenAi, "mcp_server_echo").is_ok());
/// assert!(check_definition_name(LlmProvider::OpenAi, "mcp/server/echo").is_err());
/// assert!(check_definition_name(LlmProvider::Anthropic, &"a".repeat(100)).is_ok());
/// assert!(check_definition_name(LlmProvider::Converse, &"a".repeat(100)).is_err());
/// ```
pub fn check_definition_name(provider: LlmProvider, name: &str) -> Result<(), NameRejection> {
    check_name(provider, provider.definition_rule(), name)
}

/// Whether `rule`, `provider`'s rule for a definition's name, accepts `name`, and if not, why:
/// for a caller that asked an API for its rule.
pub(crate) fn check_name(
    provider: LlmProvider,
    rule: NameRule,
    name: &str,
) -> Result<(), NameRejection> {
    let mut chars = 0usize;
    for (at, c) in name.chars().enumerate() {
        let allowed = match (at, rule.first) {
            (0, Some(first)) => first,
            _ => rule.rest,
        };
        if !allowed.allows(c) {
            return Err(if at == 0 && rule.first.is_some() {
                NameRejection::BadFirstChar {
                    provider,
                    found: c,
                    allowed,
                }
            } else {
                NameRejection::BadChar {
                    provider,
                    found: c,
                    at,
                    allowed,
                }
            });
        }
        chars += 1;
    }
    if chars == 0 {
        return Err(NameRejection::Empty { provider });
    }
    if chars > rule.max_chars {
        return Err(NameRejection::TooLong {
            provider,
            chars,
            max: rule.max_chars,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::names::model_safe_name;

    #[test]
    fn every_form_of_a_letter_led_name_passes_every_provider() {
        for name in ["mcp/server/echo", "search.web", "a-b", &"z".repeat(90)] {
            let form = model_safe_name(name);
            for provider in LlmProvider::ALL {
                assert_eq!(
                    check_definition_name(provider, &form),
                    Ok(()),
                    "{provider} {form}"
                );
            }
        }
    }

    #[test]
    fn gemini_refuses_a_digit_or_dash_first() {
        for name in ["3d-render", "-x"] {
            assert!(matches!(
                check_definition_name(LlmProvider::Gemini, name),
                Err(NameRejection::BadFirstChar { .. })
            ));
            assert!(check_definition_name(LlmProvider::OpenAi, name).is_ok());
        }
        assert!(check_definition_name(LlmProvider::Gemini, "_x.y:z").is_ok());
    }

    #[test]
    fn lengths_are_counted_in_characters() {
        let n65 = "a".repeat(65);
        assert!(matches!(
            check_definition_name(LlmProvider::OpenAi, &n65),
            Err(NameRejection::TooLong {
                chars: 65,
                max: 64,
                ..
            })
        ));
        assert!(check_definition_name(LlmProvider::Anthropic, &n65).is_ok());
        assert!(check_definition_name(LlmProvider::Anthropic, &"a".repeat(129)).is_err());
        assert!(matches!(
            check_definition_name(LlmProvider::Converse, ""),
            Err(NameRejection::Empty { .. })
        ));
        assert!(matches!(
            check_definition_name(LlmProvider::OpenAi, "a/b"),
            Err(NameRejection::BadChar {
                found: '/',
                at: 1,
                ..
            })
        ));
    }
}
