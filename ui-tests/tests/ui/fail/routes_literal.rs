use webfw::prelude::*;

fn main() {
    let mut app = webfw::app();
    app.mount(routes!["/users"]);
}
