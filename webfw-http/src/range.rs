//! The `Range` header as `range-parser` 1.2 reads it (`req.range`, `send`)
//! and, with [`parse_strict`], as range-parser 1.3 does (Express 5's
//! `req.range`, send 1).
//!
//! ```
//! use webfw_http::range::{parse, ByteRange, ParsedRange};
//! let r = parse(1000, "bytes=0-99", false);
//! assert_eq!(r, ParsedRange::Ranges { unit: "bytes".into(), ranges: vec![ByteRange { start: 0, end: 99 }] });
//! ```

/// One satisfiable byte range, both ends inclusive.
///
/// ```
/// let r = webfw_http::range::ByteRange { start: 0, end: 99 };
/// assert_eq!(r.len(), 100);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ByteRange {
    /// The first byte.
    pub start: u64,
    /// The last byte (inclusive).
    pub end: u64,
}

impl ByteRange {
    /// The number of bytes in the range.
    ///
    /// ```
    /// assert_eq!(webfw_http::range::ByteRange { start: 5, end: 5 }.len(), 1);
    /// ```
    #[allow(clippy::len_without_is_empty)]
    pub fn len(&self) -> u64 {
        self.end - self.start + 1
    }
}

/// What [`parse`] makes of a header.
///
/// ```
/// use webfw_http::range::{parse, ParsedRange};
/// assert_eq!(parse(10, "bytes=20-", false), ParsedRange::Unsatisfiable);
/// assert_eq!(parse(10, "bytes", false), ParsedRange::Malformed);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParsedRange {
    /// No range lies within the size (`-1` in range-parser).
    Unsatisfiable,
    /// The header has no `=` (`-2` in range-parser); for [`parse_strict`]
    /// also any malformed part.
    Malformed,
    /// The unit before `=` (`bytes`) and the satisfiable ranges, in the
    /// header's order.
    Ranges {
        /// The text before `=`, as written.
        unit: String,
        /// At least one range.
        ranges: Vec<ByteRange>,
    },
}

impl ParsedRange {
    /// The number range-parser returns for the two failures, `-1` or `-2`.
    ///
    /// ```
    /// use webfw_http::range::{parse, ParsedRange};
    /// assert_eq!(parse(10, "bytes", false).code(), Some(-2));
    /// assert_eq!(parse(10, "bytes=20-", false).code(), Some(-1));
    /// ```
    pub fn code(&self) -> Option<i32> {
        match self {
            ParsedRange::Unsatisfiable => Some(-1),
            ParsedRange::Malformed => Some(-2),
            ParsedRange::Ranges { .. } => None,
        }
    }
}

/// Parses `header` for a resource of `size` bytes. Each comma-separated
/// `start-end` is read with JavaScript's `parseInt`; `-n` is the last `n`
/// bytes, `n-` runs to the end, an end past the size is clamped, and
/// invalid or unsatisfiable entries are dropped. With `combine`, overlapping
/// and adjacent ranges merge, keeping the order of their first appearance.
///
/// ```
/// use webfw_http::range::{parse, ByteRange, ParsedRange};
/// let r = parse(1000, "bytes=0-99,-100", false);
/// assert_eq!(r, ParsedRange::Ranges {
///     unit: "bytes".into(),
///     ranges: vec![ByteRange { start: 0, end: 99 }, ByteRange { start: 900, end: 999 }],
/// });
/// let r = parse(1000, "bytes=0-10,5-20", true);
/// assert!(matches!(r, ParsedRange::Ranges { ranges, .. } if ranges == [ByteRange { start: 0, end: 20 }]));
/// ```
pub fn parse(size: u64, header: &str, combine: bool) -> ParsedRange {
    let Some(eq) = header.find('=') else {
        return ParsedRange::Malformed;
    };
    let size = i128::from(size);
    let mut ranges = Vec::new();
    for spec in header[eq + 1..].split(',') {
        let mut parts = spec.split('-');
        let start = parts.next().and_then(parse_int);
        let end = parts.next().and_then(parse_int);
        let (start, mut end) = match (start, end) {
            (None, Some(end)) => (size - end, size - 1),
            (None, None) => continue,
            (Some(start), None) => (start, size - 1),
            (Some(start), Some(end)) => (start, end),
        };
        end = end.min(size - 1);
        if start > end || start < 0 {
            continue;
        }
        // Both lie in 0..size here, so they fit.
        ranges.push(ByteRange {
            start: start as u64,
            end: end as u64,
        });
    }
    if ranges.is_empty() {
        return ParsedRange::Unsatisfiable;
    }
    if combine {
        ranges = combine_ranges(ranges);
    }
    ParsedRange::Ranges {
        unit: header[..eq].to_owned(),
        ranges,
    }
}

