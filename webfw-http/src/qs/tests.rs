use super::*;

fn q(input: &str) -> String {
    q_with(input, &QsOptions::default())
}

fn q_with(input: &str, opts: &QsOptions) -> String {
    serde_json::to_string(&parse(input, opts).expect("parses")).expect("serializes")
}

fn opts(array_limit: usize) -> QsOptions {
    QsOptions {
        array_limit,
        ..QsOptions::default()
    }
}

// --- The reference table (express-behavior.md §7.1) -----------------------------------

#[test]
fn repeated_keys_combine_into_an_array() {
    assert_eq!(q("a=1&a=2"), r#"{"a":["1","2"]}"#);
}

#[test]
fn empty_brackets_push() {
    assert_eq!(q("a[]=1&a[]=2"), r#"{"a":["1","2"]}"#);
}

#[test]
fn indices_order_the_array() {
    assert_eq!(q("a[1]=x&a[0]=y"), r#"{"a":["y","x"]}"#);
}

#[test]
fn sparse_arrays_are_compacted() {
    assert_eq!(q("a[25]=x"), r#"{"a":["x"]}"#);
    assert_eq!(q("a[999]=x"), r#"{"a":["x"]}"#);
}

#[test]
fn index_at_array_limit_makes_an_object() {
    assert_eq!(q("a[1000]=x"), r#"{"a":{"1000":"x"}}"#);
}

#[test]
fn nested_objects() {
    assert_eq!(q("a[b][c]=d"), r#"{"a":{"b":{"c":"d"}}}"#);
}

#[test]
fn depth_five_keeps_the_rest_as_one_key() {
    assert_eq!(
        q("a[b][c][d][e][f][g][h]=i"),
        r#"{"a":{"b":{"c":{"d":{"e":{"f":{"[g][h]":"i"}}}}}}}"#
    );
}

#[test]
fn dots_are_literal() {
    assert_eq!(q("a.b=c"), r#"{"a.b":"c"}"#);
}

#[test]
fn object_and_string_conflict_wraps_in_an_array() {
    assert_eq!(q("a[b]=1&a=2"), r#"{"a":[{"b":"1"},"2"]}"#);
    assert_eq!(q("a=2&a[b]=1"), r#"{"a":["2",{"b":"1"}]}"#);
}

#[test]
fn mixed_index_and_name_makes_an_object() {
    assert_eq!(q("a[0]=1&a[b]=2"), r#"{"a":{"0":"1","b":"2"}}"#);
}

#[test]
fn brackets_then_plain_key_append() {
    assert_eq!(q("a[]=1&a[]=2&a=3"), r#"{"a":["1","2","3"]}"#);
}

#[test]
fn objects_in_pushed_arrays_merge() {
    assert_eq!(q("a[][b]=1&a[][b]=2"), r#"{"a":[{"b":["1","2"]}]}"#);
}

#[test]
fn plus_is_space_and_escapes_decode() {
    assert_eq!(q("a+b=c+d%20e"), r#"{"a b":"c d e"}"#);
}

#[test]
fn missing_value_is_empty_string() {
    assert_eq!(q("a"), r#"{"a":""}"#);
    assert_eq!(q("a="), r#"{"a":""}"#);
}

#[test]
fn empty_key_is_dropped() {
    assert_eq!(q("=b"), "{}");
}

#[test]
fn empty_parts_are_skipped() {
    assert_eq!(q("&&a=1"), r#"{"a":"1"}"#);
}

#[test]
fn undecodable_value_is_kept_raw() {
    assert_eq!(q("a=%E0%A4%A"), r#"{"a":"%E0%A4%A"}"#);
}

#[test]
fn encoded_brackets_count() {
    assert_eq!(q("a%5Bb%5D=c"), r#"{"a":{"b":"c"}}"#);
    assert_eq!(q("a%5bb%5d=c"), r#"{"a":{"b":"c"}}"#);
}

#[test]
fn unbalanced_brackets() {
    assert_eq!(q("a[=1"), r#"{"a":{"[":"1"}}"#);
    assert_eq!(q("a[b=1"), r#"{"a":{"[b":"1"}}"#);
    assert_eq!(q("a]=1"), r#"{"a]":"1"}"#);
}

#[test]
fn proto_is_dropped_even_with_allow_prototypes() {
    assert_eq!(q("__proto__[x]=1"), "{}");
    assert_eq!(q("__proto__=1"), "{}");
    assert_eq!(q("a[__proto__]=1&a[b]=2"), r#"{"a":{"b":"2"}}"#);
}

#[test]
fn prototype_names_are_kept_with_allow_prototypes() {
    assert_eq!(q("hasOwnProperty=1"), r#"{"hasOwnProperty":"1"}"#);
}

#[test]
fn prototype_names_are_dropped_without_allow_prototypes() {
    let o = QsOptions {
        allow_prototypes: false,
        ..QsOptions::default()
    };
    assert_eq!(q_with("hasOwnProperty=1&a=2", &o), r#"{"a":"2"}"#);
    assert_eq!(q_with("a[toString]=1&b[c]=2", &o), r#"{"b":{"c":"2"}}"#);
}

#[test]
fn semicolon_is_not_a_separator() {
    assert_eq!(q("foo=bar;baz=1"), r#"{"foo":"bar;baz=1"}"#);
}

#[test]
fn parameter_limit_keeps_the_first_parts() {
    let input: Vec<String> = (0..1100).map(|i| format!("k{i}={i}")).collect();
    let v = parse(&input.join("&"), &QsOptions::default()).expect("parses");
    let map = v.as_object().expect("object");
    assert_eq!(map.len(), 1000);
    assert_eq!(map["k999"], "999");
    assert!(!map.contains_key("k1000"));
    let o = QsOptions {
        parameter_limit: 2,
        ..QsOptions::default()
    };
    assert_eq!(q_with("a=1&&b=2", &o), r#"{"a":"1"}"#);
}

#[test]
fn lone_percent() {
    assert_eq!(q("%"), r#"{"%":""}"#);
}

// --- Array limit ---------------------------------------------------------------------------

#[test]
fn array_size_cap_turns_repeats_into_an_object() {
    let input: Vec<String> = (0..21).map(|i| format!("a={i}")).collect();
    let expected: Vec<String> = (0..21).map(|i| format!(r#""{i}":"{i}""#)).collect();
    assert_eq!(
        q_with(&input.join("&"), &opts(20)),
        format!(r#"{{"a":{{{}}}}}"#, expected.join(","))
    );
    let input: Vec<String> = (0..20).map(|i| format!("a={i}")).collect();
    assert!(q_with(&input.join("&"), &opts(20)).starts_with(r#"{"a":["0","#));
}

#[test]
fn overflow_objects_keep_appending() {
    assert_eq!(
        q_with("a[]=1&a[]=2&a[]=3&a=4", &opts(2)),
        r#"{"a":{"0":"1","1":"2","2":"3","3":"4"}}"#
    );
    assert_eq!(q_with("a[5]=x&a=y", &opts(3)), r#"{"a":{"5":"x","6":"y"}}"#);
    assert_eq!(q_with("a=1&a[]=2", &opts(0)), r#"{"a":{"0":"1","1":"2"}}"#);
}

#[test]
fn index_below_limit_is_an_array_index() {
    assert_eq!(q_with("a[2]=x", &opts(3)), r#"{"a":["x"]}"#);
    assert_eq!(q_with("a[3]=x", &opts(3)), r#"{"a":{"3":"x"}}"#);
}

#[test]
fn non_canonical_indices_are_names() {
    assert_eq!(q("a[01]=x"), r#"{"a":{"01":"x"}}"#);
    assert_eq!(q("a[-1]=x"), r#"{"a":{"-1":"x"}}"#);
    assert_eq!(q("a[ 1]=x"), r#"{"a":{" 1":"x"}}"#);
}

// --- Depth ---------------------------------------------------------------------------------

#[test]
fn strict_depth_errors() {
    let o = QsOptions {
        depth: 2,
        strict_depth: true,
        ..QsOptions::default()
    };
    assert_eq!(parse("a[b][c][d]=1", &o), Err(QsError::DepthExceeded));
    assert_eq!(q_with("a[b][c]=1", &o), r#"{"a":{"b":{"c":"1"}}}"#);
    assert_eq!(
        QsError::DepthExceeded.to_string(),
        "The input exceeded the depth"
    );
}

#[test]
fn urlencoded_settings_allow_32_levels() {
    // body-parser's extended urlencoded parser: depth 32, strictDepth, arrayLimit >= 100.
    let o = QsOptions {
        depth: 32,
        array_limit: 100,
        strict_depth: true,
        ..QsOptions::default()
    };
    let ok = "a".to_owned() + &"[b]".repeat(32) + "=1";
    let too_deep = "a".to_owned() + &"[b]".repeat(33) + "=1";
    let v = parse(&ok, &o).expect("32 levels parse");
    let mut node = &v["a"];
    for _ in 0..32 {
        node = &node["b"];
    }
    assert_eq!(node, "1");
    assert_eq!(parse(&too_deep, &o), Err(QsError::DepthExceeded));
    // One bad key fails the whole input, wherever it is.
    assert_eq!(
        parse(&format!("x=1&{too_deep}&y=2"), &o),
        Err(QsError::DepthExceeded)
    );
    assert_eq!(
        q_with("a[100]=x&a[99]=y", &o),
        r#"{"a":{"99":"y","100":"x"}}"#
    );
}

#[test]
fn depth_zero_keeps_whole_keys() {
    let o = QsOptions {
        depth: 0,
        ..QsOptions::default()
    };
    assert_eq!(q_with("a[b]=1", &o), r#"{"a[b]":"1"}"#);
}

#[test]
fn nested_bracket_groups_and_stray_text() {
    assert_eq!(q("a[b[c]]=1"), r#"{"a":{"b[c]":"1"}}"#);
    assert_eq!(q("a[b]x[c]=1"), r#"{"a":{"b":{"c":"1"}}}"#);
    assert_eq!(q("[a]=1"), r#"{"a":"1"}"#);
    assert_eq!(q("[]=1"), r#"{"0":"1"}"#);
}

// --- Ordering and merging ------------------------------------------------------------------

#[test]
fn objects_enumerate_like_v8() {
    assert_eq!(
        q("a[b]=1&a[1001]=2&a[1000]=3"),
        r#"{"a":{"1000":"3","1001":"2","b":"1"}}"#
    );
    assert_eq!(q("b=1&2=x&1=y"), r#"{"1":"y","2":"x","b":"1"}"#);
    assert_eq!(q("a[b]=1&a[0]=2"), r#"{"a":{"0":"2","b":"1"}}"#);
    assert_eq!(
        q("a[4294967295]=1&a[c]=2&a[4294967294]=3"),
        r#"{"a":{"4294967294":"3","4294967295":"1","c":"2"}}"#
    );
}

#[test]
fn numeric_top_level_keys_are_processed_first() {
    // V8 enumerates "5" before "5[a]", so the string comes first in the conflict array.
    assert_eq!(q("5[a]=1&5=2"), r#"{"5":["2",{"a":"1"}]}"#);
}

#[test]
fn empty_value_does_not_overwrite_an_object() {
    assert_eq!(q("a[b]=x&a="), r#"{"a":{"b":"x"}}"#);
    assert_eq!(q("a=&a[b]=x"), r#"{"a":["",{"b":"x"}]}"#);
}

#[test]
fn repeated_conflicts_append() {
    // `[a]` is a second spelling of `a`, so it reaches the merge instead of being
    // combined with `a` while splitting.
    assert_eq!(q("a[b]=1&a=2&[a]=3"), r#"{"a":[{"b":"1"},"2","3"]}"#);
    assert_eq!(
        q("a[b]=1&a=2&a[c]=3&[a]=4"),
        r#"{"a":{"0":{"b":"1"},"1":"2","2":"4","c":"3"}}"#
    );
    // Repeated plain keys are combined first, so the array merges into the object.
    assert_eq!(q("a[b]=1&a=2&a=3"), r#"{"a":{"0":"2","1":"3","b":"1"}}"#);
}

#[test]
fn flattened_inner_array() {
    assert_eq!(q("a[][2]=x"), r#"{"a":["x"]}"#);
    assert_eq!(q("a[0][0]=x&a[0][1]=y"), r#"{"a":[["x","y"]]}"#);
}

#[test]
fn decoding() {
    assert_eq!(q("%C3%A9=%E2%9C%93"), r#"{"é":"✓"}"#);
    assert_eq!(q("a=%C0%80"), r#"{"a":"%C0%80"}"#);
    assert_eq!(q("a=%ED%A0%80"), r#"{"a":"%ED%A0%80"}"#);
    assert_eq!(q("a=%zz+b"), r#"{"a":"%zz b"}"#);
    assert_eq!(q("a=%26%3D"), r#"{"a":"&="}"#);
    assert_eq!(q("a%26b=c"), r#"{"a&b":"c"}"#);
    assert_eq!(q("a[b]=c=d"), r#"{"a":{"b":"c=d"}}"#);
}

#[test]
fn js_numbers() {
    assert_eq!(js_number_key(1152921504606846976.0), "1152921504606847000");
    assert_eq!(js_number_key(1e21), "1e+21");
    assert_eq!(canonical_index("1152921504606846976"), None);
    assert_eq!(
        canonical_index("1152921504606847000"),
        Some(1152921504606846976.0)
    );
    assert_eq!(js_parse_int(" 12x"), 12.0);
    assert!(js_parse_int("x").is_nan());
    assert_eq!(array_index("4294967294"), Some(4294967294));
    assert_eq!(array_index("4294967295"), None);
}

// --- Robustness ----------------------------------------------------------------------------

#[test]
fn odd_inputs_do_not_panic() {
    let deep = "a".to_owned() + &"[b]".repeat(5000) + "=1";
    let opens = "[".repeat(5000) + "=1";
    let big = "a[]=1&".repeat(20_000);
    let long = "x".repeat(100_000);
    let odd = [
        "%",
        "%%",
        "%5",
        "[[[",
        "]]]",
        "&&&",
        "=",
        "==",
        "[]",
        "[]=",
        "]=",
        "[=]",
        "a[]]=1",
        "a[[]]=1",
        "a[b][=1",
        "%5B%5D=1",
        "a[%5D=1",
        "a=%",
        "😀[😀]=😀%F0%9F%98",
        "a[0]=1&a=",
        &deep,
        &opens,
        &big,
        &long,
    ];
    let configs = [
        QsOptions::default(),
        QsOptions {
            depth: usize::MAX,
            array_limit: usize::MAX,
            parameter_limit: usize::MAX,
            strict_depth: false,
            allow_prototypes: false,
            charset: Charset::Iso88591,
            charset_sentinel: true,
            interpret_numeric_entities: true,
        },
        QsOptions {
            depth: 0,
            array_limit: 0,
            parameter_limit: 0,
            strict_depth: true,
            allow_prototypes: true,
            ..QsOptions::default()
        },
    ];
    for o in &configs {
        for s in &odd {
            let _ = parse(s, o).map(|v| serde_json::to_string(&v));
        }
    }
    assert_eq!(q("[[["), r#"{"[[[":""}"#);
    assert_eq!(q("]]]"), r#"{"]]]":""}"#);
    assert_eq!(q("&&&"), "{}");
    assert_eq!(q("="), "{}");
}

#[test]
fn many_parameters_stay_linear() {
    let n = 200_000;
    let input = "a[]=1&".repeat(n) + &"b=2&".repeat(n) + &"c[x][]=3&".repeat(n);
    let o = QsOptions {
        array_limit: usize::MAX,
        parameter_limit: usize::MAX,
        ..QsOptions::default()
    };
    let v = parse(&input, &o).expect("parses");
    assert_eq!(v["a"].as_array().map(Vec::len), Some(n));
    assert_eq!(v["b"].as_array().map(Vec::len), Some(n));
    assert_eq!(v["c"]["x"].as_array().map(Vec::len), Some(n));
}

// --- body-parser 2's urlencoded (`extended: false` is depth 0), checked against qs 6.17.1 ----

fn simple(input: &str) -> String {
    let o = QsOptions {
        depth: 0,
        strict_depth: true,
        array_limit: input.split('&').count(),
        ..QsOptions::default()
    };
    q_with(input, &o)
}

#[test]
fn depth_zero_keeps_brackets_literal() {
    assert_eq!(simple("a[b]=1&c=2"), r#"{"a[b]":"1","c":"2"}"#);
    assert_eq!(simple("a[b][c]=1"), r#"{"a[b][c]":"1"}"#);
    assert_eq!(simple("a[]=1&a[]=2"), r#"{"a[]":["1","2"]}"#);
    assert_eq!(simple("a=1&a=2&a=3"), r#"{"a":["1","2","3"]}"#);
}

#[test]
fn depth_zero_strips_one_wrapping_pair_and_drops_proto() {
    assert_eq!(simple("[a]=1"), r#"{"a":"1"}"#);
    assert_eq!(simple("[]=1"), r#"{"0":"1"}"#);
    assert_eq!(simple("[0]=x&b=1"), r#"{"0":"x","b":"1"}"#);
    assert_eq!(simple("__proto__=1&a=2"), r#"{"a":"2"}"#);
    assert_eq!(simple("[__proto__]=1&b=2"), r#"{"b":"2"}"#);
}

#[test]
fn iso_8859_1_and_entities() {
    let latin1 = QsOptions {
        charset: Charset::Iso88591,
        interpret_numeric_entities: true,
        ..QsOptions::default()
    };
    assert_eq!(
        q_with("name=caf%E9&x=%26%2310003%3B", &latin1),
        r#"{"name":"café","x":"✓"}"#
    );
    assert_eq!(
        q_with("a=%26%2355357%3B%26%2356832%3B", &latin1),
        r#"{"a":"😀"}"#
    );
    // Entities are read only in ISO-8859-1.
    let utf8 = QsOptions {
        interpret_numeric_entities: true,
        ..QsOptions::default()
    };
    assert_eq!(q_with("x=%26%2310003%3B", &utf8), r#"{"x":"&#10003;"}"#);
}

#[test]
fn charset_sentinel_picks_the_charset_and_is_dropped() {
    let o = QsOptions {
        charset_sentinel: true,
        interpret_numeric_entities: true,
        ..QsOptions::default()
    };
    assert_eq!(
        q_with("utf8=%26%2310003%3B&name=caf%E9&x=%26%2310003%3B", &o),
        r#"{"name":"café","x":"✓"}"#
    );
    let latin1 = QsOptions {
        charset: Charset::Iso88591,
        ..o
    };
    assert_eq!(
        q_with("utf8=%E2%9C%93&name=caf%C3%A9", &latin1),
        r#"{"name":"café"}"#
    );
    assert_eq!(q_with("a=1&utf8=other", &o), r#"{"a":"1"}"#);
}
