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
use super::pool::{self, Zstream};
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

/// gzip (`zlib.createGzip(opts)`) or deflate (`zlib.createDeflate(opts)`).
struct Zlib {
    config: DeflateConfig,
    /// `None` once a zlib error stopped the stream: nothing more is produced.
    stream: Option<Zstream>,
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
            config,
            stream: Some(pool::take(config, opts.chunk_size)),
        }
    }

    /// `deflate()` rounds through the output buffer until `input` is taken
    /// and, for a flush, everything it asks for is out.
    fn run(&mut self, mut input: &[u8], out: &mut BytesMut, flush: DeflateFlush) {
        let Some(z) = self.stream.as_mut() else {
            return;
        };
        loop {
            let (in_before, out_before) = (z.deflate.total_in(), z.deflate.total_out());
            let status = z.deflate.compress(input, &mut z.buffer, flush);
            let taken = (z.deflate.total_in() - in_before) as usize;
            let made = (z.deflate.total_out() - out_before) as usize;
            out.extend_from_slice(&z.buffer[..made]);
            input = &input[taken..];
            match status {
                // Finished, or nothing left to do (zlib's Z_BUF_ERROR).
                Ok(Status::StreamEnd | Status::BufError) => return,
                // Room left over: deflate has given all it had.
                Ok(Status::Ok)
                    if flush != DeflateFlush::Finish
                        && input.is_empty()
                        && made < z.buffer.len() =>
                {
                    return;
                }
                Ok(Status::Ok) => {}
                Err(_) => {
                    self.stream = None;
                    return;
                }
            }
        }
    }
}

impl BodyEncoder for Zlib {
    fn write(&mut self, chunk: &[u8], out: &mut BytesMut) {
        self.run(chunk, out, DeflateFlush::NoFlush);
    }

    fn flush(&mut self, out: &mut BytesMut) {
        // Node's `zlib.flush()` default.
        self.run(&[], out, DeflateFlush::FullFlush);
    }

    fn finish(&mut self, out: &mut BytesMut) {
        self.run(&[], out, DeflateFlush::Finish);
    }

    fn encode_all(&mut self, body: &[u8]) -> bytes::Bytes {
        // As Node compresses the one chunk of `res.end(chunk)`: in one call
        // that also finishes.
        let mut out = BytesMut::new();
        self.run(body, &mut out, DeflateFlush::Finish);
        out.freeze()
    }
}

impl Drop for Zlib {
    fn drop(&mut self) {
        if let Some(z) = self.stream.take() {
            pool::give(self.config, z);
        }
    }
}

/// br (`zlib.createBrotliCompress(opts.brotli)`).
struct Brotli {
    state: BrotliEncoderStateStruct<StandardAlloc>,
    /// Output is made here, then copied out.
    buffer: Vec<u8>,
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
            buffer: vec![0; chunk],
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
            let mut avail_out = self.buffer.len();
            let mut made = 0;
            let ok = self.state.compress_stream(
                op,
                &mut avail_in,
                input,
                &mut in_offset,
                &mut avail_out,
                &mut self.buffer,
                &mut made,
                &mut None,
                &mut |_, _, _, _| (),
            );
            out.extend_from_slice(&self.buffer[..made]);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(b: &[u8]) -> String {
        b.iter().map(|x| format!("{x:02x}")).collect()
    }

    /// Outputs recorded from Node 20's zlib (`zlib.gzipSync('hello')`,
    /// `brotliCompressSync(text)` at quality 4). Level 1 is zlib-ng's
    /// quick deflate in zlib-rs, which picks other matches than zlib's:
    /// the same text, other bytes.
    #[test]
    fn the_bytes_are_nodes() {
        let text = "compressible text. ".repeat(200);
        let opts = CompressionOptions::new();
        assert_eq!(
            hex(&Coding::Gzip.encoder(&opts).encode_all(b"hello")),
            "1f8b0800000000000003cb48cdc9c9070086a6103605000000"
        );
        assert_eq!(
            hex(&Coding::Br.encoder(&opts).encode_all(text.as_bytes())),
            "1bd70e00444f96ea4352037bb03186202e0c2a7f060056d9c35dd7208e7f0203"
        );
        let fast = Coding::Deflate
            .encoder(&opts.level(1))
            .encode_all(text.as_bytes());
        let mut plain = String::new();
        std::io::Read::read_to_string(&mut flate2::read::ZlibDecoder::new(&fast[..]), &mut plain)
            .unwrap();
        assert_eq!(plain, text);
    }

    #[test]
    fn a_reused_zlib_state_writes_what_a_new_one_does() {
        let opts = CompressionOptions::new().chunk_size(64);
        let body: Vec<u8> = (0..50_000u32)
            .flat_map(|i| (i % 251).to_le_bytes())
            .collect();
        let first = Coding::Gzip.encoder(&opts).encode_all(&body);
        // Left mid-stream, then taken again from the pool.
        let mut left = Coding::Gzip.encoder(&opts);
        left.write(&body[..1000], &mut BytesMut::new());
        drop(left);
        let mut again = Coding::Gzip.encoder(&opts);
        let mut streamed = BytesMut::new();
        for part in body.chunks(7000) {
            again.write(part, &mut streamed);
        }
        again.finish(&mut streamed);
        assert_eq!(Coding::Gzip.encoder(&opts).encode_all(&body), first);
        let mut plain = Vec::new();
        std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&streamed[..]), &mut plain)
            .unwrap();
        assert_eq!(plain, body);
    }
}
