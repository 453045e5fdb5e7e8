//! `req.url`, `req.path` and `req.baseUrl` as one state, and entering and
//! leaving a mount, which changes them together.
//!
//! While no handler rewrote the URL, `req.url` is an offset into the
//! original target and `req.baseUrl` a span of it, so mounting a router
//! (which strips the mount path from `req.url` and appends it to
//! `req.baseUrl`) costs no allocation. Every method takes the original
//! target (`req.originalUrl`), which the request owns.

use super::{path_len, protohost_len};

/// The URL state of a request.
#[derive(Clone)]
pub(crate) struct Url {
    current: Current,
    base: BaseUrl,
}

/// `req.url` as an offset into the original target, or an owned string once it
/// was rewritten.
#[derive(Clone)]
pub(crate) struct Current {
    owned: Option<String>,
    start: usize,
    /// Bumped on every `set_url`, so the router can tell whether a handler
    /// rewrote the URL while a mount path was stripped.
    version: u32,
    /// Where `req.path` lies in the URL: the router reads it several times
    /// per layer, so it is found once per change of the URL.
    path: (u32, u32),
}

impl Current {
    #[inline]
    fn url<'a>(&'a self, original: &'a str) -> &'a str {
        match &self.owned {
            Some(s) => s,
            None => original.get(self.start..).unwrap_or_default(),
        }
    }
}

/// `req.baseUrl`: while it is a stretch of the original target (mount paths
/// stripped off a URL no handler rewrote) it is kept as offsets, so a mount
/// costs no allocation; otherwise owned.
#[derive(Clone)]
enum BaseUrl {
    Span(u32, u32),
    Owned(String),
}

/// A mount entered by [`Url::enter_mount`]: what leaving it restores.
pub(crate) enum Mounted {
    /// The usual mount: `req.url` and `req.baseUrl` were offsets into the
    /// original target, and are again once these are put back.
    Offsets {
        start: usize,
        path_end: u32,
        base_len: u32,
        trailing_slash: bool,
        version: u32,
    },
    /// Any other: the state before it (boxed: rare, and it keeps the usual
    /// mount small where the router holds it across the handlers' calls).
    Saved {
        saved: Box<(Current, usize)>,
        trailing_slash: bool,
        slash_added: bool,
        /// Mounted by an Express 5 router, whose restore keeps an added `/`
        /// in front of a rewritten URL.
        v5: bool,
        version: u32,
    },
}

impl Url {
    /// The state of a new request: `req.url` is the original target, whose
    /// path [`Url::locate_path`] finds.
    #[inline(always)]
    pub(crate) fn new() -> Url {
        Url {
            current: Current {
                owned: None,
                start: 0,
                version: 0,
                path: (0, 0),
            },
            base: BaseUrl::Span(0, 0),
        }
    }

