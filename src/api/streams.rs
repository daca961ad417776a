//! Server-sent events: `/games/{id}/stream` (the caller's view of each new event) and
//! `/me/stream` (the caller's notices), resumable with `Last-Event-ID`, with heartbeat comments;
//! `/stream-tickets` for browsers, whose `EventSource` cannot send an `Authorization` header.

use super::json_body::JsonObject;
use std::collections::VecDeque;
use std::sync::atomic::Ordering;
use std::time::Duration;

use actix_web::http::{header, StatusCode};
use actix_web::web::Bytes;
use actix_web::{get, post, web, HttpRequest, HttpResponse};
use serde::Deserialize;
use tokio::sync::watch;
use utoipa::{IntoParams, ToSchema};

use super::auth::{bearer_caller, Authenticated};
use super::error::{ApiError, Problem};
use super::games::out_of_range;
use super::rate_limit::StreamSlot;
use super::AppState;
use crate::service::accounts::Caller;
use crate::service::notify::live::{self, LiveNotice, StreamTicket, TicketRequest, Waiter};
use crate::service::play::events::{self as game_events, EventView};
use crate::service::social::chat::{self, ChatMessage};

/// Events or notices read from the database at a time.
const READ_BATCH: i64 = 100;

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct StreamQuery {
    /// A ticket from `POST /stream-tickets`, instead of an `Authorization` header.
    pub ticket: Option<String>,
    /// Start after this notice (what `Last-Event-ID` does on a reconnect; the header wins when
    /// both are sent). Default: the next notice.
    #[param(minimum = 0)]
    pub after: Option<i64>,
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct GameStreamQuery {
    /// A ticket from `POST /stream-tickets`, instead of an `Authorization` header.
    pub ticket: Option<String>,
    /// Start after this event (what `Last-Event-ID` does on a reconnect; the header wins when
    /// both are sent). Default: the game's first event.
    #[param(minimum = 0)]
    pub after: Option<i64>,
    /// Carry the table's chat too (`event: chat`, data a `ChatMessage`), for the game's seated
    /// players only (403 `not_seated` for anyone else). Each event id is then
    /// `<event seq>.<message id>`, which `Last-Event-ID` sends back to resume both.
    #[serde(default)]
    pub chat: bool,
    /// With `chat`: start after this message (default: the chat's first message).
    #[param(minimum = 0)]
    pub chat_after: Option<i64>,
}

/// One server-sent event as it travels (its `id:`, `event:` and `data:` lines); comment lines
/// (`: heartbeat`) carry nothing.
#[derive(ToSchema)]
#[allow(dead_code)] // documents the wire format; never built
pub struct ServerSentEvent {
    /// A game event's sequence number (with `chat`: `<sequence number>.<message id>`), or a
    /// notice's id: what `Last-Event-ID` sends back.
    id: String,
    /// The event's or the notice's kind (`decided`, `your_turn`...).
    event: String,
    /// JSON: an `EventView` (or with `chat` a `ChatMessage`) on a game's stream, a `LiveNotice`
    /// on the caller's.
    data: String,
}

/// A ticket that opens one stream without an `Authorization` header, for a minute.
#[utoipa::path(operation_id = "createStreamTicket", tag = "live", security(("bearer" = [])), request_body = TicketRequest, responses(
    (status = 201, body = StreamTicket),
))]
#[post("/stream-tickets")]
pub async fn create_ticket(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    body: JsonObject<TicketRequest>,
) -> Result<HttpResponse, ApiError> {
    let ticket = live::ticket(&state.keys, &caller, &body)?;
    Ok(HttpResponse::Created().json(ticket))
}

/// The caller of a stream: a ticket for this stream, or a bearer token.
async fn stream_caller(
    req: &HttpRequest,
    state: &AppState,
    ticket: Option<&str>,
    game_id: Option<i64>,
) -> Result<Caller, ApiError> {
    match ticket {
        Some(ticket) => Ok(live::redeem(&state.keys, ticket, game_id)?),
        None => bearer_caller(req).await,
    }
}

/// Where the stream starts: `Last-Event-ID`, else `?after=`.
fn resume_after(req: &HttpRequest, after: Option<i64>) -> Result<Option<i64>, ApiError> {
    if after.is_some_and(|a| a < 0) {
        return Err(out_of_range("after", "0 or more"));
    }
    let Some(header) = req.headers().get("Last-Event-ID") else {
        return Ok(after);
    };
    header
        .to_str()
        .ok()
        .and_then(|s| s.trim().parse::<i64>().ok())
        .filter(|a| *a >= 0)
        .map(Some)
        .ok_or_else(|| out_of_range("Last-Event-ID", "a number sent by this stream"))
}

