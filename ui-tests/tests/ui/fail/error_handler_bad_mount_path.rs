use webfw::prelude::*;

#[error_handler("/api/(v1")]
fn oops(err: Error, _req: &mut Request, res: &mut Response) -> Result {
    res.status(err.status()).send("oops")
}

fn main() {}
