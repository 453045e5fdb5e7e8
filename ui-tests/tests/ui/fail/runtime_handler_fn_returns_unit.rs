fn main() {
    let mut app = webfw::app();
    app.get("/", webfw::handler_fn(|_req, res| {
        res.send("hi").ok();
    }));
}
