use webfw::prelude::*;

#[get("/")]
fn index(_req: &mut Request, res: &mut Response) -> String {
    let _ = res;
    String::new()
}

fn main() {
    let mut app = webfw::app();
    app.mount(routes![index]);
}
