//! The oracle of the answers the fixtures' calls do not reach: each kind of tool output, one
//! answer per case, in every format, as values and as raw text, with their notes. One file per
//! format under `oracle/answers/`.
//!
//! The cases: images of every common type (PNG aside, which the fixtures carry: JPEG, GIF,
//! WebP, and SVG and BMP, which no provider takes as an image), an image over the media limit,
//! audio, embedded resources (a PDF, a text document, an image), a resource link, a structured
//! result, an error result, outputs that carry nothing (no block, an empty text, only
//! whitespace: Converse's placeholders), JSON outputs that are no object (array, string, empty
//! string, numbers, null, booleans) and JSON Schemas with `$defs`/`$ref` (which Gemini must not
//! carry as keys of `functionResponse.response`).

use serde_json::{json, Map, Value};
use toolwire_core::runtime::{CallOutcome, Route, ToolAnswer};
use toolwire_core::tools::{
    ContentBlock, EmbeddedResource, ResourceContents, ResourceLink, ToolContent, ToolOutput,
};
use toolwire_core::wire::answers::{write_answers_with, write_raw_answers, AnswerLimits};
use toolwire_core::wire::calls::{CallFormat, ToolCall};

use super::{compare_folder, section};

const JPEG: &str = "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAP//2Q==";
const GIF: &str = "R0lGODlhAQABAIAAAP///wAAACwAAAAAAQABAAACAkQBADs=";
const WEBP: &str = "UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==";
/// `<svg xmlns="http://www.w3.org/2000/svg"/>`.
const SVG: &str = "PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4=";
const BMP: &str = "Qk0eAAAAAAAAABoAAAAMAAAAAQABAAEAGAAAAP8A";
const PDF: &str = "JVBERi0xLjQKJcOkw7zDtsOfCjEgMCBvYmoKPDw+PgplbmRvYmoKJSVFT0YK";
const WAV: &str = "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=";

/// A JSON Schema, as `tool_schema` or an MCP tool describing an API answers it.
fn schema_output() -> Value {
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$defs": {"page": {"type": "object", "properties": {"id": {"type": "string"}}}},
        "type": "object",
        "properties": {
            "parent": {"$ref": "#/$defs/page"},
            "children": {"type": "array", "items": {"$ref": "#/$defs/page"}},
        },
    })
}

fn text_and(block: ContentBlock) -> ToolOutput {
    ToolContent::new(vec![ContentBlock::text("here it is"), block]).into()
}

fn resource(contents: ResourceContents) -> ContentBlock {
    ContentBlock::Resource(EmbeddedResource::new(contents))
}

