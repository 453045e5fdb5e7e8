//! Reading a request body for a parser (body-parser's `read` with
//! raw-body): bounded by the limit, inflated as it streams, never buffering
//! more than the limit.

use std::future::poll_fn;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};

use bytes::Bytes;
use http_body::Body as _;

use super::brotli::BrotliInflater;
use super::errors;
use crate::error::{BoxError, Error};
use crate::http::inflate::{Format, Inflate, Status};
use crate::request::{RawBody, Request};

/// Bytes read from the connection and thrown away after an error, so that
/// a client still sending gets its response rather than a reset; a body
/// larger than this is cut off.
const DRAIN_BUDGET: usize = 1 << 20;

/// The most compressed bytes read for a body whose inflated `limit` is
/// given: twice the limit plus 64 KiB. Deflate never grows data by more than
/// a few bytes per 64 KiB, so an honest body passes; a stream that inflates
/// to little or nothing (50 MB of empty gzip members, or bytes after the
/// end) costs CPU without reaching the limit, and gets 413 instead.
fn compressed_cap(limit: usize) -> u64 {
    (limit as u64).saturating_mul(2).saturating_add(64 * 1024)
}

/// What a parser asks of the reader.
pub(crate) struct ReadSpec<'a> {
    pub limit: usize,
    pub inflate: bool,
    /// Whether `br` is decoded too (body-parser 2; body-parser 1 refuses it with 415).
    pub brotli: bool,
    /// The charset the body will be decoded with (not raw), checked where
    /// raw-body checks it: after the declared length.
    pub charset: Option<&'a str>,
}

enum Coding {
    Identity,
    Deflate,
    Gzip,
    Brotli,
}

/// Reads the whole body of `req` as body-parser does. Errors, in
/// body-parser's order: 415 for a `Content-Encoding` it cannot read; 413
/// when the declared `Content-Length` of an identity body exceeds the limit
/// (before reading anything); 415 for an unknown charset; 413 as soon as the
/// bytes received (inflated bytes for gzip and deflate) pass the limit, or
/// the compressed bytes pass [`compressed_cap`]; 400
/// `request aborted` when the client goes away; 400 with zlib's message for
/// a corrupt or truncated compressed body.
pub(crate) async fn read_body(req: &mut Request, spec: ReadSpec<'_>) -> Result<Bytes, Error> {
    let coding = content_coding(req, &spec)?;
    let declared = match coding {
        Coding::Identity => req
            .headers()
            .get(http::header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok()),
        _ => None,
    };
    let mut body = req.take_body();
    let result = read_inner(&mut body, coding, declared, &spec).await;
    if result.is_err() {
        drain_ready(&mut body);
    }
    result
}

fn content_coding(req: &Request, spec: &ReadSpec<'_>) -> Result<Coding, Error> {
    let encoding = req
        .headers()
        .get(http::header::CONTENT_ENCODING)
        .map(|v| String::from_utf8_lossy(v.as_bytes()).to_lowercase());
    let encoding = encoding.as_deref().unwrap_or("identity");
    if !spec.inflate && encoding != "identity" {
        return Err(errors::encoding_unsupported(
            "content encoding unsupported".to_owned(),
        ));
    }
    match encoding {
        "identity" => Ok(Coding::Identity),
        "deflate" => Ok(Coding::Deflate),
        "gzip" => Ok(Coding::Gzip),
        "br" if spec.brotli => Ok(Coding::Brotli),
        other => Err(errors::encoding_unsupported(format!(
            "unsupported content encoding \"{other}\""
        ))),
    }
}

