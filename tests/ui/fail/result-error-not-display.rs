#[derive(Debug)]
struct Oops;

/// Fails without a message.
#[toolwire::tool]
fn fail() -> Result<u8, Oops> {
    Err(Oops)
}

fn main() {}
