use webfw::prelude::*;

#[get("/", "/index", "/index.html")]
fn index(_req: &mut Request, res: &mut Response) -> Result {
    res.send("index")
}

#[all("/a", "/b/:id")]
fn any(_req: &mut Request, res: &mut Response) -> Result {
    res.send("any")
}

fn main() {
    let routes = routes![index, any];
    let entries: Vec<_> = routes.iter().collect();
    assert_eq!(entries[0].paths(), ["/", "/index", "/index.html"]);
    assert_eq!(entries[1].method(), Some("all"));
    assert_eq!(entries[1].paths(), ["/a", "/b/:id"]);
    webfw::app().mount(routes);
}
