use std::cell::Cell;

use webfw::prelude::*;
use webfw::{Handler, HandlerFuture};

struct Counter(Cell<u32>);

impl Handler for Counter {
    fn call<'a>(&'a self, _req: &'a mut Request, res: &'a mut Response) -> HandlerFuture<'a> {
        self.0.set(self.0.get() + 1);
        HandlerFuture::ready(res.send(self.0.get().to_string()))
    }
}

fn main() {
    let mut app = webfw::app();
    app.get("/", Counter(Cell::new(0)));
}
