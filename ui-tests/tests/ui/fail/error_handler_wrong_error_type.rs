use webfw::prelude::*;

#[error_handler]
fn oops(err: String, _req: &mut Request, res: &mut Response) -> Result {
    res.status(500).send(err)
}

fn main() {}
