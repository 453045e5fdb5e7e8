//! The in-memory session store: the default, for one process.

use std::collections::HashMap;
use std::sync::Mutex;

use super::cookie::now_ms;
use super::store::{SessionRecord, SessionStore};
use crate::error::Error;
use crate::handler::BoxFuture;

/// Sessions kept in this process's memory, expired ones dropped on sight
/// and purged when the store is full. Bounded: it holds at most
/// `max_entries` sessions (express-session's `MemoryStore` grows without
/// end). When full, room is made in this order: expired sessions, then
/// sessions holding no data (what `saveUninitialized` stores for every
/// cookieless request) used least recently, then sessions holding data used
/// least recently (read, written or touched). A new session holding no data
/// never pushes out one that holds data: when only those are left it is not
/// stored, and its client simply gets a new session next time. So a flood
/// of cookieless requests cannot log users out; only as many sessions
/// with data as `max_entries` can. Processes do not share it: use a shared
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
    /// Incremented on each read, write and touch: the use order for eviction.
    clock: u64,
}

#[derive(Debug)]
struct Entry {
    json: String,
    /// Milliseconds since the epoch.
    expires: Option<f64>,
    /// The clock at the last read, write or touch.
    used: u64,
    /// Whether the session holds anything besides its cookie.
    holds_data: bool,
}

impl Entry {
    /// Eviction order: smallest first.
    fn rank(&self) -> (bool, u64) {
        (self.holds_data, self.used)
    }
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
        inner.clock += 1;
        let clock = inner.clock;
        let entry = inner.entries.get_mut(id)?;
        if entry.expires.is_some_and(|e| e <= now_ms()) {
            inner.entries.remove(id);
            return None;
        }
        entry.used = clock;
        SessionRecord::from_json(&entry.json)
    }

    fn set_now(&self, id: &str, session: &SessionRecord) {
        let json = session.to_json();
        let expires = session.cookie.max_age().map(|ms| now_ms() + ms);
        let holds_data = !session.data.is_empty();
        let mut inner = self.lock();
        if !inner.entries.contains_key(id)
            && inner.entries.len() >= self.max_entries
            && !self.make_room(&mut inner, holds_data)
        {
            return;
        }
        inner.clock += 1;
        let used = inner.clock;
        inner.entries.insert(
            id.to_owned(),
            Entry {
                json,
                expires,
                used,
                holds_data,
            },
        );
    }

    /// Drops expired sessions; if that frees nothing, the first sixteenth
    /// (at least one) in eviction order ([`Entry::rank`]), so a full store
    /// pays for a scan only once every so many new sessions. For a session
    /// without data (`for_data` false) only sessions without data may go:
    /// false when there are none.
    fn make_room(&self, inner: &mut Inner, for_data: bool) -> bool {
        let now = now_ms();
        inner
            .entries
            .retain(|_, e| !e.expires.is_some_and(|x| x <= now));
        if inner.entries.len() < self.max_entries {
            return true;
        }
        let drop_n = (self.max_entries / 16).max(1);
        let mut ranks: Vec<(bool, u64)> = inner
            .entries
            .values()
            .filter(|e| for_data || !e.holds_data)
            .map(Entry::rank)
            .collect();
        if ranks.is_empty() {
            return false;
        }
        let n = drop_n.min(ranks.len());
        let (_, cut, _) = ranks.select_nth_unstable(n - 1);
        let cut = *cut;
        inner.entries.retain(|_, e| e.rank() > cut);
        true
    }

    fn touch_now(&self, id: &str, session: &SessionRecord) {
        let mut inner = self.lock();
        inner.clock += 1;
        let clock = inner.clock;
        let Some(entry) = inner.entries.get_mut(id) else {
            return;
        };
        entry.used = clock;
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

    fn empty() -> SessionRecord {
        SessionRecord::from_json(r#"{"cookie":{"originalMaxAge":null,"expires":null}}"#).unwrap()
    }

    #[test]
    fn sessions_without_data_never_push_out_sessions_with_data() {
        let store = MemoryStore::with_max_entries(16);
        for i in 0..16 {
            store.set_now(&format!("user{i}"), &record("null"));
        }
        for i in 0..100 {
            store.set_now(&format!("anon{i}"), &empty());
        }
        assert_eq!(store.len(), 16);
        assert!((0..16).all(|i| store.raw(&format!("user{i}")).is_some()));
        assert!(store.raw("anon99").is_none());
    }

    #[test]
    fn a_full_store_drops_sessions_without_data_first_then_the_least_used() {
        let store = MemoryStore::with_max_entries(4);
        store.set_now("a", &record("null"));
        store.set_now("b", &record("null"));
        store.set_now("anon", &empty());
        store.set_now("c", &record("null"));
        store.set_now("d", &record("null"));
        assert!(store.raw("anon").is_none());
        assert!(store.get_now("a").is_some());
        store.set_now("e", &record("null"));
        assert!(store.raw("b").is_none(), "b was used least recently");
        assert!(
            ["a", "c", "d", "e"]
                .iter()
                .all(|id| store.raw(id).is_some())
        );
    }
}
