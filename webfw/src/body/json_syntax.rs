//! The `SyntaxError` message Node 20's `JSON.parse` gives for invalid text
//! (V8 11's wording and positions, in UTF-16 code units), and
//! body-parser's strict-mode message built from it.

/// V8's context window around an unexpected token.
const CONTEXT: usize = 10;

enum Fail {
    Eos,
    Token(usize),
    Number(usize),
    At(&'static str, usize),
}

/// The message `JSON.parse(text)` throws, or `None` when the text is valid
/// JSON.
pub(crate) fn parse_error_message(text: &str) -> Option<String> {
    let s: Vec<u16> = text.encode_utf16().collect();
    let fail = Scanner { s: &s, i: 0 }.run().err()?;
    Some(render(&s, fail))
}

/// body-parser's strict-mode error for a body whose first non-blank
/// character is not `{` or `[`: `JSON.parse` of the body with that
/// character and all after it replaced by `#`, then each run of `#` in the
/// message replaced by as much of the body from that character.
pub(crate) fn strict_error_message(text: &str) -> String {
    let s: Vec<u16> = text.encode_utf16().collect();
    let first = s.iter().position(|&c| !is_ws(c));
    let Some(index) = first else {
        return "Unexpected end of JSON input".to_owned();
    };
    let mut partial = s[..index].to_vec();
    partial.resize(s.len(), u16::from(b'#'));
    let message = match (Scanner { s: &partial, i: 0 }).run() {
        Err(f) => render(&partial, f),
        Ok(()) => return "strict violation".to_owned(),
    };
    let m: Vec<u16> = message.encode_utf16().collect();
    let mut out = Vec::with_capacity(m.len());
    let mut k = 0;
    while k < m.len() {
        if m[k] == u16::from(b'#') {
            let run = m[k..].iter().take_while(|&&c| c == u16::from(b'#')).count();
            out.extend_from_slice(&s[index..(index + run).min(s.len())]);
            k += run;
        } else {
            out.push(m[k]);
            k += 1;
        }
    }
    String::from_utf16_lossy(&out)
}

/// The first non-blank character is `{` or `[` (body-parser's strict test).
pub(crate) fn starts_like_object_or_array(text: &str) -> bool {
    matches!(
        text.bytes()
            .find(|&b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r')),
        Some(b'{' | b'[')
    )
}

fn is_ws(c: u16) -> bool {
    matches!(c, 0x20 | 0x09 | 0x0a | 0x0d)
}

fn render(s: &[u16], fail: Fail) -> String {
    match fail {
        Fail::Eos => "Unexpected end of JSON input".to_owned(),
        Fail::Number(pos) => format!("Unexpected number in JSON at position {pos}"),
        Fail::At(what, pos) if what.ends_with("after JSON") => format!("{what} at position {pos}"),
        Fail::At(what, pos) => format!("{what} in JSON at position {pos}"),
        Fail::Token(pos) => {
            let src = String::from_utf16_lossy(s);
            if matches!(
                src.as_str(),
                "undefined" | "NaN" | "Infinity" | "[object Object]"
            ) {
                return format!("\"{src}\" is not valid JSON");
            }
            let token = String::from_utf16_lossy(&s[pos..=pos]);
            let len = s.len();
            if len < CONTEXT * 2 + 1 {
                return format!("Unexpected token '{token}', \"{src}\" is not valid JSON");
            }
            let sub = |a: usize, b: usize| String::from_utf16_lossy(&s[a..b.min(len)]);
            if pos < CONTEXT {
                format!(
                    "Unexpected token '{token}', \"{}\"... is not valid JSON",
                    sub(0, pos + CONTEXT)
                )
            } else if pos < len - CONTEXT {
                format!(
                    "Unexpected token '{token}', ...\"{}\"... is not valid JSON",
                    sub(pos - CONTEXT, pos + CONTEXT)
                )
            } else {
                format!(
                    "Unexpected token '{token}', ...\"{}\" is not valid JSON",
                    sub(pos - CONTEXT, len)
                )
            }
        }
    }
}

/// A validator that follows V8's JSON parser closely enough to fail where it
/// fails, with the same message; iterative, so nesting cannot overflow.
struct Scanner<'a> {
    s: &'a [u16],
    i: usize,
}

impl Scanner<'_> {
    fn peek(&self) -> Option<u16> {
        self.s.get(self.i).copied()
    }

