use webfw::prelude::*;

#[get("/")]
fn index(req: &Request, res: &mut Response) -> Result {
    res.send(req.path().to_owned())
}

fn main() {}
