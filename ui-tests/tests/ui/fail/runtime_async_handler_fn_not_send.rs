use webfw::prelude::*;

async fn show(_req: &mut Request, res: &mut Response) -> Result {
    let counter = std::rc::Rc::new(1);
    tokio::task::yield_now().await;
    res.send(counter.to_string())
}

fn main() {
    let mut app = webfw::app();
    app.get("/", webfw::async_handler_fn(show));
}
