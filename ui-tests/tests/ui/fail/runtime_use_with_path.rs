use webfw::prelude::*;

fn api(_req: &mut Request, res: &mut Response) -> Result {
    res.send("api")
}

fn main() {
    let mut app = webfw::app();
    app.use_("/api", api);
}
