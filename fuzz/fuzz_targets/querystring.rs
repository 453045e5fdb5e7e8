//! Node's `querystring.parse`: never panics, an object of strings or
//! arrays of strings, with at most `max_keys` keys.
#![no_main]
use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use webfw_http::querystring::parse;

fuzz_target!(|data: (u8, &str)| {
    let (max_keys, input) = data;
    let max_keys = usize::from(max_keys % 16);
    let v = parse(input, max_keys);
    let Value::Object(map) = &v else {
        panic!("{input:?} gave {v}");
    };
    if max_keys > 0 {
        assert!(map.len() <= max_keys, "{input:?} gave {v}");
    }
    for value in map.values() {
        match value {
            Value::String(_) => {}
            Value::Array(a) => assert!(a.iter().all(Value::is_string), "{input:?} gave {v}"),
            other => panic!("{input:?} gave {other}"),
        }
    }
});
