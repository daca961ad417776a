//! OAuth 2.0 for third-party apps: the authorization code grant with PKCE (RFC 6749, RFC 7636,
//! following the OAuth 2.0 Security BCP), for public clients that need no registration. An app
//! names itself (`client_id`, shown on the consent screen with the host it redirects to) and sends
//! the player to the consent screen; the player says yes from a signed-in session; the app gets a
//! single-use code (60 seconds, stored hashed) at its redirect URI and exchanges it, with the PKCE
//! verifier (`S256` only) and the same redirect URI, for one of our scoped API tokens, listed
//! among the player's tokens with the app's name and revocable there. Revocation (RFC 7009) and a
//! token check (RFC 7662's shape) serve the apps; the server's metadata is RFC 8414's.
//!
//! Written on well-known primitives (SHA-256, constant-time comparison, the OS's random source):
//! what it needs is small, and the maintained Rust crates for OAuth servers bring a framework of
//! their own around it.

use base64::Engine;
use serde::{Deserialize, Serialize};
use subtle::ConstantTimeEq;
use utoipa::ToSchema;

use super::{parse_scopes, Caller, Scope, API_TOKEN_PREFIX};
use crate::service::{random_hex, sha256_hex, ServiceError, ServiceResult};
use crate::storage::accounts::{self as account_store, TokenApp};
use crate::storage::{oauth as store, Database};

/// A code is exchanged within this time, or never.
pub const CODE_VALID_MS: i64 = 60_000;
/// The longest `state` passed through.
const MAX_STATE: usize = 500;

/// The query of an authorization request, as the app sent it to the consent screen.
#[derive(Clone, Debug, Default, Deserialize, ToSchema, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AuthorizationRequest {
    /// `code`.
    pub response_type: Option<String>,
    /// The app's name, shown to the player (1 to 64 characters).
    pub client_id: Option<String>,
    /// Where the player's browser goes with the answer: `https://...`, `http://127.0.0.1:<any
    /// port>/...` or `http://[::1]:<port>/...` for native apps (RFC 8252), or a private-use
    /// scheme with a dot (`com.example.app:/callback`). No fragment.
    pub redirect_uri: Option<String>,
    /// Space-separated: `read`, `play`, `email`, `webhooks`, `push` (default `read`).
    pub scope: Option<String>,
    /// Passed back as it is, for the app to check (at most 500 characters).
    pub state: Option<String>,
    /// BASE64URL(SHA-256(code_verifier)), 43 characters.
    pub code_challenge: Option<String>,
    /// `S256` (`plain` and a missing method are refused).
    pub code_challenge_method: Option<String>,
}

/// What the consent screen shows: who asks, for what, where the answer goes.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct Consent {
    pub client_id: String,
    /// The host the answer goes to.
    pub redirect_host: String,
    pub redirect_uri: String,
    pub scopes: Vec<Scope>,
}

/// The consent screen's verdict on a request.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum Review {
    /// Ask the player.
    Ask(Consent),
    /// The request is wrong in a way the app must hear of: send the browser here (an OAuth error
    /// in the query, RFC 6749 §4.1.2.1).
    Refused { redirect_to: String },
}

/// Where the browser goes with the player's answer.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct Answered {
    pub redirect_to: String,
}

/// An error of the token endpoint (RFC 6749 §5.2): 400 with this body.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, thiserror::Error)]
#[error("{error}: {error_description}")]
pub struct OAuthError {
    /// `invalid_request`, `invalid_grant`, `unsupported_grant_type`.
    pub error: String,
    pub error_description: String,
}

fn oauth_error(error: &str, description: &str) -> OAuthError {
    OAuthError {
        error: error.into(),
        error_description: description.into(),
    }
}

/// A request to the token endpoint (`application/x-www-form-urlencoded`).
#[derive(Clone, Debug, Default, Deserialize, ToSchema)]
pub struct TokenRequest {
    /// `authorization_code`.
    pub grant_type: Option<String>,
    pub code: Option<String>,
    /// The same `redirect_uri` as in the authorization request.
    pub redirect_uri: Option<String>,
    pub client_id: Option<String>,
    /// The PKCE verifier: 43 to 128 characters of `A-Z a-z 0-9 - . _ ~`.
    pub code_verifier: Option<String>,
}

/// An access token for the app (RFC 6749 §5.1). It lives until revoked.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct TokenAnswer {
    pub access_token: String,
    /// `Bearer`.
    pub token_type: String,
    /// Space-separated scopes granted.
    pub scope: String,
}

/// What a token check tells (RFC 7662's shape): only `active` when the token is unknown, revoked
/// or not a token at all.
#[derive(Clone, Debug, Default, Serialize, Deserialize, ToSchema)]
pub struct Introspection {
    pub active: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scope: Option<String>,
    /// The app it was given to (absent for a personal token).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub client_id: Option<String>,
    /// The player it acts for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub username: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub token_type: Option<String>,
    /// When it was issued, in seconds since the Unix epoch.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub iat: Option<i64>,
}

