//! Express's `trust proxy` setting and the client-address chain (`req.ip`, `req.ips`), as
//! `proxy-addr` 2.0.8 (with `forwarded` 0.2.0 and `ipaddr.js` 1.9.1) computes them.
//!
//! Addresses in `X-Forwarded-For` are arbitrary text. An entry is recognised as an address with
//! ipaddr.js's own, lenient grammar (so `2130706433`, `0x7f000001` and `0177.0.0.1` are all
//! 127.0.0.1, and `fe80::1%eth0` is an IPv6 address); anything else stays in the chain as text
//! and is trusted only by [`Trust::all`] and [`Trust::hops`].
//!
//! ```
//! use webfw::http::proxy_addr::Trust;
//! let trust = Trust::parse("loopback, 10.0.0.0/8").unwrap();
//! assert!(trust.trusts("127.0.0.1".parse().unwrap(), 0));
//! assert!(!trust.trusts("192.168.1.1".parse().unwrap(), 0));
//! ```

use super::is_js_whitespace;
use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::sync::Arc;

/// A compiled `trust proxy` setting: decides whether the address at a given hop may be trusted
/// to report the one before it.
///
/// Hop 0 is the socket peer, hop 1 the right-most `X-Forwarded-For` entry, and so on.
///
/// ```
/// use webfw::http::proxy_addr::Trust;
/// let trust = Trust::parse("loopback, 10.0.0.0/8").unwrap();
/// assert!(trust.trusts("127.0.0.1".parse().unwrap(), 0));
/// assert!(!trust.trusts("192.168.1.1".parse().unwrap(), 0));
/// ```
#[derive(Clone, Debug)]
pub struct Trust(Rule);

#[derive(Clone)]
enum Rule {
    None,
    All,
    Hops(u32),
    Subnets(Arc<[Subnet]>),
    Func(Arc<dyn Fn(IpAddr, usize) -> bool + Send + Sync>),
}

impl fmt::Debug for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rule::None => f.write_str("None"),
            Rule::All => f.write_str("All"),
            Rule::Hops(n) => f.debug_tuple("Hops").field(n).finish(),
            Rule::Subnets(s) => f.debug_tuple("Subnets").field(s).finish(),
            Rule::Func(_) => f.write_str("Func(..)"),
        }
    }
}

/// Why a `trust proxy` list was refused; the texts are proxy-addr's `TypeError` messages.
///
/// ```
/// use webfw::http::proxy_addr::{Trust, TrustError};
/// let err = Trust::list(&["10.0.0.1/33"]).unwrap_err();
/// assert_eq!(err, TrustError::InvalidRange("10.0.0.1/33".into()));
/// assert_eq!(err.to_string(), "invalid range on address: 10.0.0.1/33");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TrustError {
    /// The address part of an entry is not an IP address (`invalid IP address: <ip>`).
    InvalidIp(String),
    /// The prefix or netmask of an entry is unusable (`invalid range on address: <entry>`).
    InvalidRange(String),
}

impl fmt::Display for TrustError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrustError::InvalidIp(ip) => write!(f, "invalid IP address: {ip}"),
            TrustError::InvalidRange(entry) => write!(f, "invalid range on address: {entry}"),
        }
    }
}

impl std::error::Error for TrustError {}

impl Trust {
    /// Trusts nothing (`trust proxy` false, the default): `req.ip` is the socket address.
    ///
    /// ```
    /// use webfw::http::proxy_addr::Trust;
    /// assert!(Trust::none().is_none());
    /// ```
    pub fn none() -> Trust {
        Trust(Rule::None)
    }

    /// Trusts every hop (`trust proxy` true): `req.ip` is the left-most forwarded address.
    ///
    /// ```
    /// use webfw::http::proxy_addr::Trust;
    /// assert!(Trust::all().trusts("8.8.8.8".parse().unwrap(), 5));
    /// ```
    pub fn all() -> Trust {
        Trust(Rule::All)
    }

    /// Trusts the first `n` hops, whatever their address (`trust proxy` as a number).
    ///
    /// ```
    /// use webfw::http::proxy_addr::Trust;
    /// let one = Trust::hops(1);
    /// assert!(one.trusts("8.8.8.8".parse().unwrap(), 0));
    /// assert!(!one.trusts("8.8.8.8".parse().unwrap(), 1));
    /// ```
    pub fn hops(n: u32) -> Trust {
        Trust(Rule::Hops(n))
    }

    /// Trusts addresses in the given entries (`trust proxy` as an array).
    ///
    /// Entries are the names `loopback` (127.0.0.1/8, ::1/128), `linklocal` (169.254.0.0/16,
    /// fe80::/10) and `uniquelocal` (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, fc00::/7), an
    /// address, `address/prefix`, or IPv4 `address/dotted-netmask`. Entries are used as given
    /// (no trimming). An IPv4-mapped IPv6 address without a prefix stands for its IPv4 address.
    ///
    /// ```
    /// use webfw::http::proxy_addr::Trust;
    /// let t = Trust::list(&["loopback", "10.0.0.0/255.0.0.0"]).unwrap();
    /// assert!(t.trusts("10.1.2.3".parse().unwrap(), 0));
    /// assert_eq!(Trust::list(&["10.0.0.1/33"]).unwrap_err().to_string(),
    ///            "invalid range on address: 10.0.0.1/33");
    /// ```
    pub fn list(entries: &[&str]) -> Result<Trust, TrustError> {
        let mut subnets = Vec::with_capacity(entries.len());
        for entry in entries {
            match named_range(entry) {
                Some(names) => {
                    for name in names {
                        subnets.push(parse_notation(name)?);
                    }
                }
                None => subnets.push(parse_notation(entry)?),
            }
        }
        if subnets.is_empty() {
            return Ok(Trust::none());
        }
        Ok(Trust(Rule::Subnets(subnets.into())))
    }

    /// Trusts the entries of a comma-separated string (`trust proxy` as a string): the string is
    /// split on `,` and each piece trimmed before [`Trust::list`]. As in Express, an empty piece
    /// is an error (`invalid IP address: `).
    ///
    /// ```
    /// use webfw::http::proxy_addr::Trust;
    /// let t = Trust::parse("loopback, 2.2.2.2").unwrap();
    /// assert!(t.trusts("2.2.2.2".parse().unwrap(), 1));
    /// assert!(Trust::parse("loopback,").is_err());
    /// ```
    pub fn parse(s: &str) -> Result<Trust, TrustError> {
        let entries: Vec<&str> = s
            .split(',')
            .map(|e| e.trim_matches(is_js_whitespace))
            .collect();
        Trust::list(&entries)
    }

    /// Trusts whatever `f(address, hop)` says (`trust proxy` as a function).
    ///
    /// Forwarded entries that are not IP addresses are never trusted and `f` is not called for
    /// them (the JS callback would receive the raw text).
    ///
    /// ```
    /// use webfw::http::proxy_addr::Trust;
    /// let t = Trust::func(|addr, hop| hop == 0 && addr.is_loopback());
    /// assert!(t.trusts("127.0.0.1".parse().unwrap(), 0));
    /// assert!(!t.trusts("127.0.0.1".parse().unwrap(), 1));
    /// ```
    pub fn func(f: impl Fn(IpAddr, usize) -> bool + Send + Sync + 'static) -> Trust {
        Trust(Rule::Func(Arc::new(f)))
    }

    /// Whether the address at hop `hop` is trusted.
    ///
    /// ```
    /// use webfw::http::proxy_addr::Trust;
    /// let t = Trust::parse("loopback").unwrap();
    /// // A dual-stack socket reports IPv4 peers as IPv4-mapped IPv6 addresses.
    /// assert!(t.trusts("::ffff:127.0.0.1".parse().unwrap(), 0));
    /// ```
    pub fn trusts(&self, addr: IpAddr, hop: usize) -> bool {
        match &self.0 {
            Rule::None => false,
            Rule::All => true,
            Rule::Hops(n) => hop < *n as usize,
            Rule::Subnets(subnets) => from_std(addr).is_some_and(|ip| subnets_match(subnets, ip)),
            Rule::Func(f) => f(addr, hop),
        }
    }

    /// Whether the textual address at hop `hop` (an `X-Forwarded-For` entry) is trusted.
    ///
    /// ```
    /// use webfw::http::proxy_addr::Trust;
    /// let t = Trust::parse("loopback").unwrap();
    /// assert!(t.trusts_text("127.0.0.1", 1));
    /// assert!(!t.trusts_text("unknown", 1));
    /// assert!(Trust::all().trusts_text("unknown", 1));
    /// ```
    pub fn trusts_text(&self, addr: &str, hop: usize) -> bool {
        match &self.0 {
            Rule::None => false,
            Rule::All => true,
            Rule::Hops(n) => hop < *n as usize,
            Rule::Subnets(subnets) => parse_ip(addr).is_some_and(|ip| subnets_match(subnets, ip)),
            Rule::Func(f) => parse_ip(addr).is_some_and(|ip| f(to_std(ip), hop)),
        }
    }

    /// Whether this setting can never trust anything (so `req.ip` is always the socket address).
    ///
    /// ```
    /// use webfw::http::proxy_addr::Trust;
    /// assert!(Trust::hops(0).is_none());
    /// assert!(!Trust::hops(1).is_none());
    /// ```
    pub fn is_none(&self) -> bool {
        match &self.0 {
            Rule::None => true,
            Rule::Hops(n) => *n == 0,
            Rule::Subnets(s) => s.is_empty(),
            Rule::All | Rule::Func(_) => false,
        }
    }
}

impl Default for Trust {
    fn default() -> Trust {
        Trust::none()
    }
}

/// All addresses of a request, nearest first: the socket address (as Node prints it), then the
/// `X-Forwarded-For` entries from right to left (split on commas, spaces trimmed, empty entries
/// dropped). Entries are kept as text even when they are not addresses.
///
/// ```
/// use webfw::http::proxy_addr::all_addrs;
/// let addrs = all_addrs("127.0.0.1".parse().unwrap(), Some("1.1.1.1, 2.2.2.2"));
/// assert_eq!(addrs, ["127.0.0.1", "2.2.2.2", "1.1.1.1"]);
/// ```
pub fn all_addrs(socket: IpAddr, x_forwarded_for: Option<&str>) -> Vec<String> {
    let forwarded = x_forwarded_for.map(forwarded_entries);
    let mut addrs = Vec::with_capacity(1 + forwarded.as_ref().map_or(0, Vec::len));
    addrs.push(node_ip_string(socket));
    addrs.extend(forwarded.into_iter().flatten().map(str::to_owned));
    addrs
}

