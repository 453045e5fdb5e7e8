//! Differential test of the Express 5 helpers against mime-types 3.0.2,
//! range-parser 1.3.0 and fresh 2.0.0 on Node.js 20
//! (`tests/oracle/express5.js` recorded their answers).

use serde_json::Value;
use webfw_http::fresh::is_fresh_v2;
use webfw_http::mime::v3;
use webfw_http::range::{ParsedRange, parse_strict};

fn oracle() -> Value {
    serde_json::from_str(include_str!("oracle/express5.json")).unwrap()
}

fn report(failures: Vec<String>) {
    assert!(
        failures.is_empty(),
        "{} differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn mime_answers_as_mime_types_3() {
    let oracle = oracle();
    let rows = oracle["mime"].as_array().unwrap();
    assert!(rows.len() > 3_000, "{} rows", rows.len());
    let mut failures = Vec::new();
    for row in rows {
        let input = row[0].as_str().unwrap();
        let want = (row[1].as_str(), row[2].as_str(), row[3].as_str());
        let got = (
            v3::lookup(input),
            v3::content_type(input),
            v3::charset(input),
        );
        if (got.0, got.1.as_deref(), got.2) != want {
            failures.push(format!("{input:?}: {got:?}, mime-types says {want:?}"));
        }
    }
    report(failures);
}

#[test]
fn file_types_are_send_1s() {
    let oracle = oracle();
    let mut failures = Vec::new();
    for row in oracle["mime"].as_array().unwrap() {
        let input = row[0].as_str().unwrap();
        let want = row[4].as_str().unwrap();
        let got = v3::file_content_type(input);
        if got != want {
            failures.push(format!("{input:?}: {got:?}, send says {want:?}"));
        }
    }
    report(failures);
}

#[test]
fn ranges_answer_as_range_parser_1_3() {
    let oracle = oracle();
    let rows = oracle["range"].as_array().unwrap();
    assert!(rows.len() > 1_000, "{} rows", rows.len());
    let mut failures = Vec::new();
    for row in rows {
        let size = row[0].as_u64().unwrap();
        let header = row[1].as_str().unwrap();
        let combine = row[2].as_bool().unwrap();
        let got = match parse_strict(size, header, combine) {
            ParsedRange::Ranges { ranges, .. } => Value::from(
                ranges
                    .iter()
                    .map(|r| Value::from(vec![r.start, r.end]))
                    .collect::<Vec<_>>(),
            ),
            failure => Value::from(failure.code().unwrap()),
        };
        if got != row[3] {
            failures.push(format!(
                "parse_strict({size}, {header:?}, {combine}) = {got}, range-parser says {}",
                row[3]
            ));
        }
    }
    report(failures);
}

#[test]
fn freshness_answers_as_fresh_2() {
    let oracle = oracle();
    let rows = oracle["fresh"].as_array().unwrap();
    assert!(rows.len() > 1_000, "{} rows", rows.len());
    let mut failures = Vec::new();
    for row in rows {
        let s = |i: usize| row[i].as_str();
        let got = is_fresh_v2(s(0), s(1), s(2), s(3), s(4));
        if got != row[5].as_bool().unwrap() {
            failures.push(format!("{row}: {got}"));
        }
    }
    report(failures);
}
