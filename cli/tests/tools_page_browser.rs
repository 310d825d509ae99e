//! The Tools page in a real browser (issue 29, point 3): headless Chromium (Debian's
//! `chromium`; `scripts/setup.sh` installs it, and this test fails without it) loads `/tools`
//! from the built `toolwire serve --http --token` over two fixture MCP servers whose tools clash
//! (`fx`, the default set with `--markup`, and `fx_files`, `--second-set`), logs in through the
//! page's form, and reads what a person sees, from the rendered DOM (`innerText`, element
//! order, layout), not the HTML source:
//! - the clashes come first, naming every tool of a clash by its real name;
//! - every left-out tool's row says why (a shared form, the name budget of `--max-name-len 20`);
//! - `fx` crashes (its `crash` tool ends the process mid-call; `--restarts 0` leaves it failed)
//!   and its row says so without a reload: the wait is on the DOM change itself, and a value
//!   set in the page before the crash is still there after it;
//! - the `<script>` and `<img onerror>` in `markup`'s description show as text, no element
//!   made of them, and `document.title` never became `injected`.
//!
//! The page fits the 1280-pixel window (no horizontal overflow). Screenshots are saved under the
//! target dir (the paths are printed): before the crash, `tmp/tools-page.png` (the whole page,
//! the clashes and reasons in view) and `tmp/tools-page-top.png` (its first screen), of which
//! `docs/tools-page.png` is a copy; after it, `tmp/tools-page-crashed.png`. Run alone:
//! `cargo test -p toolwire-cli --test tools_page_browser -- --nocapture`.
//!
//! No sleep: the gateway is ready when it prints its URL, a page when its load event fires, its
//! live refresh when its event stream's `ready` event arrives (the crash comes after it), a DOM
//! condition when a `MutationObserver` sees it hold; each wait is bounded by [`HANG_BOUND`].

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

use rmcp::model::CallToolRequestParams;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::ServiceExt;
use serde_json::Value;
use toolwire_test_support::browser::Browser;
use toolwire_test_support::fixture_server::fixture_server;
use toolwire_test_support::HANG_BOUND;

/// The gateway's `--token`, typed into the login form.
const TOKEN: &str = "page-s3cret";

/// `toolwire serve --http 127.0.0.1:0` (the built binary), SIGTERMed and reaped on drop (it
/// then ends its backends).
struct Gateway {
    child: Child,
    /// `http://127.0.0.1:PORT`, from its `listening on …/mcp` line.
    origin: String,
}

impl Gateway {
    fn start(args: &[String]) -> Gateway {
        let mut child = Command::new(env!("CARGO_BIN_EXE_toolwire"))
            .args(["serve", "--http", "127.0.0.1:0"])
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the toolwire binary runs");
        let read = toolwire_test_support::stderr_lines(&mut child);
        let mut gateway = Gateway {
            child,
            origin: String::new(),
        };
        const LISTENING: &str = "toolwire serve: listening on ";
        let mut seen = Vec::new();
        while gateway.origin.is_empty() {
            let line = read.recv_timeout(HANG_BOUND).unwrap_or_else(|_| {
                panic!(
                    "the gateway printed no URL; it printed:\n{}",
                    seen.join("\n")
                )
            });
            if let Some(url) = line.strip_prefix(LISTENING) {
                gateway.origin = url
                    .trim()
                    .strip_suffix("/mcp")
                    .unwrap_or_else(|| panic!("{line}"))
                    .to_owned();
            }
            seen.push(line);
        }
        gateway
    }
}

impl Drop for Gateway {
    fn drop(&mut self) {
        // SAFETY: a signal to the child this test started.
        unsafe { libc::kill(self.child.id() as i32, libc::SIGTERM) };
        let _ = self.child.wait();
    }
}

/// Calls `fx`'s `crash` through the gateway's MCP endpoint: the backend exits mid-call.
fn crash_fx(gateway: &Gateway) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let config =
            StreamableHttpClientTransportConfig::with_uri(format!("{}/mcp", gateway.origin))
                .auth_header(TOKEN);
        let client = tokio::time::timeout(
            HANG_BOUND,
            ().serve(StreamableHttpClientTransport::from_config(config)),
        )
        .await
        .expect("no hang")
        .expect("an MCP session with the gateway");
        let answer = tokio::time::timeout(
            HANG_BOUND,
            client.call_tool(CallToolRequestParams::new("mcp_fx_crash")),
        )
        .await
        .expect("no hang");
        // The gateway answers a crashed call with an error (a tool error or a JSON-RPC one).
        assert!(
            answer
                .as_ref()
                .map_or(true, |result| result.is_error == Some(true)),
            "the crash call came back as a success: {answer:?}"
        );
        let _ = client.cancel().await;
    });
}