/// Computes `(req.ip, req.ips)` for a request from `socket` with the given `X-Forwarded-For`.
///
/// The chain (socket address, then forwarded entries right to left) is walked while each address
/// is trusted; it is cut right after the first untrusted one (the last address is never tested).
/// `req.ip` is the last address kept; `req.ips` the kept forwarded entries, client first.
///
/// ```
/// use webfw::http::proxy_addr::{proxy_chain, Trust};
/// let socket = "127.0.0.1".parse().unwrap();
/// let xff = Some("1.1.1.1, 2.2.2.2");
/// assert_eq!(proxy_chain(&Trust::none(), socket, xff), ("127.0.0.1".to_owned(), vec![]));
/// assert_eq!(proxy_chain(&Trust::hops(1), socket, xff),
///            ("2.2.2.2".to_owned(), vec!["2.2.2.2".to_owned()]));
/// assert_eq!(proxy_chain(&Trust::all(), socket, xff),
///            ("1.1.1.1".to_owned(), vec!["1.1.1.1".to_owned(), "2.2.2.2".to_owned()]));
/// ```
pub fn proxy_chain(trust: &Trust, socket: IpAddr, xff: Option<&str>) -> (String, Vec<String>) {
    let socket_text = node_ip_string(socket);
    let forwarded = match xff {
        Some(header) if !trust.is_none() => forwarded_entries(header),
        _ => return (socket_text, Vec::new()),
    };
    if forwarded.is_empty() || !trust.trusts(socket, 0) {
        return (socket_text, Vec::new());
    }
    // Hop i (i >= 1) is forwarded[i - 1]; keep entries while the previous hop is trusted.
    let mut kept = 1;
    while kept < forwarded.len() && trust.trusts_text(forwarded[kept - 1], kept) {
        kept += 1;
    }
    let ips: Vec<String> = forwarded[..kept]
        .iter()
        .rev()
        .map(|s| (*s).to_owned())
        .collect();
    let ip = ips.first().cloned().unwrap_or(socket_text);
    (ip, ips)
}

/// `forwarded` 0.2.0's parser: entries right to left, U+0020 trimmed, empty entries dropped.
fn forwarded_entries(header: &str) -> Vec<&str> {
    header
        .rsplit(',')
        .map(|e| e.trim_matches(' '))
        .filter(|e| !e.is_empty())
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Subnets and matching (proxy-addr 2.0.8)
// ---------------------------------------------------------------------------------------------

/// An address as ipaddr.js models it; IPv6 zone ids play no part in matching, so none is kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ip {
    V4(u32),
    V6(u128),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Subnet {
    ip: Ip,
    prefix: u32,
}

fn named_range(name: &str) -> Option<&'static [&'static str]> {
    match name {
        "loopback" => Some(&["127.0.0.1/8", "::1/128"]),
        "linklocal" => Some(&["169.254.0.0/16", "fe80::/10"]),
        "uniquelocal" => Some(&["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"]),
        _ => None,
    }
}

/// proxy-addr's `parseipNotation`.
fn parse_notation(note: &str) -> Result<Subnet, TrustError> {
    let (addr, range) = match note.rfind('/') {
        Some(i) => (&note[..i], Some(&note[i + 1..])),
        None => (note, None),
    };
    let mut ip = parse_ip(addr).ok_or_else(|| TrustError::InvalidIp(addr.to_owned()))?;
    if range.is_none() {
        ip = canonical(ip);
    }
    let max = match ip {
        Ip::V4(_) => 32,
        Ip::V6(_) => 128,
    };
    let prefix = match range {
        None => Some(max),
        Some(r) if !r.is_empty() && r.bytes().all(|b| b.is_ascii_digit()) => {
            // Anything this long is out of range anyway; saturate instead of overflowing.
            Some(r.parse::<u32>().unwrap_or(u32::MAX))
        }
        Some(r) => match (ip, parse_ip(r)) {
            (Ip::V4(_), Some(Ip::V4(mask))) => netmask_prefix(mask),
            _ => None,
        },
    };
    match prefix {
        Some(prefix) if prefix > 0 && prefix <= max => Ok(Subnet { ip, prefix }),
        _ => Err(TrustError::InvalidRange(note.to_owned())),
    }
}

/// Prefix length of a contiguous IPv4 netmask (`255.255.255.0` ⇒ 24), `None` otherwise.
fn netmask_prefix(mask: u32) -> Option<u32> {
    let inverted = !mask;
    // A valid mask's inverse is 2^k - 1.
    (inverted & inverted.wrapping_add(1) == 0).then(|| mask.leading_ones())
}

fn subnets_match(subnets: &[Subnet], ip: Ip) -> bool {
    // IPv4-mapped candidates are checked as IPv4 so they cannot slip past the family guards.
    let ip = canonical(ip);
    subnets.iter().any(|subnet| subnet_matches(*subnet, ip))
}

fn subnet_matches(subnet: Subnet, ip: Ip) -> bool {
    match (ip, subnet.ip) {
        (Ip::V4(a), Ip::V4(net)) => prefix_eq32(a, net, subnet.prefix),
        // An IPv6 subnet spans IPv4 only when it is mapped and its prefix covers `::ffff:`.
        (Ip::V4(a), Ip::V6(net)) => {
            subnet.prefix >= 96 && is_mapped(net) && prefix_eq128(mapped(a), net, subnet.prefix)
        }
        (Ip::V6(_), Ip::V4(_)) => false,
        // A native IPv6 candidate never matches a mapped subnet.
        (Ip::V6(a), Ip::V6(net)) => !is_mapped(net) && prefix_eq128(a, net, subnet.prefix),
    }
}

fn prefix_eq32(a: u32, b: u32, prefix: u32) -> bool {
    let mask = u32::MAX.checked_shl(32 - prefix.min(32)).unwrap_or(0);
    a & mask == b & mask
}

fn prefix_eq128(a: u128, b: u128, prefix: u32) -> bool {
    let mask = u128::MAX.checked_shl(128 - prefix.min(128)).unwrap_or(0);
    a & mask == b & mask
}

const MAPPED_PREFIX: u128 = 0xffff << 32;

fn is_mapped(v6: u128) -> bool {
    v6 >> 32 == 0xffff
}

fn mapped(v4: u32) -> u128 {
    MAPPED_PREFIX | u128::from(v4)
}

fn canonical(ip: Ip) -> Ip {
    match ip {
        // Truncation keeps exactly the low 32 bits, the embedded IPv4 address.
        Ip::V6(v6) if is_mapped(v6) => Ip::V4(v6 as u32),
        other => other,
    }
}

fn from_std(addr: IpAddr) -> Option<Ip> {
    match addr {
        IpAddr::V4(v4) => Some(Ip::V4(u32::from(v4))),
        // Node prints `::a.b.c.d` for these and ipaddr.js cannot read that back.
        IpAddr::V6(v6) if prints_as_compat_ipv4(&v6) => None,
        IpAddr::V6(v6) => Some(Ip::V6(u128::from(v6))),
    }
}

fn to_std(ip: Ip) -> IpAddr {
    match ip {
        Ip::V4(v4) => IpAddr::V4(Ipv4Addr::from(v4)),
        Ip::V6(v6) => IpAddr::V6(Ipv6Addr::from(v6)),
    }
}

// ---------------------------------------------------------------------------------------------
// ipaddr.js 1.9.1 parsing (`isValid` + `parse`)
// ---------------------------------------------------------------------------------------------

/// Parses `s` exactly as far as ipaddr.js 1.9.1 accepts it; `None` where `isValid` is false.
fn parse_ip(s: &str) -> Option<Ip> {
    if s.contains(':') {
        // IPv6 is tried first; IPv4 forms never contain `:`.
        return parse_v6(s).map(Ip::V6);
    }
    parse_v4(s).map(Ip::V4)
}

/// `fourOctet` (`a.b.c.d`) or `longValue` (one 32-bit number), each part decimal, octal
/// (leading `0`) or hex (`0x`).
fn parse_v4(s: &str) -> Option<u32> {
    if !s.contains('.') {
        let value = parse_v4_part(s)?;
        return u32::try_from(value).ok();
    }
    let mut out: u32 = 0;
    let mut count = 0;
    for part in s.split('.') {
        count += 1;
        if count > 4 {
            return None;
        }
        let octet = u8::try_from(parse_v4_part(part)?).ok()?;
        out = out << 8 | u32::from(octet);
    }
    (count == 4).then_some(out)
}

/// One `(0?\d+|0x[a-f0-9]+)` part (case-insensitive) read with ipaddr.js's `parseIntAuto`.
fn parse_v4_part(part: &str) -> Option<u64> {
    let b = part.as_bytes();
    let decimal = !b.is_empty() && b.iter().all(u8::is_ascii_digit);
    let hex = b.len() > 2
        && b[0] == b'0'
        && (b[1] == b'x' || b[1] == b'X')
        && b[2..].iter().all(u8::is_ascii_hexdigit);
    if !decimal && !hex {
        return None;
    }
    if b[0] == b'0' && b[1..].first() != Some(&b'x') {
        // `parseInt(part, 8)` reads the leading octal digits only (`08` is 0, `0X1F` is 0).
        Some(read_digits(
            b.iter().take_while(|c| (b'0'..=b'7').contains(*c)),
            8,
        ))
    } else if hex {
        Some(read_digits(&b[2..], 16))
    } else {
        Some(read_digits(b, 10))
    }
}

/// Value of ASCII digits in `radix`, saturating (anything that large is rejected anyway).
fn read_digits<'a>(digits: impl IntoIterator<Item = &'a u8>, radix: u32) -> u64 {
    digits.into_iter().fold(0u64, |acc, &d| {
        let digit = char::from(d).to_digit(radix).map_or(0, u64::from);
        acc.saturating_mul(u64::from(radix)).saturating_add(digit)
    })
}

/// ipaddr.js's `native` and `transitional` IPv6 forms, with an optional `%zone` of ASCII letters
/// and digits.
fn parse_v6(s: &str) -> Option<u128> {
    let (body, zone) = match s.find('%') {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    };
    if zone.is_some_and(|z| z.is_empty() || !z.bytes().all(|b| b.is_ascii_alphanumeric())) {
        return None;
    }
    let parts = if body.contains('.') {
        parse_v6_transitional(body)?
    } else {
        if !body.bytes().all(|b| b == b':' || b.is_ascii_hexdigit()) {
            return None;
        }
        // The pattern cannot start with a lone `:`.
        if body.starts_with(':') && !body.starts_with("::") {
            return None;
        }
        expand_v6(body, 8)?
    };
    if parts.len() != 8 {
        return None;
    }
    parts.iter().try_fold(0u128, |acc, part| {
        let group = u16::try_from((*part)?).ok()?;
        Some(acc << 16 | u128::from(group))
    })
}

