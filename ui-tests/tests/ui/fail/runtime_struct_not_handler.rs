struct Greeter;

fn main() {
    let mut app = webfw::app();
    app.get("/", Greeter);
}
