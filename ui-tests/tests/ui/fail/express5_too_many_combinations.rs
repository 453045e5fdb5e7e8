use webfw::prelude::*;

#[webfw::express5::get("/{a}{b}{c}{d}{e}{f}{g}{h}{i}")]
fn handler(_req: &mut Request, res: &mut Response) -> Result {
    res.send("never registered")
}

fn main() {}
