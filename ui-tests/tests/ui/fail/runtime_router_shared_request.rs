use webfw::prelude::*;

fn show(req: &Request, res: &mut Response) -> Result {
    res.send(req.path().to_owned())
}

fn main() {
    let mut router = webfw::router();
    router.post("/", show);
}
