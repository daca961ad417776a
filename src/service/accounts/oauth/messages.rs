//! What OAuth's endpoints read and answer: the authorization request, the consent screen's
//! review and answer, the token endpoint's request, answer and errors (RFC 6749 §5), the token
//! check (RFC 7662's shape) and the server's metadata (RFC 8414).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::service::accounts::Scope;

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

pub(super) fn oauth_error(error: &str, description: &str) -> OAuthError {
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
