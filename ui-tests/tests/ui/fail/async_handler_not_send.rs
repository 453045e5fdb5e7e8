use webfw::prelude::*;

#[get("/")]
async fn index(_req: &mut Request, res: &mut Response) -> Result {
    let counter = std::rc::Rc::new(1);
    tokio::task::yield_now().await;
    res.send(counter.to_string())
}

fn main() {}
