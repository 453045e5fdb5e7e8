//! Calendar arithmetic for the HTTP date (`Date#toUTCString`, IMF-fixdate),
//! written without `fmt`: a file response renders its `Last-Modified` on
//! every request.

/// Weekday names from the epoch's, 1970-01-01 (a Thursday).
const DAYS: [&str; 7] = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"];

pub(crate) const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// Civil date (year, month 1-12, day 1-31) of a day count since 1970-01-01.
pub(crate) fn civil(days: i64) -> (i64, usize, u32) {
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
pub(crate) fn imf_fixdate(secs: i64) -> Option<[u8; 29]> {
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
pub(crate) fn with_utc_string<R>(secs: i64, f: impl FnOnce(&[u8]) -> R) -> Option<R> {
    match imf_fixdate(secs) {
        Some(text) => Some(f(&text)),
        None => super::cookie::utc_string(secs as f64 * 1000.0).map(|s| f(s.as_bytes())),
    }
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

    #[test]
    fn agrees_with_javascript_to_utc_string_on_every_day_of_four_centuries() {
        // `utc_string` is the reference rendering of `toUTCString`.
        let mut secs = -2_208_988_800; // 1900-01-01
        while secs < 10_413_792_000 {
            // 2300-01-01
            let ms = (secs * 1000) as f64;
            assert_eq!(text(secs), crate::http::cookie::utc_string(ms), "{secs}");
            secs += 86_400 + 3_671;
        }
    }
}
