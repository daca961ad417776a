//! The browser client (`web/`): plain ES modules and a stylesheet, embedded in the binary and
//! served at `/` (no build step, no request leaving the server), with our copies of the board
//! layouts it draws from.

use actix_web::http::header;
use actix_web::http::StatusCode;
use std::collections::HashMap;
use std::sync::LazyLock;

use actix_web::{get, web, HttpRequest, HttpResponse};

use super::error::ApiError;
use crate::service::i18n::{web_messages, Language};

const HTML: &str = "text/html; charset=utf-8";
const JS: &str = "text/javascript; charset=utf-8";
const CSS: &str = "text/css; charset=utf-8";
const JSON: &str = "application/json";
const MANIFEST: &str = "application/manifest+json";
const PNG: &str = "image/png";

/// Every file the client loads: its path under `/web/`, its content type and its bytes.
const FILES: &[(&str, &str, &[u8])] = &[
    ("index.html", HTML, include_bytes!("../../web/index.html")),
    ("app.js", JS, include_bytes!("../../web/app.js")),
    ("waiting.js", JS, include_bytes!("../../web/waiting.js")),
    ("notify.js", JS, include_bytes!("../../web/notify.js")),
    ("settings.js", JS, include_bytes!("../../web/settings.js")),
    ("password.js", JS, include_bytes!("../../web/password.js")),
    (
        "two_factor.js",
        JS,
        include_bytes!("../../web/two_factor.js"),
    ),
    ("oauth.js", JS, include_bytes!("../../web/oauth.js")),
    (
        "table_talk.js",
        JS,
        include_bytes!("../../web/table_talk.js"),
    ),
    (
        "command_line.js",
        JS,
        include_bytes!("../../web/command_line.js"),
    ),
    ("plan_line.js", JS, include_bytes!("../../web/plan_line.js")),
    (
        "plan_panel.js",
        JS,
        include_bytes!("../../web/plan_panel.js"),
    ),
    (
        "text_table.js",
        JS,
        include_bytes!("../../web/text_table.js"),
    ),
    ("live_game.js", JS, include_bytes!("../../web/live_game.js")),
    (
        "moderation.js",
        JS,
        include_bytes!("../../web/moderation.js"),
    ),
    (
        "bot_account.js",
        JS,
        include_bytes!("../../web/bot_account.js"),
    ),
    (
        "delete_account.js",
        JS,
        include_bytes!("../../web/delete_account.js"),
    ),
    ("players.js", JS, include_bytes!("../../web/players.js")),
    ("help.js", JS, include_bytes!("../../web/help.js")),
    ("api.js", JS, include_bytes!("../../web/api.js")),
    ("i18n.js", JS, include_bytes!("../../web/i18n.js")),
    ("board.js", JS, include_bytes!("../../web/board.js")),
    ("dom.js", JS, include_bytes!("../../web/dom.js")),
    ("words.js", JS, include_bytes!("../../web/words.js")),
    ("table.js", JS, include_bytes!("../../web/table.js")),
    ("move_log.js", JS, include_bytes!("../../web/move_log.js")),
    ("lobby.js", JS, include_bytes!("../../web/lobby.js")),
    ("play_now.js", JS, include_bytes!("../../web/play_now.js")),
    ("rematch.js", JS, include_bytes!("../../web/rematch.js")),
    ("events.js", JS, include_bytes!("../../web/events.js")),
    ("ladder.js", JS, include_bytes!("../../web/ladder.js")),
    ("challenge.js", JS, include_bytes!("../../web/challenge.js")),
    ("game.js", JS, include_bytes!("../../web/game.js")),
    ("replay.js", JS, include_bytes!("../../web/replay.js")),
    ("review.js", JS, include_bytes!("../../web/review.js")),
    ("style.css", CSS, include_bytes!("../../web/style.css")),
    ("sw.js", JS, include_bytes!("../../web/sw.js")),
    (
        "manifest.webmanifest",
        MANIFEST,
        include_bytes!("../../web/manifest.webmanifest"),
    ),
    (
        "icon-192.png",
        PNG,
        include_bytes!("../../web/icon-192.png"),
    ),
    (
        "icon-512.png",
        PNG,
        include_bytes!("../../web/icon-512.png"),
    ),
    (
        "boards/keltis-base.json",
        JSON,
        include_bytes!("../engine/boards/keltis-base.json"),
    ),
    (
        "boards/neue-wege.json",
        JSON,
        include_bytes!("../engine/boards/neue-wege.json"),
    ),
];

/// Only this server's own scripts, styles and API: nothing else loads, nothing frames the page.
const POLICY: &str = "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'";

/// A file's entity tag: the start of its SHA-256, so that a reload sends 304 for what it has.
fn etag(bytes: &[u8]) -> String {
    use sha2::Digest;
    format!("\"{}\"", &hex::encode(sha2::Sha256::digest(bytes))[..20])
}

