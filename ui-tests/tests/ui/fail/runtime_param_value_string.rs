use webfw::prelude::*;

fn load(req: &mut Request, _res: &mut Response, id: String) -> Result {
    req.set_local("id", serde_json::json!(id));
    next()
}

fn main() {
    let mut app = webfw::app();
    app.param("id", load);
}
