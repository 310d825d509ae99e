//! The five response formats a called tool comes back in. Its own key, beside
//! [`WireFormat`](crate::WireFormat) (the tool-list shapes): a response has no strict variant,
//! and the Responses API answers in a shape of its own.

use std::fmt;

use crate::wire::apis::api;

/// The shape of a provider's response, which fixes where its tool calls sit and how its stream
/// carries them.
///
/// A `match` on it needs a `_` arm: a new format may come.
///
/// ```
/// use toolwire_core::wire::calls::CallFormat;
/// assert_eq!(CallFormat::ALL.len(), 5);
/// assert_eq!(CallFormat::from_key("openai-responses"), Some(CallFormat::OpenAiResponses));
/// assert_eq!(CallFormat::Gemini.to_string(), "gemini");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum CallFormat {
    /// OpenAI Chat Completions (and the OpenAI-compatible servers that copy it):
    /// `choices[0].message.tool_calls`.
    OpenAiChat,
    /// The OpenAI Responses API: `function_call` items of `output`.
    OpenAiResponses,
    /// The Anthropic Messages API: `tool_use` blocks of `content`.
    Anthropic,
    /// Amazon Bedrock Converse: `toolUse` blocks of `output.message.content`.
    Converse,
    /// Google Gemini `generateContent`: `functionCall` parts of `candidates[0].content`.
    Gemini,
}

impl CallFormat {
    /// Every format, in the order of [`key`](Self::key)'s list.
    ///
    /// ```
    /// use toolwire_core::wire::calls::CallFormat;
    /// let keys: Vec<&str> = CallFormat::ALL.iter().map(|f| f.key()).collect();
    /// assert_eq!(keys, ["openai", "openai-responses", "anthropic", "converse", "gemini"]);
    /// ```
    pub const ALL: [CallFormat; 5] = [
        CallFormat::OpenAiChat,
        CallFormat::OpenAiResponses,
        CallFormat::Anthropic,
        CallFormat::Converse,
        CallFormat::Gemini,
    ];

    /// The stable key: `openai` (Chat Completions, as [`WireFormat::OpenAi`](crate::WireFormat)),
    /// `openai-responses`, `anthropic`, `converse`, `gemini`.
    ///
    /// ```
    /// assert_eq!(toolwire_core::wire::calls::CallFormat::OpenAiChat.key(), "openai");
    /// ```
    pub const fn key(self) -> &'static str {
        match self {
            CallFormat::OpenAiChat => "openai",
            CallFormat::OpenAiResponses => "openai-responses",
            CallFormat::Anthropic => "anthropic",
            CallFormat::Converse => "converse",
            CallFormat::Gemini => "gemini",
        }
    }

    /// The format of `key`, if it is one.
    ///
    /// ```
    /// use toolwire_core::wire::calls::CallFormat;
    /// assert_eq!(CallFormat::from_key("converse"), Some(CallFormat::Converse));
    /// assert_eq!(CallFormat::from_key("openai-chat"), None);
    /// ```
    pub fn from_key(key: &str) -> Option<CallFormat> {
        CallFormat::ALL.into_iter().find(|f| f.key() == key)
    }

    /// The API's own name, for messages: `OpenAI Chat Completions`, `OpenAI Responses`,
    /// `Anthropic Messages`, `Bedrock Converse`, `Gemini generateContent`.
    ///
    /// ```
    /// use toolwire_core::wire::calls::CallFormat;
    /// assert_eq!(CallFormat::Converse.api_name(), "Bedrock Converse");
    /// ```
    pub const fn api_name(self) -> &'static str {
        match self {
            CallFormat::OpenAiChat => "OpenAI Chat Completions",
            CallFormat::OpenAiResponses => "OpenAI Responses",
            CallFormat::Anthropic => "Anthropic Messages",
            CallFormat::Converse => "Bedrock Converse",
            CallFormat::Gemini => "Gemini generateContent",
        }
    }

    /// The user's first message of a conversation, `text` alone, as the format's request
    /// carries it in its history:
    ///
    /// - Chat Completions: `{"role": "user", "content": text}` (openai-python
    ///   `ChatCompletionUserMessageParam`: `content` is a string or parts);
    /// - Responses: `{"role": "user", "content": text}`, an item of `input` (openai-python
    ///   `EasyInputMessageParam`);
    /// - Messages API: `{"role": "user", "content": text}` (anthropic-sdk-python
    ///   `MessageParam`: `content` is a string or blocks);
    /// - Converse: `{"role": "user", "content": [{"text": text}]}` (Bedrock API reference,
    ///   `Message`, botocore: `content` is an array of `ContentBlock`, never a string);
    /// - Gemini: `{"role": "user", "parts": [{"text": text}]}` (google-genai `types.Content`:
    ///   `parts`, no `content`).
    ///
    /// ```
    /// use serde_json::json;
    /// use toolwire_core::wire::calls::CallFormat;
    /// assert_eq!(CallFormat::Anthropic.user_message("Hi?"), json!({"role": "user", "content": "Hi?"}));
    /// assert_eq!(CallFormat::Converse.user_message("Hi?"), json!({"role": "user", "content": [{"text": "Hi?"}]}));
    /// assert_eq!(CallFormat::Gemini.user_message("Hi?"), json!({"role": "user", "parts": [{"text": "Hi?"}]}));
    /// ```
    pub fn user_message(self, text: &str) -> serde_json::Value {
        api(self).user_message(text)
    }

    /// [`api_name`](Self::api_name) after its article, for messages: `an OpenAI Responses`,
    /// `a Bedrock Converse`.
    pub(crate) const fn api_name_with_article(self) -> &'static str {
        match self {
            CallFormat::OpenAiChat => "an OpenAI Chat Completions",
            CallFormat::OpenAiResponses => "an OpenAI Responses",
            CallFormat::Anthropic => "an Anthropic Messages",
            CallFormat::Converse => "a Bedrock Converse",
            CallFormat::Gemini => "a Gemini generateContent",
        }
    }
}

impl fmt::Display for CallFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}