/// Where a game's stream with `chat` starts: `Last-Event-ID` (`N.M`, or a plain `N` for the
/// events alone), else `?after=` and `?chat_after=`.
fn resume_table(req: &HttpRequest, query: &GameStreamQuery) -> Result<(i64, i64), ApiError> {
    if query.chat_after.is_some_and(|a| a < 0) {
        return Err(out_of_range("chat_after", "0 or more"));
    }
    let chat_after = query.chat_after.unwrap_or(0);
    let Some(header) = req.headers().get("Last-Event-ID") else {
        return Ok((resume_after(req, query.after)?.unwrap_or(0), chat_after));
    };
    let sent = header.to_str().ok().map(str::trim).unwrap_or_default();
    let number = |s: &str| s.parse::<i64>().ok().filter(|n| *n >= 0);
    let resumed = match sent.split_once('.') {
        Some((seq, msg)) => number(seq).zip(number(msg)),
        None => number(sent).map(|seq| (seq, chat_after)),
    };
    resumed.ok_or_else(|| out_of_range("Last-Event-ID", "an id sent by this stream"))
}

/// One event as a server-sent event: its id, its kind, its JSON.
fn frame(id: impl std::fmt::Display, kind: &str, json: &str) -> Bytes {
    Bytes::from(format!("id: {id}\nevent: {kind}\ndata: {json}\n\n"))
}

const HEARTBEAT: &[u8] = b": heartbeat\n\n";

/// A stream reads again every this many heartbeats (a minute by default), woken or not: a
/// wake-up lost with an instance that stopped between its commit and its NOTIFY delays an event
/// by that much at most. Not at every heartbeat: thousands of idle streams would then read
/// every few seconds.
const LOOK_AGAIN_EVERY: u32 = 4;

/// What a stream sends next: read through `read` (after the last id sent) whenever its waiter is
/// woken (and every few heartbeats), a heartbeat comment when nothing happened for a while,
/// nothing more once the server stops.
struct Stream<T: Item> {
    pending: VecDeque<T>,
    after: T::Cursor,
    /// The last read found everything there was: read again only when woken (or every
    /// [`LOOK_AGAIN_EVERY`] heartbeats).
    caught_up: bool,
    /// Heartbeats sent.
    beats: u32,
    waiter: Waiter,
    draining: watch::Receiver<bool>,
    heartbeat: Duration,
    ends_at: tokio::time::Instant,
    /// Counts the stream as open for as long as it lives.
    _open: OpenStream,
    /// The player's place among their open streams, given back when it ends.
    _slot: StreamSlot,
}

/// A place for one more of the caller's streams or waiting long polls, or 429 `too_many_streams`,
/// to try again after a heartbeat's interval: a stream the server ends frees its place at once,
/// one whose client closed it when its next heartbeat finds the connection closed (a client whose
/// network vanished without closing it, when TCP gives up on it); a long poll, when it answers.
pub(super) fn stream_slot(state: &AppState, caller: &Caller) -> Result<StreamSlot, ApiError> {
    state.stream_slots.take(caller.user_id).map_err(|cap| {
        let mut err = ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "too_many_streams",
            format!(
                "{cap} event streams and waiting long polls are open for this player on this \
                 server, the most allowed: close one first"
            ),
        );
        err.retry_after = Some(state.stream_heartbeat.as_secs().max(1));
        err
    })
}

/// One open stream in the metrics.
struct OpenStream(std::sync::Arc<std::sync::atomic::AtomicI64>);

impl OpenStream {
    fn new(state: &AppState) -> OpenStream {
        state.open_streams.fetch_add(1, Ordering::Relaxed);
        OpenStream(state.open_streams.clone())
    }
}

