//! Moves in words over the API: the turn's choices said in the caller's language, numbered as a
//! typed number names them, and a typed text played as the decisions it names. The text is read
//! step by step on a copy of the game first; only when every step names exactly one choice are
//! they played, one after another, each through the same validated, versioned path as any
//! decision. A step that names none, or several, plays nothing and answers with the choices in
//! words.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::grammar::{choose, Miss};
use super::reading::Reading;
use super::saying::{choice_in_words, decision_in_words};
use super::{offered, pawn_places, phrases};
use crate::engine::{DecisionJson, Game, RuleError};
use crate::ratings::RatingParameters;
use crate::service::accounts::{Caller, Scope};
use crate::service::i18n::Language;
use crate::service::play::decisions::{self, DecisionAnswer, DecisionRequest};
use crate::service::play::games::{not_seated, seat_of, GameDetail};
use crate::service::play::loading::load_game;
use crate::service::{ServiceError, ServiceResult};
use crate::storage::Database;

/// The longest text read (characters).
pub const MAX_TEXT_CHARS: usize = 500;
/// Steps one text may play (a turn has at most four decisions).
const MAX_STEPS: usize = 8;

/// One choice of the turn, in words.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct ChoiceInWords {
    /// What typing this number plays (from 1, in the order of the game's `legal_decisions`,
    /// resigning left out).
    pub number: u32,
    /// The choice as the catalogue says it in the language asked for; typing these words plays
    /// it (in any of the three languages).
    pub words: String,
    pub decision: DecisionJson,
}

/// The caller's turn in words.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct TurnInWords {
    pub game_id: i64,
    /// The game's version: send it as `expected_version` with a typed move.
    pub version: i64,
    pub language: Language,
    /// Empty when it is not the caller's turn.
    pub choices: Vec<ChoiceInWords>,
}

/// A move typed as words.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"expected_version": 7, "text": "lay blue 4 pawn 1 then draw deck"}))]
pub struct TypedMove {
    /// The version the move was typed on.
    pub expected_version: i64,
    /// One step or several ("3 then deck"), in English, French or German: a choice's number, its
    /// words as `GET /games/{id}/choices` gives them, or shorter words that name one choice only
    /// ("lay blue 4", "pose bleu 4 pion 1", "wirf rosa 8 ab", "draw deck"). At most 500
    /// characters.
    #[schema(max_length = 500)]
    pub text: String,
    /// The language of the answer's words (default: the account's language).
    #[serde(default)]
    pub language: Option<Language>,
}

/// Whether `c` is a character a player does not see as they type it: a control character (C0,
/// DEL, C1; line ends and tabs included, a typed move being one line), or a formatting character
/// that hides or reorders text (Unicode's category Cf: zero-width spaces and joiners, direction
/// marks, embeddings and isolates, the byte order mark, tags). Refused, so that what a player
/// reads in their client is what the server reads (docs/integrating.md, "Moves in words").
pub(super) fn unseen(c: char) -> bool {
    c.is_control()
        || matches!(c,
            '\u{AD}'
            | '\u{600}'..='\u{605}'
            | '\u{61C}'
            | '\u{6DD}'
            | '\u{70F}'
            | '\u{890}'..='\u{891}'
            | '\u{8E2}'
            | '\u{180E}'
            | '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{206F}'
            | '\u{FEFF}'
            | '\u{FFF9}'..='\u{FFFB}'
            | '\u{110BD}'
            | '\u{110CD}'
            | '\u{13430}'..='\u{1343F}'
            | '\u{1BCA0}'..='\u{1BCA3}'
            | '\u{1D173}'..='\u{1D17A}'
            | '\u{E0001}'
            | '\u{E0020}'..='\u{E007F}')
}

/// What a typed move played.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct TypedAnswer {
    /// Each decision played, in words ("anna lays blue 4 ...").
    pub played: Vec<String>,
    pub decisions: Vec<DecisionJson>,
    /// The game as the caller now sees it.
    pub game: GameDetail,
}

pub(crate) fn account_language(db: &Database, user_id: i64) -> ServiceResult<Language> {
    let settings = db.read(|c| crate::storage::mail::settings(c, user_id))?;
    Ok(settings
        .map(|s| Language::parse(&s.language))
        .unwrap_or_default())
}

/// The game, its version and the caller's seat.
fn seated_game(db: &Database, caller: &Caller, game_id: i64) -> ServiceResult<(Game, i64, u8)> {
    let memo = db.memo();
    let loaded = db.read(|conn| load_game(conn, game_id, memo))?;
    let seat = seat_of(&loaded.seats, caller.user_id).ok_or_else(not_seated)?;
    let Some(game) = &loaded.game else {
        return Err(ServiceError::conflict(
            "not_started",
            "the game has not started",
        ));
    };
    let game = Game::clone(game);
    Ok((game, loaded.row.version, seat))
}

pub(crate) fn in_words(
    language: Language,
    choices: &[DecisionJson],
    places: &[Option<String>],
) -> Vec<ChoiceInWords> {
    choices
        .iter()
        .enumerate()
        .map(|(i, c)| ChoiceInWords {
            number: i as u32 + 1,
            words: choice_in_words(language, c, places),
            decision: c.clone(),
        })
        .collect()
}

