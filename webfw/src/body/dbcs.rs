//! iconv-lite 0.4.24's double-byte decoder (`encodings/dbcs-codec.js`), as
//! `iconv.decode` runs it: a trie of 256-entry nodes, one byte a level,
//! built from the codec's table chunks on first use, as iconv-lite's
//! `DBCSCodec` builds it when a charset is first asked for.
//!
//! A sequence the trie does not know, an unassigned pair or one cut off at
//! the end of the body alike, becomes U+FFFD, and decoding goes on from the
//! sequence's second byte: so `\xe9\xff` in GBK is two U+FFFD and `\x81A`
//! is U+FFFD then `A`.

use std::sync::OnceLock;

use super::dbcs_tables::{CODECS, Codec, GB18030_RANGES};

// A node entry is a code point or one of these four.
/// No character: U+FFFD.
const UNASSIGNED: u32 = u32::MAX;
/// The fourth byte of a GB18030 four-byte sequence.
const FOUR_BYTE: u32 = u32::MAX - 1;
/// `NODE | n`: go on in node `n` with the next byte.
const NODE: u32 = 1 << 31;
/// `SEQ | n`: the `n`th multi-code-point sequence.
const SEQ: u32 = 1 << 30;

/// The marks of `dbcs_tables.rs` (see `tools/dbcs_tables.js`).
const CHUNK: u32 = 0x10_0000;
const START: u32 = 0xF_0100;
const RUN: u32 = 0xF_0000;
/// iconv-lite's own mark of a sequence: U+0FFF is two code points,
/// U+0FFE three, down to U+0FF1.
const SEQ_MARKS: std::ops::RangeInclusive<u32> = 0xFF1..=0xFFF;

enum Entry {
    Char(char),
    Unassigned,
    FourByte,
    Node(usize),
    Seq(usize),
}

fn entry(value: u32) -> Entry {
    if let Some(c) = char::from_u32(value) {
        return Entry::Char(c);
    }
    match value {
        UNASSIGNED => Entry::Unassigned,
        FOUR_BYTE => Entry::FourByte,
        v if v & NODE != 0 => Entry::Node((v & !NODE) as usize),
        v => Entry::Seq((v & !SEQ) as usize),
    }
}

struct Trie {
    nodes: Vec<[u32; 256]>,
    /// big5hkscs's characters written as two code points.
    seqs: Vec<&'static str>,
}

impl Trie {
    fn new(codec: &Codec) -> Trie {
        let mut trie = Trie {
            nodes: vec![[UNASSIGNED; 256]],
            seqs: Vec::new(),
        };
        for table in codec.tables {
            trie.fill(table);
        }
        if codec.gb18030 {
            trie.add_four_byte();
        }
        trie
    }

    fn push_node(&mut self) -> u32 {
        self.nodes.push([UNASSIGNED; 256]);
        NODE | (self.nodes.len() - 1) as u32
    }

    /// The node of the sequences that start with `path`'s bytes (big
    /// endian, no leading zeros; 0 is the root), made on the way.
    fn node_at(&mut self, path: u32) -> usize {
        let mut node = 0;
        for b in path.to_be_bytes().into_iter().skip_while(|&b| b == 0) {
            node = match entry(self.nodes[node][usize::from(b)]) {
                Entry::Node(next) => next,
                // Only UNASSIGNED comes here: a chunk over a character
                // makes iconv-lite throw, and the generator loads every codec.
                _ => {
                    let next = self.push_node();
                    self.nodes[node][usize::from(b)] = next;
                    (next & !NODE) as usize
                }
            };
        }
        node
    }

