//! The chunked transfer coding of a request body, decoded as it arrives.
//!
//! Strict as Node's parser is: hexadecimal sizes, extensions after `;`,
//! CRLF line ends, CRLF after each chunk's data, trailer lines, then an
//! empty line. No line is buffered past [`MAX_LINE`].

use std::ops::Range;

/// The longest size line (extensions included) or trailer line taken.
const MAX_LINE: usize = 16 * 1024;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// At the start of a size line (`digits` read so far, its value).
    Size { digits: u8, size: u64 },
    /// In a size line's extensions, `len` bytes in.
    Extension { size: u64, len: usize },
    /// The LF of a size line.
    SizeLf { size: u64 },
    Data { left: u64 },
    DataCr,
    DataLf,
    /// At the start of a trailer line, or of the final empty line.
    Trailer,
    /// In a trailer line, `len` bytes in.
    TrailerLine { len: usize },
    TrailerLf { empty: bool },
    Done,
}

/// A chunked body the codec refuses (Node's 400).
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Malformed;

/// What one [`Decoder::decode`] call did.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Decoded {
    /// How many bytes of the input it used.
    pub(crate) consumed: usize,
    /// Body data within the input (possibly empty).
    pub(crate) data: Range<usize>,
    /// The body and its trailers have ended.
    pub(crate) done: bool,
}

pub(crate) struct Decoder {
    state: State,
}

impl Decoder {
    pub(crate) fn new() -> Decoder {
        Decoder {
            state: State::Size { digits: 0, size: 0 },
        }
    }

    /// Decodes from the start of `input`, up to the first data it finds.
    pub(crate) fn decode(&mut self, input: &[u8]) -> Result<Decoded, Malformed> {
        let mut i = 0;
        while i < input.len() {
            let b = input[i];
            self.state = match self.state {
                State::Size { digits, size } => match b {
                    b'0'..=b'9' | b'a'..=b'f' | b'A'..=b'F' => {
                        let d = (b as char).to_digit(16).unwrap_or(0) as u64;
                        if digits >= 16 {
                            return Err(Malformed);
                        }
                        State::Size {
                            digits: digits + 1,
                            size: (size << 4) | d,
                        }
                    }
                    b';' | b' ' | b'\t' if digits > 0 => State::Extension { size, len: 0 },
                    b'\r' if digits > 0 => State::SizeLf { size },
                    _ => return Err(Malformed),
                },
                State::Extension { size, len } => match b {
                    b'\r' => State::SizeLf { size },
                    b'\n' => return Err(Malformed),
                    _ if len >= MAX_LINE => return Err(Malformed),
                    _ => State::Extension { size, len: len + 1 },
                },
                State::SizeLf { size } => match b {
                    b'\n' if size == 0 => State::Trailer,
                    b'\n' => State::Data { left: size },
                    _ => return Err(Malformed),
                },
                State::Data { left } => {
                    let n = (input.len() - i).min(usize::try_from(left).unwrap_or(usize::MAX));
                    let left = left - n as u64;
                    self.state = if left == 0 {
                        State::DataCr
                    } else {
                        State::Data { left }
                    };
                    return Ok(Decoded {
                        consumed: i + n,
                        data: i..i + n,
                        done: false,
                    });
                }
                State::DataCr => match b {
                    b'\r' => State::DataLf,
                    _ => return Err(Malformed),
                },
                State::DataLf => match b {
                    b'\n' => State::Size { digits: 0, size: 0 },
                    _ => return Err(Malformed),
                },
                State::Trailer => match b {
                    b'\r' => State::TrailerLf { empty: true },
                    b'\n' => return Err(Malformed),
                    _ => State::TrailerLine { len: 1 },
                },
                State::TrailerLine { len } => match b {
                    b'\r' => State::TrailerLf { empty: false },
                    b'\n' => return Err(Malformed),
                    _ if len >= MAX_LINE => return Err(Malformed),
                    _ => State::TrailerLine { len: len + 1 },
                },
                State::TrailerLf { empty } => match b {
                    b'\n' if empty => {
                        self.state = State::Done;
                        return Ok(Decoded {
                            consumed: i + 1,
                            data: 0..0,
                            done: true,
                        });
                    }
                    b'\n' => State::Trailer,
                    _ => return Err(Malformed),
                },
                State::Done => break,
            };
            i += 1;
        }
        Ok(Decoded {
            consumed: i,
            data: 0..0,
            done: self.state == State::Done,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Decodes `input` fed in pieces of `step` bytes: the body, or `None`
    /// when refused, and whether it ended.
    fn decode(input: &[u8], step: usize) -> Option<(Vec<u8>, bool)> {
        let mut decoder = Decoder::new();
        let mut body = Vec::new();
        let mut pending: Vec<u8> = Vec::new();
        for piece in input.chunks(step) {
            pending.extend_from_slice(piece);
            loop {
                let d = decoder.decode(&pending).ok()?;
                body.extend_from_slice(&pending[d.data.clone()]);
                pending.drain(..d.consumed);
                if d.done {
                    return Some((body, true));
                }
                if d.consumed == 0 || pending.is_empty() {
                    break;
                }
            }
        }
        Some((body, false))
    }

    #[test]
    fn bodies_decode_the_same_in_any_pieces() {
        let input = b"5;a=b\r\nhello\r\nA\r\n0123456789\r\n0\r\nX-T: 1\r\n\r\n";
        for step in 1..input.len() {
            assert_eq!(
                decode(input, step),
                Some((b"hello0123456789".to_vec(), true)),
                "{step}"
            );
        }
    }

    #[test]
    fn malformed_framing_is_refused() {
        for input in [
            &b"x\r\n"[..],
            b"5\nhello\r\n",
            b"5\r\nhelloX\r\n",
            b"\r\n",
            b"11111111111111111\r\n",
            b"0\r\n\n",
        ] {
            assert_eq!(decode(input, input.len()), None, "{input:?}");
        }
    }
}
