/// Waits, then answers.
#[toolwire::tool]
async fn later(answer: u32) -> u32 {
    std::future::ready(answer).await
}

fn main() {
    let tool = toolwire::registered_tools()[0];
    let out = futures::executor::block_on(tool.call(serde_json::json!({"answer": 42}), Default::default()));
    assert_eq!(out, Ok(serde_json::json!(42)));
}
