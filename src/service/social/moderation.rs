//! Reports and moderation. A player reports another player, or a message they can read, with a
//! reason. Moderators (a role an operator gives with `keltis moderator`, never through the API)
//! read the open reports with their context (the messages around a reported one), and mute (no
//! chat for a while), suspend (no sign-in and no new
//! games for a while: the player's sessions end, their open games are left and their games under
//! way resigned, so that with 3 or 4 players the stand-in bot plays on, as after a time-out), or
//! dismiss. A muted or suspended player is told (a notification, by email whatever the
//! preferences, and each refusal says until when). Every action is kept in an audit log that moderators read. Moderation is done from a
//! signed-in session, never with a token.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::chat::ChatMessage;
use crate::ratings::RatingParameters;
use crate::service::accounts::{deletion, Caller, Scope};
use crate::service::notify::notifications::{queue, Notice};
use crate::service::{ServiceError, ServiceResult};
use crate::storage::moderation::{self as store, NewAction, ReportRow};
use crate::storage::{accounts as users, games as game_store, social, Database, DbConnection};

/// Messages shown before and after a reported one.
const CONTEXT: i64 = 5;
/// The longest reason, in characters.
const MAX_REASON: usize = 1000;
/// The longest mute or suspension: a year.
const MAX_HOURS: i64 = 24 * 366;

/// A report of a player, or of one of their messages.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"user": "ben", "message_id": 42, "reason": "insults"}))]
pub struct NewReport {
    /// The player reported.
    #[schema(min_length = 3, max_length = 32)]
    pub user: String,
    /// One of their messages, at a table the reporter sits at.
    #[serde(default)]
    pub message_id: Option<i64>,
    /// Why: 1 to 1,000 characters, no control characters.
    #[schema(min_length = 1, max_length = 1000)]
    pub reason: String,
}

/// A report as it was filed.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct ReportFiled {
    pub id: i64,
}

/// An open report, with the messages around the one reported.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct ReportView {
    pub id: i64,
    pub reporter: String,
    pub user: String,
    pub reason: String,
    /// Milliseconds since the Unix epoch.
    pub created_at: i64,
    /// `open`, `dismissed` or `actioned`.
    pub status: String,
    /// The game of the message reported.
    #[schema(required = true)]
    pub game_id: Option<i64>,
    /// The message reported.
    #[schema(required = true)]
    pub message: Option<ChatMessage>,
    /// Up to five messages of that table before it and five after, in order (it included).
    pub context: Vec<ChatMessage>,
}

/// A mute or a suspension.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"hours": 72, "reason": "insults at table 12", "report_id": 3}))]
pub struct Sanction {
    /// How long: 1 hour to a year.
    #[schema(minimum = 1, maximum = 8784)]
    pub hours: i64,
    /// Why (kept in the audit log): 1 to 1,000 characters.
    #[schema(min_length = 1, max_length = 1000)]
    pub reason: String,
    /// The report this answers: closed as `actioned`.
    #[serde(default)]
    pub report_id: Option<i64>,
}

/// Closing a report without action.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Dismissal {
    /// Why (kept in the audit log): 1 to 1,000 characters.
    #[schema(min_length = 1, max_length = 1000)]
    pub reason: String,
}

/// One line of the audit log.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct AuditEntry {
    pub id: i64,
    pub moderator: String,
    /// `mute`, `suspend` or `dismiss`.
    pub action: String,
    #[schema(required = true)]
    pub user: Option<String>,
    #[schema(required = true)]
    pub report_id: Option<i64>,
    pub reason: String,
    /// Until when a mute or suspension holds (milliseconds since the Unix epoch).
    #[schema(required = true)]
    pub until: Option<i64>,
    pub created_at: i64,
}

fn checked_reason(reason: &str) -> ServiceResult<&str> {
    let reason = reason.trim();
    if reason.is_empty()
        || reason.chars().count() > MAX_REASON
        || reason.chars().any(char::is_control)
    {
        return Err(ServiceError::invalid(
            "invalid_reason",
            format!("a reason has 1 to {MAX_REASON} characters, without control characters"),
        ));
    }
    Ok(reason)
}

