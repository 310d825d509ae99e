//! Search quality: queries a user would write from what a tool is *for*, over the 64 described
//! tools of `fixtures/corpus/mcp-schemas.json` (named `mcp/<server>/<tool>`, as the runtime
//! names them), through [`SearchIndex::search_offered`] as the runtime's `tool_search` runs it.
//!
//! The bar: the expected tool is in the top 5 for at least 90% of the queries. The test prints
//! the figure (and, for information, how often the tool came first) and every miss.
//!
//! Honesty rule, checked by the test itself: no query contains a word of its expected tool's own
//! name (the part after `mcp/<server>/`, any inflection), so a query cannot find its tool by
//! copying the name. The server's name may appear, as a user names the product ("in Notion").

use toolwire_core::{
    names::DEFAULT_META_TOOLS,
    search::{search_terms, SearchIndex},
    Census, ToolDefinition,
};
use toolwire_test_support::corpus::corpus;

/// (expected tool, query written from its purpose).
const QUERIES: &[(&str, &str)] = &[
    ("mcp/everything/echo", "repeat the input string back to me"),
    ("mcp/everything/get-sum", "add two numbers together"),
    (
        "mcp/everything/get-env",
        "print environment variables to debug the server configuration",
    ),
    (
        "mcp/everything/gzip-file-as-resource",
        "compress a document so it can be downloaded later",
    ),
    (
        "mcp/everything/toggle-simulated-logging",
        "enable or disable fake messages at random levels",
    ),
    (
        "mcp/everything/trigger-long-running-operation",
        "start a slow task that reports its progress",
    ),
    (
        "mcp/filesystem/read_text_file",
        "show only the first lines of a document, handling its encoding",
    ),
    (
        "mcp/filesystem/write_file",
        "overwrite a document with new content",
    ),
    (
        "mcp/filesystem/edit_file",
        "replace some lines in a document and show me the git diff",
    ),
    (
        "mcp/filesystem/create_directory",
        "make nested folders for a new project structure",
    ),
    (
        "mcp/filesystem/move_file",
        "rename a document, changing where it lives",
    ),
    (
        "mcp/filesystem/search_files",
        "find every path matching a glob like *.rs in all subfolders",
    ),
    (
        "mcp/filesystem/get_file_info",
        "when was this last modified, and what are its permissions and size",
    ),
    (
        "mcp/filesystem/directory_tree",
        "recursive JSON view of a folder hierarchy with children",
    ),
    (
        "mcp/filesystem/list_allowed_directories",
        "which paths is this server permitted to access",
    ),
    (
        "mcp/filesystem/read_media_file",
        "load a picture or audio clip as base64 with its MIME type",
    ),
    (
        "mcp/filesystem/read_multiple_files",
        "open several documents at once to compare them",
    ),
    (
        "mcp/filesystem/list_directory_with_sizes",
        "show folder contents including how big each item is",
    ),
    (
        "mcp/memory/create_relations",
        "record how two entities are related in the knowledge graph",
    ),
    (
        "mcp/memory/add_observations",
        "attach new facts to an existing entity in my knowledge graph",
    ),
    (
        "mcp/memory/read_graph",
        "dump the entire memory knowledge base",
    ),
    (
        "mcp/memory/search_nodes",
        "look up knowledge graph entries matching a query",
    ),
    (
        "mcp/time/get_current_time",
        "what hour is it right now in a given timezone",
    ),
    (
        "mcp/time/convert_time",
        "translate 3pm in New York into other timezones",
    ),
    (
        "mcp/fetch/fetch",
        "download a web page from a URL as markdown",
    ),
    (
        "mcp/sequential-thinking/sequentialthinking",
        "reason step by step through a complex problem, revising as I go",
    ),
    (
        "mcp/notion/API-post-search",
        "find Notion pages by their title",
    ),
    (
        "mcp/notion/API-get-self",
        "which bot does my Notion integration token belong to",
    ),
    (
        "mcp/notion/API-patch-page",
        "update the properties of a Notion document",
    ),
];

/// The corpus's described tools, named as the runtime names an MCP server's tools.
fn corpus_definitions() -> Vec<ToolDefinition> {
    let corpus = corpus("mcp-schemas.json");
    let mut definitions = Vec::new();
    for server in corpus["servers"].as_array().expect("servers is a list") {
        let server_name = server["server"].as_str().expect("a server name");
        for tool in server["tools"].as_array().expect("tools is a list") {
            let name = tool["name"].as_str().expect("a tool name");
            let description = tool["description"].as_str().unwrap_or("");
            let mut definition = ToolDefinition::new(
                format!("mcp/{server_name}/{name}"),
                description,
                tool["inputSchema"].clone(),
            );
            if let Some(title) = tool["title"].as_str() {
                definition = definition.with_title(title);
            }
            definitions.push(definition);
        }
    }
    definitions
}

/// A word with a common English ending taken off, for the honesty check only (cruder than the
/// index's stemmer on purpose: it must flag `files` against `file`, `listing` against `list`).
fn root(word: &str) -> &str {
    for suffix in ["ies", "ing", "es", "ed", "s", "e", "y"] {
        if let Some(base) = word.strip_suffix(suffix) {
            if base.len() >= 3 {
                return base;
            }
        }
    }
    word
}

#[test]
fn queries_from_purposes_find_their_tool_in_the_top_5() {
    let definitions = corpus_definitions();
    assert_eq!(definitions.len(), 64, "the corpus has 64 described tools");
    let census = Census::build(definitions.iter().map(|d| &d.name), &DEFAULT_META_TOOLS);
    assert_eq!(census.offered().count(), 64, "every corpus tool is offered");
    let index = SearchIndex::of_census(&census, &definitions);

    let mut found = 0;
    let mut first = 0;
    let mut misses = Vec::new();
    for &(expected, query) in QUERIES {
        let position = census
            .tools()
            .iter()
            .position(|t| t.name() == expected)
            .unwrap_or_else(|| panic!("{expected} is not in the corpus"));

        // The honesty rule: no word of the tool's own name, in any inflection.
        let own_name = expected.splitn(3, '/').nth(2).expect("mcp/<server>/<tool>");
        let name_roots: Vec<String> = search_terms(own_name)
            .iter()
            .map(|w| root(w).to_owned())
            .collect();
        for word in search_terms(query) {
            assert!(
                !name_roots.contains(&root(&word).to_owned()),
                "query {query:?} copies {word:?} from the name of {expected}"
            );
        }

        let hits = index.search_offered(&census, query, 5);
        match hits.iter().position(|h| h.index == position) {
            Some(rank) => {
                found += 1;
                first += usize::from(rank == 0);
            }
            None => {
                let got: Vec<&str> = hits
                    .iter()
                    .map(|h| census.tools()[h.index].name())
                    .collect();
                misses.push(format!("  {query:?}: wanted {expected}, got {got:?}"));
            }
        }
    }
    let total = QUERIES.len();
    let percent = found * 100 / total;
    println!("top-5: {found}/{total} = {percent}%");
    println!("top-1: {first}/{total} = {}%", first * 100 / total);
    for miss in &misses {
        println!("{miss}");
    }
    assert!(total >= 20, "at least 20 queries");
    assert!(
        found * 10 >= total * 9,
        "top-5: {found}/{total} = {percent}%, under 90%; misses:\n{}",
        misses.join("\n")
    );
}
