use webfw::prelude::*;

#[get("/sync")]
fn sync(_req: &mut Request, res: &mut Response) -> Result {
    res.send("sync")
}

#[get("/async")]
async fn not_sync(_req: &mut Request, res: &mut Response) -> Result {
    tokio::task::yield_now().await;
    res.send("async")
}

#[param("id")]
async fn load(req: &mut Request, _res: &mut Response, id: &str) -> Result {
    req.set_local("id", serde_json::json!(id));
    next()
}

#[error_handler]
async fn oops(err: Error, _req: &mut Request, res: &mut Response) -> Result {
    res.status(err.status()).send(err.to_string())
}

#[middleware]
async fn stamp(_req: &mut Request, res: &mut Response) -> Result {
    res.set("x-stamp", "1");
    next()
}

fn main() {
    let mut app = webfw::app();
    app.mount(routes![stamp, load, sync, not_sync, oops]);
}
