//! The gateway over stdio: served names, hop 5 to exactly the backend tool, the shared form
//! left out loudly, a budget that makes a clash, a backend killed mid-call and restarted, and
//! no process left once stdin closes.

use rmcp::ServiceExt;
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, BufReader};
use toolwire_core::mcp::serve::is_mcp_tool_name;
use toolwire_core::wire::{check_definition_name, LlmProvider};
use toolwire_test_support::grandchild::{exits_within, grandchild_listener};

use crate::{backends, call, census, gateway, line, reached, text, HANG_BOUND};

#[tokio::test]
async fn every_served_name_is_valid_and_every_call_reaches_exactly_its_backend_tool() {
    let mut child = gateway(&backends(""));
    let mut err = BufReader::new(child.stderr.take().unwrap()).lines();
    let census = census(&mut err).await.join("\n");
    // The shared form is left out loudly, both tools named.
    for real in ["mcp/fx/files/read", "mcp/fx_files/read"] {
        assert!(
            census.contains(&format!(
                "tool `{real}` (sent as `mcp_fx_files_read`) is left out"
            )),
            "{census}"
        );
    }
    let client =
        ().serve((child.stdout.take().unwrap(), child.stdin.take().unwrap()))
            .await
            .unwrap();
    let tools = client.list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| &*t.name).collect();
    assert!(
        names.contains(&"mcp_fx_files_stat") && names.contains(&"mcp_fx_echo"),
        "{names:?}"
    );
    assert!(!names.contains(&"mcp_fx_files_read"));
    let mut seen = std::collections::BTreeSet::new();
    for name in &names {
        assert!(seen.insert(*name), "{name} is served twice");
        assert!(is_mcp_tool_name(name), "{name}");
        for provider in LlmProvider::ALL {
            assert_eq!(check_definition_name(provider, name), Ok(()), "{name}");
        }
    }
    // By served name and by real name: exactly the backend tool, never the other server's.
    for (called, bare) in [
        ("mcp_fx_files_stat", "stat"),
        ("mcp/fx_files/read", "read"),
        ("mcp/fx/files/read", "files/read"),
        ("mcp_fx_echo", "echo"),
        ("mcp/fx/search.web", "search.web"),
    ] {
        let arguments = if bare == "files/read" {
            json!({"path": "a"})
        } else {
            json!({})
        };
        assert_eq!(
            reached(&call(&client, called, arguments).await),
            bare,
            "{called}"
        );
    }
    drop(client);
    let status = tokio::time::timeout(HANG_BOUND, child.wait())
        .await
        .unwrap()
        .unwrap();
    assert!(status.success(), "{status}");
}

#[tokio::test]
async fn a_budget_that_makes_two_forms_one_leaves_both_out_naming_the_budget() {
    let mut args = backends("");
    args.extend(["--max-name-len".into(), "20".into()]);
    let mut child = gateway(&args);
    let mut err = BufReader::new(child.stderr.take().unwrap()).lines();
    let census = census(&mut err).await.join("\n");
    for real in ["mcp/fx_files/report_daily", "mcp/fx_files/report_weekly"] {
        let line = census
            .lines()
            .find(|l| l.contains(&format!("`{real}`")))
            .unwrap_or_else(|| panic!("{real} is not in the census: {census}"));
        assert!(
            line.contains("under the name budget of 20 characters"),
            "{line}"
        );
    }
    let client =
        ().serve((child.stdout.take().unwrap(), child.stdin.take().unwrap()))
            .await
            .unwrap();
    for tool in client.list_all_tools().await.unwrap() {
        assert!(tool.name.len() <= 20, "{}", tool.name);
        assert!(!tool.name.starts_with("mcp_fx_files_report"));
    }
    // The cut form reaches its one tool; a real name still reaches a tool left out.
    assert_eq!(
        reached(&call(&client, "mcp_fx_files_stat", json!({})).await),
        "stat"
    );
    assert_eq!(
        reached(&call(&client, "mcp/fx_files/report_daily", json!({})).await),
        "report_daily"
    );
    drop(client);
    tokio::time::timeout(HANG_BOUND, child.wait())
        .await
        .unwrap()
        .unwrap();
}

