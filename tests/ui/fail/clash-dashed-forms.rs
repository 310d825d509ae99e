/// Renders in 3D.
#[toolwire::tool(name = "render-3d")]
fn render() {}

/// Renders in 3D, under a name with a dot.
#[toolwire::tool(name = "render-3d.")]
fn render_dot() {}

/// Same form as the first.
#[toolwire::tool(name = "render-3d")]
fn render_again() {}

fn main() {}
