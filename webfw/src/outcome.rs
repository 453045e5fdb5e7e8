//! A handler's outcome: Express passes `next` into every middleware, and
//! `next()`, `next('route')`, `next('router')` and `next(err)` say what
//! comes after it. In webfw the outcome is the handler's return value
//! ([`Result`] of a [`Flow`]), and [`meaning`] says once what each outcome
//! means where the handler ran; every reader of a result goes through it.

use crate::error::Error;

/// What a handler tells the router to do next.
///
/// ```
/// use webfw::Flow;
/// assert_eq!(webfw::next().unwrap(), Flow::Next);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// `next()`: continue with the next matching handler.
    Next,
    /// `next('route')`: skip the rest of the current route's handlers.
    Route,
    /// `next('router')`: leave the current router.
    Router,
    /// The response has been handled; stop here.
    Done,
}

/// The result of a handler: a [`Flow`] or an [`Error`] (Express: `next(err)`).
///
/// ```
/// use webfw::prelude::*;
/// fn admin(req: &mut Request, _res: &mut Response) -> Result {
///     if req.get("x-admin").is_none() {
///         return Err(Error::new("forbidden").with_status(403));
///     }
///     next()
/// }
/// ```
pub type Result<T = Flow, E = Error> = std::result::Result<T, E>;

/// `next()`: pass control to the next matching handler.
///
/// ```
/// use webfw::prelude::*;
/// fn pass(_req: &mut Request, _res: &mut Response) -> Result { next() }
/// ```
pub fn next() -> Result {
    Ok(Flow::Next)
}

/// `next('route')`: skip the remaining handlers of this route.
///
/// ```
/// use webfw::prelude::*;
/// fn skip(_req: &mut Request, _res: &mut Response) -> Result { next_route() }
/// ```
pub fn next_route() -> Result {
    Ok(Flow::Route)
}

/// `next('router')`: leave the current router.
///
/// ```
/// use webfw::prelude::*;
/// fn leave(_req: &mut Request, _res: &mut Response) -> Result { next_router() }
/// ```
pub fn next_router() -> Result {
    Ok(Flow::Router)
}

/// Where a handler ran: what `next('route')` means depends on it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Within {
    /// A `use` layer: `next('route')` is `next()`.
    Use,
    /// A route: `next('route')` skips the rest of the route.
    Route,
    /// A parameter callback: `next('route')` skips the layer.
    Param,
}

/// What a handler's result asks for.
#[derive(Debug)]
pub(crate) enum Meaning {
    /// Go on with the next handler.
    Continue,
    /// Go on in error mode, with this error: only error handlers run.
    Fail(Error),
    /// Leave the layer (`next('route')` in a route or parameter callback).
    EndLayer,
    /// Leave the router (`next('router')`).
    LeaveRouter,
    /// The response is handled: stop everything.
    Done,
}

/// The meaning of each handler outcome, written once: every run of
/// handlers, the fused run of plain functions and the parameter callbacks
/// read a result through this.
#[inline(always)]
pub(crate) fn meaning(r: Result, within: Within) -> Meaning {
    match r {
        Ok(Flow::Next) => Meaning::Continue,
        Ok(Flow::Route) if within == Within::Use => Meaning::Continue,
        Ok(Flow::Route) => Meaning::EndLayer,
        Ok(Flow::Router) => Meaning::LeaveRouter,
        Ok(Flow::Done) => Meaning::Done,
        Err(e) => Meaning::Fail(e),
    }
}

impl Meaning {
    /// The result that means this, for a run that hands it on (a fused
    /// run of plain functions is one handler to the run around it).
    #[inline(always)]
    pub(crate) fn into_result(self) -> Result {
        match self {
            Meaning::Continue => Ok(Flow::Next),
            Meaning::Fail(e) => Err(e),
            Meaning::EndLayer => Ok(Flow::Route),
            Meaning::LeaveRouter => Ok(Flow::Router),
            Meaning::Done => Ok(Flow::Done),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn next_route_means_next_in_use_and_ends_the_layer_elsewhere() {
        let m = |r: Result, within| format!("{:?}", meaning(r, within));
        assert_eq!(m(Ok(Flow::Route), Within::Use), "Continue");
        assert_eq!(m(Ok(Flow::Route), Within::Route), "EndLayer");
        assert_eq!(m(Ok(Flow::Route), Within::Param), "EndLayer");
        for within in [Within::Use, Within::Route, Within::Param] {
            assert_eq!(m(Ok(Flow::Next), within), "Continue");
            assert_eq!(m(Ok(Flow::Router), within), "LeaveRouter");
            assert_eq!(m(Ok(Flow::Done), within), "Done");
            assert!(m(Err(Error::new("x")), within).starts_with("Fail"));
        }
    }

    #[test]
    fn a_meaning_handed_on_means_the_same_again() {
        for within in [Within::Use, Within::Route, Within::Param] {
            for flow in [Flow::Next, Flow::Route, Flow::Router, Flow::Done] {
                let once = meaning(Ok(flow), within);
                let shown = format!("{once:?}");
                assert_eq!(format!("{:?}", meaning(once.into_result(), within)), shown);
            }
        }
    }
}
