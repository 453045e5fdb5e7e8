//! Finding `\r\n--boundary` in a stream of chunks, as streamsearch 1.1
//! reports it to busboy: runs of bytes that are not part of a match, each
//! match with the bytes just before it, and a tail that might begin a match
//! kept back (never more than the needle's length) until the next chunk
//! decides. busboy's reading of a part depends on where these calls cut,
//! so they cut where streamsearch's do.

use bytes::Bytes;
use memchr::memmem::Finder;

/// One call of streamsearch's callback: `data` (maybe empty) and whether a
/// match follows it.
pub(crate) struct Piece {
    pub data: Bytes,
    pub is_match: bool,
}

/// The streaming search for one needle.
pub(crate) struct Search {
    needle: Vec<u8>,
    finder: Finder<'static>,
    held: Vec<u8>,
}

impl Search {
    /// A search for `needle` (not empty).
    pub(crate) fn new(needle: Vec<u8>) -> Search {
        let finder = Finder::new(&needle).into_owned();
        Search {
            needle,
            finder,
            held: Vec::new(),
        }
    }

    /// Whether `a` followed by `b` starts the needle (as far as they go).
    fn begins_needle(&self, a: &[u8], b: &[u8]) -> bool {
        let n = &self.needle;
        if a.len() + b.len() > n.len() {
            return a.len() <= n.len()
                && n.starts_with(a)
                && n[a.len()..] == b[..n.len() - a.len()];
        }
        n.starts_with(a) && n[a.len()..].starts_with(b)
    }

    /// Feeds one chunk; `f` gets each piece in order.
    pub(crate) fn push(&mut self, chunk: &Bytes, mut f: impl FnMut(Piece)) {
        let mut from = 0;
        if !self.held.is_empty() {
            match self.resolve_held(chunk) {
                Held::Match(next) => {
                    f(Piece {
                        data: Bytes::new(),
                        is_match: true,
                    });
                    from = next;
                }
                Held::Partial(cut) => {
                    if let Some(data) = cut {
                        f(Piece {
                            data,
                            is_match: false,
                        });
                    }
                    return;
                }
                Held::Flushed(data) => f(Piece {
                    data,
                    is_match: false,
                }),
            }
        }
        let n = self.needle.len();
        loop {
            let rest = &chunk[from..];
            if let Some(i) = self.finder.find(rest) {
                f(Piece {
                    data: chunk.slice(from..from + i),
                    is_match: true,
                });
                from += i + n;
                continue;
            }
            // The leftmost tail that could still begin a match.
            let lo = rest.len().saturating_sub(n - 1);
            let tail = (lo..rest.len())
                .filter(|&t| rest[t] == self.needle[0])
                .find(|&t| self.needle.starts_with(&rest[t..]))
                .unwrap_or(rest.len());
            if from + tail > 0 {
                f(Piece {
                    data: chunk.slice(from..from + tail),
                    is_match: false,
                });
            }
            self.held.extend_from_slice(&rest[tail..]);
            return;
        }
    }

    /// The bytes held from the last chunk meet the new one: a match that
    /// starts in them (streamsearch drops held bytes before such a match,
    /// but a held tail always begins at a possible match start), a longer
    /// partial match, or bytes that turn out to be data.
    fn resolve_held(&mut self, chunk: &Bytes) -> Held {
        let n = self.needle.len();
        for p in 0..self.held.len() {
            let h = &self.held[p..];
            if h.len() + chunk.len() >= n {
                if self.begins_needle(h, chunk) {
                    let next = n - h.len();
                    self.held.clear();
                    return Held::Match(next);
                }
            } else if self.begins_needle(h, chunk) {
                let cut = (p > 0).then(|| Bytes::copy_from_slice(&self.held[..p]));
                self.held.drain(..p);
                self.held.extend_from_slice(chunk);
                return Held::Partial(cut);
            }
        }
        Held::Flushed(Bytes::from(std::mem::take(&mut self.held)))
    }

    /// The needle's length.
    #[cfg(any(fuzzing, test))]
    pub(crate) fn needle_len(&self) -> usize {
        self.needle.len()
    }

    /// How many bytes are held back.
    #[cfg(any(fuzzing, test))]
    pub(crate) fn held_len(&self) -> usize {
        self.held.len()
    }

    /// The end of input: what is held is data (streamsearch's `destroy`).
    pub(crate) fn flush(&mut self) -> Option<Bytes> {
        (!self.held.is_empty()).then(|| Bytes::from(std::mem::take(&mut self.held)))
    }
}

enum Held {
    /// A match ends this far into the chunk.
    Match(usize),
    /// Still a possible match; the held bytes before it are data.
    Partial(Option<Bytes>),
    /// No match: the held bytes are data.
    Flushed(Bytes),
}
