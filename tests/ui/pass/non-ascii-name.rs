/// Fetches the weather, in French.
#[toolwire::tool(name = "météo/prévision")]
fn meteo(ville: String) -> String {
    ville
}

/// A non-ASCII identifier is a name too.
#[toolwire::tool]
fn café() {}

fn main() {
    let tools = toolwire::registered_tools();
    let pairs: Vec<(&str, &str)> = tools.iter().map(|t| (t.name, t.form)).collect();
    assert_eq!(pairs, [("café", "caf_"), ("météo/prévision", "m_t_o_pr_vision")]);
}
