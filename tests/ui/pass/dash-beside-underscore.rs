// `a-b` and `a_b` differ only by `-` against `_`: two forms, both compile and register.

/// The dashed one.
#[toolwire::tool(name = "a-b")]
fn dashed() {}

/// The underscored one.
#[toolwire::tool]
fn a_b() {}

fn main() {
    let forms: Vec<&str> = toolwire::registered_tools().iter().map(|t| t.form).collect();
    assert_eq!(forms, ["a-b", "a_b"]);
    assert!(toolwire::check_tool_census().is_ok());
}
