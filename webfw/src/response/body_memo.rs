//! A per-thread memo of small bodies that are sent again and again.
//!
//! Many responses repeat byte for byte (health checks, fixed texts, fixed
//! JSON). For those, comparing a few bytes costs less than what the memo
//! keeps: a borrowed body's shared copy (no allocation and no free per
//! response) and its ETags (no hashing). Only the built-in weak and strong
//! generators are memoised, and the key is the whole body, so a hit is always
//! the exact tag the generator would produce.

use std::cell::RefCell;

use bytes::Bytes;
use http::HeaderValue;

/// Bodies longer than this are copied and hashed every time.
const MAX_BODY: usize = 256;
const SLOTS: usize = 8;

struct Slot {
    body: Bytes,
    weak: Option<HeaderValue>,
    strong: Option<HeaderValue>,
}

struct Memo {
    slots: Vec<Slot>,
    /// The slot replaced next once all are in use (round robin: cheap, and
    /// good enough for a handful of hot bodies).
    next: usize,
}

impl Memo {
    /// The slot holding `body`, made (replacing another) when there is none.
    #[inline]
    fn slot(&mut self, body: &[u8]) -> &mut Slot {
        let i = match self.slots.iter().position(|s| s.body == body) {
            Some(i) => i,
            None => self.add(body),
        };
        &mut self.slots[i]
    }

    /// Out of line: a hot body is found, not added.
    #[cold]
    fn add(&mut self, body: &[u8]) -> usize {
        let slot = Slot {
            body: Bytes::copy_from_slice(body),
            weak: None,
            strong: None,
        };
        let i = self.next;
        if self.slots.len() < SLOTS {
            self.slots.push(slot);
        } else {
            self.slots[i] = slot;
        }
        self.next = (i + 1) % SLOTS;
        i
    }
}

impl Slot {
    fn tag(&mut self, weak: bool) -> HeaderValue {
        match if weak { &self.weak } else { &self.strong } {
            Some(tag) => tag.clone(),
            None => self.add_tag(weak),
        }
    }

    /// Out of line: a hot body's tag is found, not computed.
    #[cold]
    fn add_tag(&mut self, weak: bool) -> HeaderValue {
        let tag = compute(&self.body, weak);
        *if weak {
            &mut self.weak
        } else {
            &mut self.strong
        } = Some(tag.clone());
        tag
    }
}

thread_local! {
    static MEMO: RefCell<Memo> = const {
        RefCell::new(Memo {
            slots: Vec::new(),
            next: 0,
        })
    };
}

/// `body` as shared bytes, and its ETag when `weak` asks for one (weak or
/// strong), in one look: when the same bytes were sent before, the copy and
/// the tag kept then.
pub(crate) fn shared(body: &[u8], weak: Option<bool>) -> (Bytes, Option<HeaderValue>) {
    let unshared = || {
        (
            Bytes::copy_from_slice(body),
            weak.map(|weak| compute(body, weak)),
        )
    };
    if body.len() > MAX_BODY {
        return unshared();
    }
    MEMO.try_with(|m| {
        let mut m = m.borrow_mut();
        let slot = m.slot(body);
        (slot.body.clone(), weak.map(|weak| slot.tag(weak)))
    })
    .unwrap_or_else(|_| unshared())
}

/// The ETag of `body` (weak or strong), from the memo when possible.
pub(crate) fn entity_tag(body: &[u8], weak: bool) -> HeaderValue {
    if body.len() > MAX_BODY {
        return compute(body, weak);
    }
    MEMO.try_with(|m| m.borrow_mut().slot(body).tag(weak))
        .unwrap_or_else(|_| compute(body, weak))
}

fn compute(body: &[u8], weak: bool) -> HeaderValue {
    let tag = crate::http::etag::entity_tag(body, weak);
    // An entity tag is always visible ASCII.
    HeaderValue::from_maybe_shared(Bytes::from(tag))
        .unwrap_or_else(|_| HeaderValue::from_static("\"\""))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memoised_tag_equals_computed_tag() {
        for body in [&b"hello"[..], b"", b"hello", b"{\"a\":1}", b"hello"] {
            for weak in [true, false, true] {
                assert_eq!(
                    entity_tag(body, weak).to_str().unwrap(),
                    crate::http::etag::entity_tag(body, weak)
                );
            }
        }
    }

    #[test]
    fn many_distinct_bodies_stay_correct() {
        for i in 0..100 {
            let body = format!("body {i}");
            assert_eq!(&shared(body.as_bytes(), None).0[..], body.as_bytes());
            assert_eq!(
                entity_tag(body.as_bytes(), true).to_str().unwrap(),
                crate::http::etag::entity_tag(body.as_bytes(), true)
            );
        }
    }

    #[test]
    fn a_repeated_body_shares_one_copy() {
        let first = shared(b"the same text", None).0;
        let (again, tag) = shared(b"the same text", Some(true));
        assert_eq!(first.as_ptr(), again.as_ptr());
        assert_eq!(&again[..], b"the same text");
        let want = crate::http::etag::entity_tag(b"the same text", true);
        assert_eq!(tag.unwrap().to_str().unwrap(), want);
        let large = vec![b'x'; MAX_BODY + 1];
        assert_ne!(
            shared(&large, None).0.as_ptr(),
            shared(&large, None).0.as_ptr()
        );
    }
}
