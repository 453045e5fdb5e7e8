use webfw::prelude::*;

#[get("/")]
fn index(_req: &mut Request, _res: &mut Response, next: impl FnOnce()) -> Result {
    next();
    webfw::next()
}

fn main() {}
