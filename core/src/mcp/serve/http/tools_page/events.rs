//! `/tools/events`: a `text/event-stream` (the HTML Living Standard's server-sent events,
//! "9.2 Server-sent events") that sends one event each time the tools report changes: the tool
//! set (a backend's `list_changed`, a reload), a backend's health (a crash, a restart begun).
//!
//! Policy: the stream says only that something changed (`data:` the change's number); the
//! page fetches itself again, so the report is rendered in one place. It opens with a `ready`
//! event, so a client knows it is listening before it waits for a change. A comment every
//! [`KEEP_ALIVE`] lets a closed tab's connection be noticed (a write to it fails) and keeps
//! proxies from closing an idle stream.

use std::convert::Infallible;
use std::time::Duration;

use bytes::Bytes;
use futures::StreamExt;
use http_body_util::{BodyExt, StreamBody};
use hyper::body::Frame;
use tokio::sync::watch;

use super::super::BoxBody;

/// How often an idle stream carries a comment. Our own choice: well under the 60 s idle
/// timeouts common in proxies.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

enum Next {
    Ready,
    Waiting,
}

/// The event stream over `changes` (the runtime's report changes).
pub(super) fn stream(changes: watch::Receiver<u64>) -> BoxBody {
    let events = futures::stream::unfold(
        (changes, Next::Ready, None::<tokio::time::Interval>),
        |(mut changes, next, keep_alive)| async move {
            if let Next::Ready = next {
                let seen = *changes.borrow_and_update();
                let mut keep_alive = tokio::time::interval(KEEP_ALIVE);
                keep_alive.reset();
                let event = format!("retry: 2000\nevent: ready\ndata: {seen}\n\n");
                return Some((event, (changes, Next::Waiting, Some(keep_alive))));
            }
            let mut keep_alive = keep_alive?;
            let text = tokio::select! {
                changed = changes.changed() => {
                    // The runtime is gone: the stream ends.
                    changed.ok()?;
                    format!("data: {}\n\n", *changes.borrow_and_update())
                }
                _ = keep_alive.tick() => ": keep-alive\n\n".to_owned(),
            };
            Some((text, (changes, Next::Waiting, Some(keep_alive))))
        },
    );
    BodyExt::boxed(StreamBody::new(
        events.map(|text| Ok::<_, Infallible>(Frame::data(Bytes::from(text)))),
    ))
}
