use webfw::prelude::*;

#[get("/")]
async fn index(_req: &mut Request, res: &mut Response) {
    let _ = res.send("index");
}

fn main() {}
