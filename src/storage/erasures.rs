//! Deleting an account: its personal rows erased, its user row renamed to a placeholder and
//! marked deleted, its former name held (as a keyed hash) for a grace period, and the former name
//! renamed in the stored texts that carry names (event logs, other players' notifications and
//! deliveries, stored answers). `account_erasures` keeps a renaming in progress, so that the
//! maintenance worker finishes one a crash interrupted. What the texts mean is the service's
//! business: here a rewrite is a function from a text to its renamed text (`None`: unchanged).

use diesel::prelude::*;

use super::accounts::lower;
use super::schema::{
    account_erasures, api_tokens, game_archives, game_events, game_invites, idempotency_keys,
    mail_settings, name_changes, notifications, password_resets, push_deliveries,
    push_subscriptions, ratings, recovery_codes, refresh_tokens, sessions, two_factor, users,
    vacations, webhook_attempts, webhook_deliveries, webhooks,
};
use super::{DbConnection, StorageError};

/// Delete every row that belongs to the user alone: sessions and their refresh tokens, API
/// tokens, stored answers, vacations, notifications, email settings, webhooks and their
/// deliveries, push devices and their deliveries, password resets, two-factor sign-in,
/// invitations, ratings, review accuracies, plans for the next turn. Seats, results and the user row stay (the games' records).
pub fn erase_personal_rows(conn: &mut DbConnection, user_id: i64) -> Result<(), StorageError> {
    let own_webhooks = webhooks::table
        .filter(webhooks::user_id.eq(user_id))
        .select(webhooks::id);
    diesel::delete(
        webhook_attempts::table.filter(webhook_attempts::webhook_id.eq_any(own_webhooks)),
    )
    .execute(conn)?;
    let own_webhooks = webhooks::table
        .filter(webhooks::user_id.eq(user_id))
        .select(webhooks::id);
    diesel::delete(
        webhook_deliveries::table.filter(webhook_deliveries::webhook_id.eq_any(own_webhooks)),
    )
    .execute(conn)?;
    diesel::delete(webhooks::table.filter(webhooks::user_id.eq(user_id))).execute(conn)?;
    let own_devices = push_subscriptions::table
        .filter(push_subscriptions::user_id.eq(user_id))
        .select(push_subscriptions::id);
    diesel::delete(
        push_deliveries::table.filter(push_deliveries::subscription_id.eq_any(own_devices)),
    )
    .execute(conn)?;
    diesel::delete(push_subscriptions::table.filter(push_subscriptions::user_id.eq(user_id)))
        .execute(conn)?;
    diesel::delete(refresh_tokens::table.filter(refresh_tokens::user_id.eq(user_id)))
        .execute(conn)?;
    super::pairing::delete_of_user(conn, user_id)?;
    let sessions_deleted =
        diesel::delete(sessions::table.filter(sessions::user_id.eq(user_id))).execute(conn)?;
    if sessions_deleted > 0 {
        super::wakeups::touched(super::wakeups::Topic::Sessions(user_id));
    }
    diesel::delete(api_tokens::table.filter(api_tokens::user_id.eq(user_id))).execute(conn)?;
    diesel::delete(idempotency_keys::table.filter(idempotency_keys::user_id.eq(user_id)))
        .execute(conn)?;
    diesel::delete(vacations::table.filter(vacations::user_id.eq(user_id))).execute(conn)?;
    diesel::delete(notifications::table.filter(notifications::user_id.eq(user_id)))
        .execute(conn)?;
    diesel::delete(mail_settings::table.filter(mail_settings::user_id.eq(user_id)))
        .execute(conn)?;
    diesel::delete(password_resets::table.filter(password_resets::user_id.eq(user_id)))
        .execute(conn)?;
    diesel::delete(recovery_codes::table.filter(recovery_codes::user_id.eq(user_id)))
        .execute(conn)?;
    diesel::delete(two_factor::table.filter(two_factor::user_id.eq(user_id))).execute(conn)?;
    diesel::delete(game_invites::table.filter(game_invites::user_id.eq(user_id))).execute(conn)?;
    diesel::delete(ratings::table.filter(ratings::user_id.eq(user_id))).execute(conn)?;
    super::reviews::erase_user(conn, user_id)?;
    super::plans::erase_user(conn, user_id)?;
    super::oauth::delete_codes_of(conn, user_id)?;
    super::social::erase_user(conn, user_id)?;
    super::inbound_mail::erase_user(conn, user_id)?;
    Ok(())
}

