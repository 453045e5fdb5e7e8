//! A chunked request body, decoded incrementally as llhttp 9.3 reads it in
//! strict mode (http.ts from `chunk_size_start` on), with Node's limits on
//! chunk extensions (16 KiB a chunk, 413) and trailers (16 KiB, 431).

use std::ops::Range;

use super::chars::{QDTEXT, TOKEN, VALUE, hex};
use super::fields::{Fields, err};
use super::head::should_keep_alive;
use super::{HeadError, RequestHead};

/// Node's `kMaxChunkExtensionsSize`: extension bytes one chunk may carry.
const MAX_CHUNK_EXTENSIONS: usize = 16384;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum St {
    /// Hex digits of a chunk size; `any` once there is one.
    Size {
        any: bool,
    },
    Extensions,
    ExtName,
    ExtValue,
    Quoted,
    QuotedPair,
    QuotedDone,
    SizeAlmostDone,
    Data,
    DataAlmostDone,
    DataCr,
    Trailers,
    Done,
}

/// An incremental chunked-body decoder; see [`ChunkedDecoder::decode`].
///
/// It holds no input: every byte it is given is either consumed (and, for
/// chunk data, handed back as a range) or refused, so the caller never
/// buffers more than one read.
#[derive(Clone, Debug)]
pub struct ChunkedDecoder {
    st: St,
    /// Chunk size, then what is left of the chunk's data.
    size: u64,
    ext: usize,
    trailers: Fields,
    major: u8,
    minor: u8,
}

/// What one [`ChunkedDecoder::decode`] call did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoded {
    /// Bytes of the input used; the next call starts at `input[consumed..]`.
    pub consumed: usize,
    /// Body data within the input (possibly empty), ending at `consumed`.
    pub data: Range<usize>,
    /// The body and its trailers ended at `consumed`.
    pub done: bool,
}

impl Default for ChunkedDecoder {
    fn default() -> Self {
        Self::new()
    }
}

impl ChunkedDecoder {
    /// A decoder for an HTTP/1.1 request whose head had no Connection
    /// tokens (this only matters for [`keep_alive`](Self::keep_alive)).
    pub fn new() -> Self {
        ChunkedDecoder {
            st: St::Size { any: false },
            size: 0,
            ext: 0,
            trailers: Fields::new(false, super::fields::F_CHUNKED),
            major: 1,
            minor: 1,
        }
    }

    /// A decoder for the body of `head`, carrying llhttp's header flags so
    /// that trailers are judged (and keep-alive computed) as llhttp does.
    pub fn for_head(head: &RequestHead) -> Self {
        let mut d = Self::new();
        d.trailers = Fields::new(false, head.flags);
        d.major = head.major;
        d.minor = head.minor;
        d
    }

    /// Node's count of the trailer section's name and value bytes so far.
    pub fn trailer_size(&self) -> usize {
        self.trailers.size
    }

    /// llhttp's `should_keep_alive` once the body is done: a trailer
    /// `Connection: close` (or `keep-alive` in HTTP/1.0) counts, as in llhttp.
    pub fn keep_alive(&self) -> bool {
        should_keep_alive(self.major, self.minor, self.trailers.flags)
    }

    /// Whether the decoder is in the trailer section: what the next calls
    /// consume, to the end, is its lines and the empty line ending it.
    pub fn in_trailers(&self) -> bool {
        self.st == St::Trailers
    }

    /// Whether the body and its trailers have ended.
    pub fn is_done(&self) -> bool {
        self.st == St::Done
    }

