use webfw::prelude::*;

struct Index;

fn main() {
    let mut app = webfw::app();
    app.mount(routes![Index]);
}
