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
        None => super::cookie::utc_string(secs as f64 * 1000.0).map(|s| f(s.as_bytes())),
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

    #[test]
    fn agrees_with_javascript_to_utc_string_on_every_day_of_four_centuries() {
        // `utc_string` is the reference rendering of `toUTCString`.
        let mut secs = -2_208_988_800; // 1900-01-01
        while secs < 10_413_792_000 {
            // 2300-01-01
            let ms = (secs * 1000) as f64;
            assert_eq!(text(secs), crate::cookie::utc_string(ms), "{secs}");
            secs += 86_400 + 3_671;
        }
    }
}
