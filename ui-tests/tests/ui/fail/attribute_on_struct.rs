use webfw::prelude::*;

#[get("/")]
struct Index;

fn main() {}
