use webfw::prelude::*;

fn main() {
    let mut app = webfw::app();
    app.route("/book").get(|_req: &mut Request, _res: &mut Response| {});
}
