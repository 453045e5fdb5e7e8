use webfw::prelude::*;

#[get("/a")]
#[post = "/b"]
fn both(_req: &mut Request, res: &mut Response) -> Result {
    res.send("both")
}

fn main() {}
