//! The Tools page's HTML: one renderer, for a gateway's `/tools` and for `toolwire census
//! --html`, from a [`ToolsReport`] and nothing else.
//!
//! Policy: every name, description and reason comes from servers nobody here controls, so the
//! page is written with maud, which escapes every interpolated value (`(value)` in `html!`
//! goes through `maud::Escaper`; only `PreEscaped` is not, used here for the constant CSS and
//! script alone). The page is whole without scripts; a live page adds one inline script, the
//! live refresh, allowed by its hash in the Content-Security-Policy.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use base64::Engine;
use maud::{html, Markup, PreEscaped, DOCTYPE};
use sha2::{Digest, Sha256};

use crate::runtime::report::{ProviderReport, ReportStatus, ToolReport, ToolsReport};
use crate::runtime::LoadStatus;
use crate::schema::{SchemaReport, SchemaStatus, Standing};

/// The page's style, inline (no CDN, nothing fetched). A name or description in a cell breaks
/// anywhere (`overflow-wrap:anywhere` also lowers the table's minimum width), so the page fits
/// a window of a laptop's width, names of 60 characters included; words of prose do not.
const STYLE: &str = "\
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#1b1b1b;background:#fff}\
h1{font-size:1.5em;margin:0 0 .2em}h2{font-size:1.15em;margin:1.4em 0 .4em}\
table{border-collapse:collapse;width:100%}th,td{border-bottom:1px solid #ddd;padding:.35em .5em;\
text-align:left;vertical-align:top}th{background:#f4f4f4}code{font:13px ui-monospace,monospace}\
td code,.desc{overflow-wrap:anywhere}\
.bad{color:#a40000;font-weight:600}.warn{color:#8a5a00}.ok{color:#176b00}\
#clashes{border:2px solid #a40000;padding:.2em 1em 1em;border-radius:6px}\
#clashes.none{border-color:#176b00}ul{margin:.2em 0;padding-left:1.3em}\
.desc{color:#444;white-space:pre-wrap}details summary{cursor:pointer}.muted{color:#666}\
form label{display:block;margin:.6em 0}";

/// The live refresh: on each event of `/tools/events` (the `ready` one too: a page that
/// reconnects learns what it missed) whose stamp is newer than the page's, the page is fetched
/// again, and the fetched content replaces the page's only when its own stamp is newer still
/// (two fetches may answer out of order). Newer: another gateway start (`epoch`), or a larger
/// change number within one. The server renders the page, so there is no second renderer in
/// script.
const REFRESH: &str = "\
(function(){function st(e){return e?{e:e.getAttribute('data-epoch'),\
q:Number(e.getAttribute('data-sequence'))}:null}function newer(a,b){\
return !!a&&(!b||a.e!==b.e||a.q>b.q)}function cur(){return st(document.getElementById('page'))}\
function on(ev){var d;try{d=JSON.parse(ev.data)}catch(x){return}\
if(!newer({e:d.epoch,q:d.sequence},cur()))return;\
fetch('/tools',{credentials:'same-origin',cache:'no-store'}).then(function(r){\
return r.ok?r.text():null}).then(function(t){if(!t)return;\
var n=new DOMParser().parseFromString(t,'text/html').getElementById('page');\
var o=document.getElementById('page');if(n&&o&&newer(st(n),st(o)))o.replaceWith(n)})}\
var s=new EventSource('/tools/events');s.onmessage=on;s.addEventListener('ready',on)})();";

/// What a live page's content is of: the gateway's start and the change number, as the
/// event stream's events and `/tools.json` carry them.
pub(super) struct Stamp {
    pub(super) epoch: String,
    pub(super) sequence: u64,
}

/// `'sha256-…'` of a constant, as a CSP source (CSP 3, "hash-source").
fn hash_source(text: &str) -> String {
    let digest = Sha256::digest(text.as_bytes());
    format!(
        "'sha256-{}'",
        base64::engine::general_purpose::STANDARD.encode(digest)
    )
}

/// The Content-Security-Policy of a page: nothing but its own style and, live, its script and
/// requests to itself. A file (`census --html`) has only a `<meta>` to carry it, which cannot
/// say `frame-ancestors` (CSP 3, "6.4.2 frame-ancestors": not supported in `<meta>`), so its
/// policy leaves it out: a file opened from disk is framed by no site. A live page's policy
/// is a header alone (`mod.rs`), with `frame-ancestors 'none'`.
static CSP_STATIC: LazyLock<String> = LazyLock::new(|| {
    format!(
        "default-src 'none'; style-src {}; base-uri 'none'; form-action 'none'",
        hash_source(STYLE)
    )
});
static CSP_LIVE: LazyLock<String> = LazyLock::new(|| {
    format!(
        "default-src 'none'; style-src {}; script-src {}; connect-src 'self'; \
         form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
        hash_source(STYLE),
        hash_source(REFRESH)
    )
});

