#[toolwire::tool]
fn undocumented(city: String) -> String {
    city
}

fn main() {}
