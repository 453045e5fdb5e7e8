use webfw::prelude::*;

#[get("/files/:name(+)")]
fn file(_req: &mut Request, res: &mut Response) -> Result {
    res.send("file")
}

fn main() {}
