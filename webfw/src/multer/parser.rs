//! The `multipart/form-data` parser: busboy 1.6's `Multipart` as a pure,
//! streaming state machine. Chunks go in, [`Event`]s come out; it holds at
//! most one part's header block (16 KiB), the text field being read (up to
//! `fieldSize`) and a needle's length of look-behind. File bytes pass
//! through as slices of the input chunks.
//!
//! It keeps busboy's edge cases on purpose, since multer's answers depend on
//! them: a part without headers is malformed, bytes after a boundary that
//! are neither `--` nor CRLF are dropped up to the next boundary, the
//! epilogue is ignored (though the rest of the chunk that held the closing
//! boundary is still read, as busboy reads it), limits count as busboy
//! counts them.

use bytes::Bytes;

use super::headers::{Decoder, basename, parse_content_type, parse_disposition};
use super::part_head::{HeadParser, PartHeaders, Step};
use super::search::{Piece, Search};

/// busboy's limits (multer has already added one to `fieldSize`,
/// `fileSize` and `parts`); `None` is `Infinity`.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ParseLimits {
    pub field_size: Option<u64>,
    pub file_size: Option<u64>,
    pub files: Option<u64>,
    pub fields: Option<u64>,
    pub parts: Option<u64>,
}

/// How parts are read: busboy's constructor options.
#[derive(Clone, Debug)]
pub(crate) struct ParseOptions {
    pub limits: ParseLimits,
    /// `defParamCharset`: how plain `name`/`filename` values are decoded.
    pub param_decoder: Decoder,
    /// `defCharset`: the charset of text fields that name none.
    pub def_charset: String,
    pub preserve_path: bool,
}

/// What the parser saw, in stream order (busboy's events).
#[derive(Debug, PartialEq)]
pub(crate) enum Event {
    /// A file part begins (`'file'`).
    File {
        name: Option<String>,
        filename: Option<String>,
        encoding: String,
        mime_type: String,
    },
    /// Bytes of the current file.
    FileData(Bytes),
    /// The current file reached `fileSize` (`'limit'`); its other bytes are dropped.
    FileLimit,
    /// The current file ended.
    FileEnd,
    /// A text field (`'field'`); `value` is `None` where busboy's is
    /// `undefined` (a charset it cannot decode).
    Field {
        name: Option<String>,
        value: Option<String>,
        truncated: bool,
    },
    /// `'filesLimit'`, `'fieldsLimit'`, `'partsLimit'`: once each.
    FilesLimit,
    FieldsLimit,
    PartsLimit,
    /// `Malformed part header`.
    Malformed,
}

/// Where the bytes after a boundary have led (busboy's `matchPostBoundary`).
#[derive(Clone, Copy, PartialEq)]
enum Post {
    None,
    Boundary,
    Dash,
    Cr,
}

/// The parser of one request body.
pub(crate) struct Multipart {
    search: Search,
    m: Machine,
}

struct Machine {
    opts: ParseOptions,
    head: HeadParser,
    head_active: bool,
    post: Post,
    complete: bool,
    /// After the closing boundary's chunk, nothing more is read.
    ignoring: bool,
    skip: bool,
    file: bool,
    file_size: u64,
    field: Option<Vec<u8>>,
    field_size: u64,
    charset: String,
    name: Option<String>,
    truncated: bool,
    parts: i64,
    fields: u64,
    files: u64,
    hit_files: bool,
    hit_fields: bool,
}

impl Multipart {
    /// A parser for the body of a request whose boundary is `boundary`
    /// (its bytes as the header had them).
    pub(crate) fn new(boundary: &[u8], opts: ParseOptions) -> Multipart {
        // busboy builds the needle from the latin1 header text as UTF-8.
        let mut needle = b"\r\n--".to_vec();
        needle.extend_from_slice(super::headers::latin1(boundary).as_bytes());
        let mut p = Multipart {
            search: Search::new(needle),
            m: Machine {
                opts,
                head: HeadParser::new(),
                head_active: false,
                post: Post::None,
                complete: false,
                ignoring: false,
                skip: false,
                file: false,
                file_size: 0,
                field: None,
                field_size: 0,
                charset: String::new(),
                name: None,
                truncated: false,
                parts: -1,
                fields: 0,
                files: 0,
                hit_files: false,
                hit_fields: false,
            },
        };
        // A body may start with its first boundary, without a preamble.
        p.push(&Bytes::from_static(b"\r\n"), &mut Vec::new());
        p
    }

