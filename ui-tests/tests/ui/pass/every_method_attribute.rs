use webfw::prelude::*;

#[get("/r")]
#[post("/r")]
#[put("/r")]
#[delete("/r")]
#[patch("/r")]
#[head("/r")]
#[options("/r")]
#[all("/r")]
#[route(method = "m-search", path = "/r")]
#[route(method = "PURGE", path = "/r", path = "/s")]
fn every(_req: &mut Request, res: &mut Response) -> Result {
    res.send("every")
}

fn main() {
    let routes = routes![every];
    assert_eq!(
        routes.to_string(),
        "GET /r -> every\nPOST /r -> every\nPUT /r -> every\nDELETE /r -> every\n\
         PATCH /r -> every\nHEAD /r -> every\nOPTIONS /r -> every\nALL /r -> every\n\
         M-SEARCH /r -> every\nPURGE /r, /s -> every"
    );
    let mut app = webfw::app();
    app.mount(routes);
}
