use std::fmt;

#[derive(Debug)]
struct NotFound(String);

impl fmt::Display for NotFound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "no such city: {}", self.0)
    }
}

/// Looks a city up.
#[toolwire::tool]
fn lookup(city: String) -> Result<u32, NotFound> {
    if city == "Paris" { Ok(2_100_000) } else { Err(NotFound(city)) }
}

/// The same through an alias whose path ends in `Result`.
#[toolwire::tool]
fn parse_number(text: String) -> std::io::Result<i64> {
    text.parse().map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e))
}

fn main() {
    let call = |name: &str, args| {
        let tool = toolwire::registered_tools().into_iter().find(|t| t.name == name).unwrap();
        futures::executor::block_on(tool.call(args, Default::default()))
    };
    assert_eq!(call("lookup", serde_json::json!({"city": "Paris"})), Ok(serde_json::json!(2_100_000)));
    let err = call("lookup", serde_json::json!({"city": "Atlantis"})).unwrap_err();
    assert_eq!(err, toolwire::ToolError::Failed { tool: "lookup".into(), message: "no such city: Atlantis".into() });
    assert!(call("parse_number", serde_json::json!({"text": "x"})).is_err());
}
