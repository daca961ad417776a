//! Calls the server makes to addresses its users give it (webhook endpoints today, push services
//! next): one guarded HTTP client for all of them.
//!
//! An address is refused when it is in any range of IANA's special-purpose registries (private,
//! loopback, link-local, shared, documentation, NAT64, 6to4, Teredo...: the `iprfc` crate's
//! snapshot of them) or multicast, and an IPv6 address that carries an IPv4 one (IPv4-mapped,
//! IPv4-compatible, NAT64, 6to4) is judged by the IPv4 address it carries. The check is made on the
//! very addresses the client connects to: its resolver looks the name up once, refuses the answer
//! if any address is not public, and hands the checked addresses to the connection, so a name
//! cannot resolve to a public address for the check and a private one for the call (DNS
//! rebinding). The URL keeps its host name, for TLS and `Host`. No proxy, no redirect.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, ToSocketAddrs};
use std::sync::Arc;
use std::time::Duration;

/// Whether calls may reach private addresses (tests, closed networks: an operator's setting).
#[derive(Clone, Copy, Debug, Default)]
pub struct OutboundPolicy {
    pub allow_private: bool,
}

/// Why a URL may not be called.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OutboundError {
    #[error("the URL is longer than {MAX_URL_LENGTH} characters")]
    TooLong,
    #[error("not a URL: {0}")]
    NotUrl(String),
    #[error("the URL must be http:// or https://")]
    Scheme,
    #[error("the URL has no host")]
    NoHost,
    #[error("the URL's host cannot be resolved")]
    Unresolvable,
    #[error("the URL leads to a private, loopback, link-local or otherwise special address")]
    Private,
}

/// The longest URL accepted.
pub const MAX_URL_LENGTH: usize = 2048;

/// Whether `ip` is an ordinary address of the public internet.
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => !(iprfc::RFC6890.contains(&v4) || v4.is_multicast()),
        IpAddr::V6(v6) => match embedded_ipv4(v6) {
            Some(v4) => is_public(IpAddr::V4(v4)),
            None => !(iprfc::RFC6890.contains(&v6) || v6.is_multicast()),
        },
    }
}

/// The IPv4 address an IPv6 address stands for, in the forms that lead to one: IPv4-mapped
/// (`::ffff:a.b.c.d`), IPv4-compatible (`::a.b.c.d`, deprecated), NAT64's well-known prefix
/// (`64:ff9b::a.b.c.d`, RFC 6052) and 6to4 (`2002:aabb:ccdd::/48`, RFC 3056).
fn embedded_ipv4(v6: Ipv6Addr) -> Option<Ipv4Addr> {
    let s = v6.segments();
    let low = Ipv4Addr::new((s[6] >> 8) as u8, s[6] as u8, (s[7] >> 8) as u8, s[7] as u8);
    match s {
        [0, 0, 0, 0, 0, 0xffff, _, _] | [0, 0, 0, 0, 0, 0, _, _] => Some(low),
        [0x64, 0xff9b, 0, 0, 0, 0, _, _] => Some(low),
        [0x2002, hi, lo, ..] => Some(Ipv4Addr::new(
            (hi >> 8) as u8,
            hi as u8,
            (lo >> 8) as u8,
            lo as u8,
        )),
        _ => None,
    }
}

/// The URL parsed, if it is one the server may call: http or https, with a host. Checks an address
/// literal at once; a name is checked where it is resolved (see [`check_url`] and the client).
pub fn parse_url(url: &str, policy: OutboundPolicy) -> Result<reqwest::Url, OutboundError> {
    if url.len() > MAX_URL_LENGTH {
        return Err(OutboundError::TooLong);
    }
    let parsed = reqwest::Url::parse(url).map_err(|e| OutboundError::NotUrl(e.to_string()))?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(OutboundError::Scheme);
    }
    let literal = match parsed.host().ok_or(OutboundError::NoHost)? {
        url::Host::Ipv4(v4) => Some(IpAddr::V4(v4)),
        url::Host::Ipv6(v6) => Some(IpAddr::V6(v6)),
        url::Host::Domain(_) => None,
    };
    if let Some(ip) = literal {
        allowed(&[ip], policy)?;
    }
    Ok(parsed)
}

/// [`parse_url`], and the URL's host resolved and every address it leads to checked now (when
/// a URL is registered, so that its owner hears at once).
pub fn check_url(url: &str, policy: OutboundPolicy) -> Result<reqwest::Url, OutboundError> {
    let parsed = parse_url(url, policy)?;
    if let Some(url::Host::Domain(name)) = parsed.host() {
        let port = parsed.port_or_known_default().unwrap_or(443);
        resolve_checked(name, port, policy, &system_lookup)?;
    }
    Ok(parsed)
}

