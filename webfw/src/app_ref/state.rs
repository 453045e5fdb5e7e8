//! Typed application state: values an app holds (a database pool, a
//! client, configuration) that every handler of the app reaches, in
//! mounted routers and sub-apps too. A sub-app sees its own values, then
//! its parents', as settings inherit; the merged list is made at freeze.

use std::any::{Any, TypeId};
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

/// One value and its type.
#[derive(Clone)]
struct Slot {
    id: TypeId,
    value: Arc<dyn Any + Send + Sync>,
}

/// The values of one app, latest first. A list, not a map: apps hold a
/// handful, and comparing type ids in a row is cheaper than hashing one.
#[derive(Clone, Default)]
pub(crate) struct StateMap(Vec<Slot>);

impl StateMap {
    /// The value of type `T`, if any.
    #[inline]
    pub(crate) fn get<T: Send + Sync + 'static>(&self) -> Option<&T> {
        let id = TypeId::of::<T>();
        let slot = self.0.iter().find(|s| s.id == id)?;
        slot.value.downcast_ref::<T>()
    }

    /// The value of type `T` as the `Arc` it is kept in, for a handler that
    /// holds it for as long as it lives.
    pub(crate) fn get_arc<T: Send + Sync + 'static>(&self) -> Option<Arc<T>> {
        let id = TypeId::of::<T>();
        let slot = self.0.iter().find(|s| s.id == id)?;
        slot.value.clone().downcast::<T>().ok()
    }

    /// Sets the value of its type, replacing an earlier one.
    pub(crate) fn insert<T: Send + Sync + 'static>(&mut self, value: T) {
        let id = TypeId::of::<T>();
        self.0.retain(|s| s.id != id);
        self.0.insert(
            0,
            Slot {
                id,
                value: Arc::new(value),
            },
        );
    }

    /// This app's values over its parent's: a sub-app sees its own first.
    pub(crate) fn over(&self, parent: &StateMap) -> StateMap {
        let mut merged = self.0.clone();
        for slot in &parent.0 {
            if !merged.iter().any(|s| s.id == slot.id) {
                merged.push(slot.clone());
            }
        }
        StateMap(merged)
    }
}

/// The values handlers asked for at registration and no app provided,
/// collected over the whole tree while it freezes.
#[derive(Clone, Default)]
pub(crate) struct Missing(Rc<RefCell<Vec<String>>>);

impl Missing {
    /// Records that a handler of the app at `path` needs a `type_name`.
    pub(crate) fn add(&self, type_name: &str, path: &str) {
        let app = if path.is_empty() {
            "the app".to_owned()
        } else {
            format!("the app mounted at {path}")
        };
        self.0.borrow_mut().push(format!(
            "a handler of {app} takes a `{type_name}` (`webfw::with_state`), which neither \
             it nor a parent app provides: call `app.state(value)` with one"
        ));
    }

    /// All the messages, one a line, if any.
    pub(crate) fn message(&self) -> Option<String> {
        let list = self.0.borrow();
        (!list.is_empty()).then(|| list.join("\n"))
    }
}
