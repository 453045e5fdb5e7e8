use webfw::prelude::*;

struct Api;

impl Api {
    #[get("/")]
    fn index(&self, _req: &mut Request, res: &mut Response) -> Result {
        res.send("index")
    }
}

fn main() {}
