//! The string-path compiler of path-to-regexp 0.1.13, reproduced step by
//! step: the token rewrite, the "backtrack" text, the key offsets and the scan
//! for unnamed capture groups. The result is the raw JavaScript regex source
//! (before V8's `/` escaping) plus, for every source character, the byte span
//! of the original path it came from (for error positions).

use crate::Key;
use crate::charset::is_line_terminator;

/// A key together with its char offset in the generated source.
#[derive(Clone, Debug)]
pub(crate) struct KeyRec {
    pub(crate) key: Key,
    pub(crate) offset: usize,
}

/// Raw JavaScript source as chars with the original byte span of each char.
#[derive(Clone, Debug, Default)]
pub(crate) struct Source {
    pub(crate) chars: Vec<char>,
    pub(crate) spans: Vec<(usize, usize)>,
}

impl Source {
    fn push(&mut self, c: char, span: (usize, usize)) {
        self.chars.push(c);
        self.spans.push(span);
    }

    fn push_str(&mut self, s: &str, span: (usize, usize)) {
        for c in s.chars() {
            self.push(c, span);
        }
    }

    /// Map a range of source chars to a byte range `(offset, len)` of the
    /// original text; `total` is the original's length.
    pub(crate) fn map(&self, pos: usize, len: usize, total: usize) -> (usize, usize) {
        if pos >= self.spans.len() {
            return (total, 0);
        }
        let end_idx = (pos + len.max(1)).min(self.spans.len());
        let start = self.spans[pos].0;
        let end = self.spans[pos..end_idx]
            .iter()
            .map(|s| s.1)
            .max()
            .unwrap_or(start)
            .max(start);
        (start, end - start)
    }

    /// A source whose spans are the chars' own positions in `text`.
    pub(crate) fn verbatim(text: &str) -> Source {
        let mut s = Source::default();
        for (i, c) in text.char_indices() {
            s.push(c, (i, i + c.len_utf8()));
        }
        s
    }
}

fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// A token found by path-to-regexp's replace regex at some position.
enum Token {
    Escape,
    Dot,
    Star,
    SlashParen,
    Param {
        slash: bool,
        format: bool,
        name: String,
        /// char range of the custom `( … )` group
        capture: Option<(usize, usize)>,
        star: bool,
        optional: bool,
    },
}

/// Try `/\\.|(\/)?(\.)?:(\w+)(\(.*?\))?(\*)?(\?)?|[.*]|\/\(/` at `i`.
/// Returns the token and its length in chars.
fn token_at(p: &[char], i: usize) -> Option<(Token, usize)> {
    let c = p[i];
    if c == '\\' {
        return match p.get(i + 1) {
            Some(&n) if !is_line_terminator(n) => Some((Token::Escape, 2)),
            _ => None,
        };
    }
    // parameter
    let mut j = i;
    let slash = p.get(j) == Some(&'/');
    if slash {
        j += 1;
    }
    let format = p.get(j) == Some(&'.');
    if format {
        j += 1;
    }
    if p.get(j) == Some(&':') && p.get(j + 1).is_some_and(|&c| is_word(c)) {
        j += 1;
        let name_start = j;
        while p.get(j).is_some_and(|&c| is_word(c)) {
            j += 1;
        }
        let name: String = p[name_start..j].iter().collect();
        let mut capture = None;
        if p.get(j) == Some(&'(') {
            let mut k = j + 1;
            while k < p.len() && p[k] != ')' && !is_line_terminator(p[k]) {
                k += 1;
            }
            if p.get(k) == Some(&')') {
                capture = Some((j, k + 1));
                j = k + 1;
            }
        }
        let star = p.get(j) == Some(&'*');
        if star {
            j += 1;
        }
        let optional = p.get(j) == Some(&'?');
        if optional {
            j += 1;
        }
        return Some((
            Token::Param {
                slash,
                format,
                name,
                capture,
                star,
                optional,
            },
            j - i,
        ));
    }
    match c {
        '.' => Some((Token::Dot, 1)),
        '*' => Some((Token::Star, 1)),
        '/' if p.get(i + 1) == Some(&'(') => Some((Token::SlashParen, 2)),
        _ => None,
    }
}

