use webfw::prelude::*;

fn h(_req: &mut Request, _res: &mut Response) -> Result {
    next()
}

fn main() {
    let mut app = webfw::app();
    app.use_((h, h, h, h, h, h, h, h, h, h, h, h, h, h, h, h, h));
}