/// Rename the user to `placeholder`, make the password unusable, mark the row deleted and hold
/// the former name (its keyed hash) from now; false when it was deleted already (once only).
pub fn mark_deleted(
    conn: &mut DbConnection,
    user_id: i64,
    placeholder: &str,
    held_name_mac: &str,
    now: i64,
) -> Result<bool, StorageError> {
    let marked = diesel::update(
        users::table
            .find(user_id)
            .filter(users::deleted_at.is_null()),
    )
    .set((
        users::name.eq(placeholder),
        users::password_hash.eq(""),
        users::deleted_at.eq(Some(now)),
        users::held_name_mac.eq(Some(held_name_mac)),
    ))
    .execute(conn)
    .map_err(StorageError::from_write)?;
    if marked == 1 {
        // Seats kept in any instance's memory carry the former name: every game read sees this
        // count change at once (in this commit), and every instance is told to forget them.
        diesel::update(name_changes::table.find(1))
            .set(name_changes::generation.eq(name_changes::generation + 1))
            .execute(conn)
            .map_err(StorageError::from_write)?;
        super::wakeups::touched(super::wakeups::Topic::Renamed(user_id));
    }
    Ok(marked == 1)
}

/// Whether a name with this keyed hash belonged to an account deleted at or after `since`.
pub fn name_held(conn: &mut DbConnection, mac: &str, since: i64) -> Result<bool, StorageError> {
    Ok(diesel::select(diesel::dsl::exists(
        users::table
            .filter(users::held_name_mac.eq(mac))
            .filter(users::deleted_at.ge(since)),
    ))
    .get_result(conn)?)
}

/// Free the names of accounts deleted before `before`; how many.
pub fn release_held_names(conn: &mut DbConnection, before: i64) -> Result<usize, StorageError> {
    Ok(diesel::update(
        users::table
            .filter(users::held_name_mac.is_not_null())
            .filter(users::deleted_at.lt(before)),
    )
    .set(users::held_name_mac.eq(None::<String>))
    .execute(conn)?)
}

/// A renaming still to do.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = account_erasures)]
pub struct ErasureRow {
    pub user_id: i64,
    pub former_name: String,
    pub placeholder: String,
    pub started_at: i64,
    pub claimed_until: i64,
}

/// Record a renaming to do, this instance's until `claimed_until`.
pub fn insert_erasure(conn: &mut DbConnection, row: &ErasureRow) -> Result<(), StorageError> {
    diesel::insert_into(account_erasures::table)
        .values((
            account_erasures::user_id.eq(row.user_id),
            account_erasures::former_name.eq(&row.former_name),
            account_erasures::placeholder.eq(&row.placeholder),
            account_erasures::started_at.eq(row.started_at),
            account_erasures::claimed_until.eq(row.claimed_until),
        ))
        .execute(conn)
        .map_err(StorageError::from_write)?;
    Ok(())
}

/// The renamings nobody holds (their claim ran out: the instance doing one stopped), claimed
/// until `until`.
pub fn claim_erasures(
    conn: &mut DbConnection,
    now: i64,
    until: i64,
) -> Result<Vec<ErasureRow>, StorageError> {
    let mut claimed = Vec::new();
    let stale: Vec<ErasureRow> = account_erasures::table
        .filter(account_erasures::claimed_until.lt(now))
        .select(ErasureRow::as_select())
        .load(conn)?;
    for row in stale {
        // Claimed only if still unclaimed: another instance may have taken it meanwhile.
        let taken = diesel::update(
            account_erasures::table
                .filter(account_erasures::user_id.eq(row.user_id))
                .filter(account_erasures::claimed_until.eq(row.claimed_until)),
        )
        .set(account_erasures::claimed_until.eq(until))
        .execute(conn)?;
        if taken == 1 {
            claimed.push(ErasureRow {
                claimed_until: until,
                ..row
            });
        }
    }
    Ok(claimed)
}

