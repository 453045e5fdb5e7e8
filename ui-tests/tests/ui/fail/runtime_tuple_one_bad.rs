use webfw::prelude::*;

fn ok(_req: &mut Request, _res: &mut Response) -> Result {
    next()
}

fn bad(_req: &Request, _res: &mut Response) -> Result {
    next()
}

fn main() {
    let mut app = webfw::app();
    app.get("/", (ok, bad, ok));
}
