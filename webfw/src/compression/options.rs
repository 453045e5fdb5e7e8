//! compression's options and their defaults; the zlib ones are checked as
//! Node's zlib checks them, when the middleware is made.

use std::sync::Arc;

use crate::request::Request;
use crate::response::Response;

/// The `threshold` option: a byte count, or a size string as the `bytes`
/// package parses it (`"1kb"`, `"2.5mb"`). A string `bytes` cannot read, or
/// a NaN, leaves compression's default of 1 kb, as in Node.
///
/// ```
/// use webfw::compression::Threshold;
/// assert_eq!(Threshold::from("1kb").bytes(), 1024.0);
/// assert_eq!(Threshold::from(0).bytes(), 0.0);
/// assert_eq!(Threshold::from("lots").bytes(), 1024.0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Threshold(f64);

impl Threshold {
    /// The threshold in bytes (fractions and negative values are kept, as
    /// JavaScript compares them).
    ///
    /// ```
    /// assert_eq!(webfw::compression::Threshold::from("2kb").bytes(), 2048.0);
    /// ```
    pub fn bytes(self) -> f64 {
        self.0
    }
}

impl Default for Threshold {
    /// compression's default, 1 kb.
    fn default() -> Self {
        Threshold(1024.0)
    }
}

impl From<&str> for Threshold {
    fn from(s: &str) -> Self {
        crate::body::limit::bytes_parse(s).map_or_else(Threshold::default, Threshold)
    }
}

impl From<String> for Threshold {
    fn from(s: String) -> Self {
        Threshold::from(s.as_str())
    }
}

impl From<f64> for Threshold {
    fn from(n: f64) -> Self {
        if n.is_nan() {
            Threshold::default()
        } else {
            Threshold(n)
        }
    }
}

macro_rules! threshold_from_int {
    ($($t:ty),*) => {$(
        impl From<$t> for Threshold {
            fn from(n: $t) -> Self {
                Threshold(n as f64)
            }
        }
    )*};
}
threshold_from_int!(i32, i64, u32, u64, usize);

/// zlib's `strategy`: how deflate looks for matches (gzip and deflate).
///
/// ```
/// use webfw::compression::{CompressionOptions, Strategy};
/// let opts = CompressionOptions::new().strategy(Strategy::Filtered);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Strategy {
    /// `Z_DEFAULT_STRATEGY`.
    #[default]
    Default,
    /// `Z_FILTERED`: for data of small values with a random distribution.
    Filtered,
    /// `Z_HUFFMAN_ONLY`: no string matching.
    HuffmanOnly,
    /// `Z_RLE`: matches of distance one only (image data).
    Rle,
    /// `Z_FIXED`: no dynamic Huffman codes.
    Fixed,
}

/// brotli's `BROTLI_PARAM_MODE`: what the input is, as a hint.
///
/// ```
/// use webfw::compression::{BrotliMode, BrotliOptions};
/// let br = BrotliOptions::new().mode(BrotliMode::Text);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BrotliMode {
    /// `BROTLI_MODE_GENERIC`.
    #[default]
    Generic,
    /// `BROTLI_MODE_TEXT`: UTF-8 text.
    Text,
    /// `BROTLI_MODE_FONT`: WOFF 2.0 fonts.
    Font,
}

/// The `brotli` option: the parameters of br compression. compression's
/// defaults are brotli's own but for the quality, 4 (11 is brotli's
/// default and far slower). Out-of-range values are clamped as brotli
/// clamps them.
///
/// ```
/// use webfw::compression::{BrotliOptions, CompressionOptions};
/// let opts = CompressionOptions::new().brotli(BrotliOptions::new().quality(6).lgwin(20));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BrotliOptions {
    pub(crate) quality: u32,
    pub(crate) lgwin: u32,
    pub(crate) lgblock: u32,
    pub(crate) mode: BrotliMode,
    pub(crate) size_hint: u32,
}

impl Default for BrotliOptions {
    fn default() -> Self {
        BrotliOptions {
            quality: 4,
            lgwin: 22,
            lgblock: 0,
            mode: BrotliMode::Generic,
            size_hint: 0,
        }
    }
}

impl BrotliOptions {
    /// compression's brotli parameters (quality 4).
    ///
    /// ```
    /// let br = webfw::compression::BrotliOptions::new();
    /// ```
    pub fn new() -> Self {
        BrotliOptions::default()
    }

    /// `BROTLI_PARAM_QUALITY`, 0 (fastest) to 11 (smallest).
    ///
    /// ```
    /// let br = webfw::compression::BrotliOptions::new().quality(11);
    /// ```
    pub fn quality(mut self, quality: u32) -> Self {
        self.quality = quality;
        self
    }

    /// `BROTLI_PARAM_LGWIN`: the window is 2^lgwin − 16 bytes, 10 to 24 (22).
    ///
    /// ```
    /// let br = webfw::compression::BrotliOptions::new().lgwin(18);
    /// ```
    pub fn lgwin(mut self, lgwin: u32) -> Self {
        self.lgwin = lgwin;
        self
    }

