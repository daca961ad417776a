//! Webhook endpoints, their deliveries (an outbox written with the notices that cause them) and
//! the log of every attempt.

use diesel::prelude::*;

use super::schema::{webhook_attempts, webhook_deliveries, webhooks};
use super::{DbConnection, StorageError};

#[derive(Clone, Debug, Queryable, Selectable)]
#[diesel(table_name = webhooks)]
pub struct WebhookRow {
    pub id: i64,
    pub user_id: i64,
    pub url: String,
    pub kinds: String,
    pub secret: String,
    pub created_at: i64,
    pub failures: i32,
    pub disabled_at: Option<i64>,
}

#[derive(Clone, Debug, Queryable, Selectable)]
#[diesel(table_name = webhook_deliveries)]
pub struct DeliveryRow {
    pub id: i64,
    pub webhook_id: i64,
    pub notification_id: i64,
    pub kind: String,
    pub payload: String,
    pub created_at: i64,
    pub status: String,
    pub attempts: i32,
    pub next_attempt_at: i64,
}

#[derive(Clone, Debug, Queryable)]
pub struct AttemptRow {
    pub id: i64,
    pub delivery_id: i64,
    pub attempted_at: i64,
    pub status_code: Option<i32>,
    pub error: Option<String>,
    pub succeeded: bool,
    pub notification_id: i64,
    pub kind: String,
}

/// `kinds` as stored: `,your_turn,game_over,`, so that one kind matches `%,kind,%`.
pub fn kinds_column(kinds: &[&str]) -> String {
    format!(",{},", kinds.join(","))
}

pub fn create(
    conn: &mut DbConnection,
    user_id: i64,
    url: &str,
    kinds: &str,
    secret: &str,
    now: i64,
) -> Result<WebhookRow, StorageError> {
    let id: i64 = diesel::insert_into(webhooks::table)
        .values((
            webhooks::user_id.eq(user_id),
            webhooks::url.eq(url),
            webhooks::kinds.eq(kinds),
            webhooks::secret.eq(secret),
            webhooks::created_at.eq(now),
        ))
        .returning(webhooks::id)
        .get_result(conn)?;
    one(conn, user_id, id)?.ok_or(StorageError::Corrupt("a webhook just written".into()))
}

pub fn of_user(conn: &mut DbConnection, user_id: i64) -> Result<Vec<WebhookRow>, StorageError> {
    Ok(webhooks::table
        .filter(webhooks::user_id.eq(user_id))
        .order(webhooks::id.asc())
        .select(WebhookRow::as_select())
        .load(conn)?)
}

pub fn one(
    conn: &mut DbConnection,
    user_id: i64,
    id: i64,
) -> Result<Option<WebhookRow>, StorageError> {
    Ok(webhooks::table
        .filter(webhooks::id.eq(id))
        .filter(webhooks::user_id.eq(user_id))
        .select(WebhookRow::as_select())
        .first(conn)
        .optional()?)
}

/// Delete one of a user's endpoints (its deliveries and log go with it); false if none.
pub fn delete(conn: &mut DbConnection, user_id: i64, id: i64) -> Result<bool, StorageError> {
    let mine = webhooks::table
        .filter(webhooks::id.eq(id))
        .filter(webhooks::user_id.eq(user_id));
    if mine
        .select(webhooks::id)
        .first::<i64>(conn)
        .optional()?
        .is_none()
    {
        return Ok(false);
    }
    let deliveries = webhook_deliveries::table
        .filter(webhook_deliveries::webhook_id.eq(id))
        .select(webhook_deliveries::id);
    diesel::delete(
        webhook_attempts::table.filter(webhook_attempts::delivery_id.eq_any(deliveries)),
    )
    .execute(conn)?;
    diesel::delete(webhook_deliveries::table.filter(webhook_deliveries::webhook_id.eq(id)))
        .execute(conn)?;
    Ok(diesel::delete(mine).execute(conn)? == 1)
}

/// Deliveries whose outcome is known and older than `before`, with their attempts (the
/// maintenance sweep): the delivery log keeps what a player may still want to look into.
pub fn delete_finished(conn: &mut DbConnection, before: i64) -> Result<usize, StorageError> {
    let finished = || {
        webhook_deliveries::table
            .filter(webhook_deliveries::status.ne("pending"))
            .filter(webhook_deliveries::created_at.lt(before))
    };
    diesel::delete(
        webhook_attempts::table.filter(
            webhook_attempts::delivery_id.eq_any(finished().select(webhook_deliveries::id)),
        ),
    )
    .execute(conn)?;
    Ok(diesel::delete(finished()).execute(conn)?)
}

