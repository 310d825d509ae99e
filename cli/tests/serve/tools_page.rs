//! The Tools page of `toolwire serve --http` (issue 29, §1) over the two clashing fixture
//! servers: `/tools` and `/tools.json` behind the MCP endpoint's `Host` and token rules, the
//! login form and its cookie, and the event stream that says when a backend crashed and came
//! back. Every wait is an answer or an event read, bounded by [`HANG_BOUND`].

use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::ServiceExt;
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, BufReader};

use crate::{backends, call, census, gateway, line, reached, HANG_BOUND};

/// A gateway over the two fixture servers with `extra` flags, and its base URL
/// (`http://127.0.0.1:PORT`), read from the line that names the Tools page.
async fn page_gateway(extra: &[&str]) -> (tokio::process::Child, String) {
    let mut args = backends("");
    args.extend(["--http", "127.0.0.1:0"].map(String::from));
    args.extend(extra.iter().map(|a| a.to_string()));
    let mut child = gateway(&args);
    let mut err = BufReader::new(child.stderr.take().unwrap()).lines();
    census(&mut err).await;
    let _listening = line(&mut err).await;
    let page = line(&mut err).await;
    let url = page
        .strip_prefix("toolwire serve: the Tools page is ")
        .unwrap_or_else(|| panic!("{page}"))
        .trim_end_matches("/tools")
        .to_owned();
    // The rest of stderr is read away, so the gateway never blocks on a full pipe.
    tokio::spawn(async move { while let Ok(Some(_)) = err.next_line().await {} });
    (child, url)
}

fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}

async fn body(response: reqwest::Response) -> String {
    tokio::time::timeout(HANG_BOUND, response.text())
        .await
        .expect("no hang")
        .unwrap()
}

fn header<'a>(response: &'a reqwest::Response, name: &str) -> &'a str {
    response
        .headers()
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
}