impl Drop for OpenStream {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Something a stream carries: where the stream stands once it is sent, and its frame.
trait Item {
    type Cursor: Copy + Send + 'static;
    fn cursor(&self) -> Self::Cursor;
    fn frame(&self) -> Bytes;
}

impl Item for EventView {
    type Cursor = i64;
    fn cursor(&self) -> i64 {
        self.seq()
    }
    fn frame(&self) -> Bytes {
        let json = serde_json::to_value(self).unwrap_or_default();
        let kind = json["kind"].as_str().unwrap_or("event");
        frame(self.seq(), kind, &json.to_string())
    }
}

impl Item for LiveNotice {
    type Cursor = i64;
    fn cursor(&self) -> i64 {
        self.id
    }
    fn frame(&self) -> Bytes {
        let json = serde_json::to_string(self).unwrap_or_default();
        frame(self.id, self.notice.kind(), &json)
    }
}

/// On a game's stream with `chat`: an event or a message, with where the stream stands once it
/// is sent (the event's sequence number, the message's id).
enum TableItem {
    Event(EventView, (i64, i64)),
    Chat(ChatMessage, (i64, i64)),
}

impl Item for TableItem {
    type Cursor = (i64, i64);
    fn cursor(&self) -> (i64, i64) {
        match self {
            TableItem::Event(_, at) | TableItem::Chat(_, at) => *at,
        }
    }
    fn frame(&self) -> Bytes {
        match self {
            TableItem::Event(event, (seq, msg)) => {
                let json = serde_json::to_value(event).unwrap_or_default();
                let kind = json["kind"].as_str().unwrap_or("event");
                frame(format!("{seq}.{msg}"), kind, &json.to_string())
            }
            TableItem::Chat(message, (seq, msg)) => {
                let json = serde_json::to_string(message).unwrap_or_default();
                frame(format!("{seq}.{msg}"), "chat", &json)
            }
        }
    }
}

/// Events and messages in the order they happened (an event first when both share a
/// millisecond), each with the stream's place after it, from `(seq, msg)`.
fn interleave(
    events: Vec<EventView>,
    messages: Vec<ChatMessage>,
    (mut seq, mut msg): (i64, i64),
) -> Vec<TableItem> {
    let mut events = events.into_iter().peekable();
    let mut messages = messages.into_iter().peekable();
    let mut items = Vec::new();
    loop {
        let event_first = match (events.peek(), messages.peek()) {
            (Some(e), Some(m)) => e.at() <= m.created_at,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (None, None) => return items,
        };
        if event_first {
            let Some(event) = events.next() else { continue };
            seq = event.seq();
            items.push(TableItem::Event(event, (seq, msg)));
        } else {
            let Some(message) = messages.next() else {
                continue;
            };
            msg = message.id;
            items.push(TableItem::Chat(message, (seq, msg)));
        }
    }
}

/// The response of a stream of what `read` finds after `after`. The first read comes before the
/// answer, so that an unknown game or a bad token is an error, not an empty stream.
async fn respond<T, F>(
    state: &AppState,
    slot: StreamSlot,
    after: T::Cursor,
    waiter: Waiter,
    read: F,
) -> Result<HttpResponse, ApiError>
where
    T: Item + Send + 'static,
    F: Fn(T::Cursor) -> Result<Vec<T>, ApiError> + Clone + Send + 'static,
{
    let first = web::block({
        let read = read.clone();
        move || read(after)
    })
    .await??;
    let stream = Stream {
        after: first.last().map(Item::cursor).unwrap_or(after),
        caught_up: first.len() < READ_BATCH as usize,
        beats: 0,
        pending: first.into(),
        waiter,
        draining: state.draining.subscribe(),
        heartbeat: state.stream_heartbeat,
        ends_at: tokio::time::Instant::now() + state.stream_lifetime,
        _open: OpenStream::new(state),
        _slot: slot,
    };
    // A comment first: proxies and clients see the stream open at once.
    let opening = futures_util::stream::once(async {
        Ok::<Bytes, std::convert::Infallible>(Bytes::from_static(b": open\n\n"))
    });
    let rest = futures_util::stream::unfold(stream, move |mut s| {
        let read = read.clone();
        async move {
            loop {
                if *s.draining.borrow() || tokio::time::Instant::now() >= s.ends_at {
                    return None;
                }
                if let Some(item) = s.pending.pop_front() {
                    s.after = item.cursor();
                    return Some((Ok(item.frame()), s));
                }
                if !s.caught_up {
                    let after = s.after;
                    let read = read.clone();
                    match web::block(move || read(after)).await {
                        Ok(Ok(found)) => {
                            s.caught_up = found.len() < READ_BATCH as usize;
                            s.pending.extend(found);
                            continue;
                        }
                        // The database is away: end the stream, the client resumes where it was.
                        _ => return None,
                    }
                }
                tokio::select! {
                    _ = s.waiter.woken() => {
                        s.caught_up = false;
                        continue;
                    }
                    _ = tokio::time::sleep(s.heartbeat) => {
                        s.beats += 1;
                        s.caught_up = s.beats % LOOK_AGAIN_EVERY != 0;
                        return Some((Ok(Bytes::from_static(HEARTBEAT)), s));
                    }
                    _ = s.draining.changed() => return None,
                    _ = tokio::time::sleep_until(s.ends_at) => return None,
                }
            }
        }
    });
    Ok(HttpResponse::Ok()
        .content_type("text/event-stream")
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        // Tells nginx-like proxies not to buffer the stream.
        .insert_header(("X-Accel-Buffering", "no"))
        // Not compressed: a compressor holds events back until its block fills.
        .insert_header(header::ContentEncoding::Identity)
        .streaming(futures_util::StreamExt::chain(opening, rest)))
}

/// The caller's view of the game's events as they happen (`text/event-stream`): each event once,
/// in order, with its sequence number as the event id and its kind as the event name, redacted
/// exactly as `GET /games/{id}/events`. With `chat=true` (seated players only), the table's
/// messages too, as `chat` events in the order they were written. Reconnect with `Last-Event-ID` to resume without a gap.
/// Heartbeat comments keep idle connections open; the server ends a stream after an hour (an
/// operator setting), and the client resumes it. Authorise with a bearer token or `?ticket=`.
#[utoipa::path(operation_id = "streamGameEvents", tag = "live", security(("bearer" = []), ("stream_ticket" = [])), params(("id" = i64, Path), GameStreamQuery,
    ("Last-Event-ID" = Option<String>, Header, pattern = r"^[0-9]+(\.[0-9]+)?$", description = "Resume after this event: `N`, or `N.M` with `chat`")), responses(
    (status = 200, description = "Server-sent events; each `data` is an `EventView`", content_type = "text/event-stream", body = ServerSentEvent),
    (status = 401, description = "No valid token or ticket", body = Problem),
    (status = 403, description = "`not_seated`: `chat` for someone who has no seat in the game", body = Problem),
    (status = 404, description = "No such game", body = Problem),
    (status = 429, description = "`too_many_streams`: the player holds as many open event streams and waiting long polls on this server as it allows (`--max-streams-per-player`, 256 by default); `Retry-After` says when to try again", body = Problem),
))]
#[get("/games/{id}/stream")]
pub async fn game_stream(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<i64>,
    query: web::Query<GameStreamQuery>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    let caller = stream_caller(&req, &state, query.ticket.as_deref(), Some(id)).await?;
    let slot = stream_slot(&state, &caller)?;
    let waiter = Waiter::for_game(&state.db, id);
    let db = state.db.clone();
    if query.chat {
        let after = resume_table(&req, &query)?;
        let read = move |(seq, msg): (i64, i64)| {
            let events = game_events::events(&db, &caller, id, seq, READ_BATCH)?;
            let messages = chat::after(&db, &caller, id, msg, READ_BATCH)?;
            Ok(interleave(events, messages, (seq, msg)))
        };
        return respond(&state, slot, after, waiter, read).await;
    }
    let after = resume_after(&req, query.after)?.unwrap_or(0);
    let read = move |after: i64| {
        game_events::events(&db, &caller, id, after, READ_BATCH).map_err(ApiError::from)
    };
    respond(&state, slot, after, waiter, read).await
}

