//! UTF-7 (RFC 2152) and its IMAP variant (RFC 3501), decoded as iconv-lite
//! 0.4.24 decodes them: ASCII passes through, `+` (IMAP: `&`) opens a run
//! of base64 holding UTF-16BE, which ends at the first byte outside the
//! base64 alphabet; a `-` ending it is dropped, and `+-` (`&-`) is the sign
//! itself.

use base64::Engine;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};

/// Node's `Buffer.from(s, 'base64')`: no padding needed, trailing bits
/// that make no whole byte ignored.
const LENIENT: GeneralPurpose = GeneralPurpose::new(
    &base64::alphabet::STANDARD,
    GeneralPurposeConfig::new()
        .with_decode_padding_mode(DecodePaddingMode::Indifferent)
        .with_decode_allow_trailing_bits(true),
);

/// `shift` opens base64 (`+`, IMAP `&`); `imap` also takes `,` as `/`.
pub(super) fn decode(bytes: &[u8], shift: u8, imap: bool) -> String {
    let is_base64 =
        |b: u8| b.is_ascii_alphanumeric() || b == b'+' || b == b'/' || imap && b == b',';
    let mut out = String::with_capacity(bytes.len());
    let mut rest = bytes;
    while let Some(start) = rest.iter().position(|&b| b == shift) {
        ascii(&rest[..start], &mut out);
        let run = &rest[start + 1..];
        let end = run.iter().position(|&b| !is_base64(b)).unwrap_or(run.len());
        if end == 0 && run.first() == Some(&b'-') {
            out.push(char::from(shift));
        } else {
            utf16_run(&run[..end], imap, &mut out);
        }
        rest = match run.get(end) {
            Some(b'-') => &run[end + 1..],
            _ => &run[end..],
        };
    }
    ascii(rest, &mut out);
    out
}

/// iconv-lite's `ascii`: bytes past 0x7F are U+FFFD.
fn ascii(bytes: &[u8], out: &mut String) {
    out.extend(bytes.iter().map(|&b| {
        if b.is_ascii() {
            char::from(b)
        } else {
            char::REPLACEMENT_CHARACTER
        }
    }));
}

fn utf16_run(run: &[u8], imap: bool, out: &mut String) {
    // A run whose length leaves one base64 digit over (6 bits) makes no
    // byte; Node ignores it, the strict decoder would refuse it.
    let whole = &run[..run.len() - usize::from(run.len() % 4 == 1)];
    let text: Vec<u8> = whole
        .iter()
        .map(|&b| if imap && b == b',' { b'/' } else { b })
        .collect();
    let Ok(bytes) = LENIENT.decode(&text) else {
        return;
    };
    let units = bytes
        .chunks_exact(2)
        .map(|pair| u16::from_be_bytes([pair[0], pair[1]]));
    out.extend(char::decode_utf16(units).map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER)));
}

#[cfg(test)]
mod tests {
    use super::decode;

    #[test]
    fn as_iconv_lite_decodes() {
        // Each expectation is what iconv-lite 0.4.24 prints for the same bytes
        // (a lone surrogate there is U+FFFD here, as Node writes it out).
        for (input, utf7) in [
            ("+AGEAYgBj-x+-y+!z+AGE", "abcx+y!za"),
            ("a+AGE.b", "aa.b"),
            ("+AGE", "a"),
            ("+AG", ""),
            ("+2D3eAA-", "😀"),
            ("+2D0-x", "\u{fffd}x"),
            ("+ZeVnLIqe-", "日本語"),
            ("a+-+-", "a++"),
            ("+AGEA-", "a"),
            ("+AGE-+AGE", "aa"),
            ("+AGEAYgBj/-", "abc"),
            ("caf\u{e9}", "caf\u{fffd}\u{fffd}"),
        ] {
            assert_eq!(decode(input.as_bytes(), b'+', false), utf7, "{input}");
            let imap = input.replace('+', "&");
            let expected = utf7.replace('+', "&");
            assert_eq!(decode(imap.as_bytes(), b'&', true), expected, "{imap}");
        }
        assert_eq!(decode(b"&Jjo,-", b'&', true), "\u{263a}");
    }
}
