//! Dates and durations as morgan prints them: `Date#toUTCString`,
//! `Date#toISOString`, the CLF date, and `Number#toFixed` of milliseconds.

use std::cell::RefCell;
use std::fmt::Write as _;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use webfw_pattern::logfmt::DateFormat;

use crate::http::date::{self, MONTHS, civil};

/// A short string held inline (dates, addresses, numbers): no allocation.
#[derive(Clone, Copy)]
pub struct SmallStr {
    len: u8,
    buf: [u8; 31],
}

impl SmallStr {
    pub(crate) const fn new() -> SmallStr {
        SmallStr {
            len: 0,
            buf: [0; 31],
        }
    }

    /// The text.
    #[inline]
    pub fn as_str(&self) -> &str {
        // Only whole `&str`s and ASCII bytes are ever copied in.
        std::str::from_utf8(self.as_bytes()).unwrap_or("")
    }

    /// The text's bytes, without checking them again.
    #[inline]
    pub(crate) fn as_bytes(&self) -> &[u8] {
        &self.buf[..usize::from(self.len)]
    }

    /// The first `len` bytes of `buf`, ASCII (built in place: a fixed-size
    /// buffer is copied without a call into `memcpy`).
    #[inline]
    pub(crate) fn from_buf(buf: [u8; 31], len: usize) -> SmallStr {
        debug_assert!(buf[..len].is_ascii());
        SmallStr {
            len: len.min(buf.len()) as u8,
            buf,
        }
    }

    /// The whole buffer (bytes past the text included) and the text's length.
    #[inline]
    pub(crate) fn padded(&self) -> (&[u8; 31], usize) {
        (&self.buf, usize::from(self.len))
    }

    /// Appends an ASCII byte (dropped when full, which callers' sizes rule out).
    #[inline]
    pub(crate) fn push_ascii(&mut self, b: u8) {
        debug_assert!(b.is_ascii());
        if let Some(slot) = self.buf.get_mut(usize::from(self.len)) {
            *slot = b;
            self.len += 1;
        }
    }
}

impl std::fmt::Write for SmallStr {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let start = self.len as usize;
        let end = start + s.len();
        if end > self.buf.len() {
            return Err(std::fmt::Error);
        }
        self.buf[start..end].copy_from_slice(s.as_bytes());
        self.len = end as u8;
        Ok(())
    }
}

/// The three renderings of one second, cached per thread.
struct Second {
    /// The second, `[start, end)`: compared with the clock directly, which is
    /// cheaper than converting each reading to seconds since the epoch.
    start: SystemTime,
    end: SystemTime,
    clf: SmallStr,
    web: SmallStr,
    /// `2026-11-22T09:02:14.` (milliseconds and `Z` are appended per call).
    iso: SmallStr,
}

fn render(secs: u64) -> Second {
    let days = (secs / 86_400) as i64;
    let t = secs % 86_400;
    let (h, m, s) = (t / 3600, t / 60 % 60, t % 60);
    let (year, month, day) = civil(days);
    let mon = MONTHS[month - 1];
    let mut clf = SmallStr::new();
    let _ = write!(clf, "{day:02}/{mon}/{year}:{h:02}:{m:02}:{s:02} +0000");
    let mut web = SmallStr::new();
    let _ = i64::try_from(secs).ok().and_then(|secs| {
        date::with_utc_string(secs, |text| {
            web.write_str(std::str::from_utf8(text).unwrap_or_default())
        })
    });
    let mut iso = SmallStr::new();
    let _ = write!(iso, "{year:04}-{month:02}-{day:02}T{h:02}:{m:02}:{s:02}.");
    let start = UNIX_EPOCH + Duration::from_secs(secs);
    Second {
        start,
        end: start + Duration::from_secs(1),
        clf,
        web,
        iso,
    }
}

/// [`render`] of the second holding `now` (out of line: once a second).
#[cold]
#[inline(never)]
fn render_at(now: SystemTime) -> Second {
    render(now.duration_since(UNIX_EPOCH).unwrap_or_default().as_secs())
}

thread_local! {
    static CACHE: RefCell<Option<Second>> = const { RefCell::new(None) };
}

/// `:date[fmt]` for the instant `now`: CLF, ISO 8601 with milliseconds, or
/// RFC 1123 (`toUTCString`), all in UTC.
#[inline]
pub fn date(now: SystemTime, fmt: DateFormat) -> SmallStr {
    let pick = |sec: &Second| match fmt {
        DateFormat::Clf => sec.clf,
        DateFormat::Web => sec.web,
        DateFormat::Iso => {
            // Before the epoch the second is 1970-01-01T00:00:00 and this 0.
            let millis = now
                .duration_since(sec.start)
                .unwrap_or_default()
                .subsec_millis();
            let mut s = sec.iso;
            let _ = write!(s, "{millis:03}Z");
            s
        }
    };
    let render_now = || render_at(now);
    CACHE
        .try_with(|c| {
            let mut c = c.borrow_mut();
            if c.as_ref().is_none_or(|s| now < s.start || now >= s.end) {
                *c = Some(render_now());
            }
            c.as_ref().map(pick)
        })
        .ok()
        .flatten()
        .unwrap_or_else(|| pick(&render_now()))
}

