//! Differential test of the double-byte and UTF-16 decoders against
//! iconv-lite 0.4.24 on Node.js 20 (`webfw/tests/oracle/iconv.js` recorded
//! its answers).

use serde_json::Value;

use super::charset::{canonical_charset, decode_charset};
use super::dbcs_tables::NAMES;

fn oracle() -> Value {
    serde_json::from_str(include_str!("../../tests/oracle/iconv.json")).unwrap()
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

#[test]
fn decodes_as_iconv_lite() {
    let oracle = oracle();
    let rows = oracle["rows"].as_array().unwrap();
    assert!(rows.len() > 1_500, "{} rows", rows.len());
    let mut failures = Vec::new();
    for row in rows {
        let label = row[0].as_str().unwrap();
        let bytes = hex(row[1].as_str().unwrap());
        let expected = row[2].as_str().unwrap();
        let got = decode_charset(&bytes, label);
        if got.as_deref() != Some(expected) {
            failures.push(format!(
                "{label} {}: {got:?}, iconv-lite says {expected:?}",
                row[1]
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_double_byte_name_is_asked() {
    let oracle = oracle();
    let asked: Vec<String> = oracle["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| canonical_charset(row[0].as_str().unwrap()))
        .collect();
    for (name, _) in NAMES {
        assert!(asked.iter().any(|a| a == name), "{name}");
    }
}

/// The byte spaces `iconv.js` digests, built as it builds them.
fn input(kind: &str) -> Vec<u8> {
    match kind {
        "pairs" => (0x80..=0xff)
            .flat_map(|a| (0..=0xff).flat_map(move |b| [a, b, b' ']))
            .collect(),
        "triples" => (0..=0xff)
            .flat_map(|b| (0..=0xff).flat_map(move |c| [0x8f, b, c, b' ']))
            .collect(),
        "four-byte" => (0x81..=0xfe)
            .flat_map(|a| (b'0'..=b'9').map(move |b| [a, b]))
            .flat_map(|[a, b]| {
                (0x81..=0xfe).flat_map(move |c| (b'0'..=b'9').map(move |d| [a, b, c, d]))
            })
            .flatten()
            .collect(),
        _ => panic!("unknown input {kind}"),
    }
}

/// FNV-1a 64, as `iconv.js` computes it.
fn fnv(text: &str) -> String {
    let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    format!("{hash:016x}")
}

#[test]
fn whole_byte_spaces_decode_as_iconv_lite() {
    let oracle = oracle();
    for digest in oracle["digests"].as_array().unwrap() {
        let label = digest[0].as_str().unwrap();
        let kind = digest[1].as_str().unwrap();
        let text = decode_charset(&input(kind), label).unwrap();
        assert_eq!(fnv(&text), digest[2].as_str().unwrap(), "{label} {kind}");
    }
}
