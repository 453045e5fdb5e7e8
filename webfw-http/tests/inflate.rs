//! Differential test of `webfw_http::inflate` against zlib-rs (zlib 1.3 in
//! Rust): streams zlib made, cut short, bit-flipped and mutated, fed in
//! random pieces under random limits, through the body reader webfw builds
//! on each (webfw/src/body/read.rs before and after the switch): the same
//! body, 413 or error message every time.

mod readers;

use readers::{Outcome, our_reader, zlib_rs_reader};
use webfw_http::inflate::{Format, Inflate};
use zlib_rs::{DeflateConfig, DeflateFlush, Strategy};

mod rng;
use rng::Rng;

/// Cuts `data` into pieces: mostly a few random cuts, sometimes a byte
/// each, sometimes whole.
fn split<'a>(rng: &mut Rng, data: &'a [u8]) -> Vec<&'a [u8]> {
    let mut pieces = Vec::new();
    let mut rest = data;
    let mode = rng.below(6);
    while !rest.is_empty() {
        let n = match mode {
            0 => rest.len(),
            1 => 1,
            2 => 1 + rng.below(7),
            _ => 1 + rng.scaled(16) % rest.len(),
        };
        let n = n.min(rest.len());
        pieces.push(&rest[..n]);
        rest = &rest[n..];
    }
    pieces
}

struct Checker {
    rng: Rng,
    cases: usize,
    failures: Vec<String>,
    /// Outcomes by kind, to show the cases reach past the header.
    seen: std::collections::BTreeMap<String, usize>,
}

impl Checker {
    fn new(seed: u64) -> Checker {
        Checker {
            rng: Rng(seed),
            cases: 0,
            failures: Vec::new(),
            seen: Default::default(),
        }
    }

    /// One case: `data` read whole-or-cut with a limit above its output and
    /// (sometimes) one below it.
    fn check(&mut self, what: &str, gzip: bool, data: &[u8]) {
        let limit = if self.rng.below(4) == 0 {
            self.rng.scaled(18)
        } else {
            1 << 24
        };
        // Tiny steps only for short streams: zlib-rs unoptimised is slow
        // a byte at a time, and the step never changes its answer.
        let steps = [259, 300, 16 * 1024, 1, 7];
        let step = steps[self.rng.below(if data.len() < 2_000 { 5 } else { 3 })];
        let pieces = split(&mut self.rng, data);
        let want = zlib_rs_reader(gzip, &pieces, limit, step);
        let got = our_reader(gzip, &pieces, limit);
        self.cases += 1;
        let key = match &want {
            Outcome::Body(_) => "body".to_owned(),
            Outcome::TooLarge => "413".to_owned(),
            Outcome::Failed(m) => m.clone(),
        };
        *self.seen.entry(key).or_default() += 1;
        if got != want && self.failures.len() < 20 {
            let shown = |o: &Outcome| match o {
                Outcome::Body(b) => format!("Body({} bytes)", b.len()),
                other => format!("{other:?}"),
            };
            let sizes: Vec<usize> = pieces.iter().map(|p| p.len()).collect();
            self.failures.push(format!(
                "{what} (gzip {gzip}, limit {limit}, pieces {sizes:?}): \
                 zlib-rs {}, ours {}\n  input {}",
                shown(&want),
                shown(&got),
                hex(&data[..data.len().min(96)]),
            ));
        }
    }

    /// A valid stream, then its truncations, bit flips and mutations.
    fn check_mutated(&mut self, what: &str, gzip: bool, data: &[u8], variants: usize) {
        self.check(what, gzip, data);
        let n = data.len();
        // Truncations: every one of a short stream, else the last bytes and
        // random ones.
        if n <= 64 {
            for cut in 0..n {
                self.check(&format!("{what} cut at {cut}"), gzip, &data[..cut]);
            }
        } else {
            for _ in 0..variants {
                let cut = if self.rng.below(2) == 0 {
                    n - 1 - self.rng.below(12)
                } else {
                    self.rng.below(n)
                };
                self.check(&format!("{what} cut at {cut}"), gzip, &data[..cut]);
            }
        }
        for _ in 0..variants * 2 {
            let mut m = data.to_vec();
            // The headers, tables and trailer are where most checks are.
            let at = match self.rng.below(3) {
                0 => self.rng.below(n.min(48)),
                1 => n - 1 - self.rng.below(n.min(12)),
                _ => self.rng.below(n),
            };
            let desc = match self.rng.below(5) {
                0 | 1 => {
                    m[at] ^= 1 << self.rng.below(8);
                    format!("bit flip at {at}")
                }
                2 => {
                    m[at] = self.rng.next() as u8;
                    format!("byte set at {at}")
                }
                3 => {
                    m.remove(at);
                    format!("byte removed at {at}")
                }
                _ => {
                    let n = 1 + self.rng.below(4);
                    let junk = self.rng.bytes(n);
                    m.splice(at..at, junk);
                    format!("bytes inserted at {at}")
                }
            };
            self.check(&format!("{what} {desc}"), gzip, &m);
        }
    }