/// Options relevant to compilation.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Flags {
    pub(crate) end: bool,
    pub(crate) strict: bool,
}

impl From<crate::Options> for Flags {
    fn from(opts: crate::Options) -> Flags {
        Flags {
            end: opts.end,
            strict: opts.strict,
        }
    }
}

/// Compile one string path like `pathToRegexp(path, keys, options)`,
/// appending to `keys`. Returns the raw source (with the leading `^`).
pub(crate) fn compile_path(path: &str, flags: Flags, keys: &mut Vec<KeyRec>) -> Source {
    let p: Vec<char> = path.chars().collect();
    // byte offset of each char, plus the end
    let mut pb: Vec<usize> = path.char_indices().map(|(i, _)| i).collect();
    pb.push(path.len());
    let span = |a: usize, b: usize| (pb[a], pb[b]);

    let keys_offset = keys.len();
    let mut out = Source::default();
    let mut backtrack = String::new();
    let mut extra_offset: isize = 0;
    let mut pos: usize = 0;

    let mut i = 0;
    while i < p.len() {
        let Some((tok, len)) = token_at(&p, i) else {
            out.push(p[i], span(i, i + 1));
            i += 1;
            continue;
        };
        let tspan = span(i, i + len);
        let offset = i;
        match tok {
            Token::Escape => {
                backtrack.push(p[i]);
                backtrack.push(p[i + 1]);
                pos += 2;
                out.push(p[i], span(i, i + 1));
                out.push(p[i + 1], span(i + 1, i + 2));
            }
            Token::Dot => {
                backtrack.push_str("\\.");
                extra_offset += 1;
                pos += 1;
                out.push_str("\\.", tspan);
            }
            Token::Star => {
                backtrack.extend(p.get(pos..offset).into_iter().flatten());
                pos = offset + len;
                backtrack.clear();
                extra_offset += 3;
                out.push_str("(.*)", tspan);
            }
            Token::SlashParen => {
                backtrack.extend(p.get(pos..offset).into_iter().flatten());
                pos = offset + len;
                backtrack.push('/');
                extra_offset += 2;
                out.push('/', span(i, i + 1));
                out.push_str("(?:", span(i + 1, i + 2));
            }
            Token::Param {
                slash,
                format,
                name,
                capture,
                star,
                optional,
            } => {
                if slash || format {
                    backtrack.clear();
                } else {
                    backtrack.extend(p.get(pos..offset).into_iter().flatten());
                }
                pos = offset + len;
                let fmt = if format { "\\." } else { "" };
                let start_len = out.chars.len();
                out.push_str("(?:", tspan);
                out.push_str(fmt, tspan);
                if slash {
                    out.push('/', tspan);
                }
                match capture {
                    Some((a, b)) => {
                        // first `\x` or `*` of the group; a `*` becomes `(.*)`
                        let cspan = span(a, b);
                        let mut replaced = false;
                        let mut k = a;
                        while k < b {
                            let c = p[k];
                            if !replaced && c == '\\' && k + 1 < b && !is_line_terminator(p[k + 1])
                            {
                                replaced = true;
                                out.push(c, cspan);
                                out.push(p[k + 1], cspan);
                                k += 2;
                                continue;
                            }
                            if !replaced && c == '*' {
                                replaced = true;
                                out.push_str("(.*)", cspan);
                            } else {
                                out.push(c, cspan);
                            }
                            k += 1;
                        }
                    }
                    None if !backtrack.is_empty() => {
                        out.push_str("((?:(?!/|", tspan);
                        out.push_str(&backtrack, tspan);
                        out.push_str(").)+?)", tspan);
                    }
                    None => {
                        out.push_str("([^/", tspan);
                        out.push_str(fmt, tspan);
                        out.push_str("]+?)", tspan);
                    }
                }
                if star {
                    out.push_str("((?:[/", tspan);
                    out.push_str(fmt, tspan);
                    out.push_str("].+?)?)", tspan);
                }
                out.push(')', tspan);
                if optional {
                    out.push('?', tspan);
                }
                keys.push(KeyRec {
                    key: Key::Name(name),
                    offset: (offset as isize + extra_offset).max(0) as usize,
                });
                backtrack.clear();
                let result_len = out.chars.len() - start_len;
                extra_offset += result_len as isize - len as isize;
            }
        }
        i += len;
    }

    // Unnamed capture groups become numbered keys, in source order.
    let mut name = 0usize;
    for (k, (index, _)) in scan_groups(&out.chars).into_iter().enumerate() {
        let at = keys_offset + k;
        if at == keys.len() || keys[at].offset > index {
            keys.insert(
                at,
                KeyRec {
                    key: Key::Index(name),
                    offset: index,
                },
            );
            name += 1;
        }
    }

    let end_span = (path.len(), path.len());
    if !flags.strict {
        if out.chars.last() == Some(&'/') {
            out.push('?', end_span);
        } else {
            out.push_str("/?", end_span);
        }
    }
    if flags.end {
        out.push('$', end_span);
    } else if out.chars.last() != Some(&'/') {
        out.push_str("(?=/|$)", end_span);
    }
    let mut full = Source::default();
    full.push('^', (0, 0));
    full.chars.extend(out.chars);
    full.spans.extend(out.spans);
    full
}