/// The caller's choices now, in words.
pub fn choices(
    db: &Database,
    caller: &Caller,
    game_id: i64,
    language: Option<Language>,
) -> ServiceResult<TurnInWords> {
    caller.require(Scope::Read)?;
    let language = match language {
        Some(l) => l,
        None => account_language(db, caller.user_id)?,
    };
    let (game, version, seat) = seated_game(db, caller, game_id)?;
    Ok(TurnInWords {
        game_id,
        version,
        language,
        choices: in_words(language, &offered(&game, seat), &pawn_places(&game, seat)),
    })
}

fn not_understood(
    code: &'static str,
    message: String,
    choices: Vec<ChoiceInWords>,
) -> ServiceError {
    ServiceError::NotUnderstood {
        code,
        message,
        choices: Box::new(choices),
    }
}

/// Play what the text names: every step, or none.
pub fn play(
    db: &Database,
    caller: &Caller,
    game_id: i64,
    typed: &TypedMove,
    ratings: &RatingParameters,
) -> ServiceResult<TypedAnswer> {
    caller.require(Scope::Play)?;
    check_text(&typed.text)?;
    let language = match typed.language {
        Some(l) => l,
        None => account_language(db, caller.user_id)?,
    };
    let (mut game, version, seat) = seated_game(db, caller, game_id)?;
    if version != typed.expected_version {
        return Err(ServiceError::StaleVersion { current: version });
    }
    // Out of turn or after the end there is nothing to read the words against: the rules' own
    // answer, as for a decision.
    match game.to_act() {
        None => return Err(RuleError::GameOver.into()),
        Some(to_act) if to_act != seat => return Err(RuleError::NotYourTurn { to_act }.into()),
        Some(_) => {}
    }
    let wanted = read_steps(&mut game, seat, &typed.text, language)?;
    let mut expected = version;
    let mut detail = None;
    for decision in &wanted {
        let request = DecisionRequest {
            expected_version: expected,
            decision: decision.clone(),
        };
        match decisions::decide(db, caller, game_id, &request, None, ratings)? {
            DecisionAnswer::Fresh(d) => {
                expected = d.summary.version;
                detail = Some(d);
            }
            DecisionAnswer::Repeated { .. } => {
                return Err(ServiceError::Internal("a typed move was repeated".into()))
            }
        }
    }
    let game = detail.ok_or_else(|| ServiceError::Internal("nothing played".into()))?;
    Ok(TypedAnswer {
        played: wanted
            .iter()
            .map(|d| decision_in_words(language, &caller.name, d))
            .collect(),
        decisions: wanted,
        game: *game,
    })
}

/// Refuse a text too long, or with characters a player does not see as they type.
pub(crate) fn check_text(text: &str) -> ServiceResult<()> {
    if text.chars().count() > MAX_TEXT_CHARS {
        return Err(ServiceError::invalid(
            "text_too_long",
            format!("a move in words has at most {MAX_TEXT_CHARS} characters"),
        ));
    }
    if text.chars().any(unseen) {
        return Err(ServiceError::invalid(
            "invalid_body",
            "a move in words is one line without control characters or invisible formatting \
             characters (zero-width spaces, direction marks)",
        ));
    }
    Ok(())
}

/// Read `text` step by step for `seat`, applying each step to `game` (the choices of each step
/// are those after the last); every step must name exactly one choice, or nothing is read.
pub(crate) fn read_steps(
    game: &mut Game,
    seat: u8,
    text: &str,
    language: Language,
) -> ServiceResult<Vec<DecisionJson>> {
    // Read every step on a copy of the game: the choices of each step are those after the last.
    let mut reading = Reading::strict(text);
    let mut wanted: Vec<DecisionJson> = Vec::new();
    loop {
        let choices = offered(game, seat);
        let places = pawn_places(game, seat);
        let Some(step) = reading.next_step(&phrases(&choices, &places)) else {
            break;
        };
        if choices.is_empty() || wanted.len() == MAX_STEPS {
            return Err(not_understood(
                "words_turn_over",
                format!("\"{}\": your turn is over before this step", step.said),
                Vec::new(),
            ));
        }
        let decision = match choose(&step.want, &choices) {
            Ok(d) => d,
            Err(miss) => {
                let (code, what, shown) = match miss {
                    Miss::Ambiguous(fitting) => (
                        "words_ambiguous",
                        "fits several choices: say which",
                        in_words(language, &choices, &places)
                            .into_iter()
                            .filter(|c| fitting.contains(&(c.number as usize)))
                            .collect(),
                    ),
                    Miss::NotAChoice => (
                        "words_not_a_choice",
                        "names none of your choices",
                        in_words(language, &choices, &places),
                    ),
                    Miss::Unreadable => (
                        "words_unreadable",
                        "could not be read",
                        in_words(language, &choices, &places),
                    ),
                };
                return Err(not_understood(
                    code,
                    format!("\"{}\" {what}; nothing was played", step.said),
                    shown,
                ));
            }
        };
        let engine_decision = decision.clone().resolve(game.board())?;
        game.apply(seat, engine_decision)?;
        wanted.push(decision);
    }
    if wanted.is_empty() {
        let choices = offered(game, seat);
        return Err(not_understood(
            "words_unreadable",
            "no move could be read in these words; nothing was played".into(),
            in_words(language, &choices, &pawn_places(game, seat)),
        ));
    }
    Ok(wanted)
}