    /// Finds the path of a new request's target `original`; `path_len`:
    /// its length when it is known to start the target.
    #[inline(always)]
    pub(crate) fn locate_path<'a>(
        &mut self,
        original: impl FnOnce() -> &'a str,
        path_len: Option<usize>,
    ) {
        match path_len {
            Some(len) => self.current.path = (0, len as u32),
            None => self.find_path(original()),
        }
    }

    /// Records where the pathname of the current `req.url` lies.
    fn find_path(&mut self, original: &str) {
        let url = self.url(original);
        let start = protohost_len(url);
        let len = path_len(&url[start..]);
        self.current.path = (start as u32, (start + len) as u32);
    }

    /// `req.url`.
    #[inline]
    pub(crate) fn url<'a>(&'a self, original: &'a str) -> &'a str {
        self.current.url(original)
    }

    /// `req.path`: the pathname of `req.url`. `original` gives the
    /// original target, asked for only when `req.url` lies in it (the walk
    /// reads the path at every layer).
    #[inline(always)]
    pub(crate) fn path<'a>(&'a self, original: impl FnOnce() -> &'a str) -> &'a str {
        let (start, end) = (self.current.path.0 as usize, self.current.path.1 as usize);
        // One checked slice of the text `req.url` lies in, not two.
        let (text, offset) = match &self.current.owned {
            Some(s) => (s.as_str(), 0),
            None => (original(), self.current.start),
        };
        text.get(offset + start..offset + end).unwrap_or_default()
    }

    /// `req.baseUrl`.
    pub(crate) fn base_url<'a>(&'a self, original: &'a str) -> &'a str {
        match &self.base {
            BaseUrl::Span(a, b) => original.get(*a as usize..*b as usize).unwrap_or_default(),
            BaseUrl::Owned(s) => s,
        }
    }

    /// Rewrites `req.url`.
    pub(crate) fn set(&mut self, url: String, original: &str) {
        self.current.owned = Some(url);
        self.current.version = self.current.version.wrapping_add(1);
        self.find_path(original);
    }

    /// Appends the first `removed_len` bytes of `req.path` (a matched mount
    /// path) to `req.baseUrl`, less a trailing `/`; returns whether it had one.
    fn append_base_url(&mut self, original: &str, removed_len: usize) -> bool {
        let (start, end) = (self.current.path.0 as usize, self.current.path.1 as usize);
        let end = (start + removed_len).min(end);
        let removed = self
            .current
            .url(original)
            .get(start..end)
            .unwrap_or_default();
        let trailing_slash = removed.ends_with('/');
        let kept = removed.len() - usize::from(trailing_slash);
        // Where `removed` lies in the original target, if `req.url` is still a
        // suffix of it.
        let from = self
            .current
            .owned
            .is_none()
            .then(|| self.current.start + start);
        match (&mut self.base, from) {
            (BaseUrl::Span(a, b), Some(from)) if *a == *b || *b as usize == from => {
                if *a == *b {
                    *a = from as u32;
                }
                *b = (from + kept) as u32;
            }
            _ => {
                let mut owned = self.base_url(original).to_owned();
                owned.push_str(&removed[..kept]);
                self.base = BaseUrl::Owned(owned);
            }
        }
        trailing_slash
    }

    /// The length of `req.baseUrl`, to truncate back to.
    fn base_url_len(&self) -> usize {
        match &self.base {
            BaseUrl::Span(a, b) => (b - a) as usize,
            BaseUrl::Owned(s) => s.len(),
        }
    }

    /// Restores `req.baseUrl` to its first `len` bytes (leaving a mount).
    fn truncate_base_url(&mut self, len: usize) {
        match &mut self.base {
            BaseUrl::Span(a, b) => *b = *a + len as u32,
            BaseUrl::Owned(s) => s.truncate(len),
        }
    }

    /// Enters a mount whose matched path is the first `removed_len` bytes of
    /// `req.path`: appends them to `req.baseUrl` and strips them from
    /// `req.url`. Returns what [`Url::leave_mount`] needs, or `None`
    /// (changing nothing) when those bytes do not end at a segment boundary
    /// (Express also allows `.`). `edge` is
    /// [`mount_edge`] of `req.path`: the
    /// router reads it while it has the path at hand. The common case (an
    /// unrewritten origin-form URL whose rest starts with `/`) moves two
    /// offsets, inlined into the router's walk, and leaving moves them back;
    /// the rest is [`Url::enter_mount_slow`].
    #[inline(always)]
    pub(crate) fn enter_mount<'a>(
        &mut self,
        original: impl FnOnce() -> &'a str,
        removed_len: usize,
        edge: Option<bool>,
        v5: bool,
    ) -> Option<Mounted> {
        if let Some(trailing_slash) = edge
            && self.current.owned.is_none()
            && self.current.path.0 == 0
            && let BaseUrl::Span(a, b) = &mut self.base
        {
            let from = self.current.start;
            if *a == *b || *b as usize == from {
                let kept = removed_len - usize::from(trailing_slash);
                let base_len = *b - *a;
                if *a == *b {
                    *a = from as u32;
                }
                *b = (from + kept) as u32;
                let path_end = self.current.path.1;
                self.current.start += removed_len;
                self.current.path = (0, path_end - removed_len as u32);
                return Some(Mounted::Offsets {
                    start: from,
                    path_end,
                    base_len,
                    trailing_slash,
                    version: self.current.version,
                });
            }
        }
        self.enter_mount_slow(original(), removed_len, v5)
    }

    /// Leaves a mount: restores `req.url` and `req.baseUrl`; a URL a handler
    /// rewrote meanwhile gets the mount path put back in front (Express's
    /// restore).
    #[inline(always)]
    pub(crate) fn leave_mount<'a>(&mut self, original: impl FnOnce() -> &'a str, mounted: Mounted) {
        match mounted {
            Mounted::Offsets {
                start,
                path_end,
                base_len,
                version,
                ..
            } if version == self.current.version => {
                self.current.start = start;
                self.current.path = (0, path_end);
                self.truncate_base_url(base_len as usize);
            }
            Mounted::Saved { saved, version, .. } if version == self.current.version => {
                let (current, base_len) = *saved;
                self.current = current;
                self.truncate_base_url(base_len);
            }
            m => self.leave_rewritten_mount(original(), m),
        }
    }

    /// [`Url::leave_mount`] after a handler rewrote the URL.
    #[cold]
    fn leave_rewritten_mount(&mut self, original: &str, mounted: Mounted) {
        let (base_len, trailing_slash, slash_added, v5) = match mounted {
            Mounted::Offsets {
                base_len,
                trailing_slash,
                ..
            } => (base_len as usize, trailing_slash, false, false),
            Mounted::Saved {
                saved,
                trailing_slash,
                slash_added,
                v5,
                ..
            } => (saved.1, trailing_slash, slash_added, v5),
        };
        let mut removed = self.base_url(original)[base_len..].to_owned();
        if trailing_slash {
            removed.push('/');
        }
        let mut slash_added = slash_added;
        if slash_added && v5 {
            // router 2 takes the added `/` back only from a root URL or
            // under a mount path ending in `/`.
            let cur = self.url(original);
            slash_added = cur == "/"
                || cur.starts_with("/?")
                || (removed.ends_with('/') && cur.starts_with('/'));
        }
        self.unstrip_rewritten(original, &removed, slash_added);
        self.truncate_base_url(base_len);
    }

    /// [`Url::enter_mount`] for a rewritten, absolute-form or already
    /// stripped URL.
    #[inline(never)]
    fn enter_mount_slow(
        &mut self,
        original: &str,
        removed_len: usize,
        v5: bool,
    ) -> Option<Mounted> {
        if let Some(&c) = self.path(|| original).as_bytes().get(removed_len)
            && c != b'/'
            && c != b'.'
        {
            return None;
        }
        let saved = Box::new((self.current.clone(), self.base_url_len()));
        Some(Mounted::Saved {
            saved,
            trailing_slash: self.append_base_url(original, removed_len),
            slash_added: self.strip_url(original, removed_len),
            v5,
            version: self.current.version,
        })
    }

    /// Strips `removed_len` bytes after the scheme and host from `req.url` (a mount
    /// path) and returns whether a `/` had to be prepended.
    fn strip_url(&mut self, original: &str, removed_len: usize) -> bool {
        let cur = self.url(original);
        let protohost = protohost_len(cur);
        let rest_start = (protohost + removed_len).min(cur.len());
        let rest = &cur[rest_start..];
        let slash_added = protohost == 0 && !rest.starts_with('/');
        if self.current.owned.is_none() && !slash_added && protohost == 0 {
            self.current.start += rest_start;
            let (start, end) = self.current.path;
            let cut = rest_start as u32;
            self.current.path = (start.saturating_sub(cut), end.saturating_sub(cut));
            return false;
        }
        let mut s = String::with_capacity(cur.len() + 1);
        s.push_str(&cur[..protohost]);
        if slash_added {
            s.push('/');
        }
        s.push_str(rest);
        self.current.owned = Some(s);
        self.find_path(original);
        slash_added
    }

    /// Undoes [`Url::strip_url`] after a handler rewrote the URL (Express's
    /// restore: re-insert the removed prefix into whatever `req.url` is now).
    fn unstrip_rewritten(&mut self, original: &str, removed: &str, slash_added: bool) {
        let cur = self.url(original).to_owned();
        let cur = if slash_added && cur.starts_with('/') {
            &cur[1..]
        } else {
            &cur[..]
        };
        let protohost = protohost_len(cur);
        let mut s = String::with_capacity(cur.len() + removed.len());
        s.push_str(&cur[..protohost]);
        s.push_str(removed);
        s.push_str(&cur[protohost..]);
        self.current = Current {
            owned: Some(s),
            start: 0,
            version: self.current.version,
            path: (0, 0),
        };
        self.find_path(original);
    }
}

/// For a mount path of `len` bytes at the start of `path`: whether it ends
/// with `/`, when the path goes on with `/` after it (the only mount
/// [`Url::enter_mount`] does by moving offsets); `None` otherwise.
#[inline(always)]
pub(crate) fn mount_edge(path: &[u8], len: usize) -> Option<bool> {
    match (path.first(), path.get(len)) {
        (Some(b'/'), Some(b'/')) if len > 0 => Some(path[len - 1] == b'/'),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