/// `hex:hex:…:a.b.c.d`: groups (`(h::?)+` or `::(h::?)*`) then a dotted quad whose parts are
/// decimal or `0x` hex (no octal here) and each at most 255.
fn parse_v6_transitional(body: &str) -> Option<Vec<Option<u64>>> {
    let colon = body.rfind(':')?;
    let (groups, quad) = (&body[..=colon], &body[colon + 1..]);
    if !valid_transitional_groups(groups) {
        return None;
    }
    let mut octets = [0u64; 4];
    let mut count = 0;
    for part in quad.split('.') {
        if count == 4 {
            return None;
        }
        let b = part.as_bytes();
        let value = if !b.is_empty() && b.iter().all(u8::is_ascii_digit) {
            read_digits(b, 10)
        } else if b.len() > 2
            && b[0] == b'0'
            && (b[1] | 0x20) == b'x'
            && b[2..].iter().all(u8::is_ascii_hexdigit)
        {
            read_digits(&b[2..], 16)
        } else {
            return None;
        };
        if value > 255 {
            return None;
        }
        octets[count] = value;
        count += 1;
    }
    if count != 4 {
        return None;
    }
    // The groups lose their final `:` before expansion, as in ipaddr.js.
    let mut parts = expand_v6(&groups[..groups.len() - 1], 6)?;
    parts.push(Some(octets[0] << 8 | octets[1]));
    parts.push(Some(octets[2] << 8 | octets[3]));
    Some(parts)
}

/// Hex runs separated by runs of one or two colons, ending in a colon; a leading colon run
/// must be exactly `::`.
fn valid_transitional_groups(groups: &str) -> bool {
    groups.bytes().all(|c| c == b':' || c.is_ascii_hexdigit())
        && groups.ends_with(':')
        && (!groups.starts_with(':') || groups.starts_with("::"))
        && !groups.contains(":::")
}

/// ipaddr.js's `expandIPv6`: fills the single `::` with zero groups up to `wanted` groups, then
/// reads each group as hex. `None` for a repeated `::` or too many colons; a `None` group is
/// JavaScript's `NaN` (an empty group), which later fails validation.
fn expand_v6(s: &str, wanted: usize) -> Option<Vec<Option<u64>>> {
    if s.find("::") != s.rfind("::") {
        return None;
    }
    let mut colons = s.matches(':').count();
    if s.starts_with("::") {
        colons -= 1;
    }
    if s.ends_with("::") {
        colons = colons.saturating_sub(1);
    }
    if colons > wanted {
        return None;
    }
    let mut filled = String::with_capacity(s.len() + 2 * wanted + 1);
    match s.find("::") {
        Some(i) => {
            filled.push_str(&s[..i]);
            filled.push(':');
            for _ in 0..wanted - colons {
                filled.push_str("0:");
            }
            filled.push_str(&s[i + 2..]);
        }
        None => filled.push_str(s),
    }
    let mut t = filled.as_str();
    t = t.strip_prefix(':').unwrap_or(t);
    t = t.strip_suffix(':').unwrap_or(t);
    Some(
        t.split(':')
            .map(|g| (!g.is_empty()).then(|| read_digits(g.as_bytes(), 16)))
            .collect(),
    )
}

// ---------------------------------------------------------------------------------------------
// Node's text for socket addresses
// ---------------------------------------------------------------------------------------------

/// `socket.remoteAddress` as Node (libuv `inet_ntop`) prints it: RFC 5952-style compression,
/// lowercase hex, `::ffff:a.b.c.d` for mapped and `::a.b.c.d` for IPv4-compatible addresses.
fn node_ip_string(addr: IpAddr) -> String {
    match addr {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => node_ipv6_string(&v6),
    }
}

/// Longest run of at least two zero groups (first one on ties), as `(start, len)`.
fn longest_zero_run(words: &[u16; 8]) -> Option<(usize, usize)> {
    let mut best: Option<(usize, usize)> = None;
    let mut i = 0;
    while i < 8 {
        if words[i] == 0 {
            let start = i;
            while i < 8 && words[i] == 0 {
                i += 1;
            }
            let len = i - start;
            if len >= 2 && best.is_none_or(|(_, l)| len > l) {
                best = Some((start, len));
            }
        } else {
            i += 1;
        }
    }
    best
}

fn prints_as_compat_ipv4(v6: &Ipv6Addr) -> bool {
    let words = v6.segments();
    matches!(longest_zero_run(&words), Some((0, 6)))
}

