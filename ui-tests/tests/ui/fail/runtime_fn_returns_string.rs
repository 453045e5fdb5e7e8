use webfw::prelude::*;

fn show(_req: &mut Request, _res: &mut Response) -> String {
    "hi".to_owned()
}

fn main() {
    let mut app = webfw::app();
    app.get("/", show);
}
