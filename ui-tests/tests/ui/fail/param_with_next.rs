use webfw::prelude::*;

#[param("id")]
fn load(_req: &mut Request, _res: &mut Response, _id: &str, next: impl FnOnce()) -> Result {
    next();
    webfw::next()
}

fn main() {}
