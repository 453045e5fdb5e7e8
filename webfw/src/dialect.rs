//! Which Express an app or router speaks: the one value every per-dialect
//! seam reads (path syntax, query parser default, response helpers, body
//! parsers, static files).

/// The Express major version whose behaviour an [`App`](crate::App) or
/// [`Router`](crate::Router) follows. Chosen when it is made and frozen with
/// it: [`webfw::app()`](crate::app()) speaks Express 4,
/// [`webfw::express5::app()`](crate::express5::app) Express 5.
///
/// ```
/// use webfw::Dialect;
/// assert_eq!(webfw::app().dialect(), Dialect::Express4);
/// assert_eq!(webfw::express5::app().dialect(), Dialect::Express5);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Dialect {
    /// express 4.22: path-to-regexp 0.1, body-parser 1, send 0.19.
    #[default]
    Express4,
    /// express 5.3: router 2 with path-to-regexp 8, body-parser 2, send 1.
    Express5,
}

impl Dialect {
    /// Whether this is Express 5.
    ///
    /// ```
    /// assert!(webfw::Dialect::Express5.is_express5());
    /// assert!(!webfw::Dialect::Express4.is_express5());
    /// ```
    pub fn is_express5(self) -> bool {
        matches!(self, Dialect::Express5)
    }
}
