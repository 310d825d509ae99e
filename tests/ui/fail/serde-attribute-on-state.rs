use toolwire::State;

struct Db;

/// Reads from the app's database.
#[toolwire::tool]
fn read(#[serde(default)] db: State<Db>, key: String) -> String {
    let _ = db;
    key
}

fn main() {}
