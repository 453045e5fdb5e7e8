//! bytes 3.1 `bytes.parse`, for the `limit` option.

/// `bytes.parse(value)`: `"100kb"` → 102400 (1024-based `b`, `kb`, `mb`,
/// `gb`, `tb`, `pb`, case-insensitive, fractional values floored); a plain
/// number string is taken as bytes (`parseInt`). `None` when invalid.
///
/// ```
/// use webfw::body::parse_limit;
/// assert_eq!(parse_limit("100kb"), Some(102_400));
/// assert_eq!(parse_limit("1.5mb"), Some(1_572_864));
/// assert_eq!(parse_limit("100"), Some(100));
/// assert_eq!(parse_limit("lots"), None);
/// ```
pub fn parse_limit(value: &str) -> Option<usize> {
    let v = value.trim();
    let lower = v.to_ascii_lowercase();
    // ^((-|\+)?(\d+(?:\.\d+)?)) *(kb|mb|gb|tb|pb)$
    let units: [(&str, f64); 5] = [
        ("kb", 1024.0),
        ("mb", 1024.0 * 1024.0),
        ("gb", 1024.0 * 1024.0 * 1024.0),
        ("tb", 1024f64.powi(4)),
        ("pb", 1024f64.powi(5)),
    ];
    for (unit, mult) in units {
        if let Some(num) = lower.strip_suffix(unit) {
            let num = num.trim_end_matches(' ');
            if is_decimal(num) {
                let n: f64 = num.parse().ok()?;
                return (n >= 0.0).then(|| (n * mult).floor() as usize);
            }
        }
    }
    // parseInt(value, 10)
    let digits: String = v
        .trim_start()
        .chars()
        .enumerate()
        .take_while(|&(i, c)| c.is_ascii_digit() || (i == 0 && (c == '+' || c == '-')))
        .map(|(_, c)| c)
        .collect();
    let n: i64 = digits.parse().ok()?;
    usize::try_from(n).ok()
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

#[cfg(test)]
mod tests {
    use super::parse_limit;

    #[test]
    fn units() {
        assert_eq!(parse_limit("1KB"), Some(1024));
        assert_eq!(parse_limit("2 mb"), Some(2 * 1024 * 1024));
        assert_eq!(parse_limit("100b"), Some(100));
        assert_eq!(parse_limit("0"), Some(0));
        assert_eq!(parse_limit("-5"), None);
    }
}
