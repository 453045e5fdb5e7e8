use webfw::prelude::*;

fn log(_req: &mut Request, _res: &mut Response, next: fn() -> Result) -> Result {
    next()
}

fn main() {
    let mut app = webfw::app();
    app.use_(log);
}
