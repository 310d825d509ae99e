//! One content block of a tool's output, in MCP's own shape: the serde form of
//! [`ContentBlock`] is the MCP schema's `ContentBlock` JSON (`type` tag, camelCase members),
//! so converting from and to an MCP SDK's type is a JSON round trip that loses nothing.
//!
//! Source: the MCP schema's `ContentBlock` = `TextContent | ImageContent | AudioContent |
//! ResourceLink | EmbeddedResource` (modelcontextprotocol.io, specification 2025-06-18,
//! server/tools "Tool Result"; rmcp 3.11 `model::content::ContentBlock`). Members this type
//! does not name (`annotations`, `_meta`, a resource link's `title` and `icons`, any later
//! addition) are kept in each block's `extra`.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// One block of a tool's content.
///
/// ```
/// use serde_json::json;
/// use toolwire_core::tools::ContentBlock;
/// let image = ContentBlock::image("iVBORw0KGgo=", "image/png");
/// let wire = json!({"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"});
/// assert_eq!(serde_json::to_value(&image).unwrap(), wire);
/// assert_eq!(serde_json::from_value::<ContentBlock>(wire).unwrap(), image);
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[non_exhaustive]
pub enum ContentBlock {
    /// Text.
    Text(TextBlock),
    /// An image: base64 data and its MIME type.
    Image(MediaBlock),
    /// Audio: base64 data and its MIME type.
    Audio(MediaBlock),
    /// A link to a resource the client may read (not its contents).
    ResourceLink(ResourceLink),
    /// A resource's contents, embedded.
    Resource(EmbeddedResource),
}

/// A text block.
///
/// ```
/// let block = toolwire_core::tools::TextBlock::new("hi");
/// assert_eq!(block.text, "hi");
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct TextBlock {
    /// The text.
    pub text: String,
    /// The block's other members (`annotations`, `_meta`), kept.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl TextBlock {
    /// A text block of `text`.
    ///
    /// ```
    /// assert!(toolwire_core::tools::TextBlock::new("hi").extra.is_empty());
    /// ```
    pub fn new(text: impl Into<String>) -> TextBlock {
        TextBlock {
            text: text.into(),
            extra: Map::new(),
        }
    }
}

/// An image or audio block: base64 `data` and its `mimeType`.
///
/// ```
/// let png = toolwire_core::tools::MediaBlock::new("iVBORw0KGgo=", "image/png");
/// assert_eq!(png.decoded_len(), 8);
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct MediaBlock {
    /// The data, base64 (MCP's `data`).
    pub data: String,
    /// Its MIME type.
    pub mime_type: String,
    /// The block's other members (`annotations`, `_meta`), kept.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl MediaBlock {
    /// A block of base64 `data` of type `mime_type`.
    ///
    /// ```
    /// let wav = toolwire_core::tools::MediaBlock::new("UklGRg==", "audio/wav");
    /// assert_eq!(wav.mime_type, "audio/wav");
    /// ```
    pub fn new(data: impl Into<String>, mime_type: impl Into<String>) -> MediaBlock {
        MediaBlock {
            data: data.into(),
            mime_type: mime_type.into(),
            extra: Map::new(),
        }
    }

    /// How many bytes the base64 data decodes to (what a note names as the block's size).
    ///
    /// ```
    /// assert_eq!(toolwire_core::tools::MediaBlock::new("aGk=", "text/plain").decoded_len(), 2);
    /// ```
    pub fn decoded_len(&self) -> usize {
        base64_decoded_len(&self.data)
    }
}

/// A link to a resource (MCP's `ResourceLink`: a `Resource`'s members).
///
/// ```
/// use toolwire_core::tools::ResourceLink;
/// let link = ResourceLink::new("file:///tmp/report.pdf", "report.pdf");
/// assert_eq!(link.uri, "file:///tmp/report.pdf");
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ResourceLink {
    /// The resource's URI.
    pub uri: String,
    /// Its name.
    pub name: String,
    /// Its description, when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Its MIME type, when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Its size in bytes, when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
    /// The link's other members (`title`, `icons`, `annotations`, `_meta`), kept.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl ResourceLink {
    /// A link to `uri` named `name`.
    ///
    /// ```
    /// let link = toolwire_core::tools::ResourceLink::new("https://example.com/a", "a");
    /// assert_eq!(link.mime_type, None);
    /// ```
    pub fn new(uri: impl Into<String>, name: impl Into<String>) -> ResourceLink {
        ResourceLink {
            uri: uri.into(),
            name: name.into(),
            description: None,
            mime_type: None,
            size: None,
            extra: Map::new(),
        }
    }
}

