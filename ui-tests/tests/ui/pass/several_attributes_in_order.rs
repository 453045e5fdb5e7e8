use webfw::prelude::*;

#[post("/b")]
#[webfw::get("/a")]
#[allow(clippy::needless_pass_by_ref_mut)]
#[webfw::put("/c", "/d")]
fn multi(_req: &mut Request, res: &mut Response) -> Result {
    res.send("multi")
}

#[param("from")]
#[param("to")]
fn range(_req: &mut Request, _res: &mut Response, _v: &str) -> Result {
    next()
}

fn main() {
    assert_eq!(
        routes![multi, range].to_string(),
        "POST /b -> multi\nGET /a -> multi\nPUT /c, /d -> multi\nPARAM from -> range\nPARAM to -> range"
    );
}
