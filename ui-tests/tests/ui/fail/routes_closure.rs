use webfw::prelude::*;

fn main() {
    let mut app = webfw::app();
    app.mount(routes![|_req: &mut Request, res: &mut Response| res.send("hi")]);
}