/// What a person sees of the page now, read from the rendered DOM.
#[derive(Debug)]
struct Seen {
    /// The `<section>` ids, in document order.
    sections: Vec<String>,
    /// Whether `#clashes` is drawn above `#backends` and `#tools` (its box's top is higher).
    clashes_drawn_first: bool,
    clashes: String,
    /// Each backend row's `innerText`, by `data-backend`.
    backends: serde_json::Map<String, Value>,
    /// Each tool row's `innerText`, by `data-tool`.
    tools: serde_json::Map<String, Value>,
    /// The elements inside `markup`'s row that are a `<script>` or an `<img>`.
    markup_elements: u64,
    title: String,
}

fn read_page(browser: &mut Browser) -> Seen {
    let seen = browser.evaluate(
        r#"(() => {
            const text = (e) => e ? e.innerText : null;
            const rows = (attribute) => Object.fromEntries(
                [...document.querySelectorAll(`[${attribute}]`)]
                    .map((e) => [e.getAttribute(attribute), e.innerText]));
            const top = (id) => document.getElementById(id)?.getBoundingClientRect().top;
            const markup = document.querySelector('[data-tool="mcp/fx/markup"]');
            return {
                sections: [...document.querySelectorAll('section[id]')].map((s) => s.id),
                clashes_drawn_first: top('clashes') < top('backends') && top('clashes') < top('tools'),
                clashes: text(document.getElementById('clashes')),
                backends: rows('data-backend'),
                tools: rows('data-tool'),
                markup_elements: markup ? markup.querySelectorAll('script, img').length : -1,
                title: document.title,
            };
        })()"#,
    );
    let field = |name: &str| seen[name].clone();
    Seen {
        sections: serde_json::from_value(field("sections")).expect("section ids"),
        clashes_drawn_first: field("clashes_drawn_first") == true,
        clashes: field("clashes").as_str().unwrap_or_default().to_owned(),
        backends: field("backends").as_object().cloned().unwrap_or_default(),
        tools: field("tools").as_object().cloned().unwrap_or_default(),
        markup_elements: field("markup_elements").as_u64().unwrap_or(u64::MAX),
        title: field("title").as_str().unwrap_or_default().to_owned(),
    }
}

/// The row's text, lowercased (the words are read, not their case); fails naming the row.
fn row(rows: &serde_json::Map<String, Value>, name: &str) -> String {
    rows.get(name)
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("no row for {name}; the rows: {rows:#?}"))
        .to_lowercase()
}

/// `markup`'s description as the fixture lists it, which the row must show as text.
const MARKUP_TEXT: [&str; 2] = [
    r#"<script>document.title = "injected"</script>"#,
    r#"<img src="x" onerror="document.title = 'injected'">"#,
];

/// The markup shows as text, made no element, and ran nothing.
fn markup_is_text(seen: &Seen) {
    let markup = seen
        .tools
        .get("mcp/fx/markup")
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("no row for mcp/fx/markup: {:#?}", seen.tools));
    for text in MARKUP_TEXT {
        assert!(
            markup.contains(text),
            "{text} is not shown as text: {markup}"
        );
    }
    assert_eq!(seen.markup_elements, 0, "the description made elements");
    assert_ne!(seen.title, "injected", "the description's markup ran");
}

