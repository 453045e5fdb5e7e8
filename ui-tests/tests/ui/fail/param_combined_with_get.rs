use webfw::prelude::*;

#[get("/users/:id")]
#[param("id")]
fn load(_req: &mut Request, res: &mut Response) -> Result {
    res.send("user")
}

fn main() {}
