//! Up to 16 handlers in one tuple, sync and async mixed.
use webfw::prelude::*;

fn h(_req: &mut Request, _res: &mut Response) -> Result {
    next()
}

async fn a(_req: &mut Request, _res: &mut Response) -> Result {
    next()
}

fn main() {
    let mut app = webfw::app();
    app.use_((h, h, h, h, h, h, h, h, h, h, h, h, h, h, h, h));
    app.get("/", (h, a, h, a, h, a, h, a, h, a, h, a, h, a, h, a));
}