/// Milliseconds of a duration as morgan computes them from `hrtime`.
pub fn millis(d: Duration) -> f64 {
    d.as_secs() as f64 * 1e3 + f64::from(d.subsec_nanos()) * 1e-6
}

/// JavaScript's `x.toFixed(digits)` for a finite `x` below 1e21: exact
/// decimal rounding where a tie goes to the larger magnitude (Rust's
/// formatting rounds ties to even).
pub fn to_fixed(x: f64, digits: u8, out: &mut impl std::fmt::Write) {
    let d = usize::from(digits);
    let neg = x < 0.0;
    let ax = x.abs();
    if is_tie(ax, d) {
        // The exact value has d+1 decimals ending in 5: print them, drop the
        // 5 and round the rest up.
        let mut s = format!("{ax:.*}", d + 1);
        s.pop();
        if s.ends_with('.') {
            s.pop();
        }
        let mut bytes = s.into_bytes();
        let mut i = bytes.len();
        loop {
            if i == 0 {
                bytes.insert(0, b'1');
                break;
            }
            i -= 1;
            match bytes[i] {
                b'.' => continue,
                b'9' => bytes[i] = b'0',
                b => {
                    bytes[i] = b + 1;
                    break;
                }
            }
        }
        if neg {
            let _ = out.write_char('-');
        }
        let _ = out.write_str(std::str::from_utf8(&bytes).unwrap_or("0"));
        return;
    }
    if neg && format!("{ax:.d$}").bytes().all(|b| b == b'0' || b == b'.') {
        // (-0.0001).toFixed(2) is "-0.00" in JavaScript too: keep the sign.
        let _ = write!(out, "-{ax:.d$}");
        return;
    }
    let _ = write!(out, "{x:.d$}");
}

/// Whether `x * 10^d` lies exactly halfway between two integers.
fn is_tie(x: f64, d: usize) -> bool {
    if x == 0.0 || !x.is_finite() {
        return false;
    }
    let bits = x.to_bits();
    let exp_bits = ((bits >> 52) & 0x7ff) as i32;
    let frac = bits & ((1u64 << 52) - 1);
    let (mant, exp) = if exp_bits == 0 {
        (frac, -1074)
    } else {
        (frac | (1u64 << 52), exp_bits - 1075)
    };
    // x = mant * 2^exp; with mant made odd, x * 10^d * 2 is an odd integer
    // exactly when the exponent is -(d + 1).
    let tz = mant.trailing_zeros() as i32;
    exp + tz == -(d as i32 + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixed(x: f64, d: u8) -> String {
        let mut s = String::new();
        to_fixed(x, d, &mut s);
        s
    }

    #[test]
    fn to_fixed_matches_javascript() {
        // Values checked against Node 20.
        assert_eq!(fixed(0.5, 0), "1");
        assert_eq!(fixed(1.5, 0), "2");
        assert_eq!(fixed(2.5, 0), "3");
        assert_eq!(fixed(0.125, 2), "0.13");
        assert_eq!(fixed(0.375, 2), "0.38");
        assert_eq!(fixed(1.005, 2), "1.00");
        assert_eq!(fixed(1.45, 1), "1.4");
        assert_eq!(fixed(7.151_234, 3), "7.151");
        assert_eq!(fixed(9.9996, 3), "10.000");
        assert_eq!(fixed(0.0, 3), "0.000");
        assert_eq!(fixed(12.0, 0), "12");
        assert_eq!(fixed(99.5, 0), "100");
        assert_eq!(fixed(0.25, 1), "0.3");
        assert_eq!(fixed(123.456, 1), "123.5");
        assert_eq!(fixed(0.1, 20), "0.10000000000000000555");
    }

    #[test]
    fn dates() {
        let t = UNIX_EPOCH + Duration::from_millis(1_795_337_442_123);
        assert_eq!(
            date(t, DateFormat::Clf).as_str(),
            "22/Nov/2026:08:50:42 +0000"
        );
        assert_eq!(
            date(t, DateFormat::Web).as_str(),
            "Sun, 22 Nov 2026 08:50:42 GMT"
        );
        assert_eq!(
            date(t, DateFormat::Iso).as_str(),
            "2026-11-22T08:50:42.123Z"
        );
        let leap = UNIX_EPOCH + Duration::from_secs(951_782_400);
        assert_eq!(
            date(leap, DateFormat::Web).as_str(),
            "Tue, 29 Feb 2000 00:00:00 GMT"
        );
        assert_eq!(
            date(UNIX_EPOCH, DateFormat::Iso).as_str(),
            "1970-01-01T00:00:00.000Z"
        );
        assert_eq!(
            date(UNIX_EPOCH, DateFormat::Web).as_str(),
            "Thu, 01 Jan 1970 00:00:00 GMT"
        );
    }

    #[test]
    fn millis_formula() {
        assert_eq!(millis(Duration::new(1, 500_000)), 1000.5);
    }
}
