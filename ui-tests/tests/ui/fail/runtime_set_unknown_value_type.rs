fn main() {
    let mut app = webfw::app();
    app.set("json spaces", 2.5f32);
}
