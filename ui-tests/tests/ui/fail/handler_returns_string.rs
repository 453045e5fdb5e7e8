use webfw::prelude::*;

#[get("/")]
fn index(_req: &mut Request, _res: &mut Response) -> String {
    "index".to_owned()
}

fn main() {}
