//! Email: a player's address (double opt-in: verified by a link before anything else is sent to
//! it), language and preferences; the signed links in emails (verify, one-click unsubscribe);
//! the messages (`messages`) and their delivery from the outbox by SMTP (`delivery`).

pub mod delivery;
mod facts;
pub mod messages;
pub mod offers;
pub mod pages;
mod planning;
mod templates;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::service::accounts::sessions::TokenKeys;
use crate::service::accounts::{Caller, Scope};
use crate::service::i18n::Language;
use crate::service::notify::notifications::{queue, Notice};
use crate::service::{ServiceError, ServiceResult};
use crate::storage::mail::{self as store, MailSettingsRow, PreferenceChanges};
use crate::storage::{Database, DbConnection};

/// Which emails and pushes a player wants, and in which language.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"language": "en", "your_turn": true, "deadline_reminder": true, "invitation": true, "game_started": true, "game_over": true, "digest_hours": null, "push": {"your_turn": true, "deadline_reminder": true, "invitation": true, "game_started": false, "game_over": false}, "moves_by_reply": false}))]
pub struct Preferences {
    /// The language of emails, pushes and the pages email links open.
    pub language: Language,
    pub your_turn: bool,
    pub deadline_reminder: bool,
    pub invitation: bool,
    pub game_started: bool,
    pub game_over: bool,
    /// Digest mode: instead of one "your turn" email per game, one email every this many hours
    /// (1 to 168) listing every game waiting for you; `null` for one email per turn.
    #[schema(required = true, minimum = 1, maximum = 168)]
    #[serde(deserialize_with = "Option::deserialize")]
    pub digest_hours: Option<u32>,
    /// Pushes to the player's devices, kind by kind (apart from email's). Always in answers;
    /// omitted in a change, left as it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub push: Option<PushPreferences>,
    /// Moves by email: the "your turn" email lists the turn's choices and your hand, and a reply
    /// to it plays them (when the server receives mail). Always in answers; omitted in a change,
    /// left as it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moves_by_reply: Option<bool>,
}

/// Which notices reach the player's devices by push (a digest is email only).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PushPreferences {
    pub your_turn: bool,
    pub deadline_reminder: bool,
    pub invitation: bool,
    pub game_started: bool,
    pub game_over: bool,
}

/// The caller's email settings. The address is never shown to anyone else.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct MailSettings {
    #[schema(required = true)]
    pub email: Option<String>,
    /// Whether the address was confirmed through the link sent to it (until then it gets only
    /// that link).
    pub verified: bool,
    /// Whether the mail relay refused the address for good (nothing more is sent to it; set the
    /// address again to retry).
    pub bounced: bool,
    pub preferences: Preferences,
    /// Whether this server offers moves by email reply (its operator set a reply address). When
    /// it does not, `preferences.moves_by_reply` is kept but no email offers moves.
    pub moves_by_reply_offered: bool,
}

#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"email": "anna@example.org"}))]
pub struct SetEmail {
    /// The new address, or `null` to remove it.
    #[schema(required = true, max_length = 254)]
    // Required though nullable: a missing field is an error, not a removal.
    #[serde(deserialize_with = "Option::deserialize")]
    pub email: Option<String>,
}

/// Email settings are the account's own business: a signed-in session may change them, an API
/// token (a bot, a third-party client) may not.
fn signed_in(caller: &Caller) -> ServiceResult<()> {
    caller.require(Scope::Email)?;
    if caller.session_id.is_none() {
        return Err(ServiceError::session_only(
            "email settings are changed from a signed-in session, not with an API token",
        ));
    }
    Ok(())
}

