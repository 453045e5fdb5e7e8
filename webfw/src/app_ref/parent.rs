//! What an app hands down while its tree freezes (Express resolves the
//! same inheritance when a sub-app is mounted, in its `mount` handler):
//! resolved settings, the full mount path, view engines, typed state, and
//! where handlers record a state value no app provides.

use super::settings::Settings;
use super::state::{Missing, StateMap};
use crate::view::Engines;

/// What a sub-app needs from its parent while freezing.
pub(crate) struct Parent {
    pub(crate) settings: Settings,
    pub(crate) path: String,
    pub(crate) engines: Engines,
    /// The app's values over its parents'.
    pub(crate) state: StateMap,
    /// Where handlers record the values they need and do not find.
    pub(crate) missing: Missing,
}

impl Parent {
    /// The top app's own: its settings resolved with no parent, at path `""`.
    pub(crate) fn root(settings: &Settings, engines: Engines, state: StateMap) -> Parent {
        Parent {
            settings: settings.resolve(None),
            path: String::new(),
            engines,
            state,
            missing: Missing::default(),
        }
    }

    /// A sub-app's, mounted at `mountpath` under this app: its settings,
    /// engines and values over this app's.
    pub(crate) fn under(
        &self,
        settings: &Settings,
        mountpath: &str,
        engines: &Engines,
        state: &StateMap,
    ) -> Parent {
        Parent {
            settings: settings.resolve(Some(&self.settings)),
            path: format!("{}{mountpath}", self.path),
            engines: engines.over(&self.engines),
            state: state.over(&self.state),
            missing: self.missing.clone(),
        }
    }

    /// The app's full mount path (`""` for the top app).
    pub(crate) fn path(&self) -> &str {
        &self.path
    }
}
