//! Express's `trust proxy` setting and the client-address chain (`req.ip`, `req.ips`), as
//! `proxy-addr` 2.0.8 (with `forwarded` 0.2.0 and `ipaddr.js` 1.9.1) computes them.
//!
//! Addresses in `X-Forwarded-For` are arbitrary text. An entry is recognised as an address with
//! ipaddr.js's own, lenient grammar (so `2130706433`, `0x7f000001` and `0177.0.0.1` are all
//! 127.0.0.1, and `fe80::1%eth0` is an IPv6 address); anything else stays in the chain as text
//! and is trusted only by [`Trust::all`] and [`Trust::hops`].
//!
//! ```
//! use webfw_http::proxy_addr::Trust;
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
/// use webfw_http::proxy_addr::Trust;
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
/// use webfw_http::proxy_addr::{Trust, TrustError};
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
    /// use webfw_http::proxy_addr::Trust;
    /// assert!(Trust::none().is_none());
    /// ```
    pub fn none() -> Trust {
        Trust(Rule::None)
    }

    /// Trusts every hop (`trust proxy` true): `req.ip` is the left-most forwarded address.
    ///
    /// ```
    /// use webfw_http::proxy_addr::Trust;
    /// assert!(Trust::all().trusts("8.8.8.8".parse().unwrap(), 5));
    /// ```
    pub fn all() -> Trust {
        Trust(Rule::All)
    }

    /// Trusts the first `n` hops, whatever their address (`trust proxy` as a number).
    ///
    /// ```
    /// use webfw_http::proxy_addr::Trust;
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
    /// use webfw_http::proxy_addr::Trust;
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
    /// use webfw_http::proxy_addr::Trust;
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
    /// use webfw_http::proxy_addr::Trust;
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
    /// use webfw_http::proxy_addr::Trust;
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
    /// use webfw_http::proxy_addr::Trust;
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
    /// use webfw_http::proxy_addr::Trust;
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
/// use webfw_http::proxy_addr::all_addrs;
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
/// use webfw_http::proxy_addr::{proxy_chain, Trust};
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
mod tests;