#[tokio::test]
async fn a_backend_killed_mid_call_fails_with_its_stderr_logged_not_served_and_restarts() {
    let mut child = gateway(&backends(""));
    let mut err = BufReader::new(child.stderr.take().unwrap()).lines();
    census(&mut err).await;
    let client =
        ().serve((child.stdout.take().unwrap(), child.stdin.take().unwrap()))
            .await
            .unwrap();
    let crashed = call(&client, "mcp_fx_crash", json!({})).await;
    assert_eq!(crashed.is_error, Some(true));
    // The fixture's stderr line stands for what a backend may write there (paths, tokens):
    // the client reads a summary, the gateway's own stderr has the line.
    let said = text(&crashed);
    assert!(
        !said.contains("fixture: crash requested"),
        "the backend's stderr reached the client: {said}"
    );
    assert!(
        said.contains("closed its connection")
            && said.ends_with("; its stderr is in the gateway's log"),
        "{said}"
    );
    let logged = line(&mut err).await;
    assert!(logged.contains("a served call failed"), "{logged}");
    let tail = line(&mut err).await;
    assert!(
        tail.contains("fixture: crash requested"),
        "{logged}\n{tail}"
    );
    // The other backend keeps serving.
    assert_eq!(
        reached(&call(&client, "mcp_fx_files_stat", json!({})).await),
        "stat"
    );
    // The next call to the crashed backend restarts it.
    assert_eq!(
        reached(&call(&client, "mcp_fx_echo", json!({})).await),
        "echo"
    );
    drop(client);
    tokio::time::timeout(HANG_BOUND, child.wait())
        .await
        .unwrap()
        .unwrap();
}

/// The gateway passes a backend's answers through whole: `radar`'s output schema and every
/// content block, and `radar_failed`'s error result with its image (not a typed error's text).
#[tokio::test]
async fn a_backend_s_output_schema_content_and_error_result_reach_the_client_whole() {
    let mut child = gateway(&backends("--content"));
    let mut err = BufReader::new(child.stderr.take().unwrap()).lines();
    census(&mut err).await;
    let client =
        ().serve((child.stdout.take().unwrap(), child.stdin.take().unwrap()))
            .await
            .unwrap();
    let tools = client.list_all_tools().await.unwrap();
    let radar = tools.iter().find(|t| t.name == "mcp_fx_radar").unwrap();
    let schema = radar.output_schema.as_ref().expect("radar's output schema");
    assert_eq!(schema["required"], json!(["city", "rain"]));

    let answer = call(&client, "mcp_fx_radar", json!({})).await;
    let kinds = |r: &rmcp::model::CallToolResult| -> Vec<Value> {
        r.content
            .iter()
            .map(|b| serde_json::to_value(b).unwrap()["type"].clone())
            .collect()
    };
    assert_eq!(
        kinds(&answer),
        ["text", "image", "audio", "resource_link", "resource"]
    );
    assert_eq!(
        answer.structured_content,
        Some(json!({"city": "Paris", "rain": true}))
    );
    let failed = call(&client, "mcp_fx_radar_failed", json!({})).await;
    assert_eq!(failed.is_error, Some(true));
    assert_eq!(kinds(&failed), ["text", "image"]);
    assert_eq!(text(&failed), "the radar is down");
    drop(client);
    tokio::time::timeout(HANG_BOUND, child.wait())
        .await
        .unwrap()
        .unwrap();
}

#[tokio::test]
async fn closing_stdin_ends_every_backend_s_process_group() {
    let (port, pid) = grandchild_listener();
    let mut child = gateway(&backends(&format!("--spawn-child {port}")));
    let mut err = BufReader::new(child.stderr.take().unwrap()).lines();
    census(&mut err).await;
    let grandchild = pid.recv_timeout(HANG_BOUND).expect("the grandchild's pid");
    drop(child.stdin.take());
    let status = tokio::time::timeout(HANG_BOUND, child.wait())
        .await
        .unwrap()
        .unwrap();
    assert!(status.success(), "{status}");
    assert!(
        exits_within(grandchild, HANG_BOUND),
        "the grandchild {grandchild} outlived the gateway"
    );
}
