use webfw::prelude::*;

#[param("user-id")]
fn load(_req: &mut Request, _res: &mut Response, _id: &str) -> Result {
    next()
}

fn main() {}
