struct Opaque;

/// Makes something that is not JSON.
#[toolwire::tool]
fn make() -> Opaque {
    Opaque
}

fn main() {}
