use webfw::prelude::*;

#[get("/")]
fn index(_req: &mut Request, _res: &mut Response) -> std::io::Result<Flow> {
    Ok(Flow::Next)
}

fn main() {}