/// Endpoints whose kept signing secret does not start with `sealed_prefix` (kept in the clear,
/// from before secrets were sealed).
pub fn secrets_in_the_clear(
    conn: &mut DbConnection,
    sealed_prefix: &str,
) -> Result<Vec<(i64, String)>, StorageError> {
    Ok(webhooks::table
        .filter(webhooks::secret.not_like(format!("{sealed_prefix}%")))
        .select((webhooks::id, webhooks::secret))
        .load(conn)?)
}

/// Replace an endpoint's kept secret, if it is still `was`; whether it was replaced.
pub fn replace_secret(
    conn: &mut DbConnection,
    id: i64,
    was: &str,
    kept: &str,
) -> Result<bool, StorageError> {
    Ok(diesel::update(
        webhooks::table
            .filter(webhooks::id.eq(id))
            .filter(webhooks::secret.eq(was)),
    )
    .set(webhooks::secret.eq(kept))
    .execute(conn)?
        == 1)
}

/// Turn a disabled endpoint on again, its failures forgotten.
pub fn enable(conn: &mut DbConnection, user_id: i64, id: i64) -> Result<bool, StorageError> {
    Ok(diesel::update(
        webhooks::table
            .filter(webhooks::id.eq(id))
            .filter(webhooks::user_id.eq(user_id)),
    )
    .set((
        webhooks::disabled_at.eq(None::<i64>),
        webhooks::failures.eq(0),
    ))
    .execute(conn)?
        == 1)
}

/// Queue a delivery of notification `notification_id` to every enabled endpoint of `user_id`
/// that wants `kind` (in the transaction that queues the notification).
pub fn enqueue(
    conn: &mut DbConnection,
    user_id: i64,
    kind: &str,
    notification_id: i64,
    payload: &str,
    now: i64,
) -> Result<usize, StorageError> {
    // Looked up for every "your turn" notice on SQLite (in the writer's turn): on the backend's
    // connection.
    let pattern = format!("%,{kind},%");
    let endpoints: Vec<i64> = on_backend!(conn, |c| webhooks::table
        .filter(webhooks::user_id.eq(user_id))
        .filter(webhooks::disabled_at.is_null())
        .filter(webhooks::kinds.like(&pattern))
        .select(webhooks::id)
        .load(c))?;
    for webhook_id in &endpoints {
        diesel::insert_into(webhook_deliveries::table)
            .values((
                webhook_deliveries::webhook_id.eq(webhook_id),
                webhook_deliveries::notification_id.eq(notification_id),
                webhook_deliveries::kind.eq(kind),
                webhook_deliveries::payload.eq(payload),
                webhook_deliveries::created_at.eq(now),
                webhook_deliveries::next_attempt_at.eq(now),
            ))
            .execute(conn)?;
    }
    Ok(endpoints.len())
}

/// Take up to `limit` due deliveries with their endpoints for `lease_ms` (as the mail outbox:
/// `FOR UPDATE SKIP LOCKED` on PostgreSQL, so two instances never take the same one).
pub fn claim(
    conn: &mut DbConnection,
    now: i64,
    lease_ms: i64,
    limit: i64,
) -> Result<Vec<(DeliveryRow, WebhookRow)>, StorageError> {
    let due = webhook_deliveries::table
        .filter(webhook_deliveries::status.eq("pending"))
        .filter(webhook_deliveries::next_attempt_at.le(now))
        .order(webhook_deliveries::next_attempt_at.asc())
        .limit(limit)
        .select(webhook_deliveries::id);
    let ids: Vec<i64> = match conn {
        DbConnection::Postgresql(c) => due.for_update().skip_locked().load(c)?,
        DbConnection::Sqlite(c) => due.load(c)?,
    };
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    diesel::update(webhook_deliveries::table.filter(webhook_deliveries::id.eq_any(&ids)))
        .set((
            webhook_deliveries::next_attempt_at.eq(now + lease_ms),
            webhook_deliveries::attempts.eq(webhook_deliveries::attempts + 1),
        ))
        .execute(conn)?;
    Ok(webhook_deliveries::table
        .inner_join(webhooks::table)
        .filter(webhook_deliveries::id.eq_any(&ids))
        .order(webhook_deliveries::id.asc())
        .select((DeliveryRow::as_select(), WebhookRow::as_select()))
        .load(conn)?)
}

