use webfw::prelude::*;

#[param("id")]
fn load(_req: &mut Request, _res: &mut Response, id: String) -> Result {
    let _ = id;
    next()
}

fn main() {}