#[test]
fn the_tools_page_in_chromium_shows_clashes_first_the_reasons_and_a_crash_without_a_reload() {
    // First, so a missing Chromium fails before anything else starts.
    let mut browser = Browser::start();
    let fixture = fixture_server();
    let fixture = fixture.to_str().unwrap();
    let gateway = Gateway::start(&[
        "--token".into(),
        TOKEN.into(),
        "--restarts".into(),
        "0".into(),
        "--max-name-len".into(),
        "20".into(),
        "--mcp-stdio".into(),
        format!("fx={fixture} --markup"),
        "--mcp-stdio".into(),
        format!("fx_files={fixture} --second-set"),
    ]);
    let page = format!("{}/tools", gateway.origin);

    // Without the cookie the page is a login form, and shows no tool.
    browser.navigate(&page);
    browser.wait_for(
        "document.querySelector('form input[name=token]') !== null",
        "the login form",
    );
    assert_eq!(
        browser.evaluate("document.getElementById('tools') === null"),
        true,
        "the tools show before a login"
    );
    browser.type_into("form input[name=token]", TOKEN);
    browser.click_and_wait_for_load("form button, form input[type=submit]");
    browser.wait_for(
        "document.getElementById('clashes') && document.querySelector('[data-backend]')",
        "the Tools page after the login",
    );
    let place = browser.evaluate("location.pathname + location.search + location.hash");
    assert_eq!(place, "/tools", "the page after the login");
    // The login's cookie is HttpOnly: no script of the page sees it (nor any other cookie).
    assert_eq!(
        browser.evaluate("document.cookie"),
        "",
        "a script sees a cookie"
    );

    let before = read_page(&mut browser);
    assert_eq!(
        before.sections.first().map(String::as_str),
        Some("clashes"),
        "{:?}",
        before.sections
    );
    assert!(
        before.sections.iter().any(|s| s == "backends")
            && before.sections.iter().any(|s| s == "tools"),
        "{:?}",
        before.sections
    );
    assert!(
        before.clashes_drawn_first,
        "the clashes are not drawn at the top"
    );
    // Both clashes by their tools' real names: across the backends, and within `fx`.
    for tool in [
        "mcp/fx/files/read",
        "mcp/fx_files/read",
        "mcp/fx/search.web",
        "mcp/fx/search_web",
    ] {
        assert!(
            before.clashes.contains(tool),
            "{tool} is not in the clashes: {}",
            before.clashes
        );
    }
    // A backend is named as its tools' prefix is: `mcp/NAME`.
    for backend in ["mcp/fx", "mcp/fx_files"] {
        let health = row(&before.backends, backend);
        assert!(health.contains("running"), "{backend}: {health}");
    }
    // Each left-out tool says why in the census's words, naming the tool in its way.
    for (tool, reason, other) in [
        (
            "mcp/fx/files/read",
            "it shares its form with",
            "`mcp/fx_files/read`",
        ),
        (
            "mcp/fx_files/read",
            "it shares its form with",
            "`mcp/fx/files/read`",
        ),
        (
            "mcp/fx/search.web",
            "it shares its form with",
            "`mcp/fx/search_web`",
        ),
        (
            "mcp/fx_files/report_daily",
            "under the name budget of 20 characters",
            "`mcp/fx_files/report_weekly`",
        ),
        (
            "mcp/fx_files/report_weekly",
            "under the name budget of 20 characters",
            "`mcp/fx_files/report_daily`",
        ),
    ] {
        let said = row(&before.tools, tool);
        assert!(
            said.contains("left out") && said.contains(reason) && said.contains(other),
            "{tool}'s row does not say it is left out, \"{reason}\", {other}: {said}"
        );
    }
    let stat = row(&before.tools, "mcp/fx_files/stat");
    assert!(
        stat.contains("offered") && !stat.contains("left out"),
        "mcp/fx_files/stat: {stat}"
    );
    markup_is_text(&before);

    // The page fits a laptop's window: no name widens it past the viewport.
    let overflow = browser
        .evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth");
    assert_eq!(
        overflow, 0,
        "the page is wider than the window by {overflow} px"
    );
    // The screenshot for the README, before the crash: the clashes and the reasons.
    let artifacts = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    for (name, height) in [("tools-page.png", None), ("tools-page-top.png", Some(1000))] {
        let screenshot = artifacts.join(name);
        browser.screenshot(&screenshot, height);
        println!("the Tools page before fx crashed: {}", screenshot.display());
    }

    // A value of this document: a reload would lose it.
    browser.evaluate("window.toolwireBeforeTheCrash = 'kept'");
    // The page's event stream opens with `ready`: a change after it reaches the page.
    browser.wait_for_event_source("ready");
    crash_fx(&gateway);
    browser.wait_for(
        r#"document.querySelector('[data-backend="mcp/fx"]')?.innerText.toLowerCase().includes('failed')"#,
        "fx marked failed",
    );
    assert_eq!(
        browser.evaluate("window.toolwireBeforeTheCrash"),
        "kept",
        "the page was reloaded"
    );
    let after = read_page(&mut browser);
    let fx = row(&after.backends, "mcp/fx");
    assert!(!fx.contains("running"), "fx: {fx}");
    let fx_files = row(&after.backends, "mcp/fx_files");
    assert!(fx_files.contains("running"), "fx_files: {fx_files}");
    assert_eq!(after.sections.first().map(String::as_str), Some("clashes"));
    markup_is_text(&after);

    let screenshot = artifacts.join("tools-page-crashed.png");
    browser.screenshot(&screenshot, None);
    println!("the Tools page after fx crashed: {}", screenshot.display());
}
