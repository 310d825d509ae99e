mod web {
    /// Searches the web.
    #[toolwire::tool]
    pub fn search_web(query: String) -> String {
        query
    }
}

mod other {
    pub mod deeper {
        /// Searches the web, again.
        #[toolwire::tool(name = "search_web")]
        pub fn search(query: String) -> String {
            query
        }
    }
}

fn main() {}
