use webfw::prelude::*;

#[error_handler]
async fn oops(_req: &mut Request, res: &mut Response, err: Error) -> Result {
    res.status(err.status()).send("oops")
}

fn main() {}
