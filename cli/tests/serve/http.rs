//! The gateway over streamable HTTP: its URL on stderr, rmcp's client through `--token`, a bad
//! token (401), a foreign `Origin` (403), malformed JSON-RPC, and SIGTERM ending every backend;
//! a remote bind (a token required, `--allowed-host`), and idle sockets past the process's file
//! limit (issue 25, point 5).

use std::process::Stdio;

use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::ServiceExt;
use serde_json::json;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::Command;
use toolwire_test_support::grandchild::{exits_within, grandchild_listener};

use crate::{backends, call, census, gateway, line, reached, HANG_BOUND};

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#;

fn post(url: &str, body: &'static str) -> reqwest::RequestBuilder {
    reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(body)
}

#[tokio::test]
async fn over_http_with_a_token_calls_reach_their_tools_and_refusals_are_loud() {
    let (port, pid) = grandchild_listener();
    let mut args = backends(&format!("--spawn-child {port}"));
    args.extend([
        "--http".into(),
        "127.0.0.1:0".into(),
        "--token".into(),
        "s3cret".into(),
    ]);
    let mut child = gateway(&args);
    let mut err = BufReader::new(child.stderr.take().unwrap()).lines();
    census(&mut err).await;
    let listening = line(&mut err).await;
    let url = listening
        .strip_prefix("toolwire serve: listening on ")
        .unwrap_or_else(|| panic!("{listening}"))
        .to_owned();
    assert!(
        url.starts_with("http://127.0.0.1:") && url.ends_with("/mcp"),
        "{url}"
    );

    let config = StreamableHttpClientTransportConfig::with_uri(url.as_str()).auth_header("s3cret");
    let client = ().serve(StreamableHttpClientTransport::from_config(config)).await.unwrap();
    assert_eq!(
        reached(&call(&client, "mcp_fx_files_stat", json!({})).await),
        "stat"
    );
    assert_eq!(
        reached(&call(&client, "mcp/fx_files/read", json!({})).await),
        "read"
    );

    assert_eq!(post(&url, INITIALIZE).send().await.unwrap().status(), 401);
    let wrong = post(&url, INITIALIZE)
        .bearer_auth("guess")
        .send()
        .await
        .unwrap();
    assert_eq!(wrong.status(), 401);
    let foreign = post(&url, INITIALIZE)
        .bearer_auth("s3cret")
        .header("origin", "http://evil.example")
        .send()
        .await
        .unwrap();
    assert_eq!(foreign.status(), 403);
    let malformed = post(&url, "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\":")
        .bearer_auth("s3cret")
        .send()
        .await
        .unwrap();
    assert!(
        malformed.status().is_client_error(),
        "{}",
        malformed.status()
    );
    // The session goes on after all of that.
    assert_eq!(
        reached(&call(&client, "mcp_fx_echo", json!({})).await),
        "echo"
    );
    drop(client);

    let grandchild = pid.recv_timeout(HANG_BOUND).expect("the grandchild's pid");
    // SAFETY: a signal to the child this test started.
    unsafe { libc::kill(child.id().unwrap() as i32, libc::SIGTERM) };
    let status = tokio::time::timeout(HANG_BOUND, child.wait())
        .await
        .unwrap()
        .unwrap();
    assert!(status.success(), "{status}");
    assert!(
        exits_within(grandchild, HANG_BOUND),
        "the grandchild outlived SIGTERM"
    );
}

/// A client that forwards each `notifications/tools/list_changed` to a channel.
#[derive(Clone)]
struct Watcher(tokio::sync::mpsc::UnboundedSender<()>);

impl rmcp::ClientHandler for Watcher {
    async fn on_tool_list_changed(
        &self,
        _context: rmcp::service::NotificationContext<rmcp::RoleClient>,
    ) {
        let _ = self.0.send(());
    }
}

