struct State<T>(T);

/// Uses a type named State that is not toolwire's.
#[toolwire::tool]
fn counter(count: State<u32>) -> u32 {
    count.0
}

fn main() {}
