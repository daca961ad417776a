//! The address a request came from, for the login and registration rate limits. Behind a reverse
//! proxy the connection's peer is the proxy: only when the peer is one of the operator's trusted
//! proxies (`--trusted-proxies`) is the client taken from `Forwarded` (RFC 7239) or, without it,
//! `X-Forwarded-For`, as the right-most hop that is not itself a trusted proxy. A client's own
//! header is never believed: every proxy appends the address it saw, so the hops left of the
//! first untrusted one are whatever the client wrote.

use std::net::IpAddr;

use actix_web::http::header::HeaderMap;
use ipnet::IpNet;

/// The networks whose connections may say whom they forward.
#[derive(Clone, Debug, Default)]
pub struct TrustedProxies(Vec<IpNet>);

impl TrustedProxies {
    pub fn new(networks: Vec<IpNet>) -> TrustedProxies {
        TrustedProxies(networks)
    }

    fn trusts(&self, ip: IpAddr) -> bool {
        let ip = ip.to_canonical();
        self.0.iter().any(|net| net.contains(&ip))
    }

    /// The client's address: the peer's, unless the peer is a trusted proxy.
    pub fn client(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        if !self.trusts(peer) {
            return peer;
        }
        let hops = forwarded_hops(headers);
        // From the nearest hop outwards, skipping our own proxies. A hop that is not an address
        // (`unknown`, an obfuscated name) ends the walk: nothing left of it can be believed.
        let mut client = peer;
        for hop in hops.iter().rev() {
            match hop {
                Some(ip) if self.trusts(*ip) => client = *ip,
                Some(ip) => return *ip,
                None => return client,
            }
        }
        client
    }
}

/// The hops a request passed, first (the client, as it claims) to last (the nearest proxy), from
/// `Forwarded`'s `for=` if present, else `X-Forwarded-For`; `None` for a hop that is no address.
fn forwarded_hops(headers: &HeaderMap) -> Vec<Option<IpAddr>> {
    let forwarded: Vec<&str> = headers
        .get_all("forwarded")
        .filter_map(|v| v.to_str().ok())
        .collect();
    if !forwarded.is_empty() {
        return forwarded
            .iter()
            .flat_map(|line| line.split(','))
            .map(|element| {
                element
                    .split(';')
                    .find_map(|pair| {
                        let (key, value) = pair.trim().split_once('=')?;
                        key.eq_ignore_ascii_case("for").then_some(value)
                    })
                    .and_then(parse_node)
            })
            .collect();
    }
    headers
        .get_all("x-forwarded-for")
        .filter_map(|v| v.to_str().ok())
        .flat_map(|line| line.split(','))
        .map(parse_node)
        .collect()
}

/// An address as proxies write it: `1.2.3.4`, `1.2.3.4:5678`, `"[2001:db8::1]:80"`, `2001:db8::1`.
fn parse_node(text: &str) -> Option<IpAddr> {
    let text = text.trim().trim_matches('"');
    if let Ok(ip) = text.parse() {
        return Some(ip);
    }
    if let Some(rest) = text.strip_prefix('[') {
        return rest.split_once(']')?.0.parse().ok();
    }
    let (host, _port) = text.rsplit_once(':')?;
    host.parse::<std::net::Ipv4Addr>().ok().map(IpAddr::V4)
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::http::header::{HeaderName, HeaderValue};

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (k, v) in pairs {
            map.append(
                HeaderName::from_bytes(k.as_bytes()).unwrap(),
                HeaderValue::from_str(v).unwrap(),
            );
        }
        map
    }

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    fn proxies() -> TrustedProxies {
        TrustedProxies::new(vec![
            "10.0.0.0/8".parse().unwrap(),
            "::1/128".parse().unwrap(),
        ])
    }

    #[test]
    fn an_untrusted_peer_is_the_client_whatever_it_says() {
        let h = headers(&[("x-forwarded-for", "1.1.1.1"), ("forwarded", "for=2.2.2.2")]);
        assert_eq!(proxies().client(ip("203.0.113.9"), &h), ip("203.0.113.9"));
        assert_eq!(
            TrustedProxies::default().client(ip("10.0.0.1"), &h),
            ip("10.0.0.1")
        );
    }

    #[test]
    fn behind_a_trusted_proxy_the_right_most_untrusted_hop_is_the_client() {
        // The client wrote 6.6.6.6 itself; our proxies saw 198.51.100.7, then 10.0.0.3.
        let h = headers(&[("x-forwarded-for", "6.6.6.6, 198.51.100.7, 10.0.0.3")]);
        assert_eq!(proxies().client(ip("10.0.0.2"), &h), ip("198.51.100.7"));
        let h = headers(&[
            ("x-forwarded-for", "6.6.6.6"),
            ("x-forwarded-for", "198.51.100.7"),
        ]);
        assert_eq!(proxies().client(ip("::1"), &h), ip("198.51.100.7"));
        assert_eq!(
            proxies().client(ip("10.0.0.2"), &headers(&[])),
            ip("10.0.0.2")
        );
    }

    #[test]
    fn forwarded_is_read_before_x_forwarded_for() {
        let h = headers(&[
            (
                "forwarded",
                "for=6.6.6.6, for=\"[2001:db8::7]:4711\";proto=https",
            ),
            ("x-forwarded-for", "192.0.2.1"),
        ]);
        assert_eq!(proxies().client(ip("10.9.9.9"), &h), ip("2001:db8::7"));
        let h = headers(&[("forwarded", "for=198.51.100.7:1234;by=10.0.0.2")]);
        assert_eq!(proxies().client(ip("10.9.9.9"), &h), ip("198.51.100.7"));
        let h = headers(&[("forwarded", "for=6.6.6.6, for=unknown")]);
        assert_eq!(proxies().client(ip("10.9.9.9"), &h), ip("10.9.9.9"));
    }
}