    /// `BROTLI_PARAM_LGBLOCK`: the input block size, 16 to 24, or 0 for
    /// brotli's choice from the quality.
    ///
    /// ```
    /// let br = webfw::compression::BrotliOptions::new().lgblock(16);
    /// ```
    pub fn lgblock(mut self, lgblock: u32) -> Self {
        self.lgblock = lgblock;
        self
    }

    /// `BROTLI_PARAM_MODE`.
    ///
    /// ```
    /// use webfw::compression::{BrotliMode, BrotliOptions};
    /// let br = BrotliOptions::new().mode(BrotliMode::Font);
    /// ```
    pub fn mode(mut self, mode: BrotliMode) -> Self {
        self.mode = mode;
        self
    }

    /// `BROTLI_PARAM_SIZE_HINT`: the expected input size, 0 for unknown.
    ///
    /// ```
    /// let br = webfw::compression::BrotliOptions::new().size_hint(64 * 1024);
    /// ```
    pub fn size_hint(mut self, bytes: u32) -> Self {
        self.size_hint = bytes;
        self
    }
}

/// The `filter` option's function.
pub(crate) type FilterFn = dyn Fn(&Request, &Response) -> bool + Send + Sync;

/// The options of [`compression`](crate::compression()), with compression
/// 1.8's defaults: responses of 1 kb and more compressed when their type is
/// compressible ([`should_compress`](super::should_compress)), zlib's level,
/// memory level, window and strategy defaults, 16 KiB output chunks, br at
/// quality 4, and nothing enforced for requests without `Accept-Encoding`.
///
/// ```
/// use webfw::compression::CompressionOptions;
/// let opts = CompressionOptions::new().threshold("2kb").level(6).enforce_encoding("gzip");
/// let mut app = webfw::app();
/// app.use_(webfw::compression(opts));
/// ```
#[derive(Clone)]
pub struct CompressionOptions {
    pub(crate) threshold: f64,
    pub(crate) level: i32,
    pub(crate) mem_level: i32,
    pub(crate) window_bits: i32,
    pub(crate) strategy: Strategy,
    pub(crate) chunk_size: usize,
    pub(crate) brotli: BrotliOptions,
    pub(crate) enforce_encoding: String,
    pub(crate) filter: Option<Arc<FilterFn>>,
}

impl Default for CompressionOptions {
    fn default() -> Self {
        CompressionOptions {
            threshold: Threshold::default().bytes(),
            level: -1,
            mem_level: 8,
            window_bits: 15,
            strategy: Strategy::Default,
            chunk_size: 16 * 1024,
            brotli: BrotliOptions::default(),
            enforce_encoding: "identity".into(),
            filter: None,
        }
    }
}

impl std::fmt::Debug for CompressionOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CompressionOptions")
            .field("threshold", &self.threshold)
            .field("level", &self.level)
            .field("mem_level", &self.mem_level)
            .field("window_bits", &self.window_bits)
            .field("strategy", &self.strategy)
            .field("chunk_size", &self.chunk_size)
            .field("brotli", &self.brotli)
            .field("enforce_encoding", &self.enforce_encoding)
            .field("filter", &self.filter.as_ref().map(|_| "fn"))
            .finish()
    }
}

impl From<()> for CompressionOptions {
    fn from((): ()) -> CompressionOptions {
        CompressionOptions::default()
    }
}

/// Node's zlib `RangeError` for an option out of its range.
fn check_range(name: &str, value: i64, min: i64, max: Option<i64>) {
    let within = value >= min && max.is_none_or(|m| value <= m);
    if !within {
        let bounds = match max {
            Some(max) => format!(">= {min} and <= {max}"),
            None => format!(">= {min}"),
        };
        panic!(
            "The value of \"options.{name}\" is out of range. It must be {bounds}. Received {value}"
        );
    }
}

impl CompressionOptions {
    /// compression's defaults (`compression()`).
    ///
    /// ```
    /// let opts = webfw::compression::CompressionOptions::new();
    /// ```
    pub fn new() -> Self {
        CompressionOptions::default()
    }

    /// `threshold`: bodies shorter than this, when their length is known
    /// (`Content-Length`, or the one chunk of `res.end(chunk)`), are not
    /// compressed. A number of bytes or a string such as `"1kb"`.
    ///
    /// ```
    /// let opts = webfw::compression::CompressionOptions::new().threshold(0);
    /// let opts = webfw::compression::CompressionOptions::new().threshold("10kb");
    /// ```
    pub fn threshold(mut self, threshold: impl Into<Threshold>) -> Self {
        self.threshold = threshold.into().bytes();
        self
    }

