//! `app.cache`: compiled views by name, bounded.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use super::Compiled;

/// Compiled views by the name they were rendered with. Once full, new views
/// are rendered but not kept.
pub(crate) struct ViewCache {
    max: usize,
    views: Mutex<HashMap<String, Arc<dyn Compiled>>>,
}

impl ViewCache {
    pub(crate) fn new(max: usize) -> ViewCache {
        ViewCache {
            max,
            views: Mutex::new(HashMap::new()),
        }
    }

    pub(crate) fn get(&self, name: &str) -> Option<Arc<dyn Compiled>> {
        self.lock().get(name).cloned()
    }

    pub(crate) fn insert(&self, name: &str, view: Arc<dyn Compiled>) {
        let mut views = self.lock();
        if views.len() < self.max || views.contains_key(name) {
            views.insert(name.to_owned(), view);
        }
    }

    /// A panic while the lock was held cannot leave the map half-updated
    /// (every update is one `insert`), so a poisoned lock is still usable.
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<dyn Compiled>>> {
        self.views.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;
    use crate::view::Locals;

    struct Fixed(&'static str);
    impl Compiled for Fixed {
        fn render(&self, _: &Locals) -> Result<String, Error> {
            Ok(self.0.to_owned())
        }
    }

    #[test]
    fn keeps_at_most_max_views() {
        let cache = ViewCache::new(2);
        cache.insert("a", Arc::new(Fixed("a")));
        cache.insert("b", Arc::new(Fixed("b")));
        cache.insert("c", Arc::new(Fixed("c")));
        assert!(cache.get("c").is_none());
        cache.insert("a", Arc::new(Fixed("a2")));
        let a = cache.get("a").unwrap().render(&Locals::new()).unwrap();
        assert_eq!(a, "a2");
    }
}
