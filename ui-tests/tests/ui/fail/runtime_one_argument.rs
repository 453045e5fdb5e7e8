use webfw::prelude::*;

fn show(res: &mut Response) -> Result {
    res.send("hi")
}

fn main() {
    let mut app = webfw::app();
    app.get("/", show);
}
