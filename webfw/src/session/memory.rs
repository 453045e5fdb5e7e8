//! The in-memory session store: the default, for one process.

use std::collections::HashMap;
use std::sync::Mutex;

use super::cookie::now_ms;
use super::store::{SessionRecord, SessionStore};
use crate::error::Error;
use crate::handler::BoxFuture;

/// Sessions kept in this process's memory, expired ones dropped on sight
/// and purged when the store is full. Bounded: past `max_entries` the
/// sessions written least recently make room (a client making new sessions
/// in a loop cannot grow it). Processes do not share it: use a shared
/// store (Redis, feature `redis`) behind a load balancer.
///
/// ```
/// use webfw::session::{MemoryStore, SessionOptions};
/// let store = MemoryStore::with_max_entries(1000);
/// let _ = webfw::session(SessionOptions::new("keyboard cat").store(store));
/// ```
#[derive(Debug)]
pub struct MemoryStore {
    max_entries: usize,
    inner: Mutex<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    entries: HashMap<String, Entry>,
    /// Incremented on each write: the age order for eviction.
    clock: u64,
}

#[derive(Debug)]
struct Entry {
    json: String,
    /// Milliseconds since the epoch.
    expires: Option<f64>,
    written: u64,
}

impl Default for MemoryStore {
    fn default() -> Self {
        MemoryStore::new()
    }
}

impl MemoryStore {
    /// The default bound on sessions held.
    ///
    /// ```
    /// use webfw::session::MemoryStore;
    /// assert_eq!(MemoryStore::DEFAULT_MAX_ENTRIES, 10_000);
    /// ```
    pub const DEFAULT_MAX_ENTRIES: usize = 10_000;

    /// A store holding up to [`MemoryStore::DEFAULT_MAX_ENTRIES`] sessions.
    ///
    /// ```
    /// assert_eq!(webfw::session::MemoryStore::new().len(), 0);
    /// ```
    pub fn new() -> MemoryStore {
        MemoryStore::with_max_entries(MemoryStore::DEFAULT_MAX_ENTRIES)
    }

    /// A store holding up to `max_entries` sessions (at least one).
    ///
    /// ```
    /// let store = webfw::session::MemoryStore::with_max_entries(2);
    /// assert!(store.is_empty());
    /// ```
    pub fn with_max_entries(max_entries: usize) -> MemoryStore {
        MemoryStore {
            max_entries: max_entries.max(1),
            inner: Mutex::default(),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        // Every update is a single map operation: a panic cannot leave it half done.
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// How many sessions are held (expired ones not yet purged included).
    ///
    /// ```
    /// assert_eq!(webfw::session::MemoryStore::new().len(), 0);
    /// ```
    pub fn len(&self) -> usize {
        self.lock().entries.len()
    }

    /// Whether no session is held.
    ///
    /// ```
    /// assert!(webfw::session::MemoryStore::new().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The stored JSON of session `id`, as a store shared with Express would
    /// hold it (for tests and inspection).
    ///
    /// ```
    /// assert_eq!(webfw::session::MemoryStore::new().raw("nope"), None);
    /// ```
    pub fn raw(&self, id: &str) -> Option<String> {
        self.lock().entries.get(id).map(|e| e.json.clone())
    }

    fn get_now(&self, id: &str) -> Option<SessionRecord> {
        let mut inner = self.lock();
        let entry = inner.entries.get(id)?;
        if entry.expires.is_some_and(|e| e <= now_ms()) {
            inner.entries.remove(id);
            return None;
        }
        SessionRecord::from_json(&entry.json)
    }

    fn set_now(&self, id: &str, session: &SessionRecord) {
        let json = session.to_json();
        let expires = session.cookie.max_age().map(|ms| now_ms() + ms);
        let mut inner = self.lock();
        if !inner.entries.contains_key(id) && inner.entries.len() >= self.max_entries {
            self.make_room(&mut inner);
        }
        inner.clock += 1;
        let written = inner.clock;
        inner.entries.insert(
            id.to_owned(),
            Entry {
                json,
                expires,
                written,
            },
        );
    }

    /// Drops expired sessions; if that frees nothing, the oldest-written
    /// sixteenth (at least one), so a full store pays for a scan only once
    /// every so many new sessions.
    fn make_room(&self, inner: &mut Inner) {
        let now = now_ms();
        inner
            .entries
            .retain(|_, e| !e.expires.is_some_and(|x| x <= now));
        if inner.entries.len() < self.max_entries {
            return;
        }
        let drop_n = (self.max_entries / 16).max(1);
        let mut ages: Vec<u64> = inner.entries.values().map(|e| e.written).collect();
        let (_, cut, _) = ages.select_nth_unstable(drop_n - 1);
        let cut = *cut;
        inner.entries.retain(|_, e| e.written > cut);
    }

    fn touch_now(&self, id: &str, session: &SessionRecord) {
        let mut inner = self.lock();
        let Some(entry) = inner.entries.get_mut(id) else {
            return;
        };
        // Only the cookie of what is stored changes, as express-session's
        // MemoryStore does.
        if let Some(mut stored) = SessionRecord::from_json(&entry.json) {
            stored.cookie = session.cookie.clone();
            entry.json = stored.to_json();
            entry.expires = session.cookie.max_age().map(|ms| now_ms() + ms);
        }
    }
}

impl SessionStore for MemoryStore {
    fn get<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<SessionRecord>, Error>> {
        let found = self.get_now(id);
        Box::pin(std::future::ready(Ok(found)))
    }

    fn set<'a>(
        &'a self,
        id: &'a str,
        session: &'a SessionRecord,
    ) -> BoxFuture<'a, Result<(), Error>> {
        self.set_now(id, session);
        Box::pin(std::future::ready(Ok(())))
    }

    fn destroy<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<(), Error>> {
        self.lock().entries.remove(id);
        Box::pin(std::future::ready(Ok(())))
    }

    fn touch<'a>(
        &'a self,
        id: &'a str,
        session: &'a SessionRecord,
    ) -> BoxFuture<'a, Result<(), Error>> {
        self.touch_now(id, session);
        Box::pin(std::future::ready(Ok(())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(expires: &str) -> SessionRecord {
        SessionRecord::from_json(&format!(
            r#"{{"cookie":{{"originalMaxAge":1000,"expires":{expires}}},"n":1}}"#
        ))
        .unwrap()
    }

    #[test]
    fn an_expired_session_is_gone() {
        let store = MemoryStore::new();
        store.set_now("a", &record(r#""2000-01-01T00:00:00.000Z""#));
        store.set_now("b", &record("null"));
        assert!(store.get_now("a").is_none());
        assert_eq!(store.get_now("b").unwrap().data()["n"], 1);
        assert_eq!(store.len(), 1);
    }

    #[test]
    fn a_full_store_drops_expired_then_oldest_sessions() {
        let store = MemoryStore::with_max_entries(32);
        store.set_now("old", &record(r#""2000-01-01T00:00:00.000Z""#));
        for i in 0..31 {
            store.set_now(&format!("s{i}"), &record("null"));
        }
        store.set_now("new", &record("null"));
        assert_eq!(store.len(), 32);
        assert!(store.raw("old").is_none());
        for i in 32..100 {
            store.set_now(&format!("s{i}"), &record("null"));
            assert!(store.len() <= 32);
        }
        assert!(store.raw("s99").is_some());
        assert!(store.raw("s0").is_none());
    }
}
