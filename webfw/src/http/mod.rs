//! Pure HTTP helpers ported from Express's dependencies: no app state, no I/O.

pub mod content_type;
pub mod encodeurl;
pub mod escape_html;
pub mod etag;
pub mod fresh;
pub mod mime;
pub mod negotiate;
pub mod proxy_addr;
pub mod querystring;
pub mod qs;
pub mod status;
pub mod vary;
