//! Players together: `/games/{id}/chat` (table chat), `/games/{id}/note` (a private note),
//! `/me/blocks` (players kept away), `/me/following` (friends).

use actix_web::{delete, get, post, put, web, HttpResponse};
use serde::Deserialize;
use utoipa::IntoParams;

use super::auth::Authenticated;
use super::error::{ApiError, Problem};
use super::games::page;
use super::json_body::JsonObject;
use super::AppState;
use crate::service::social::blocks::{self, Block};
use crate::service::social::chat::{self, ChatMessage, ChatPage, ChatRead, NewMessage};
use crate::service::social::friends::{self, Followed};
use crate::service::social::notes::{self, Note, NoteText};

/// Largest page of messages.
const MAX_PAGE: i64 = 100;

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct ChatQuery {
    /// Only messages older than this id (the `next_before` of the previous page).
    #[param(minimum = 1)]
    pub before: Option<i64>,
    /// Messages per page (default 50).
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<i64>,
}

/// The game's chat, newest message first, for its seated players (spectators have none).
/// Messages of a player the caller blocked, or who blocked the caller, are left out. New
/// messages arrive live on `GET /games/{id}/stream?chat=true`.
#[utoipa::path(operation_id = "listChatMessages", tag = "social", security(("bearer" = [])), params(("id" = i64, Path), ChatQuery), responses(
    (status = 200, body = ChatPage),
    (status = 403, description = "`not_seated`: only the game's players read its chat", body = Problem),
    (status = 404, description = "`not_found`: no such game", body = Problem),
))]
#[get("/games/{id}/chat")]
pub async fn list_chat(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    id: web::Path<i64>,
    query: web::Query<ChatQuery>,
) -> Result<web::Json<ChatPage>, ApiError> {
    let (before, limit) = page(query.before, query.limit, 50, MAX_PAGE)?;
    let id = id.into_inner();
    Ok(web::Json(
        web::block(move || chat::page(&state.db, &caller, id, before, limit)).await??,
    ))
}

/// Say something at the table (a seated player; before, during or after the game). One line of
/// 1 to 500 characters; at most 10 messages a minute per player. The message never enters the
/// game's event log.
#[utoipa::path(operation_id = "postChatMessage", tag = "social", security(("bearer" = [])), params(("id" = i64, Path)), request_body = NewMessage, responses(
    (status = 201, body = ChatMessage),
    (status = 403, description = "`not_seated`", body = Problem),
    (status = 404, description = "`not_found`: no such game", body = Problem),
    (status = 422, description = "`invalid_message`: empty, too long, or with control characters", body = Problem),
    (status = 429, description = "`rate_limited`: more than 10 messages in a minute; `Retry-After` says when to try again", body = Problem),
))]
#[post("/games/{id}/chat")]
pub async fn post_chat(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    id: web::Path<i64>,
    body: JsonObject<NewMessage>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    let message = web::block(move || chat::post(&state.db, &caller, id, &body)).await??;
    Ok(HttpResponse::Created().json(message))
}

/// Mark the chat read up to a message: the games list counts the messages after it as unread.
#[utoipa::path(operation_id = "markChatRead", tag = "social", security(("bearer" = [])), params(("id" = i64, Path)), request_body = ChatRead, responses(
    (status = 204, description = "Marked"),
    (status = 403, description = "`not_seated`", body = Problem),
    (status = 404, description = "`not_found`: no such game", body = Problem),
))]
#[put("/games/{id}/chat/read")]
pub async fn mark_chat_read(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    id: web::Path<i64>,
    body: JsonObject<ChatRead>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    web::block(move || chat::mark_read(&state.db, &caller, id, &body)).await??;
    Ok(HttpResponse::NoContent().finish())
}

/// The caller's private note on a game it sits at (empty text when there is none). Nobody else
/// ever reads it: no other seat, stream, webhook, record or export.
#[utoipa::path(operation_id = "getNote", tag = "social", security(("bearer" = [])), params(("id" = i64, Path)), responses(
    (status = 200, body = Note),
    (status = 403, description = "`not_seated`", body = Problem),
    (status = 404, description = "`not_found`: no such game", body = Problem),
))]
#[get("/games/{id}/note")]
pub async fn get_note(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    id: web::Path<i64>,
) -> Result<web::Json<Note>, ApiError> {
    let id = id.into_inner();
    Ok(web::Json(
        web::block(move || notes::get(&state.db, &caller, id)).await??,
    ))
}