/// The policy a live page (or the login form) is served with.
pub(super) fn live_policy() -> &'static str {
    CSP_LIVE.as_str()
}

/// Whether the page refreshes itself (a gateway's, of the stamp given) or is a file
/// (`census --html`).
#[derive(Clone, Copy)]
pub(super) enum Mode<'a> {
    Live(&'a Stamp),
    File,
}

/// The Tools page of `report`.
pub(super) fn page(report: &ToolsReport, mode: Mode<'_>) -> String {
    let (file_policy, stamp) = match mode {
        Mode::Live(stamp) => (None, Some(stamp)),
        Mode::File => (Some(CSP_STATIC.as_str()), None),
    };
    let offered = report
        .tools
        .iter()
        .filter(|t| t.status == ReportStatus::Offered)
        .count();
    let markup = html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                @if let Some(policy) = file_policy {
                    meta http-equiv="Content-Security-Policy" content=(policy);
                }
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { "Tools · toolwire" }
                style { (PreEscaped(STYLE)) }
            }
            body {
                main id="page" data-epoch=[stamp.map(|s| &s.epoch)] data-sequence=[stamp.map(|s| s.sequence)] {
                    h1 { "Tools" }
                    p class="muted" {
                        (report.tools.len()) " tools, " (offered) " offered, "
                        (report.tools.len() - offered) " not; "
                        (report.providers.len()) " backends."
                    }
                    (clashes(report))
                    (backends(&report.providers))
                    (tools(&report.tools))
                }
                @if stamp.is_some() {
                    script { (PreEscaped(REFRESH)) }
                }
            }
        }
    };
    markup.into_string()
}

/// The login form: a token field posted to `/tools/login`, never put in a URL.
pub(super) fn login(wrong: bool) -> String {
    let markup = html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { "Log in · toolwire Tools" }
                style { (PreEscaped(STYLE)) }
            }
            body {
                main id="login" {
                    h1 { "Tools" }
                    p { "This gateway wants its token (the one given to " code { "toolwire serve --token" } ")." }
                    @if wrong {
                        p class="bad" role="alert" { "That token is not this gateway's." }
                    }
                    form method="post" action="/tools/login" {
                        label { "Token " input type="password" name="token" autocomplete="current-password" required; }
                        button type="submit" { "Log in" }
                    }
                }
            }
        }
    };
    markup.into_string()
}

/// Whether a tool is out of every request because of its name (what the clashes section
/// lists), by its reason's key.
fn is_name_clash(key: &str) -> bool {
    matches!(
        key,
        "shares_form"
            | "form_is_another_tool"
            | "outranked"
            | "duplicate_name"
            | "meta_tool"
            | "budget_clash"
            | "form_refused"
            | "empty_name"
            | "history_name"
    )
}

/// Every tool no model can call because of its name, first on the page: each shared form with
/// every tool that travels as it, then each taken name, each name the budget cut into
/// another's, each name an API refuses.
fn clashes(report: &ToolsReport) -> Markup {
    let clashing: Vec<&ToolReport> = report
        .tools
        .iter()
        .filter(|t| t.status == ReportStatus::LeftOut && t.reason_key.is_some_and(is_name_clash))
        .collect();
    // A shared form: every tool of the report that travels as it, offered or not.
    let mut forms: BTreeMap<&str, Vec<&ToolReport>> = BTreeMap::new();
    for tool in &clashing {
        if matches!(
            tool.reason_key,
            Some("shares_form" | "form_is_another_tool" | "outranked" | "duplicate_name")
        ) {
            forms.entry(&tool.form).or_default();
        }
    }
    for tool in &report.tools {
        if let Some(group) = forms.get_mut(tool.form.as_str()) {
            group.push(tool);
        }
    }
    let others: Vec<&&ToolReport> = clashing
        .iter()
        .filter(|t| !forms.contains_key(t.form.as_str()))
        .collect();
    html! {
        section id="clashes" class=[clashing.is_empty().then_some("none")] {
            h2 { "Clashes: tools no model can call because of their names" }
            @if clashing.is_empty() {
                p class="ok" { "None: every tool's name reaches it." }
            } @else {
                ul {
                    @for (form, group) in &forms {
                        li data-clash="shared_form" data-form=(form) {
                            "Shared form " code { (form) } ": "
                            @for (i, tool) in group.iter().enumerate() {
                                @if i > 0 { ", " }
                                code data-clash-tool=(tool.name) { (tool.name) }
                                " (" (status_word(tool)) ", from " (tool.provider) ")"
                            }
                            ul {
                                @for tool in group.iter().filter(|t| t.status == ReportStatus::LeftOut) {
                                    li { code { (tool.name) } ": " (tool.reason.as_deref().unwrap_or("")) }
                                }
                            }
                        }
                    }
                    @for tool in &others {
                        li data-clash=(clash_kind(tool)) {
                            (clash_label(tool)) " " code data-clash-tool=(tool.name) { (tool.name) }
                            ": " (tool.reason.as_deref().unwrap_or(""))
                        }
                    }
                }
            }
        }
    }
}

