use webfw::prelude::*;

fn oops(err: &Error, _req: &mut Request, res: &mut Response) -> Result {
    res.status(err.status()).send(err.to_string())
}

fn main() {
    let mut app = webfw::app();
    app.use_(oops);
}