    /// The cases reached each of these answers at least once.
    fn assert_saw(&self, messages: &[&str]) {
        for m in messages {
            assert!(self.seen.contains_key(*m), "no case got {m:?}");
        }
    }

    fn assert_clean(&self, at_least: usize) {
        eprintln!("{} cases; outcomes {:?}", self.cases, self.seen);
        assert!(
            self.failures.is_empty(),
            "{} mismatches:\n{}",
            self.failures.len(),
            self.failures.join("\n")
        );
        assert!(self.cases >= at_least, "only {} cases", self.cases);
    }
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// The bodies compressed: empty, tiny, JSON, random, repetitive, long
/// distances, short overlapping distances.
fn plaintexts(rng: &mut Rng) -> Vec<(&'static str, Vec<u8>)> {
    let mut json = String::from("[");
    for i in 0..400 {
        json.push_str(&format!(
            r#"{{"id":{i},"name":"user{}","tags":["a","b{}"],"score":{}.{}}},"#,
            rng.below(1000),
            rng.below(50),
            rng.below(100),
            rng.below(100)
        ));
    }
    json.push_str("null]");
    let block = rng.bytes(33_000);
    let mut far = block.clone();
    far.extend_from_slice(&block[..20_000]);
    far.extend_from_slice(&rng.bytes(1_000));
    far.extend_from_slice(&block[100..5_000]);
    let mut short = Vec::new();
    for period in 2..9 {
        for i in 0..500 {
            short.push(b'a' + (i % period) as u8);
        }
        short.extend(rng.bytes(3));
    }
    vec![
        ("empty", Vec::new()),
        ("one byte", b"x".to_vec()),
        ("hello", b"hello, hello, hello world".to_vec()),
        ("json", json.into_bytes()),
        ("random", rng.bytes(6_000)),
        ("zeros", vec![0; 40_000]),
        ("far", far),
        ("short distances", short),
        ("all bytes", (0..=255u8).cycle().take(3_000).collect()),
    ]
}

/// `data` compressed by zlib-rs with `config`, flushed (sync, full or
/// partial, making empty stored blocks and block boundaries) at random
/// points when `flushes`.
fn deflate(rng: &mut Rng, data: &[u8], config: DeflateConfig, flushes: bool) -> Vec<u8> {
    let mut d = zlib_rs::Deflate::new_with_config(config);
    let mut out = vec![0u8; zlib_rs::compress_bound(data.len()) * 2 + 4096];
    let mut rest = data;
    loop {
        let (piece, flush) = if flushes && !rest.is_empty() && rng.below(3) != 0 {
            let n = rng.below(rest.len()) + 1;
            let flush = [
                DeflateFlush::SyncFlush,
                DeflateFlush::FullFlush,
                DeflateFlush::PartialFlush,
                DeflateFlush::NoFlush,
            ][rng.below(4)];
            (&rest[..n], flush)
        } else {
            (rest, DeflateFlush::Finish)
        };
        let at = d.total_out() as usize;
        let in0 = d.total_in();
        let status = d.compress(piece, &mut out[at..], flush).unwrap();
        assert_eq!((d.total_in() - in0) as usize, piece.len());
        rest = &rest[piece.len()..];
        if flush == DeflateFlush::Finish {
            assert_eq!(status, zlib_rs::Status::StreamEnd);
            break;
        }
    }
    out.truncate(d.total_out() as usize);
    out
}

fn config(level: i32, strategy: Strategy, gzip: bool, mem_level: i32) -> DeflateConfig {
    DeflateConfig {
        level,
        window_bits: if gzip { 31 } else { 15 },
        mem_level,
        strategy,
        ..DeflateConfig::default()
    }
}

#[test]
fn streams_zlib_made_and_their_corruptions_read_as_zlib_reads_them() {
    let mut c = Checker::new(0x9e37_79b9_7f4a_7c15);
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let settings = [
        (0, Strategy::Default),
        (1, Strategy::Default),
        (6, Strategy::Default),
        (9, Strategy::Default),
        (6, Strategy::Filtered),
        (6, Strategy::HuffmanOnly),
        (6, Strategy::Rle),
        (6, Strategy::Fixed),
    ];
    for (name, data) in plaintexts(&mut rng) {
        for &(level, strategy) in &settings {
            for gzip in [false, true] {
                let flushes = rng.below(3) == 0;
                let mem_level = 1 + rng.below(9) as i32;
                let z = deflate(
                    &mut rng,
                    &data,
                    config(level, strategy, gzip, mem_level),
                    flushes,
                );
                let what = format!("{name} level {level} {strategy:?} flushes {flushes}");
                // Fewer variants of the long ones keep the test quick.
                let variants = if data.len() > 20_000 { 3 } else { 8 };
                c.check_mutated(&what, gzip, &z, variants);
            }
        }
    }
    c.assert_clean(3_000);
}

#[test]
fn gzip_members_and_what_follows_them_read_as_read_rs_read_them() {
    let mut c = Checker::new(7);
    let mut rng = Rng(0xdead_beef_cafe_f00d);
    let texts = plaintexts(&mut rng);
    for round in 0..400 {
        let mut body = Vec::new();
        for _ in 0..1 + rng.below(3) {
            let (_, data) = &texts[rng.below(texts.len())];
            let data = &data[..data.len().min(2_000)];
            let level = rng.below(10) as i32;
            body.extend(deflate(
                &mut rng,
                data,
                config(level, Strategy::Default, true, 8),
                false,
            ));
        }
        // Nothing, padding, junk, or junk that starts like a member.
        match rng.below(5) {
            0 => {}
            1 => body.extend(vec![0; 1 + rng.below(9)]),
            2 => {
                let n = 1 + rng.below(9);
                body.extend(rng.bytes(n));
            }
            3 => body.push(0x1f),
            _ => body.extend([0x1f, 0x8b, 0x08, 0x00]),
        }
        c.check_mutated(&format!("members {round}"), true, &body, 2);
    }
    c.assert_clean(2_000);
}

/// Gzip headers with every optional field, each field's flag, and a header
/// CRC right or wrong.
#[test]
fn gzip_header_fields_read_as_zlib_reads_them() {
    let mut c = Checker::new(11);
    let mut rng = Rng(99);
    let data = b"gzip header fields, gzip header fields";
    let raw = deflate(
        &mut rng,
        data,
        DeflateConfig {
            window_bits: -15,
            ..DeflateConfig::new(6)
        },
        false,
    );
    for flags in 0..=255u8 {
        let mut h = vec![0x1f, 0x8b, 8, flags, 1, 2, 3, 4, 0, 3];
        if flags & 4 != 0 {
            let n = rng.below(300);
            h.extend((n as u16).to_le_bytes());
            h.extend(rng.bytes(n));
        }
        if flags & 8 != 0 {
            h.extend(b"name.json\0");
        }
        if flags & 16 != 0 {
            h.extend(b"a comment\0");
        }
        if flags & 2 != 0 {
            let crc = zlib_rs::crc32::crc32(0, &h) as u16;
            let crc = if rng.below(4) == 0 { crc ^ 1 } else { crc };
            h.extend(crc.to_le_bytes());
        }
        h.extend_from_slice(&raw);
        h.extend(zlib_rs::crc32::crc32(0, data).to_le_bytes());
        h.extend((data.len() as u32).to_le_bytes());
        c.check_mutated(&format!("flags {flags:#04x}"), true, &h, 2);
    }
    // Every compression method byte.
    for method in 0..=255u8 {
        let mut h = vec![0x1f, 0x8b, method, 0, 0, 0, 0, 0, 0, 3];
        h.extend_from_slice(&raw);
        c.check(&format!("method {method}"), true, &h);
    }
    c.assert_saw(&[
        "unknown compression method",
        "unknown header flags set",
        "header crc mismatch",
        "incorrect length check",
        "body",
    ]);
    c.assert_clean(2_000);
}

/// Every two-byte zlib header, followed by a valid stream's rest; and
/// preset dictionaries.
#[test]
fn zlib_headers_read_as_zlib_reads_them() {
    let mut c = Checker::new(13);
    let mut rng = Rng(5);
    let z = deflate(
        &mut rng,
        b"zlib headers, zlib headers",
        DeflateConfig::new(6),
        false,
    );
    for head in 0..=0xffffu32 {
        let mut s = vec![(head >> 8) as u8, head as u8];
        // FDICT set: a dictionary id, then the data.
        if head & 0x20 != 0 {
            s.extend([1, 2, 3, 4]);
        }
        s.extend_from_slice(&z[2..]);
        if head % 7 == 0 || (head >> 8) & 0x0f == 8 {
            c.check(&format!("header {head:04x}"), false, &s);
        }
    }
    for _ in 0..20 {
        let mut d = zlib_rs::Deflate::new(6, true, 15);
        d.set_dictionary(b"a preset dictionary").unwrap();
        let mut out = vec![0u8; 256];
        d.compress(b"dictionary data", &mut out, DeflateFlush::Finish)
            .unwrap();
        out.truncate(d.total_out() as usize);
        c.check_mutated("preset dictionary", false, &out, 2);
    }
    c.assert_saw(&[
        "incorrect header check",
        "unknown compression method",
        "invalid window size",
        "Missing dictionary",
        "body",
    ]);
    c.assert_clean(8_000);
}

/// Writes deflate bits, least significant first.
#[derive(Default)]
struct Bits {
    out: Vec<u8>,
    acc: u64,
    n: u32,
}

impl Bits {
    fn put(&mut self, value: u32, n: u32) -> &mut Bits {
        self.acc |= u64::from(value) << self.n;
        self.n += n;
        while self.n >= 8 {
            self.out.push(self.acc as u8);
            self.acc >>= 8;
            self.n -= 8;
        }
        self
    }

