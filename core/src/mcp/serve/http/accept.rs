//! The accept loop: it survives whatever one connection or the process's file limit does, and
//! holds a bounded number of connections, each with a bound on how long its headers may take.
//!
//! Policy: an accept error never ends serving. A connection's own error (`ECONNABORTED`,
//! reset, refused) is skipped; any other (`EMFILE`, `ENFILE`, `ENOMEM`) is logged and retried
//! after a second, as `axum::serve` does (axum 0.8, `serve/listener.rs`,
//! `handle_accept_error`, itself from hyper 0.14's `AddrIncoming`: "the process has hit the
//! max open files allowed … it's preferable to just wait for some time … and try to accept
//! the connection again"). The loop is ours rather than `axum::serve` because that one sets no
//! header read timeout and caps no connections: hyper's `header_read_timeout` only runs with
//! a timer (hyper 1.x, `server::conn::http1::Builder::header_read_timeout`: "Requires a
//! `Timer` set by `Builder::timer` to take effect"), which `axum::serve` does not set.

use std::convert::Infallible;
use std::io;
use std::sync::Arc;
use std::time::Duration;

use hyper::body::{Body, Incoming};
use hyper::{Request, Response};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

/// How long the loop waits after an accept error that is not one connection's (`EMFILE`):
/// long enough for connections to close, short enough that serving resumes soon after.
const ACCEPT_BACKOFF: Duration = Duration::from_secs(1);

/// What bounds the connections.
pub(super) struct ConnectionLimits {
    pub(super) max_connections: usize,
    pub(super) header_read_timeout: Duration,
}

/// An error of the connection being accepted, not of the listener: skip it and accept the
/// next (axum 0.8's `is_connection_error`).
fn is_connection_error(error: &io::Error) -> bool {
    matches!(
        error.kind(),
        io::ErrorKind::ConnectionRefused
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
    )
}

/// Accepts connections on `listener` forever, each served by a service from `service`.
pub(super) async fn serve_connections<F, S, B>(
    listener: TcpListener,
    limits: ConnectionLimits,
    service: F,
) where
    F: Fn() -> S,
    S: hyper::service::Service<Request<Incoming>, Response = Response<B>, Error = Infallible>
        + Send
        + 'static,
    S::Future: Send + 'static,
    B: Body + Send + 'static,
    B::Data: Send,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let open = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    loop {
        // A place for the next connection before it is accepted: at the cap, the kernel's
        // backlog holds the next ones until a connection closes.
        let place = match open.clone().try_acquire_owned() {
            Ok(place) => place,
            Err(_) => {
                tracing::warn!(
                    max_connections = limits.max_connections,
                    "at the cap of {} open HTTP connections: waiting for one to close",
                    limits.max_connections
                );
                match open.clone().acquire_owned().await {
                    Ok(place) => place,
                    // The semaphore is never closed.
                    Err(_) => return,
                }
            }
        };
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(error) if is_connection_error(&error) => continue,
            Err(error) => {
                tracing::warn!(
                    "accepting an HTTP connection failed: {error}; trying again in {} s",
                    ACCEPT_BACKOFF.as_secs()
                );
                tokio::time::sleep(ACCEPT_BACKOFF).await;
                continue;
            }
        };
        let service = service();
        let header_read_timeout = limits.header_read_timeout;
        tokio::spawn(async move {
            let _place = place;
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder
                .timer(TokioTimer::new())
                .header_read_timeout(header_read_timeout);
            // A connection that breaks, or is too slow with its headers, only ends itself.
            let _ = builder
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}
