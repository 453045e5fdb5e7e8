//! The header block of one part, parsed as busboy parses it: at most
//! 16 KiB, names are tokens, values visible characters (obs-fold joined),
//! and only the first 1,999 lines kept. Only the three headers busboy reads
//! are stored, so the parser holds at most the block's own bytes.

/// busboy's (and Node's) limit on a header block.
const MAX_HEADER_SIZE: usize = 16 * 1024;
/// Lines past this many are parsed but not kept.
const MAX_HEADER_PAIRS: usize = 2000;

/// The headers of a part that busboy looks at: the first value of each,
/// as raw (latin1) bytes.
#[derive(Debug, Default)]
pub(crate) struct PartHeaders {
    pub disposition: Option<Vec<u8>>,
    pub content_type: Option<Vec<u8>>,
    pub transfer_encoding: Option<Vec<u8>>,
}

#[derive(Clone, Copy, PartialEq)]
enum State {
    Name,
    PreOws,
    Value,
}

/// What a call to [`HeadParser::push`] made of its bytes.
pub(crate) enum Step {
    /// All consumed; the block goes on. The index may be one past the
    /// end, as busboy's is after a value cut by the chunk's end.
    More(usize),
    /// The block ended before this index.
    Done(usize, PartHeaders),
    /// Not a header block busboy accepts (`Malformed part header`).
    Malformed,
}

/// busboy's `HeaderParser`, byte for byte (including which bytes it counts
/// twice towards the 16 KiB).
pub(crate) struct HeadParser {
    headers: PartHeaders,
    pairs: usize,
    bytes: usize,
    state: State,
    name: Vec<u8>,
    value: Vec<u8>,
    crlf: u8,
}

fn is_vchar(b: u8) -> bool {
    b == b'\t' || (0x20..0x7f).contains(&b) || b >= 0x80
}

impl HeadParser {
    pub(crate) fn new() -> HeadParser {
        HeadParser {
            headers: PartHeaders::default(),
            pairs: 0,
            bytes: 0,
            state: State::Name,
            name: Vec::new(),
            value: Vec::new(),
            crlf: 0,
        }
    }

    pub(crate) fn reset(&mut self) {
        *self = HeadParser::new();
    }

    /// Counts one byte towards the limit; false once the block is full.
    fn count(&mut self) -> bool {
        if self.bytes == MAX_HEADER_SIZE {
            return false;
        }
        self.bytes += 1;
        true
    }

    fn store(&mut self) {
        self.pairs += 1;
        if self.pairs >= MAX_HEADER_PAIRS {
            return;
        }
        self.name.make_ascii_lowercase();
        let slot = match self.name.as_slice() {
            b"content-disposition" => &mut self.headers.disposition,
            b"content-type" => &mut self.headers.content_type,
            b"content-transfer-encoding" => &mut self.headers.transfer_encoding,
            _ => return,
        };
        if slot.is_none() {
            *slot = Some(std::mem::take(&mut self.value));
        }
    }

    /// Feeds `chunk[pos..end]`.
    pub(crate) fn push(&mut self, chunk: &[u8], mut pos: usize, end: usize) -> Step {
        let mut start = pos;
        while pos < end {
            if self.state == State::Name {
                let mut done = false;
                while pos < end {
                    if !self.count() {
                        return Step::Malformed;
                    }
                    let c = chunk[pos];
                    if !crate::http::is_tchar(c) {
                        if c != b':' {
                            return Step::Malformed;
                        }
                        self.name.extend_from_slice(&chunk[start..pos]);
                        if self.name.is_empty() {
                            return Step::Malformed;
                        }
                        pos += 1;
                        done = true;
                        self.state = State::PreOws;
                        break;
                    }
                    pos += 1;
                }
                if !done {
                    self.name.extend_from_slice(&chunk[start..pos]);
                    break;
                }
            }
            if self.state == State::PreOws {
                let mut done = false;
                while pos < end {
                    if !self.count() {
                        return Step::Malformed;
                    }
                    let c = chunk[pos];
                    if c != b' ' && c != b'\t' {
                        start = pos;
                        done = true;
                        self.state = State::Value;
                        break;
                    }
                    pos += 1;
                }
                if !done {
                    break;
                }
            }
            match self.crlf {
                0 => {
                    while pos < end {
                        if !self.count() {
                            return Step::Malformed;
                        }
                        let c = chunk[pos];
                        if !is_vchar(c) {
                            if c != b'\r' {
                                return Step::Malformed;
                            }
                            self.crlf += 1;
                            break;
                        }
                        pos += 1;
                    }
                    self.value.extend_from_slice(&chunk[start..pos.min(end)]);
                    pos += 1;
                }
                1 => {
                    if !self.count() {
                        return Step::Malformed;
                    }
                    let c = chunk[pos];
                    pos += 1;
                    if c != b'\n' {
                        return Step::Malformed;
                    }
                    self.crlf += 1;
                }
                2 => {
                    if !self.count() {
                        return Step::Malformed;
                    }
                    let c = chunk[pos];
                    if c == b' ' || c == b'\t' {
                        start = pos;
                        self.crlf = 0;
                    } else {
                        self.store();
                        if c == b'\r' {
                            self.crlf += 1;
                            pos += 1;
                        } else {
                            start = pos;
                            self.crlf = 0;
                            self.state = State::Name;
                            self.name.clear();
                            self.value.clear();
                        }
                    }
                }
                _ => {
                    if !self.count() {
                        return Step::Malformed;
                    }
                    let c = chunk[pos];
                    pos += 1;
                    if c != b'\n' {
                        return Step::Malformed;
                    }
                    let headers = std::mem::take(&mut self.headers);
                    self.reset();
                    return Step::Done(pos, headers);
                }
            }
        }
        Step::More(pos)
    }
}