/// range-parser 1.3: as [`parse`], except that any malformed part makes
/// the whole header [`ParsedRange::Malformed`] (`-2`) instead of being
/// skipped: a part without `-`, or one whose ends (trimmed of white space)
/// are not plain decimal digits (`x`, `0x10`, `+1`, `1-2-3`), or `-` alone.
/// Unsatisfiable parts are still dropped, and only them left is `-1`.
///
/// ```
/// use webfw_http::range::{parse_strict, ByteRange, ParsedRange};
/// assert_eq!(parse_strict(1000, "bytes=abc", false), ParsedRange::Malformed);
/// assert_eq!(parse_strict(1000, "bytes=0-5,x-y", false), ParsedRange::Malformed);
/// assert_eq!(parse_strict(1000, "bytes=2000-", false), ParsedRange::Unsatisfiable);
/// assert_eq!(
///     parse_strict(1000, "bytes= 0-5 ,-10", false),
///     ParsedRange::Ranges {
///         unit: "bytes".into(),
///         ranges: vec![ByteRange { start: 0, end: 5 }, ByteRange { start: 990, end: 999 }],
///     }
/// );
/// ```
pub fn parse_strict(size: u64, header: &str, combine: bool) -> ParsedRange {
    let Some(eq) = header.find('=') else {
        return ParsedRange::Malformed;
    };
    let size = i128::from(size);
    let mut ranges = Vec::new();
    for spec in header[eq + 1..].split(',') {
        let Some(dash) = spec.find('-') else {
            return ParsedRange::Malformed;
        };
        let start_text = spec[..dash].trim_matches(super::is_js_whitespace);
        let end_text = spec[dash + 1..].trim_matches(super::is_js_whitespace);
        // `None` is NaN, which every later step keeps and which ends it.
        let (start, end) = match (start_text.is_empty(), end_text.is_empty()) {
            (true, _) => (parse_pos(end_text).map(|n| size - n), Some(size - 1)),
            (false, true) => (parse_pos(start_text), Some(size - 1)),
            (false, false) => (parse_pos(start_text), parse_pos(end_text)),
        };
        let (Some(start), Some(end)) = (start, end.map(|e| e.min(size - 1))) else {
            return ParsedRange::Malformed;
        };
        if start > end || start < 0 {
            continue;
        }
        // Both lie in 0..size here, so they fit.
        ranges.push(ByteRange {
            start: start as u64,
            end: end as u64,
        });
    }
    if ranges.is_empty() {
        return ParsedRange::Unsatisfiable;
    }
    if combine {
        ranges = combine_ranges(ranges);
    }
    ParsedRange::Ranges {
        unit: header[..eq].to_owned(),
        ranges,
    }
}

/// range-parser 1.3's `parsePos`: `/^\d+$/` (ASCII digits) as a number,
/// else NaN (`None`). Saturates as [`parse_int`] does.
fn parse_pos(s: &str) -> Option<i128> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    const CAP: i128 = 1 << 100;
    Some(
        s.bytes()
            .fold(0i128, |n, b| (n * 10 + i128::from(b - b'0')).min(CAP)),
    )
}

/// JavaScript's `parseInt(s, 10)`: leading white space, an optional sign,
/// then as many digits as there are; `None` (NaN) without a digit. Values
/// past what a range can hold saturate, which keeps every comparison's
/// outcome.
fn parse_int(s: &str) -> Option<i128> {
    let s = s.trim_start_matches(super::is_js_whitespace);
    let (negative, digits) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let len = digits.bytes().take_while(u8::is_ascii_digit).count();
    if len == 0 {
        return None;
    }
    const CAP: i128 = 1 << 100;
    let mut n: i128 = 0;
    for b in digits[..len].bytes() {
        n = (n * 10 + i128::from(b - b'0')).min(CAP);
    }
    Some(if negative { -n } else { n })
}

