fn main() {
    let mut app = webfw::app();
    app.engine("html", |source: &str| source.to_owned());
}