    /// Decodes from `input` up to the end of the next piece of data, the end
    /// of the body, or the end of the input, whichever comes first.
    pub fn decode(&mut self, input: &[u8]) -> Result<Decoded, HeadError> {
        let mut pos = 0;
        while pos < input.len() {
            let b = input[pos];
            match self.st {
                St::Size { any } => match hex(b) {
                    Some(d) => {
                        self.size = self
                            .size
                            .checked_mul(16)
                            .and_then(|n| n.checked_add(d))
                            .ok_or_else(|| err("HPE_INVALID_CHUNK_SIZE"))?;
                        self.st = St::Size { any: true };
                    }
                    None if !any => return Err(err("HPE_INVALID_CHUNK_SIZE")),
                    None => match b {
                        b'\r' => self.st = St::SizeAlmostDone,
                        b'\n' => return Err(err("HPE_CR_EXPECTED")),
                        b';' => self.st = St::Extensions,
                        // Spaces or tabs after the size, too: strict mode.
                        _ => return Err(err("HPE_INVALID_CHUNK_SIZE")),
                    },
                },
                St::Extensions => {
                    if b == b' ' || b == b'\r' {
                        return Err(err("HPE_STRICT"));
                    }
                    self.st = St::ExtName;
                    continue;
                }
                St::ExtName => match b {
                    _ if TOKEN[b as usize] => self.ext_byte()?,
                    b'=' => self.st = St::ExtValue,
                    _ => self.ext_end(b)?,
                },
                St::ExtValue => match b {
                    b'"' => {
                        self.ext_byte()?;
                        self.st = St::Quoted;
                    }
                    _ if TOKEN[b as usize] => self.ext_byte()?,
                    _ => self.ext_end(b)?,
                },
                St::Quoted => {
                    if b == b'"' {
                        self.st = St::QuotedDone;
                    } else if b == b'\\' {
                        self.st = St::QuotedPair;
                    } else if !QDTEXT[b as usize] {
                        return Err(err("HPE_STRICT"));
                    }
                    self.ext_byte()?;
                }
                St::QuotedPair => {
                    if !VALUE[b as usize] {
                        return Err(err("HPE_STRICT"));
                    }
                    self.st = St::Quoted;
                    self.ext_byte()?;
                }
                St::QuotedDone => self.ext_end(b)?,
                St::SizeAlmostDone => {
                    if b != b'\n' {
                        return Err(err("HPE_STRICT"));
                    }
                    // on_chunk_header: Node resets both its counters.
                    self.ext = 0;
                    self.trailers.size = 0;
                    if self.size == 0 {
                        // The trailer section starts with the next call:
                        // a caller keeping trailers takes what it consumes.
                        self.st = St::Trailers;
                        return Ok(Decoded {
                            consumed: pos + 1,
                            data: pos + 1..pos + 1,
                            done: false,
                        });
                    }
                    self.st = St::Data;
                }
                St::Data => {
                    let n =
                        (input.len() - pos).min(usize::try_from(self.size).unwrap_or(usize::MAX));
                    self.size -= n as u64;
                    if self.size == 0 {
                        self.st = St::DataAlmostDone;
                    }
                    return Ok(Decoded {
                        consumed: pos + n,
                        data: pos..pos + n,
                        done: false,
                    });
                }
                St::DataAlmostDone => match b {
                    b'\r' => self.st = St::DataCr,
                    b'\n' => return Err(err("HPE_CR_EXPECTED")),
                    _ => return Err(err("HPE_STRICT")),
                },
                St::DataCr => {
                    if b != b'\n' {
                        return Err(err("HPE_STRICT"));
                    }
                    self.size = 0;
                    self.st = St::Size { any: false };
                }
                St::Trailers => {
                    if self.trailers.feed(input, &mut pos, 0, None)? {
                        self.st = St::Done;
                        return Ok(Decoded {
                            consumed: pos,
                            data: pos..pos,
                            done: true,
                        });
                    }
                    continue;
                }
                St::Done => break,
            }
            pos += 1;
        }
        let done = self.st == St::Done;
        Ok(Decoded {
            consumed: pos,
            data: pos..pos,
            done,
        })
    }

    /// One byte of an extension name or value, counted as Node counts it.
    fn ext_byte(&mut self) -> Result<(), HeadError> {
        self.ext += 1;
        if self.ext > MAX_CHUNK_EXTENSIONS {
            return Err(err("HPE_CHUNK_EXTENSIONS_OVERFLOW"));
        }
        Ok(())
    }

    /// What may follow an extension name or value.
    fn ext_end(&mut self, b: u8) -> Result<(), HeadError> {
        match b {
            b';' => self.st = St::Extensions,
            b'\r' => self.st = St::SizeAlmostDone,
            b'\n' => return Err(err("HPE_CR_EXPECTED")),
            _ => return Err(err("HPE_STRICT")),
        }
        Ok(())
    }
}
