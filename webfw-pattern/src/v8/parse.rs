//! The tokenizer of path-to-regexp 8.4 (`parse()`): text, `:name` and
//! `*name` (bare or `"quoted"`), nested `{…}` groups and `\x` escapes, with
//! its error messages word for word. Indexes in messages count code
//! points, as the JavaScript does over `[...str]`.

use super::{ErrorKind, Token};
use crate::PatternError;

/// `[$_\p{ID_Start}]`. `unicode-ident` has the XID sets; the few code points
/// in ID_Start but not XID_Start (NFKC oddities) are added back.
pub(crate) fn id_start(c: char) -> bool {
    c == '$' || c == '_' || unicode_ident::is_xid_start(c) || ID_ONLY_START.contains(&(c as u32))
}

/// `[$\u200c\u200d\p{ID_Continue}]`.
pub(crate) fn id_continue(c: char) -> bool {
    matches!(c, '$' | '\u{200c}' | '\u{200d}')
        || unicode_ident::is_xid_continue(c)
        || ID_ONLY_CONTINUE.contains(&(c as u32))
}

/// ID_Start minus XID_Start (Unicode's DerivedCoreProperties).
const ID_ONLY_START: &[u32] = &[
    0x037A, 0x0E33, 0x0EB3, 0x309B, 0x309C, 0xFC5E, 0xFC5F, 0xFC60, 0xFC61, 0xFC62, 0xFC63, 0xFDFA,
    0xFDFB, 0xFE70, 0xFE72, 0xFE74, 0xFE76, 0xFE78, 0xFE7A, 0xFE7C, 0xFE7E, 0xFF9E, 0xFF9F,
];

/// ID_Continue minus XID_Continue.
const ID_ONLY_CONTINUE: &[u32] = &[
    0x037A, 0x309B, 0x309C, 0xFC5E, 0xFC5F, 0xFC60, 0xFC61, 0xFC62, 0xFC63, 0xFDFA, 0xFDFB, 0xFE70,
    0xFE72, 0xFE74, 0xFE76, 0xFE78, 0xFE7A, 0xFE7C, 0xFE7E,
];

/// `PathError`'s text: `<reason>: <path>; visit … for info`.
pub(crate) fn message(reason: &str, path: &str) -> String {
    let mut text = reason.to_owned();
    if !path.is_empty() {
        text.push_str(": ");
        text.push_str(path);
    }
    text.push_str("; visit https://git.new/pathToRegexpError for info");
    text
}

struct Parser<'a> {
    path: &'a str,
    /// (byte offset, char) of every code point
    chars: Vec<(usize, char)>,
    i: usize,
}

impl Parser<'_> {
    fn at(&self, i: usize) -> Option<char> {
        self.chars.get(i).map(|&(_, c)| c)
    }

    fn byte(&self, i: usize) -> usize {
        self.chars.get(i).map_or(self.path.len(), |&(b, _)| b)
    }

    /// An error about the code points `from..to` (for the caret).
    fn error(&self, kind: ErrorKind, reason: String, from: usize, to: usize) -> PatternError {
        let offset = self.byte(from);
        let len = self.byte(to.max(from)) - offset;
        super::error(kind, message(&reason, self.path), offset, len, self.path)
    }

    fn until(&mut self, end: Option<char>, open: usize) -> Result<Vec<Token>, PatternError> {
        let mut out = Vec::new();
        let mut text = String::new();
        let flush = |text: &mut String, out: &mut Vec<Token>| {
            if !text.is_empty() {
                out.push(Token::Text(std::mem::take(text)));
            }
        };
        while let Some(c) = self.at(self.i) {
            let here = self.i;
            self.i += 1;
            if Some(c) == end {
                flush(&mut text, &mut out);
                return Ok(out);
            }
            match c {
                '\\' => {
                    let Some(next) = self.at(self.i) else {
                        let reason = format!("Unexpected end after \\ at index {}", self.i);
                        return Err(self.error(ErrorKind::TrailingBackslash, reason, here, self.i));
                    };
                    text.push(next);
                    self.i += 1;
                }
                ':' | '*' => {
                    let name = self.name(here)?;
                    flush(&mut text, &mut out);
                    out.push(if c == ':' {
                        Token::Param(name)
                    } else {
                        Token::Wildcard(name)
                    });
                }
                '{' => {
                    flush(&mut text, &mut out);
                    let inner = self.until(Some('}'), here)?;
                    out.push(Token::Group(inner));
                }
                '}' | '(' | ')' | '[' | ']' | '+' | '?' | '!' => {
                    let reason = format!("Unexpected {c} at index {here}");
                    return Err(self.error(ErrorKind::Unexpected(c), reason, here, here + 1));
                }
                _ => text.push(c),
            }
        }
        if end.is_some() {
            let reason = format!("Unexpected end at index {}, expected }}", self.i);
            // The caret goes under the `{` left open.
            return Err(self.error(ErrorKind::UnclosedGroup, reason, open, open + 1));
        }
        flush(&mut text, &mut out);
        Ok(out)
    }

    /// The name after the `:` or `*` at `sigil` (`self.i` just after it).
    fn name(&mut self, sigil: usize) -> Result<String, PatternError> {
        let mut name = String::new();
        match self.at(self.i) {
            Some(c) if id_start(c) => {
                name.push(c);
                self.i += 1;
                while let Some(c) = self.at(self.i).filter(|&c| id_continue(c)) {
                    name.push(c);
                    self.i += 1;
                }
            }
            Some('"') => {
                let quote = self.i;
                let mut closed = false;
                while self.i < self.chars.len() {
                    self.i += 1;
                    if self.at(self.i) == Some('"') {
                        self.i += 1;
                        closed = true;
                        break;
                    }
                    // A backslash takes the next character into the name.
                    if self.at(self.i) == Some('\\') {
                        self.i += 1;
                    }
                    if let Some(c) = self.at(self.i) {
                        name.push(c);
                    }
                }
                if !closed {
                    let reason = format!("Unterminated quote at index {quote}");
                    return Err(self.error(
                        ErrorKind::UnterminatedQuote,
                        reason,
                        quote,
                        self.chars.len(),
                    ));
                }
            }
            _ => {}
        }
        if name.is_empty() {
            let reason = format!("Missing parameter name at index {}", self.i);
            let kind = ErrorKind::MissingName(self.at(sigil).unwrap_or(':'));
            return Err(self.error(kind, reason, sigil, self.i.max(sigil + 1)));
        }
        Ok(name)
    }
}

/// Tokenize `path` as path-to-regexp 8's `parse()`.
pub(crate) fn tokens(path: &str) -> Result<Vec<Token>, PatternError> {
    let mut p = Parser {
        path,
        chars: path.char_indices().collect(),
        i: 0,
    };
    p.until(None, 0)
}
