//! `req.state::<T>()`: the typed values of the app a handler runs in.

use super::Request;
use crate::error::Error;

impl Request {
    /// The value of type `T` that the running app (or a parent app) was
    /// given with [`App::state`](crate::App::state). Looking it up costs no
    /// allocation. A type no app provided is an error for this request
    /// (500, naming the type); take the value as an argument through
    /// [`with_state`](crate::with_state) to have it checked when the app
    /// starts instead. The value is borrowed from the request: clone what
    /// is cheap to clone (a pool handle) to use it while changing the
    /// request.
    ///
    /// ```
    /// use webfw::prelude::*;
    /// struct Greeting(&'static str);
    /// fn hello(req: &mut Request, res: &mut Response) -> Result {
    ///     let Greeting(word) = req.state::<Greeting>()?;
    ///     res.send(*word)
    /// }
    /// let mut app = webfw::app();
    /// app.state(Greeting("hello"));
    /// app.get("/", hello);
    /// ```
    pub fn state<T: Send + Sync + 'static>(&self) -> Result<&T, Error> {
        match self.app.state::<T>() {
            Some(v) => Ok(v),
            None => Err(missing::<T>()),
        }
    }
}

#[cold]
fn missing<T>() -> Error {
    Error::new(format!(
        "no `{}` in the app's state: give the app one with `app.state(value)`",
        std::any::type_name::<T>()
    ))
}
