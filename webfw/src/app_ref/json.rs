//! `JSON.stringify(value, replacer, spaces)` with the app's `json *` settings.

use serde::Serialize;
use serde_json::Value;

use super::settings::{Compiled, JsonSpaces, ReplacerFn};

/// Serialises `value` as `res.json` does. `Ok(None)` when the replacer
/// dropped the root value (JavaScript `undefined`: no body). Only the
/// serialising is generic; the settings are applied by [`finish`] and
/// [`with_settings`], compiled once rather than for every type an app sends.
pub(crate) fn stringify<T: Serialize + ?Sized>(
    value: &T,
    settings: &Compiled,
) -> Result<Option<String>, serde_json::Error> {
    if settings.json_replacer.is_none() && settings.json_spaces.is_none() {
        return Ok(Some(finish(compact(value)?, settings)));
    }
    with_settings(serde_json::to_value(value)?, settings)
}

/// `JSON.stringify(value)`: compact, numbers as JavaScript prints them.
fn compact<T: Serialize + ?Sized>(value: &T) -> Result<String, serde_json::Error> {
    let mut buf = Vec::with_capacity(128);
    let mut ser = serde_json::Serializer::with_formatter(
        &mut buf,
        JsNumbers(serde_json::ser::CompactFormatter),
    );
    value.serialize(&mut ser)?;
    Ok(String::from_utf8(buf).unwrap_or_default())
}

/// `json escape` on the text.
fn finish(out: String, settings: &Compiled) -> String {
    if settings.json_escape {
        escape(&out)
    } else {
        out
    }
}

/// The value through the `json replacer` and `json spaces` settings.
fn with_settings(mut v: Value, settings: &Compiled) -> Result<Option<String>, serde_json::Error> {
    if let Some(f) = &settings.json_replacer {
        match replace("", v, f) {
            Some(r) => v = r,
            None => return Ok(None),
        }
    }
    let out = match &settings.json_spaces {
        None => compact(&v)?,
        Some(sp) => pretty(&v, sp)?,
    };
    Ok(Some(finish(out, settings)))
}

/// `JSON.stringify(value)` with no settings: compact, numbers as
/// JavaScript prints them (the cookie sessions' encoding).
#[cfg(feature = "cookie-session")]
pub(crate) fn to_js_string(value: &Value) -> String {
    // Writing a `Value` to memory cannot fail.
    compact(value).unwrap_or_default()
}

/// Applies a replacer depth-first, as `JSON.stringify` does: the holder's key
/// first, then the members of whatever the replacer returned.
fn replace(key: &str, value: Value, f: &ReplacerFn) -> Option<Value> {
    let value = f(key, &value)?;
    Some(match value {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .filter_map(|(k, v)| replace(&k, v, f).map(|v| (k, v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(
            items
                .into_iter()
                .enumerate()
                .map(|(i, v)| replace(&i.to_string(), v, f).unwrap_or(Value::Null))
                .collect(),
        ),
        other => other,
    })
}

fn pretty(v: &Value, spaces: &JsonSpaces) -> Result<String, serde_json::Error> {
    let indent = match spaces {
        JsonSpaces::Width(n) => " ".repeat(*n),
        JsonSpaces::Text(t) => t.clone(),
    };
    let mut buf = Vec::new();
    let fmt = JsNumbers(serde_json::ser::PrettyFormatter::with_indent(
        indent.as_bytes(),
    ));
    let mut ser = serde_json::Serializer::with_formatter(&mut buf, fmt);
    v.serialize(&mut ser)?;
    Ok(String::from_utf8(buf).unwrap_or_default())
}

/// `json escape`: `<`, `>` and `&` as Unicode escapes (they only occur inside
/// strings in JSON text, so a plain replacement is exact).
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            c => out.push(c),
        }
    }
    out
}

/// A formatter that writes floating-point numbers as JavaScript's
/// `Number.prototype.toString` does (`10` not `10.0`, `1e+21`, `0` for `-0`).
struct JsNumbers<F>(F);

macro_rules! delegate {
    ($($name:ident($($arg:ident: $ty:ty),*);)*) => {$(
        fn $name<W: ?Sized + std::io::Write>(&mut self, w: &mut W $(, $arg: $ty)*) -> std::io::Result<()> {
            self.0.$name(w $(, $arg)*)
        }
    )*};
}

impl<F: serde_json::ser::Formatter> serde_json::ser::Formatter for JsNumbers<F> {
    fn write_f64<W: ?Sized + std::io::Write>(&mut self, w: &mut W, v: f64) -> std::io::Result<()> {
        w.write_all(js_number(v).as_bytes())
    }
    fn write_f32<W: ?Sized + std::io::Write>(&mut self, w: &mut W, v: f32) -> std::io::Result<()> {
        w.write_all(js_number(f64::from(v)).as_bytes())
    }
    delegate! {
        begin_array();
        end_array();
        begin_array_value(first: bool);
        end_array_value();
        begin_object();
        end_object();
        begin_object_key(first: bool);
        end_object_key();
        begin_object_value();
        end_object_value();
    }
}

/// JavaScript's `Number.prototype.toString` for a finite number (JSON has no
/// NaN or Infinity; serde_json writes those as `null` before we get here).
fn js_number(v: f64) -> String {
    if v == 0.0 {
        return "0".into();
    }
    let mut buf = ryu::Buffer::new();
    let shortest = buf.format_finite(v.abs());
    // Split ryu's output into significant digits and a decimal exponent `n`
    // such that the value is 0.DIGITS × 10^n.
    let (mantissa, exp) = match shortest.split_once('e') {
        Some((m, e)) => (m, e.parse::<i32>().unwrap_or(0)),
        None => (shortest, 0),
    };
    let (int_part, frac_part) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let frac_part = frac_part.trim_end_matches('0');
    let mut digits = format!("{int_part}{frac_part}");
    let mut n = int_part.len() as i32 + exp;
    let lead = digits.len() - digits.trim_start_matches('0').len();
    digits.drain(..lead);
    n -= lead as i32;
    let digits = digits.trim_end_matches('0');
    let k = digits.len() as i32;
    let mut out = String::new();
    if v < 0.0 {
        out.push('-');
    }
    if k <= n && n <= 21 {
        out.push_str(digits);
        out.extend(std::iter::repeat_n('0', (n - k) as usize));
    } else if 0 < n && n <= 21 {
        out.push_str(&digits[..n as usize]);
        out.push('.');
        out.push_str(&digits[n as usize..]);
    } else if -6 < n && n <= 0 {
        out.push_str("0.");
        out.extend(std::iter::repeat_n('0', (-n) as usize));
        out.push_str(digits);
    } else {
        out.push_str(&digits[..1]);
        if k > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        let e = n - 1;
        out.push('e');
        out.push(if e < 0 { '-' } else { '+' });
        out.push_str(&e.abs().to_string());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::js_number;

    #[test]
    fn numbers_print_as_javascript_does() {
        for (v, js) in [
            (10.0, "10"),
            (-0.0, "0"),
            (9.5, "9.5"),
            (0.1, "0.1"),
            (1e21, "1e+21"),
            (1e20, "100000000000000000000"),
            (123456789.125, "123456789.125"),
            (0.000001, "0.000001"),
            (1e-7, "1e-7"),
            (-2.5e-8, "-2.5e-8"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
            (5e-324, "5e-324"),
            (-1234.5, "-1234.5"),
        ] {
            assert_eq!(js_number(v), js, "{v}");
        }
    }
}
