use webfw::prelude::*;

#[middleware(42)]
fn stamp(_req: &mut Request, _res: &mut Response) -> Result {
    next()
}

fn main() {}
