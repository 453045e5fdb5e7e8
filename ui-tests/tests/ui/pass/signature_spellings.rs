use webfw::prelude::*;

#[get("/a")]
fn explicit_lifetimes<'a>(_req: &'a mut Request, res: &'a mut Response) -> Result {
    res.send("a")
}

#[get("/b")]
fn full_result(_req: &mut webfw::Request, res: &mut webfw::Response) -> webfw::Result<Flow, Error> {
    res.send("b")
}

#[get("/c")]
fn std_result(_req: &mut Request, res: &mut Response) -> std::result::Result<webfw::Flow, webfw::Error> {
    res.send("c")
}

#[get("/d")]
fn patterns(_: &mut Request, mut res: &mut Response) -> Result<Flow> {
    res = res;
    res.send("d")
}

#[error_handler]
fn qualified(err: webfw::Error, _: &mut Request, _: &mut Response) -> Result {
    Err(err)
}

#[param("id")]
fn value_lifetime<'v>(_req: &mut Request, _res: &mut Response, _value: &'v str) -> Result {
    next()
}

fn main() {
    let mut app = webfw::app();
    app.mount(routes![explicit_lifetimes, full_result, std_result, patterns, qualified, value_lifetime]);
}
