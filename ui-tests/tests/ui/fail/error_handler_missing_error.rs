use webfw::prelude::*;

#[error_handler]
fn oops(_req: &mut Request, res: &mut Response) -> Result {
    res.status(500).send("oops")
}

fn main() {}