    /// Writes one table's chunks, as `DBCSCodec._addDecodeChunk` does.
    fn fill(&mut self, table: &'static str) {
        let (mut node, mut at, mut prev) = (0, 0, 0);
        let mut chars = table.char_indices();
        while let Some((i, c)) = chars.next() {
            let code = u32::from(c);
            let value = match code {
                CHUNK.. => {
                    node = self.node_at(code - CHUNK);
                    continue;
                }
                START..CHUNK => {
                    at = (code - START) as usize;
                    continue;
                }
                RUN..START => {
                    for _ in 0..code - RUN {
                        prev += 1;
                        self.nodes[node][at] = prev;
                        at += 1;
                    }
                    continue;
                }
                _ if SEQ_MARKS.contains(&code) => {
                    let len = (0xFFF - code + 2) as usize;
                    let from = i + c.len_utf8();
                    let to = chars
                        .by_ref()
                        .take(len)
                        .fold(from, |_, (j, d)| j + d.len_utf8());
                    self.seqs.push(&table[from..to]);
                    SEQ | (self.seqs.len() - 1) as u32
                }
                _ => code,
            };
            self.nodes[node][at] = value;
            prev = value;
            at += 1;
        }
    }

    /// GB18030's four-byte sequences: a lead byte, a digit, a lead byte, a
    /// digit, as iconv-lite adds them after the two-byte tables.
    fn add_four_byte(&mut self) {
        let third = self.push_node();
        let fourth = self.push_node();
        for lead in 0x81..=0xFE {
            // Every lead byte of GBK is a node: iconv-lite would throw otherwise.
            if let Entry::Node(second) = entry(self.nodes[0][lead]) {
                self.nodes[second][0x30..=0x39].fill(third);
            }
        }
        let third = (third & !NODE) as usize;
        self.nodes[third][0x81..=0xFE].fill(fourth);
        let fourth = (fourth & !NODE) as usize;
        self.nodes[fourth][0x30..=0x39].fill(FOUR_BYTE);
    }
}

/// Each codec's trie, built on its first use.
static TRIES: [OnceLock<Trie>; CODECS.len()] = [const { OnceLock::new() }; CODECS.len()];

/// `iconv.decode(bytes, codec)`: `decoder.write(bytes) + decoder.end()`.
pub(super) fn decode(bytes: &[u8], codec: usize) -> String {
    let trie = TRIES[codec].get_or_init(|| Trie::new(&CODECS[codec]));
    let mut out = String::with_capacity(bytes.len());
    let mut start = 0;
    while start < bytes.len() {
        let mut node = 0;
        let mut i = start;
        start = loop {
            // `end()` writes U+FFFD for the first byte of a sequence cut
            // off at the end and reads the rest again.
            let Some(&b) = bytes.get(i) else {
                out.push(char::REPLACEMENT_CHARACTER);
                break start + 1;
            };
            match entry(trie.nodes[node][usize::from(b)]) {
                Entry::Char(c) => out.push(c),
                Entry::Unassigned => {
                    out.push(char::REPLACEMENT_CHARACTER);
                    break start + 1;
                }
                Entry::FourByte => four_byte(&bytes[start..=i], &mut out),
                Entry::Node(next) => {
                    node = next;
                    i += 1;
                    continue;
                }
                Entry::Seq(n) => out.push_str(trie.seqs[n]),
            }
            break i + 1;
        };
    }
    out
}

/// A GB18030 four-byte sequence: its number among them all, mapped through
/// the run of `GB18030_RANGES` it falls in. The last run goes on past
/// U+10FFFF, where iconv-lite writes two lone trail surrogates: two U+FFFD.
fn four_byte(seq: &[u8], out: &mut String) {
    let digits = |b: u8, zero: u8| u32::from(b - zero);
    let n = digits(seq[0], 0x81) * 12600
        + digits(seq[1], 0x30) * 1260
        + digits(seq[2], 0x81) * 10
        + digits(seq[3], 0x30);
    let run = GB18030_RANGES.partition_point(|&(gb, _)| gb <= n) - 1;
    let (gb, first) = GB18030_RANGES[run];
    match char::from_u32(first + n - gb) {
        Some(c) => out.push(c),
        None => out.push_str("\u{fffd}\u{fffd}"),
    }
}
