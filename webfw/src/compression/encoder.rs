//! The compressors behind the response's body encoder: gzip and deflate
//! through zlib-rs (zlib's own algorithm, options and stream format, as
//! Node's zlib writes them), br through the brotli crate (a port of the
//! library Node links, which writes the same bytes).

use brotli::enc::StandardAlloc;
use brotli::enc::backward_references::BrotliEncoderMode;
use brotli::enc::encode::{
    BrotliEncoderDestroyInstance, BrotliEncoderOperation, BrotliEncoderParameter,
    BrotliEncoderStateStruct,
};
use bytes::BytesMut;
use zlib_rs::{DeflateConfig, DeflateFlush, Status};

use super::options::{BrotliMode, BrotliOptions, CompressionOptions, Strategy};
use crate::response::BodyEncoder;

/// The codings compression 1.8 produces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Coding {
    Gzip,
    Deflate,
    Br,
}

impl Coding {
    /// The `Content-Encoding` token.
    pub(super) fn token(self) -> &'static str {
        match self {
            Coding::Gzip => "gzip",
            Coding::Deflate => "deflate",
            Coding::Br => "br",
        }
    }

    /// A fresh compressor of this coding with the middleware's options.
    pub(super) fn encoder(self, opts: &CompressionOptions) -> Box<dyn BodyEncoder> {
        match self {
            Coding::Gzip => Box::new(Zlib::new(opts, true)),
            Coding::Deflate => Box::new(Zlib::new(opts, false)),
            Coding::Br => Box::new(Brotli::new(&opts.brotli, opts.chunk_size)),
        }
    }
}

/// Makes at least `min` bytes of zeroed room at the end of `out` (the
/// compressors write into initialised memory) and returns where it starts.
fn room(out: &mut BytesMut, min: usize, grow: usize) -> usize {
    let start = out.len();
    if out.capacity() - start < min {
        out.reserve(grow.max(min));
    }
    out.resize(out.capacity(), 0);
    start
}

/// gzip (`zlib.createGzip(opts)`) or deflate (`zlib.createDeflate(opts)`).
struct Zlib {
    deflate: zlib_rs::Deflate,
    chunk: usize,
    /// A zlib error stopped the stream: nothing more is produced.
    failed: bool,
}

impl Zlib {
    fn new(opts: &CompressionOptions, gzip: bool) -> Zlib {
        let strategy = match opts.strategy {
            Strategy::Default => zlib_rs::Strategy::Default,
            Strategy::Filtered => zlib_rs::Strategy::Filtered,
            Strategy::HuffmanOnly => zlib_rs::Strategy::HuffmanOnly,
            Strategy::Rle => zlib_rs::Strategy::Rle,
            Strategy::Fixed => zlib_rs::Strategy::Fixed,
        };
        // The options were checked when the middleware was made, so zlib
        // accepts them (zlib-rs asserts it does).
        let config = DeflateConfig {
            level: opts.level,
            window_bits: if gzip {
                opts.window_bits + 16
            } else {
                opts.window_bits
            },
            mem_level: opts.mem_level,
            strategy,
            ..DeflateConfig::default()
        };
        Zlib {
            deflate: zlib_rs::Deflate::new_with_config(config),
            chunk: opts.chunk_size,
            failed: false,
        }
    }

    /// One `deflate()` round per buffer until `input` is taken and, for a
    /// flush, everything it asks for is out.
    fn run(&mut self, mut input: &[u8], out: &mut BytesMut, flush: DeflateFlush, hint: usize) {
        if self.failed {
            return;
        }
        loop {
            let start = room(out, 64, hint.max(self.chunk));
            let space = out.len() - start;
            let (in_before, out_before) = (self.deflate.total_in(), self.deflate.total_out());
            let status = self.deflate.compress(input, &mut out[start..], flush);
            let taken = (self.deflate.total_in() - in_before) as usize;
            let made = (self.deflate.total_out() - out_before) as usize;
            out.truncate(start + made);
            input = &input[taken..];
            match status {
                // Finished, or nothing left to do (zlib's Z_BUF_ERROR).
                Ok(Status::StreamEnd | Status::BufError) => return,
                // Room left over: deflate has given all it had.
                Ok(Status::Ok)
                    if flush != DeflateFlush::Finish && input.is_empty() && made < space =>
                {
                    return;
                }
                Ok(Status::Ok) => {}
                Err(_) => {
                    self.failed = true;
                    return;
                }
            }
        }
    }
}

