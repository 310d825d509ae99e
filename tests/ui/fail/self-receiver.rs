struct Searcher;

impl Searcher {
    /// Searches.
    #[toolwire::tool]
    fn search(&self, query: String) -> String {
        query
    }
}

fn main() {}
