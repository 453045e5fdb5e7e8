use webfw::prelude::*;

fn show(req: &Request, res: &mut Response) -> Result {
    res.send(req.path().to_owned())
}

fn main() {
    let mut app = webfw::app();
    app.get("/", show);
}
