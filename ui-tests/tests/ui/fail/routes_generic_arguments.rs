use webfw::prelude::*;

#[get("/")]
fn index(_req: &mut Request, res: &mut Response) -> Result {
    res.send("index")
}

fn main() {
    let mut app = webfw::app();
    app.mount(routes![index::<u8>]);
}
