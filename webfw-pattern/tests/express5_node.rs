//! Differential test of [`Pattern::express5`] against the real
//! path-to-regexp 8.4.2 on Node.js, called as router 2.3's `Layer` calls it
//! (non-strict paths lose their trailing slashes; `trailing: !strict`).
//!
//! A corpus of patterns (Express 5's documented shapes, every refusal,
//! and seeded random mutations of them) × the eight option sets × request
//! paths: the error message, the regex source, and for every path the
//! matched text and the raw params (wildcards split on `/`) must agree.
//!
//! Node and the package come from the conformance kit:
//! `../shared/conformance/reference5/node_modules` (or
//! `/work/shared/…`); `npm ci` is run there when `node_modules` is missing.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::{Value, json};
use webfw_pattern::{Key, Options, Pattern};

/// The JavaScript half: router 2's loosen + path-to-regexp's `match`
/// with an identity decoder, so the params are the raw captures.
const SCRIPT: &str = r#"
const fs = require('fs');
const path = require('path');
const input = JSON.parse(fs.readFileSync(0, 'utf8'));
const { pathToRegexp, match } = require(path.join(input.modules, 'path-to-regexp'));
const ID_START = /^[$_\p{ID_Start}]$/u;
const ID_CONTINUE = /^[$\u200c\u200d\p{ID_Continue}]$/u;
let start = [], cont = [];
for (let c = 0; c < 0x10000; c++) {
  if (c >= 0xd800 && c < 0xe000) continue;
  const s = String.fromCharCode(c);
  if (ID_START.test(s)) start.push(c);
  if (ID_CONTINUE.test(s)) cont.push(c);
}
const out = input.patterns.map(({ pattern, paths }) => input.opts.map(o => {
  const p = (o.strict || pattern === '/') ? pattern : pattern.replace(/\/+$/, '');
  const opts = { sensitive: o.sensitive, end: o.end, trailing: !o.strict, decode: v => v };
  try {
    const { regexp } = pathToRegexp(p, opts);
    const fn = match(p, opts);
    return {
      source: regexp.source,
      matches: paths.map(x => { const r = fn(x); return r ? [r.path, r.params] : null; }),
    };
  } catch (e) {
    return { error: e.message };
  }
}));
process.stdout.write(JSON.stringify({ out, start, cont }));
"#;

fn modules_dir() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let candidates = [
        root.join("../shared/conformance/reference5"),
        PathBuf::from("/work/shared/conformance/reference5"),
    ];
    let Some(kit) = candidates.iter().find(|d| d.join("package.json").exists()) else {
        panic!(
            "the Express 5 conformance kit is missing: looked for {candidates:?} \
             (its node_modules holds path-to-regexp 8.4.2)"
        );
    };
    let modules = kit.join("node_modules");
    if !modules.join("path-to-regexp/package.json").exists() {
        let status = Command::new("npm")
            .arg("ci")
            .current_dir(kit)
            .status()
            .unwrap_or_else(|e| panic!("node_modules missing and `npm ci` could not run: {e}"));
        assert!(status.success(), "`npm ci` in {} failed", kit.display());
    }
    let version: Value = serde_json::from_str(
        &std::fs::read_to_string(modules.join("path-to-regexp/package.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(version["version"], "8.4.2", "the kit's path-to-regexp");
    modules
}

/// xorshift64*, seeded: the same corpus every run.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const SEEDS: &[&str] = &[
    "/",
    "",
    "/plain",
    "/plain/",
    "/Users/:id",
    "/users/:id/books/:bookId",
    "/:a{/:b}",
    "/:name{.:ext}",
    "/:name.:ext",
    "/:from-:to",
    "/star/*rest",
    "/optstar{/*rest}",
    "/tree/:dir/*path",
    "/color{s}",
    r"/lit/\(1\+1\)",
    "/quoted/:\"user-id\"",
    "/:\"a\\\"b\"",
    "/$id/:$x",
    "/:café/x",
    "/a{/b{/c{/d}}}",
    "/*a.:b",
    "/*a/:b",
    "/:a/*b/:c",
    "/:a-*b",
    "/*a-:b",
    "/x*a/y*b",
    "/files/*path.json",
    "/{:a}-{:b}",
    "/{a}{b}{c}{d}{e}{f}{g}{h}",
    "/{a}{b}{c}{d}{e}{f}{g}{h}{i}",
    "/a//b/",
    "//",
    "/a\\/",
    "/ab?cd",
    "/ab+cd",
    "/:id(\\d+)",
    "/[x]",
    "/a!",
    "/a}",
    "*",
    "/star/*",
    "/:",
    "/:\"\"",
    "/:a:b",
    "/*a*b",
    "/a{/:b",
    "/:\"abc",
    "/a\\",
    "/é?",
    "/a{b}}",
    "/{{a}}",
    "/a\nb",
    "/Ä/:ö",
];

const PATHS: &[&str] = &[
    "",
    "/",
    "//",
    "/a",
    "/a/",
    "/A",
    "/a/b",
    "/a/b/",
    "/a/b/c",
    "/a//b",
    "/plain",
    "/PLAIN/",
    "/plain//",
    "/plain/x",
    "/a-b",
    "/a--",
    "/a..",
    "/a.b.c",
    "/.hidden",
    "/a.",
    "/color",
    "/colors",
    "/COLORS/",
    "/é",
    "/É",
    "/%C3%A9",
    "/a%2Fb/c",
    "/lit/(1+1)",
    "/lit/%281%2B1%29",
    "/star/a/b/c.txt",
    "/star/",
    "/star/a/",
    "/optstar",
    "/optstar/x/y",
    "/tree/d/x/y",
    "/users/7",
    "/Users/7/books/9",
    "/$id/1",
    "/café/x",
    "/a/b/c/d",
    "/a/b/c/d/",
    "/x1/y2",
    "/files/a/b.json",
    "/files/.json",
    "/-/-",
    "/a-b-c",
    "/ab",
    "/abcd",
    "/Ä/ö",
    "/a\nb",
    "/quoted/7",
    "/a/-/b",
    "/1-2/",
    "/a.b/c.d",
];

/// A request path the pattern should match: params filled in, groups
/// kept, escapes undone.
fn filled(pattern: &str) -> String {
    let mut out = String::new();
    let mut chars = pattern.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.extend(chars.next()),
            '{' | '}' => {}
            ':' | '*' => {
                out.push_str(if c == ':' { "v1" } else { "w/x" });
                if chars.peek() == Some(&'"') {
                    chars.next();
                    for d in chars.by_ref() {
                        if d == '"' {
                            break;
                        }
                    }
                } else {
                    while chars
                        .peek()
                        .is_some_and(|d| d.is_alphanumeric() || *d == '$' || *d == '_')
                    {
                        chars.next();
                    }
                }
            }
            _ => out.push(c),
        }
    }
    out
}

