//! What an app hands down while its tree freezes (Express resolves the
//! same inheritance when a sub-app is mounted, in its `mount` handler):
//! resolved settings, the full mount path, view engines, typed state, and
//! where handlers record a state value no app provides.

use super::settings::Settings;
use super::state::{Missing, StateMap};
#[cfg(feature = "views")]
use crate::view::Engines;

/// What a sub-app needs from its parent while freezing.
pub(crate) struct Parent {
    pub(crate) settings: Settings,
    pub(crate) path: String,
    /// The parent's engines until the app lays its own over them
    /// (`App::freeze_with`).
    #[cfg(feature = "views")]
    pub(crate) engines: Engines,
    /// The app's values over its parents'.
    pub(crate) state: StateMap,
    /// Where handlers record the values they need and do not find.
    pub(crate) missing: Missing,
}

impl Parent {
    /// The top app's own: its settings resolved with no parent, at path `""`.
    pub(crate) fn root(settings: &Settings, state: StateMap) -> Parent {
        Parent {
            settings: settings.resolve(None),
            path: String::new(),
            #[cfg(feature = "views")]
            engines: Engines::default(),
            state,
            missing: Missing::default(),
        }
    }

    /// A sub-app's, mounted at `mountpath` under this app: its settings and
    /// values over this app's (and this app's engines, for the sub-app to
    /// lay its own over).
    pub(crate) fn under(&self, settings: &Settings, mountpath: &str, state: &StateMap) -> Parent {
        Parent {
            settings: settings.resolve(Some(&self.settings)),
            path: format!("{}{mountpath}", self.path),
            #[cfg(feature = "views")]
            engines: self.engines.clone(),
            state: state.over(&self.state),
            missing: self.missing.clone(),
        }
    }

    /// The app's full mount path (`""` for the top app).
    pub(crate) fn path(&self) -> &str {
        &self.path
    }
}