#[tokio::test]
async fn with_a_token_a_browser_logs_in_with_a_form_and_a_cookie_and_never_a_url() {
    let (_child, url) = page_gateway(&["--token", "s3cret"]).await;
    let http = client();
    let get = |path: &str| http.get(format!("{url}{path}"));

    // No cookie: the login form, 401; the token in a URL opens nothing.
    let form = get("/tools").send().await.unwrap();
    assert_eq!(form.status(), 401);
    assert_eq!(header(&form, "content-type"), "text/html; charset=utf-8");
    let form = body(form).await;
    assert!(
        form.contains(r#"<form method="post" action="/tools/login">"#),
        "{form}"
    );
    assert!(form.contains(r#"name="token""#), "{form}");
    assert!(!form.contains(r#"<section id="tools""#));
    assert_eq!(
        get("/tools?token=s3cret").send().await.unwrap().status(),
        401
    );
    assert_eq!(get("/tools.json").send().await.unwrap().status(), 401);
    assert_eq!(get("/tools/events").send().await.unwrap().status(), 401);
    // A script shows the bearer token, as to the MCP endpoint.
    let json = get("/tools.json")
        .bearer_auth("s3cret")
        .send()
        .await
        .unwrap();
    assert_eq!(json.status(), 200);
    assert_eq!(header(&json, "content-type"), "application/json");
    let report: Value = serde_json::from_str(&body(json).await).unwrap();
    let echo = report["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "mcp/fx/echo");
    assert_eq!(echo.unwrap()["served"], "mcp_fx_echo", "{report}");
    // A foreign Host is refused even with the token (DNS rebinding), as MCP's is.
    let foreign = get("/tools.json")
        .bearer_auth("s3cret")
        .header("host", "evil.example")
        .send()
        .await
        .unwrap();
    assert_eq!(foreign.status(), 403);

    let origin = url.clone();
    let login = |token: &'static str, origin: Option<String>| {
        let mut request = http
            .post(format!("{url}/tools/login"))
            .header("content-type", "application/x-www-form-urlencoded")
            .body(format!("token={token}"));
        if let Some(origin) = origin {
            request = request.header("origin", origin);
        }
        request.send()
    };
    // A wrong token: 401 and the form again, saying so.
    let wrong = login("guess", Some(origin.clone())).await.unwrap();
    assert_eq!(wrong.status(), 401);
    assert!(header(&wrong, "set-cookie").is_empty());
    assert!(body(wrong).await.contains("not this gateway's"));
    // Another site's form (another loopback port is another origin), or no page at all.
    let port = origin.rsplit(':').next().unwrap().parse::<u16>().unwrap();
    let elsewhere = format!("http://127.0.0.1:{}", port.wrapping_add(1));
    assert_eq!(
        login("s3cret", Some(elsewhere)).await.unwrap().status(),
        403
    );
    assert_eq!(login("s3cret", None).await.unwrap().status(), 403);

    let welcome = login("s3cret", Some(origin)).await.unwrap();
    assert_eq!(welcome.status(), 303);
    assert_eq!(header(&welcome, "location"), "/tools");
    let set_cookie = header(&welcome, "set-cookie").to_owned();
    let flags: Vec<&str> = set_cookie.split("; ").skip(1).collect();
    assert_eq!(
        flags,
        ["HttpOnly", "SameSite=Strict", "Path=/tools"],
        "{set_cookie}"
    );
    assert!(!set_cookie.contains("s3cret"));
    let cookie = set_cookie.split(';').next().unwrap().to_owned();

    let page = get("/tools")
        .header("cookie", &cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), 200);
    assert_eq!(header(&page, "content-type"), "text/html; charset=utf-8");
    let policy = header(&page, "content-security-policy").to_owned();
    assert!(policy.contains("script-src 'sha256-"), "{policy}");
    let page = body(page).await;
    let at = |needle: &str| {
        page.find(needle)
            .unwrap_or_else(|| panic!("{needle} in {page}"))
    };
    assert!(at(r#"<section id="clashes""#) < at(r#"<section id="backends""#));
    assert!(at(r#"<section id="backends""#) < at(r#"<section id="tools""#));
    at(r#"data-backend="mcp/fx" data-health="running""#);
    at(r#"data-backend="mcp/fx_files""#);
    // The clash across the two servers, both tools by real name, first.
    let clash = at(r#"data-form="mcp_fx_files_read""#);
    assert!(clash < at(r#"<section id="backends""#));
    at(r#"data-clash-tool="mcp/fx/files/read""#);
    at(r#"data-clash-tool="mcp/fx_files/read""#);
    at(r#"data-tool="mcp/fx/echo" data-status="offered""#);
    at(r#"data-tool="mcp/fx_files/read" data-status="left_out""#);
    assert_eq!(
        get("/tools.json")
            .header("cookie", &cookie)
            .send()
            .await
            .unwrap()
            .status(),
        200
    );
    // The cookie is the page's alone: the MCP endpoint still wants the bearer token.
    let mcp = http
        .post(format!("{url}/mcp"))
        .header("cookie", &cookie)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(mcp.status(), 401);
}

/// The next server-sent event of `events` (its lines up to the blank one), chunk by chunk.
async fn next_event(events: &mut reqwest::Response, pending: &mut String) -> String {
    loop {
        if let Some(end) = pending.find("\n\n") {
            let event: String = pending.drain(..end + 2).collect();
            if event.starts_with(':') {
                continue; // a keep-alive comment
            }
            return event;
        }
        let chunk = tokio::time::timeout(HANG_BOUND, events.chunk())
            .await
            .expect("no hang")
            .unwrap()
            .expect("the stream goes on");
        pending.push_str(std::str::from_utf8(&chunk).unwrap());
    }
}

async fn backend(url: &str, name: &str) -> Value {
    let report: Value = client()
        .get(format!("{url}/tools.json"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    report["providers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == name)
        .cloned()
        .unwrap_or_else(|| panic!("{name} in {report}"))
}

#[tokio::test]
async fn behind_a_tls_proxy_a_browser_at_an_allowed_host_logs_in_with_a_secure_cookie() {
    let (_child, url) = page_gateway(&["--token", "s3cret", "--allowed-host", "gw.example"]).await;
    let http = client();
    // What a TLS-terminating proxy forwards of a browser at https://gw.example/tools: the
    // browser's Host and (on the POST) its same-origin Origin, and the scheme it used.
    let login = |origin: &'static str| {
        http.post(format!("{url}/tools/login"))
            .header("host", "gw.example")
            .header("x-forwarded-proto", "https")
            .header("origin", origin)
            .header("content-type", "application/x-www-form-urlencoded")
            .body("token=s3cret")
            .send()
    };
    let welcome = login("https://gw.example").await.unwrap();
    assert_eq!(welcome.status(), 303, "{:?}", welcome.headers());
    let set_cookie = header(&welcome, "set-cookie").to_owned();
    let flags: Vec<&str> = set_cookie.split("; ").skip(1).collect();
    assert_eq!(
        flags,
        ["HttpOnly", "SameSite=Strict", "Path=/tools", "Secure"],
        "{set_cookie}"
    );
    let cookie = set_cookie.split(';').next().unwrap().to_owned();
    let page = http
        .get(format!("{url}/tools"))
        .header("host", "gw.example")
        .header("cookie", &cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), 200);
    assert!(body(page).await.contains(r#"<section id="tools""#));
    // Another site's page at the same gateway is still refused, and so is a rebound name.
    assert_eq!(login("https://evil.example").await.unwrap().status(), 403);
    let rebound = http
        .post(format!("{url}/tools/login"))
        .header("host", "evil.example")
        .header("origin", "https://evil.example")
        .body("token=s3cret")
        .send()
        .await
        .unwrap();
    assert_eq!(rebound.status(), 403);
}

#[tokio::test]
async fn the_event_stream_says_when_a_backend_crashes_and_when_it_is_restarted() {
    let (_child, url) = page_gateway(&[]).await;
    let mut events = client()
        .get(format!("{url}/tools/events"))
        .send()
        .await
        .unwrap();
    assert_eq!(events.status(), 200);
    assert_eq!(header(&events, "content-type"), "text/event-stream");
    let mut pending = String::new();
    let ready = next_event(&mut events, &mut pending).await;
    assert!(ready.contains("event: ready\n"), "{ready}");
    let fx = backend(&url, "mcp/fx").await;
    assert_eq!(
        (&fx["health"], &fx["restarts"], &fx["restarts_left"]),
        (&json!("running"), &json!(0), &json!(3)),
        "{fx}"
    );
    let sequence = || async {
        let report: Value = client()
            .get(format!("{url}/tools.json"))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        report["sequence"]
            .as_u64()
            .unwrap_or_else(|| panic!("a sequence in {report}"))
    };
    let at_start = sequence().await;

    let config = StreamableHttpClientTransportConfig::with_uri(format!("{url}/mcp"));
    let mcp = ().serve(StreamableHttpClientTransport::from_config(config)).await.unwrap();
    let crashed = call(&mcp, "mcp_fx_crash", json!({})).await;
    assert_eq!(crashed.is_error, Some(true), "{crashed:?}");
    let change = next_event(&mut events, &mut pending).await;
    assert!(change.starts_with("data: "), "{change}");
    let fx = backend(&url, "mcp/fx").await;
    assert_eq!(
        (&fx["health"], &fx["restarts"], &fx["restarts_left"]),
        (&json!("failed"), &json!(0), &json!(3)),
        "{fx}"
    );
    let after_crash = sequence().await;
    assert!(after_crash > at_start, "{after_crash} after {at_start}");

    // The next call restarts it: the stream says so, and the page counts the restart.
    assert_eq!(reached(&call(&mcp, "mcp_fx_echo", json!({})).await), "echo");
    let restart = next_event(&mut events, &mut pending).await;
    assert!(restart.starts_with("data: "), "{restart}");
    let fx = backend(&url, "mcp/fx").await;
    assert_eq!(
        (&fx["health"], &fx["restarts"], &fx["restarts_left"]),
        (&json!("running"), &json!(1), &json!(2)),
        "{fx}"
    );
    let after_restart = sequence().await;
    assert!(
        after_restart > after_crash,
        "{after_restart} after {after_crash}"
    );
}
