/// Renders a 3D scene.
#[toolwire::tool(name = "3d-render")]
fn render() {}

fn main() {}
