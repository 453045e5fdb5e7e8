use webfw::prelude::*;

#[param("from", "to")]
fn bound(req: &mut Request, _res: &mut Response, value: &str) -> Result {
    let n: u32 = value.parse().map_err(|_| Error::from_status(400))?;
    req.set_local("n", serde_json::json!(n));
    next()
}

#[get("/range/:from-:to")]
fn range(req: &mut Request, res: &mut Response) -> Result {
    let from = req.param("from").unwrap_or_default().to_owned();
    let to = req.param("to").unwrap_or_default().to_owned();
    res.send(format!("{from}..{to}"))
}

fn main() {
    let routes = routes![bound, range];
    let first = routes.iter().next().unwrap();
    assert_eq!(first.kind(), webfw::EntryKind::Param);
    assert_eq!(first.paths(), ["from", "to"]);
    let mut app = webfw::app();
    app.mount(routes);
}
