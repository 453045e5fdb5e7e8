use webfw::prelude::*;

fn show(_req: &mut Request, res: &mut Response) {
    res.send("hi").ok();
}

fn main() {
    let mut app = webfw::app();
    app.get("/", show);
}