    fn peek_is(&self, c: u8) -> bool {
        self.peek() == Some(u16::from(c))
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
            match u8::try_from(c).unwrap_or(0) {
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
                0x22 => {
                    self.i += 1;
                    return Ok(());
                }
                0x5c => {
                    self.i += 1;
                    let Some(e) = self.peek() else {
                        return Err(Fail::Eos);
                    };
                    match u8::try_from(e).unwrap_or(0) {
                        b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => self.i += 1,
                        b'u' => {
                            for _ in 0..4 {
                                self.i += 1;
                                let hex = self
                                    .peek()
                                    .and_then(|h| u8::try_from(h).ok())
                                    .is_some_and(|h| h.is_ascii_hexdigit());
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
        while self.peek().is_some_and(|c| (0x30..=0x39).contains(&c)) {
            self.i += 1;
        }
    }

    fn is_digit(&self) -> bool {
        self.peek().is_some_and(|c| (0x30..=0x39).contains(&c))
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
                Some(c) if c == u16::from(b) => self.i += 1,
                Some(_) => return Err(Fail::Token(self.i)),
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each pair is `JSON.parse(input)`'s message in Node 20.
    #[test]
    fn messages_match_node_20() {
        let cases: &[(&str, &str)] = &[
            (
                "{\"a\":}",
                "Unexpected token '}', \"{\"a\":}\" is not valid JSON",
            ),
            ("", "Unexpected end of JSON input"),
            ("{", "Expected property name or '}' in JSON at position 1"),
            (
                "{\"a\":1}x",
                "Unexpected non-whitespace character after JSON at position 7",
            ),
            ("[1,]", "Unexpected token ']', \"[1,]\" is not valid JSON"),
            (
                "{\"a\" 1}",
                "Expected ':' after property name in JSON at position 5",
            ),
            (
                "{\"a\":1 \"b\"}",
                "Expected ',' or '}' after property value in JSON at position 7",
            ),
            (
                "[1 2]",
                "Expected ',' or ']' after array element in JSON at position 3",
            ),
            ("\"abc", "Unterminated string in JSON at position 4"),
            ("\"a\\qb\"", "Bad escaped character in JSON at position 3"),
            (
                "\"a\u{1}\"",
                "Bad control character in string literal in JSON at position 2",
            ),
            ("-", "No number after minus sign in JSON at position 1"),
            ("1.", "Unterminated fractional number in JSON at position 2"),
            (
                "1e+",
                "Exponent part is missing a number in JSON at position 3",
            ),
            ("01", "Unexpected number in JSON at position 1"),
            ("-01", "Unexpected number in JSON at position 2"),
            ("tru", "Unexpected end of JSON input"),
            (
                "{\"a\":tx}",
                "Unexpected token 'x', \"{\"a\":tx}\" is not valid JSON",
            ),
            (
                "{\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\":x}",
                "Unexpected token 'x', ...\"aaaaaaaa\":x}\" is not valid JSON",
            ),
            (
                "[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20, x]",
                "Unexpected token 'x', ...\"18,19,20, x]\" is not valid JSON",
            ),
            (
                "{\"a\":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,x]}",
                "Unexpected token 'x', ...\",18,19,20,x]}\" is not valid JSON",
            ),
            (
                "{\"a\":1,}",
                "Expected double-quoted property name in JSON at position 7",
            ),
            ("\"\\u12g4\"", "Bad Unicode escape in JSON at position 5"),
            ("\"\\u12", "Bad Unicode escape in JSON at position 5"),
            ("\"a\\", "Unexpected end of JSON input"),
            (
                "{\"a\":1",
                "Expected ',' or '}' after property value in JSON at position 6",
            ),
            ("NaN", "\"NaN\" is not valid JSON"),
            ("[-x]", "No number after minus sign in JSON at position 2"),
            (
                "{\"\u{1F600}aaaaaaaaaaaaaaaaaaaaa\":x}",
                "Unexpected token 'x', ...\"aaaaaaaa\":x}\" is not valid JSON",
            ),
        ];
        for (input, want) in cases {
            assert_eq!(
                parse_error_message(input).as_deref(),
                Some(*want),
                "{input:?}"
            );
        }
        assert_eq!(parse_error_message("{\"a\":[1,{}]}"), None);
    }

    #[test]
    fn strict_messages() {
        assert_eq!(
            strict_error_message("true"),
            "Unexpected token 't', \"true\" is not valid JSON"
        );
        assert_eq!(
            strict_error_message("  \n \"str\""),
            "Unexpected token '\"', \"  \n \"str\"\" is not valid JSON"
        );
        assert_eq!(strict_error_message("   "), "Unexpected end of JSON input");
        // Node 20 with body-parser 1.20.9 for the same bodies:
        assert_eq!(
            strict_error_message(&"x".repeat(30)),
            "Unexpected token 'x', \"xxxxxxxxxx\"... is not valid JSON"
        );
        assert_eq!(
            strict_error_message("\"\u{1F600}abc\""),
            "Unexpected token '\"', \"\"\u{1F600}abc\"\" is not valid JSON"
        );
        assert_eq!(
            strict_error_message("nul"),
            "Unexpected token 'n', \"nul\" is not valid JSON"
        );
        assert!(starts_like_object_or_array(" \n{}"));
        assert!(!starts_like_object_or_array("1"));
    }
}