/// The renaming is done.
pub fn finish_erasure(conn: &mut DbConnection, user_id: i64) -> Result<(), StorageError> {
    diesel::delete(account_erasures::table.find(user_id)).execute(conn)?;
    Ok(())
}

/// A text rewrite: the renamed text, or `None` when it does not change.
pub type Rewrite<'a> = &'a dyn Fn(&str) -> Option<String>;

/// `%"name"%` in lower case, for `lower(text)`: the rows whose text may hold the name as a JSON
/// string, whatever its case. (`_` in a name matches any character: a few more rows to look at,
/// never fewer.)
fn quoted(name: &str) -> String {
    format!("%\"{}\"%", name.to_ascii_lowercase())
}

/// Rename in the live event logs (`game_events.payload`); how many events changed.
pub fn rename_in_events(
    conn: &mut DbConnection,
    name: &str,
    rewrite: Rewrite<'_>,
) -> Result<usize, StorageError> {
    let rows: Vec<(i64, i64, String)> = game_events::table
        .filter(lower(game_events::payload).like(quoted(name)))
        .select((game_events::game_id, game_events::seq, game_events::payload))
        .load(conn)?;
    let mut changed = 0;
    for (game_id, seq, payload) in rows {
        if let Some(new) = rewrite(&payload) {
            diesel::update(game_events::table.find((game_id, seq)))
                .set(game_events::payload.eq(new))
                .execute(conn)?;
            changed += 1;
        }
    }
    Ok(changed)
}

/// Rename in `$text` of the rows of `$table` that may hold the name, keyed by `$id`; adds the
/// rows changed to `$changed`.
macro_rules! rename_in {
    ($conn:expr, $name:expr, $rewrite:expr, $changed:ident, $table:ident, $id:ident, $text:ident) => {
        let rows: Vec<(i64, String)> = $table::table
            .filter(lower($table::$text).like(quoted($name)))
            .select(($table::$id, $table::$text))
            .load($conn)?;
        for (id, text) in rows {
            if let Some(new) = $rewrite(&text) {
                diesel::update($table::table.find(id))
                    .set($table::$text.eq(new))
                    .execute($conn)?;
                $changed += 1;
            }
        }
    };
}

/// Rename in notifications, webhook and push deliveries (their payloads) and in stored answers
/// (their bodies); how many rows changed.
pub fn rename_in_messages(
    conn: &mut DbConnection,
    name: &str,
    rewrite: Rewrite<'_>,
) -> Result<usize, StorageError> {
    let mut changed = 0;
    rename_in!(conn, name, rewrite, changed, notifications, id, payload);
    rename_in!(
        conn,
        name,
        rewrite,
        changed,
        webhook_deliveries,
        id,
        payload
    );
    rename_in!(conn, name, rewrite, changed, push_deliveries, id, payload);
    // Stored answers are keyed by user and key.
    let rows: Vec<(i64, String, String)> = idempotency_keys::table
        .filter(lower(idempotency_keys::body).like(quoted(name)))
        .select((
            idempotency_keys::user_id,
            idempotency_keys::key,
            idempotency_keys::body,
        ))
        .load(conn)?;
    for (user_id, key, text) in rows {
        if let Some(new) = rewrite(&text) {
            diesel::update(idempotency_keys::table.find((user_id, &key)))
                .set(idempotency_keys::body.eq(new))
                .execute(conn)?;
            changed += 1;
        }
    }
    Ok(changed)
}

/// The packed logs' games after `after`, in order, at most `limit`.
pub fn archived_games_after(
    conn: &mut DbConnection,
    after: i64,
    limit: i64,
) -> Result<Vec<i64>, StorageError> {
    Ok(game_archives::table
        .filter(game_archives::game_id.gt(after))
        .order(game_archives::game_id.asc())
        .limit(limit)
        .select(game_archives::game_id)
        .load(conn)?)
}