/// Matches of path-to-regexp's `MATCHING_GROUP_REGEXP`
/// (`/\\.|\((?:\?<(.*?)>)?(?!\?)/g`) that are groups: (char index, name).
pub(crate) fn scan_groups(s: &[char]) -> Vec<(usize, Option<String>)> {
    let mut found = Vec::new();
    let mut i = 0;
    while i < s.len() {
        let c = s[i];
        if c == '\\' && s.get(i + 1).is_some_and(|&n| !is_line_terminator(n)) {
            i += 2;
            continue;
        }
        if c == '(' {
            if s.get(i + 1) == Some(&'?') && s.get(i + 2) == Some(&'<') {
                // lazy `.*?` up to a `>` not followed by `?`
                let mut j = i + 3;
                let mut hit = None;
                while j < s.len() && !is_line_terminator(s[j]) {
                    if s[j] == '>' && s.get(j + 1) != Some(&'?') {
                        hit = Some(j);
                        break;
                    }
                    j += 1;
                }
                if let Some(j) = hit {
                    let name: String = s[i + 3..j].iter().collect();
                    found.push((i, Some(name)));
                    i = j + 1;
                    continue;
                }
            }
            if s.get(i + 1) != Some(&'?') {
                found.push((i, None));
            }
        }
        i += 1;
    }
    found
}

/// Keys of a RegExp route: named groups by name, others numbered from 0.
pub(crate) fn regex_keys(source: &[char]) -> Vec<Key> {
    let mut n = 0;
    scan_groups(source)
        .into_iter()
        .map(|(_, name)| match name {
            Some(name) if !name.is_empty() => Key::Name(name),
            _ => {
                n += 1;
                Key::Index(n - 1)
            }
        })
        .collect()
}

/// What `RegExp.prototype.source` shows on V8: `/` outside classes and line
/// terminators escaped; `(?:)` for the empty pattern.
pub(crate) fn v8_source(raw: &[char]) -> String {
    if raw.is_empty() {
        return "(?:)".to_string();
    }
    let mut out = String::with_capacity(raw.len() + 8);
    let mut in_class = false;
    let mut i = 0;
    while i < raw.len() {
        let c = raw[i];
        if c == '\\' {
            if raw.get(i + 1).is_some_and(|&n| is_line_terminator(n)) {
                i += 1;
                continue;
            }
            out.push('\\');
            if let Some(&n) = raw.get(i + 1) {
                out.push(n);
            }
            i += 2;
            continue;
        }
        match c {
            '/' if !in_class => out.push_str("\\/"),
            '[' => {
                in_class = true;
                out.push(c);
            }
            ']' => {
                in_class = false;
                out.push(c);
            }
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            _ => out.push(c),
        }
        i += 1;
    }
    out
}