    /// Feeds one chunk of the body, appending what it held to `out`.
    pub(crate) fn push(&mut self, chunk: &Bytes, out: &mut Vec<Event>) {
        if self.m.ignoring {
            return;
        }
        let m = &mut self.m;
        self.search.push(chunk, |Piece { data, is_match }| {
            let end = data.len();
            m.piece(is_match, &data, 0, end, out);
        });
    }

    /// The body ended: `Err` with busboy's message when the form did not.
    pub(crate) fn finish(&mut self, out: &mut Vec<Event>) -> Result<(), &'static str> {
        if !self.m.ignoring
            && let Some(rest) = self.search.flush()
        {
            let end = rest.len();
            self.m.piece(false, &rest, 0, end, out);
        }
        if !self.m.complete {
            return Err("Unexpected end of form");
        }
        if self.m.head_active {
            return Err("Malformed part header");
        }
        if self.m.file {
            return Err("Unexpected end of file");
        }
        Ok(())
    }
}

impl Machine {
    /// busboy's search callback for `data[start..end]`, then the match.
    fn piece(
        &mut self,
        is_match: bool,
        data: &Bytes,
        mut start: usize,
        end: usize,
        out: &mut Vec<Event>,
    ) {
        loop {
            if self.head_active {
                match self.head.push(data, start, end) {
                    Step::Malformed => {
                        self.head_active = false;
                        self.head.reset();
                        out.push(Event::Malformed);
                        break;
                    }
                    Step::More(p) => start = p,
                    Step::Done(p, headers) => {
                        start = p;
                        self.on_headers(headers, out);
                    }
                }
            }
            if start == end {
                break;
            }
            if self.post != Post::None {
                if self.post == Post::Boundary {
                    match data.get(start) {
                        Some(b'-') => {
                            self.post = Post::Dash;
                            start += 1;
                        }
                        Some(b'\r') => {
                            self.post = Post::Cr;
                            start += 1;
                        }
                        _ => self.post = Post::None,
                    }
                    if start == end {
                        return;
                    }
                }
                if self.post == Post::Dash {
                    self.post = Post::None;
                    if data.get(start) == Some(&b'-') {
                        self.complete = true;
                        self.ignoring = true;
                        return;
                    }
                    // Not the end: the dash was data after all.
                    self.piece(false, &Bytes::from_static(b"-"), 0, 1, out);
                } else if self.post == Post::Cr {
                    self.post = Post::None;
                    if data.get(start) == Some(&b'\n') {
                        start += 1;
                        if self
                            .opts
                            .limits
                            .parts
                            .is_some_and(|l| self.parts >= l as i64)
                        {
                            break;
                        }
                        self.head_active = true;
                        if start == end {
                            break;
                        }
                        continue;
                    }
                    self.piece(false, &Bytes::from_static(b"\r"), 0, 1, out);
                }
            }
            if !self.skip && start < end {
                self.part_data(data, start, end, out);
            }
            break;
        }
        if is_match {
            self.post = Post::Boundary;
            if self.file {
                self.file = false;
                out.push(Event::FileEnd);
            } else if let Some(bytes) = self.field.take() {
                self.field_size = 0;
                out.push(Event::Field {
                    name: self.name.clone(),
                    value: Decoder::for_charset(&self.charset).decode(&bytes),
                    truncated: self.truncated,
                });
            }
            self.parts += 1;
            if self
                .opts
                .limits
                .parts
                .is_some_and(|l| self.parts == l as i64)
            {
                out.push(Event::PartsLimit);
            }
        }
    }

    /// Bytes of the current part's body.
    fn part_data(&mut self, data: &Bytes, start: usize, end: usize, out: &mut Vec<Event>) {
        let avail = (end - start) as u64;
        if self.file {
            let room = self
                .opts
                .limits
                .file_size
                .map_or(avail, |l| l.saturating_sub(self.file_size));
            let take = avail.min(room);
            self.file_size += take;
            if take > 0 {
                out.push(Event::FileData(data.slice(start..start + take as usize)));
            }
            if Some(self.file_size) == self.opts.limits.file_size {
                out.push(Event::FileLimit);
                self.skip = true;
            }
        } else if let Some(field) = self.field.as_mut() {
            let room = self
                .opts
                .limits
                .field_size
                .map_or(avail, |l| l.saturating_sub(self.field_size));
            let take = avail.min(room);
            self.field_size += take;
            field.extend_from_slice(&data[start..start + take as usize]);
            if Some(self.field_size) == self.opts.limits.field_size {
                self.skip = true;
                self.truncated = true;
            }
        }
    }

