fn main() {
    let mut app = webfw::app();
    app.get("/", |req, res| res.send(req.path().to_owned()));
}
