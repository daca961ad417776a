//! `/api/v1/players/{name}`, `/api/v1/history`, `/api/v1/leaderboards/{variant}`: profiles,
//! finished games and ratings.

use actix_web::http::StatusCode;
use actix_web::{get, web};
use serde::Deserialize;
use utoipa::IntoParams;

use super::auth::Authenticated;
use super::error::{ApiError, Problem};
use super::games::{out_of_range, page};
use super::AppState;
use crate::engine::Variant;
use crate::service::ratings::profiles::{
    self, HistoryPage, HistoryQuery, LeaderboardPage, PlayerProfile,
};
use crate::service::ratings::GameOutcome;

/// Largest page of the history and of a leaderboard.
const MAX_PAGE: i64 = 200;

/// A player's ratings (with deviation and the latest changes), games won, drawn and lost per
/// variant, and current games.
#[utoipa::path(operation_id = "getPlayer", tag = "players", security(("bearer" = [])), params(("name" = String, Path, description = "The user name")), responses(
    (status = 200, body = PlayerProfile),
    (status = 404, description = "`not_found`: no such player", body = Problem),
))]
#[get("/players/{name}")]
pub async fn profile(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    name: web::Path<String>,
) -> Result<web::Json<PlayerProfile>, ApiError> {
    Ok(web::Json(
        web::block(move || profiles::profile(&state.db, &caller, &name, &state.ratings)).await??,
    ))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct HistoryParams {
    /// Only this player's games.
    pub player: Option<String>,
    /// Only games of this variant.
    #[param(inline)]
    pub variant: Option<Variant>,
    /// Only games of this many players.
    #[param(minimum = 2, maximum = 4)]
    pub players: Option<u8>,
    /// Only games `player` won, drew or lost; without `player`, `drawn` lists drawn games and
    /// `won` or `lost` the games someone won.
    #[param(inline)]
    pub result: Option<GameOutcome>,
    /// Only rated (`true`) or casual (`false`) games.
    pub rated: Option<bool>,
    /// Only games that ended at or after this time (milliseconds since the Unix epoch).
    #[param(minimum = 0)]
    pub since: Option<i64>,
    /// Only games that ended before this time (milliseconds since the Unix epoch).
    #[param(minimum = 0)]
    pub until: Option<i64>,
    /// The `next_cursor` of the previous page; leave out for the first page.
    #[param(pattern = r"^[0-9]{1,18}\.[0-9]{1,18}$")]
    pub cursor: Option<String>,
    /// Games per page (default 50).
    #[param(minimum = 1, maximum = 200)]
    pub limit: Option<i64>,
}

/// Finished games, the most recent end first, with every seat's score, place, outcome and, in
/// rated games, rating before and after; each links to its record.
#[utoipa::path(operation_id = "listFinishedGames", tag = "players", security(("bearer" = [])), params(HistoryParams), responses(
    (status = 200, body = HistoryPage),
    (status = 404, description = "`not_found`: no such player", body = Problem),
))]
#[get("/history")]
pub async fn history(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    params: web::Query<HistoryParams>,
) -> Result<web::Json<HistoryPage>, ApiError> {
    let params = params.into_inner();
    let (_, limit) = page(None, params.limit, 50, MAX_PAGE)?;
    if params.players.is_some_and(|p| !(2..=4).contains(&p)) {
        return Err(out_of_range("players", "2 to 4"));
    }
    if params.since.is_some_and(|t| t < 0) || params.until.is_some_and(|t| t < 0) {
        return Err(out_of_range("since and until", "0 or more"));
    }
    let query = HistoryQuery {
        player: params.player,
        variant: params.variant,
        players: params.players,
        result: params.result,
        rated: params.rated,
        since: params.since,
        until: params.until,
    };
    Ok(web::Json(
        web::block(move || {
            profiles::history(&state.db, &caller, &query, params.cursor.as_deref(), limit)
        })
        .await??,
    ))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct LeaderboardParams {
    /// The `next_cursor` of the previous page; leave out for the first page.
    #[param(pattern = r"^[0-9]{1,18}\.[0-9a-f]{16}\.[0-9]{1,18}$")]
    pub cursor: Option<String>,
    /// Entries per page (default 50).
    #[param(minimum = 1, maximum = 200)]
    pub limit: Option<i64>,
}

/// A variant's established ratings (deviation at most the server's threshold, 110 by default),
/// best first. Provisional ratings are left off.
#[utoipa::path(operation_id = "getLeaderboard", tag = "players", security(("bearer" = [])), params(
    ("variant" = Variant, Path, description = "keltis, neue-wege or keltis-card"),
    LeaderboardParams,
), responses(
    (status = 200, body = LeaderboardPage),
    (status = 404, description = "`not_found`: no such variant", body = Problem),
))]
#[get("/leaderboards/{variant}")]
pub async fn leaderboard(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    variant: web::Path<String>,
    params: web::Query<LeaderboardParams>,
) -> Result<web::Json<LeaderboardPage>, ApiError> {
    let variant = Variant::parse(&variant).ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "not_found",
            "no such variant: keltis, neue-wege or keltis-card",
        )
    })?;
    let params = params.into_inner();
    let (_, limit) = page(None, params.limit, 50, MAX_PAGE)?;
    Ok(web::Json(
        web::block(move || {
            profiles::leaderboard(
                &state.db,
                &caller,
                variant,
                &state.ratings,
                params.cursor.as_deref(),
                limit,
            )
        })
        .await??,
    ))
}
