//! Random patterns × random paths recorded from the real path-to-regexp
//! 0.1.13 on Node.js 20 (`tests/oracle/fuzz.js`). Set
//! `WEBFW_PATTERN_FUZZ=/path/to/other.json` to check another recording.

use std::collections::BTreeMap;

use serde_json::Value;
use webfw_pattern::{Key, Options, Pattern};

const DATA: &str = include_str!("oracle/fuzz.json");
const SEGMENTS: &str = include_str!("oracle/fuzz-segments.json");

#[test]
fn random_patterns_match_node() {
    match std::env::var("WEBFW_PATTERN_FUZZ") {
        Ok(path) => check(&std::fs::read_to_string(path).unwrap()),
        Err(_) => check(DATA),
    }
}

/// Shapes of the regex-free matchers (literal text, `/:name`, `/:name?`).
#[test]
fn random_segment_patterns_match_node() {
    check(SEGMENTS);
}

fn check(text: &str) {
    let data: Value = serde_json::from_str(text).unwrap();
    let mut failures = Vec::new();
    let mut checked = 0;
    for case in data["cases"].as_array().unwrap() {
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
        let kind = case["kind"].as_str().unwrap();
        let label = format!("{kind} {:?} {o}", input);
        let compiled = match kind {
            "path" => Pattern::new(input[0], opts),
            "regex" => Pattern::regex(input[0], opts),
            _ => Pattern::many(&input, opts),
        };
        if let Some(err) = case.get("error") {
            match compiled {
                Ok(p) => {
                    failures.push(format!("{label}: expected error {err}, got {}", p.source()))
                }
                Err(e) if !e.message.ends_with(err.as_str().unwrap()) => {
                    failures.push(format!("{label}: message {:?} != {err}", e.message))
                }
                Err(_) => {}
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
            .map(|v| match v {
                Value::String(s) => Key::Name(s.clone()),
                n => Key::Index(n.as_u64().unwrap() as usize),
            })
            .collect();
        if p.keys() != keys.as_slice() {
            failures.push(format!("{label}: keys {:?} != {keys:?}", p.keys()));
        }
        let fast_slash = kind == "path" && input[0] == "/" && !opts.end;
        let fast_star = kind == "path" && input[0] == "*";
        for pair in case["matches"].as_array().unwrap() {
            let path = pair[0].as_str().unwrap();
            let want = &pair[1];
            let got = p.matches(path);
            checked += 1;
            check_each(
                &p,
                path,
                opts.sensitive,
                got.as_ref(),
                &label,
                &mut failures,
            );
            if fast_slash || fast_star {
                assert!(got.is_some());
                continue;
            }
            match (want.is_null(), got) {
                (true, None) => {}
                (true, Some(m)) => {
                    failures.push(format!("{label}: {path:?} matched {m:?}, JS: no"))
                }
                (false, None) => failures.push(format!("{label}: {path:?} no match, JS: {want}")),
                (false, Some(m)) => {
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
                        let got: BTreeMap<String, String> = m
                            .params
                            .iter()
                            .map(|(k, v)| (p.keys()[*k].property().into_owned(), v.to_string()))
                            .collect();
                        if got != want {
                            failures.push(format!("{label}: {path:?} params {got:?} != {want:?}"));
                        }
                    }
                    let prefix = p.literal_prefix();
                    let ok = if opts.sensitive {
                        path.starts_with(prefix)
                    } else {
                        path.to_ascii_lowercase().starts_with(prefix)
                    };
                    if !ok {
                        failures.push(format!("{label}: {path:?} lacks prefix {prefix:?}"));
                    }
                }
            }
        }
    }
    assert!(checked > 1000, "only {checked} checks");
    failures.dedup();
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures[..failures.len().min(60)].join("\n")
    );
}

/// `matches_each`, its captures stored by property name (a repeat replacing
/// the value in place), must report what `matches` does; so must
/// `matches_each_from` told that a path starting with the literal prefix does.
fn check_each(
    p: &Pattern,
    path: &str,
    sensitive: bool,
    got: Option<&webfw_pattern::Match<'_>>,
    label: &str,
    failures: &mut Vec<String>,
) {
    let prefix = p.literal_prefix();
    let prefixed = path.get(..prefix.len()).is_some_and(|head| {
        if sensitive {
            head == prefix
        } else {
            head.to_ascii_lowercase() == prefix
        }
    });
    check_each_from(p, path, false, got, label, failures);
    if prefixed {
        check_each_from(p, path, true, got, label, failures);
    }
}

fn check_each_from(
    p: &Pattern,
    path: &str,
    prefixed: bool,
    got: Option<&webfw_pattern::Match<'_>>,
    label: &str,
    failures: &mut Vec<String>,
) {
    let mut each: Vec<(String, &str)> = Vec::new();
    let len = p.matches_each_from(path, prefixed, |k, v| {
        let prop = p.keys()[k].property().into_owned();
        match each.iter_mut().find(|(q, _)| *q == prop) {
            Some(slot) => slot.1 = v,
            None => each.push((prop, v)),
        }
    });
    let want = got.map(|m| {
        let params: Vec<(String, &str)> = m
            .params
            .iter()
            .map(|(k, v)| (p.keys()[*k].property().into_owned(), *v))
            .collect();
        (m.len, params)
    });
    let have = len.map(|len| (len, each));
    if have != want {
        failures.push(format!(
            "{label}: {path:?} matches_each (prefixed: {prefixed}) {have:?} != matches {want:?}"
        ));
    }
}
