struct Search;

impl Search {
    /// Searches the web.
    #[toolwire::tool]
    fn search(query: String) -> String {
        query
    }
}

fn main() {}
