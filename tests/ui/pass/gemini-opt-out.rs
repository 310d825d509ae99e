/// Renders a 3D scene; this tool is never sent to Gemini.
#[toolwire::tool(name = "3d-render", allow_gemini_refusal)]
fn render() {}

fn main() {
    assert_eq!(toolwire::registered_tools()[0].form, "3d-render");
}