/// What became of one attempt.
pub struct Attempt<'a> {
    pub at: i64,
    pub status_code: Option<i32>,
    pub error: Option<&'a str>,
    pub succeeded: bool,
    /// The delivery's next attempt; `None`: no more (sent, or given up on).
    pub retry_at: Option<i64>,
    /// Failures in a row at which the endpoint is disabled.
    pub disable_after: i32,
}

/// Log an attempt and move the delivery and its endpoint on.
pub fn record_attempt(
    conn: &mut DbConnection,
    delivery: &DeliveryRow,
    attempt: &Attempt<'_>,
) -> Result<(), StorageError> {
    diesel::insert_into(webhook_attempts::table)
        .values((
            webhook_attempts::delivery_id.eq(delivery.id),
            webhook_attempts::webhook_id.eq(delivery.webhook_id),
            webhook_attempts::attempted_at.eq(attempt.at),
            webhook_attempts::status_code.eq(attempt.status_code),
            webhook_attempts::error.eq(attempt.error),
            webhook_attempts::succeeded.eq(attempt.succeeded),
        ))
        .execute(conn)?;
    let status = match (attempt.succeeded, attempt.retry_at) {
        (true, _) => "sent",
        (false, Some(_)) => "pending",
        (false, None) => "failed",
    };
    diesel::update(webhook_deliveries::table.find(delivery.id))
        .set((
            webhook_deliveries::status.eq(status),
            webhook_deliveries::next_attempt_at
                .eq(attempt.retry_at.unwrap_or(delivery.next_attempt_at)),
        ))
        .execute(conn)?;
    let endpoint = webhooks::table.find(delivery.webhook_id);
    if attempt.succeeded {
        diesel::update(endpoint)
            .set(webhooks::failures.eq(0))
            .execute(conn)?;
    } else {
        diesel::update(endpoint)
            .set(webhooks::failures.eq(webhooks::failures + 1))
            .execute(conn)?;
        diesel::update(
            endpoint
                .filter(webhooks::failures.ge(attempt.disable_after))
                .filter(webhooks::disabled_at.is_null()),
        )
        .set(webhooks::disabled_at.eq(Some(attempt.at)))
        .execute(conn)?;
    }
    Ok(())
}

/// Give up on a delivery without an attempt (its endpoint is disabled).
pub fn drop_delivery(conn: &mut DbConnection, id: i64) -> Result<(), StorageError> {
    diesel::update(webhook_deliveries::table.find(id))
        .set(webhook_deliveries::status.eq("failed"))
        .execute(conn)?;
    Ok(())
}

/// An endpoint's attempts, newest first; `before`: only older ones.
pub fn attempts(
    conn: &mut DbConnection,
    webhook_id: i64,
    before: Option<i64>,
    limit: i64,
) -> Result<Vec<AttemptRow>, StorageError> {
    let mut query = webhook_attempts::table
        .inner_join(
            webhook_deliveries::table.on(webhook_deliveries::id.eq(webhook_attempts::delivery_id)),
        )
        .filter(webhook_attempts::webhook_id.eq(webhook_id))
        .into_boxed();
    if let Some(id) = before {
        query = query.filter(webhook_attempts::id.lt(id));
    }
    Ok(query
        .order(webhook_attempts::id.desc())
        .limit(limit)
        .select((
            webhook_attempts::id,
            webhook_attempts::delivery_id,
            webhook_attempts::attempted_at,
            webhook_attempts::status_code,
            webhook_attempts::error,
            webhook_attempts::succeeded,
            webhook_deliveries::notification_id,
            webhook_deliveries::kind,
        ))
        .load(conn)?)
}

/// Webhook deliveries waiting (the outbox's depth).
pub fn pending_count(conn: &mut DbConnection) -> Result<i64, StorageError> {
    Ok(webhook_deliveries::table
        .filter(webhook_deliveries::status.eq("pending"))
        .count()
        .get_result(conn)?)
}
