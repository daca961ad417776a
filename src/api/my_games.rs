//! `/api/v1/me/games`: the caller's games in the order of the correspondence loop (the games
//! waiting for them first).

use actix_web::{get, web};
use serde::Deserialize;
use utoipa::IntoParams;

use super::auth::Authenticated;
use super::error::ApiError;
use super::games::{page, MAX_PAGE};
use super::AppState;
use crate::service::correspondence::my_games::{self, MyGamesPage};

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct MyGamesQuery {
    /// The `next_cursor` of the previous page; leave out for the first page.
    #[param(pattern = r"^[0-3](\.[0-9]{1,18}){3}$")]
    pub cursor: Option<String>,
    /// Games per page (default 50).
    #[param(minimum = 1, maximum = 200)]
    pub limit: Option<i64>,
}

/// Your games, the ones waiting for you first.
///
/// The order: the games where it is your turn (`shelf: your_turn`), the most urgent deadline
/// first; then your invitations; then the games where others are to act or players are awaited;
/// then the finished games, the most recent first. `your_turn_count` counts the games waiting for
/// you whatever the page. A game that changes while you page may move to another shelf: read the
/// first page again when `/me/stream` tells you of a change.
#[utoipa::path(operation_id = "listMyGames", tag = "correspondence", security(("bearer" = [])), params(MyGamesQuery), responses(
    (status = 200, body = MyGamesPage),
))]
#[get("/me/games")]
pub async fn list(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    query: web::Query<MyGamesQuery>,
) -> Result<web::Json<MyGamesPage>, ApiError> {
    let query = query.into_inner();
    let (_, limit) = page(None, query.limit, 50, MAX_PAGE)?;
    Ok(web::Json(
        web::block(move || my_games::list(&state.db, &caller, query.cursor.as_deref(), limit))
            .await??,
    ))
}
