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
//! their own around it. `messages` holds what the endpoints read and answer, `checks` the checks
//! of a request and of a verifier; the flow is here.

mod checks;
mod messages;

pub use messages::{
    metadata, Answered, AuthorizationRequest, Consent, Introspection, Metadata, OAuthError, Review,
    TokenAnswer, TokenRequest,
};

use checks::{
    check_redirect, client_and_redirect, redirect_host, redirect_with, scopes_and_challenge,
    verifier_matches,
};
use messages::oauth_error;

use super::{parse_scopes, Caller, API_TOKEN_PREFIX};
use crate::service::{random_hex, sha256_hex, ServiceError, ServiceResult};
use crate::storage::accounts::{self as account_store, TokenApp};
use crate::storage::{oauth as store, Database};

/// A code is exchanged within this time, or never.
pub const CODE_VALID_MS: i64 = 60_000;

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
        // Another exchange of the same code came first (its transaction has committed: the
        // spend waited for it): the code was presented twice, so the token it gave is revoked
        // too, as when it comes back later.
        Err(ServiceError::Storage(crate::storage::StorageError::Conflict)) => {
            db.write(|c| store::revoke_token_of_code(c, row.id, now))?;
            return invalid("the code was used already; the token it gave is revoked");
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
