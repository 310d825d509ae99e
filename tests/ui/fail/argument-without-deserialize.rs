#[derive(schemars::JsonSchema)]
struct Point {
    x: f64,
}

/// Moves to a point.
#[toolwire::tool]
fn move_to(point: Point) -> f64 {
    point.x
}

fn main() {}
