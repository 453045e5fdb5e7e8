//! h1: parse_head and ChunkedDecoder never panic; whole or cut in two,
//! the bytes get the same decision and result; offsets stay inside the
//! buffer; a prefix of accepted bytes is never refused.
#![no_main]
use libfuzzer_sys::fuzz_target;
use webfw_http::h1::{ChunkedDecoder, Framing, parse_head};

/// (head, body bytes, done) or the refusal's code, for `data` fed in two.
fn run(data: &[u8], cut: usize) -> Result<(usize, Vec<u8>, bool), &'static str> {
    let mut headers = Vec::new();
    let cut = cut.min(data.len());
    // The prefix waits or decides the same as the whole.
    let first = parse_head(&data[..cut], &mut headers);
    let whole = parse_head(data, &mut headers);
    match (&first, &whole) {
        (Ok(None), _) => {}
        (a, b) => assert_eq!(a, b, "prefix {cut}"),
    }
    let Some(head) = whole.map_err(|e| e.code)? else {
        return Ok((0, Vec::new(), false));
    };
    assert!(head.len <= data.len());
    for h in &headers {
        let _ = (h.name(data), h.value(data));
    }
    let _ = (head.method(data), head.target(data));
    let mut body = Vec::new();
    if head.framing != Framing::Chunked {
        return Ok((head.len, body, true));
    }
    let rest = &data[head.len..];
    let split = cut.saturating_sub(head.len).min(rest.len());
    let mut d = ChunkedDecoder::for_head(&head);
    let mut at = 0;
    for end in [split, rest.len()] {
        while at < end && !d.is_done() {
            let r = d.decode(&rest[at..end]).map_err(|e| e.code)?;
            assert!(r.consumed <= end - at && r.data.end <= r.consumed);
            body.extend_from_slice(&rest[at..end][r.data]);
            at += r.consumed;
        }
    }
    Ok((head.len + at, body, d.is_done()))
}

fuzz_target!(|input: (u16, &[u8])| {
    let (cut, data) = input;
    let a = run(data, data.len());
    let b = run(data, usize::from(cut));
    assert_eq!(a, b);
    // A refusal never follows a complete message of the same bytes.
    if let Ok((end, _, true)) = a {
        for p in [end, end.saturating_sub(1)] {
            if let Err(e) = run(&data[..p], p) {
                panic!("prefix {p} of an accepted message refused: {e}");
            }
        }
    }
});
