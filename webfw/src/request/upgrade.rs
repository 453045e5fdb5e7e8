//! `req.wants_upgrade`: whether the client asks to switch protocols (see
//! [`crate::upgrade`]).

use crate::request::Request;

impl Request {
    /// Whether the client asks to switch this connection to `protocol`
    /// (`Upgrade: websocket`, case-insensitive) and the connection can:
    /// HTTP/1.1, not yet upgraded. HTTP/2 requests never can.
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// assert!(!req.wants_upgrade("websocket"));
    /// ```
    pub fn wants_upgrade(&self, protocol: &str) -> bool {
        self.extensions()
            .get::<crate::upgrade::Upgradable>()
            .is_some()
            && self
                .headers()
                .get_all(http::header::UPGRADE)
                .iter()
                .any(|v| {
                    v.to_str().is_ok_and(|list| {
                        list.split(',')
                            .any(|p| p.trim().eq_ignore_ascii_case(protocol))
                    })
                })
    }
}