/// The server's OAuth metadata (RFC 8414).
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct Metadata {
    pub issuer: String,
    pub authorization_endpoint: String,
    pub token_endpoint: String,
    pub revocation_endpoint: String,
    pub introspection_endpoint: String,
    pub response_types_supported: Vec<String>,
    pub grant_types_supported: Vec<String>,
    pub code_challenge_methods_supported: Vec<String>,
    pub token_endpoint_auth_methods_supported: Vec<String>,
    pub revocation_endpoint_auth_methods_supported: Vec<String>,
    pub scopes_supported: Vec<Scope>,
}

pub fn metadata(public_url: &str) -> Metadata {
    let base = public_url.trim_end_matches('/');
    let strings = |v: &[&str]| v.iter().map(|s| s.to_string()).collect();
    Metadata {
        issuer: base.to_string(),
        authorization_endpoint: format!("{base}/oauth/authorize"),
        token_endpoint: format!("{base}/oauth/token"),
        revocation_endpoint: format!("{base}/oauth/revoke"),
        introspection_endpoint: format!("{base}/oauth/introspect"),
        response_types_supported: strings(&["code"]),
        grant_types_supported: strings(&["authorization_code"]),
        code_challenge_methods_supported: strings(&["S256"]),
        token_endpoint_auth_methods_supported: strings(&["none"]),
        revocation_endpoint_auth_methods_supported: strings(&["none"]),
        scopes_supported: Scope::ALL.to_vec(),
    }
}