/// An embedded resource: its contents, text or a base64 blob.
///
/// ```
/// use toolwire_core::tools::{EmbeddedResource, ResourceContents};
/// let note = EmbeddedResource::new(ResourceContents::text("file:///notes.md", "# Notes"));
/// assert_eq!(note.resource.text.as_deref(), Some("# Notes"));
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct EmbeddedResource {
    /// The resource's contents.
    pub resource: ResourceContents,
    /// The block's other members (`annotations`, `_meta`), kept.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl EmbeddedResource {
    /// A block embedding `resource`.
    ///
    /// ```
    /// use toolwire_core::tools::{EmbeddedResource, ResourceContents};
    /// let blob = EmbeddedResource::new(ResourceContents::blob("file:///a.png", "iVBORw0KGgo=", "image/png"));
    /// assert!(blob.resource.text.is_none());
    /// ```
    pub fn new(resource: ResourceContents) -> EmbeddedResource {
        EmbeddedResource {
            resource,
            extra: Map::new(),
        }
    }
}

/// A resource's contents: MCP's `TextResourceContents` (`text`) or `BlobResourceContents`
/// (`blob`, base64), one type with both optional so either reads back as it came.
///
/// ```
/// use toolwire_core::tools::ResourceContents;
/// let text = ResourceContents::text("file:///a.txt", "hello");
/// assert_eq!(text.mime_type, None);
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ResourceContents {
    /// The resource's URI.
    pub uri: String,
    /// Its MIME type, when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Its text, for a text resource.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Its data, base64, for a binary resource.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blob: Option<String>,
    /// The contents' other members (`_meta`), kept.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl ResourceContents {
    /// A text resource.
    ///
    /// ```
    /// let r = toolwire_core::tools::ResourceContents::text("file:///a.txt", "hi");
    /// assert_eq!(r.text.as_deref(), Some("hi"));
    /// ```
    pub fn text(uri: impl Into<String>, text: impl Into<String>) -> ResourceContents {
        ResourceContents {
            uri: uri.into(),
            mime_type: None,
            text: Some(text.into()),
            blob: None,
            extra: Map::new(),
        }
    }

    /// A binary resource: base64 `blob` of type `mime_type`.
    ///
    /// ```
    /// let r = toolwire_core::tools::ResourceContents::blob("file:///a.bin", "AAE=", "application/octet-stream");
    /// assert_eq!(r.blob.as_deref(), Some("AAE="));
    /// ```
    pub fn blob(
        uri: impl Into<String>,
        blob: impl Into<String>,
        mime_type: impl Into<String>,
    ) -> ResourceContents {
        ResourceContents {
            uri: uri.into(),
            mime_type: Some(mime_type.into()),
            text: None,
            blob: Some(blob.into()),
            extra: Map::new(),
        }
    }
}

impl ContentBlock {
    /// A text block.
    ///
    /// ```
    /// assert_eq!(toolwire_core::tools::ContentBlock::text("hi").as_text(), Some("hi"));
    /// ```
    pub fn text(text: impl Into<String>) -> ContentBlock {
        ContentBlock::Text(TextBlock::new(text))
    }

    /// An image block of base64 `data`.
    ///
    /// ```
    /// let image = toolwire_core::tools::ContentBlock::image("iVBORw0KGgo=", "image/png");
    /// assert_eq!(image.kind(), "image");
    /// ```
    pub fn image(data: impl Into<String>, mime_type: impl Into<String>) -> ContentBlock {
        ContentBlock::Image(MediaBlock::new(data, mime_type))
    }

    /// An audio block of base64 `data`.
    ///
    /// ```
    /// let audio = toolwire_core::tools::ContentBlock::audio("UklGRg==", "audio/wav");
    /// assert_eq!(audio.kind(), "audio");
    /// ```
    pub fn audio(data: impl Into<String>, mime_type: impl Into<String>) -> ContentBlock {
        ContentBlock::Audio(MediaBlock::new(data, mime_type))
    }

    /// The text of a text block.
    ///
    /// ```
    /// assert_eq!(toolwire_core::tools::ContentBlock::image("", "image/png").as_text(), None);
    /// ```
    pub fn as_text(&self) -> Option<&str> {
        match self {
            ContentBlock::Text(text) => Some(&text.text),
            _ => None,
        }
    }

    /// The block's MCP `type`: `text`, `image`, `audio`, `resource_link` or `resource`.
    ///
    /// ```
    /// assert_eq!(toolwire_core::tools::ContentBlock::text("").kind(), "text");
    /// ```
    pub fn kind(&self) -> &'static str {
        match self {
            ContentBlock::Text(_) => "text",
            ContentBlock::Image(_) => "image",
            ContentBlock::Audio(_) => "audio",
            ContentBlock::ResourceLink(_) => "resource_link",
            ContentBlock::Resource(_) => "resource",
        }
    }
}

/// The decoded length of base64 text (standard alphabet, padded or not; whitespace ignored).
fn base64_decoded_len(data: &str) -> usize {
    let symbols = data
        .bytes()
        .filter(|b| !b.is_ascii_whitespace() && *b != b'=')
        .count();
    symbols * 3 / 4
}
