//! The Express "hello world", in webfw.
use webfw::prelude::*;

#[get("/")]
async fn hello(_req: &mut Request, res: &mut Response) -> Result {
    res.send("Hello World!")
}

fn main() -> std::io::Result<()> {
    let mut app = webfw::app();
    app.mount(routes![hello]);
    app.listen(3000, |addr| println!("Example app listening on {addr}"))
}
