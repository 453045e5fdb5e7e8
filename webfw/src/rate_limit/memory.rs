//! The default store: counts in this process's memory.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime};

use super::store::{ClientRateLimitInfo, RateLimitStore};
use crate::handler::BoxFuture;

/// The clients a [`MemoryStore`] remembers at most by default.
pub const DEFAULT_MAX_KEYS: usize = 100_000;

/// Counts hits in memory, as express-rate-limit's `MemoryStore` does: two
/// generations of clients, `current` and `previous`. A client that comes
/// back moves to `current`; once a window has passed, `current` becomes
/// `previous` and what was left in `previous` (clients idle for a whole
/// window, whose counts have all expired) is forgotten at once.
///
/// **Bound**: at most [`max_keys`](Self::max_keys) clients
/// ([`DEFAULT_MAX_KEYS`]) are remembered. A new client that would pass it
/// makes the store forget the `previous` generation first, then, if
/// `current` alone is full, everyone: a flood of distinct keys costs
/// memory up to the bound and then resets counts, as a restart would.
/// Each entry holds the key and 24 bytes.
///
/// ```
/// use webfw::rate_limit::{MemoryStore, RateLimitOptions};
/// let o = RateLimitOptions::new().store(MemoryStore::new().max_keys(10_000));
/// ```
#[derive(Debug)]
pub struct MemoryStore {
    inner: Mutex<Inner>,
}

#[derive(Debug)]
struct Inner {
    window: Duration,
    max_keys: usize,
    current: HashMap<String, Client>,
    previous: HashMap<String, Client>,
    /// When `current` began.
    rotated_at: Instant,
}

#[derive(Clone, Copy, Debug)]
struct Client {
    total_hits: u64,
    reset_time: SystemTime,
}

impl Default for MemoryStore {
    fn default() -> Self {
        MemoryStore::new()
    }
}

impl MemoryStore {
    /// An empty store (its window comes from the limiter).
    ///
    /// ```
    /// let s = webfw::rate_limit::MemoryStore::new();
    /// assert_eq!(s.len(), 0);
    /// ```
    pub fn new() -> MemoryStore {
        MemoryStore {
            inner: Mutex::new(Inner {
                window: Duration::from_secs(60),
                max_keys: DEFAULT_MAX_KEYS,
                current: HashMap::new(),
                previous: HashMap::new(),
                rotated_at: Instant::now(),
            }),
        }
    }

    /// The most clients remembered at once (at least 1).
    ///
    /// ```
    /// let s = webfw::rate_limit::MemoryStore::new().max_keys(2);
    /// ```
    pub fn max_keys(self, max: usize) -> MemoryStore {
        self.lock().max_keys = max.max(1);
        self
    }

    /// How many clients the store remembers now.
    ///
    /// ```
    /// assert_eq!(webfw::rate_limit::MemoryStore::new().len(), 0);
    /// ```
    pub fn len(&self) -> usize {
        let inner = self.lock();
        inner.current.len() + inner.previous.len()
    }