    /// A part's header block is complete: what kind of part it is.
    fn on_headers(&mut self, h: PartHeaders, out: &mut Vec<Event>) {
        self.head_active = false;
        self.skip = false;
        let mut mime = "text/plain".to_owned();
        self.charset = self.opts.def_charset.clone();
        let mut encoding = "7bit".to_owned();
        self.name = None;
        self.truncated = false;
        let disposition = h
            .disposition
            .as_deref()
            .and_then(|d| parse_disposition(d, self.opts.param_decoder))
            .filter(|d| d.type_ == "form-data");
        let Some(disposition) = disposition else {
            self.skip = true;
            return;
        };
        // busboy tests these for truthiness: an empty value is no value.
        self.name = disposition
            .param("name")
            .filter(|n| !n.is_empty())
            .map(str::to_owned);
        let mut filename = disposition
            .param("filename*")
            .filter(|n| !n.is_empty())
            .or_else(|| disposition.param("filename").filter(|n| !n.is_empty()))
            .map(str::to_owned);
        if !self.opts.preserve_path
            && let Some(f) = filename.as_mut()
        {
            *f = basename(f).to_owned();
        }
        if let Some(ct) = h.content_type.as_deref().and_then(parse_content_type) {
            mime = format!("{}/{}", ct.type_, ct.subtype);
            if let Some(cs) = ct.param("charset") {
                self.charset = super::headers::latin1(cs).to_lowercase();
            }
        }
        if let Some(te) = h.transfer_encoding.as_deref() {
            encoding = super::headers::latin1(te).to_lowercase();
        }
        if mime == "application/octet-stream" || filename.is_some() {
            if self.opts.limits.files == Some(self.files) {
                if !self.hit_files {
                    self.hit_files = true;
                    out.push(Event::FilesLimit);
                }
                self.skip = true;
                return;
            }
            self.files += 1;
            self.file_size = 0;
            self.file = true;
            out.push(Event::File {
                name: self.name.clone(),
                filename,
                encoding,
                mime_type: mime,
            });
        } else {
            if self.opts.limits.fields == Some(self.fields) {
                if !self.hit_fields {
                    self.hit_fields = true;
                    out.push(Event::FieldsLimit);
                }
                self.skip = true;
                return;
            }
            self.fields += 1;
            self.field = Some(Vec::new());
            self.field_size = 0;
        }
    }
}

#[cfg(test)]
mod tests;

/// The fuzz target's entry: the first byte picks a chunk size, the next
/// bytes up to a newline are the boundary, the rest is the body. The
/// parser must not panic, and must hold no more than its bounds.
#[cfg(any(fuzzing, test))]
#[doc(hidden)]
pub fn fuzz(data: &[u8]) {
    let Some((&cut, rest)) = data.split_first() else {
        return;
    };
    let split = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
    let (boundary, body) = rest.split_at(split);
    let opts = ParseOptions {
        limits: ParseLimits {
            field_size: Some(64),
            file_size: Some(64),
            files: Some(4),
            fields: Some(4),
            parts: Some(8),
        },
        param_decoder: Decoder::Latin1,
        def_charset: "utf8".to_owned(),
        preserve_path: false,
    };
    let mut p = Multipart::new(boundary, opts);
    let mut out = Vec::new();
    let mut file_bytes = 0;
    for chunk in body.chunks(usize::from(cut).max(1)) {
        p.push(&Bytes::copy_from_slice(chunk), &mut out);
        // Less than a needle (whose boundary is UTF-8 of the latin1 text,
        // so up to twice the header's bytes).
        assert!(p.search.held_len() < p.search.needle_len());
        for ev in out.drain(..) {
            if let Event::FileData(d) = ev {
                file_bytes += d.len();
            }
        }
    }
    let _ = p.finish(&mut out);
    assert!(file_bytes <= body.len());
}
