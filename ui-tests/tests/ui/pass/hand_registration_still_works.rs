use webfw::prelude::*;

#[get("/macro")]
fn handler(_req: &mut Request, res: &mut Response) -> Result {
    res.send("same function")
}

#[param("id")]
fn load(_req: &mut Request, _res: &mut Response, _id: &str) -> Result {
    next()
}

#[error_handler]
fn oops(err: Error, _req: &mut Request, res: &mut Response) -> Result {
    res.status(err.status()).send(err.to_string())
}

fn main() {
    let mut app = webfw::app();
    // the function value is the plain function, usable with the runtime API
    app.get("/by-hand", handler);
    app.param("id", load);
    app.use_(oops);
    app.mount(routes![handler]);
}