fn clash_kind(tool: &ToolReport) -> &'static str {
    match tool.reason_key {
        Some("meta_tool") => "taken_name",
        Some("budget_clash") => "name_budget",
        _ => "refused_name",
    }
}

fn clash_label(tool: &ToolReport) -> &'static str {
    match tool.reason_key {
        Some("meta_tool") => "Taken name:",
        Some("budget_clash") => "Name budget:",
        _ => "Refused name:",
    }
}

fn status_word(tool: &ToolReport) -> &'static str {
    match tool.status {
        ReportStatus::Offered => "offered",
        ReportStatus::LeftOut => "left out",
        ReportStatus::Disabled => "switched off",
        ReportStatus::Unavailable => "unreachable",
        _ => "not supported",
    }
}

fn backends(providers: &[ProviderReport]) -> Markup {
    html! {
        section id="backends" {
            h2 { "Backends" }
            table {
                thead { tr { th { "Backend" } th { "Health" } th { "Restarts" } th { "MCP revision" } th { "Tools" } th { "Load" } } }
                tbody {
                    @for p in providers {
                        tr data-backend=(p.name) data-health=(p.health.word()) {
                            td { code { (p.name) } }
                            td class=(health_class(p)) {
                                (p.health.word())
                                @if p.health.word() == "failed" && p.restarts_left == Some(0) {
                                    ", no restarts left"
                                }
                            }
                            td data-restarts=(p.restarts) data-restarts-left=[p.restarts_left] {
                                (p.restarts) " used"
                                @if let Some(left) = p.restarts_left { ", " (left) " left" }
                            }
                            td { (p.protocol_version.as_deref().unwrap_or("—")) }
                            td { (p.tools) }
                            td { (load(&p.status)) }
                        }
                    }
                }
            }
        }
    }
}

fn health_class(p: &ProviderReport) -> &'static str {
    match p.health.word() {
        "running" => "ok",
        "restarting" => "warn",
        _ => "bad",
    }
}

fn load(status: &LoadStatus) -> Markup {
    match status {
        LoadStatus::Loaded => html! { "loaded" },
        LoadStatus::LoadedWithNotes { notes } => html! {
            "loaded, with notes" ul { @for n in notes { li { (n.to_string()) } } }
        },
        LoadStatus::Failed { problems } => html! {
            span class="bad" { "problems" } ul { @for p in problems { li { (p.to_string()) } } }
        },
    }
}

fn tools(tools: &[ToolReport]) -> Markup {
    html! {
        section id="tools" {
            h2 { "Tools" }
            table {
                thead { tr { th { "Tool (real name)" } th { "Served as" } th { "Status" } th { "Annotations" } th { "Schema per dialect" } } }
                tbody {
                    @for tool in tools {
                        tr data-tool=(tool.name) data-status=(status_key(tool.status)) {
                            td {
                                code { (tool.name) }
                                @if let Some(title) = &tool.title { br; (title) }
                                br; span class="muted" { "from " (tool.provider) }
                                @if !tool.description.is_empty() { div class="desc" { (tool.description) } }
                            }
                            td {
                                @if let Some(served) = &tool.served { code { (served) } br; }
                                span class="muted" { "form " } code { (tool.form) }
                            }
                            td {
                                span class=(if tool.status == ReportStatus::Offered { "ok" } else { "bad" }) { (status_word(tool)) }
                                @if let Some(reason) = &tool.reason { div { (reason) } }
                            }
                            td { (annotations(tool)) }
                            td { (schemas(tool)) }
                        }
                    }
                }
            }
        }
    }
}

