//! An MCP `CallToolResult` to a [`ToolOutput`] and back, without loss.
//!
//! Policy: both types are MCP's JSON (`ToolContent`'s serde form is the schema's
//! `CallToolResult`): every block keeps its kind, MIME type, data, annotations and `_meta`;
//! `structuredContent` and `isError` stay distinct from the blocks. Before, a result was
//! flattened to one JSON value (an image became base64 JSON).
//!
//! A gateway passes every result through both ways (issue 25, section 6: a call through
//! `toolwire serve` should cost little more than a byte relay), so the common result, text,
//! image and audio blocks with at most `_meta`, is converted directly, its strings moved, not
//! copied; everything else (a resource block, annotations, a member of the spec this crate does
//! not name) goes through the JSON round trip, which keeps it exactly as before.

use rmcp::model::{
    AudioContent, CallToolResult, ContentBlock as McpBlock, ImageContent, MetaObject, ResultType,
    TextContent,
};
use serde_json::{Map, Value};

use crate::tools::{json_text, ContentBlock, MediaBlock, TextBlock, ToolContent, ToolOutput};

/// The `_meta` member, as rmcp's types and ours name it (the MCP schema's `_meta`).
const META: &str = "_meta";
/// The `resultType` member of a 2026-07-28 result (rmcp's `CallToolResult::result_type`).
const RESULT_TYPE: &str = "resultType";

/// What an MCP server's tool returned, as a [`ToolOutput::Content`].
///
/// ```
/// use rmcp::model::{CallToolResult, ContentBlock as McpBlock};
/// use toolwire_core::{mcp::tool_output, tools::{ContentBlock, ToolOutput}};
/// let result = CallToolResult::success(vec![McpBlock::text("Radar:"), McpBlock::image("iVBORw0KGgo=", "image/png")]);
/// let ToolOutput::Content(content) = tool_output(&result) else { unreachable!() };
/// assert_eq!(content.content[1], ContentBlock::image("iVBORw0KGgo=", "image/png"));
/// ```
pub fn tool_output(result: &CallToolResult) -> ToolOutput {
    into_tool_output(result.clone())
}

/// [`tool_output`] of a result the caller owns: its strings are moved, not copied.
pub(crate) fn into_tool_output(result: CallToolResult) -> ToolOutput {
    let mut extra = Map::new();
    if let Some(result_type) = result.result_type {
        let _ = extra.insert(
            RESULT_TYPE.to_owned(),
            Value::String(result_type.as_str().to_owned()),
        );
    }
    meta_into(&mut extra, result.meta);
    ToolOutput::Content(ToolContent {
        content: result.content.into_iter().map(block_from).collect(),
        // `ToolContent` reads `"structuredContent": null` as none (serde's `Option`), as the
        // round trip always did.
        structured: result.structured_content.filter(|v| !v.is_null()),
        is_error: result.is_error == Some(true),
        extra,
    })
}

/// A block of rmcp's as ours: text, image and audio directly (their annotations, when there
/// are some, as their JSON in `extra`, as the round trip puts them), any other through JSON.
fn block_from(mcp: McpBlock) -> ContentBlock {
    match mcp {
        McpBlock::Text(text) => {
            let mut block = TextBlock::new(text.text);
            extra_from(&mut block.extra, text.meta, text.annotations.as_ref());
            ContentBlock::Text(block)
        }
        McpBlock::Image(image) => {
            let mut block = MediaBlock::new(image.data, image.mime_type);
            extra_from(&mut block.extra, image.meta, image.annotations.as_ref());
            ContentBlock::Image(block)
        }
        McpBlock::Audio(audio) => {
            let mut block = MediaBlock::new(audio.data, audio.mime_type);
            extra_from(&mut block.extra, audio.meta, audio.annotations.as_ref());
            ContentBlock::Audio(block)
        }
        other => block(&other),
    }
}

fn meta_into(extra: &mut Map<String, Value>, meta: Option<MetaObject>) {
    if let Some(MetaObject(meta)) = meta {
        let _ = extra.insert(META.to_owned(), Value::Object(meta));
    }
}

fn extra_from(
    extra: &mut Map<String, Value>,
    meta: Option<MetaObject>,
    annotations: Option<&rmcp::model::Annotations>,
) {
    meta_into(extra, meta);
    if let Some(annotations) = annotations.and_then(|a| serde_json::to_value(a).ok()) {
        let _ = extra.insert("annotations".to_owned(), annotations);
    }
}

