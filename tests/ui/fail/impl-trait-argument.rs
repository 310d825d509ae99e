/// Prints anything.
#[toolwire::tool]
fn print(value: impl std::fmt::Display) -> String {
    value.to_string()
}

fn main() {}
