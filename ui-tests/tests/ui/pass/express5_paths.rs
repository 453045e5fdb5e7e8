//! Express 5 attributes: every path shape of path-to-regexp 8 compiles,
//! and an Express 4 attribute sits beside them.
use webfw::express5::{get, middleware};
use webfw::prelude::*;

#[get("/files/*rest")]
#[get("/:name{.:ext}")]
#[webfw::express5::post(r"/lit/\(1\+1\)", "/quoted/:\"user-id\"")]
fn five(_req: &mut Request, res: &mut Response) -> Result {
    res.send("five")
}

#[middleware("/api{/:version}")]
fn api(_req: &mut Request, _res: &mut Response) -> Result {
    next()
}

#[webfw::get("/old/:id?")]
fn four(_req: &mut Request, res: &mut Response) -> Result {
    res.send("four")
}

fn main() {
    let routes = routes![api, five, four];
    let dialects: Vec<_> = routes.iter().map(|e| e.dialect()).collect();
    assert_eq!(
        dialects,
        [
            webfw::Dialect::Express5,
            webfw::Dialect::Express5,
            webfw::Dialect::Express5,
            webfw::Dialect::Express5,
            webfw::Dialect::Express4
        ]
    );
    let mut app = webfw::express5::app();
    app.mount(routes);
}
