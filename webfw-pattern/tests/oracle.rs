//! Differential test against golden data recorded from the real
//! path-to-regexp 0.1.13 on Node.js 20 (see `tests/oracle/gen.js`): for
//! every pattern × options, the source, keys or error; for every sample path,
//! the match length and the params Express' `Layer.match` would set.

use std::collections::BTreeMap;

use serde_json::Value;
use webfw_pattern::{Key, Options, Pattern};

const DATA: &str = include_str!("oracle/cases.json");

fn key_of(v: &Value) -> Key {
    match v {
        Value::String(s) => Key::Name(s.clone()),
        Value::Number(n) => Key::Index(n.as_u64().unwrap() as usize),
        other => panic!("bad key {other}"),
    }
}

fn compile(case: &Value) -> Result<Pattern, webfw_pattern::PatternError> {
    let o = &case["opts"];
    let opts = Options::new(
        o["end"].as_bool().unwrap(),
        o["strict"].as_bool().unwrap(),
        o["sensitive"].as_bool().unwrap(),
    );
    let input: Vec<&str> = case["input"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    match case["kind"].as_str().unwrap() {
        "path" => Pattern::new(input[0], opts),
        "regex" => Pattern::regex(input[0], opts),
        "many" => Pattern::many(&input, opts),
        k => panic!("kind {k}"),
    }
}

#[test]
fn matches_path_to_regexp_0_1_13_on_node() {
    let data: Value = serde_json::from_str(DATA).unwrap();
    let paths: Vec<&str> = data["paths"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    let mut failures = Vec::new();
    let mut checked = 0usize;
    for case in data["cases"].as_array().unwrap() {
        let label = format!("{} {} {}", case["kind"], case["input"], case["opts"]);
        let compiled = compile(case);
        if let Some(err) = case.get("error") {
            let err = err.as_str().unwrap();
            match compiled {
                Ok(p) => {
                    failures.push(format!("{label}: expected error {err}, got {}", p.source()))
                }
                Err(e) => {
                    if !e.message.ends_with(err) {
                        failures.push(format!("{label}: message {:?} != {err:?}", e.message));
                    }
                    let total: usize = case["input"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|v| v.as_str().unwrap().len())
                        .max()
                        .unwrap_or(0);
                    if e.offset + e.len > total {
                        failures.push(format!(
                            "{label}: error span {}+{} out of range",
                            e.offset, e.len
                        ));
                    }
                }
            }
            continue;
        }
        let p = match compiled {
            Ok(p) => p,
            Err(e) => {
                failures.push(format!("{label}: unexpected error {e}"));
                continue;
            }
        };
        if p.source() != case["source"].as_str().unwrap() {
            failures.push(format!(
                "{label}: source {:?} != {}",
                p.source(),
                case["source"]
            ));
        }
        let keys: Vec<Key> = case["keys"]
            .as_array()
            .unwrap()
            .iter()
            .map(key_of)
            .collect();
        if p.keys() != keys.as_slice() {
            failures.push(format!("{label}: keys {:?} != {keys:?}", p.keys()));
        }
        let insensitive = case["flags"].as_str().unwrap().contains('i')
            || !case["opts"]["sensitive"].as_bool().unwrap();
        let expected = case["matches"].as_object().unwrap();
        let input0 = case["input"][0].as_str();
        let kind = case["kind"].as_str().unwrap();
        let fast_slash =
            kind == "path" && input0 == Some("/") && !case["opts"]["end"].as_bool().unwrap();
        let fast_star = kind == "path" && input0 == Some("*");
        for path in &paths {
            checked += 1;
            let got = p.matches(path);
            // Express' Layer fast paths take precedence over the regex
            if fast_slash {
                assert_eq!(
                    got,
                    Some(webfw_pattern::Match {
                        len: 0,
                        params: vec![]
                    }),
                    "{label} {path:?}"
                );
                continue;
            }
            if fast_star {
                assert_eq!(
                    got,
                    Some(webfw_pattern::Match {
                        len: path.len(),
                        params: vec![(0, *path)]
                    }),
                    "{label} {path:?}"
                );
                continue;
            }
            match (expected.get(*path), got) {
                (None, None) => {}
                (None, Some(m)) => {
                    failures.push(format!("{label}: {path:?} matched {m:?}, JS: no"))
                }
                (Some(want), None) => {
                    failures.push(format!("{label}: {path:?} no match, JS: {want}"))
                }
                (Some(want), Some(m)) => {
                    if want["len"].as_u64().unwrap() as usize != m.len {
                        failures.push(format!(
                            "{label}: {path:?} len {} != {}",
                            m.len, want["len"]
                        ));
                    }
                    if let Some(params) = want.get("params") {
                        let want: BTreeMap<String, String> = params
                            .as_object()
                            .unwrap()
                            .iter()
                            .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_string()))
                            .collect();
                        let mut got = BTreeMap::new();
                        for (k, v) in &m.params {
                            let prop = p.keys()[*k].property().into_owned();
                            if got.insert(prop, v.to_string()).is_some() {
                                failures.push(format!("{label}: {path:?} duplicate property"));
                            }
                        }
                        if got != want {
                            failures.push(format!("{label}: {path:?} params {got:?} != {want:?}"));
                        }
                    }
                    // literal_prefix safety
                    let prefix = p.literal_prefix();
                    let ok = if insensitive {
                        path.to_ascii_lowercase().starts_with(prefix)
                            && path.to_lowercase().starts_with(prefix)
                    } else {
                        path.starts_with(prefix)
                    };
                    if !ok {
                        failures.push(format!(
                            "{label}: {path:?} does not start with prefix {prefix:?}"
                        ));
                    }
                }
            }
        }
    }
    assert!(checked > 50_000, "only {checked} checks");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures[..failures.len().min(60)].join("\n")
    );
}
