//! `Content-Encoding: br` request bodies (body-parser 2 pipes them through Node's
//! `zlib.createBrotliDecompress()`), decoded as they stream with brotli-decompressor, a port
//! of Google's decoder.

use brotli_decompressor::{BrotliDecompressStream, BrotliResult, BrotliState, StandardAlloc};

use super::errors;
use crate::error::Error;

/// How much output one decoder call may write: the body's buffer grows by at most this much
/// ahead of what the stream holds.
const CHUNK: usize = 16 * 1024;

/// A brotli stream being decoded, writing at most `limit + 1` bytes before it reports 413.
pub(crate) struct BrotliInflater {
    state: BrotliState<StandardAlloc, StandardAlloc, StandardAlloc>,
    ended: bool,
}

impl BrotliInflater {
    pub(crate) fn new() -> BrotliInflater {
        BrotliInflater {
            // Strict: Node's decoder refuses the non-standard large-window streams too.
            state: BrotliState::new_strict(StandardAlloc {}, StandardAlloc {}, StandardAlloc {}),
            ended: false,
        }
    }

    /// Decodes `input` onto `out`. Bytes after the end of the stream are ignored, as
    /// Node's decoder ignores them.
    pub(crate) fn feed(
        &mut self,
        input: &[u8],
        out: &mut Vec<u8>,
        limit: usize,
    ) -> Result<(), Error> {
        let mut available_in = input.len();
        let mut input_offset = 0;
        while !self.ended {
            let start = out.len();
            let room = limit.saturating_add(1).saturating_sub(start).min(CHUNK);
            out.resize(start + room, 0);
            let mut available_out = room;
            let mut output_offset = start;
            let mut total = 0;
            let result = BrotliDecompressStream(
                &mut available_in,
                &mut input_offset,
                input,
                &mut available_out,
                &mut output_offset,
                out,
                &mut total,
                &mut self.state,
            );
            out.truncate(output_offset);
            if out.len() > limit {
                return Err(errors::too_large());
            }
            match result {
                BrotliResult::ResultSuccess => self.ended = true,
                BrotliResult::NeedsMoreInput => return Ok(()),
                BrotliResult::NeedsMoreOutput => {}
                // Node's message for a stream its decoder rejects.
                BrotliResult::ResultFailure => {
                    return Err(errors::inflate_failed("Decompression failed"));
                }
            }
        }
        Ok(())
    }

    /// The body ended: a stream cut short (or none at all) is Node's `unexpected end of
    /// file`.
    pub(crate) fn finish(&self) -> Result<(), Error> {
        if self.ended {
            Ok(())
        } else {
            Err(errors::inflate_failed("unexpected end of file"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `{"a":1}` as Node's `zlib.brotliCompressSync` writes it.
    const A1: &[u8] = &[
        0x0b, 0x03, 0x80, 0x7b, 0x22, 0x61, 0x22, 0x3a, 0x31, 0x7d, 0x03,
    ];

    #[test]
    fn decodes_in_any_split_and_ignores_trailing_bytes() {
        for split in 0..=A1.len() {
            let mut d = BrotliInflater::new();
            let mut out = Vec::new();
            d.feed(&A1[..split], &mut out, 100).unwrap();
            d.feed(&A1[split..], &mut out, 100).unwrap();
            d.feed(b"junk", &mut out, 100).unwrap();
            d.finish().unwrap();
            assert_eq!(out, br#"{"a":1}"#);
        }
    }

    #[test]
    fn truncated_corrupt_and_too_large() {
        let mut d = BrotliInflater::new();
        let mut out = Vec::new();
        d.feed(&A1[..A1.len() - 2], &mut out, 100).unwrap();
        assert_eq!(d.finish().unwrap_err().message(), "unexpected end of file");
        let err = BrotliInflater::new()
            .feed(b"not brotli at all", &mut Vec::new(), 100)
            .unwrap_err();
        assert_eq!((err.status(), err.kind()), (400, None));
        let err = BrotliInflater::new()
            .feed(A1, &mut Vec::new(), 6)
            .unwrap_err();
        assert_eq!(err.kind(), Some("entity.too.large"));
    }
}
