//! Differential test of the MIME lookups against mime 1.6.0 and mime-types
//! 2.1.35 on Node.js 20 (`tests/oracle/mime.js` recorded their answers).

use serde_json::Value;
use webfw_http::mime::{lookup, lookup_db};

#[test]
fn lookups_answer_as_mime_1_6_and_mime_types_2_1() {
    let rows: Vec<Value> = serde_json::from_str(include_str!("oracle/mime.json")).unwrap();
    assert!(rows.len() > 1_200, "{} rows", rows.len());
    let mut failures = Vec::new();
    for row in &rows {
        let input = row[0].as_str().unwrap();
        let send = row[1].as_str().unwrap();
        let db = row[2].as_str();
        if lookup(input) != send {
            failures.push(format!(
                "lookup({input:?}) = {:?}, mime says {send:?}",
                lookup(input)
            ));
        }
        if lookup_db(input) != db {
            failures.push(format!(
                "lookup_db({input:?}) = {:?}, mime-types says {db:?}",
                lookup_db(input)
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
