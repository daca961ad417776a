//! Web Push devices (subscriptions) and their deliveries: an outbox written with the notices
//! that cause them, claimed with leases by the push worker of any instance.

use diesel::prelude::*;

use super::schema::{push_deliveries, push_subscriptions};
use super::{DbConnection, StorageError};

#[derive(Clone, Debug, Queryable, Selectable)]
#[diesel(table_name = push_subscriptions)]
pub struct SubscriptionRow {
    pub id: i64,
    pub user_id: i64,
    pub endpoint: String,
    pub p256dh: String,
    pub auth: String,
    pub user_agent: Option<String>,
    pub created_at: i64,
    pub last_success_at: Option<i64>,
}

#[derive(Clone, Debug, Queryable, Selectable)]
#[diesel(table_name = push_deliveries)]
pub struct PushDeliveryRow {
    pub id: i64,
    pub subscription_id: i64,
    pub notification_id: i64,
    pub kind: String,
    pub payload: String,
    pub created_at: i64,
    pub status: String,
    pub attempts: i32,
    pub next_attempt_at: i64,
}

/// A device to register.
pub struct NewSubscription<'a> {
    pub user_id: i64,
    pub endpoint: &'a str,
    pub p256dh: &'a str,
    pub auth: &'a str,
    pub user_agent: Option<&'a str>,
}

/// Register a device, or take over its endpoint (a browser subscribing again, perhaps for another
/// account): the endpoint names one device, which belongs to whoever registered it last.
pub fn upsert(
    conn: &mut DbConnection,
    new: &NewSubscription<'_>,
    now: i64,
) -> Result<SubscriptionRow, StorageError> {
    // One statement: an endpoint registered twice at the same moment updates its device.
    let upsert = diesel::insert_into(push_subscriptions::table)
        .values((
            push_subscriptions::user_id.eq(new.user_id),
            push_subscriptions::endpoint.eq(new.endpoint),
            push_subscriptions::p256dh.eq(new.p256dh),
            push_subscriptions::auth.eq(new.auth),
            push_subscriptions::user_agent.eq(new.user_agent),
            push_subscriptions::created_at.eq(now),
        ))
        .on_conflict(push_subscriptions::endpoint)
        .do_update()
        .set((
            push_subscriptions::user_id.eq(new.user_id),
            push_subscriptions::p256dh.eq(new.p256dh),
            push_subscriptions::auth.eq(new.auth),
            push_subscriptions::user_agent.eq(new.user_agent),
        ))
        .returning(push_subscriptions::id);
    let id: i64 = on_backend!(conn, |c| upsert.get_result(c))?;
    Ok(push_subscriptions::table
        .find(id)
        .select(SubscriptionRow::as_select())
        .first(conn)?)
}

pub fn of_user(
    conn: &mut DbConnection,
    user_id: i64,
) -> Result<Vec<SubscriptionRow>, StorageError> {
    Ok(push_subscriptions::table
        .filter(push_subscriptions::user_id.eq(user_id))
        .order(push_subscriptions::id.asc())
        .select(SubscriptionRow::as_select())
        .load(conn)?)
}

/// The user's device `id`, if it is theirs.
pub fn one(
    conn: &mut DbConnection,
    user_id: i64,
    id: i64,
) -> Result<Option<SubscriptionRow>, StorageError> {
    Ok(push_subscriptions::table
        .filter(push_subscriptions::id.eq(id))
        .filter(push_subscriptions::user_id.eq(user_id))
        .select(SubscriptionRow::as_select())
        .first(conn)
        .optional()?)
}

/// Forget a device and its deliveries; whether it existed.
pub fn delete(conn: &mut DbConnection, id: i64) -> Result<bool, StorageError> {
    diesel::delete(push_deliveries::table.filter(push_deliveries::subscription_id.eq(id)))
        .execute(conn)?;
    Ok(diesel::delete(push_subscriptions::table.find(id)).execute(conn)? == 1)
}

