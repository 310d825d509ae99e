//! Finding (and if need be building) the workspace's fixture MCP server binary.

use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

/// The path of `toolwire-fixture-mcp-server`, built next to this test binary.
pub fn fixture_server() -> PathBuf {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        let exe = std::env::current_exe().expect("the test binary has a path");
        // target/<profile>/deps/<test> → target/<profile>/<bin>
        let dir = exe.parent().and_then(|d| d.parent()).expect("target dir");
        let bin = dir.join(format!(
            "toolwire-fixture-mcp-server{}",
            std::env::consts::EXE_SUFFIX
        ));
        if !bin.exists() {
            // `cargo test -p toolwire-core` does not build other packages' binaries.
            let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
            let status = Command::new(cargo)
                .args(["build", "-p", "toolwire-fixture-mcp-server"])
                .env("CARGO_TARGET_DIR", dir.parent().expect("target root"))
                .status()
                .expect("cargo runs");
            assert!(status.success(), "building the fixture MCP server failed");
        }
        bin
    })
    .clone()
}
