//! Where a webhook may be sent. The contract promises that the service never fetches a
//! URL for a client; a webhook is the one place it sends to one, so the receiver must be
//! somewhere a client could reach anyway: a public address over HTTPS. Private, loopback
//! and link-local addresses (the host's own services, the cloud's metadata endpoint) are
//! refused unless the operator lists them in `QUIRE_WEBHOOK_ALLOW`, and then plain HTTP is
//! allowed to them too. The check is made on the addresses the name resolves to, and the
//! connection goes to the address that passed, so a name cannot be re-pointed between the
//! check and the connection.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::time::Duration;

use crate::config::addresses::canonical;
use crate::config::AddressBlocks;

/// The longest URL an endpoint may have.
pub const MAX_URL: usize = 2000;
const RESOLVE_WITHIN: Duration = Duration::from_secs(5);

/// A receiver's URL, taken apart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    pub https: bool,
    pub host: String,
    pub port: u16,
    /// The path and query, at least `/`.
    pub path: String,
}

impl Target {
    /// The URL's form checked: `http(s)://host[:port][/path][?query]`, no user or password,
    /// no fragment, and an address written in it allowed by [`Policy::permits`].
    pub fn parse(url: &str) -> Result<Target, String> {
        if url.len() > MAX_URL {
            return Err(format!("is longer than {MAX_URL} characters"));
        }
        let uri: axum::http::Uri = url
            .parse()
            .map_err(|_| "is not a URL (https://host/path)".to_string())?;
        let https = match uri.scheme_str() {
            Some("https") => true,
            Some("http") => false,
            _ => return Err(
                "must start with https:// (or http:// for an address QUIRE_WEBHOOK_ALLOW lists)"
                    .into(),
            ),
        };
        let authority = uri.authority().ok_or_else(|| "names no host".to_string())?;
        if authority.as_str().contains('@') {
            return Err("must not hold a user name or password".into());
        }
        if url.contains('#') {
            return Err("must not have a #fragment".into());
        }
        let host = authority
            .host()
            .trim_start_matches('[')
            .trim_end_matches(']');
        if host.is_empty() {
            return Err("names no host".into());
        }
        Ok(Target {
            https,
            host: host.to_ascii_lowercase(),
            port: authority.port_u16().unwrap_or(if https { 443 } else { 80 }),
            path: uri
                .path_and_query()
                .map(|p| p.as_str().to_string())
                .filter(|p| !p.is_empty())
                .unwrap_or_else(|| "/".into()),
        })
    }

    /// The `Host` header: the port only when it is not the scheme's own.
    pub fn host_header(&self) -> String {
        let host = if self.host.contains(':') {
            format!("[{}]", self.host)
        } else {
            self.host.clone()
        };
        match (self.https, self.port) {
            (true, 443) | (false, 80) => host,
            (_, port) => format!("{host}:{port}"),
        }
    }
}

/// The operator's exceptions to "public addresses over HTTPS".
#[derive(Debug, Clone, Default)]
pub struct Policy {
    pub allow: AddressBlocks,
}

impl Policy {
    /// The operator's policy, from the settings.
    pub fn of(config: &crate::config::WebhookConfig) -> Policy {
        Policy {
            allow: config.allow.clone(),
        }
    }

    /// Why `ip` may not be reached for `target`, if it may not.
    pub fn refuses(&self, target: &Target, ip: IpAddr) -> Option<String> {
        if self.allow.contains(ip) {
            return None;
        }
        if !is_public(ip) {
            return Some(format!(
                "{ip} is a private, loopback or otherwise non-public address (the operator may allow it with QUIRE_WEBHOOK_ALLOW)"
            ));
        }
        if !target.https {
            return Some(format!(
                "plain http:// is only for addresses QUIRE_WEBHOOK_ALLOW lists, and {ip} is not one"
            ));
        }
        None
    }

    /// What can be known without resolving the name: an address written in the URL is
    /// checked, a name is not (it is checked at every delivery).
    pub fn permits(&self, target: &Target) -> Result<(), String> {
        match target.host.parse::<IpAddr>() {
            Ok(ip) => self.refuses(target, ip).map_or(Ok(()), Err),
            Err(_) if !target.https && self.allow.is_empty() => Err(
                "must start with https:// (plain http:// is only for addresses QUIRE_WEBHOOK_ALLOW lists)"
                    .into(),
            ),
            Err(_) => Ok(()),
        }
    }

    /// The address to connect to: the first the name resolves to that may be reached.
    pub async fn resolve(&self, target: &Target) -> Result<SocketAddr, String> {
        let found: Vec<SocketAddr> = match target.host.parse::<IpAddr>() {
            Ok(ip) => vec![SocketAddr::new(ip, target.port)],
            Err(_) => tokio::time::timeout(
                RESOLVE_WITHIN,
                tokio::net::lookup_host((target.host.as_str(), target.port)),
            )
            .await
            .map_err(|_| format!("{} did not resolve within 5 s", target.host))?
            .map_err(|e| format!("{} does not resolve: {e}", target.host))?
            .collect(),
        };
        let mut refusal = None;
        for addr in &found {
            match self.refuses(target, addr.ip()) {
                None => return Ok(*addr),
                Some(why) => refusal = Some(why),
            }
        }
        Err(refusal.unwrap_or_else(|| format!("{} resolves to no address", target.host)))
    }
}