fn corpus() -> Vec<String> {
    let mut patterns: Vec<String> = SEEDS.iter().map(|s| (*s).to_owned()).collect();
    let alphabet: Vec<char> = "/:*{}()?+![]\\\"a-.é$_xZ9 ".chars().collect();
    let mut rng = Rng(0x5eed_0008_0402);
    for _ in 0..700 {
        let seed: Vec<char> = SEEDS[rng.below(SEEDS.len())].chars().collect();
        let mut p = seed.clone();
        for _ in 0..1 + rng.below(3) {
            let at = rng.below(p.len() + 1);
            match rng.below(4) {
                0 | 1 => p.insert(at, alphabet[rng.below(alphabet.len())]),
                2 if at < p.len() => {
                    p.remove(at);
                }
                _ => {
                    // splice in a piece of another seed
                    let other: Vec<char> = SEEDS[rng.below(SEEDS.len())].chars().collect();
                    let from = rng.below(other.len() + 1);
                    let to = (from + 1 + rng.below(4)).min(other.len());
                    p.splice(at..at, other[from.min(to)..to].iter().copied());
                }
            }
        }
        patterns.push(p.into_iter().collect());
    }
    patterns.sort();
    patterns.dedup();
    patterns
}

fn all_opts() -> Vec<Options> {
    (0..8u8)
        .map(|b| Options::new(b & 1 != 0, b & 2 != 0, b & 4 != 0))
        .collect()
}

/// Our params as path-to-regexp's object: later captures of a name win.
fn params_of(p: &Pattern, params: &[(usize, &str)]) -> BTreeMap<String, Value> {
    params
        .iter()
        .map(|&(k, v)| {
            let key = &p.keys()[k];
            let value = match key {
                Key::Wildcard(_) => json!(v.split('/').collect::<Vec<_>>()),
                _ => json!(v),
            };
            (key.to_string(), value)
        })
        .collect()
}

