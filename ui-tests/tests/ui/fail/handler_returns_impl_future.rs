use webfw::prelude::*;

#[get("/")]
fn index(_req: &mut Request, _res: &mut Response) -> impl std::future::Future<Output = Result> {
    async { next() }
}

fn main() {}
