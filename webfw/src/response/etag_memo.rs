//! A per-thread memo of recent ETags for small bodies.
//!
//! Many responses repeat byte for byte (health checks, fixed JSON, short
//! texts); hashing them again costs more than comparing a few bytes. Only the
//! built-in weak/strong generators are memoised, and the key is the whole body,
//! so a hit is always the exact tag the generator would produce.

use std::cell::RefCell;

use http::HeaderValue;

/// Bodies longer than this are hashed every time.
const MAX_BODY: usize = 256;
const SLOTS: usize = 8;

struct Slot {
    weak: bool,
    body: Vec<u8>,
    tag: HeaderValue,
}

thread_local! {
    static MEMO: RefCell<(usize, Vec<Slot>)> = const { RefCell::new((0, Vec::new())) };
}

/// The ETag of `body` (weak or strong), from the memo when possible.
pub(crate) fn entity_tag(body: &[u8], weak: bool) -> HeaderValue {
    if body.len() > MAX_BODY {
        return compute(body, weak);
    }
    MEMO.with(|m| {
        let mut m = m.borrow_mut();
        if let Some(slot) = m.1.iter().find(|s| s.weak == weak && s.body == body) {
            return slot.tag.clone();
        }
        let tag = compute(body, weak);
        let slot = Slot {
            weak,
            body: body.to_vec(),
            tag: tag.clone(),
        };
        // Round-robin replacement: cheap, and good enough for a handful of hot bodies.
        let next = m.0;
        if m.1.len() < SLOTS {
            m.1.push(slot);
        } else {
            m.1[next] = slot;
        }
        m.0 = (next + 1) % SLOTS;
        tag
    })
}

fn compute(body: &[u8], weak: bool) -> HeaderValue {
    let tag = crate::http::etag::entity_tag(body, weak);
    // An entity tag is always visible ASCII.
    HeaderValue::from_maybe_shared(bytes::Bytes::from(tag))
        .unwrap_or_else(|_| HeaderValue::from_static("\"\""))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memoised_tag_equals_computed_tag() {
        for body in [&b"hello"[..], b"", b"hello", b"{\"a\":1}", b"hello"] {
            for weak in [true, false] {
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
            assert_eq!(
                entity_tag(body.as_bytes(), true).to_str().unwrap(),
                crate::http::etag::entity_tag(body.as_bytes(), true)
            );
        }
    }
}