    /// `level`: zlib's compression level for gzip and deflate, 0 (none) to
    /// 9 (smallest), or -1 for zlib's default (6). Panics outside -1..=9,
    /// with Node's message.
    ///
    /// ```
    /// let opts = webfw::compression::CompressionOptions::new().level(1);
    /// ```
    pub fn level(mut self, level: i32) -> Self {
        check_range("level", level.into(), -1, Some(9));
        self.level = level;
        self
    }

    /// `memLevel`: how much memory zlib uses for its state, 1 to 9 (8).
    /// Panics outside that range.
    ///
    /// ```
    /// let opts = webfw::compression::CompressionOptions::new().mem_level(9);
    /// ```
    pub fn mem_level(mut self, mem_level: i32) -> Self {
        check_range("memLevel", mem_level.into(), 1, Some(9));
        self.mem_level = mem_level;
        self
    }

    /// `windowBits`: the base-two logarithm of zlib's window, 9 to 15 (15;
    /// gzip takes no less than 9). Panics outside that range.
    ///
    /// ```
    /// let opts = webfw::compression::CompressionOptions::new().window_bits(12);
    /// ```
    pub fn window_bits(mut self, window_bits: i32) -> Self {
        check_range("windowBits", window_bits.into(), 9, Some(15));
        self.window_bits = window_bits;
        self
    }

    /// `strategy`: zlib's match strategy.
    ///
    /// ```
    /// use webfw::compression::{CompressionOptions, Strategy};
    /// let opts = CompressionOptions::new().strategy(Strategy::HuffmanOnly);
    /// ```
    pub fn strategy(mut self, strategy: Strategy) -> Self {
        self.strategy = strategy;
        self
    }

    /// `chunkSize`: the size of the buffers compressed output is gathered
    /// in (16 KiB). Panics below 64, as Node's zlib does.
    ///
    /// ```
    /// let opts = webfw::compression::CompressionOptions::new().chunk_size(32 * 1024);
    /// ```
    pub fn chunk_size(mut self, bytes: usize) -> Self {
        check_range(
            "chunkSize",
            i64::try_from(bytes).unwrap_or(i64::MAX),
            64,
            None,
        );
        self.chunk_size = bytes;
        self
    }

    /// `brotli`: the parameters of br compression.
    ///
    /// ```
    /// use webfw::compression::{BrotliOptions, CompressionOptions};
    /// let opts = CompressionOptions::new().brotli(BrotliOptions::new().quality(5));
    /// ```
    pub fn brotli(mut self, brotli: BrotliOptions) -> Self {
        self.brotli = brotli;
        self
    }

    /// `enforceEncoding`: the encoding for requests without an
    /// `Accept-Encoding` header (or with an empty one): `"gzip"`,
    /// `"deflate"`, `"br"` or `"identity"` (the default: not compressed).
    /// Any other value leaves those requests uncompressed, as in Node.
    ///
    /// ```
    /// let opts = webfw::compression::CompressionOptions::new().enforce_encoding("gzip");
    /// ```
    pub fn enforce_encoding(mut self, encoding: &str) -> Self {
        encoding.clone_into(&mut self.enforce_encoding);
        self
    }

    /// `filter`: decides, when the head is written, whether the response
    /// may be compressed; [`should_compress`](super::should_compress) is
    /// the default, which a filter may call. The request is the one the
    /// middleware saw (its method, URL, headers and parameters; not its
    /// body), as the head is written while the handler holds the request.
    ///
    /// ```
    /// use webfw::compression::{self, CompressionOptions};
    /// let opts = CompressionOptions::new().filter(|req, res| {
    ///     req.get("x-no-compression").is_none() && compression::should_compress(req, res)
    /// });
    /// ```
    pub fn filter<F>(mut self, filter: F) -> Self
    where
        F: Fn(&Request, &Response) -> bool + Send + Sync + 'static,
    {
        self.filter = Some(Arc::new(filter));
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threshold_reads_numbers_and_size_strings_as_bytes_parse_does() {
        assert_eq!(Threshold::from("1kb").bytes(), 1024.0);
        assert_eq!(Threshold::from("1.5kb").bytes(), 1536.0);
        assert_eq!(Threshold::from("100").bytes(), 100.0);
        assert_eq!(Threshold::from("-1kb").bytes(), -1024.0);
        assert_eq!(Threshold::from("-5").bytes(), -5.0);
        assert_eq!(Threshold::from("nope").bytes(), 1024.0);
        assert_eq!(Threshold::from(f64::NAN).bytes(), 1024.0);
        assert_eq!(Threshold::from(0.5).bytes(), 0.5);
    }

    #[test]
    #[should_panic(
        expected = "The value of \"options.level\" is out of range. It must be >= -1 and <= 9. Received 10"
    )]
    fn a_level_zlib_refuses_panics_with_nodes_message() {
        let _ = CompressionOptions::new().level(10);
    }

    #[test]
    #[should_panic(expected = "It must be >= 64. Received 10")]
    fn a_tiny_chunk_size_panics() {
        let _ = CompressionOptions::new().chunk_size(10);
    }
}