/// Refuse `addresses` unless every one is public (or the policy allows private ones).
fn allowed(addresses: &[IpAddr], policy: OutboundPolicy) -> Result<(), OutboundError> {
    if addresses.is_empty() {
        return Err(OutboundError::Unresolvable);
    }
    if !policy.allow_private && !addresses.iter().all(|ip| is_public(*ip)) {
        return Err(OutboundError::Private);
    }
    Ok(())
}

/// How a name becomes addresses: the system's resolver, or a test's table.
pub type Lookup = dyn Fn(&str, u16) -> std::io::Result<Vec<SocketAddr>> + Send + Sync;

fn system_lookup(name: &str, port: u16) -> std::io::Result<Vec<SocketAddr>> {
    Ok((name, port).to_socket_addrs()?.collect())
}

/// `name` looked up once, and its addresses if every one may be called.
fn resolve_checked(
    name: &str,
    port: u16,
    policy: OutboundPolicy,
    lookup: &Lookup,
) -> Result<Vec<SocketAddr>, OutboundError> {
    let addresses = lookup(name, port).map_err(|_| OutboundError::Unresolvable)?;
    let ips: Vec<IpAddr> = addresses.iter().map(SocketAddr::ip).collect();
    allowed(&ips, policy)?;
    Ok(addresses)
}

/// The client's resolver: the addresses it returns are the ones checked.
struct GuardedResolver {
    policy: OutboundPolicy,
    lookup: Arc<Lookup>,
}

impl reqwest::dns::Resolve for GuardedResolver {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let (policy, lookup) = (self.policy, self.lookup.clone());
        let name = name.as_str().to_string();
        Box::pin(async move {
            // The system's resolver blocks: off the client's own runtime threads.
            let checked =
                tokio::task::spawn_blocking(move || resolve_checked(&name, 0, policy, &*lookup))
                    .await??;
            let addrs: reqwest::dns::Addrs = Box::new(checked.into_iter());
            Ok(addrs)
        })
    }
}

/// The one client for calls out: guarded resolution, no proxy, no redirect (a redirect could lead
/// anywhere), a timeout. Callers still pass each URL through [`parse_url`], which checks an address
/// literal (a literal is not resolved, so the resolver never sees it).
pub fn client(
    policy: OutboundPolicy,
    timeout: Duration,
    user_agent: &str,
) -> Result<reqwest::blocking::Client, String> {
    client_with_lookup(policy, timeout, user_agent, Arc::new(system_lookup))
}

/// [`client`] with its names looked up by `lookup` (tests: a name that changes its answer).
pub fn client_with_lookup(
    policy: OutboundPolicy,
    timeout: Duration,
    user_agent: &str,
    lookup: Arc<Lookup>,
) -> Result<reqwest::blocking::Client, String> {
    reqwest::blocking::Client::builder()
        .timeout(timeout)
        .redirect(reqwest::redirect::Policy::none())
        .no_proxy()
        .dns_resolver(Arc::new(GuardedResolver { policy, lookup }))
        .user_agent(user_agent)
        .build()
        .map_err(|e| e.to_string())
}

