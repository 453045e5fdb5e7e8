use webfw::prelude::*;

#[get("/")]
fn index<T: Default>(_req: &mut Request, res: &mut Response) -> Result {
    let _ = T::default();
    res.send("index")
}

fn main() {}