fn status_key(status: ReportStatus) -> &'static str {
    match status {
        ReportStatus::Offered => "offered",
        ReportStatus::LeftOut => "left_out",
        ReportStatus::Disabled => "disabled",
        ReportStatus::Unavailable => "unavailable",
        _ => "unsupported",
    }
}

fn annotations(tool: &ToolReport) -> Markup {
    let a = &tool.annotations;
    html! {
        @match a.read_only_hint { Some(true) => { "read-only" br; } Some(false) => { "writes" br; } None => {} }
        @match a.destructive_hint { Some(true) => { span class="warn" { "destructive" } } Some(false) => { "not destructive" } None => {} }
        @if a.read_only_hint.is_none() && a.destructive_hint.is_none() { span class="muted" { "none given" } }
    }
}

/// A dialect's standing: exact (as is, or rewritten with nothing lost), guarded, unguarded or
/// refused (`tool-schema-wire.md`'s words).
fn standing(schema: &SchemaReport) -> &'static str {
    match (schema.status, schema.standing) {
        (SchemaStatus::AsIs | SchemaStatus::Rewritten, _) => "exact",
        (SchemaStatus::Refused, _) | (_, Some(Standing::Refused)) => "refused",
        (_, Some(Standing::Guarded)) => "guarded",
        _ => "unguarded",
    }
}

