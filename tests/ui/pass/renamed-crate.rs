use toolwire as tw;

/// Registered through a renamed crate path.
#[tw::tool(crate = tw)]
fn renamed() {}

/// The same with the path as a string.
#[tw::tool(crate = "tw")]
fn renamed_string() {}

fn main() {
    assert_eq!(tw::registered_tools().len(), 2);
}