/// Every file's tag, computed once.
static TAGS: LazyLock<HashMap<&'static str, String>> = LazyLock::new(|| {
    let mut tags: HashMap<&'static str, String> =
        FILES.iter().map(|(p, _, text)| (*p, etag(text))).collect();
    for language in Language::ALL {
        tags.insert(language.code(), etag(web_messages(language).as_bytes()));
    }
    tags
});

/// The answer for a file: 304 when the browser holds this version, else the file.
fn answer(req: &HttpRequest, key: &str, content_type: &str, body: &'static [u8]) -> HttpResponse {
    let tag = TAGS.get(key).cloned().unwrap_or_else(|| etag(body));
    let held = req
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == tag || t.trim() == "*"));
    let mut response = if held {
        HttpResponse::NotModified()
    } else {
        HttpResponse::Ok()
    };
    response
        .content_type(content_type)
        // Checked again on each load (a new server version shows at once), cheaply: 304.
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .insert_header((header::ETAG, tag))
        .insert_header((header::CONTENT_SECURITY_POLICY, POLICY))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"));
    if held {
        response.finish()
    } else {
        response.body(body)
    }
}

fn serve(req: &HttpRequest, path: &str) -> Result<HttpResponse, ApiError> {
    let (key, content_type, text) = FILES
        .iter()
        .find(|(p, _, _)| *p == path)
        .ok_or_else(|| ApiError::new(StatusCode::NOT_FOUND, "not_found", "no such file"))?;
    Ok(answer(req, key, content_type, text))
}

/// The client's page, for a screen served from another module's path.
pub fn page(req: &HttpRequest) -> Result<HttpResponse, ApiError> {
    serve(req, "index.html")
}

/// The client's page.
#[get("/")]
pub async fn index(req: HttpRequest) -> Result<HttpResponse, ApiError> {
    serve(&req, "index.html")
}

/// What must stand at the site's root: the service worker (its scope is where it is served),
/// the web app manifest, and the icon browsers ask for.
#[get("/{file:sw.js|manifest.webmanifest|favicon.ico}")]
pub async fn root_file(
    req: HttpRequest,
    name: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    match name.as_str() {
        "favicon.ico" => serve(&req, "icon-192.png"),
        other => serve(&req, other),
    }
}

/// The client's screens by path (`/games/{id}`, `/records/{id}`, `/events/{id}`): a link from an email, a push or
/// another site opens the page, which shows that screen (after logging in if needed).
#[get("/{screen:games|records|events}/{id:[0-9]{1,18}}")]
pub async fn screen(req: HttpRequest) -> Result<HttpResponse, ApiError> {
    serve(&req, "index.html")
}

/// A game's text-first table (`/games/{id}/text`), for screen readers and keyboards.
#[get("/games/{id:[0-9]{1,18}}/text")]
pub async fn text_table_screen(req: HttpRequest) -> Result<HttpResponse, ApiError> {
    serve(&req, "index.html")
}

/// A challenge link (`/join/{token}`): the page takes the seat once the player is signed in.
#[get("/join/{token:[0-9]{1,18}-[0-9a-f]{64}}")]
pub async fn join_screen(req: HttpRequest) -> Result<HttpResponse, ApiError> {
    serve(&req, "index.html")
}

/// Players' profiles, the leaderboards, how to play and the ladders, by their paths.
#[get("/{screen:players|leaderboards|help|ladders}/{name:[^/]{1,64}}")]
pub async fn people_screen(req: HttpRequest) -> Result<HttpResponse, ApiError> {
    serve(&req, "index.html")
}

/// The settings screen, the events, the moderators' page and the reset of a forgotten password (the link of
/// its email), by their paths.
#[get("/{screen:settings|reset-password|moderation|events}")]
pub async fn settings_screen(req: HttpRequest) -> Result<HttpResponse, ApiError> {
    serve(&req, "index.html")
}

/// The client's modules, stylesheet, board layouts and words (`messages/{lang}.json`, from the
/// server's catalogue).
#[get("/web/{file:.*}")]
pub async fn file(req: HttpRequest, path: web::Path<String>) -> Result<HttpResponse, ApiError> {
    let language = path
        .strip_prefix("messages/")
        .and_then(|f| f.strip_suffix(".json"))
        .and_then(Language::known);
    match language {
        Some(language) => Ok(answer(
            &req,
            language.code(),
            JSON,
            web_messages(language).as_bytes(),
        )),
        None => serve(&req, &path),
    }
}

/// The bytes of everything the game page loads (the first load's size, without compression).
pub fn client_bytes() -> usize {
    FILES.iter().map(|(_, _, text)| text.len()).sum()
}
