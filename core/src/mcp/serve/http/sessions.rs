//! The legacy (< 2026-07-28) MCP sessions of one HTTP server, bounded exactly: each session
//! holds a permit of a semaphore of `max_sessions`, taken before rmcp creates it and released
//! when rmcp closes it (a `DELETE`, the client gone, or idle past the session keep-alive).
//!
//! Policy: a count read before creating (`sessions.len() >= max`) lets every concurrent
//! `initialize` past the check at once; a permit cannot be taken twice, so the bound holds
//! whatever arrives together. The permit is taken in the request's own task (the HTTP guard)
//! and handed to [`PermittedSessions::create_session`] through a task-local, because rmcp
//! calls the session manager from inside the request's future
//! (rmcp 3.11, `transport/streamable_http_server/tower.rs`, `handle_post`: `create_session`
//! is awaited within the `initialize` POST), so a refused session is a 503 the client can read,
//! not rmcp's 500 for a failed `create_session`.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use futures::Stream;
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_server::session::local::{
    LocalSessionManager, LocalSessionManagerError,
};
use rmcp::transport::streamable_http_server::session::ServerSseMessage;
use rmcp::transport::streamable_http_server::{SessionId, SessionManager};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

tokio::task_local! {
    /// The permit the HTTP guard took for the session this request may open.
    pub(super) static SESSION_PERMIT: RefCell<Option<OwnedSemaphorePermit>>;
}

/// rmcp's [`LocalSessionManager`], with one permit per open session.
pub(super) struct PermittedSessions {
    inner: LocalSessionManager,
    permits: Arc<Semaphore>,
    held: Mutex<HashMap<SessionId, OwnedSemaphorePermit>>,
}

/// A session could not be created: no permit was free.
#[derive(Debug, thiserror::Error)]
pub(super) enum SessionsError {
    #[error("too many MCP sessions are open")]
    Full,
    #[error(transparent)]
    Local(#[from] LocalSessionManagerError),
}

impl PermittedSessions {
    pub(super) fn new(inner: LocalSessionManager, max_sessions: usize) -> PermittedSessions {
        PermittedSessions {
            inner,
            permits: Arc::new(Semaphore::new(max_sessions)),
            held: Mutex::new(HashMap::new()),
        }
    }

    /// A permit for one more session, if one is free (taken by the HTTP guard).
    pub(super) fn try_permit(&self) -> Option<OwnedSemaphorePermit> {
        self.permits.clone().try_acquire_owned().ok()
    }

    /// How many sessions are open now.
    pub(super) fn open(&self) -> usize {
        self.held
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }
}

impl SessionManager for PermittedSessions {
    type Error = SessionsError;
    type Transport = <LocalSessionManager as SessionManager>::Transport;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), SessionsError> {
        // The guard's permit when there is one; else (a caller outside the guard) one taken
        // here: either way the session exists only with a permit.
        let permit = SESSION_PERMIT
            .try_with(|p| p.borrow_mut().take())
            .ok()
            .flatten()
            .or_else(|| self.try_permit())
            .ok_or(SessionsError::Full)?;
        let (id, transport) = self.inner.create_session().await?;
        let open = {
            let mut held = self.held.lock().unwrap_or_else(PoisonError::into_inner);
            held.insert(id.clone(), permit);
            held.len()
        };
        tracing::debug!(open, "an MCP session opened");
        Ok((id, transport))
    }

    async fn initialize_session(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<ServerJsonRpcMessage, SessionsError> {
        Ok(self.inner.initialize_session(id, message).await?)
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, SessionsError> {
        Ok(self.inner.has_session(id).await?)
    }

    async fn close_session(&self, id: &SessionId) -> Result<(), SessionsError> {
        let closed = self.inner.close_session(id).await;
        // Released whatever closing said: the session is out of rmcp's map either way.
        let released = self
            .held
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(id);
        if released.is_some() {
            drop(released);
            tracing::info!(
                open = self.open(),
                "an MCP session closed; its place is free"
            );
        }
        Ok(closed?)
    }

    async fn create_stream(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, SessionsError> {
        Ok(self.inner.create_stream(id, message).await?)
    }

    async fn accept_message(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<(), SessionsError> {
        Ok(self.inner.accept_message(id, message).await?)
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, SessionsError> {
        Ok(self.inner.create_standalone_stream(id).await?)
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, SessionsError> {
        Ok(self.inner.resume(id, last_event_id).await?)
    }
}