fn schemas(tool: &ToolReport) -> Markup {
    html! {
        ul {
            @for (dialect, schema) in &tool.schemas {
                li data-dialect=(dialect) data-standing=(standing(schema)) data-fails=(schema.fails(false)) {
                    code { (dialect) } ": "
                    span class=(match standing(schema) { _ if schema.over_restricts => "bad", "exact" => "ok", "guarded" => "warn", _ => "bad" }) { (standing(schema)) }
                    // A loss that forbids arguments the tool accepts fails whatever guards it
                    // (`SchemaReport::fails`): a model's valid call is refused on the wire.
                    @if schema.over_restricts {
                        ", " span class="bad" data-over-restricts { "over-restricts: forbids arguments the tool accepts" }
                    }
                    @if let Some(reason) = &schema.reason { " (" (reason) ")" }
                    @if !schema.losses.is_empty() {
                        details {
                            summary { (schema.losses.len()) " lost" }
                            ul { @for loss in &schema.losses { li { (loss.to_string()) } } }
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use serde_json::json;

    use super::{hash_source, live_policy, page, Mode, Stamp, REFRESH};
    use crate::census::NameBudget;
    use crate::mcp::serve::{ServeOptions, ToolServer};
    use crate::provider::provider_fn;
    use crate::{ToolDefinition, ToolRuntime};

    fn stamp() -> Stamp {
        Stamp {
            epoch: "00000000000000ab".to_owned(),
            sequence: 7,
        }
    }

    fn server(tools: Vec<ToolDefinition>, options: ServeOptions) -> ToolServer {
        let runtime = ToolRuntime::new();
        let provider = provider_fn("fx", tools, |_, args| async move { Ok(args) });
        tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
            .block_on(async {
                let _status = runtime.add_provider(Arc::new(provider)).await.unwrap();
            });
        ToolServer::new(runtime, options)
    }

    #[test]
    fn a_servers_script_is_text_and_the_only_script_is_the_refresh_the_policy_allows() {
        let hostile = "</div><script>alert(1)</script><img src=x onerror=alert(2)>";
        let server = server(
            vec![ToolDefinition::new(
                "mcp/fx/<b>echo</b>",
                hostile,
                json!({}),
            )],
            ServeOptions::default(),
        );
        let html = page(&server.report(), Mode::Live(&stamp()));
        assert!(html.contains(
            "&lt;/div&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;"
        ));
        assert!(
            html.contains(r#"data-tool="mcp/fx/&lt;b&gt;echo&lt;/b&gt;""#),
            "{html}"
        );
        assert_eq!(html.matches("<script").count(), 1, "{html}");
        assert!(html.contains(&format!("<script>{REFRESH}</script>")));
        assert!(live_policy().contains(&format!("script-src {}", hash_source(REFRESH))));
        assert!(!page(&server.report(), Mode::File).contains("<script"));
    }

    #[test]
    fn the_clashes_name_a_taken_name_and_the_name_budget_and_say_none_when_none() {
        let tools = vec![
            ToolDefinition::new("tool_search", "Shadows the runtime's own.", json!({})),
            ToolDefinition::new("mcp/fx/read_file", "Reads.", json!({})),
            ToolDefinition::new("mcp/fx/read_dir", "Lists.", json!({})),
        ];
        let budget = ServeOptions::default().budget(NameBudget::new(10).unwrap());
        let html = page(&server(tools, budget).report(), Mode::Live(&stamp()));
        let clashes = &html[html.find(r#"<section id="clashes""#).unwrap()
            ..html.find(r#"<section id="backends""#).unwrap()];
        assert!(
            clashes.contains(
                r#"data-clash="taken_name">Taken name: <code data-clash-tool="tool_search">"#
            ),
            "{clashes}"
        );
        assert!(
            clashes.contains(
                r#"data-clash="name_budget">Name budget: <code data-clash-tool="mcp/fx/read_file">"#
            ),
            "{clashes}"
        );
        assert!(
            clashes.contains("`mcp/fx/read_dir`"),
            "the other tool is named: {clashes}"
        );

        let clean = server(
            vec![ToolDefinition::new("echo", "Echoes.", json!({}))],
            ServeOptions::default(),
        );
        let html = page(&clean.report(), Mode::File);
        assert!(
            html.contains(r#"<section id="clashes" class="none">"#),
            "{html}"
        );
        assert!(html.contains(r#"data-tool="echo" data-status="offered""#));
        assert!(
            html.contains("<code>echo</code><br><span class=\"muted\">form </span>"),
            "{html}"
        );
    }

    #[test]
    fn a_schema_that_over_restricts_shows_failing_with_why() {
        // An open object: the strict dialects close it, forbidding arguments the tool accepts.
        let open = json!({"type": "object", "properties": {"q": {"type": "string"}}});
        let server = server(
            vec![ToolDefinition::new("mcp/fx/find", "Finds.", open)],
            ServeOptions::default(),
        );
        let report = server.report();
        assert!(report.tools[0].schemas["anthropic-strict"].over_restricts);
        let html = page(&report, Mode::File);
        let start = html.find(r#"data-dialect="anthropic-strict""#).unwrap();
        let item = &html[start..start + html[start..].find("</li>").unwrap()];
        assert!(item.contains(r#"data-fails="true""#), "{item}");
        assert!(
            item.contains(r#"<span class="bad" data-over-restricts>over-restricts: forbids arguments the tool accepts</span>"#),
            "{item}"
        );
        let exact = html.find(r#"data-dialect="openai""#).unwrap();
        let item = &html[exact..exact + html[exact..].find("</li>").unwrap()];
        assert!(!item.contains("over-restricts"), "{item}");
    }

    #[test]
    fn a_duplicate_name_names_the_other_providers_tool() {
        let runtime = ToolRuntime::new();
        tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
            .block_on(async {
                for provider in ["first", "second"] {
                    let tools = vec![ToolDefinition::new("mcp/fx/read", "Reads.", json!({}))];
                    let provider = provider_fn(provider, tools, |_, args| async move { Ok(args) });
                    let _status = runtime.add_provider(Arc::new(provider)).await.unwrap();
                }
            });
        let report = ToolServer::new(runtime, ServeOptions::default()).report();
        let second = &report.tools[1];
        assert_eq!(
            (second.provider.as_str(), second.reason_key),
            ("second", Some("duplicate_name"))
        );
        assert_eq!(second.clashes_with, ["mcp/fx/read"]);
        let html = page(&report, Mode::File);
        assert!(html.contains("(offered, from first)"), "{html}");
        assert!(html.contains("(left out, from second)"), "{html}");
    }

    #[test]
    fn a_live_page_carries_its_stamp_and_no_meta_policy_and_a_file_its_meta_policy() {
        let server = server(
            vec![ToolDefinition::new("echo", "Echoes.", json!({}))],
            ServeOptions::default().restarts(2),
        );
        let live = page(&server.report(), Mode::Live(&stamp()));
        assert!(
            live.contains(r#"<main id="page" data-epoch="00000000000000ab" data-sequence="7">"#),
            "{live}"
        );
        assert!(!live.contains("http-equiv"), "{live}");
        assert!(
            live.contains(r#"data-restarts="0" data-restarts-left="2">0 used, 2 left</td>"#),
            "{live}"
        );
        let file = page(&server.report(), Mode::File);
        assert!(file.contains(r#"<main id="page">"#), "{file}");
        assert!(
            file.contains("http-equiv=\"Content-Security-Policy\""),
            "{file}"
        );
        assert!(
            !file.contains("frame-ancestors"),
            "a meta policy cannot carry it: {file}"
        );
    }
}