/// The JSON round trip of a whole result: what every result took before, kept for a result
/// [`into_tool_output`] replaced; the reference its tests hold it to.
#[cfg(test)]
fn tool_output_through_json(result: &CallToolResult) -> ToolOutput {
    let converted = serde_json::to_value(result).and_then(serde_json::from_value::<ToolContent>);
    match converted {
        Ok(content) => ToolOutput::Content(content),
        // Both sides are MCP's schema; should a later rmcp add a block kind this crate does
        // not know, keep each block that converts and say what the others were.
        Err(_) => ToolOutput::Content(ToolContent {
            content: result.content.iter().map(block).collect(),
            structured: result.structured_content.clone(),
            is_error: result.is_error == Some(true),
            ..ToolContent::default()
        }),
    }
}

fn block(mcp: &McpBlock) -> ContentBlock {
    serde_json::to_value(mcp)
        .and_then(serde_json::from_value)
        .unwrap_or_else(|_| {
            let kind = serde_json::to_value(mcp)
                .ok()
                .and_then(|v| v.get("type").and_then(Value::as_str).map(str::to_owned))
                .unwrap_or_else(|| "unknown".to_owned());
            ContentBlock::text(format!(
                "[a content block of MCP type `{kind}` toolwire cannot read]"
            ))
        })
}

/// A [`ToolOutput`] as an MCP `CallToolResult`: content blocks and their structured result as
/// they are; a JSON value as one text block of its JSON (a string as itself) and, for an
/// object, also as `structuredContent` (the MCP spec: "a tool that returns structured content
/// SHOULD also return the serialized JSON in a TextContent block"; `structuredContent` is an
/// object in the schema).
///
/// ```
/// use serde_json::json;
/// use toolwire_core::{mcp::{call_tool_result, tool_output}, tools::ToolOutput};
/// let result = call_tool_result(&ToolOutput::from(json!({"temperature": 18})));
/// assert_eq!(result.structured_content, Some(json!({"temperature": 18})));
/// assert_eq!(result.content[0].as_text().unwrap().text, r#"{"temperature":18}"#);
/// // And back: the blocks and the structured result, distinct.
/// let ToolOutput::Content(back) = tool_output(&result) else { unreachable!() };
/// assert_eq!(back.structured, Some(json!({"temperature": 18})));
/// ```
pub fn call_tool_result(output: &ToolOutput) -> CallToolResult {
    match output {
        ToolOutput::Content(content) if is_direct(content) => direct(content.clone()),
        ToolOutput::Content(content) => through_json(content),
        ToolOutput::Json(value) => json_result(value),
    }
}

/// [`call_tool_result`] of an output the caller owns: the common result's strings are moved,
/// not copied (what a gateway serves on).
pub(crate) fn into_call_tool_result(output: ToolOutput) -> CallToolResult {
    match output {
        ToolOutput::Content(content) if is_direct(&content) => direct(content),
        ToolOutput::Content(content) => through_json(&content),
        ToolOutput::Json(value) => json_result(&value),
    }
}

fn json_result(value: &Value) -> CallToolResult {
    let text = McpBlock::text(json_text(value));
    let mut result = CallToolResult::success(vec![text]);
    if value.is_object() {
        result.structured_content = Some(value.clone());
    }
    result
}

/// Whether [`direct`] converts `content` exactly as the JSON round trip does: text, image and
/// audio blocks with nothing in `extra` but an object `_meta`, and a result with nothing in
/// `extra` but an object `_meta` and `resultType: "complete"` (rmcp's `CallToolResult` reads
/// no other result type, and ignores any other member).
fn is_direct(content: &ToolContent) -> bool {
    let blocks_plain = content.content.iter().all(|block| {
        let extra = match block {
            ContentBlock::Text(text) => &text.extra,
            ContentBlock::Image(media) | ContentBlock::Audio(media) => &media.extra,
            _ => return false,
        };
        extra
            .iter()
            .all(|(key, value)| key == META && value.is_object())
    });
    blocks_plain
        && content.extra.iter().all(|(key, value)| match key.as_str() {
            META => value.is_object(),
            RESULT_TYPE => value.as_str() == Some(ResultType::COMPLETE.as_str()),
            // rmcp's `CallToolResult` (its own `Deserialize`) ignores members it does not name.
            _ => true,
        })
}

/// A result [`is_direct`] takes, converted without JSON.
fn direct(content: ToolContent) -> CallToolResult {
    let mut extra = content.extra;
    let mut result = if content.is_error {
        CallToolResult::error(content.content.into_iter().map(block_into).collect())
    } else {
        CallToolResult::success(content.content.into_iter().map(block_into).collect())
    };
    // As rmcp reads the JSON: `isError` and `resultType` when present, else absent.
    if !content.is_error {
        result.is_error = None;
    }
    result.result_type = extra.remove(RESULT_TYPE).map(|_| ResultType::COMPLETE);
    result.meta = meta_of(&mut extra);
    result.structured_content = content.structured;
    result
}