/// File a report.
pub fn report(db: &Database, caller: &Caller, new: &NewReport) -> ServiceResult<ReportFiled> {
    caller.require(Scope::Play)?;
    let reason = checked_reason(&new.reason)?;
    let now = db.now();
    db.write(|c| {
        let user = users::user_by_name(c, &new.user)?.ok_or(ServiceError::NotFound("player"))?;
        if user.id == caller.user_id {
            return Err(ServiceError::invalid(
                "cannot_report_self",
                "you cannot report yourself",
            ));
        }
        // A message must be the player's, at a table the reporter sits at.
        let message = match new.message_id {
            None => None,
            Some(id) => {
                let row = social::message(c, id)?
                    .filter(|m| m.user_id == user.id)
                    .ok_or(ServiceError::NotFound("message"))?;
                let seats = game_store::seats(c, row.game_id)?;
                if !seats.iter().any(|s| s.user_id == caller.user_id) {
                    return Err(ServiceError::NotFound("message"));
                }
                Some((row.id, row.game_id))
            }
        };
        let id = store::insert_report(c, caller.user_id, user.id, message, reason, now)?;
        Ok(ReportFiled { id })
    })
}

/// The caller, who must be a moderator in a signed-in session.
fn moderator(conn: &mut DbConnection, caller: &Caller) -> ServiceResult<()> {
    caller.require_session("moderation is done from a signed-in session")?;
    match users::user_by_id(conn, caller.user_id)? {
        Some(u) if u.moderator && u.deleted_at.is_none() => Ok(()),
        _ => Err(ServiceError::forbidden(
            "not_moderator",
            "only moderators may do this",
        )),
    }
}

fn name_of(names: &[(i64, String)], id: i64) -> String {
    names
        .iter()
        .find(|(i, _)| *i == id)
        .map(|(_, n)| n.clone())
        .unwrap_or_default()
}

/// Open reports, oldest first, after report `after`, with their context.
pub fn open_reports(
    db: &Database,
    caller: &Caller,
    after: Option<i64>,
    limit: i64,
) -> ServiceResult<Vec<ReportView>> {
    db.read(|c| {
        moderator(c, caller)?;
        let rows = store::reports_with(c, "open", after.unwrap_or(0), limit)?;
        rows.into_iter().map(|r| report_view(c, r)).collect()
    })
}

fn report_view(conn: &mut DbConnection, row: ReportRow) -> ServiceResult<ReportView> {
    let names = store::names(conn, &[row.reporter_id, row.user_id])?;
    let (message, context) = match (row.message_id, row.game_id) {
        (Some(id), Some(game_id)) => {
            let before = social::messages(conn, game_id, 0, Some(id + 1), &[], false, CONTEXT + 1)?;
            let after = social::messages(conn, game_id, id, None, &[], true, CONTEXT)?;
            let mut context: Vec<ChatMessage> =
                before.into_iter().rev().map(ChatMessage::from).collect();
            let message = context.iter().find(|m| m.id == id).cloned();
            context.extend(after.into_iter().map(ChatMessage::from));
            (message, context)
        }
        _ => (None, Vec::new()),
    };
    Ok(ReportView {
        id: row.id,
        reporter: name_of(&names, row.reporter_id),
        user: name_of(&names, row.user_id),
        reason: row.reason,
        created_at: row.created_at,
        status: row.status,
        game_id: row.game_id,
        message,
        context,
    })
}

/// Close an open report without action.
pub fn dismiss(
    db: &Database,
    caller: &Caller,
    report_id: i64,
    dismissal: &Dismissal,
) -> ServiceResult<()> {
    let reason = checked_reason(&dismissal.reason)?;
    let now = db.now();
    db.write(|c| {
        moderator(c, caller)?;
        let report = store::report(c, report_id)?.ok_or(ServiceError::NotFound("report"))?;
        if !store::close_report(c, report_id, "dismissed", now)? {
            return Err(ServiceError::conflict(
                "report_closed",
                "that report was already handled",
            ));
        }
        let action = NewAction {
            moderator_id: caller.user_id,
            action: "dismiss",
            user_id: Some(report.user_id),
            report_id: Some(report_id),
            reason,
            until_at: None,
        };
        store::insert_action(c, &action, now)?;
        Ok(())
    })
}

/// What a sanction does to the account, in the transaction that records it.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Mute,
    Suspend,
}

