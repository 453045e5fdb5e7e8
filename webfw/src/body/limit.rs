//! The `limit` option: a byte count or a size string (bytes 3.1 `parse`).

/// bytes 3.1 `bytes.parse(value)`: a number with a unit (`kb`, `mb`, `gb`,
/// `tb`, `pb`; 1024-based, case-insensitive, spaces allowed before the
/// unit, fractions rounded down) or else `parseInt(value, 10)`: leading
/// digits, the rest ignored (`"100"` and `"100b"` are 100 bytes). `None`
/// when no number can be read, or it is negative.
pub(crate) fn parse_limit(value: &str) -> Option<usize> {
    if let Some(n) = with_unit(value) {
        return (n >= 0.0).then(|| n.floor() as usize);
    }
    parse_int(value).and_then(|n| usize::try_from(n).ok())
}

/// bytes 3.1 `bytes.parse(value)` for a string, signed and unrounded by
/// `usize`: what the compression middleware's `threshold` takes. `None`
/// where bytes returns `null`.
#[cfg(feature = "compression")]
pub(crate) fn bytes_parse(value: &str) -> Option<f64> {
    match with_unit(value) {
        Some(n) => Some(n.floor()),
        None => parse_int(value).map(|n| n as f64),
    }
}

/// `^((-|\+)?(\d+(?:\.\d+)?)) *(kb|mb|gb|tb|pb)$`, case-insensitive: the
/// value in bytes.
fn with_unit(value: &str) -> Option<f64> {
    let lower = value.to_ascii_lowercase();
    let shift = match lower.get(lower.len().checked_sub(2)?..)? {
        "kb" => 10,
        "mb" => 20,
        "gb" => 30,
        "tb" => 40,
        "pb" => 50,
        _ => return None,
    };
    let num = lower[..lower.len() - 2].trim_end_matches(' ');
    if !is_decimal(num) {
        return None;
    }
    let n: f64 = num.parse().ok()?;
    Some(n * f64::from(1u32 << (shift / 2)) * f64::from(1u32 << (shift - shift / 2)))
}

fn is_decimal(s: &str) -> bool {
    let s = s.strip_prefix(['+', '-']).unwrap_or(s);
    let (int, frac) = match s.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (s, None),
    };
    !int.is_empty()
        && int.bytes().all(|b| b.is_ascii_digit())
        && frac.is_none_or(|f| !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit()))
}

/// `parseInt(value, 10)`: optional leading whitespace and sign, then as many
/// digits as there are.
fn parse_int(value: &str) -> Option<i128> {
    let v = value.trim_start_matches(crate::http::is_js_whitespace);
    let (neg, digits) = match v.as_bytes().first() {
        Some(b'-') => (true, &v[1..]),
        Some(b'+') => (false, &v[1..]),
        _ => (false, v),
    };
    let end = digits
        .bytes()
        .position(|b| !b.is_ascii_digit())
        .unwrap_or(digits.len());
    if end == 0 {
        return None;
    }
    // Past 38 digits a byte count is absurd: saturate.
    let n = digits[..end].parse::<i128>().unwrap_or(i128::MAX);
    Some(if neg { -n } else { n })
}

/// A body parser's `limit`: a byte count (`64`, `1024usize`) or a size
/// string (`"100kb"`, `"1mb"`, read as the `bytes` package reads them).
///
/// ```
/// use webfw::body::Limit;
/// assert_eq!(Limit::from("1kb").bytes(), 1024);
/// assert_eq!(Limit::from(64).bytes(), 64);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limit(usize);

impl Limit {
    /// The limit in bytes.
    ///
    /// ```
    /// assert_eq!(webfw::body::Limit::from("2kb").bytes(), 2048);
    /// ```
    pub fn bytes(self) -> usize {
        self.0
    }
}

impl Default for Limit {
    /// body-parser's default, `"100kb"`.
    fn default() -> Self {
        Limit(100 * 1024)
    }
}

impl From<&str> for Limit {
    /// # Panics
    ///
    /// When the string is not a size, with body-parser's message
    /// (`option limit "lots" is invalid`): a configuration mistake found
    /// when the app is built.
    fn from(s: &str) -> Self {
        match parse_limit(s) {
            Some(n) => Limit(n),
            None => panic!("option limit \"{s}\" is invalid"),
        }
    }
}

impl From<usize> for Limit {
    fn from(n: usize) -> Self {
        Limit(n)
    }
}

impl From<u64> for Limit {
    fn from(n: u64) -> Self {
        Limit(usize::try_from(n).unwrap_or(usize::MAX))
    }
}

impl From<u32> for Limit {
    fn from(n: u32) -> Self {
        Limit(n as usize)
    }
}

impl From<i32> for Limit {
    /// # Panics
    ///
    /// For a negative count.
    fn from(n: i32) -> Self {
        match usize::try_from(n) {
            Ok(n) => Limit(n),
            Err(_) => panic!("option limit \"{n}\" is invalid"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_limit_as_documented() {
        assert_eq!(parse_limit("100kb"), Some(102_400));
        assert_eq!(parse_limit("1.5MB"), Some(1_572_864));
        assert_eq!(parse_limit("1 gb"), Some(1 << 30));
        assert_eq!(parse_limit("100"), Some(100));
        assert_eq!(parse_limit("50b"), Some(50));
        assert_eq!(parse_limit("lots"), None);
    }

    #[test]
    fn units_and_rounding() {
        assert_eq!(parse_limit("1KB"), Some(1024));
        assert_eq!(parse_limit("2 mb"), Some(2 * 1024 * 1024));
        assert_eq!(parse_limit("2  Mb"), Some(2 * 1024 * 1024));
        assert_eq!(parse_limit("1.0001kb"), Some(1024));
        assert_eq!(parse_limit("0.5kb"), Some(512));
        assert_eq!(parse_limit("1tb"), Some(1 << 40));
        assert_eq!(parse_limit("1pb"), Some(1 << 50));
        assert_eq!(parse_limit("+3kb"), Some(3072));
    }

    #[test]
    fn parse_int_fallback() {
        assert_eq!(parse_limit("100b"), Some(100));
        assert_eq!(parse_limit("0"), Some(0));
        assert_eq!(parse_limit(" 7kb"), Some(7));
        assert_eq!(parse_limit("1kb "), Some(1));
        assert_eq!(parse_limit("1.5b"), Some(1));
        assert_eq!(parse_limit("12abc"), Some(12));
        assert_eq!(parse_limit("-5"), None);
        assert_eq!(parse_limit("-1kb"), None);
        assert_eq!(parse_limit(""), None);
        assert_eq!(parse_limit("kb"), None);
        assert_eq!(parse_limit(".5kb"), None);
    }

    #[test]
    fn limit_conversions() {
        assert_eq!(Limit::from("100kb"), Limit::default());
        assert_eq!(Limit::from(10u64).bytes(), 10);
    }

    #[test]
    #[should_panic(expected = "option limit \"lots\" is invalid")]
    fn invalid_limit_panics_with_body_parsers_message() {
        let _ = Limit::from("lots");
    }
}
