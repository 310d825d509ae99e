struct Engine;

impl Engine {
    /// Searches the web.
    #[toolwire::tool]
    fn search(query: String) -> String {
        query
    }
}

fn main() {}
