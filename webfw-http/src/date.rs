//! Calendar arithmetic for the HTTP date (`Date#toUTCString`, IMF-fixdate),
//! written without `fmt`: a file response renders its `Last-Modified` on
//! every request.

/// Weekday names from the epoch's, 1970-01-01 (a Thursday).
const DAYS: [&str; 7] = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"];

#[doc(hidden)]
pub const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// Civil date (year, month 1-12, day 1-31) of a day count since 1970-01-01.
#[doc(hidden)]
pub fn civil(days: i64) -> (i64, usize, u32) {
    // H. Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as usize;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// `Sun, 06 Nov 1994 08:49:37 GMT` for a time in whole seconds since the
/// epoch; `None` for years outside 0–9999, whose text is longer.
#[doc(hidden)]
pub fn imf_fixdate(secs: i64) -> Option<[u8; 29]> {
    let days = secs.div_euclid(86_400);
    let t = secs.rem_euclid(86_400);
    let (year, month, day) = civil(days);
    if !(0..=9999).contains(&year) {
        return None;
    }
    let mut out = *b"Thu, 01 Jan 1970 00:00:00 GMT";
    out[..3].copy_from_slice(DAYS[days.rem_euclid(7) as usize].as_bytes());
    two(&mut out[5..7], day);
    out[8..11].copy_from_slice(MONTHS[month - 1].as_bytes());
    let year = year as u32;
    two(&mut out[12..14], year / 100);
    two(&mut out[14..16], year % 100);
    let t = t as u32;
    two(&mut out[17..19], t / 3600);
    two(&mut out[20..22], t / 60 % 60);
    two(&mut out[23..25], t % 60);
    Some(out)
}

/// `Date#toUTCString` of a time in whole seconds, handed to `f` as ASCII
/// bytes: the fixed buffer of [`imf_fixdate`], or JavaScript's longer text
/// for other years. `None` outside JavaScript's Date range.
#[doc(hidden)]
pub fn with_utc_string<R>(secs: i64, f: impl FnOnce(&[u8]) -> R) -> Option<R> {
    match imf_fixdate(secs) {
        Some(text) => Some(f(&text)),
        None => utc_string(secs as f64 * 1000.0).map(|s| f(s.as_bytes())),
    }
}

/// A file time as Node's `stat.mtime.getTime()`: Node adds seconds and
/// nanoseconds in a double (`mtimeMs = sec * 1e3 + nsec / 1e6`) and the
/// `Date` rounds it half up, so `.0004999` ms past a second becomes 1 ms
/// (the sum rounds to `.5` first). `send`'s ETag and Last-Modified start
/// from this value; truncating gives another ETag for about half of all files.
#[doc(hidden)]
pub fn node_mtime_ms(t: std::time::SystemTime) -> i64 {
    let (sec, nsec) = match t.duration_since(std::time::UNIX_EPOCH) {
        Ok(d) => (d.as_secs() as i64, d.subsec_nanos()),
        // libuv's timespec before 1970: a negative second, nanoseconds after it.
        Err(e) => {
            let d = e.duration();
            let sec = -(d.as_secs() as i64);
            match d.subsec_nanos() {
                0 => (sec, 0),
                n => (sec - 1, 1_000_000_000 - n),
            }
        }
    };
    let ms = sec as f64 * 1000.0 + f64::from(nsec) / 1e6;
    let floor = ms.floor();
    // Math.round: halves go up (towards +infinity), also below zero.
    (if ms - floor >= 0.5 {
        floor + 1.0
    } else {
        floor
    }) as i64
}

/// Day count since 1970-01-01 of a civil date; a day past the month's end
/// rolls over (30 February is 2 March), as JavaScript's `Date` has it;
/// `None` for a month outside 1–12 or a day outside 1–31.
#[doc(hidden)]
pub fn days_from_civil(year: i64, month: u32, day: u32) -> Option<i64> {
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return None;
    }
    // H. Hinnant's days_from_civil.
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = i64::from((month + 9) % 12);
    let doy = (153 * mp + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    Some(era * 146_097 + doe - 719_468)
}

/// A JavaScript time value's parts: day count, then hours, minutes,
/// seconds and milliseconds of that day. `None` outside the Date range
/// (±8.64e15 ms) or for NaN.
fn parts(ms: f64) -> Option<(i64, [i64; 4])> {
    if !ms.is_finite() || ms.abs() > 8.64e15 {
        return None;
    }
    let ms = ms.trunc() as i64;
    let days = ms.div_euclid(86_400_000);
    let t = ms.rem_euclid(86_400_000);
    Some((
        days,
        [t / 3_600_000, t / 60_000 % 60, t / 1000 % 60, t % 1000],
    ))
}

/// JavaScript's `Date.prototype.toUTCString` for a time in milliseconds;
/// `None` outside the Date range (±8.64e15 ms).
///
/// ```
/// use webfw_http::date::utc_string;
/// assert_eq!(utc_string(1.0).unwrap(), "Thu, 01 Jan 1970 00:00:00 GMT");
/// assert_eq!(utc_string(-62_198_755_200_000.0).unwrap(), "Fri, 01 Jan -0001 00:00:00 GMT");
/// ```
pub fn utc_string(ms: f64) -> Option<String> {
    let (days, [h, m, s, _]) = parts(ms)?;
    let (year, month, day) = civil(days);
    let year = if year < 0 {
        format!("-{:04}", -year)
    } else {
        format!("{year:04}")
    };
    Some(format!(
        "{}, {day:02} {} {year} {h:02}:{m:02}:{s:02} GMT",
        DAYS[days.rem_euclid(7) as usize],
        MONTHS[month - 1]
    ))
}

/// JavaScript's `Date.prototype.toISOString` for a time in milliseconds
/// (`None` where JavaScript throws a `RangeError`).
///
/// ```
/// use webfw_http::date::iso_string;
/// assert_eq!(iso_string(1_764_079_073_547.0).unwrap(), "2025-11-25T13:57:53.547Z");
/// assert_eq!(iso_string(253_402_300_800_000.0).unwrap(), "+010000-01-01T00:00:00.000Z");
/// ```
pub fn iso_string(ms: f64) -> Option<String> {
    let (days, [h, m, s, milli]) = parts(ms)?;
    let (year, month, day) = civil(days);
    let year = match year {
        0..=9999 => format!("{year:04}"),
        y if y < 0 => format!("-{:06}", -y),
        y => format!("+{y:06}"),
    };
    Some(format!(
        "{year}-{month:02}-{day:02}T{h:02}:{m:02}:{s:02}.{milli:03}Z"
    ))
}

/// The time in milliseconds of an RFC 3339 date-time such as
/// [`iso_string`] writes (`2025-11-25T13:57:53.547Z`, or with an offset
/// `+01:00`); digits past the milliseconds are dropped, as `Date` does.
///
/// ```
/// use webfw_http::date::parse_iso;
/// assert_eq!(parse_iso("2025-11-25T13:57:53.547Z"), Some(1_764_079_073_547.0));
/// assert_eq!(parse_iso("2025-11-25T14:57:53+01:00"), Some(1_764_079_073_000.0));
/// assert_eq!(parse_iso("2025-02-30T00:00:00Z"), parse_iso("2025-03-02T00:00:00Z"));
/// assert_eq!(parse_iso("2025-13-01T00:00:00Z"), None);
/// ```
pub fn parse_iso(text: &str) -> Option<f64> {
    let b = text.as_bytes();
    let num = |at: usize, len: usize| -> Option<i64> {
        let digits = b.get(at..at + len)?;
        digits.iter().all(u8::is_ascii_digit).then(|| {
            digits
                .iter()
                .fold(0i64, |n, d| n * 10 + i64::from(d - b'0'))
        })
    };
    let (year, at) = match b.first()? {
        sign @ (b'+' | b'-') => {
            let y = num(1, 6)?;
            (if *sign == b'-' { -y } else { y }, 7)
        }
        _ => (num(0, 4)?, 4),
    };
    let sep = |at: usize, c: u8| (b.get(at) == Some(&c)).then_some(());
    sep(at, b'-')?;
    let month = num(at + 1, 2)?;
    sep(at + 3, b'-')?;
    let day = num(at + 4, 2)?;
    matches!(b.get(at + 6), Some(b'T' | b't' | b' ')).then_some(())?;
    let (h, m) = (num(at + 7, 2)?, num(at + 10, 2)?);
    sep(at + 9, b':')?;
    sep(at + 12, b':')?;
    let s = num(at + 13, 2)?;
    if h > 23 || m > 59 || s > 60 {
        return None;
    }
    let mut i = at + 15;
    let mut milli = 0;
    if b.get(i) == Some(&b'.') {
        let digits = b[i + 1..].iter().take_while(|d| d.is_ascii_digit()).count();
        if digits == 0 {
            return None;
        }
        for k in 0..3 {
            milli = milli * 10
                + if k < digits {
                    i64::from(b[i + 1 + k] - b'0')
                } else {
                    0
                };
        }
        i += 1 + digits;
    }
    let offset = match b.get(i..)? {
        b"Z" | b"z" => 0,
        [sign @ (b'+' | b'-'), ..] if b.len() == i + 6 && b[i + 3] == b':' => {
            let (oh, om) = (num(i + 1, 2)?, num(i + 4, 2)?);
            let o = (oh * 60 + om) * 60_000;
            if *sign == b'-' { -o } else { o }
        }
        _ => return None,
    };
    let days = days_from_civil(year, month as u32, day as u32)?;
    let ms = days * 86_400_000 + ((h * 60 + m) * 60 + s) * 1000 + milli - offset;
    Some(ms as f64)
}

fn two(out: &mut [u8], n: u32) {
    out[0] = b'0' + (n / 10) as u8;
    out[1] = b'0' + (n % 10) as u8;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(secs: i64) -> Option<String> {
        imf_fixdate(secs).map(|b| String::from_utf8(b.to_vec()).unwrap())
    }

    #[test]
    fn years_past_9999_take_javascripts_longer_text() {
        let text = with_utc_string(253_402_300_800, |b| String::from_utf8(b.to_vec())).unwrap();
        assert_eq!(text.unwrap(), "Sat, 01 Jan 10000 00:00:00 GMT");
        assert_eq!(with_utc_string(0, <[u8]>::len), Some(29));
    }

    #[test]
    fn known_dates() {
        assert_eq!(text(0).unwrap(), "Thu, 01 Jan 1970 00:00:00 GMT");
        assert_eq!(text(784_111_777).unwrap(), "Sun, 06 Nov 1994 08:49:37 GMT");
        assert_eq!(text(951_782_400).unwrap(), "Tue, 29 Feb 2000 00:00:00 GMT");
        assert_eq!(text(-1).unwrap(), "Wed, 31 Dec 1969 23:59:59 GMT");
        assert_eq!(
            text(253_402_300_799).unwrap(),
            "Fri, 31 Dec 9999 23:59:59 GMT"
        );
        assert_eq!(text(253_402_300_800), None);
        assert_eq!(
            text(-62_167_219_200).unwrap(),
            "Sat, 01 Jan 0000 00:00:00 GMT"
        );
        assert_eq!(text(-62_167_219_201), None);
    }

    /// Each case: the file time as `touch -d` set it, then what Node 20
    /// printed for `fs.statSync(f).mtime.getTime()` (`mtimeMs` in brackets).
    #[test]
    fn file_times_round_as_node_does() {
        use std::time::{Duration, UNIX_EPOCH};
        let after = |s: u64, ns: u32| UNIX_EPOCH + Duration::new(s, ns);
        let before = |s: u64, ns: u32| UNIX_EPOCH - Duration::new(s, ns);
        let cases = [
            // 2026-01-01 00:00:00.0004999 (1767225600000.5)
            (after(1_767_225_600, 499_900), 1_767_225_600_001),
            // 2026-01-01 00:00:00.0005 (1767225600000.5)
            (after(1_767_225_600, 500_000), 1_767_225_600_001),
            // 2026-01-01 00:00:00.9995 (1767225600999.5): the next second
            (after(1_767_225_600, 999_500_000), 1_767_225_601_000),
            // 2026-01-01 00:00:59.99951 (1767225659999.51)
            (after(1_767_225_659, 999_510_000), 1_767_225_660_000),
            // 2026-03-04 05:06:07.123456789 (1772600767123.4568)
            (after(1_772_600_767, 123_456_789), 1_772_600_767_123),
            // 1969-12-31 23:59:59.9995 (-0.5)
            (before(0, 500_000), 0),
            // 1969-12-31 23:59:58.5004 (-1499.6)
            (before(1, 499_600_000), -1_500),
            (UNIX_EPOCH, 0),
        ];
        for (t, want) in cases {
            assert_eq!(node_mtime_ms(t), want, "{t:?}");
        }
    }

    /// Each line as Node 20 printed it: `new Date(ms).toUTCString()`,
    /// `.toISOString()`, and `Date.parse` of the ISO text.
    #[test]
    fn the_texts_of_node_20() {
        let cases: [(f64, &str, &str); 9] = [
            (
                1.0,
                "Thu, 01 Jan 1970 00:00:00 GMT",
                "1970-01-01T00:00:00.001Z",
            ),
            (
                -62_198_755_200_000.0,
                "Fri, 01 Jan -0001 00:00:00 GMT",
                "-000001-01-01T00:00:00.000Z",
            ),
            (
                253_402_300_800_000.0,
                "Sat, 01 Jan 10000 00:00:00 GMT",
                "+010000-01-01T00:00:00.000Z",
            ),
            (
                -1.0,
                "Wed, 31 Dec 1969 23:59:59 GMT",
                "1969-12-31T23:59:59.999Z",
            ),
            (
                951_782_400_000.0,
                "Tue, 29 Feb 2000 00:00:00 GMT",
                "2000-02-29T00:00:00.000Z",
            ),
            (
                8.64e15,
                "Sat, 13 Sep 275760 00:00:00 GMT",
                "+275760-09-13T00:00:00.000Z",
            ),
            (
                -8.64e15,
                "Tue, 20 Apr -271821 00:00:00 GMT",
                "-271821-04-20T00:00:00.000Z",
            ),
            (
                -62_167_219_200_001.0,
                "Fri, 31 Dec -0001 23:59:59 GMT",
                "-000001-12-31T23:59:59.999Z",
            ),
            (
                1_000_000_000_000.9,
                "Sun, 09 Sep 2001 01:46:40 GMT",
                "2001-09-09T01:46:40.000Z",
            ),
        ];
        for (ms, utc, iso) in cases {
            assert_eq!(utc_string(ms).as_deref(), Some(utc), "{ms}");
            assert_eq!(iso_string(ms).as_deref(), Some(iso), "{ms}");
            assert_eq!(parse_iso(iso), Some(ms.trunc()), "{iso}");
        }
        assert_eq!(utc_string(8.64e15 + 1.0), None);
        assert_eq!(iso_string(f64::NAN), None);
        // Date.parse
        assert_eq!(
            parse_iso("2025-11-25T14:57:53+01:00"),
            Some(1_764_079_073_000.0)
        );
        assert_eq!(
            parse_iso("2025-11-25T13:57:53.5479Z"),
            Some(1_764_079_073_547.0)
        );
        assert_eq!(parse_iso("2025-02-30T00:00:00Z"), Some(1_740_873_600_000.0));
        assert_eq!(
            parse_iso("-000001-12-31T00:00:00.000Z"),
            Some(-62_167_305_600_000.0)
        );
        for bad in [
            "",
            "2025-11-25",
            "2025-13-01T00:00:00Z",
            "x025-11-25T13:57:53Z",
        ] {
            assert_eq!(parse_iso(bad), None, "{bad}");
        }
    }

    #[test]
    fn agrees_with_javascript_to_utc_string_on_every_day_of_four_centuries() {
        // `utc_string` is the plain rendering of `toUTCString`.
        let mut secs = -2_208_988_800; // 1900-01-01
        while secs < 10_413_792_000 {
            // 2300-01-01
            let ms = (secs * 1000) as f64;
            assert_eq!(text(secs), utc_string(ms), "{secs}");
            secs += 86_400 + 3_671;
        }
    }
}
