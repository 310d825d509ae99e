//! The Tools page's HTTP rules, served in process (issue 29's review): a `Host` that does not
//! parse (400), an `Origin` that is not text (403), malformed allowed origins skipped, the
//! headers every page answer carries, the report's stamp (the event stream's and the JSON's),
//! and the bound on event streams, which all end when `serve_http`'s future is dropped. Every
//! wait is an answer or an event read, bounded by [`HANG_BOUND`].

use reqwest::header::HeaderValue;
use serde_json::Value;
use toolwire_core::mcp::serve::{HttpOptions, ServeOptions, ToolServer};
use toolwire_test_support::HANG_BOUND;

use crate::{clashing_runtime, server_with, tools_of};

/// Serves `server` on a loopback port: its base URL and the serving task (aborting it drops
/// `serve_http`'s future).
async fn serve(server: ToolServer, options: HttpOptions) -> (String, tokio::task::JoinHandle<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let task = tokio::spawn(async move {
        let _ = server.serve_http(listener, options).await;
    });
    (url, task)
}

async fn send(request: reqwest::RequestBuilder) -> reqwest::Response {
    tokio::time::timeout(HANG_BOUND, request.send())
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

/// The next event of `events` that is not a keep-alive comment.
async fn next_event(events: &mut reqwest::Response, pending: &mut String) -> Option<String> {
    loop {
        if let Some(end) = pending.find("\n\n") {
            let event: String = pending.drain(..end + 2).collect();
            if event.starts_with(':') {
                continue;
            }
            return Some(event);
        }
        let chunk = tokio::time::timeout(HANG_BOUND, events.chunk())
            .await
            .expect("no hang");
        match chunk {
            Ok(Some(chunk)) => pending.push_str(std::str::from_utf8(&chunk).unwrap()),
            // The stream ended (cleanly, or its connection closed).
            Ok(None) | Err(_) => return None,
        }
    }
}

/// An event's stamp: its `data:` line, as JSON.
fn stamp_of(event: &str) -> Value {
    let data = event
        .lines()
        .find_map(|l| l.strip_prefix("data: "))
        .unwrap_or_else(|| panic!("a data line in {event:?}"));
    serde_json::from_str(data).unwrap_or_else(|e| panic!("{data}: {e}"))
}

#[tokio::test]
async fn every_page_answer_carries_its_headers_and_bad_hosts_and_origins_are_refused() {
    let mut options = HttpOptions::default();
    // Malformed entries are skipped, the good one still admits its origin.
    options.allowed_origins = ["http://[", "::*", "%%%", "http://127.0.0.1:*"]
        .map(String::from)
        .to_vec();
    let (url, _task) = serve(
        server_with(clashing_runtime().await, ServeOptions::default()),
        options,
    )
    .await;
    let http = reqwest::Client::new();
    let pinned = |response: &reqwest::Response| {
        assert_eq!(
            header(response, "x-content-type-options"),
            "nosniff",
            "{response:?}"
        );
        assert_eq!(
            header(response, "referrer-policy"),
            "same-origin",
            "{response:?}"
        );
    };

    let page = send(http.get(format!("{url}/tools")).header("origin", &url)).await;
    assert_eq!(page.status(), 200);
    pinned(&page);
    let policy = header(&page, "content-security-policy").to_owned();
    assert!(policy.contains("frame-ancestors 'none'"), "{policy}");
    let html = page.text().await.unwrap();
    assert!(
        !html.contains("http-equiv=\"Content-Security-Policy\""),
        "a live page's policy is its header: {html}"
    );
    let json = send(http.get(format!("{url}/tools.json"))).await;
    assert_eq!(json.status(), 200);
    pinned(&json);

    // A Host that is not a host and port: 400, saying so.
    let bad_host = send(
        http.get(format!("{url}/tools.json"))
            .header("host", "gw.example:port"),
    )
    .await;
    assert_eq!(bad_host.status(), 400);
    pinned(&bad_host);
    assert!(bad_host.text().await.unwrap().contains("Host"));
    // An Origin that is not text is no allowed origin: 403, never read as none.
    let bytes = HeaderValue::from_bytes(b"http://127.0.0.1:1\xff").unwrap();
    let bad_origin = send(
        http.get(format!("{url}/tools.json"))
            .header("origin", bytes),
    )
    .await;
    assert_eq!(bad_origin.status(), 403);
    pinned(&bad_origin);
    let foreign = send(
        http.get(format!("{url}/tools.json"))
            .header("origin", "http://evil.example"),
    )
    .await;
    assert_eq!(foreign.status(), 403);
}

#[tokio::test]
async fn the_stamp_grows_with_each_change_and_the_json_carries_the_events_stamp() {
    let runtime = clashing_runtime().await;
    let (url, _task) = serve(
        server_with(runtime.clone(), ServeOptions::default()),
        HttpOptions::default(),
    )
    .await;
    let http = reqwest::Client::new();
    let json = || async {
        let response = send(http.get(format!("{url}/tools.json"))).await;
        response.json::<Value>().await.unwrap()
    };
    let mut events = send(http.get(format!("{url}/tools/events"))).await;
    let mut pending = String::new();
    let ready = next_event(&mut events, &mut pending).await.expect("ready");
    assert!(ready.contains("event: ready\n"), "{ready}");
    let ready = stamp_of(&ready);
    let before = json().await;
    assert_eq!(
        (&before["epoch"], &before["sequence"]),
        (&ready["epoch"], &ready["sequence"])
    );

    runtime
        .add_provider(tools_of("third", &["echo"]))
        .await
        .unwrap()
        .check()
        .unwrap();
    let change = stamp_of(
        &next_event(&mut events, &mut pending)
            .await
            .expect("a change"),
    );
    let after = json().await;
    assert_eq!(change["epoch"], ready["epoch"]);
    assert!(
        change["sequence"].as_u64().unwrap() > ready["sequence"].as_u64().unwrap(),
        "{change} after {ready}"
    );
    assert_eq!(
        (&after["epoch"], &after["sequence"]),
        (&change["epoch"], &change["sequence"])
    );
    assert!(
        after["tools"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["name"] == "echo"),
        "{after}"
    );
}

#[tokio::test]
async fn at_most_sixteen_event_streams_are_open_and_all_end_when_serving_stops() {
    let (url, task) = serve(
        server_with(clashing_runtime().await, ServeOptions::default()),
        HttpOptions::default(),
    )
    .await;
    let http = reqwest::Client::new();
    let mut streams = Vec::new();
    for _ in 0..16 {
        let mut events = send(http.get(format!("{url}/tools/events"))).await;
        assert_eq!(events.status(), 200);
        let mut pending = String::new();
        let ready = next_event(&mut events, &mut pending).await.expect("ready");
        assert!(ready.contains("event: ready\n"), "{ready}");
        streams.push((events, pending));
    }
    let busy = send(http.get(format!("{url}/tools/events"))).await;
    assert_eq!(busy.status(), 503);
    assert!(!header(&busy, "retry-after").is_empty(), "{busy:?}");
    // The page itself is still served.
    assert_eq!(
        send(http.get(format!("{url}/tools.json"))).await.status(),
        200
    );

    task.abort();
    let _ = task.await;
    for (events, pending) in &mut streams {
        assert_eq!(next_event(events, pending).await, None, "the stream ended");
    }
}