fn view(row: &MailSettingsRow, replies_offered: bool) -> MailSettings {
    MailSettings {
        moves_by_reply_offered: replies_offered,
        email: row.email.clone(),
        verified: row.verified_at.is_some(),
        bounced: row.bounced_at.is_some(),
        preferences: Preferences {
            language: Language::parse(&row.language),
            your_turn: row.your_turn,
            deadline_reminder: row.deadline_reminder,
            invitation: row.invitation,
            game_started: row.game_started,
            game_over: row.game_over,
            digest_hours: row.digest_hours.map(|h| h.max(1) as u32),
            push: Some(PushPreferences {
                your_turn: row.push_your_turn,
                deadline_reminder: row.push_deadline_reminder,
                invitation: row.push_invitation,
                game_started: row.push_game_started,
                game_over: row.push_game_over,
            }),
            moves_by_reply: Some(row.moves_by_reply),
        },
    }
}

/// Create a new account's settings (in its registration's transaction).
pub(crate) fn create_settings(
    conn: &mut DbConnection,
    user_id: i64,
    language: Language,
) -> ServiceResult<()> {
    store::ensure(conn, user_id, language.code())?;
    Ok(())
}

/// The caller's address and preferences; `replies_offered`: whether this server offers moves by
/// email reply.
pub fn settings(
    db: &Database,
    caller: &Caller,
    replies_offered: bool,
) -> ServiceResult<MailSettings> {
    caller.require(Scope::Email)?;
    db.write(|conn| {
        Ok(view(
            &store::ensure(conn, caller.user_id, "en")?,
            replies_offered,
        ))
    })
}

/// Set (or remove) the caller's address; a new address gets a verification link, and nothing
/// else until it is confirmed.
pub fn set_email(
    db: &Database,
    caller: &Caller,
    new: &SetEmail,
    replies_offered: bool,
) -> ServiceResult<MailSettings> {
    signed_in(caller)?;
    let email = match new.email.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(text) => Some(
            text.parse::<lettre::Address>()
                .map_err(|_| {
                    ServiceError::invalid("invalid_email", "that is not an email address")
                })?
                .to_string(),
        ),
    };
    if email.as_ref().is_some_and(|e| e.len() > 254) {
        return Err(ServiceError::invalid(
            "invalid_email",
            "an address has at most 254 characters",
        ));
    }
    let now = db.now();
    db.write(|conn| {
        let current = store::ensure(conn, caller.user_id, "en")?;
        if current.email == email && current.bounced_at.is_none() {
            return Ok(view(&current, replies_offered));
        }
        store::set_email(conn, caller.user_id, email.as_deref())?;
        if let Some(email) = email.clone() {
            queue(conn, caller.user_id, &Notice::VerifyEmail { email }, now)?;
        }
        Ok(view(
            &store::ensure(conn, caller.user_id, "en")?,
            replies_offered,
        ))
    })
}

pub fn set_preferences(
    db: &Database,
    caller: &Caller,
    preferences: &Preferences,
    replies_offered: bool,
) -> ServiceResult<MailSettings> {
    signed_in(caller)?;
    if preferences
        .digest_hours
        .is_some_and(|h| !(1..=168).contains(&h))
    {
        return Err(ServiceError::invalid(
            "invalid_digest",
            "a digest comes every 1 to 168 hours",
        ));
    }
    let now = db.now();
    db.write(|conn| {
        let current = store::ensure(conn, caller.user_id, "en")?;
        // A digest covers a whole period: the first comes one period after it is turned on.
        let digest_starts = current.digest_hours.is_none() && preferences.digest_hours.is_some();
        let push = preferences.push.as_ref();
        let changes = PreferenceChanges {
            last_digest_at: digest_starts.then_some(Some(now)),
            language: Some(preferences.language.code()),
            your_turn: Some(preferences.your_turn),
            deadline_reminder: Some(preferences.deadline_reminder),
            invitation: Some(preferences.invitation),
            game_started: Some(preferences.game_started),
            game_over: Some(preferences.game_over),
            digest_hours: Some(preferences.digest_hours.map(|h| h as i32)),
            push_your_turn: push.map(|p| p.your_turn),
            push_deadline_reminder: push.map(|p| p.deadline_reminder),
            push_invitation: push.map(|p| p.invitation),
            push_game_started: push.map(|p| p.game_started),
            push_game_over: push.map(|p| p.game_over),
            moves_by_reply: preferences.moves_by_reply,
        };
        store::change_preferences(conn, caller.user_id, &changes)?;
        Ok(view(
            &store::ensure(conn, caller.user_id, "en")?,
            replies_offered,
        ))
    })
}

