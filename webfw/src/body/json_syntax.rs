//! The `SyntaxError` message Node 20's `JSON.parse` gives for invalid text
//! (V8 11's wording and positions, in UTF-16 code units), and
//! body-parser's strict-mode message built from it. It works on the UTF-8
//! text in place: only the few characters a message quotes are converted,
//! so a failed parse of a huge body costs no copy of it.

/// V8's context window around an unexpected token.
const CONTEXT: usize = 10;

/// The nesting serde_json refuses: an array or object opened inside 127
/// others. V8 has no such limit; see docs/RELIABILITY.md for why webfw does.
const MAX_DEPTH: usize = 128;

/// Where parsing failed; positions are byte offsets into the text.
enum Fail {
    Eos,
    Token(usize),
    Number(usize),
    At(&'static str, usize),
}

/// The message `JSON.parse(text)` throws, or `None` when the text is valid
/// JSON. Text nested [`MAX_DEPTH`] deep fails there, with webfw's own
/// message (V8 would parse it).
pub(crate) fn parse_error_message(text: &str) -> Option<String> {
    let fail = Scanner {
        s: text.as_bytes(),
        i: 0,
    }
    .run()
    .err()?;
    Some(render(text, fail))
}

/// body-parser's strict-mode error for a body whose first non-blank
/// character is not `{` or `[`. body-parser parses the body with that
/// character and all after it replaced by `#`, then puts the body back in
/// place of the `#`s of the message: which comes to V8's unexpected-token
/// message for that character of the body itself.
pub(crate) fn strict_error_message(text: &str) -> String {
    match text.bytes().position(|b| !is_ws(b)) {
        None => "Unexpected end of JSON input".to_owned(),
        Some(index) => token_message(text, index),
    }
}

/// The first non-blank character is `{` or `[` (body-parser's strict test).
pub(crate) fn starts_like_object_or_array(text: &str) -> bool {
    matches!(text.bytes().find(|&b| !is_ws(b)), Some(b'{' | b'['))
}

fn is_ws(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r')
}

/// The length in UTF-16 code units of UTF-8 `bytes`: one per character,
/// two for those past U+FFFF (four-byte sequences).
fn utf16_len(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .map(|&b| usize::from(b & 0xc0 != 0x80) + usize::from(b >= 0xf0))
        .sum()
}

fn render(text: &str, fail: Fail) -> String {
    let at = |pos: usize| utf16_len(&text.as_bytes()[..pos]);
    match fail {
        Fail::Eos => "Unexpected end of JSON input".to_owned(),
        Fail::Number(pos) => format!("Unexpected number in JSON at position {}", at(pos)),
        Fail::At(what, pos) if what.ends_with("after JSON") => {
            format!("{what} at position {}", at(pos))
        }
        Fail::At(what, pos) => format!("{what} in JSON at position {}", at(pos)),
        Fail::Token(_) if matches!(text, "undefined" | "NaN" | "Infinity" | "[object Object]") => {
            format!("\"{text}\" is not valid JSON")
        }
        Fail::Token(pos) => token_message(text, pos),
    }
}

/// V8's message for the unexpected character at byte `pos`, quoting the
/// text around it: all of it when short, else up to [`CONTEXT`] code units
/// either side.
fn token_message(text: &str, pos: usize) -> String {
    let token: String = text[pos..]
        .chars()
        .next()
        .map(|c| if c.len_utf16() == 2 { '\u{fffd}' } else { c })
        .into_iter()
        .collect();
    let len = utf16_len(text.as_bytes());
    if len < CONTEXT * 2 + 1 {
        return format!("Unexpected token '{token}', \"{text}\" is not valid JSON");
    }
    let pos16 = utf16_len(&text.as_bytes()[..pos]);
    let before = pos16.min(CONTEXT);
    let quoted = window(text, pos, before, CONTEXT);
    if pos16 < CONTEXT {
        format!("Unexpected token '{token}', \"{quoted}\"... is not valid JSON")
    } else if pos16 < len - CONTEXT {
        format!("Unexpected token '{token}', ...\"{quoted}\"... is not valid JSON")
    } else {
        format!("Unexpected token '{token}', ...\"{quoted}\" is not valid JSON")
    }
}

/// The `before` UTF-16 code units of `text` before byte `pos` and the
/// `after` ones from it (fewer at either end), as JavaScript's `substring`
/// cuts them: a surrogate pair cut in two leaves U+FFFD.
fn window(text: &str, pos: usize, before: usize, after: usize) -> String {
    let mut units = Vec::with_capacity(before + after + 2);
    let mut buf = [0u16; 2];
    for c in text[..pos].chars().rev() {
        if units.len() >= before {
            break;
        }
        units.extend(c.encode_utf16(&mut buf).iter().rev());
    }
    units.truncate(before);
    units.reverse();
    let start = units.len();
    for c in text[pos..].chars() {
        if units.len() - start >= after {
            break;
        }
        units.extend_from_slice(c.encode_utf16(&mut buf));
    }
    units.truncate(start + after);
    String::from_utf16_lossy(&units)
}

/// A validator that follows V8's JSON parser closely enough to fail where it
/// fails, with the same message; iterative, so nesting cannot overflow.
struct Scanner<'a> {
    s: &'a [u8],
    i: usize,
}

