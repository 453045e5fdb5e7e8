use webfw::prelude::*;

async fn show(_req: &mut Request, _res: &mut Response) -> std::io::Result<()> {
    Ok(())
}

fn main() {
    let mut app = webfw::app();
    app.get("/", show);
}