/// Queue a push of notification `notification_id` to every device of `user_id` (in the
/// transaction that queues the notification).
pub fn enqueue(
    conn: &mut DbConnection,
    user_id: i64,
    kind: &str,
    notification_id: i64,
    payload: &str,
    now: i64,
) -> Result<usize, StorageError> {
    // Looked up for every notice on SQLite (in the writer's turn): on the backend's connection.
    let devices: Vec<i64> = on_backend!(conn, |c| push_subscriptions::table
        .filter(push_subscriptions::user_id.eq(user_id))
        .select(push_subscriptions::id)
        .load(c))?;
    for subscription_id in &devices {
        diesel::insert_into(push_deliveries::table)
            .values((
                push_deliveries::subscription_id.eq(subscription_id),
                push_deliveries::notification_id.eq(notification_id),
                push_deliveries::kind.eq(kind),
                push_deliveries::payload.eq(payload),
                push_deliveries::created_at.eq(now),
                push_deliveries::next_attempt_at.eq(now),
            ))
            .execute(conn)?;
    }
    Ok(devices.len())
}

/// Queue a test push to one device (`notification_id`: a negative number of its own).
pub fn enqueue_test(
    conn: &mut DbConnection,
    subscription_id: i64,
    notification_id: i64,
    now: i64,
) -> Result<(), StorageError> {
    diesel::insert_into(push_deliveries::table)
        .values((
            push_deliveries::subscription_id.eq(subscription_id),
            push_deliveries::notification_id.eq(notification_id),
            push_deliveries::kind.eq("test"),
            push_deliveries::payload.eq("{}"),
            push_deliveries::created_at.eq(now),
            push_deliveries::next_attempt_at.eq(now),
        ))
        .execute(conn)?;
    Ok(())
}

/// Take up to `limit` due deliveries with their devices for `lease_ms` (`FOR UPDATE SKIP
/// LOCKED` on PostgreSQL, so two instances never take the same one).
pub fn claim(
    conn: &mut DbConnection,
    now: i64,
    lease_ms: i64,
    limit: i64,
) -> Result<Vec<(PushDeliveryRow, SubscriptionRow)>, StorageError> {
    let due = push_deliveries::table
        .filter(push_deliveries::status.eq("pending"))
        .filter(push_deliveries::next_attempt_at.le(now))
        // In the order they fell due, and then were queued: what was queued first goes first.
        .order((
            push_deliveries::next_attempt_at.asc(),
            push_deliveries::id.asc(),
        ))
        .limit(limit)
        .select(push_deliveries::id);
    let ids: Vec<i64> = match conn {
        DbConnection::Postgresql(c) => due.for_update().skip_locked().load(c)?,
        DbConnection::Sqlite(c) => due.load(c)?,
    };
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    diesel::update(push_deliveries::table.filter(push_deliveries::id.eq_any(&ids)))
        .set((
            push_deliveries::next_attempt_at.eq(now + lease_ms),
            push_deliveries::attempts.eq(push_deliveries::attempts + 1),
        ))
        .execute(conn)?;
    Ok(push_deliveries::table
        .inner_join(push_subscriptions::table)
        .filter(push_deliveries::id.eq_any(&ids))
        .order(push_deliveries::id.asc())
        .select((PushDeliveryRow::as_select(), SubscriptionRow::as_select()))
        .load(conn)?)
}

/// What became of a delivery: `status` (`sent`, `skipped`, `failed`) for good, or `pending`
/// again at `retry_at`.
pub fn finish(
    conn: &mut DbConnection,
    delivery: &PushDeliveryRow,
    status: &str,
    retry_at: Option<i64>,
    error: Option<&str>,
    now: i64,
) -> Result<(), StorageError> {
    diesel::update(push_deliveries::table.find(delivery.id))
        .set((
            push_deliveries::status.eq(status),
            push_deliveries::next_attempt_at.eq(retry_at.unwrap_or(now)),
            push_deliveries::last_error.eq(error),
        ))
        .execute(conn)?;
    if status == "sent" {
        diesel::update(push_subscriptions::table.find(delivery.subscription_id))
            .set(push_subscriptions::last_success_at.eq(now))
            .execute(conn)?;
    }
    Ok(())
}

/// Deliveries whose outcome is known and older than `before` (the maintenance sweep).
pub fn delete_finished(conn: &mut DbConnection, before: i64) -> Result<usize, StorageError> {
    Ok(diesel::delete(
        push_deliveries::table
            .filter(push_deliveries::status.ne("pending"))
            .filter(push_deliveries::created_at.lt(before)),
    )
    .execute(conn)?)
}

/// Pushes waiting to be sent (the outbox's depth).
pub fn pending_count(conn: &mut DbConnection) -> Result<i64, StorageError> {
    Ok(push_deliveries::table
        .filter(push_deliveries::status.eq("pending"))
        .count()
        .get_result(conn)?)
}