impl Scanner<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn peek_is(&self, c: u8) -> bool {
        self.peek() == Some(c)
    }

    fn ws(&mut self) {
        while self.peek().is_some_and(is_ws) {
            self.i += 1;
        }
    }

    fn run(&mut self) -> Result<(), Fail> {
        let mut stack: Vec<u8> = Vec::new();
        'value: loop {
            self.ws();
            let Some(c) = self.peek() else {
                return Err(Fail::Eos);
            };
            if matches!(c, b'{' | b'[') && stack.len() + 1 >= MAX_DEPTH {
                return Err(Fail::At("Nesting deeper than 127 levels", self.i));
            }
            match c {
                b'"' => self.string()?,
                b'-' | b'0'..=b'9' => self.number()?,
                b't' => self.literal(b"true")?,
                b'f' => self.literal(b"false")?,
                b'n' => self.literal(b"null")?,
                b'{' => {
                    self.i += 1;
                    self.ws();
                    if self.peek_is(b'}') {
                        self.i += 1;
                    } else if self.peek_is(b'"') {
                        self.property()?;
                        stack.push(b'{');
                        continue 'value;
                    } else {
                        return Err(Fail::At("Expected property name or '}'", self.i));
                    }
                }
                b'[' => {
                    self.i += 1;
                    self.ws();
                    if self.peek_is(b']') {
                        self.i += 1;
                    } else {
                        stack.push(b'[');
                        continue 'value;
                    }
                }
                _ => return Err(Fail::Token(self.i)),
            }
            loop {
                self.ws();
                match stack.last() {
                    None => {
                        return if self.i < self.s.len() {
                            Err(Fail::At(
                                "Unexpected non-whitespace character after JSON",
                                self.i,
                            ))
                        } else {
                            Ok(())
                        };
                    }
                    Some(b'{') => {
                        if self.peek_is(b',') {
                            self.i += 1;
                            self.ws();
                            if !self.peek_is(b'"') {
                                return Err(Fail::At(
                                    "Expected double-quoted property name",
                                    self.i,
                                ));
                            }
                            self.property()?;
                            continue 'value;
                        } else if self.peek_is(b'}') {
                            self.i += 1;
                            stack.pop();
                        } else {
                            return Err(Fail::At(
                                "Expected ',' or '}' after property value",
                                self.i,
                            ));
                        }
                    }
                    Some(_) => {
                        if self.peek_is(b',') {
                            self.i += 1;
                            continue 'value;
                        } else if self.peek_is(b']') {
                            self.i += 1;
                            stack.pop();
                        } else {
                            return Err(Fail::At(
                                "Expected ',' or ']' after array element",
                                self.i,
                            ));
                        }
                    }
                }
            }
        }
    }

    /// A property name and its colon.
    fn property(&mut self) -> Result<(), Fail> {
        self.string()?;
        self.ws();
        if !self.peek_is(b':') {
            return Err(Fail::At("Expected ':' after property name", self.i));
        }
        self.i += 1;
        Ok(())
    }

    fn string(&mut self) -> Result<(), Fail> {
        self.i += 1;
        loop {
            let Some(c) = self.peek() else {
                return Err(Fail::At("Unterminated string", self.i));
            };
            match c {
                b'"' => {
                    self.i += 1;
                    return Ok(());
                }
                b'\\' => {
                    self.i += 1;
                    let Some(e) = self.peek() else {
                        return Err(Fail::Eos);
                    };
                    match e {
                        b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => self.i += 1,
                        b'u' => {
                            for _ in 0..4 {
                                self.i += 1;
                                let hex = self.peek().is_some_and(|h| h.is_ascii_hexdigit());
                                if !hex {
                                    return Err(Fail::At("Bad Unicode escape", self.i));
                                }
                            }
                            self.i += 1;
                        }
                        _ => return Err(Fail::At("Bad escaped character", self.i)),
                    }
                }
                c if c < 0x20 => {
                    return Err(Fail::At("Bad control character in string literal", self.i));
                }
                _ => self.i += 1,
            }
        }
    }

    fn digits(&mut self) {
        while self.is_digit() {
            self.i += 1;
        }
    }

    fn is_digit(&self) -> bool {
        self.peek().is_some_and(|c| c.is_ascii_digit())
    }

    fn number(&mut self) -> Result<(), Fail> {
        if self.peek_is(b'-') {
            self.i += 1;
        }
        if self.peek_is(b'0') {
            self.i += 1;
            if self.is_digit() {
                return Err(Fail::Number(self.i));
            }
        } else if self.is_digit() {
            self.digits();
        } else {
            return Err(Fail::At("No number after minus sign", self.i));
        }
        if self.peek_is(b'.') {
            self.i += 1;
            if !self.is_digit() {
                return Err(Fail::At("Unterminated fractional number", self.i));
            }
            self.digits();
        }
        if self.peek_is(b'e') || self.peek_is(b'E') {
            self.i += 1;
            if self.peek_is(b'+') || self.peek_is(b'-') {
                self.i += 1;
            }
            if !self.is_digit() {
                return Err(Fail::At("Exponent part is missing a number", self.i));
            }
            self.digits();
        }
        Ok(())
    }

    fn literal(&mut self, word: &[u8]) -> Result<(), Fail> {
        for &b in word {
            match self.peek() {
                None => return Err(Fail::Eos),
                Some(c) if c == b => self.i += 1,
                Some(_) => return Err(Fail::Token(self.i)),
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