    /// A Huffman code: its bits go most significant first.
    fn code(&mut self, code: u32, n: u32) -> &mut Bits {
        let reversed = code.reverse_bits() >> (32 - n);
        self.put(reversed, n)
    }

    fn zeros(&mut self, n: u32) -> &mut Bits {
        for _ in 0..n {
            self.put(0, 1);
        }
        self
    }

    fn finish(&mut self) -> Vec<u8> {
        if self.n > 0 {
            self.out.push(self.acc as u8);
        }
        std::mem::take(&mut self.out)
    }
}

/// A fixed-code symbol (RFC 1951 3.2.6).
fn fixed_symbol(b: &mut Bits, sym: u32) {
    match sym {
        0..=143 => b.code(0x30 + sym, 8),
        144..=255 => b.code(0x190 + sym - 144, 9),
        256..=279 => b.code(sym - 256, 7),
        _ => b.code(0xc0 + sym - 280, 8),
    };
}

/// A dynamic block header: `lit` and `dist` code lengths sent with a
/// code-length code of `cl` (lengths in RFC order, at least 4), each length
/// written as its own symbol.
fn dynamic_header(b: &mut Bits, last: bool, lit: &[u8], dist: &[u8], cl: &[u8]) {
    b.put(u32::from(last), 1).put(2, 2);
    b.put(lit.len() as u32 - 257, 5)
        .put(dist.len() as u32 - 1, 5)
        .put(cl.len() as u32 - 4, 4);
    const ORDER: [usize; 19] = [
        16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
    ];
    let mut by_symbol = [0u8; 19];
    for (i, &l) in cl.iter().enumerate() {
        b.put(u32::from(l), 3);
        by_symbol[ORDER[i]] = l;
    }
    let codes = canonical(&by_symbol);
    for &l in lit.iter().chain(dist) {
        let (code, n) = codes[usize::from(l)];
        if n > 0 {
            b.code(code, n);
        } else {
            // No code for this length: zlib's empty code reads one bit.
            b.put(0, 1);
        }
    }
}

/// Canonical codes (code, length) of a set of lengths.
fn canonical(lens: &[u8]) -> Vec<(u32, u32)> {
    let mut count = [0u32; 16];
    for &l in lens {
        count[usize::from(l)] += 1;
    }
    count[0] = 0;
    let mut next = [0u32; 16];
    let mut code = 0;
    for len in 1..16 {
        code = (code + count[len - 1]) << 1;
        next[len] = code;
    }
    lens.iter()
        .map(|&l| {
            if l == 0 {
                (0, 0)
            } else {
                let c = next[usize::from(l)];
                next[usize::from(l)] += 1;
                (c, u32::from(l))
            }
        })
        .collect()
}

/// A zlib stream around raw deflate bits, with a right Adler-32 of
/// `expect` (so only the deflate data can be at fault).
fn zlib_wrap(raw: &[u8], expect: &[u8]) -> Vec<u8> {
    let mut s = vec![0x78, 0x9c];
    s.extend_from_slice(raw);
    s.extend(zlib_rs::adler32::adler32(1, expect).to_be_bytes());
    s
}

/// The corners of zlib's deflate rules, built bit by bit, then mutated:
/// fixed symbols 286/287 and distances 30/31, distances too far back,
/// empty and single-code distance codes, an empty code-length code, a
/// missing end-of-block, repeats before any length or past the end.
#[test]
fn deflate_corner_cases_read_as_zlib_reads_them() {
    let mut c = Checker::new(17);
    let mut cases: Vec<(&str, Vec<u8>)> = Vec::new();

    for sym in [286, 287] {
        let mut b = Bits::default();
        b.put(1, 1).put(1, 2);
        fixed_symbol(&mut b, u32::from(b'a'));
        fixed_symbol(&mut b, sym);
        fixed_symbol(&mut b, 256);
        cases.push(("fixed literal/length 286-287", zlib_wrap(&b.finish(), b"a")));
    }
    for dist in [0, 1, 29, 30, 31] {
        let mut b = Bits::default();
        b.put(1, 1).put(1, 2);
        fixed_symbol(&mut b, u32::from(b'a'));
        fixed_symbol(&mut b, 257);
        b.code(dist, 5);
        if dist >= 4 {
            b.put(0, (dist - 2) / 2);
        }
        fixed_symbol(&mut b, 256);
        cases.push(("fixed distances", zlib_wrap(&b.finish(), b"aaaa")));
    }
    // Literal/length: 'a' (1 bit), 256 and 257 (2 bits each).
    let mut lit = vec![0u8; 258];
    lit[usize::from(b'a')] = 1;
    lit[256] = 2;
    lit[257] = 2;
    // Code-length code in RFC order: 0 (index 3) one bit, 1 (index 17) and
    // 2 (index 15) two bits.
    let mut cl_by_order = vec![0u8; 19];
    cl_by_order[3] = 1;
    cl_by_order[17] = 2;
    cl_by_order[15] = 2;
    for dist in [
        vec![0u8],
        vec![1],
        vec![0, 1],
        vec![2],
        vec![1, 1],
        vec![1, 1, 1],
    ] {
        let mut b = Bits::default();
        dynamic_header(&mut b, true, &lit, &dist, &cl_by_order);
        // 'a', then a length (257 = 3) and one distance bit, then the end.
        b.code(0, 1).code(0b11, 2).put(0, 1).code(0b10, 2);
        cases.push(("distance code sets", zlib_wrap(&b.finish(), b"aaaa")));
        let mut b = Bits::default();
        dynamic_header(&mut b, true, &lit, &dist, &cl_by_order);
        b.code(0, 1).code(0b11, 2).put(1, 1).code(0b10, 2);
        cases.push((
            "distance code sets, other bit",
            zlib_wrap(&b.finish(), b"aaaa"),
        ));
    }
    // Only the end-of-block code, one bit long: the other bit is invalid.
    let mut only_end = vec![0u8; 257];
    only_end[256] = 1;
    for bit in [0, 1] {
        let mut b = Bits::default();
        dynamic_header(&mut b, true, &only_end, &[0], &cl_by_order);
        b.put(bit, 1);
        cases.push(("only end-of-block", zlib_wrap(&b.finish(), b"")));
    }
    // An empty code-length code: every length reads as 0 from one bit.
    for ncl in [4, 19] {
        let mut b = Bits::default();
        b.put(1, 1).put(2, 2).put(0, 5).put(0, 5).put(ncl - 4, 4);
        b.zeros(3 * ncl + 300);
        cases.push(("empty code-length code", zlib_wrap(&b.finish(), b"")));
    }
    // No end-of-block code.
    let mut no_end = vec![0u8; 257];
    no_end[0] = 1;
    no_end[1] = 1;
    let mut b = Bits::default();
    dynamic_header(&mut b, true, &no_end, &[0], &cl_by_order);
    cases.push(("missing end-of-block", zlib_wrap(&b.finish(), b"")));
    // Too many symbols; over-subscribed and incomplete literal/length codes.
    for (nlen, ndist) in [(287, 1), (288, 1), (257, 31), (257, 32), (286, 30)] {
        let mut b = Bits::default();
        b.put(1, 1)
            .put(2, 2)
            .put(nlen - 257, 5)
            .put(ndist - 1, 5)
            .put(0, 4);
        b.zeros(60);
        cases.push(("symbol counts", zlib_wrap(&b.finish(), b"")));
    }
    for lens in [[1u8, 1, 1], [2, 0, 2], [2, 2, 1]] {
        let mut l = vec![0u8; 257];
        l[0] = lens[0];
        l[1] = lens[1];
        l[256] = lens[2];
        let mut b = Bits::default();
        dynamic_header(&mut b, true, &l, &[1], &cl_by_order);
        b.put(0, 16);
        cases.push(("literal/length sets", zlib_wrap(&b.finish(), b"")));
    }
    // Repeat code 16 first; 16, 17 and 18 past the end. The code-length
    // code gives 16, 17, 18 and 0 two bits each.
    let mut cl = [0u8; 19];
    for sym in [16, 17, 18, 0] {
        cl[sym] = 2;
    }
    let codes = canonical(&cl);
    let runs: [&[(usize, u32, u32)]; 4] = [
        &[(16, 0, 2)],
        &[(18, 127, 7), (18, 127, 7)],
        &[(18, 127, 7), (18, 105, 7), (17, 7, 3)],
        &[(18, 127, 7), (18, 108, 7), (16, 0, 2)],
    ];
    for run in runs {
        let mut b = Bits::default();
        b.put(1, 1).put(2, 2).put(0, 5).put(0, 5).put(0, 4);
        b.put(2, 3).put(2, 3).put(2, 3).put(2, 3);
        for &(sym, extra, n) in run {
            let (code, len) = codes[sym];
            b.code(code, len).put(extra, n);
        }
        b.zeros(16);
        cases.push(("repeats", zlib_wrap(&b.finish(), b"")));
    }
    // Stored blocks: empty, lengths that do and do not match.
    for (len, nlen) in [(0u16, 0xffffu16), (3, 0xfffc), (3, 0xfffd), (0, 0)] {
        let mut b = Bits::default();
        b.put(1, 1).put(0, 2);
        let mut raw = b.finish();
        raw.extend(len.to_le_bytes());
        raw.extend(nlen.to_le_bytes());
        raw.extend(b"abc");
        cases.push((
            "stored lengths",
            zlib_wrap(&raw, &b"abc"[..usize::from(len).min(3)]),
        ));
    }
    for block_type in 0..4 {
        let mut b = Bits::default();
        b.put(1, 1).put(block_type, 2).put(0, 40);
        cases.push(("block types", zlib_wrap(&b.finish(), b"")));
    }

    for (what, case) in &cases {
        for _ in 0..20 {
            c.check(what, false, case);
        }
        c.check_mutated(what, false, case, 6);
    }
    c.assert_saw(&[
        "invalid block type",
        "invalid stored block lengths",
        "too many length or distance symbols",
        "invalid code lengths set",
        "invalid bit length repeat",
        "invalid code -- missing end-of-block",
        "invalid literal/lengths set",
        "invalid distances set",
        "invalid literal/length code",
        "invalid distance code",
        "invalid distance too far back",
        "incorrect data check",
    ]);
    c.assert_clean(1_500);
}

/// Random bytes after a valid zlib or gzip header: whatever deflate makes
/// of noise.
#[test]
fn noise_after_a_header_reads_as_zlib_reads_it() {
    let mut c = Checker::new(19);
    let mut rng = Rng(23);
    for i in 0..3_000 {
        let gzip = i % 2 == 1;
        let mut s = if gzip {
            vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]
        } else {
            vec![0x78, 0x9c]
        };
        // Mostly a first byte that starts a fixed or dynamic block.
        let n = 1 + rng.scaled(11);
        let mut noise = rng.bytes(n);
        if rng.below(3) != 0 {
            noise[0] = noise[0] & !6 | [2, 4][rng.below(2)];
        }
        s.extend(noise);
        c.check("noise", gzip, &s);
    }
    c.assert_clean(3_000);
}

/// A body fed a byte at a time: every byte taken, the same output.
#[test]
fn a_drip_fed_body_inflates_as_a_whole_one() {
    let mut rng = Rng(29);
    let data: Vec<u8> = plaintexts(&mut rng).remove(3).1;
    let z = deflate(
        &mut rng,
        &data,
        config(6, Strategy::Default, true, 8),
        false,
    );
    let mut d = Inflate::new(Format::Gzip);
    let mut out = Vec::new();
    let mut consumed = 0;
    for b in z.chunks(1) {
        consumed += d.inflate(b, &mut out, usize::MAX).unwrap().consumed;
    }
    d.finish().unwrap();
    assert_eq!(consumed, z.len());
    assert_eq!(out, data);
}