/// Replace the caller's private note on a game it sits at; an empty text deletes it.
#[utoipa::path(operation_id = "setNote", tag = "social", security(("bearer" = [])), params(("id" = i64, Path)), request_body = NoteText, responses(
    (status = 200, body = Note),
    (status = 403, description = "`not_seated`", body = Problem),
    (status = 404, description = "`not_found`: no such game", body = Problem),
    (status = 422, description = "`invalid_note`: over 5,000 characters, or control characters other than lines and tabs", body = Problem),
))]
#[put("/games/{id}/note")]
pub async fn set_note(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    id: web::Path<i64>,
    body: JsonObject<NoteText>,
) -> Result<web::Json<Note>, ApiError> {
    let id = id.into_inner();
    Ok(web::Json(
        web::block(move || notes::set(&state.db, &caller, id, &body)).await??,
    ))
}

/// The players the caller blocked.
#[utoipa::path(operation_id = "listBlocks", tag = "social", security(("bearer" = [])), responses(
    (status = 200, body = [Block]),
))]
#[get("/me/blocks")]
pub async fn list_blocks(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
) -> Result<web::Json<Vec<Block>>, ApiError> {
    Ok(web::Json(
        web::block(move || blocks::list(&state.db, &caller)).await??,
    ))
}

/// Block a player: they can no longer invite you or join your open games, pairing never seats
/// you together, and neither of you sees the other's messages (a game already under way goes on). They are not told. Blocking
/// again changes nothing.
#[utoipa::path(operation_id = "blockPlayer", tag = "social", security(("bearer" = [])), params(("name" = String, Path, description = "The user name")), responses(
    (status = 204, description = "Blocked"),
    (status = 404, description = "`not_found`: no such player", body = Problem),
    (status = 422, description = "`cannot_block_self`", body = Problem),
))]
#[put("/me/blocks/{name}")]
pub async fn block(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    name: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    web::block(move || blocks::block(&state.db, &caller, &name)).await??;
    Ok(HttpResponse::NoContent().finish())
}

/// Undo a block.
#[utoipa::path(operation_id = "unblockPlayer", tag = "social", security(("bearer" = [])), params(("name" = String, Path, description = "The user name")), responses(
    (status = 204, description = "No longer blocked"),
    (status = 404, description = "`not_found`: no such player, or not blocked", body = Problem),
))]
#[delete("/me/blocks/{name}")]
pub async fn unblock(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    name: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    web::block(move || blocks::unblock(&state.db, &caller, &name)).await??;
    Ok(HttpResponse::NoContent().finish())
}

/// The players the caller follows, by name, with their games under way.
#[utoipa::path(operation_id = "listFollowing", tag = "social", security(("bearer" = [])), responses(
    (status = 200, body = [Followed]),
))]
#[get("/me/following")]
pub async fn list_following(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
) -> Result<web::Json<Vec<Followed>>, ApiError> {
    Ok(web::Json(
        web::block(move || friends::list(&state.db, &caller)).await??,
    ))
}

/// Follow a player (they are not asked or told). Following again changes nothing.
#[utoipa::path(operation_id = "followPlayer", tag = "social", security(("bearer" = [])), params(("name" = String, Path, description = "The user name")), responses(
    (status = 204, description = "Followed"),
    (status = 404, description = "`not_found`: no such player", body = Problem),
    (status = 422, description = "`cannot_follow_self`", body = Problem),
))]
#[put("/me/following/{name}")]
pub async fn follow(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    name: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    web::block(move || friends::follow(&state.db, &caller, &name)).await??;
    Ok(HttpResponse::NoContent().finish())
}

/// Stop following a player.
#[utoipa::path(operation_id = "unfollowPlayer", tag = "social", security(("bearer" = [])), params(("name" = String, Path, description = "The user name")), responses(
    (status = 204, description = "No longer followed"),
    (status = 404, description = "`not_found`: no such player, or not followed", body = Problem),
))]
#[delete("/me/following/{name}")]
pub async fn unfollow(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    name: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    web::block(move || friends::unfollow(&state.db, &caller, &name)).await??;
    Ok(HttpResponse::NoContent().finish())
}