/// The caller's notices as they happen (`text/event-stream`): `your_turn`, `deadline_reminder`,
/// `invitation`, `game_started`, `game_over`, across all the caller's games; the notice's id is
/// the event id (resume with `Last-Event-ID`). Authorise with a bearer token or `?ticket=`.
#[utoipa::path(operation_id = "streamMyNotices", tag = "live", security(("bearer" = []), ("stream_ticket" = [])), params(StreamQuery,
    ("Last-Event-ID" = Option<i64>, Header, minimum = 0, description = "Resume after this notice")), responses(
    (status = 200, description = "Server-sent events; each `data` is a `LiveNotice`", content_type = "text/event-stream", body = ServerSentEvent),
    (status = 401, description = "No valid token or ticket", body = Problem),
    (status = 429, description = "`too_many_streams`: the player holds as many open event streams and waiting long polls on this server as it allows (`--max-streams-per-player`, 256 by default); `Retry-After` says when to try again", body = Problem),
))]
#[get("/me/stream")]
pub async fn my_stream(
    req: HttpRequest,
    state: web::Data<AppState>,
    query: web::Query<StreamQuery>,
) -> Result<HttpResponse, ApiError> {
    let caller = stream_caller(&req, &state, query.ticket.as_deref(), None).await?;
    let slot = stream_slot(&state, &caller)?;
    let after = resume_after(&req, query.after)?;
    let waiter = Waiter::for_user(&state.db, caller.user_id);
    let db = state.db.clone();
    let after = match after {
        Some(a) => a,
        None => {
            let (db, caller) = (db.clone(), caller.clone());
            web::block(move || live::latest_notice(&db, &caller)).await??
        }
    };
    let read = move |after: i64| {
        live::notices_after(&db, &caller, after, READ_BATCH).map_err(ApiError::from)
    };
    respond(&state, slot, after, waiter, read).await
}