/// The app's name and redirect URI, checked: when either is wrong the player is told and the
/// browser goes nowhere (an open redirector otherwise).
fn client_and_redirect(req: &AuthorizationRequest) -> ServiceResult<(String, url::Url)> {
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
fn check_redirect(uri: &str) -> ServiceResult<url::Url> {
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
fn redirect_host(url: &url::Url) -> String {
    match url.host_str() {
        Some(host) => host.to_string(),
        None => format!("{}:", url.scheme()),
    }
}

/// The rest of the request: what the app gets told when it is wrong.
fn scopes_and_challenge(
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
fn redirect_with(redirect: &url::Url, pairs: &[(&str, &str)], state: Option<&str>) -> String {
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

/// Only a signed-in session answers for the player (never an app's token).
fn signed_in(caller: &Caller) -> ServiceResult<()> {
    caller.require_session("the player answers an app's request from a signed-in session")
}

/// What the consent screen should show for `req`.
pub fn review(caller: &Caller, req: &AuthorizationRequest) -> ServiceResult<Review> {
    signed_in(caller)?;
    let (client_id, redirect) = client_and_redirect(req)?;
    Ok(match scopes_and_challenge(req) {
        Ok((scopes, _)) => Review::Ask(Consent {
            client_id,
            redirect_host: redirect_host(&redirect),
            redirect_uri: redirect.to_string(),
            scopes,
        }),
        Err((error, description)) => Review::Refused {
            redirect_to: redirect_with(
                &redirect,
                &[("error", error), ("error_description", description)],
                req.state.as_deref(),
            ),
        },
    })
}

/// The player's answer: a code for the app when `approve`, `access_denied` otherwise.
pub fn answer(
    db: &Database,
    caller: &Caller,
    req: &AuthorizationRequest,
    approve: bool,
) -> ServiceResult<Answered> {
    signed_in(caller)?;
    let (client_id, redirect) = client_and_redirect(req)?;
    let state = req.state.as_deref();
    let (scopes, challenge) = match scopes_and_challenge(req) {
        Ok(checked) => checked,
        Err((error, description)) => {
            return Ok(Answered {
                redirect_to: redirect_with(
                    &redirect,
                    &[("error", error), ("error_description", description)],
                    state,
                ),
            })
        }
    };
    if !approve {
        return Ok(Answered {
            redirect_to: redirect_with(
                &redirect,
                &[
                    ("error", "access_denied"),
                    ("error_description", "the player said no"),
                ],
                state,
            ),
        });
    }
    let code = random_hex(32)?;
    let now = db.now();
    let names: Vec<&str> = scopes.iter().map(|s| s.name()).collect();
    // The URI as the app sent it: the exchange must bring the very same.
    let redirect_uri = req.redirect_uri.as_deref().unwrap_or("");
    db.write(|c| {
        store::insert_code(
            c,
            &store::NewCode {
                code_hash: &sha256_hex(&code),
                user_id: caller.user_id,
                client_id: &client_id,
                redirect_uri,
                scopes: &names.join(","),
                code_challenge: &challenge,
                now,
                expires_at: now + CODE_VALID_MS,
            },
        )
    })?;
    Ok(Answered {
        redirect_to: redirect_with(&redirect, &[("code", &code)], state),
    })
}

/// Whether `verifier` is the PKCE verifier of `challenge` (S256), compared in constant time.
fn verifier_matches(verifier: &str, challenge: &str) -> bool {
    use sha2::Digest;
    let shape = (43..=128).contains(&verifier.len())
        && verifier
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~'));
    let derived = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .encode(sha2::Sha256::digest(verifier.as_bytes()));
    shape && bool::from(derived.as_bytes().ct_eq(challenge.as_bytes()))
}

/// The token endpoint: a code and its verifier for an API token. The outer error is the server's
/// (storage); the inner one the app's (RFC 6749 §5.2).
pub fn exchange(
    db: &Database,
    req: &TokenRequest,
) -> ServiceResult<Result<TokenAnswer, OAuthError>> {
    if req.grant_type.as_deref() != Some("authorization_code") {
        return Ok(Err(oauth_error(
            "unsupported_grant_type",
            "grant_type must be authorization_code",
        )));
    }
    let (Some(code), Some(redirect_uri), Some(client_id), Some(verifier)) = (
        req.code.as_deref(),
        req.redirect_uri.as_deref(),
        req.client_id.as_deref(),
        req.code_verifier.as_deref(),
    ) else {
        return Ok(Err(oauth_error(
            "invalid_request",
            "send code, redirect_uri, client_id and code_verifier",
        )));
    };
    let invalid = |why: &str| Ok(Err(oauth_error("invalid_grant", why)));
    let now = db.now();
    let Some(row) = db.read(|c| store::code_by_hash(c, &sha256_hex(code)))? else {
        return invalid("the code is unknown");
    };
    if let (Some(_), Some(token_id)) = (row.used_at, row.token_id) {
        // A code that comes back was stolen or replayed: its token is not to be trusted.
        db.write(|c| store::revoke_token(c, token_id, now))?;
        return invalid("the code was used already; the token it gave is revoked");
    }
    if row.expires_at <= now {
        return invalid("the code has expired");
    }
    if row.client_id != client_id || row.redirect_uri != redirect_uri {
        return invalid("client_id and redirect_uri must be those of the authorization request");
    }
    if !verifier_matches(verifier, &row.code_challenge) {
        return invalid("the code_verifier does not match the code_challenge");
    }
    let host = check_redirect(redirect_uri)
        .map(|u| redirect_host(&u))
        .unwrap_or_default();
    let token = format!("{API_TOKEN_PREFIX}{}", random_hex(24)?);
    let issued = db.write(|c| {
        let inserted = account_store::insert_api_token(
            c,
            row.user_id,
            &row.client_id,
            &sha256_hex(&token),
            &row.scopes,
            Some(TokenApp {
                client_id: &row.client_id,
                redirect_host: &host,
            }),
            now,
        )?;
        if !store::spend_code(c, row.id, inserted.id, now)? {
            return Err(ServiceError::Storage(
                crate::storage::StorageError::Conflict,
            ));
        }
        Ok::<_, ServiceError>(())
    });
    match issued {
        Ok(()) => {}
        // Another exchange of the same code came first: this one gets nothing.
        Err(ServiceError::Storage(crate::storage::StorageError::Conflict)) => {
            return invalid("the code was used already")
        }
        Err(e) => return Err(e),
    }
    let scope: Vec<&str> = parse_scopes(&row.scopes).iter().map(|s| s.name()).collect();
    Ok(Ok(TokenAnswer {
        access_token: token,
        token_type: "Bearer".into(),
        scope: scope.join(" "),
    }))
}

/// Revoke a token (RFC 7009): the same answer whether it was live, unknown or not a token.
pub fn revoke(db: &Database, token: &str) -> ServiceResult<()> {
    if token.starts_with(API_TOKEN_PREFIX) && token.len() <= 200 {
        let now = db.now();
        db.write(|c| store::revoke_token_by_hash(c, &sha256_hex(token), now))?;
    }
    Ok(())
}

/// Check a token (RFC 7662's shape): `active: false` for anything but a live API token.
pub fn introspect(db: &Database, token: &str) -> ServiceResult<Introspection> {
    if !token.starts_with(API_TOKEN_PREFIX) || token.len() > 200 {
        return Ok(Introspection::default());
    }
    let Some(row) = db
        .read(|c| account_store::api_token_by_hash(c, &sha256_hex(token)))?
        .filter(|t| t.revoked_at.is_none())
    else {
        return Ok(Introspection::default());
    };
    let Some(user) = db
        .read(|c| account_store::user_by_id(c, row.user_id))?
        .filter(|u| u.deleted_at.is_none())
    else {
        return Ok(Introspection::default());
    };
    let scope: Vec<&str> = parse_scopes(&row.scopes).iter().map(|s| s.name()).collect();
    Ok(Introspection {
        active: true,
        scope: Some(scope.join(" ")),
        client_id: row.client_id,
        username: Some(user.name),
        token_type: Some("Bearer".into()),
        iat: Some(row.created_at / 1000),
    })
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
