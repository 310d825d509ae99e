//! The catalog served (issue 19, point 3): with a deferred catalog each session lists the
//! meta-tools and what *it* loaded; loading sends that session `list_changed`; a call by name
//! to a tool it never listed still runs (hop 5).

use serde_json::json;
use toolwire_core::mcp::serve::ServeOptions;
use toolwire_core::runtime::CatalogPolicy;
use toolwire_core::ToolRuntime;

use crate::{answer, call, server_with, stdio_client, tools_of, Client, HANG_BOUND};

async fn names(client: &Client) -> Vec<String> {
    client
        .list_all_tools()
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.name.into_owned())
        .collect()
}

#[tokio::test]
async fn two_sessions_load_their_own_catalog_tools_and_each_hears_only_its_own_change() {
    let always = CatalogPolicy::deferred(Vec::<String>::new()).with_threshold(0);
    let runtime = ToolRuntime::builder().catalog(always).build().unwrap();
    runtime
        .add_provider(tools_of("cat", &["alpha/one", "beta/two"]))
        .await
        .unwrap()
        .check()
        .unwrap();
    let server = server_with(runtime, ServeOptions::default());
    let (a, mut a_changes) = stdio_client(&server).await;
    let (b, mut b_changes) = stdio_client(&server).await;
    let meta = ["tool_search", "tool_schema", "reset_tools"];
    assert_eq!(names(&a).await, meta);
    assert_eq!(names(&b).await, meta);

    let loaded = call(&a, "tool_schema", json!({"name": "alpha/one"})).await;
    assert_eq!(answer(&loaded)["name"], "alpha/one");
    tokio::time::timeout(HANG_BOUND, a_changes.recv())
        .await
        .expect("session a hears list_changed")
        .unwrap();
    assert_eq!(names(&a).await, [&meta[..], &["alpha_one"]].concat());
    // Session b loaded nothing: its list is the same, and it heard nothing (a's change was
    // sent before a's answer, so one sent to b too would be before b's answer here).
    assert_eq!(names(&b).await, meta);
    assert!(b_changes.try_recv().is_err());
    // A catalog tool b never listed still runs when called by name (hop 5), and is loaded.
    let ran = call(&b, "beta_two", json!({})).await;
    assert_eq!(answer(&ran)["tool"], "beta/two");
    assert_eq!(names(&b).await, [&meta[..], &["beta_two"]].concat());
    assert_eq!(names(&a).await, [&meta[..], &["alpha_one"]].concat());
    a.cancel().await.unwrap();
    b.cancel().await.unwrap();
}

/// Under a name budget the catalog's meta-tools name each tool by the name this session's
/// client calls, the cut one its list shows, not the runtime's 64-character form.
#[tokio::test]
async fn under_a_name_budget_tool_search_and_tool_schema_give_the_served_names() {
    let always = CatalogPolicy::deferred(Vec::<String>::new()).with_threshold(0);
    let runtime = ToolRuntime::builder().catalog(always).build().unwrap();
    runtime
        .add_provider(tools_of("cat", &["github/list_pull_request_reviews"]))
        .await
        .unwrap()
        .check()
        .unwrap();
    let budget = toolwire_core::census::NameBudget::new(20).unwrap();
    let server = server_with(runtime, ServeOptions::default().budget(budget));
    let (client, mut changes) = stdio_client(&server).await;

    let found = call(
        &client,
        "tool_search",
        json!({"query": "pull request reviews"}),
    )
    .await;
    let hit = &answer(&found)["tools"][0];
    assert_eq!(hit["name"], "github/list_pull_request_reviews");
    assert_eq!(hit["form"], "github_list_pull_req");

    let loaded = call(
        &client,
        "tool_schema",
        json!({"name": "github_list_pull_req"}),
    )
    .await;
    assert_eq!(answer(&loaded)["form"], "github_list_pull_req");
    tokio::time::timeout(HANG_BOUND, changes.recv())
        .await
        .expect("the session hears list_changed")
        .unwrap();
    // The name the meta-tools gave is the one listed, and it is called by it.
    let listed = names(&client).await;
    assert!(
        listed.contains(&"github_list_pull_req".to_owned()),
        "{listed:?}"
    );
    let ran = call(&client, "github_list_pull_req", json!({})).await;
    assert_eq!(answer(&ran)["tool"], "github/list_pull_request_reviews");
    client.cancel().await.unwrap();
}
