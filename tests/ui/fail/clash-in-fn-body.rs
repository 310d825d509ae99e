/// Reads a file.
#[toolwire::tool(name = "files/read")]
fn read(path: String) -> String {
    path
}

fn setup() {
    /// Reads a file, from inside another function's body.
    #[toolwire::tool(name = "files.read")]
    fn read_inner(path: String) -> String {
        path
    }
}

fn main() {
    setup();
}
