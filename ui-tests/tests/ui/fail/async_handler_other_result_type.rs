use webfw::prelude::*;

#[post("/")]
async fn create(_req: &mut Request, _res: &mut Response) -> std::io::Result<Flow> {
    Ok(Flow::Next)
}

fn main() {}
