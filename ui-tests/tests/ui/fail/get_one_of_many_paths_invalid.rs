use webfw::prelude::*;

#[get("/ok", "/bad/:id(")]
fn many(_req: &mut Request, res: &mut Response) -> Result {
    res.send("many")
}

fn main() {}