/// Each case: its name, the output, and the limits it is written within.
fn cases() -> Vec<(&'static str, ToolOutput, AnswerLimits)> {
    let default = AnswerLimits::default();
    let mut document = ResourceContents::text("file:///notes.md", "# Notes\n\nMeet at noon.");
    document.mime_type = Some("text/markdown".into());
    let mut link = ResourceLink::new("file:///tmp/report.pdf", "report.pdf");
    link.mime_type = Some("application/pdf".into());
    link.size = Some(48213);
    link.description = Some("The quarterly report.".into());
    vec![
        (
            "image/jpeg",
            text_and(ContentBlock::image(JPEG, "image/jpeg")),
            default,
        ),
        (
            "image/gif",
            text_and(ContentBlock::image(GIF, "image/gif")),
            default,
        ),
        (
            "image/webp",
            text_and(ContentBlock::image(WEBP, "image/webp")),
            default,
        ),
        (
            "image/svg+xml",
            text_and(ContentBlock::image(SVG, "image/svg+xml")),
            default,
        ),
        (
            "image/bmp",
            text_and(ContentBlock::image(BMP, "image/bmp")),
            default,
        ),
        (
            "image/jpeg over a 10-byte media limit",
            text_and(ContentBlock::image(JPEG, "image/jpeg")),
            default.with_media_bytes(10),
        ),
        (
            "audio/wav",
            text_and(ContentBlock::audio(WAV, "audio/wav")),
            default,
        ),
        (
            "embedded PDF",
            text_and(resource(ResourceContents::blob(
                "file:///report.pdf",
                PDF,
                "application/pdf",
            ))),
            default,
        ),
        (
            "embedded JPEG",
            text_and(resource(ResourceContents::blob(
                "file:///photo.jpg",
                JPEG,
                "image/jpeg",
            ))),
            default,
        ),
        (
            "embedded text document",
            text_and(resource(document)),
            default,
        ),
        (
            "resource link",
            text_and(ContentBlock::ResourceLink(link)),
            default,
        ),
        (
            "structured result alone",
            ToolContent::new(Vec::new())
                .with_structured(json!({"temperature": 18}))
                .into(),
            default,
        ),
        (
            "structured result beside its text",
            ToolContent::new(vec![ContentBlock::text("{\"temperature\":18}")])
                .with_structured(json!({"temperature": 18}))
                .into(),
            default,
        ),
        (
            "error result",
            ToolContent::new(vec![ContentBlock::text("the city is unknown")])
                .as_error()
                .into(),
            default,
        ),
        ("no block", ToolContent::new(Vec::new()).into(), default),
        (
            "empty text",
            ToolContent::new(vec![ContentBlock::text("")]).into(),
            default,
        ),
        (
            "whitespace text",
            ToolContent::new(vec![ContentBlock::text(" \n\t")]).into(),
            default,
        ),
        (
            "JSON array",
            json!([1, "two", {"three": 3}]).into(),
            default,
        ),
        ("JSON string", json!("plain words").into(), default),
        ("JSON empty string", json!("").into(), default),
        ("JSON whitespace string", json!("  ").into(), default),
        ("JSON integer", json!(42).into(), default),
        ("JSON float", json!(-0.5).into(), default),
        ("JSON null", Value::Null.into(), default),
        ("JSON true", json!(true).into(), default),
        ("JSON false", json!(false).into(), default),
        ("JSON empty object", json!({}).into(), default),
        ("JSON empty array", json!([]).into(), default),
        (
            "JSON Schema with $defs and $ref",
            schema_output().into(),
            default,
        ),
        (
            "JSON with $ref in an array",
            json!({"items": [{"$ref": "#/$defs/x"}]}).into(),
            default,
        ),
        (
            "JSON Schema over 40 text bytes",
            schema_output().into(),
            default.with_text_bytes(40),
        ),
    ]
}

/// One answer to a call of `format` (with an id: every format's parsers give one but Gemini's).
fn answer(output: ToolOutput) -> ToolAnswer {
    let call = ToolCall::new(
        Some("call_1".into()),
        "mcp_files_read",
        Ok(Map::new()),
        "/0",
    );
    let outcome = CallOutcome {
        tool: "mcp/files/read".into(),
        provider: "files".into(),
        route: Route::Exact,
        output,
    };
    ToolAnswer::new(&call, Ok(outcome))
}

fn oracle(format: CallFormat) -> String {
    let mut out = String::new();
    for (case, output, limits) in cases() {
        let answers = [answer(output)];
        let values = write_answers_with(format, &answers, &limits);
        let texts: Vec<String> = values.messages.iter().map(Value::to_string).collect();
        section(&mut out, &format!("{case}: answer"), texts.join("\n"));
        let raw = write_raw_answers(format, &answers, &limits);
        let raws: Vec<&str> = raw.messages.iter().map(|m| m.get()).collect();
        // Raw text is `serde_json::to_string` of the value, byte for byte: shown again only
        // when it is not.
        let raws = if raws == texts {
            "(the same bytes)".to_owned()
        } else {
            raws.join("\n")
        };
        section(&mut out, &format!("{case}: raw answer"), raws);
        let notes = format!("{:#?}", values.notes);
        section(&mut out, &format!("{case}: notes"), &notes);
        let raw_notes = format!("{:#?}", raw.notes);
        if raw_notes != notes {
            section(&mut out, &format!("{case}: raw notes"), raw_notes);
        }
    }
    out
}

#[test]
fn every_format_answers_every_kind_of_output_as_the_oracle_says() {
    let files: Vec<(String, String)> = CallFormat::ALL
        .into_iter()
        .map(|format| (format!("{}.txt", format.key()), oracle(format)))
        .collect();
    compare_folder("answers", &files);
}