async fn read_inner(
    body: &mut RawBody,
    coding: Coding,
    declared: Option<u64>,
    spec: &ReadSpec<'_>,
) -> Result<Bytes, Error> {
    if declared.is_some_and(|n| n > spec.limit as u64) {
        return Err(errors::too_large());
    }
    if let Some(cs) = spec.charset
        && !super::charset_supported(cs)
    {
        return Err(errors::charset_unsupported(cs));
    }
    // A body that comes in one frame (most do) is kept as hyper's bytes;
    // only a second frame makes a buffer to gather them in.
    let mut whole = Bytes::new();
    let mut out: Vec<u8> = Vec::new();
    // Each decoder boxed: its state (~500 bytes for zlib, 3.5 KB for
    // brotli) would otherwise be in every body parser's future, whose box
    // then outgrows malloc's per-thread cache.
    let mut inflater = match coding {
        Coding::Identity => None,
        Coding::Deflate => Some(Decoder::Zlib(Box::new(Inflater::new(false)))),
        Coding::Gzip => Some(Decoder::Zlib(Box::new(Inflater::new(true)))),
        Coding::Brotli => Some(Decoder::Brotli(Box::new(BrotliInflater::new()))),
    };
    let mut received: u64 = 0;
    {
        while let Some(frame) = poll_fn(|cx| Pin::new(&mut *body).poll_frame(cx)).await {
            let frame = frame.map_err(|e| errors::aborted().with_source(Source(e)))?;
            let Ok(data) = frame.into_data() else {
                continue;
            };
            received += data.len() as u64;
            match inflater.as_mut() {
                None => {
                    if whole.len() + out.len() + data.len() > spec.limit {
                        return Err(errors::too_large());
                    }
                    if whole.is_empty() && out.is_empty() {
                        whole = data;
                    } else {
                        if out.is_empty() {
                            out.reserve(declared.map_or(0, |n| n as usize));
                            out.extend_from_slice(&std::mem::take(&mut whole));
                        }
                        out.extend_from_slice(&data);
                    }
                }
                Some(inf) => {
                    if received > compressed_cap(spec.limit) {
                        return Err(errors::too_large());
                    }
                    inf.feed(&data, &mut out, spec.limit)?;
                }
            }
        }
    }
    if let Some(inf) = inflater.as_ref() {
        inf.finish()?;
    }
    if declared.is_some_and(|n| n != received) {
        return Err(errors::size_invalid());
    }
    Ok(if out.is_empty() {
        whole
    } else {
        Bytes::from(out)
    })
}

/// Reads what the connection already holds of a body the parser gave up
/// on, without waiting, so a client that sent it all gets its response.
fn drain_ready(body: &mut RawBody) {
    let mut cx = Context::from_waker(Waker::noop());
    let mut drained = 0;
    while drained < DRAIN_BUDGET {
        match Pin::new(&mut *body).poll_frame(&mut cx) {
            Poll::Ready(Some(Ok(frame))) => {
                drained += frame.data_ref().map_or(0, Bytes::len);
            }
            _ => return,
        }
    }
}

/// Why the body could not be read, kept as the error's source.
#[derive(Debug)]
struct Source(BoxError);

impl std::fmt::Display for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for Source {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0.source()
    }
}

/// The decoder of a compressed body.
enum Decoder {
    Zlib(Box<Inflater>),
    Brotli(Box<BrotliInflater>),
}

impl Decoder {
    fn feed(&mut self, input: &[u8], out: &mut Vec<u8>, limit: usize) -> Result<(), Error> {
        match self {
            Decoder::Zlib(d) => d.feed(input, out, limit),
            Decoder::Brotli(d) => d.feed(input, out, limit),
        }
    }

    fn finish(&self) -> Result<(), Error> {
        match self {
            Decoder::Zlib(d) => d.finish(),
            Decoder::Brotli(d) => d.finish(),
        }
    }
}

/// Node's zlib inflate, fed as the body streams, writing at most `limit + 1`
/// bytes before it reports 413.
struct Inflater {
    d: Inflate,
    ended: bool,
}

impl Inflater {
    fn new(gzip: bool) -> Inflater {
        Inflater {
            d: Inflate::new(if gzip { Format::Gzip } else { Format::Zlib }),
            ended: false,
        }
    }

    fn feed(&mut self, mut input: &[u8], out: &mut Vec<u8>, limit: usize) -> Result<(), Error> {
        loop {
            if self.ended {
                // Node's gunzip reads the members of a concatenated gzip
                // stream; anything else after the end is ignored.
                if self.d.format() == Format::Gzip && input.first() == Some(&0x1f) {
                    self.d.reset();
                    self.ended = false;
                } else {
                    return Ok(());
                }
            }
            // An error before 413: zlib reads on while its output is full
            // (to the next byte it would write), and reports what it finds.
            // The decoder reads back-references from `out`, this member's
            // output at its end.
            let step = self
                .d
                .inflate(input, out, limit.saturating_add(1))
                .map_err(|e| errors::inflate_failed(e.message()))?;
            input = &input[step.consumed..];
            if out.len() > limit {
                return Err(errors::too_large());
            }
            if step.status != Status::StreamEnd {
                return Ok(());
            }
            self.ended = true;
        }
    }

    /// The body ended: a stream cut short is Node's `unexpected end of
    /// file`.
    fn finish(&self) -> Result<(), Error> {
        self.d
            .finish()
            .map_err(|e| errors::inflate_failed(e.message()))
    }
}