/// Record a mute or a suspension of `name` for `sanction.hours`; returns the player's id.
fn sanction(
    db: &Database,
    caller: &Caller,
    name: &str,
    sanction: &Sanction,
    kind: Kind,
) -> ServiceResult<(i64, String)> {
    let reason = checked_reason(&sanction.reason)?;
    if !(1..=MAX_HOURS).contains(&sanction.hours) {
        return Err(ServiceError::invalid(
            "invalid_sanction",
            format!("hours is 1 to {MAX_HOURS}"),
        ));
    }
    let now = db.now();
    let until = now + sanction.hours * 3_600_000;
    db.write(|c| {
        moderator(c, caller)?;
        let user = users::user_by_name(c, name)?.ok_or(ServiceError::NotFound("player"))?;
        if let Some(report_id) = sanction.report_id {
            store::report(c, report_id)?.ok_or(ServiceError::NotFound("report"))?;
            store::close_report(c, report_id, "actioned", now)?;
        }
        match kind {
            Kind::Mute => store::set_muted_until(c, user.id, Some(until))?,
            Kind::Suspend => {
                store::set_suspended_until(c, user.id, Some(until))?;
                users::revoke_sessions(c, user.id, None, now)?;
                crate::storage::pairing::close_all_of(c, user.id, "withdrawn", now)?;
            }
        }
        let action = NewAction {
            moderator_id: caller.user_id,
            action: if kind == Kind::Mute {
                "mute"
            } else {
                "suspend"
            },
            user_id: Some(user.id),
            report_id: sanction.report_id,
            reason,
            until_at: Some(until),
        };
        store::insert_action(c, &action, now)?;
        // The player hears of it (in the notifications, and by email whatever the preferences).
        let notice = Notice::Moderated {
            action: action.action.to_string(),
            until,
            reason: reason.to_string(),
        };
        queue(c, user.id, &notice, now)?;
        Ok((user.id, user.name))
    })
}

/// Mute a player: no chat until the time given.
pub fn mute(db: &Database, caller: &Caller, name: &str, s: &Sanction) -> ServiceResult<()> {
    sanction(db, caller, name, s, Kind::Mute).map(|_| ())
}

/// Suspend a player: no sign-in and no new games until the time given; their sessions end, their
/// open games are left and their games under way resigned (the stand-in plays on with 3 or 4),
/// and they are withdrawn from events.
pub fn suspend(
    db: &Database,
    caller: &Caller,
    name: &str,
    s: &Sanction,
    ratings: &RatingParameters,
) -> ServiceResult<()> {
    let (user_id, name) = sanction(db, caller, name, s, Kind::Suspend)?;
    // Out of events (as out of pairing): taken back from those not started, withdrawn from those
    // running, so that no round is dealt to a player who cannot play it.
    let now = db.now();
    db.write(|c| crate::storage::events::withdraw_user(c, user_id, now))?;
    let player = Caller {
        user_id,
        name,
        scopes: vec![Scope::Read, Scope::Play],
        session_id: None,
    };
    deletion::leave_every_game(db, &player, ratings)
}

/// The audit log, newest first, before entry `before`.
pub fn audit(
    db: &Database,
    caller: &Caller,
    before: Option<i64>,
    limit: i64,
) -> ServiceResult<Vec<AuditEntry>> {
    db.read(|c| {
        moderator(c, caller)?;
        let rows = store::actions(c, before, limit)?;
        let mut ids: Vec<i64> = rows.iter().map(|r| r.moderator_id).collect();
        ids.extend(rows.iter().filter_map(|r| r.user_id));
        let names = store::names(c, &ids)?;
        Ok(rows
            .into_iter()
            .map(|r| AuditEntry {
                id: r.id,
                moderator: name_of(&names, r.moderator_id),
                action: r.action,
                user: r.user_id.map(|id| name_of(&names, id)),
                report_id: r.report_id,
                reason: r.reason,
                until: r.until_at,
                created_at: r.created_at,
            })
            .collect())
    })
}

/// Give or take the moderator role (the operator's `keltis moderator`); false for no such user.
pub fn set_moderator(db: &Database, name: &str, moderator: bool) -> ServiceResult<bool> {
    Ok(db.write(|c| store::set_moderator(c, name, moderator))?)
}