/// A failed call, with its causes: reqwest's own message names only the URL.
pub fn describe(error: &reqwest::Error) -> String {
    let mut text = error.to_string();
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        text = format!("{text}: {cause}");
        source = cause.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn private_and_special_addresses_are_not_public() {
        for ip in [
            "127.0.0.1",
            "10.1.2.3",
            "192.168.0.1",
            "172.16.5.4",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "192.0.2.1",
            "198.18.0.1",
            "240.0.0.1",
            "255.255.255.255",
            "224.0.0.1",
            "::",
            "::1",
            "fe80::1",
            "fd00::1",
            "ff02::1",
            "2001:db8::1",
            "::ffff:127.0.0.1",
            "::ffff:169.254.169.254",
            // IPv4-compatible, NAT64 and 6to4 forms of loopback and the metadata address.
            "::127.0.0.1",
            "::169.254.169.254",
            "64:ff9b::a9fe:a9fe",
            "64:ff9b::7f00:1",
            "64:ff9b:1::a9fe:a9fe",
            "2002:7f00:1::1",
            "2002:a9fe:a9fe::1",
            "2001::1",
        ] {
            assert!(!is_public(ip.parse().unwrap()), "{ip}");
        }
        for ip in [
            "93.184.216.34",
            "8.8.8.8",
            "2606:4700::1111",
            "::ffff:93.184.216.34",
            "64:ff9b::5db8:d822",
        ] {
            assert!(is_public(ip.parse().unwrap()), "{ip}");
        }
    }

    #[test]
    fn urls_with_special_address_literals_are_refused() {
        let policy = OutboundPolicy::default();
        for url in [
            "http://[64:ff9b::a9fe:a9fe]/",
            "http://[::127.0.0.1]/",
            "http://[64:ff9b::7f00:1]/",
            "http://[2002:7f00:1::1]/",
            "http://[::ffff:7f00:1]/",
            "http://127.1/",
            "http://0x7f000001/",
            "https://10.0.0.1:8443/x",
        ] {
            assert_eq!(parse_url(url, policy), Err(OutboundError::Private), "{url}");
        }
        assert!(parse_url("https://93.184.216.34/hook", policy).is_ok());
        assert_eq!(
            parse_url("ftp://example.org/", policy),
            Err(OutboundError::Scheme)
        );
        let allow = OutboundPolicy {
            allow_private: true,
        };
        assert!(parse_url("http://[::127.0.0.1]/", allow).is_ok());
    }

    /// A listener on loopback that counts its connections and answers 204, with the `Host` it
    /// was sent.
    fn receiver() -> (u16, Arc<AtomicUsize>, std::sync::mpsc::Receiver<String>) {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let accepted = Arc::new(AtomicUsize::new(0));
        let (tx, rx) = std::sync::mpsc::channel();
        let count = accepted.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { return };
                count.fetch_add(1, Ordering::SeqCst);
                let mut buf = [0u8; 4096];
                let n = stream.read(&mut buf).unwrap_or(0);
                let head = String::from_utf8_lossy(&buf[..n]).to_string();
                let host = head
                    .lines()
                    .find_map(|l| l.strip_prefix("host: "))
                    .unwrap_or_default()
                    .to_string();
                let _ = tx.send(host);
                let _ = stream.write_all(b"HTTP/1.1 204 No Content\r\nconnection: close\r\n\r\n");
            }
        });
        (port, accepted, rx)
    }

    /// DNS rebinding: a name that answers a public address when it is registered and loopback
    /// when it is called. The client connects only to what its own lookup checked, so the call is
    /// refused and nothing reaches the loopback listener.
    #[test]
    fn a_name_that_turns_private_after_its_check_is_not_called() {
        let (port, accepted, _) = receiver();
        let answers = Arc::new(AtomicUsize::new(0));
        let seen = answers.clone();
        let lookup: Arc<Lookup> = Arc::new(move |_name: &str, port: u16| {
            let ip: IpAddr = if seen.fetch_add(1, Ordering::SeqCst) == 0 {
                "93.184.216.34".parse().unwrap()
            } else {
                "127.0.0.1".parse().unwrap()
            };
            Ok(vec![SocketAddr::new(ip, port)])
        });
        let policy = OutboundPolicy::default();
        // The check at registration sees the public answer.
        assert!(resolve_checked("rebind.example", port, policy, &*lookup).is_ok());
        let client =
            client_with_lookup(policy, Duration::from_secs(5), "test", lookup.clone()).unwrap();
        let url = parse_url(&format!("http://rebind.example:{port}/hook"), policy).unwrap();
        let err = client.post(url).body("{}").send().unwrap_err();
        assert!(
            describe(&err).contains("leads to a private"),
            "refused for its address: {}",
            describe(&err)
        );
        assert_eq!(accepted.load(Ordering::SeqCst), 0, "no connection was made");
        assert_eq!(answers.load(Ordering::SeqCst), 2, "one lookup per call");
    }

    /// Where private addresses are allowed, the client connects to the address its lookup gave
    /// and keeps the URL's host name in `Host`.
    #[test]
    fn the_call_keeps_the_host_name() {
        let (port, accepted, hosts) = receiver();
        let lookup: Arc<Lookup> = Arc::new(|_name: &str, port: u16| {
            Ok(vec![SocketAddr::new("127.0.0.1".parse().unwrap(), port)])
        });
        let policy = OutboundPolicy {
            allow_private: true,
        };
        let client = client_with_lookup(policy, Duration::from_secs(5), "test", lookup).unwrap();
        let url = parse_url(&format!("http://hooks.example:{port}/x"), policy).unwrap();
        let answer = client.post(url).body("{}").send().unwrap();
        assert_eq!(answer.status().as_u16(), 204);
        assert_eq!(accepted.load(Ordering::SeqCst), 1);
        assert_eq!(
            hosts.recv_timeout(Duration::from_secs(5)).unwrap(),
            format!("hooks.example:{port}")
        );
    }
}
