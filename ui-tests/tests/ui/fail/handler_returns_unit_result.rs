use webfw::prelude::*;

#[get("/")]
fn index(_req: &mut Request, res: &mut Response) -> Result<(), Error> {
    res.send("index")?;
    Ok(())
}

fn main() {}
