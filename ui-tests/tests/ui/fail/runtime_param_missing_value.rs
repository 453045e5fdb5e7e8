use webfw::prelude::*;

fn load(_req: &mut Request, _res: &mut Response) -> Result {
    next()
}

fn main() {
    let mut app = webfw::app();
    app.param("id", load);
}
