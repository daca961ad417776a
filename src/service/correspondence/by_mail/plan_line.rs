//! A plan for the next turn carried by a reply by email: a line of its own that begins with
//! "plan:" ("plan: lay blue 4 then deck"; up to four such lines, tried in order, as a plan's
//! alternatives). It is kept after the reply's own move, in the same transaction, as
//! `PUT /games/{id}/plan` keeps one without conditions; the answer says whether it was kept.

use crate::service::i18n::Language;
use crate::service::notify::notifications::MailPlan;
use crate::service::plans::{plan_row, AlternativeRequest, PlanFor};
use crate::service::{ServiceError, ServiceResult};
use crate::storage::DbConnection;

/// The reply's move (the lines that are not plans) and its plan's words, one a line.
pub fn split(words: &str) -> (String, Vec<String>) {
    let mut moves = Vec::new();
    let mut plans = Vec::new();
    for line in words.lines() {
        let trimmed = line.trim();
        // "plan" in any case, then ':' (spaces between allowed): the rest of the line as written.
        let after = trimmed
            .get(..4)
            .filter(|word| word.eq_ignore_ascii_case("plan"))
            .and_then(|_| trimmed[4..].trim_start().strip_prefix(':'));
        match after {
            Some(after) => plans.push(after.trim().to_string()),
            None => moves.push(line),
        }
    }
    (moves.join("\n"), plans)
}

/// What the answer says of a plan in `texts` (if any) when the reply's move was not played.
pub(super) fn not_kept(texts: &[String], said_chars: usize) -> Option<MailPlan> {
    (!texts.is_empty()).then(|| MailPlan {
        kept: false,
        said: said_of(texts, said_chars),
        code: Some("reply_not_played".to_string()),
    })
}

fn said_of(texts: &[String], said_chars: usize) -> String {
    texts.join(" / ").chars().take(said_chars).collect()
}

/// Keep the plan in `texts` (a reply's "plan:" lines) for the game as the reply's move left it
/// (`at`), if that move was played (`move_played`): what the answer says of it. A refusal is told, not an error; what the
/// database says is.
pub(super) fn keep(
    conn: &mut DbConnection,
    at: PlanFor<'_>,
    texts: &[String],
    move_played: bool,
    said_chars: usize,
) -> ServiceResult<MailPlan> {
    let said = said_of(texts, said_chars);
    let refused = |code: &str| MailPlan {
        kept: false,
        said: said.clone(),
        code: Some(code.to_string()),
    };
    if !move_played {
        return Ok(refused("reply_not_played"));
    }
    let language = crate::storage::mail::settings(conn, at.user_id)?
        .map(|s| Language::parse(&s.language))
        .unwrap_or_default();
    let alternatives: Vec<AlternativeRequest> = texts
        .iter()
        .map(|text| AlternativeRequest {
            steps: None,
            text: Some(text.clone()),
            conditions: Vec::new(),
        })
        .collect();
    let version = at.version;
    let made = plan_row(at, &alternatives, language);
    let row = match made {
        Ok(row) => row,
        Err(e @ (ServiceError::Storage(_) | ServiceError::Internal(_))) => return Err(e),
        Err(e) => return Ok(refused(refusal_code(&e))),
    };
    // In the reply's own transaction, on the version its move made: nothing came between.
    if !crate::storage::plans::put(conn, &row)? {
        return Err(ServiceError::StaleVersion { current: version });
    }
    Ok(MailPlan {
        kept: true,
        said,
        code: None,
    })
}

/// The stable code of a plan's refusal, as the API would answer it.
fn refusal_code(e: &ServiceError) -> &'static str {
    match e {
        ServiceError::Invalid { code, .. }
        | ServiceError::Conflict { code, .. }
        | ServiceError::NotUnderstood { code, .. } => code,
        ServiceError::Rule(rule) => rule.code(),
        _ => "not_kept",
    }
}

#[cfg(test)]
mod tests {
    use super::split;

    #[test]
    fn plan_lines_are_taken_out_of_the_reply() {
        let (moves, plans) = split("3 then deck\nPlan: lay Blue 4 then deck\n plan : deck\nthanks");
        assert_eq!(moves, "3 then deck\nthanks");
        assert_eq!(plans, vec!["lay Blue 4 then deck", "deck"]);
        let (moves, plans) = split("planning ahead\n2");
        assert_eq!(moves, "planning ahead\n2");
        assert!(plans.is_empty());
        // Letters whose lower case is longer or shorter than they are cut nothing short.
        let (moves, plans) = split("PLAN: İİ lay\nİplan: x\npl");
        assert_eq!(moves, "İplan: x\npl");
        assert_eq!(plans, vec!["İİ lay"]);
    }
}
