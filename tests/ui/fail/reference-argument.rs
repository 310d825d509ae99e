/// Greets someone.
#[toolwire::tool]
fn greet(name: &str, friends: Vec<&str>) -> String {
    format!("hello {name} and {}", friends.len())
}

fn main() {}
