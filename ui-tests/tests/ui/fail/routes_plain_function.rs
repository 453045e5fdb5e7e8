use webfw::prelude::*;

fn plain(_req: &mut Request, res: &mut Response) -> Result {
    res.send("plain")
}

fn main() {
    let mut app = webfw::app();
    app.mount(routes![plain]);
}