impl BodyEncoder for Zlib {
    fn write(&mut self, chunk: &[u8], out: &mut BytesMut) {
        self.run(chunk, out, DeflateFlush::NoFlush, 0);
    }

    fn flush(&mut self, out: &mut BytesMut) {
        // Node's `zlib.flush()` default.
        self.run(&[], out, DeflateFlush::FullFlush, 0);
    }

    fn finish(&mut self, out: &mut BytesMut) {
        self.run(&[], out, DeflateFlush::Finish, 0);
    }

    fn encode_all(&mut self, body: &[u8]) -> bytes::Bytes {
        // As Node compresses the one chunk of `res.end(chunk)`: in one call
        // that also finishes. A quarter of the input is room enough for
        // most text in one round.
        let mut out = BytesMut::new();
        self.run(body, &mut out, DeflateFlush::Finish, body.len() / 4 + 64);
        out.freeze()
    }
}

/// br (`zlib.createBrotliCompress(opts.brotli)`).
struct Brotli {
    state: BrotliEncoderStateStruct<StandardAlloc>,
    chunk: usize,
    failed: bool,
}

impl Brotli {
    fn new(opts: &BrotliOptions, chunk: usize) -> Brotli {
        use BrotliEncoderParameter as P;
        let mut state = BrotliEncoderStateStruct::new(StandardAlloc::default());
        let mode = match opts.mode {
            BrotliMode::Generic => BrotliEncoderMode::BROTLI_MODE_GENERIC,
            BrotliMode::Text => BrotliEncoderMode::BROTLI_MODE_TEXT,
            BrotliMode::Font => BrotliEncoderMode::BROTLI_MODE_FONT,
        };
        state.set_parameter(P::BROTLI_PARAM_MODE, mode as u32);
        state.set_parameter(P::BROTLI_PARAM_QUALITY, opts.quality.min(11));
        state.set_parameter(P::BROTLI_PARAM_LGWIN, opts.lgwin.clamp(10, 24));
        if opts.lgblock != 0 {
            state.set_parameter(P::BROTLI_PARAM_LGBLOCK, opts.lgblock.clamp(16, 24));
        }
        if opts.size_hint != 0 {
            state.set_parameter(P::BROTLI_PARAM_SIZE_HINT, opts.size_hint);
        }
        Brotli {
            state,
            chunk,
            failed: false,
        }
    }

    fn run(&mut self, input: &[u8], out: &mut BytesMut, op: BrotliEncoderOperation) {
        if self.failed {
            return;
        }
        let mut avail_in = input.len();
        let mut in_offset = 0;
        loop {
            let start = room(out, 64, self.chunk);
            let mut avail_out = out.len() - start;
            let mut made = 0;
            let ok = self.state.compress_stream(
                op,
                &mut avail_in,
                input,
                &mut in_offset,
                &mut avail_out,
                &mut out[start..],
                &mut made,
                &mut None,
                &mut |_, _, _, _| (),
            );
            out.truncate(start + made);
            if !ok {
                self.failed = true;
                return;
            }
            let done = match op {
                BrotliEncoderOperation::BROTLI_OPERATION_FINISH => self.state.is_finished(),
                _ => avail_in == 0 && !self.state.has_more_output(),
            };
            if done {
                return;
            }
        }
    }
}

impl BodyEncoder for Brotli {
    fn write(&mut self, chunk: &[u8], out: &mut BytesMut) {
        self.run(chunk, out, BrotliEncoderOperation::BROTLI_OPERATION_PROCESS);
    }

    fn flush(&mut self, out: &mut BytesMut) {
        self.run(&[], out, BrotliEncoderOperation::BROTLI_OPERATION_FLUSH);
    }

    fn finish(&mut self, out: &mut BytesMut) {
        self.run(&[], out, BrotliEncoderOperation::BROTLI_OPERATION_FINISH);
    }

    fn encode_all(&mut self, body: &[u8]) -> bytes::Bytes {
        // One call that finishes, as Node compresses `res.end(chunk)`.
        let mut out = BytesMut::new();
        self.run(
            body,
            &mut out,
            BrotliEncoderOperation::BROTLI_OPERATION_FINISH,
        );
        out.freeze()
    }
}

impl Drop for Brotli {
    fn drop(&mut self) {
        BrotliEncoderDestroyInstance(&mut self.state);
    }
}
