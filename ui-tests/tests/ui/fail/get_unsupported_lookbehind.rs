use webfw::prelude::*;

#[get("/:x((?<=a+)b)")]
fn odd(_req: &mut Request, res: &mut Response) -> Result {
    res.send("odd")
}

fn main() {}
