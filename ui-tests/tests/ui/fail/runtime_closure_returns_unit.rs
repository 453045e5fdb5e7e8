use webfw::prelude::*;

fn main() {
    let mut app = webfw::app();
    app.get("/", |_req: &mut Request, res: &mut Response| {
        res.send("hi").ok();
    });
}
