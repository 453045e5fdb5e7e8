use webfw::prelude::*;

#[all()]
fn any(_req: &mut Request, res: &mut Response) -> Result {
    res.send("any")
}

fn main() {}
