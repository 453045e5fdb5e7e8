use webfw::prelude::*;

fn main() {
    #[get("/local")]
    fn local(_req: &mut Request, res: &mut Response) -> Result {
        res.send("local")
    }

    #[param("id")]
    fn load(_req: &mut Request, _res: &mut Response, _id: &str) -> Result {
        next()
    }

    let mut app = webfw::app();
    app.mount(routes![load, local]);
}
