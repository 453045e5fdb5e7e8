use webfw::prelude::*;

#[middleware]
fn stamp(_req: &mut Request, res: &mut Response) {
    res.set("x-stamp", "1");
}

fn main() {}