#[test]
fn express5_patterns_agree_with_path_to_regexp_8_on_node() {
    let modules = modules_dir();
    let patterns = corpus();
    let opts = all_opts();
    let inputs: Vec<(String, Vec<String>)> = patterns
        .iter()
        .map(|p| {
            let mut paths: Vec<String> = PATHS.iter().map(|s| (*s).to_owned()).collect();
            let f = filled(p);
            paths.push(f.clone());
            paths.push(format!("{f}/"));
            paths.push(f.to_uppercase());
            (p.clone(), paths)
        })
        .collect();
    let request = json!({
        "modules": modules,
        "opts": opts.iter().map(|o| json!({"end": o.end, "strict": o.strict, "sensitive": o.sensitive})).collect::<Vec<_>>(),
        "patterns": inputs.iter().map(|(p, paths)| json!({"pattern": p, "paths": paths})).collect::<Vec<_>>(),
    });
    let mut child = Command::new("node")
        .arg("-e")
        .arg(SCRIPT)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| {
            panic!("could not run `node` (Node.js 20 is needed for this differential test): {e}")
        });
    child
        .stdin
        .take()
        .unwrap()
        .write_all(request.to_string().as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "node failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let answer: Value = serde_json::from_slice(&output.stdout).expect("node's JSON");

    // Parameter names: ID_Start / ID_Continue over the BMP.
    let set = |v: &Value| -> Vec<u32> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_u64().unwrap() as u32)
            .collect()
    };
    let (starts, conts) = (set(&answer["start"]), set(&answer["cont"]));
    let mut name_failures = Vec::new();
    let mut newer = 0;
    for c in (0..0x10000u32).filter_map(char::from_u32) {
        let js_start = starts.binary_search(&(c as u32)).is_ok();
        let js_cont = conts.binary_search(&(c as u32)).is_ok();
        let path = format!("/:{c}");
        let ours = Pattern::express5(&path, Options::route()).is_ok();
        let path2 = format!("/:a{c}");
        let ours2 = Pattern::express5(&path2, Options::route())
            .map(|p| p.keys() == [Key::Name(format!("a{c}"))])
            .unwrap_or(false);
        // unicode-ident follows a newer Unicode than Node 20's ICU (15.1):
        // letters assigned since are names here only.
        let same = ours == js_start && ours2 == js_cont;
        let only_ours = (ours || !js_start) && (ours2 || !js_cont);
        if !same && only_ours {
            newer += 1;
        } else if !same {
            name_failures.push(format!(
                "U+{:04X}: start {js_start}/{ours} continue {js_cont}/{ours2}",
                c as u32
            ));
        }
    }
    assert!(newer < 64, "{newer} characters are names only here");
    assert!(
        name_failures.is_empty(),
        "{} parameter-name characters differ from Node's Unicode tables (beyond newer assignments), e.g. {:?}",
        name_failures.len(),
        &name_failures[..name_failures.len().min(20)]
    );

    let mut failures = Vec::new();
    let (mut errors, mut matches) = (0, 0);
    for ((pattern, paths), per_opts) in inputs.iter().zip(answer["out"].as_array().unwrap()) {
        for (o, want) in opts.iter().zip(per_opts.as_array().unwrap()) {
            let label = format!("{pattern:?} {o:?}");
            let got = Pattern::express5(pattern, *o);
            if let Some(err) = want.get("error") {
                errors += 1;
                match got {
                    Ok(p) => {
                        failures.push(format!("{label}: expected error {err}, got {}", p.source()))
                    }
                    Err(e) if e.message != err.as_str().unwrap() => {
                        failures.push(format!("{label}: error {:?}, expected {err}", e.message))
                    }
                    Err(e) => assert!(e.hint.is_some(), "{label}: no hint"),
                }
                continue;
            }
            let p = match got {
                Ok(p) => p,
                Err(e) => {
                    failures.push(format!("{label}: unexpected error {}", e.message));
                    continue;
                }
            };
            if p.source() != want["source"].as_str().unwrap() {
                failures.push(format!(
                    "{label}: source {} expected {}",
                    p.source(),
                    want["source"]
                ));
            }
            for (path, m) in paths.iter().zip(want["matches"].as_array().unwrap()) {
                matches += 1;
                if pattern == "/" && !o.end {
                    // router 2's `layer.slash`: every path, nothing matched
                    assert_eq!(p.matches(path).map(|m| m.len), Some(0));
                    continue;
                }
                let ours = p
                    .matches(path)
                    .map(|m| (path[..m.len].to_owned(), params_of(&p, &m.params)));
                let theirs = m.as_array().map(|a| {
                    let params: BTreeMap<String, Value> = a[1]
                        .as_object()
                        .unwrap()
                        .iter()
                        .map(|(k, v)| (k.clone(), v.clone()))
                        .collect();
                    (a[0].as_str().unwrap().to_owned(), params)
                });
                if ours != theirs {
                    failures.push(format!(
                        "{label} on {path:?}: ours {ours:?}, node {theirs:?}"
                    ));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} differences from path-to-regexp 8.4.2 (of {} patterns, {errors} errors, {matches} matches):\n{}",
        failures.len(),
        patterns.len(),
        failures[..failures.len().min(40)].join("\n")
    );
    assert!(errors > 500 && matches > 100_000, "{errors} {matches}");
}
