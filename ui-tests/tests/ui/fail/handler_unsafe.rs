use webfw::prelude::*;

#[get("/")]
unsafe fn index(_req: &mut Request, res: &mut Response) -> Result {
    res.send("index")
}

fn main() {}
