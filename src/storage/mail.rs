//! Players' email settings: address, verification, bounces, language and preferences.

use diesel::prelude::*;

use super::schema::mail_settings;
use super::{DbConnection, StorageError};

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = mail_settings)]
pub struct MailSettingsRow {
    pub user_id: i64,
    pub email: Option<String>,
    pub verified_at: Option<i64>,
    pub bounced_at: Option<i64>,
    pub language: String,
    pub your_turn: bool,
    pub deadline_reminder: bool,
    pub invitation: bool,
    pub game_started: bool,
    pub game_over: bool,
    pub digest_hours: Option<i32>,
    pub last_digest_at: Option<i64>,
    /// What reaches the player's devices by push, kind by kind.
    pub push_your_turn: bool,
    pub push_deadline_reminder: bool,
    pub push_invitation: bool,
    pub push_game_started: bool,
    pub push_game_over: bool,
    /// The "your turn" email offers the turn's choices, and a reply to it plays them.
    pub moves_by_reply: bool,
}

/// What a player may change; `None` leaves a setting as it is.
#[derive(Debug, Default, AsChangeset)]
#[diesel(table_name = mail_settings)]
pub struct PreferenceChanges<'a> {
    pub language: Option<&'a str>,
    pub your_turn: Option<bool>,
    pub deadline_reminder: Option<bool>,
    pub invitation: Option<bool>,
    pub game_started: Option<bool>,
    pub game_over: Option<bool>,
    pub digest_hours: Option<Option<i32>>,
    pub last_digest_at: Option<Option<i64>>,
    pub push_your_turn: Option<bool>,
    pub push_deadline_reminder: Option<bool>,
    pub push_invitation: Option<bool>,
    pub push_game_started: Option<bool>,
    pub push_game_over: Option<bool>,
    pub moves_by_reply: Option<bool>,
}

pub fn settings(
    conn: &mut DbConnection,
    user_id: i64,
) -> Result<Option<MailSettingsRow>, StorageError> {
    Ok(mail_settings::table
        .find(user_id)
        .select(MailSettingsRow::as_select())
        .first(conn)
        .optional()?)
}

/// The user's settings, created with defaults (and this language) if they have none yet.
pub fn ensure(
    conn: &mut DbConnection,
    user_id: i64,
    language: &str,
) -> Result<MailSettingsRow, StorageError> {
    if let Some(row) = settings(conn, user_id)? {
        return Ok(row);
    }
    diesel::insert_into(mail_settings::table)
        .values((
            mail_settings::user_id.eq(user_id),
            mail_settings::language.eq(language),
        ))
        .execute(conn)
        .map_err(StorageError::from_write)?;
    settings(conn, user_id)?.ok_or(StorageError::Corrupt("settings not written".into()))
}

/// A new address (or none): unverified and not bounced until proven otherwise.
pub fn set_email(
    conn: &mut DbConnection,
    user_id: i64,
    email: Option<&str>,
) -> Result<(), StorageError> {
    diesel::update(mail_settings::table.find(user_id))
        .set((
            mail_settings::email.eq(email),
            mail_settings::verified_at.eq(None::<i64>),
            mail_settings::bounced_at.eq(None::<i64>),
        ))
        .execute(conn)?;
    Ok(())
}

/// Mark the address verified, if it is still the user's address. Returns whether it was.
pub fn verify(
    conn: &mut DbConnection,
    user_id: i64,
    email: &str,
    now: i64,
) -> Result<bool, StorageError> {
    let changed = diesel::update(
        mail_settings::table
            .find(user_id)
            .filter(mail_settings::email.eq(email)),
    )
    .set(mail_settings::verified_at.eq(now))
    .execute(conn)?;
    Ok(changed == 1)
}

pub fn change_preferences(
    conn: &mut DbConnection,
    user_id: i64,
    changes: &PreferenceChanges<'_>,
) -> Result<(), StorageError> {
    diesel::update(mail_settings::table.find(user_id))
        .set(changes)
        .execute(conn)?;
    Ok(())
}

/// The relay refused this address for good.
pub fn mark_bounced(
    conn: &mut DbConnection,
    user_id: i64,
    email: &str,
    now: i64,
) -> Result<(), StorageError> {
    diesel::update(
        mail_settings::table
            .find(user_id)
            .filter(mail_settings::email.eq(email)),
    )
    .set(mail_settings::bounced_at.eq(now))
    .execute(conn)?;
    Ok(())
}

/// Players in digest mode with a usable address whose next digest is due by `now`.
pub fn digests_due(
    conn: &mut DbConnection,
    now: i64,
    limit: i64,
) -> Result<Vec<MailSettingsRow>, StorageError> {
    let rows: Vec<MailSettingsRow> = mail_settings::table
        .filter(mail_settings::digest_hours.is_not_null())
        .filter(mail_settings::verified_at.is_not_null())
        .filter(mail_settings::bounced_at.is_null())
        .order(mail_settings::last_digest_at.asc())
        .limit(limit)
        .select(MailSettingsRow::as_select())
        .load(conn)?;
    Ok(rows
        .into_iter()
        .filter(|r| {
            let every = r.digest_hours.unwrap_or(24).max(1) as i64 * 3600 * 1000;
            r.last_digest_at.is_none_or(|last| last + every <= now)
        })
        .collect())
}

/// Record a digest as sent at `now`, unless another instance did since `last` (returns false).
pub fn digest_sent(
    conn: &mut DbConnection,
    user_id: i64,
    last: Option<i64>,
    now: i64,
) -> Result<bool, StorageError> {
    let target = mail_settings::table.find(user_id);
    let changed = match last {
        Some(last) => diesel::update(target.filter(mail_settings::last_digest_at.eq(last)))
            .set(mail_settings::last_digest_at.eq(now))
            .execute(conn)?,
        None => diesel::update(target.filter(mail_settings::last_digest_at.is_null()))
            .set(mail_settings::last_digest_at.eq(now))
            .execute(conn)?,
    };
    Ok(changed == 1)
}