/// What a link in an email may do, signed with the server's key.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct LinkClaims {
    aud: String,
    /// `verify` or `unsubscribe`.
    purpose: String,
    uid: i64,
    /// The address to confirm (verify).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    email: Option<String>,
    /// The kind of email to turn off (unsubscribe).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    kind: Option<String>,
    /// Expiry, seconds since the Unix epoch.
    exp: i64,
}

const LINK_AUDIENCE: &str = "keltis-mail-link";

pub(crate) fn link_token(
    keys: &TokenKeys,
    purpose: &str,
    uid: i64,
    email: Option<&str>,
    kind: Option<&str>,
    valid_days: i64,
) -> ServiceResult<String> {
    let claims = LinkClaims {
        aud: LINK_AUDIENCE.into(),
        purpose: purpose.into(),
        uid,
        email: email.map(String::from),
        kind: kind.map(String::from),
        exp: crate::storage::now_millis() / 1000 + valid_days * 86400,
    };
    keys.sign(&claims)
}

fn link_claims(keys: &TokenKeys, token: &str, purpose: &str) -> ServiceResult<LinkClaims> {
    keys.verify::<LinkClaims>(token, LINK_AUDIENCE)
        .filter(|c| c.purpose == purpose)
        .ok_or_else(|| ServiceError::invalid("invalid_link", "this link is invalid or has expired"))
}

/// The language of the account a link in an email was made for (English when the link is not
/// ours): the language of the page it opens.
pub fn link_language(db: &Database, keys: &TokenKeys, token: &str) -> Language {
    keys.verify::<LinkClaims>(token, LINK_AUDIENCE)
        .and_then(|claims| {
            db.read(|conn| store::settings(conn, claims.uid))
                .ok()
                .flatten()
        })
        .map(|settings| Language::parse(&settings.language))
        .unwrap_or_default()
}

/// Confirm an address through the link sent to it (no login needed: the link is the proof);
/// the account's language, for the page that says so.
pub fn verify(db: &Database, keys: &TokenKeys, token: &str) -> ServiceResult<Language> {
    let claims = link_claims(keys, token, "verify")?;
    let email = claims.email.unwrap_or_default();
    let now = db.now();
    if db.write(|conn| store::verify(conn, claims.uid, &email, now))? {
        Ok(link_language(db, keys, token))
    } else {
        Err(ServiceError::invalid(
            "invalid_link",
            "this address is no longer the account's",
        ))
    }
}

/// One-click unsubscribe (RFC 8058): turn the link's kind of email off, without logging in.
/// Returns the kind, and the account's language for the page that says so.
pub fn unsubscribe(
    db: &Database,
    keys: &TokenKeys,
    token: &str,
) -> ServiceResult<(String, Language)> {
    let claims = link_claims(keys, token, "unsubscribe")?;
    let kind = claims.kind.unwrap_or_default();
    let mut changes = PreferenceChanges::default();
    match kind.as_str() {
        "your_turn" | "digest" => changes.your_turn = Some(false),
        "deadline_reminder" => changes.deadline_reminder = Some(false),
        "invitation" => changes.invitation = Some(false),
        "game_started" => changes.game_started = Some(false),
        "game_over" => changes.game_over = Some(false),
        "mail_reply" => changes.moves_by_reply = Some(false),
        _ => {
            return Err(ServiceError::invalid(
                "invalid_link",
                "nothing to unsubscribe from",
            ))
        }
    }
    if kind == "digest" {
        changes.digest_hours = Some(None);
    }
    db.write(|conn| store::change_preferences(conn, claims.uid, &changes))?;
    Ok((kind, link_language(db, keys, token)))
}
