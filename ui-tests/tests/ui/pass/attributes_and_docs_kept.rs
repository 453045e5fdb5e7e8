#![deny(missing_docs, dead_code)]
//! A crate with strict lints: the generated items must not trip them.

use webfw::prelude::*;

/// The index page.
#[get("/")]
#[inline]
#[must_use = "a handler's result tells the router what to do"]
pub fn index(_req: &mut Request, res: &mut Response) -> Result {
    res.send("index")
}

/// Mounted everywhere.
#[middleware]
#[allow(clippy::unnecessary_wraps)]
pub(crate) fn noop(_req: &mut Request, _res: &mut Response) -> Result {
    next()
}

/// The app.
pub fn app() -> webfw::App {
    let mut app = webfw::app();
    app.mount(routes![noop, index]);
    app
}

fn main() {
    let _ = app();
}