#[tokio::test]
async fn with_a_deferred_catalog_two_http_sessions_load_their_own_tools() {
    let mut args = backends("");
    args.extend([
        "--http".into(),
        "127.0.0.1:0".into(),
        "--catalog".into(),
        "deferred".into(),
    ]);
    let mut child = gateway(&args);
    let mut err = BufReader::new(child.stderr.take().unwrap()).lines();
    census(&mut err).await;
    let listening = line(&mut err).await;
    let url = listening
        .trim_start_matches("toolwire serve: listening on ")
        .to_owned();
    let connect = || async {
        let (send, changes) = tokio::sync::mpsc::unbounded_channel();
        let transport = StreamableHttpClientTransport::from_config(
            StreamableHttpClientTransportConfig::with_uri(url.as_str()),
        );
        (Watcher(send).serve(transport).await.unwrap(), changes)
    };
    let ((a, mut a_changes), (b, _)) = (connect().await, connect().await);
    let meta = ["tool_search", "tool_schema", "reset_tools"];
    assert_eq!(served_names(&a).await, meta);
    let params = rmcp::model::CallToolRequestParams::new("tool_schema").with_arguments(
        json!({"name": "mcp/fx_files/stat"})
            .as_object()
            .unwrap()
            .clone(),
    );
    let loaded = a.call_tool(params).await.unwrap();
    assert_ne!(loaded.is_error, Some(true), "{loaded:?}");
    tokio::time::timeout(HANG_BOUND, a_changes.recv())
        .await
        .expect("session a hears list_changed")
        .unwrap();
    assert_eq!(
        served_names(&a).await,
        [&meta[..], &["mcp_fx_files_stat"]].concat()
    );
    assert_eq!(served_names(&b).await, meta);
    drop((a, b));
    // SAFETY: a signal to the child this test started.
    unsafe { libc::kill(child.id().unwrap() as i32, libc::SIGINT) };
    let status = tokio::time::timeout(HANG_BOUND, child.wait())
        .await
        .unwrap()
        .unwrap();
    assert!(status.success(), "{status}");
}

async fn served_names(
    client: &rmcp::service::RunningService<rmcp::RoleClient, Watcher>,
) -> Vec<String> {
    client
        .list_all_tools()
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.name.into_owned())
        .collect()
}

#[tokio::test]
async fn a_remote_bind_without_a_token_is_refused_saying_what_to_give() {
    let remote = ["--http", "0.0.0.0:0", "--allow-remote"];
    refused_without_a_token(&remote, "needs a token").await;
    // Behind a load balancer on a public name the gateway binds loopback, but its clients are
    // elsewhere all the same; an empty token is no token.
    let public_name = ["--http", "127.0.0.1:0", "--allowed-host", "gw.example"];
    refused_without_a_token(&public_name, "--allowed-host gw.example").await;
    let empty = ["--http", "0.0.0.0:0", "--allow-remote", "--token", ""];
    refused_without_a_token(&empty, "the token is empty").await;
}

/// Runs the gateway with `flags` and no token in the environment: it must exit 2, saying
/// `says` and how to give a token.
async fn refused_without_a_token(flags: &[&str], says: &str) {
    let said = refused_at_start(flags).await;
    assert!(
        said.contains(says) && said.contains("--token"),
        "{flags:?}: {said}"
    );
    if says != "the token is empty" {
        assert!(said.contains("TOOLWIRE_SERVE_TOKEN"), "{flags:?}: {said}");
    }
}