fn meta_of(extra: &mut Map<String, Value>) -> Option<MetaObject> {
    match extra.remove(META) {
        Some(Value::Object(meta)) => Some(MetaObject(meta)),
        _ => None,
    }
}

/// A block [`is_direct`] takes as rmcp's.
fn block_into(block: ContentBlock) -> McpBlock {
    match block {
        ContentBlock::Text(mut text) => {
            let mut mcp = TextContent::new(text.text);
            mcp.meta = meta_of(&mut text.extra);
            McpBlock::Text(mcp)
        }
        ContentBlock::Image(mut media) => {
            let mut mcp = ImageContent::new(media.data, media.mime_type);
            mcp.meta = meta_of(&mut media.extra);
            McpBlock::Image(mcp)
        }
        ContentBlock::Audio(mut media) => {
            let mut mcp = AudioContent::new(media.data, media.mime_type);
            mcp.meta = meta_of(&mut media.extra);
            McpBlock::Audio(mcp)
        }
        other => unreachable!(
            "is_direct takes only text, image and audio, not {}",
            other.kind()
        ),
    }
}

/// The JSON round trip of a result [`is_direct`] does not take.
fn through_json(content: &ToolContent) -> CallToolResult {
    let converted = serde_json::to_value(content).and_then(serde_json::from_value);
    converted.unwrap_or_else(|_| {
        let blocks = content
            .content
            .iter()
            .filter_map(|b| serde_json::to_value(b).ok())
            .filter_map(|b| serde_json::from_value(b).ok())
            .collect();
        let mut result = if content.is_error {
            CallToolResult::error(blocks)
        } else {
            CallToolResult::success(blocks)
        };
        result.structured_content = content.structured.clone();
        result
    })
}

#[cfg(test)]
mod tests {
    use rmcp::model::{Annotations, Resource, ResourceContents, Role};
    use serde_json::json;

    use super::*;

    /// Results of every kind the direct conversion meets or hands on to JSON.
    fn results() -> Vec<CallToolResult> {
        let meta = MetaObject(json!({"trace": "t-1"}).as_object().unwrap().clone());
        let mut annotated = TextContent::new("annotated");
        annotated.annotations = Some(Annotations::for_resource(0.5, Default::default()));
        annotated.annotations.as_mut().unwrap().audience = Some(vec![Role::User]);
        let mut text_with_meta = TextContent::new("with meta");
        text_with_meta.meta = Some(meta.clone());
        let mut image = ImageContent::new("iVBORw0KGgo=", "image/png");
        image.meta = Some(meta.clone());
        let mut full = CallToolResult::success(vec![
            McpBlock::Text(text_with_meta),
            McpBlock::Image(image),
            McpBlock::audio("UklGRg==", "audio/wav"),
        ]);
        full.meta = Some(meta);
        full.structured_content = Some(json!({"c": 18}));
        let mut legacy = CallToolResult::success(vec![McpBlock::text("no result type")]);
        legacy.result_type = None;
        legacy.is_error = None;
        let mut null_structured = CallToolResult::success(Vec::new());
        null_structured.structured_content = Some(Value::Null);
        vec![
            CallToolResult::success(vec![McpBlock::text(r#"{"tool":"echo"}"#)]),
            CallToolResult::error(vec![McpBlock::text("no such city")]),
            full,
            legacy,
            null_structured,
            CallToolResult::success(vec![
                McpBlock::Text(annotated),
                McpBlock::ResourceLink(Resource::new("file:///a", "a")),
                McpBlock::resource(ResourceContents::text("body", "file:///b")),
            ]),
        ]
    }

    #[test]
    fn a_result_converts_directly_as_the_json_round_trip_does() {
        for result in results() {
            let direct = into_tool_output(result.clone());
            assert_eq!(direct, tool_output_through_json(&result), "{result:?}");
        }
    }

    #[test]
    fn an_output_is_served_directly_as_the_json_round_trip_does() {
        for result in results() {
            let ToolOutput::Content(content) = into_tool_output(result.clone()) else {
                unreachable!()
            };
            let served = into_call_tool_result(ToolOutput::Content(content.clone()));
            assert_eq!(served, through_json(&content), "{content:?}");
            assert_eq!(call_tool_result(&ToolOutput::Content(content)), served);
        }
    }

    #[test]
    fn the_common_result_takes_the_direct_way_and_the_rest_json() {
        let taken: Vec<bool> = results()
            .into_iter()
            .map(|result| match into_tool_output(result) {
                ToolOutput::Content(content) => is_direct(&content),
                ToolOutput::Json(_) => unreachable!(),
            })
            .collect();
        assert_eq!(taken, [true, true, true, true, true, false]);
    }
}
