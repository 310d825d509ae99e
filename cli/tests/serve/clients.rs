//! `toolwire serve` driven by real MCP clients other than rmcp's (issue 25, point 7): the MCP
//! Python SDK 2.x client in each of its modes ([`python_client`]) and the TypeScript SDK's
//! client through the MCP Inspector's CLI ([`inspector_cli`]), over stdio and streamable HTTP.
//!
//! The clients are installed by `scripts/setup.sh` (scripts/setup/10-python-venv.sh,
//! scripts/setup/20-inspector.sh); a test whose client is missing fails, saying so.

mod inspector_cli;
mod python_client;

use std::process::Output;

use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

use crate::{backends, census, gateway, line, StderrLines, HANG_BOUND};

/// The two clashing fixture servers behind the gateway, then `extra` gateway flags: the
/// arguments of `toolwire serve` (after `serve`).
fn serve_args(extra: &[&str]) -> Vec<String> {
    let mut args = backends("");
    args.extend(extra.iter().map(|a| a.to_string()));
    args
}

/// `toolwire serve ARGS` over streamable HTTP on a loopback port the system picks: the running
/// gateway (ended when dropped), its stderr and its URL, read from the line it prints after its
/// census.
async fn http_gateway(mut args: Vec<String>) -> (Child, StderrLines, String) {
    args.extend(["--http".into(), "127.0.0.1:0".into()]);
    let mut child = gateway(&args);
    let mut err = BufReader::new(child.stderr.take().unwrap()).lines();
    census(&mut err).await;
    let listening = line(&mut err).await;
    let url = listening
        .strip_prefix("toolwire serve: listening on ")
        .unwrap_or_else(|| panic!("the gateway's URL line: {listening}"))
        .to_owned();
    (child, err, url)
}

/// Runs a client to its end (bounded by [`HANG_BOUND`]), its output captured.
async fn run_client(command: &mut Command) -> Output {
    command.kill_on_drop(true);
    tokio::time::timeout(HANG_BOUND, command.output())
        .await
        .unwrap_or_else(|_| panic!("the client {command:?} hung"))
        .unwrap_or_else(|e| panic!("the client {command:?} runs: {e}"))
}

/// A client's stderr, for a failure message.
fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}
