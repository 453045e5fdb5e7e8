//! The store interface express-rate-limit's stores implement.

use std::time::{Duration, SystemTime};

use crate::handler::BoxFuture;

/// A client's count in the current window (`ClientRateLimitInfo`).
///
/// ```
/// use webfw::rate_limit::ClientRateLimitInfo;
/// let c = ClientRateLimitInfo { total_hits: 1, reset_time: None };
/// assert_eq!(c.total_hits, 1);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientRateLimitInfo {
    /// Hits counted in the window, this one included.
    pub total_hits: u64,
    /// When the window ends and the count starts over, when the store
    /// knows.
    pub reset_time: Option<SystemTime>,
}

/// Where a limiter counts hits (express-rate-limit's `Store`). Each limiter
/// needs its own store (or its own prefix in a shared database): two
/// limiters counting in one store would count every request twice.
///
/// ```
/// use std::sync::Mutex;
/// use std::collections::HashMap;
/// use webfw::BoxFuture;
/// use webfw::rate_limit::{ClientRateLimitInfo, RateLimitStore};
///
/// /// Counts forever: no windows.
/// #[derive(Default)]
/// struct Forever(Mutex<HashMap<String, u64>>);
///
/// impl RateLimitStore for Forever {
///     fn increment<'a>(&'a self, key: &'a str) -> BoxFuture<'a, webfw::Result<ClientRateLimitInfo>> {
///         let mut m = self.0.lock().unwrap();
///         let n = m.entry(key.to_owned()).or_default();
///         *n += 1;
///         let info = ClientRateLimitInfo { total_hits: *n, reset_time: None };
///         Box::pin(async move { Ok(info) })
///     }
///     fn decrement<'a>(&'a self, key: &'a str) -> BoxFuture<'a, webfw::Result<()>> {
///         if let Some(n) = self.0.lock().unwrap().get_mut(key) { *n = n.saturating_sub(1); }
///         Box::pin(async { Ok(()) })
///     }
///     fn reset_key<'a>(&'a self, key: &'a str) -> BoxFuture<'a, webfw::Result<()>> {
///         self.0.lock().unwrap().remove(key);
///         Box::pin(async { Ok(()) })
///     }
/// }
/// let o = webfw::rate_limit::RateLimitOptions::new().store(Forever::default());
/// ```
pub trait RateLimitStore: Send + Sync + 'static {
    /// `init(options)`: the limiter's window, given once when the limiter
    /// is made.
    fn init(&self, window: Duration) {
        let _ = window;
    }

    /// Counts a hit for `key`; the count after it and the window's end.
    fn increment<'a>(&'a self, key: &'a str) -> BoxFuture<'a, crate::Result<ClientRateLimitInfo>>;

    /// Takes one hit back (a skipped successful or failed request).
    fn decrement<'a>(&'a self, key: &'a str) -> BoxFuture<'a, crate::Result<()>>;

    /// Forgets `key`'s hits.
    fn reset_key<'a>(&'a self, key: &'a str) -> BoxFuture<'a, crate::Result<()>>;

    /// `key`'s count without counting, when the store can tell.
    fn get<'a>(
        &'a self,
        key: &'a str,
    ) -> BoxFuture<'a, crate::Result<Option<ClientRateLimitInfo>>> {
        let _ = key;
        Box::pin(async {
            Err(crate::Error::new(
                "The current store does not support the get/getKey method",
            ))
        })
    }
}