    /// Whether the store remembers no client.
    ///
    /// ```
    /// assert!(webfw::rate_limit::MemoryStore::new().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// `resetAll()`: forgets every client.
    ///
    /// ```
    /// webfw::rate_limit::MemoryStore::new().reset_all();
    /// ```
    pub fn reset_all(&self) {
        let mut inner = self.lock();
        inner.current.clear();
        inner.previous.clear();
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl Inner {
    /// express-rate-limit's `clearExpired`, run every window by a timer
    /// there, here when the store is next used.
    fn rotate(&mut self) {
        let elapsed = self.rotated_at.elapsed();
        if elapsed < self.window {
            return;
        }
        if elapsed >= self.window * 2 {
            self.previous.clear();
            self.current.clear();
            self.rotated_at = Instant::now();
        } else {
            self.previous = std::mem::take(&mut self.current);
            self.rotated_at += self.window;
        }
    }

    /// `getClient`: the client, moved to `current`, made when new.
    fn client(&mut self, key: &str, now: SystemTime) -> &mut Client {
        if !self.current.contains_key(key) {
            let client = match self.previous.remove(key) {
                Some(c) => c,
                None => {
                    self.make_room();
                    Client {
                        total_hits: 0,
                        reset_time: now + self.window,
                    }
                }
            };
            self.current.insert(key.to_owned(), client);
        }
        self.current
            .get_mut(key)
            .unwrap_or_else(|| unreachable!("inserted above"))
    }

    fn make_room(&mut self) {
        if self.current.len() + self.previous.len() < self.max_keys {
            return;
        }
        self.previous = HashMap::new();
        if self.current.len() >= self.max_keys {
            self.current = HashMap::new();
        }
    }
}

fn ready<'a, T: Send + 'a>(v: T) -> BoxFuture<'a, T> {
    Box::pin(std::future::ready(v))
}

impl RateLimitStore for MemoryStore {
    fn init(&self, window: Duration) {
        let mut inner = self.lock();
        inner.window = window.max(Duration::from_millis(1));
        inner.rotated_at = Instant::now();
    }

    fn increment<'a>(&'a self, key: &'a str) -> BoxFuture<'a, crate::Result<ClientRateLimitInfo>> {
        let mut inner = self.lock();
        inner.rotate();
        let now = SystemTime::now();
        let window = inner.window;
        let client = inner.client(key, now);
        if client.reset_time <= now {
            client.total_hits = 0;
            client.reset_time = now + window;
        }
        client.total_hits += 1;
        let info = ClientRateLimitInfo {
            total_hits: client.total_hits,
            reset_time: Some(client.reset_time),
        };
        ready(Ok(info))
    }

    fn decrement<'a>(&'a self, key: &'a str) -> BoxFuture<'a, crate::Result<()>> {
        let mut inner = self.lock();
        inner.rotate();
        let client = inner.client(key, SystemTime::now());
        client.total_hits = client.total_hits.saturating_sub(1);
        ready(Ok(()))
    }

    fn reset_key<'a>(&'a self, key: &'a str) -> BoxFuture<'a, crate::Result<()>> {
        let mut inner = self.lock();
        inner.current.remove(key);
        inner.previous.remove(key);
        ready(Ok(()))
    }

    fn get<'a>(
        &'a self,
        key: &'a str,
    ) -> BoxFuture<'a, crate::Result<Option<ClientRateLimitInfo>>> {
        let mut inner = self.lock();
        inner.rotate();
        let now = SystemTime::now();
        let found = inner
            .current
            .get(key)
            .or_else(|| inner.previous.get(key))
            .filter(|c| c.reset_time > now)
            .map(|c| ClientRateLimitInfo {
                total_hits: c.total_hits,
                reset_time: Some(c.reset_time),
            });
        ready(Ok(found))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hit(store: &MemoryStore, key: &str) -> u64 {
        let fut = store.increment(key);
        let waker = std::task::Waker::noop();
        match std::pin::pin!(fut).poll(&mut std::task::Context::from_waker(waker)) {
            std::task::Poll::Ready(r) => r.unwrap().total_hits,
            std::task::Poll::Pending => unreachable!("the memory store is synchronous"),
        }
    }

    use std::future::Future;

    #[test]
    fn counts_per_key_within_the_bound() {
        let store = MemoryStore::new().max_keys(3);
        store.init(Duration::from_secs(3600));
        assert_eq!(hit(&store, "a"), 1);
        assert_eq!(hit(&store, "a"), 2);
        assert_eq!(hit(&store, "b"), 1);
        assert_eq!(hit(&store, "c"), 1);
        assert_eq!(store.len(), 3);
        // A fourth client: the full current generation is forgotten.
        assert_eq!(hit(&store, "d"), 1);
        assert_eq!(store.len(), 1);
        assert_eq!(hit(&store, "a"), 1);
    }
}
