use webfw::prelude::*;

#[get("/")]
fn root(_req: &mut Request, res: &mut Response) -> Result {
    res.send("root")
}

#[get("/users/:id")]
fn user(_req: &mut Request, res: &mut Response) -> Result {
    res.send("user")
}

#[middleware]
fn guard(_req: &mut Request, _res: &mut Response) -> Result {
    next()
}

fn main() {
    let mut router = webfw::router();
    router.mount_at("/api", routes![guard, root, user]);
    assert_eq!(router.len(), 3);
    let mut app = webfw::app();
    app.mount_at("/v1/", routes![root]);
    app.use_at("/x", router);
}
