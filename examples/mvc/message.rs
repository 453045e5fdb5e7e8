//! Express's `app.response.message = function (msg) { this.req.session … }`:
//! a helper written once and called from any handler. In Rust it is an
//! extension trait: `res.message(req, "…")` needs nothing but what every
//! handler has, the request and the response.

use webfw::prelude::*;

/// Flash messages kept in the session until the next page shows them.
pub trait Message {
    /// Adds `text` to the session's `messages`.
    fn message(&mut self, req: &Request, text: impl Into<String>)
    -> std::result::Result<(), Error>;
}

impl Message for Response {
    fn message(
        &mut self,
        req: &Request,
        text: impl Into<String>,
    ) -> std::result::Result<(), Error> {
        let mut messages: Vec<String> = req.session().get("messages").unwrap_or_default();
        messages.push(text.into());
        req.session().set("messages", messages)
    }
}

/// The other side, for the middleware that shows them.
pub trait Messages {
    /// The session's messages, leaving none behind.
    fn take_messages(&mut self) -> Vec<String>;
}

impl Messages for Request {
    fn take_messages(&mut self) -> Vec<String> {
        let messages: Vec<String> = self.session().get("messages").unwrap_or_default();
        if !messages.is_empty() {
            self.session().remove("messages");
        }
        messages
    }
}
