//! The checks of an authorization request and of a PKCE verifier: the app's name, its redirect
//! URI (RFC 8252's rules), the scopes and the challenge; and the redirect that carries an answer
//! back to the app.

use base64::Engine;
use subtle::ConstantTimeEq;

use super::messages::AuthorizationRequest;
use crate::service::accounts::Scope;
use crate::service::{ServiceError, ServiceResult};

/// The longest `state` passed through.
const MAX_STATE: usize = 500;

/// The app's name and redirect URI, checked: when either is wrong the player is told and the
/// browser goes nowhere (an open redirector otherwise).
pub(super) fn client_and_redirect(req: &AuthorizationRequest) -> ServiceResult<(String, url::Url)> {
    let client_id = req.client_id.as_deref().unwrap_or("").trim();
    if client_id.is_empty()
        || client_id.chars().count() > 64
        || client_id.chars().any(char::is_control)
    {
        return Err(ServiceError::invalid(
            "invalid_client",
            "client_id names the app: 1 to 64 characters, no control characters",
        ));
    }
    let redirect = req.redirect_uri.as_deref().unwrap_or("");
    Ok((client_id.to_string(), check_redirect(redirect)?))
}

/// A redirect URI an app may use: https; http to a loopback address (RFC 8252 §7.3, any port);
/// a private-use scheme with a dot (§7.1). No fragment, no user name.
pub(super) fn check_redirect(uri: &str) -> ServiceResult<url::Url> {
    let bad = |why: &str| ServiceError::invalid("invalid_redirect_uri", why.to_string());
    if uri.len() > 2048 {
        return Err(bad("a redirect URI has at most 2048 characters"));
    }
    let url = url::Url::parse(uri).map_err(|e| bad(&format!("not an absolute URI: {e}")))?;
    if url.fragment().is_some() || !url.username().is_empty() || url.password().is_some() {
        return Err(bad("a redirect URI has no fragment and no user name"));
    }
    let loopback = matches!(
        url.host(),
        Some(url::Host::Ipv4(ip)) if ip.is_loopback()
    ) || matches!(url.host(), Some(url::Host::Ipv6(ip)) if ip.is_loopback());
    match url.scheme() {
        "https" if url.host().is_some() => Ok(url),
        "http" if loopback => Ok(url),
        "http" => Err(bad(
            "http is for loopback addresses only (127.0.0.1 or [::1]); use https",
        )),
        scheme if scheme.contains('.') => Ok(url),
        _ => Err(bad(
            "use https, http to 127.0.0.1 or [::1], or a private-use scheme such as com.example.app",
        )),
    }
}

/// Who the answer is for: the redirect URI's host, or its scheme for a native app's.
pub(super) fn redirect_host(url: &url::Url) -> String {
    match url.host_str() {
        Some(host) => host.to_string(),
        None => format!("{}:", url.scheme()),
    }
}

/// The rest of the request: what the app gets told when it is wrong.
pub(super) fn scopes_and_challenge(
    req: &AuthorizationRequest,
) -> Result<(Vec<Scope>, String), (&'static str, &'static str)> {
    if req.response_type.as_deref() != Some("code") {
        return Err(("unsupported_response_type", "response_type must be code"));
    }
    if req.state.as_deref().is_some_and(|s| s.len() > MAX_STATE) {
        return Err(("invalid_request", "state has at most 500 characters"));
    }
    match req.code_challenge_method.as_deref() {
        Some("S256") => {}
        Some("plain") => {
            return Err((
                "invalid_request",
                "code_challenge_method plain is refused: use S256",
            ))
        }
        _ => return Err(("invalid_request", "code_challenge_method must be S256")),
    }
    let challenge = req.code_challenge.as_deref().unwrap_or("");
    if challenge.len() != 43
        || !challenge
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    {
        return Err((
            "invalid_request",
            "code_challenge must be BASE64URL(SHA-256(code_verifier)): 43 characters",
        ));
    }
    let words: Vec<&str> = req
        .scope
        .as_deref()
        .unwrap_or("read")
        .split(' ')
        .filter(|w| !w.is_empty())
        .collect();
    let mut scopes = Vec::new();
    for word in words {
        let scope = Scope::parse(word).ok_or((
            "invalid_scope",
            "the scopes are read, play, email, webhooks and push",
        ))?;
        if !scopes.contains(&scope) {
            scopes.push(scope);
        }
    }
    if scopes.is_empty() {
        return Err(("invalid_scope", "ask for at least one scope"));
    }
    scopes.sort_by_key(|s| s.name());
    Ok((scopes, challenge.to_string()))
}

/// `redirect` with the answer's parameters added to its query, and `state` as the app sent it.
pub(super) fn redirect_with(
    redirect: &url::Url,
    pairs: &[(&str, &str)],
    state: Option<&str>,
) -> String {
    let mut url = redirect.clone();
    {
        let mut query = url.query_pairs_mut();
        for (k, v) in pairs {
            query.append_pair(k, v);
        }
        if let Some(state) = state {
            query.append_pair("state", state);
        }
    }
    url.to_string()
}

/// Whether `verifier` is the PKCE verifier of `challenge` (S256), compared in constant time.
pub(super) fn verifier_matches(verifier: &str, challenge: &str) -> bool {
    use sha2::Digest;
    let shape = (43..=128).contains(&verifier.len())
        && verifier
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~'));
    let derived = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .encode(sha2::Sha256::digest(verifier.as_bytes()));
    shape && bool::from(derived.as_bytes().ct_eq(challenge.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rfc_7636_example_verifier_matches_its_challenge_only() {
        // RFC 7636, appendix B.
        let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
        let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
        assert!(verifier_matches(verifier, challenge));
        assert!(!verifier_matches(
            "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXj",
            challenge
        ));
        assert!(!verifier_matches(challenge, challenge));
        assert!(!verifier_matches("short", challenge));
    }

    #[test]
    fn redirects_follow_rfc_8252() {
        for ok in [
            "https://app.example/cb",
            "http://127.0.0.1:53117/callback",
            "http://[::1]:8000/cb",
            "com.example.app:/oauth",
        ] {
            assert!(check_redirect(ok).is_ok(), "{ok}");
        }
        for bad in [
            "http://app.example/cb",
            "http://localhost:8000/cb",
            "https://app.example/cb#frag",
            "https://user@app.example/cb",
            "javascript:alert(1)",
            "/relative",
            "",
        ] {
            assert!(check_redirect(bad).is_err(), "{bad}");
        }
    }
}
