//! The `maxAge` option: milliseconds, or a time string read as the `ms`
//! package reads it (`"2h"`, `"1d"`, `"500"`).

/// A `Cache-Control` max-age, kept in milliseconds and clamped to one year
/// as send does. Built from a number of milliseconds or a time string; an
/// unreadable string means 0, as in send.
///
/// ```
/// use webfw::files::MaxAge;
/// assert_eq!(MaxAge::from("2h").millis(), 7_200_000);
/// assert_eq!(MaxAge::from(5500).millis(), 5500);
/// assert_eq!(MaxAge::from("1.5 days").millis(), 129_600_000);
/// assert_eq!(MaxAge::from("soon").millis(), 0);
/// assert_eq!(MaxAge::from("10y").millis(), 31_536_000_000); // one year at most
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MaxAge(u64);

/// send's `MAX_MAXAGE`: one year of 365 days.
const MAX_MS: f64 = 365.0 * 24.0 * 3600.0 * 1000.0;

impl MaxAge {
    /// The value in milliseconds.
    ///
    /// ```
    /// assert_eq!(webfw::files::MaxAge::from("1s").millis(), 1000);
    /// ```
    pub fn millis(self) -> u64 {
        self.0
    }

    /// The whole seconds `Cache-Control: max-age=` shows.
    ///
    /// ```
    /// assert_eq!(webfw::files::MaxAge::from(5500).seconds(), 5);
    /// ```
    pub fn seconds(self) -> u64 {
        self.0 / 1000
    }

    fn clamp(ms: f64) -> MaxAge {
        if ms.is_nan() {
            return MaxAge(0);
        }
        MaxAge(ms.clamp(0.0, MAX_MS) as u64)
    }
}

impl From<u64> for MaxAge {
    fn from(ms: u64) -> Self {
        MaxAge::clamp(ms as f64)
    }
}

impl From<i32> for MaxAge {
    fn from(ms: i32) -> Self {
        MaxAge::clamp(f64::from(ms))
    }
}

impl From<std::time::Duration> for MaxAge {
    fn from(d: std::time::Duration) -> Self {
        MaxAge::clamp(d.as_millis() as f64)
    }
}

impl From<&str> for MaxAge {
    fn from(s: &str) -> Self {
        MaxAge::clamp(parse_ms(s).unwrap_or(f64::NAN))
    }
}

/// `ms(str)`: a number with an optional unit; `None` where ms gives
/// `undefined`.
fn parse_ms(s: &str) -> Option<f64> {
    if s.is_empty() || s.len() > 100 {
        return None;
    }
    let b = s.as_bytes();
    let mut i = 0;
    if b.first() == Some(&b'-') {
        i += 1;
    }
    let num_start = i;
    while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'.') {
        i += 1;
    }
    let number = &s[num_start..i];
    // `(?:\d+)?\.?\d+`: digits, at most one dot, and a digit last.
    let dots = number.bytes().filter(|&c| c == b'.').count();
    if number.is_empty() || dots > 1 || !number.ends_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let n: f64 = s[..i].parse().ok()?;
    let unit = s[i..].trim_start_matches(' ').to_ascii_lowercase();
    let factor = match unit.as_str() {
        "years" | "year" | "yrs" | "yr" | "y" => 365.25 * 86_400_000.0,
        "weeks" | "week" | "w" => 7.0 * 86_400_000.0,
        "days" | "day" | "d" => 86_400_000.0,
        "hours" | "hour" | "hrs" | "hr" | "h" => 3_600_000.0,
        "minutes" | "minute" | "mins" | "min" | "m" => 60_000.0,
        "seconds" | "second" | "secs" | "sec" | "s" => 1000.0,
        "milliseconds" | "millisecond" | "msecs" | "msec" | "ms" | "" => 1.0,
        _ => return None,
    };
    Some(n * factor)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn like_the_ms_package() {
        assert_eq!(parse_ms("100"), Some(100.0));
        assert_eq!(parse_ms("1d"), Some(86_400_000.0));
        assert_eq!(parse_ms("10 hours"), Some(36_000_000.0));
        assert_eq!(parse_ms(".5m"), Some(30_000.0));
        assert_eq!(parse_ms("-1h"), Some(-3_600_000.0));
        assert_eq!(parse_ms("1.2.3"), None);
        assert_eq!(parse_ms("1 fortnight"), None);
        assert_eq!(parse_ms("5."), None);
        assert_eq!(MaxAge::from("-1h").millis(), 0);
    }
}