/// range-parser's `combineRanges`: sorted by start, merged where they touch
/// or overlap, then put back in the order of each group's first range.
fn combine_ranges(ranges: Vec<ByteRange>) -> Vec<ByteRange> {
    let mut ordered: Vec<(ByteRange, usize)> = ranges.into_iter().zip(0..).collect();
    // Stable, as V8's sort is.
    crate::sort::sort_by_key(&mut ordered, |(r, _)| r.start);
    let mut merged: Vec<(ByteRange, usize)> = Vec::with_capacity(ordered.len());
    for (range, index) in ordered {
        match merged.last_mut() {
            Some((current, current_index)) if range.start <= current.end + 1 => {
                if range.end > current.end {
                    current.end = range.end;
                    *current_index = (*current_index).min(index);
                }
            }
            _ => merged.push((range, index)),
        }
    }
    crate::sort::sort_by_key(&mut merged, |(_, index)| *index);
    merged.into_iter().map(|(r, _)| r).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ranges(size: u64, h: &str, combine: bool) -> Vec<(u64, u64)> {
        match parse(size, h, combine) {
            ParsedRange::Ranges { ranges, .. } => ranges.iter().map(|r| (r.start, r.end)).collect(),
            other => panic!("{h}: {other:?}"),
        }
    }

    #[test]
    fn forms_of_a_range() {
        assert_eq!(ranges(1000, "bytes=0-499", false), [(0, 499)]);
        assert_eq!(ranges(1000, "bytes=40-80", false), [(40, 80)]);
        assert_eq!(ranges(1000, "bytes=-400", false), [(600, 999)]);
        assert_eq!(ranges(1000, "bytes=400-", false), [(400, 999)]);
        assert_eq!(ranges(1000, "bytes=0-", false), [(0, 999)]);
        assert_eq!(ranges(1000, "bytes=500-2000", false), [(500, 999)]);
        assert_eq!(ranges(1000, "bytes= 1-2", false), [(1, 2)]);
        assert_eq!(ranges(1000, "bytes=+1-2", false), [(1, 2)]);
        assert_eq!(ranges(1000, "bytes=1x-2y", false), [(1, 2)]);
    }

    #[test]
    fn failures() {
        assert_eq!(parse(200, "malformed", false), ParsedRange::Malformed);
        assert_eq!(
            parse(200, "bytes=500-20", false),
            ParsedRange::Unsatisfiable
        );
        assert_eq!(
            parse(200, "bytes=500-999", false),
            ParsedRange::Unsatisfiable
        );
        assert_eq!(parse(200, "bytes=abc", false), ParsedRange::Unsatisfiable);
        assert_eq!(parse(200, "bytes=", false), ParsedRange::Unsatisfiable);
        assert_eq!(parse(200, "bytes=-2000", false), ParsedRange::Unsatisfiable);
        assert_eq!(parse(0, "bytes=0-", false), ParsedRange::Unsatisfiable);
        assert_eq!(
            parse(200, "bytes=99999999999999999999999999999999-", false),
            ParsedRange::Unsatisfiable
        );
    }

    #[test]
    fn unit_and_order_are_kept() {
        let r = parse(1000, "items=0-5,-10", false);
        let ParsedRange::Ranges { unit, ranges } = r else {
            panic!()
        };
        assert_eq!(unit, "items");
        assert_eq!(
            ranges[1],
            ByteRange {
                start: 990,
                end: 999
            }
        );
    }

    #[test]
    fn combining() {
        assert_eq!(
            ranges(150, "bytes=0-4,90-99,5-75,100-199,101-102", true),
            [(0, 75), (90, 149)]
        );
        assert_eq!(
            ranges(150, "bytes=-1,20-100,0-1,101-120", true),
            [(149, 149), (20, 120), (0, 1)]
        );
        assert_eq!(
            ranges(1000, "bytes=0-10,5-20,30-40", true),
            [(0, 20), (30, 40)]
        );
    }

    #[test]
    fn strict_refuses_any_malformed_part() {
        use ParsedRange::{Malformed, Unsatisfiable};
        for h in [
            "bytes",
            "bytes=",
            "bytes=abc",
            "bytes=0-5,x-y",
            "bytes=0x10-20",
            "bytes=1-2-3",
            "bytes=+1-2",
            "bytes=1x-2",
            "bytes=-",
            "bytes=0-5,",
            "bytes=0-1=2",
        ] {
            assert_eq!(parse_strict(1000, h, true), Malformed, "{h}");
        }
        assert_eq!(parse_strict(1000, "bytes=2000-3000", true), Unsatisfiable);
        assert_eq!(parse_strict(1000, "bytes=5-1,2000-", true), Unsatisfiable);
        assert_eq!(parse_strict(0, "bytes=0-", true), Unsatisfiable);
        assert_eq!(parse_strict(10, "bytes=-5000", true), Unsatisfiable);
        assert_eq!(
            parse_strict(10, &format!("bytes={}-", "9".repeat(400)), true),
            Unsatisfiable
        );
    }

    #[test]
    fn strict_reads_well_formed_parts_as_before() {
        let strict = |size, h: &str| -> Vec<(u64, u64)> {
            match parse_strict(size, h, false) {
                ParsedRange::Ranges { ranges, .. } => {
                    ranges.iter().map(|r| (r.start, r.end)).collect()
                }
                other => panic!("{h}: {other:?}"),
            }
        };
        assert_eq!(strict(1000, "bytes=0-499"), [(0, 499)]);
        assert_eq!(strict(1000, "bytes=-400"), [(600, 999)]);
        assert_eq!(strict(1000, "bytes=400-"), [(400, 999)]);
        assert_eq!(strict(1000, "bytes=500-2000"), [(500, 999)]);
        assert_eq!(strict(1000, "bytes=\u{a0}1 - 2\t"), [(1, 2)]);
        assert_eq!(strict(1000, "bytes=007-8"), [(7, 8)]);
        assert_eq!(strict(1000, "bytes=9-1,3-4"), [(3, 4)]);
        assert_eq!(
            parse_strict(150, "bytes=0-4,90-99,5-75,100-199,101-102", true),
            parse(150, "bytes=0-4,90-99,5-75,100-199,101-102", true)
        );
    }
}
