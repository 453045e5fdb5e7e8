use webfw::prelude::*;

#[param("id")]
fn load(_req: &mut Request, _res: &mut Response) -> Result {
    next()
}

fn main() {}
