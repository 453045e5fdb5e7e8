use webfw::prelude::*;

#[get(r"/users/:id(\d+)")]
fn digits(_req: &mut Request, res: &mut Response) -> Result {
    res.send("digits")
}

#[get("*")]
fn star(_req: &mut Request, res: &mut Response) -> Result {
    res.send("star")
}

#[get("/ab?cd", "/ab+cd", "/ab*cd", "/a(bc)?d")]
fn express_examples(_req: &mut Request, res: &mut Response) -> Result {
    res.send("examples")
}

#[get("/file/:name.:ext?", "/files/*", "/range/:from-:to")]
fn params(_req: &mut Request, res: &mut Response) -> Result {
    res.send("params")
}

// JavaScript look-arounds and backreferences, look-behinds of any length
#[get("/:x((?<=a+)b)", r"/:y(a)\1", "/:z(x(?!y))")]
fn look_arounds(_req: &mut Request, res: &mut Response) -> Result {
    res.send("look-arounds")
}

#[get("")]
fn empty(_req: &mut Request, res: &mut Response) -> Result {
    res.send("empty")
}

fn main() {
    let mut app = webfw::app();
    app.mount(routes![digits, star, express_examples, params, look_arounds, empty]);
}
