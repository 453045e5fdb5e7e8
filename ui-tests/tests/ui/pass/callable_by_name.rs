use webfw::prelude::*;

#[get("/hello")]
fn hello(_req: &mut Request, res: &mut Response) -> Result {
    res.send("hello")
}

#[param("id")]
fn load(req: &mut Request, _res: &mut Response, id: &str) -> Result {
    req.set_local("id", serde_json::json!(id));
    next()
}

#[error_handler]
fn oops(err: Error, _req: &mut Request, _res: &mut Response) -> Result {
    Err(err)
}

#[get("/later")]
async fn later(_req: &mut Request, _res: &mut Response) -> Result {
    next_route()
}

fn main() {
    let mut req = webfw::testing::request(http::Method::GET, "/hello");
    let mut res = webfw::testing::response(&req);
    assert_eq!(hello(&mut req, &mut res).unwrap(), Flow::Done);
    assert!(res.headers_sent());

    assert_eq!(load(&mut req, &mut res, "7").unwrap(), Flow::Next);
    assert_eq!(req.local("id").unwrap(), "7");

    let err = oops(Error::new("x").with_status(418), &mut req, &mut res).unwrap_err();
    assert_eq!(err.status(), 418);

    let rt = tokio::runtime::Builder::new_current_thread().build().unwrap();
    assert_eq!(rt.block_on(later(&mut req, &mut res)).unwrap(), Flow::Route);

    // the generated struct lives in the type namespace only
    let _: hello = hello {};
}
