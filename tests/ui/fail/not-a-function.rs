/// Not a function.
#[toolwire::tool]
struct Search;

fn main() {}