/// Whether an address is on the public internet: not loopback, private (RFC 1918, unique
/// local), link-local, shared (carrier-grade NAT), documentation, benchmarking, multicast,
/// broadcast, unspecified or reserved, nor an IPv4 one of those carried in IPv6.
pub fn is_public(ip: IpAddr) -> bool {
    match canonical(ip) {
        IpAddr::V4(v4) => is_public_v4(v4),
        IpAddr::V6(v6) => is_public_v6(v6),
    }
}

fn is_public_v4(ip: Ipv4Addr) -> bool {
    let [a, b, c, _] = ip.octets();
    !(ip.is_unspecified()
        || ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local()
        || ip.is_broadcast()
        || ip.is_documentation()
        || ip.is_multicast()
        || a == 0
        || a >= 240
        || (a == 100 && (64..128).contains(&b))
        || (a == 192 && b == 0 && c == 0)
        || (a == 198 && (b == 18 || b == 19)))
}

fn is_public_v6(ip: Ipv6Addr) -> bool {
    let s = ip.segments();
    let embedded_v4 = |hi: usize| {
        Ipv4Addr::new(
            (s[hi] >> 8) as u8,
            s[hi] as u8,
            (s[hi + 1] >> 8) as u8,
            s[hi + 1] as u8,
        )
    };
    if ip.is_unspecified() || ip.is_loopback() || ip.is_multicast() {
        return false;
    }
    match s[0] {
        // Unique local, link-local and the old site-local.
        0xfc00..=0xfdff | 0xfe80..=0xfeff => false,
        // Documentation, and Teredo (which tunnels to anything).
        0x2001 if s[1] == 0x0db8 || s[1] == 0 => false,
        // 6to4 carries an IPv4 address in its second and third groups.
        0x2002 => is_public_v4(embedded_v4(1)),
        // NAT64 reaches the IPv4 address in its last two groups.
        0x0064 if s[1] == 0xff9b => is_public_v4(embedded_v4(6)),
        // The discard prefix and the rest of ::/8 (IPv4-compatible, reserved).
        0x0000..=0x0100 => false,
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn only_public_addresses_are_public() {
        for private in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "255.255.255.255",
            "224.0.0.1",
            "::1",
            "::",
            "fd00::1",
            "fe80::1",
            "::ffff:127.0.0.1",
            "::ffff:169.254.169.254",
            "64:ff9b::a9fe:a9fe",
            "2002:7f00:0001::1",
            "2001:db8::1",
        ] {
            assert!(!is_public(ip(private)), "{private}");
        }
        for public in [
            "93.184.215.14",
            "1.1.1.1",
            "2606:4700::1111",
            "::ffff:8.8.8.8",
        ] {
            assert!(is_public(ip(public)), "{public}");
        }
    }

    #[test]
    fn urls_are_taken_apart_and_checked() {
        let t = Target::parse("https://Hooks.Example.org/in?x=1").unwrap();
        assert_eq!(
            (t.https, t.host.as_str(), t.port, t.path.as_str()),
            (true, "hooks.example.org", 443, "/in?x=1")
        );
        assert_eq!(t.host_header(), "hooks.example.org");
        let t = Target::parse("http://[::1]:9000").unwrap();
        assert_eq!(
            (t.host.as_str(), t.port, t.path.as_str()),
            ("::1", 9000, "/")
        );
        assert_eq!(t.host_header(), "[::1]:9000");
        for bad in [
            "ftp://example.org/",
            "https://user:pw@example.org/",
            "https://example.org/#x",
            "example.org/hook",
            "",
        ] {
            assert!(Target::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn private_addresses_and_plain_http_need_the_operators_leave() {
        let strict = Policy::default();
        let check = |p: &Policy, url: &str| p.permits(&Target::parse(url).unwrap());
        assert!(check(&strict, "https://hooks.example.org/").is_ok());
        assert!(check(&strict, "https://93.184.215.14/").is_ok());
        assert!(check(&strict, "https://127.0.0.1/").is_err());
        assert!(check(&strict, "https://[::ffff:10.0.0.1]/").is_err());
        assert!(check(&strict, "http://hooks.example.org/").is_err());
        assert!(check(&strict, "http://93.184.215.14/").is_err());
        let lab = Policy {
            allow: AddressBlocks::parse("QUIRE_WEBHOOK_ALLOW", "127.0.0.0/8").unwrap(),
        };
        assert!(check(&lab, "http://127.0.0.1:9000/in").is_ok());
        assert!(check(&lab, "https://10.0.0.1/").is_err());
        // A name may resolve to an allowed address, so it is left to the delivery.
        assert!(check(&lab, "http://receiver.internal/").is_ok());
        let target = Target::parse("http://receiver.internal/").unwrap();
        assert!(lab.refuses(&target, ip("127.0.0.9")).is_none());
        assert!(lab.refuses(&target, ip("93.184.215.14")).is_some());
    }

    #[tokio::test]
    async fn a_name_is_checked_on_the_addresses_it_resolves_to() {
        let target = Target::parse("https://localhost:9/").unwrap();
        let why = Policy::default().resolve(&target).await.unwrap_err();
        assert!(why.contains("QUIRE_WEBHOOK_ALLOW"), "{why}");
        let lab = Policy {
            allow: AddressBlocks::parse("QUIRE_WEBHOOK_ALLOW", "127.0.0.1, ::1").unwrap(),
        };
        let addr = lab.resolve(&target).await.unwrap();
        assert!(addr.ip().is_loopback() && addr.port() == 9);
    }
}
