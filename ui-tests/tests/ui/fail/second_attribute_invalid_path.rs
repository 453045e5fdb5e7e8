use webfw::prelude::*;

#[get("/a")]
#[put("/b/(x")]
fn both(_req: &mut Request, res: &mut Response) -> Result {
    res.send("both")
}

fn main() {}
