//! App state handed to tools: values that are not part of any tool's schema (a database pool,
//! an HTTP client), found by type.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::sync::Arc;

/// A type map of shared app values. Cheap to clone (an `Arc` inside).
///
/// A `#[tool]` function receives a value by declaring an argument of type [`State<T>`]; that
/// argument is not part of the tool's schema.
///
/// ```
/// use toolwire_core::AppState;
/// struct Db { url: String }
/// let state = AppState::new().with(Db { url: "sqlite::memory:".into() });
/// assert_eq!(state.get::<Db>().unwrap().url, "sqlite::memory:");
/// assert!(state.get::<String>().is_none());
/// ```
#[derive(Clone, Default)]
pub struct AppState {
    values: Arc<HashMap<TypeId, Arc<dyn Any + Send + Sync>>>,
}

impl AppState {
    /// An empty state.
    ///
    /// ```
    /// use toolwire_core::AppState;
    /// let state = AppState::new();
    /// assert!(state.get::<String>().is_none());
    /// ```
    pub fn new() -> AppState {
        AppState::default()
    }

    /// This state with `value` added (replacing any value of the same type).
    ///
    /// ```
    /// let state = toolwire_core::AppState::new().with(42u32);
    /// assert_eq!(*state.get::<u32>().unwrap(), 42);
    /// ```
    pub fn with<T: Send + Sync + 'static>(mut self, value: T) -> AppState {
        self.insert(value);
        self
    }

    /// Adds `value` (replacing any value of the same type).
    ///
    /// ```
    /// let mut state = toolwire_core::AppState::new();
    /// state.insert("hello");
    /// assert_eq!(*state.get::<&str>().unwrap(), "hello");
    /// ```
    pub fn insert<T: Send + Sync + 'static>(&mut self, value: T) {
        Arc::make_mut(&mut self.values).insert(TypeId::of::<T>(), Arc::new(value));
    }

    /// The value of type `T`, if one was added.
    ///
    /// ```
    /// let state = toolwire_core::AppState::new();
    /// assert!(state.get::<u8>().is_none());
    /// ```
    pub fn get<T: Send + Sync + 'static>(&self) -> Option<Arc<T>> {
        self.values
            .get(&TypeId::of::<T>())
            .cloned()
            .and_then(|v| v.downcast::<T>().ok())
    }
}

impl std::fmt::Debug for AppState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AppState")
            .field("values", &self.values.len())
            .finish()
    }
}

/// A tool argument that receives app state of type `T` instead of a JSON argument.
///
/// ```
/// use toolwire_core::{AppState, State};
/// let state = AppState::new().with(7i64);
/// let State(n) = State::<i64>::from_app_state(&state, "my_tool").unwrap();
/// assert_eq!(*n, 7);
/// ```
#[derive(Debug)]
pub struct State<T>(pub Arc<T>);

impl<T> Clone for State<T> {
    fn clone(&self) -> Self {
        State(self.0.clone())
    }
}

impl<T> std::ops::Deref for State<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: Send + Sync + 'static> State<T> {
    /// Takes the `T` out of `state` for `tool`, or says which type is missing.
    ///
    /// ```
    /// use toolwire_core::{AppState, State};
    /// let err = State::<u8>::from_app_state(&AppState::new(), "t").unwrap_err();
    /// assert!(err.to_string().contains("u8"));
    /// ```
    pub fn from_app_state(
        state: &AppState,
        tool: &str,
    ) -> Result<State<T>, crate::tools::ToolError> {
        state
            .get::<T>()
            .map(State)
            .ok_or_else(|| crate::tools::ToolError::MissingState {
                tool: tool.to_owned(),
                type_name: std::any::type_name::<T>().to_owned(),
            })
    }
}
