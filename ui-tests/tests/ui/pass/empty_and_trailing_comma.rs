use webfw::prelude::*;

#[get("/")]
fn index(_req: &mut Request, res: &mut Response) -> Result {
    res.send("index")
}

fn main() {
    let empty = routes![];
    assert!(empty.is_empty());
    let one = routes![index,];
    assert_eq!(one.len(), 1);
    let mut all = routes![index, index];
    all.extend(one);
    assert_eq!(all.len(), 3);
}
