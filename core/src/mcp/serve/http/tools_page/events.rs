//! `/tools/events`: a `text/event-stream` (the HTML Living Standard's server-sent events,
//! "9.2 Server-sent events") that sends one event each time the tools report changes: the tool
//! set (a backend's `list_changed`, a reload), a backend's health (a crash, a restart begun).
//!
//! Policy: the stream says only that something changed: each event's `data:` is the report's
//! stamp (`{"epoch":"…","sequence":N}`: the gateway's start, and the change's number, which
//! only grows within one start), the same stamp `/tools.json` and the page carry; the page
//! fetches itself again and applies what it fetched only when that is newer than what it shows,
//! so the report is rendered in one place and a slow answer never overwrites a newer one. It
//! opens with a `ready` event carrying the current stamp, so a client knows it is listening
//! before it waits for a change, and a page that reconnects learns what it missed. A comment
//! every [`KEEP_ALIVE`] lets a closed tab's connection be noticed (a write to it fails) and
//! keeps proxies from closing an idle stream. A stream holds one of [`MAX_STREAMS`] places, and
//! ends when the gateway stops serving (`stop`'s sender, held by `serve_http`, is dropped).

use std::convert::Infallible;
use std::time::Duration;

use bytes::Bytes;
use futures::StreamExt;
use http_body_util::{BodyExt, StreamBody};
use hyper::body::Frame;
use tokio::sync::{watch, OwnedSemaphorePermit};

use super::super::BoxBody;

/// How often an idle stream carries a comment. Our own choice: well under the 60 s idle
/// timeouts common in proxies.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// The most event streams open at once. Our own caution: each holds a connection (of
/// `max_connections`) and a task for as long as a tab is open; a page needs one per tab, and
/// past this a client is told to come back (503, `Retry-After`).
pub(super) const MAX_STREAMS: usize = 16;

/// The stamp of the report at change `sequence` of the gateway started at `epoch`, as JSON.
pub(super) fn stamp(epoch: u64, sequence: u64) -> String {
    format!(r#"{{"epoch":"{epoch:016x}","sequence":{sequence}}}"#)
}

enum Next {
    Ready,
    Waiting,
}

struct State {
    changes: watch::Receiver<u64>,
    stop: watch::Receiver<()>,
    next: Next,
    keep_alive: Option<tokio::time::Interval>,
    _place: OwnedSemaphorePermit,
}

/// The event stream over `changes` (the runtime's report changes), holding `place` until it
/// ends, and ending when `stop`'s sender is gone.
pub(super) fn stream(
    changes: watch::Receiver<u64>,
    stop: watch::Receiver<()>,
    epoch: u64,
    place: OwnedSemaphorePermit,
) -> BoxBody {
    let start = State {
        changes,
        stop,
        next: Next::Ready,
        keep_alive: None,
        _place: place,
    };
    let events = futures::stream::unfold(start, move |mut state| async move {
        if let Next::Ready = state.next {
            let seen = *state.changes.borrow_and_update();
            let mut keep_alive = tokio::time::interval(KEEP_ALIVE);
            keep_alive.reset();
            let event = format!(
                "retry: 2000\nevent: ready\ndata: {}\n\n",
                stamp(epoch, seen)
            );
            state.next = Next::Waiting;
            state.keep_alive = Some(keep_alive);
            return Some((event, state));
        }
        let keep_alive = state.keep_alive.as_mut()?;
        let text = tokio::select! {
            changed = state.changes.changed() => {
                // The runtime is gone: the stream ends.
                changed.ok()?;
                let seen = *state.changes.borrow_and_update();
                format!("data: {}\n\n", stamp(epoch, seen))
            }
            // The gateway stopped serving (its sender is only ever dropped): the stream ends.
            _ = state.stop.changed() => return None,
            _ = keep_alive.tick() => ": keep-alive\n\n".to_owned(),
        };
        Some((text, state))
    });
    BodyExt::boxed(StreamBody::new(
        events.map(|text| Ok::<_, Infallible>(Frame::data(Bytes::from(text)))),
    ))
}