fn node_ipv6_string(v6: &Ipv6Addr) -> String {
    use std::fmt::Write as _;
    let words = v6.segments();
    let best = longest_zero_run(&words);
    let mut out = String::with_capacity(39);
    let mut i = 0;
    while i < 8 {
        if let Some((start, len)) = best
            && i == start
        {
            out.push(':');
            i += len;
            if i == 8 {
                out.push(':');
            }
            continue;
        }
        if i != 0 {
            out.push(':');
        }
        // libuv prints the last 32 bits dotted for IPv4-compatible and IPv4-mapped addresses.
        let embeds_ipv4 =
            i == 6 && (best == Some((0, 6)) || (best == Some((0, 5)) && words[5] == 0xffff));
        if embeds_ipv4 {
            let [.., a, b, c, d] = v6.octets();
            let _ = write!(out, "{a}.{b}.{c}.{d}");
            break;
        }
        let _ = write!(out, "{:x}", words[i]);
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    fn chain(trust: &Trust, socket: &str, xff: Option<&str>) -> (String, Vec<String>) {
        proxy_chain(trust, ip(socket), xff)
    }

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn reference_examples_for_each_trust_setting() {
        let xff = Some("1.1.1.1, 2.2.2.2");
        let both = strings(&["1.1.1.1", "2.2.2.2"]);
        let last = strings(&["2.2.2.2"]);
        assert_eq!(
            chain(&Trust::none(), "127.0.0.1", xff),
            ("127.0.0.1".into(), vec![])
        );
        assert_eq!(
            chain(&Trust::hops(1), "127.0.0.1", xff),
            ("2.2.2.2".into(), last.clone())
        );
        assert_eq!(
            chain(&Trust::hops(2), "127.0.0.1", xff),
            ("1.1.1.1".into(), both.clone())
        );
        assert_eq!(
            chain(&Trust::all(), "127.0.0.1", xff),
            ("1.1.1.1".into(), both.clone())
        );
        let listed = Trust::parse("loopback, 2.2.2.2").unwrap();
        assert_eq!(chain(&listed, "127.0.0.1", xff), ("1.1.1.1".into(), both));
        let loopback = Trust::parse("loopback").unwrap();
        assert_eq!(chain(&loopback, "127.0.0.1", xff), ("2.2.2.2".into(), last));
    }

    /// Rows produced by Express 4.22.3 `compileTrust` + proxy-addr 2.0.8 on Node 20:
    /// (setting, socket address, X-Forwarded-For, req.ip, req.ips).
    #[test]
    fn chains_match_express_for_settings_sockets_and_headers() {
        #[allow(clippy::type_complexity)]
        let rows: Vec<(Trust, &str, Option<&str>, &str, &[&str])> = vec![
            (Trust::none(), "127.0.0.1", None, "127.0.0.1", &[]),
            (
                Trust::none(),
                "127.0.0.1",
                Some("1.1.1.1, 2.2.2.2"),
                "127.0.0.1",
                &[],
            ),
            (
                Trust::none(),
                "127.0.0.1",
                Some(" , 1.1.1.1 ,, 2.2.2.2 ,"),
                "127.0.0.1",
                &[],
            ),
            (
                Trust::none(),
                "127.0.0.1",
                Some("unknown, 10.0.0.2"),
                "127.0.0.1",
                &[],
            ),
            (
                Trust::none(),
                "127.0.0.1",
                Some("1.1.1.1, unknown"),
                "127.0.0.1",
                &[],
            ),
            (
                Trust::none(),
                "127.0.0.1",
                Some("a b,  c  "),
                "127.0.0.1",
                &[],
            ),
            (
                Trust::none(),
                "127.0.0.1",
                Some("3.3.3.3, 127.0.0.1, 10.0.0.9"),
                "127.0.0.1",
                &[],
            ),
            (
                Trust::none(),
                "::ffff:127.0.0.1",
                None,
                "::ffff:127.0.0.1",
                &[],
            ),
            (
                Trust::none(),
                "::ffff:127.0.0.1",
                Some("1.1.1.1, 2.2.2.2"),
                "::ffff:127.0.0.1",
                &[],
            ),
            (
                Trust::none(),
                "::ffff:127.0.0.1",
                Some(" , 1.1.1.1 ,, 2.2.2.2 ,"),
                "::ffff:127.0.0.1",
                &[],
            ),
            (
                Trust::none(),
                "::ffff:127.0.0.1",
                Some("unknown, 10.0.0.2"),
                "::ffff:127.0.0.1",
                &[],
            ),
            (
                Trust::none(),
                "::ffff:127.0.0.1",
                Some("1.1.1.1, unknown"),
                "::ffff:127.0.0.1",
                &[],
            ),
            (
                Trust::none(),
                "::ffff:127.0.0.1",
                Some("a b,  c  "),
                "::ffff:127.0.0.1",
                &[],
            ),
            (
                Trust::none(),
                "::ffff:127.0.0.1",
                Some("3.3.3.3, 127.0.0.1, 10.0.0.9"),
                "::ffff:127.0.0.1",
                &[],
            ),
            (Trust::none(), "8.8.8.8", None, "8.8.8.8", &[]),
            (
                Trust::none(),
                "8.8.8.8",
                Some("1.1.1.1, 2.2.2.2"),
                "8.8.8.8",
                &[],
            ),
            (
                Trust::none(),
                "8.8.8.8",
                Some(" , 1.1.1.1 ,, 2.2.2.2 ,"),
                "8.8.8.8",
                &[],
            ),
            (
                Trust::none(),
                "8.8.8.8",
                Some("unknown, 10.0.0.2"),
                "8.8.8.8",
                &[],
            ),
            (
                Trust::none(),
                "8.8.8.8",
                Some("1.1.1.1, unknown"),
                "8.8.8.8",
                &[],
            ),
            (Trust::none(), "8.8.8.8", Some("a b,  c  "), "8.8.8.8", &[]),
            (
                Trust::none(),
                "8.8.8.8",
                Some("3.3.3.3, 127.0.0.1, 10.0.0.9"),
                "8.8.8.8",
                &[],
            ),
            (Trust::hops(1), "127.0.0.1", None, "127.0.0.1", &[]),
            (
                Trust::hops(1),
                "127.0.0.1",
                Some("1.1.1.1, 2.2.2.2"),
                "2.2.2.2",
                &["2.2.2.2"],
            ),
            (
                Trust::hops(1),
                "127.0.0.1",
                Some(" , 1.1.1.1 ,, 2.2.2.2 ,"),
                "2.2.2.2",
                &["2.2.2.2"],
            ),
            (
                Trust::hops(1),
                "127.0.0.1",
                Some("unknown, 10.0.0.2"),
                "10.0.0.2",
                &["10.0.0.2"],
            ),
            (
                Trust::hops(1),
                "127.0.0.1",
                Some("1.1.1.1, unknown"),
                "unknown",
                &["unknown"],
            ),
            (Trust::hops(1), "127.0.0.1", Some("a b,  c  "), "c", &["c"]),
            (
                Trust::hops(1),
                "127.0.0.1",
                Some("3.3.3.3, 127.0.0.1, 10.0.0.9"),
                "10.0.0.9",
                &["10.0.0.9"],
            ),
            (
                Trust::hops(1),
                "::ffff:127.0.0.1",
                None,
                "::ffff:127.0.0.1",
                &[],
            ),
            (
                Trust::hops(1),
                "::ffff:127.0.0.1",
                Some("1.1.1.1, 2.2.2.2"),
                "2.2.2.2",
                &["2.2.2.2"],
            ),
            (
                Trust::hops(1),
                "::ffff:127.0.0.1",
                Some(" , 1.1.1.1 ,, 2.2.2.2 ,"),
                "2.2.2.2",
                &["2.2.2.2"],
            ),
            (
                Trust::hops(1),
                "::ffff:127.0.0.1",
                Some("unknown, 10.0.0.2"),
                "10.0.0.2",
                &["10.0.0.2"],
            ),
            (
                Trust::hops(1),
                "::ffff:127.0.0.1",
                Some("1.1.1.1, unknown"),
                "unknown",
                &["unknown"],
            ),
            (
                Trust::hops(1),
                "::ffff:127.0.0.1",
                Some("a b,  c  "),
                "c",
                &["c"],
            ),
            (
                Trust::hops(1),
                "::ffff:127.0.0.1",
                Some("3.3.3.3, 127.0.0.1, 10.0.0.9"),
                "10.0.0.9",
                &["10.0.0.9"],
            ),
            (Trust::hops(1), "8.8.8.8", None, "8.8.8.8", &[]),
            (
                Trust::hops(1),
                "8.8.8.8",
                Some("1.1.1.1, 2.2.2.2"),
                "2.2.2.2",
                &["2.2.2.2"],
            ),
            (
                Trust::hops(1),
                "8.8.8.8",
                Some(" , 1.1.1.1 ,, 2.2.2.2 ,"),
                "2.2.2.2",
                &["2.2.2.2"],
            ),
            (
                Trust::hops(1),
                "8.8.8.8",
                Some("unknown, 10.0.0.2"),
                "10.0.0.2",
                &["10.0.0.2"],
            ),
            (
                Trust::hops(1),
                "8.8.8.8",
                Some("1.1.1.1, unknown"),
                "unknown",
                &["unknown"],
            ),
            (Trust::hops(1), "8.8.8.8", Some("a b,  c  "), "c", &["c"]),
            (
                Trust::hops(1),
                "8.8.8.8",
                Some("3.3.3.3, 127.0.0.1, 10.0.0.9"),
                "10.0.0.9",
                &["10.0.0.9"],
            ),
            (Trust::hops(2), "127.0.0.1", None, "127.0.0.1", &[]),
            (
                Trust::hops(2),
                "127.0.0.1",
                Some("1.1.1.1, 2.2.2.2"),
                "1.1.1.1",
                &["1.1.1.1", "2.2.2.2"],
            ),
            (
                Trust::hops(2),
                "127.0.0.1",
                Some(" , 1.1.1.1 ,, 2.2.2.2 ,"),
                "1.1.1.1",
                &["1.1.1.1", "2.2.2.2"],
            ),
            (
                Trust::hops(2),
                "127.0.0.1",
                Some("unknown, 10.0.0.2"),
                "unknown",
                &["unknown", "10.0.0.2"],
            ),
            (
                Trust::hops(2),
                "127.0.0.1",
                Some("1.1.1.1, unknown"),
                "1.1.1.1",
                &["1.1.1.1", "unknown"],
            ),
            (
                Trust::hops(2),
                "127.0.0.1",
                Some("a b,  c  "),
                "a b",
                &["a b", "c"],
            ),
            (
                Trust::hops(2),
                "127.0.0.1",
                Some("3.3.3.3, 127.0.0.1, 10.0.0.9"),
                "127.0.0.1",
                &["127.0.0.1", "10.0.0.9"],
            ),
            (
                Trust::hops(2),
                "::ffff:127.0.0.1",
                None,
                "::ffff:127.0.0.1",
                &[],
            ),
            (
                Trust::hops(2),
                "::ffff:127.0.0.1",
                Some("1.1.1.1, 2.2.2.2"),
                "1.1.1.1",
                &["1.1.1.1", "2.2.2.2"],
            ),
            (
                Trust::hops(2),
                "::ffff:127.0.0.1",
                Some(" , 1.1.1.1 ,, 2.2.2.2 ,"),
                "1.1.1.1",
                &["1.1.1.1", "2.2.2.2"],
            ),
            (
                Trust::hops(2),
                "::ffff:127.0.0.1",
                Some("unknown, 10.0.0.2"),
                "unknown",
                &["unknown", "10.0.0.2"],
            ),
            (
                Trust::hops(2),
                "::ffff:127.0.0.1",
                Some("1.1.1.1, unknown"),
                "1.1.1.1",
                &["1.1.1.1", "unknown"],
            ),
            (
                Trust::hops(2),
                "::ffff:127.0.0.1",
                Some("a b,  c  "),
                "a b",
                &["a b", "c"],
            ),
            (
                Trust::hops(2),
                "::ffff:127.0.0.1",
                Some("3.3.3.3, 127.0.0.1, 10.0.0.9"),
                "127.0.0.1",
                &["127.0.0.1", "10.0.0.9"],
            ),
            (Trust::hops(2), "8.8.8.8", None, "8.8.8.8", &[]),
            (
                Trust::hops(2),
                "8.8.8.8",
                Some("1.1.1.1, 2.2.2.2"),
                "1.1.1.1",
                &["1.1.1.1", "2.2.2.2"],
            ),
            (
                Trust::hops(2),
                "8.8.8.8",
                Some(" , 1.1.1.1 ,, 2.2.2.2 ,"),
                "1.1.1.1",
                &["1.1.1.1", "2.2.2.2"],
            ),
            (
                Trust::hops(2),
                "8.8.8.8",
                Some("unknown, 10.0.0.2"),
                "unknown",
                &["unknown", "10.0.0.2"],
            ),
            (
                Trust::hops(2),
                "8.8.8.8",
                Some("1.1.1.1, unknown"),
                "1.1.1.1",
                &["1.1.1.1", "unknown"],
            ),
            (
                Trust::hops(2),
                "8.8.8.8",
                Some("a b,  c  "),
                "a b",
                &["a b", "c"],
            ),
            (
                Trust::hops(2),
                "8.8.8.8",
                Some("3.3.3.3, 127.0.0.1, 10.0.0.9"),
                "127.0.0.1",
                &["127.0.0.1", "10.0.0.9"],
            ),
            (Trust::hops(3), "127.0.0.1", None, "127.0.0.1", &[]),
            (
                Trust::hops(3),
                "127.0.0.1",
                Some("1.1.1.1, 2.2.2.2"),
                "1.1.1.1",
                &["1.1.1.1", "2.2.2.2"],
            ),
            (
                Trust::hops(3),
                "127.0.0.1",
                Some(" , 1.1.1.1 ,, 2.2.2.2 ,"),
                "1.1.1.1",
                &["1.1.1.1", "2.2.2.2"],
            ),
            (
                Trust::hops(3),
                "127.0.0.1",
                Some("unknown, 10.0.0.2"),
                "unknown",
                &["unknown", "10.0.0.2"],
            ),
            (
                Trust::hops(3),
                "127.0.0.1",
                Some("1.1.1.1, unknown"),
                "1.1.1.1",
                &["1.1.1.1", "unknown"],
            ),
            (
                Trust::hops(3),
                "127.0.0.1",
                Some("a b,  c  "),
                "a b",
                &["a b", "c"],
            ),
            (
                Trust::hops(3),
                "127.0.0.1",
                Some("3.3.3.3, 127.0.0.1, 10.0.0.9"),
                "3.3.3.3",
                &["3.3.3.3", "127.0.0.1", "10.0.0.9"],
            ),
            (
                Trust::hops(3),
                "::ffff:127.0.0.1",
                None,
                "::ffff:127.0.0.1",
                &[],
            ),
            (
                Trust::hops(3),
                "::ffff:127.0.0.1",
                Some("1.1.1.1, 2.2.2.2"),
                "1.1.1.1",
                &["1.1.1.1", "2.2.2.2"],
            ),
            (
                Trust::hops(3),
                "::ffff:127.0.0.1",
                Some(" , 1.1.1.1 ,, 2.2.2.2 ,"),
                "1.1.1.1",
                &["1.1.1.1", "2.2.2.2"],
            ),
            (
                Trust::hops(3),
                "::ffff:127.0.0.1",
                Some("unknown, 10.0.0.2"),
                "unknown",
                &["unknown", "10.0.0.2"],
            ),
            (
                Trust::hops(3),
                "::ffff:127.0.0.1",
                Some("1.1.1.1, unknown"),
                "1.1.1.1",
                &["1.1.1.1", "unknown"],
            ),
            (
                Trust::hops(3),
                "::ffff:127.0.0.1",
                Some("a b,  c  "),
                "a b",
                &["a b", "c"],
            ),
            (
                Trust::hops(3),
                "::ffff:127.0.0.1",
                Some("3.3.3.3, 127.0.0.1, 10.0.0.9"),
                "3.3.3.3",
                &["3.3.3.3", "127.0.0.1", "10.0.0.9"],
            ),
            (Trust::hops(3), "8.8.8.8", None, "8.8.8.8", &[]),
            (
                Trust::hops(3),
                "8.8.8.8",
                Some("1.1.1.1, 2.2.2.2"),
                "1.1.1.1",
                &["1.1.1.1", "2.2.2.2"],
            ),
            (
                Trust::hops(3),
                "8.8.8.8",
                Some(" , 1.1.1.1 ,, 2.2.2.2 ,"),
                "1.1.1.1",
                &["1.1.1.1", "2.2.2.2"],
            ),
            (
                Trust::hops(3),
                "8.8.8.8",
                Some("unknown, 10.0.0.2"),
                "unknown",
                &["unknown", "10.0.0.2"],
            ),
            (
                Trust::hops(3),
                "8.8.8.8",
                Some("1.1.1.1, unknown"),
                "1.1.1.1",
                &["1.1.1.1", "unknown"],
            ),
            (
                Trust::hops(3),
                "8.8.8.8",
                Some("a b,  c  "),
                "a b",
                &["a b", "c"],
            ),
            (
                Trust::hops(3),
                "8.8.8.8",
                Some("3.3.3.3, 127.0.0.1, 10.0.0.9"),
                "3.3.3.3",
                &["3.3.3.3", "127.0.0.1", "10.0.0.9"],
            ),
            (Trust::all(), "127.0.0.1", None, "127.0.0.1", &[]),
            (
                Trust::all(),
                "127.0.0.1",
                Some("1.1.1.1, 2.2.2.2"),
                "1.1.1.1",
                &["1.1.1.1", "2.2.2.2"],
            ),
            (
                Trust::all(),
                "127.0.0.1",
                Some(" , 1.1.1.1 ,, 2.2.2.2 ,"),
                "1.1.1.1",
                &["1.1.1.1", "2.2.2.2"],
            ),
            (
                Trust::all(),
                "127.0.0.1",
                Some("unknown, 10.0.0.2"),
                "unknown",
                &["unknown", "10.0.0.2"],
            ),
            (
                Trust::all(),
                "127.0.0.1",
                Some("1.1.1.1, unknown"),
                "1.1.1.1",
                &["1.1.1.1", "unknown"],
            ),
            (
                Trust::all(),
                "127.0.0.1",
                Some("a b,  c  "),
                "a b",
                &["a b", "c"],
            ),
            (
                Trust::all(),
                "127.0.0.1",
                Some("3.3.3.3, 127.0.0.1, 10.0.0.9"),
                "3.3.3.3",
                &["3.3.3.3", "127.0.0.1", "10.0.0.9"],
            ),
            (
                Trust::all(),
                "::ffff:127.0.0.1",
                None,
                "::ffff:127.0.0.1",
                &[],
            ),
            (
                Trust::all(),
                "::ffff:127.0.0.1",
                Some("1.1.1.1, 2.2.2.2"),
                "1.1.1.1",
                &["1.1.1.1", "2.2.2.2"],
            ),
            (
                Trust::all(),
                "::ffff:127.0.0.1",
                Some(" , 1.1.1.1 ,, 2.2.2.2 ,"),
                "1.1.1.1",
                &["1.1.1.1", "2.2.2.2"],
            ),
            (
                Trust::all(),
                "::ffff:127.0.0.1",
                Some("unknown, 10.0.0.2"),
                "unknown",
                &["unknown", "10.0.0.2"],
            ),
            (
                Trust::all(),
                "::ffff:127.0.0.1",
                Some("1.1.1.1, unknown"),
                "1.1.1.1",
                &["1.1.1.1", "unknown"],
            ),
            (
                Trust::all(),
                "::ffff:127.0.0.1",
                Some("a b,  c  "),
                "a b",
                &["a b", "c"],
            ),
            (
                Trust::all(),
                "::ffff:127.0.0.1",
                Some("3.3.3.3, 127.0.0.1, 10.0.0.9"),
                "3.3.3.3",
                &["3.3.3.3", "127.0.0.1", "10.0.0.9"],
            ),
            (Trust::all(), "8.8.8.8", None, "8.8.8.8", &[]),
            (
                Trust::all(),
                "8.8.8.8",
                Some("1.1.1.1, 2.2.2.2"),
                "1.1.1.1",
                &["1.1.1.1", "2.2.2.2"],
            ),
            (
                Trust::all(),
                "8.8.8.8",
                Some(" , 1.1.1.1 ,, 2.2.2.2 ,"),
                "1.1.1.1",
                &["1.1.1.1", "2.2.2.2"],
            ),
            (
                Trust::all(),
                "8.8.8.8",
                Some("unknown, 10.0.0.2"),
                "unknown",
                &["unknown", "10.0.0.2"],
            ),
            (
                Trust::all(),
                "8.8.8.8",
                Some("1.1.1.1, unknown"),
                "1.1.1.1",
                &["1.1.1.1", "unknown"],
            ),
            (
                Trust::all(),
                "8.8.8.8",
                Some("a b,  c  "),
                "a b",
                &["a b", "c"],
            ),
            (
                Trust::all(),
                "8.8.8.8",
                Some("3.3.3.3, 127.0.0.1, 10.0.0.9"),
                "3.3.3.3",
                &["3.3.3.3", "127.0.0.1", "10.0.0.9"],
            ),
            (
                Trust::parse("loopback, 2.2.2.2").unwrap(),
                "127.0.0.1",
                None,
                "127.0.0.1",
                &[],
            ),
            (
                Trust::parse("loopback, 2.2.2.2").unwrap(),
                "127.0.0.1",
                Some("1.1.1.1, 2.2.2.2"),
                "1.1.1.1",
                &["1.1.1.1", "2.2.2.2"],
            ),
            (
                Trust::parse("loopback, 2.2.2.2").unwrap(),
                "127.0.0.1",
                Some(" , 1.1.1.1 ,, 2.2.2.2 ,"),
                "1.1.1.1",
                &["1.1.1.1", "2.2.2.2"],
            ),
            (
                Trust::parse("loopback, 2.2.2.2").unwrap(),
                "127.0.0.1",
                Some("unknown, 10.0.0.2"),
                "10.0.0.2",
                &["10.0.0.2"],
            ),
            (
                Trust::parse("loopback, 2.2.2.2").unwrap(),
                "127.0.0.1",
                Some("1.1.1.1, unknown"),
                "unknown",
                &["unknown"],
            ),
            (
                Trust::parse("loopback, 2.2.2.2").unwrap(),
                "127.0.0.1",
                Some("a b,  c  "),
                "c",
                &["c"],
            ),
            (
                Trust::parse("loopback, 2.2.2.2").unwrap(),
                "127.0.0.1",
                Some("3.3.3.3, 127.0.0.1, 10.0.0.9"),
                "10.0.0.9",
                &["10.0.0.9"],
            ),
            (
                Trust::parse("loopback, 2.2.2.2").unwrap(),
                "::ffff:127.0.0.1",
                None,
                "::ffff:127.0.0.1",
                &[],
            ),
            (
                Trust::parse("loopback, 2.2.2.2").unwrap(),
                "::ffff:127.0.0.1",
                Some("1.1.1.1, 2.2.2.2"),
                "1.1.1.1",
                &["1.1.1.1", "2.2.2.2"],
            ),
            (
                Trust::parse("loopback, 2.2.2.2").unwrap(),
                "::ffff:127.0.0.1",
                Some(" , 1.1.1.1 ,, 2.2.2.2 ,"),
                "1.1.1.1",
                &["1.1.1.1", "2.2.2.2"],
            ),
            (
                Trust::parse("loopback, 2.2.2.2").unwrap(),
                "::ffff:127.0.0.1",
                Some("unknown, 10.0.0.2"),
                "10.0.0.2",
                &["10.0.0.2"],
            ),
            (
                Trust::parse("loopback, 2.2.2.2").unwrap(),
                "::ffff:127.0.0.1",
                Some("1.1.1.1, unknown"),
                "unknown",
                &["unknown"],
            ),
            (
                Trust::parse("loopback, 2.2.2.2").unwrap(),
                "::ffff:127.0.0.1",
                Some("a b,  c  "),
                "c",
                &["c"],
            ),
            (
                Trust::parse("loopback, 2.2.2.2").unwrap(),
                "::ffff:127.0.0.1",
                Some("3.3.3.3, 127.0.0.1, 10.0.0.9"),
                "10.0.0.9",
                &["10.0.0.9"],
            ),
            (
                Trust::parse("loopback, 2.2.2.2").unwrap(),
                "8.8.8.8",
                None,
                "8.8.8.8",
                &[],
            ),
            (
                Trust::parse("loopback, 2.2.2.2").unwrap(),
                "8.8.8.8",
                Some("1.1.1.1, 2.2.2.2"),
                "8.8.8.8",
                &[],
            ),
            (
                Trust::parse("loopback, 2.2.2.2").unwrap(),
                "8.8.8.8",
                Some(" , 1.1.1.1 ,, 2.2.2.2 ,"),
                "8.8.8.8",
                &[],
            ),
            (
                Trust::parse("loopback, 2.2.2.2").unwrap(),
                "8.8.8.8",
                Some("unknown, 10.0.0.2"),
                "8.8.8.8",
                &[],
            ),
            (
                Trust::parse("loopback, 2.2.2.2").unwrap(),
                "8.8.8.8",
                Some("1.1.1.1, unknown"),
                "8.8.8.8",
                &[],
            ),
            (
                Trust::parse("loopback, 2.2.2.2").unwrap(),
                "8.8.8.8",
                Some("a b,  c  "),
                "8.8.8.8",
                &[],
            ),
            (
                Trust::parse("loopback, 2.2.2.2").unwrap(),
                "8.8.8.8",
                Some("3.3.3.3, 127.0.0.1, 10.0.0.9"),
                "8.8.8.8",
                &[],
            ),
            (
                Trust::parse("loopback").unwrap(),
                "127.0.0.1",
                None,
                "127.0.0.1",
                &[],
            ),
            (
                Trust::parse("loopback").unwrap(),
                "127.0.0.1",
                Some("1.1.1.1, 2.2.2.2"),
                "2.2.2.2",
                &["2.2.2.2"],
            ),
            (
                Trust::parse("loopback").unwrap(),
                "127.0.0.1",
                Some(" , 1.1.1.1 ,, 2.2.2.2 ,"),
                "2.2.2.2",
                &["2.2.2.2"],
            ),
            (
                Trust::parse("loopback").unwrap(),
                "127.0.0.1",
                Some("unknown, 10.0.0.2"),
                "10.0.0.2",
                &["10.0.0.2"],
            ),
            (
                Trust::parse("loopback").unwrap(),
                "127.0.0.1",
                Some("1.1.1.1, unknown"),
                "unknown",
                &["unknown"],
            ),
            (
                Trust::parse("loopback").unwrap(),
                "127.0.0.1",
                Some("a b,  c  "),
                "c",
                &["c"],
            ),
            (
                Trust::parse("loopback").unwrap(),
                "127.0.0.1",
                Some("3.3.3.3, 127.0.0.1, 10.0.0.9"),
                "10.0.0.9",
                &["10.0.0.9"],
            ),
            (
                Trust::parse("loopback").unwrap(),
                "::ffff:127.0.0.1",
                None,
                "::ffff:127.0.0.1",
                &[],
            ),
            (
                Trust::parse("loopback").unwrap(),
                "::ffff:127.0.0.1",
                Some("1.1.1.1, 2.2.2.2"),
                "2.2.2.2",
                &["2.2.2.2"],
            ),
            (
                Trust::parse("loopback").unwrap(),
                "::ffff:127.0.0.1",
                Some(" , 1.1.1.1 ,, 2.2.2.2 ,"),
                "2.2.2.2",
                &["2.2.2.2"],
            ),
            (
                Trust::parse("loopback").unwrap(),
                "::ffff:127.0.0.1",
                Some("unknown, 10.0.0.2"),
                "10.0.0.2",
                &["10.0.0.2"],
            ),
            (
                Trust::parse("loopback").unwrap(),
                "::ffff:127.0.0.1",
                Some("1.1.1.1, unknown"),
                "unknown",
                &["unknown"],
            ),
            (
                Trust::parse("loopback").unwrap(),
                "::ffff:127.0.0.1",
                Some("a b,  c  "),
                "c",
                &["c"],
            ),
            (
                Trust::parse("loopback").unwrap(),
                "::ffff:127.0.0.1",
                Some("3.3.3.3, 127.0.0.1, 10.0.0.9"),
                "10.0.0.9",
                &["10.0.0.9"],
            ),
            (
                Trust::parse("loopback").unwrap(),
                "8.8.8.8",
                None,
                "8.8.8.8",
                &[],
            ),
            (
                Trust::parse("loopback").unwrap(),
                "8.8.8.8",
                Some("1.1.1.1, 2.2.2.2"),
                "8.8.8.8",
                &[],
            ),
            (
                Trust::parse("loopback").unwrap(),
                "8.8.8.8",
                Some(" , 1.1.1.1 ,, 2.2.2.2 ,"),
                "8.8.8.8",
                &[],
            ),
            (
                Trust::parse("loopback").unwrap(),
                "8.8.8.8",
                Some("unknown, 10.0.0.2"),
                "8.8.8.8",
                &[],
            ),
            (
                Trust::parse("loopback").unwrap(),
                "8.8.8.8",
                Some("1.1.1.1, unknown"),
                "8.8.8.8",
                &[],
            ),
            (
                Trust::parse("loopback").unwrap(),
                "8.8.8.8",
                Some("a b,  c  "),
                "8.8.8.8",
                &[],
            ),
            (
                Trust::parse("loopback").unwrap(),
                "8.8.8.8",
                Some("3.3.3.3, 127.0.0.1, 10.0.0.9"),
                "8.8.8.8",
                &[],
            ),
            (
                Trust::parse("loopback, 10.0.0.0/8").unwrap(),
                "127.0.0.1",
                None,
                "127.0.0.1",
                &[],
            ),
            (
                Trust::parse("loopback, 10.0.0.0/8").unwrap(),
                "127.0.0.1",
                Some("1.1.1.1, 2.2.2.2"),
                "2.2.2.2",
                &["2.2.2.2"],
            ),
            (
                Trust::parse("loopback, 10.0.0.0/8").unwrap(),
                "127.0.0.1",
                Some(" , 1.1.1.1 ,, 2.2.2.2 ,"),
                "2.2.2.2",
                &["2.2.2.2"],
            ),
            (
                Trust::parse("loopback, 10.0.0.0/8").unwrap(),
                "127.0.0.1",
                Some("unknown, 10.0.0.2"),
                "unknown",
                &["unknown", "10.0.0.2"],
            ),
            (
                Trust::parse("loopback, 10.0.0.0/8").unwrap(),
                "127.0.0.1",
                Some("1.1.1.1, unknown"),
                "unknown",
                &["unknown"],
            ),
            (
                Trust::parse("loopback, 10.0.0.0/8").unwrap(),
                "127.0.0.1",
                Some("a b,  c  "),
                "c",
                &["c"],
            ),
            (
                Trust::parse("loopback, 10.0.0.0/8").unwrap(),
                "127.0.0.1",
                Some("3.3.3.3, 127.0.0.1, 10.0.0.9"),
                "3.3.3.3",
                &["3.3.3.3", "127.0.0.1", "10.0.0.9"],
            ),
            (
                Trust::parse("loopback, 10.0.0.0/8").unwrap(),
                "::ffff:127.0.0.1",
                None,
                "::ffff:127.0.0.1",
                &[],
            ),
            (
                Trust::parse("loopback, 10.0.0.0/8").unwrap(),
                "::ffff:127.0.0.1",
                Some("1.1.1.1, 2.2.2.2"),
                "2.2.2.2",
                &["2.2.2.2"],
            ),
            (
                Trust::parse("loopback, 10.0.0.0/8").unwrap(),
                "::ffff:127.0.0.1",
                Some(" , 1.1.1.1 ,, 2.2.2.2 ,"),
                "2.2.2.2",
                &["2.2.2.2"],
            ),
            (
                Trust::parse("loopback, 10.0.0.0/8").unwrap(),
                "::ffff:127.0.0.1",
                Some("unknown, 10.0.0.2"),
                "unknown",
                &["unknown", "10.0.0.2"],
            ),
            (
                Trust::parse("loopback, 10.0.0.0/8").unwrap(),
                "::ffff:127.0.0.1",
                Some("1.1.1.1, unknown"),
                "unknown",
                &["unknown"],
            ),
            (
                Trust::parse("loopback, 10.0.0.0/8").unwrap(),
                "::ffff:127.0.0.1",
                Some("a b,  c  "),
                "c",
                &["c"],
            ),
            (
                Trust::parse("loopback, 10.0.0.0/8").unwrap(),
                "::ffff:127.0.0.1",
                Some("3.3.3.3, 127.0.0.1, 10.0.0.9"),
                "3.3.3.3",
                &["3.3.3.3", "127.0.0.1", "10.0.0.9"],
            ),
            (
                Trust::parse("loopback, 10.0.0.0/8").unwrap(),
                "8.8.8.8",
                None,
                "8.8.8.8",
                &[],
            ),
            (
                Trust::parse("loopback, 10.0.0.0/8").unwrap(),
                "8.8.8.8",
                Some("1.1.1.1, 2.2.2.2"),
                "8.8.8.8",
                &[],
            ),
            (
                Trust::parse("loopback, 10.0.0.0/8").unwrap(),
                "8.8.8.8",
                Some(" , 1.1.1.1 ,, 2.2.2.2 ,"),
                "8.8.8.8",
                &[],
            ),
            (
                Trust::parse("loopback, 10.0.0.0/8").unwrap(),
                "8.8.8.8",
                Some("unknown, 10.0.0.2"),
                "8.8.8.8",
                &[],
            ),
            (
                Trust::parse("loopback, 10.0.0.0/8").unwrap(),
                "8.8.8.8",
                Some("1.1.1.1, unknown"),
                "8.8.8.8",
                &[],
            ),
            (
                Trust::parse("loopback, 10.0.0.0/8").unwrap(),
                "8.8.8.8",
                Some("a b,  c  "),
                "8.8.8.8",
                &[],
            ),
            (
                Trust::parse("loopback, 10.0.0.0/8").unwrap(),
                "8.8.8.8",
                Some("3.3.3.3, 127.0.0.1, 10.0.0.9"),
                "8.8.8.8",
                &[],
            ),
            (Trust::hops(0), "127.0.0.1", None, "127.0.0.1", &[]),
            (
                Trust::hops(0),
                "127.0.0.1",
                Some("1.1.1.1, 2.2.2.2"),
                "127.0.0.1",
                &[],
            ),
            (
                Trust::hops(0),
                "127.0.0.1",
                Some(" , 1.1.1.1 ,, 2.2.2.2 ,"),
                "127.0.0.1",
                &[],
            ),
            (
                Trust::hops(0),
                "127.0.0.1",
                Some("unknown, 10.0.0.2"),
                "127.0.0.1",
                &[],
            ),
            (
                Trust::hops(0),
                "127.0.0.1",
                Some("1.1.1.1, unknown"),
                "127.0.0.1",
                &[],
            ),
            (
                Trust::hops(0),
                "127.0.0.1",
                Some("a b,  c  "),
                "127.0.0.1",
                &[],
            ),
            (
                Trust::hops(0),
                "127.0.0.1",
                Some("3.3.3.3, 127.0.0.1, 10.0.0.9"),
                "127.0.0.1",
                &[],
            ),
            (
                Trust::hops(0),
                "::ffff:127.0.0.1",
                None,
                "::ffff:127.0.0.1",
                &[],
            ),
            (
                Trust::hops(0),
                "::ffff:127.0.0.1",
                Some("1.1.1.1, 2.2.2.2"),
                "::ffff:127.0.0.1",
                &[],
            ),
            (
                Trust::hops(0),
                "::ffff:127.0.0.1",
                Some(" , 1.1.1.1 ,, 2.2.2.2 ,"),
                "::ffff:127.0.0.1",
                &[],
            ),
            (
                Trust::hops(0),
                "::ffff:127.0.0.1",
                Some("unknown, 10.0.0.2"),
                "::ffff:127.0.0.1",
                &[],
            ),
            (
                Trust::hops(0),
                "::ffff:127.0.0.1",
                Some("1.1.1.1, unknown"),
                "::ffff:127.0.0.1",
                &[],
            ),
            (
                Trust::hops(0),
                "::ffff:127.0.0.1",
                Some("a b,  c  "),
                "::ffff:127.0.0.1",
                &[],
            ),
            (
                Trust::hops(0),
                "::ffff:127.0.0.1",
                Some("3.3.3.3, 127.0.0.1, 10.0.0.9"),
                "::ffff:127.0.0.1",
                &[],
            ),
            (Trust::hops(0), "8.8.8.8", None, "8.8.8.8", &[]),
            (
                Trust::hops(0),
                "8.8.8.8",
                Some("1.1.1.1, 2.2.2.2"),
                "8.8.8.8",
                &[],
            ),
            (
                Trust::hops(0),
                "8.8.8.8",
                Some(" , 1.1.1.1 ,, 2.2.2.2 ,"),
                "8.8.8.8",
                &[],
            ),
            (
                Trust::hops(0),
                "8.8.8.8",
                Some("unknown, 10.0.0.2"),
                "8.8.8.8",
                &[],
            ),
            (
                Trust::hops(0),
                "8.8.8.8",
                Some("1.1.1.1, unknown"),
                "8.8.8.8",
                &[],
            ),
            (Trust::hops(0), "8.8.8.8", Some("a b,  c  "), "8.8.8.8", &[]),
            (
                Trust::hops(0),
                "8.8.8.8",
                Some("3.3.3.3, 127.0.0.1, 10.0.0.9"),
                "8.8.8.8",
                &[],
            ),
        ];
        for (trust, socket, xff, want_ip, want_ips) in rows {
            let got = chain(&trust, socket, xff);
            assert_eq!(
                got,
                (want_ip.to_owned(), strings(want_ips)),
                "{trust:?} {socket} {xff:?}"
            );
        }
    }

    /// Rows produced by ipaddr.js 1.9.1 (`isValid` + `parse`).
    #[test]
    fn address_text_is_read_like_ipaddr_js() {
        let rows: &[(&str, Option<Ip>)] = &[
            ("127.0.0.1", Some(Ip::V4(0x7f000001))),
            ("127.1", None),
            ("2130706433", Some(Ip::V4(0x7f000001))),
            ("0x7f000001", Some(Ip::V4(0x7f000001))),
            ("0177.0.0.1", Some(Ip::V4(0x7f000001))),
            ("08.0.0.1", Some(Ip::V4(0x00000001))),
            ("0X1F.0.0.1", Some(Ip::V4(0x00000001))),
            ("0x1F.0.0.1", Some(Ip::V4(0x1f000001))),
            ("0X1F", Some(Ip::V4(0x00000000))),
            ("4294967295", Some(Ip::V4(0xffffffff))),
            ("4294967296", None),
            ("99999999999999999999999", None),
            ("256.0.0.1", None),
            ("1.2.3.4.", None),
            ("", None),
            (".", None),
            ("1..2.3", None),
            ("::", Some(Ip::V6(0x00000000000000000000000000000000))),
            ("::1", Some(Ip::V6(0x00000000000000000000000000000001))),
            (
                "::ffff:127.0.0.1",
                Some(Ip::V6(0x00000000000000000000ffff7f000001)),
            ),
            ("::1.2.3.4", None),
            ("1::1.2.3.4", None),
            (
                "::ffff:1.2.3.4%eth0",
                Some(Ip::V6(0x00000000000000000000ffff01020304)),
            ),
            (
                "fe80::1%eth0",
                Some(Ip::V6(0xfe800000000000000000000000000001)),
            ),
            ("fe80::1%", None),
            ("fe80::1%a-b", None),
            ("fe80::1%eth0%x", None),
            (
                "1:2:3:4:5:6:7:8:",
                Some(Ip::V6(0x00010002000300040005000600070008)),
            ),
            (
                "::1:2:3:4:5:6:7:8",
                Some(Ip::V6(0x00010002000300040005000600070008)),
            ),
            (
                "1:2:3:4:5:6:7::",
                Some(Ip::V6(0x00010002000300040005000600070000)),
            ),
            (
                "1:2:3:4:5:6:7:8::",
                Some(Ip::V6(0x00010002000300040005000600070008)),
            ),
            (
                "1:2:3:4:5:6:7:8",
                Some(Ip::V6(0x00010002000300040005000600070008)),
            ),
            ("1:2:3:4:5:6:7:8:9", None),
            ("1:2:3:4:5:6:7", None),
            (":1::", None),
            ("1:::2", None),
            ("::::", None),
            ("::1:", None),
            ("12345::", None),
            (
                "0000000000001::",
                Some(Ip::V6(0x00010000000000000000000000000000)),
            ),
            ("ABCD::EF", Some(Ip::V6(0xabcd00000000000000000000000000ef))),
            (
                "1:2:3:4:5:6:1.2.3.4",
                Some(Ip::V6(0x00010002000300040005000601020304)),
            ),
            (
                "1:2:3:4:5:6:0x10.010.08.1",
                Some(Ip::V6(0x000100020003000400050006100a0801)),
            ),
            ("::ffff:1.2.3.256", None),
            (
                "1::2:3.4.5.6",
                Some(Ip::V6(0x00010000000000000000000203040506)),
            ),
            (
                "0::ffff:1.2.3.4",
                Some(Ip::V6(0x00000000000000000000ffff01020304)),
            ),
            (
                "a:b:c:d:e:f:1.2.3.4",
                Some(Ip::V6(0x000a000b000c000d000e000f01020304)),
            ),
            (
                "::ffff:0x1.2.3.4",
                Some(Ip::V6(0x00000000000000000000ffff01020304)),
            ),
            ("::ffff:1.2.3", None),
            ("::ffff:1.2.3.4.5", None),
            (":::1.2.3.4", None),
            ("::1::1.2.3.4", None),
            ("1:2:3:4:5:6:7:1.2.3.4", None),
            (" 1.2.3.4", None),
            ("1.2.3.4 ", None),
            ("unknown", None),
            ("00000000000000000000001", Some(Ip::V4(0x00000001))),
            ("0.0.0.0", Some(Ip::V4(0x00000000))),
            (
                "::ffff:127.0.0.1%1",
                Some(Ip::V6(0x00000000000000000000ffff7f000001)),
            ),
            ("1.2.3.0x", None),
            ("0x", None),
            ("1e3", None),
            ("１.2.3.4", None),
            (
                "::FFFF:7F00:1",
                Some(Ip::V6(0x00000000000000000000ffff7f000001)),
            ),
            (
                "0:0:0:0:0:ffff:127.0.0.1",
                Some(Ip::V6(0x00000000000000000000ffff7f000001)),
            ),
            (
                "::0:ffff:1.2.3.4",
                Some(Ip::V6(0x00000000000000000000ffff01020304)),
            ),
            ("::ffff::1.2.3.4", None),
            ("g::1", None),
            ("::g", None),
            ("1.2.3.4:80", None),
            ("[::1]", None),
            ("0x100000000", None),
            ("017777777777", Some(Ip::V4(0x7fffffff))),
            ("040000000000", None),
            ("0xFFFFFFFF", Some(Ip::V4(0xffffffff))),
            ("0.0.0.00x1", None),
            ("09", Some(Ip::V4(0x00000000))),
            ("0", Some(Ip::V4(0x00000000))),
            ("fe80::1%", None),
            ("::ffff:1.2.3.4%", None),
        ];
        for (text, want) in rows {
            assert_eq!(parse_ip(text), *want, "{text:?}");
        }
    }

    /// Rows produced by `proxyaddr.compile` (None = accepted).
    #[test]
    fn list_entries_are_validated_like_proxy_addr() {
        let rows: &[(&[&str], Option<&str>)] = &[
            (&["loopback"], None),
            (&["linklocal", "uniquelocal"], None),
            (
                &["10.0.0.1/33"],
                Some("invalid range on address: 10.0.0.1/33"),
            ),
            (
                &["10.0.0.1/0"],
                Some("invalid range on address: 10.0.0.1/0"),
            ),
            (&["10.0.0.1/"], Some("invalid range on address: 10.0.0.1/")),
            (
                &["10.0.0.1/abc"],
                Some("invalid range on address: 10.0.0.1/abc"),
            ),
            (&["10.0.0.1/255.255.255.0"], None),
            (
                &["10.0.0.1/255.0.255.0"],
                Some("invalid range on address: 10.0.0.1/255.0.255.0"),
            ),
            (
                &["10.0.0.1/0.0.0.0"],
                Some("invalid range on address: 10.0.0.1/0.0.0.0"),
            ),
            (&["10.0.0.1/255.255.255.255"], None),
            (&["10.0.0.1/0xffffff00"], None),
            (
                &["10.0.0.1/::"],
                Some("invalid range on address: 10.0.0.1/::"),
            ),
            (
                &["::1/255.255.255.0"],
                Some("invalid range on address: ::1/255.255.255.0"),
            ),
            (&["::1/128"], None),
            (&["::1/129"], Some("invalid range on address: ::1/129")),
            (&["::1/0128"], None),
            (
                &["::1/99999999999999999999"],
                Some("invalid range on address: ::1/99999999999999999999"),
            ),
            (&["bogus"], Some("invalid IP address: bogus")),
            (&["bogus/8"], Some("invalid IP address: bogus")),
            (&[""], Some("invalid IP address: ")),
            (&["1.2.3.4/24/5"], Some("invalid IP address: 1.2.3.4/24")),
            (&["Loopback"], Some("invalid IP address: Loopback")),
            (&[" 127.0.0.1"], Some("invalid IP address:  127.0.0.1")),
            (&["::ffff:127.0.0.1"], None),
            (&["::ffff:127.0.0.1/104"], None),
            (&["fe80::1%eth0/64"], None),
            (
                &["10.0.0.1/+8"],
                Some("invalid range on address: 10.0.0.1/+8"),
            ),
            (
                &["10.0.0.1/8 "],
                Some("invalid range on address: 10.0.0.1/8 "),
            ),
            (&["2130706433/8"], None),
        ];
        for (entries, want) in rows {
            let got = Trust::list(entries).err().map(|e| e.to_string());
            assert_eq!(got.as_deref(), *want, "{entries:?}");
        }
    }

    /// Rows produced by Express `compileTrust` on strings (None = accepted).
    #[test]
    fn string_settings_are_split_and_trimmed_like_express() {
        let rows: &[(&str, Option<&str>)] = &[
            ("loopback, 2.2.2.2", None),
            ("loopback,", Some("invalid IP address: ")),
            ("", Some("invalid IP address: ")),
            (" loopback ", None),
            ("loopback,,10.0.0.1", Some("invalid IP address: ")),
            ("\u{feff}127.0.0.1", None),
            ("10.0.0.1\u{85}", Some("invalid IP address: 10.0.0.1\u{85}")),
        ];
        for (setting, want) in rows {
            let got = Trust::parse(setting).err().map(|e| e.to_string());
            assert_eq!(got.as_deref(), *want, "{setting:?}");
        }
    }

    /// Rows produced by proxy-addr 2.0.8 compiled trust functions at hop 0.
    #[test]
    fn subnet_matching_follows_proxy_addr_family_rules() {
        let addrs: &[&str] = &[
            "127.0.0.1",
            "::1",
            "::ffff:127.0.0.1",
            "10.0.0.1",
            "::ffff:10.0.0.1",
            "::ffff:a00:1",
            "10.0.0.2",
            "::a00:1",
            "1.2.3.4",
            "::ffff:1.2.3.4",
            "fe80::1%eth0",
            "2130706433",
            "0x0a000001",
            "unknown",
            "",
            "::1.2.3.4",
            "fc00::1",
            "192.168.1.1",
            "::ffff:0:1",
        ];
        let rows: &[(&[&str], [u8; 19])] = &[
            (
                &["loopback"],
                [1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0],
            ),
            (
                &["10.0.0.1"],
                [0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0],
            ),
            (
                &["::ffff:10.0.0.1"],
                [0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0],
            ),
            (
                &["::ffff:10.0.0.0/104"],
                [0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0],
            ),
            (
                &["::ffff:0:0/96"],
                [1, 0, 1, 1, 1, 1, 1, 0, 1, 1, 0, 1, 1, 0, 0, 0, 0, 1, 1],
            ),
            (
                &["::ffff:0:0/95"],
                [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
            ),
            (
                &["::/1"],
                [0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
            ),
            (
                &["::1"],
                [0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
            ),
            (
                &["10.0.0.0/8", "::ffff:a00:0/120"],
                [0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0],
            ),
            (
                &["fe80::/10"],
                [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0],
            ),
            (
                &["0.0.0.0/1"],
                [1, 0, 1, 1, 1, 1, 1, 0, 1, 1, 0, 1, 1, 0, 0, 0, 0, 0, 1],
            ),
            (
                &["2130706433"],
                [1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0],
            ),
            (
                &["uniquelocal"],
                [0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0],
            ),
            (
                &["::/1", "10.0.0.0/8"],
                [0, 1, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0],
            ),
        ];
        for (entries, want) in rows {
            let trust = Trust::list(entries).unwrap();
            for (addr, want) in addrs.iter().zip(want) {
                assert_eq!(
                    trust.trusts_text(addr, 0),
                    *want == 1,
                    "{entries:?} {addr:?}"
                );
            }
        }
    }

    #[test]
    fn socket_text_matches_node_formatting() {
        // Pairs produced by Node 20 (`net.SocketAddress`, libuv inet_ntop).
        let rows = [
            ("::", "::"),
            ("::1", "::1"),
            ("1::", "1::"),
            ("::ffff:1.2.3.4", "::ffff:1.2.3.4"),
            ("::102:304", "::1.2.3.4"),
            ("::0.1.0.1", "::0.1.0.1"),
            ("::102", "::102"),
            ("1:0:0:1::", "1:0:0:1::"),
            ("0:0:0:0:0:1:0:0", "::1:0:0"),
            ("1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7:8"),
            ("1:0:0:2:0:0:0:3", "1:0:0:2::3"),
            ("1:0:0:2:0:0:3:0", "1::2:0:0:3:0"),
            ("fe80::abcd:ef01", "fe80::abcd:ef01"),
            ("0:0:0:0:0:ffff:0:0", "::ffff:0.0.0.0"),
            ("0:0:1:0:0:0:0:0", "0:0:1::"),
            ("0:0:0:0:ffff:0:1:2", "::ffff:0:1:2"),
            ("abcd:0:1::", "abcd:0:1::"),
            ("127.0.0.1", "127.0.0.1"),
        ];
        for (addr, want) in rows {
            assert_eq!(node_ip_string(ip(addr)), want, "{addr}");
        }
    }

    #[test]
    fn mapped_socket_address_is_trusted_as_ipv4_and_reported_as_is() {
        let trust = Trust::parse("loopback").unwrap();
        assert!(trust.trusts(ip("::ffff:127.0.0.1"), 0));
        let got = chain(&trust, "::ffff:127.0.0.1", Some("1.1.1.1"));
        assert_eq!(got, ("1.1.1.1".into(), strings(&["1.1.1.1"])));
        let got = chain(&Trust::none(), "::ffff:127.0.0.1", Some("1.1.1.1"));
        assert_eq!(got, ("::ffff:127.0.0.1".into(), vec![]));
    }

    #[test]
    fn ipv4_compatible_socket_is_untrusted_by_lists_like_node() {
        // Node reports it as `::1.2.3.4`, which ipaddr.js cannot parse.
        let trust = Trust::parse("::/1").unwrap();
        assert!(!trust.trusts(ip("::102:304"), 0));
        assert!(trust.trusts(ip("::1"), 0));
        assert_eq!(
            chain(&trust, "::102:304", Some("9.9.9.9")),
            ("::1.2.3.4".into(), vec![])
        );
    }

    #[test]
    fn ipv6_loopback_socket_is_trusted_by_loopback() {
        let trust = Trust::parse("loopback").unwrap();
        assert_eq!(
            chain(&trust, "::1", Some("1.1.1.1, 2.2.2.2")),
            ("2.2.2.2".into(), strings(&["2.2.2.2"]))
        );
    }

    #[test]
    fn non_ip_entries_stay_in_the_chain_as_text() {
        let got = chain(&Trust::all(), "127.0.0.1", Some("unknown, 10.0.0.2"));
        assert_eq!(got, ("unknown".into(), strings(&["unknown", "10.0.0.2"])));
        let loopback = Trust::parse("loopback, 10.0.0.0/8").unwrap();
        let got = chain(&loopback, "127.0.0.1", Some("1.1.1.1, unknown, 10.0.0.2"));
        assert_eq!(got, ("unknown".into(), strings(&["unknown", "10.0.0.2"])));
    }

    #[test]
    fn hop_count_larger_than_chain_takes_the_client() {
        let got = chain(&Trust::hops(10), "127.0.0.1", Some("1.1.1.1, 2.2.2.2"));
        assert_eq!(got, ("1.1.1.1".into(), strings(&["1.1.1.1", "2.2.2.2"])));
    }

    #[test]
    fn missing_or_empty_header_gives_the_socket_address() {
        for xff in [None, Some(""), Some(" , ,"), Some(" ")] {
            assert_eq!(
                chain(&Trust::all(), "10.0.0.1", xff),
                ("10.0.0.1".into(), vec![]),
                "{xff:?}"
            );
        }
    }

    #[test]
    fn forwarded_entries_trim_only_spaces() {
        let got = chain(&Trust::all(), "127.0.0.1", Some("\t1.1.1.1 , a b "));
        assert_eq!(got, ("\t1.1.1.1".into(), strings(&["\t1.1.1.1", "a b"])));
    }

    #[test]
    fn all_addrs_lists_socket_then_entries_right_to_left() {
        assert_eq!(all_addrs(ip("::ffff:10.0.0.1"), None), ["::ffff:10.0.0.1"]);
        assert_eq!(
            all_addrs(ip("127.0.0.1"), Some(" ,1.1.1.1,, x ,2.2.2.2 ")),
            ["127.0.0.1", "2.2.2.2", "x", "1.1.1.1"]
        );
    }

    #[test]
    fn function_trust_gets_addresses_and_hop_indexes() {
        let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let log = seen.clone();
        let trust = Trust::func(move |addr, hop| {
            log.lock().map(|mut v| v.push((addr, hop))).ok();
            hop < 2
        });
        let got = chain(&trust, "127.0.0.1", Some("3.3.3.3, 2.2.2.2, 1.1.1.1"));
        assert_eq!(got, ("2.2.2.2".into(), strings(&["2.2.2.2", "1.1.1.1"])));
        let calls = seen.lock().map(|v| v.clone()).unwrap_or_default();
        assert_eq!(
            calls,
            [(ip("127.0.0.1"), 0), (ip("1.1.1.1"), 1), (ip("2.2.2.2"), 2)]
        );
    }

    #[test]
    fn function_trust_is_not_asked_about_non_ip_entries() {
        let trust = Trust::func(|_, _| true);
        let got = chain(&trust, "127.0.0.1", Some("1.1.1.1, unknown, 2.2.2.2"));
        assert_eq!(got, ("unknown".into(), strings(&["unknown", "2.2.2.2"])));
        // Lenient ipaddr.js forms are handed over as real addresses.
        let trust = Trust::func(|addr, _| addr == ip("127.0.0.1"));
        assert!(trust.trusts_text("2130706433", 1));
    }

    #[test]
    fn lenient_numeric_forms_in_headers_match_subnets() {
        let trust = Trust::parse("loopback").unwrap();
        let got = chain(&trust, "127.0.0.1", Some("1.1.1.1, 0x7f000001"));
        assert_eq!(got, ("1.1.1.1".into(), strings(&["1.1.1.1", "0x7f000001"])));
    }

    #[test]
    fn named_ranges_cover_their_subnets() {
        let linklocal = Trust::parse("linklocal").unwrap();
        assert!(linklocal.trusts(ip("169.254.1.1"), 0));
        assert!(linklocal.trusts(ip("febf::1"), 0));
        assert!(!linklocal.trusts(ip("fec0::1"), 0));
        let uniquelocal = Trust::parse("uniquelocal").unwrap();
        for a in [
            "10.255.0.1",
            "172.16.0.1",
            "172.31.255.255",
            "192.168.0.1",
            "fdff::1",
        ] {
            assert!(uniquelocal.trusts(ip(a), 0), "{a}");
        }
        for a in ["172.32.0.1", "11.0.0.1", "fe00::1"] {
            assert!(!uniquelocal.trusts(ip(a), 0), "{a}");
        }
    }

    #[test]
    fn netmask_and_prefix_forms_are_equivalent() {
        let a = Trust::list(&["192.168.0.0/255.255.0.0"]).unwrap();
        let b = Trust::list(&["192.168.0.0/16"]).unwrap();
        for addr in ["192.168.3.4", "192.169.0.1"] {
            assert_eq!(a.trusts(ip(addr), 0), b.trusts(ip(addr), 0), "{addr}");
        }
        assert!(a.trusts(ip("192.168.3.4"), 0));
    }

    #[test]
    fn errors_display_proxy_addr_messages() {
        assert_eq!(
            TrustError::InvalidIp("x".into()).to_string(),
            "invalid IP address: x"
        );
        assert_eq!(
            TrustError::InvalidRange("1.2.3.4/0".into()).to_string(),
            "invalid range on address: 1.2.3.4/0"
        );
    }

    #[test]
    fn is_none_only_for_settings_that_trust_nothing() {
        assert!(Trust::none().is_none());
        assert!(Trust::default().is_none());
        assert!(Trust::hops(0).is_none());
        assert!(Trust::list(&[]).unwrap().is_none());
        assert!(!Trust::all().is_none());
        assert!(!Trust::hops(1).is_none());
        assert!(!Trust::parse("loopback").unwrap().is_none());
        assert!(!Trust::func(|_, _| false).is_none());
    }

    #[test]
    fn trust_is_cloneable_and_debuggable() {
        let t = Trust::func(|_, _| true);
        let c = t.clone();
        assert!(c.trusts(ip("1.1.1.1"), 3));
        assert_eq!(format!("{t:?}"), "Trust(Func(..))");
        assert_eq!(format!("{:?}", Trust::hops(2)), "Trust(Hops(2))");
    }

    #[test]
    fn hops_and_all_trust_any_text() {
        assert!(Trust::hops(2).trusts_text("not an ip", 1));
        assert!(!Trust::hops(2).trusts_text("1.1.1.1", 2));
        assert!(Trust::all().trusts_text("", 9));
        assert!(!Trust::none().trusts_text("127.0.0.1", 0));
    }
}