/// Runs the gateway over the fixture backends with `flags` and no token in the environment:
/// it must exit 2 before serving; what it said on stderr.
async fn refused_at_start(flags: &[&str]) -> String {
    let mut args = backends("");
    args.extend(flags.iter().map(|f| f.to_string()));
    let child = Command::new(env!("CARGO_BIN_EXE_toolwire"))
        .arg("serve")
        .args(&args)
        .env_remove("TOOLWIRE_SERVE_TOKEN")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let out = tokio::time::timeout(HANG_BOUND, child.wait_with_output())
        .await
        .expect("no hang")
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{flags:?}: {out:?}");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[tokio::test]
async fn a_remote_bind_with_a_token_serves_the_hosts_it_names_and_no_other() {
    let mut args = backends("");
    args.extend(
        [
            "--http",
            "0.0.0.0:0",
            "--allow-remote",
            "--token",
            "s3cret",
            "--allowed-host",
            "gw.example",
        ]
        .map(String::from),
    );
    let mut child = gateway(&args);
    let mut err = BufReader::new(child.stderr.take().unwrap()).lines();
    census(&mut err).await;
    let listening = line(&mut err).await;
    let port = listening
        .rsplit(':')
        .next()
        .unwrap()
        .trim_end_matches("/mcp");
    let url = format!("http://127.0.0.1:{port}/mcp");
    let as_host = |host: &str| {
        post(&url, INITIALIZE)
            .bearer_auth("s3cret")
            .header("host", host)
            .send()
    };
    assert_eq!(as_host("gw.example").await.unwrap().status(), 200);
    assert_eq!(
        as_host(&format!("gw.example:{port}"))
            .await
            .unwrap()
            .status(),
        200
    );
    assert_eq!(as_host("evil.example").await.unwrap().status(), 403);
    // `Host: localhost` passes the rebinding check, but not without the token.
    let no_token = post(&url, INITIALIZE)
        .header("host", "localhost")
        .send()
        .await
        .unwrap();
    assert_eq!(no_token.status(), 401);
}

/// Under a limit of 256 file descriptors, 300 idle connections: the gateway stops accepting
/// while it is out of descriptors, says so, and serves again once they close; its backends
/// never noticed. (Before, the first `EMFILE` ended the gateway and every backend with it.)
#[tokio::test]
async fn three_hundred_idle_sockets_under_a_256_fd_limit_do_not_end_the_gateway() {
    let mut args = backends("");
    args.extend(["--http".into(), "127.0.0.1:0".into()]);
    let mut command = Command::new(env!("CARGO_BIN_EXE_toolwire"));
    command
        .arg("serve")
        .args(&args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    // SAFETY: setrlimit is async-signal-safe; the closure touches nothing else.
    unsafe {
        command.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: 256,
                rlim_max: 256,
            };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &limit) == 0 {
                Ok(())
            } else {
                Err(std::io::Error::last_os_error())
            }
        });
    }
    let mut child = command.spawn().expect("the toolwire binary runs");
    let mut err = BufReader::new(child.stderr.take().unwrap()).lines();
    census(&mut err).await;
    let listening = line(&mut err).await;
    let url = listening
        .trim_start_matches("toolwire serve: listening on ")
        .to_owned();
    let addr = url
        .trim_start_matches("http://")
        .trim_end_matches("/mcp")
        .to_owned();
    let mut idle = Vec::new();
    for _ in 0..300 {
        idle.push(tokio::net::TcpStream::connect(&addr).await.unwrap());
    }
    // The gateway says it ran out and goes on (it would have exited: stderr would end).
    loop {
        let said = line(&mut err).await;
        if said.contains("accepting an HTTP connection failed") {
            break;
        }
    }
    drop(idle);
    let config = StreamableHttpClientTransportConfig::with_uri(url.as_str());
    let client = tokio::time::timeout(
        HANG_BOUND,
        ().serve(StreamableHttpClientTransport::from_config(config)),
    )
    .await
    .expect("no hang")
    .expect("the gateway answers again");
    assert_eq!(
        reached(&call(&client, "mcp_fx_echo", json!({})).await),
        "echo"
    );
    assert_eq!(
        reached(&call(&client, "mcp_fx_files_stat", json!({})).await),
        "stat"
    );
    drop(client);
    assert!(
        child.try_wait().unwrap().is_none(),
        "the gateway is serving"
    );
}

#[tokio::test]
async fn a_deferred_catalog_in_a_dialect_that_refuses_tool_call_is_refused_at_start() {
    // A strict dialect closes every object, and `tool_call`'s `arguments` is an object of any
    // keys: a 2026-07-28 client would list the meta-tools and have no way to run what it finds.
    let said = refused_at_start(&["--catalog", "deferred", "--dialect", "openai-strict"]).await;
    assert!(
        said.contains("`tool_call` cannot be served") && said.contains("--dialect"),
        "{said}"
    );
}
