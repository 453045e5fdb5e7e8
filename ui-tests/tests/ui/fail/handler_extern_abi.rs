use webfw::prelude::*;

#[get("/")]
extern "C" fn index(_req: &mut Request, res: &mut Response) -> Result {
    res.send("index")
}

fn main() {}
