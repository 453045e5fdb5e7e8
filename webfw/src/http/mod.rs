//! Pure HTTP helpers ported from Express's dependencies: no app state, no I/O.

pub mod content_type;
pub mod encodeurl;
pub mod escape_html;
pub mod etag;
pub mod fresh;
pub mod mime;
pub mod negotiate;
pub mod proxy_addr;
pub mod qs;
pub mod querystring;
pub mod status;
pub mod vary;

/// JavaScript's `\s` class (WhiteSpace plus LineTerminator), which is also what
/// `String.prototype.trim` removes; several of Express's helpers split and trim
/// with it.
pub(crate) fn is_js_whitespace(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | ' ' | '\u{a0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200a}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202f}'
                | '\u{205f}'
                | '\u{3000}'
                | '\u{feff}'
    )
}
