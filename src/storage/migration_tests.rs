//! Migrations that change data, checked on a database migrated to the step before them.

use diesel::connection::SimpleConnection;
use diesel::migration::MigrationSource;
use diesel::prelude::*;
use diesel::sqlite::{Sqlite, SqliteConnection};
use diesel_migrations::MigrationHarness;

use super::migrate::SQLITE_MIGRATIONS;
use super::schema::{game_reviews, review_accuracies};

/// A review's row: game, claimed until, attempts, done at, the review.
type ReviewState = (i64, i64, i32, Option<i64>, Option<String>);

/// Issue 66: accuracy measured against random play. A review done before is done again (its row
/// waits for the worker once more, its document and claim cleared) and its accuracies leave the
/// profiles' averages; a review still waiting is left as it was.
#[test]
fn reviews_done_before_accuracy_against_random_play_wait_to_be_done_again() {
    let mut conn = SqliteConnection::establish(":memory:").unwrap();
    let mut all = MigrationSource::<Sqlite>::migrations(&SQLITE_MIGRATIONS).unwrap();
    all.sort_by_key(|m| m.name().to_string());
    let at = all
        .iter()
        .position(|m| {
            m.name()
                .to_string()
                .ends_with("_reviews_on_the_random_scale")
        })
        .unwrap();
    for _ in 0..at {
        conn.run_next_migration(SQLITE_MIGRATIONS).unwrap();
    }
    // The rows alone: the games and users they point at do not matter here.
    conn.batch_execute(
        "PRAGMA foreign_keys = OFF;
         INSERT INTO game_reviews (game_id, requested_at, claimed_until, attempts, done_at, review)
         VALUES (1, 10, 25, 1, 20, '{}'), (2, 30, 0, 0, NULL, NULL);
         INSERT INTO review_accuracies (game_id, user_id, variant, accuracy)
         VALUES (1, 7, 'keltis', 94.0);",
    )
    .unwrap();
    let next = conn.run_next_migration(SQLITE_MIGRATIONS).unwrap();
    assert_eq!(next, all[at].name().version());
    let rows: Vec<ReviewState> = game_reviews::table
        .select((
            game_reviews::game_id,
            game_reviews::claimed_until,
            game_reviews::attempts,
            game_reviews::done_at,
            game_reviews::review,
        ))
        .order(game_reviews::game_id)
        .load(&mut conn)
        .unwrap();
    assert_eq!(rows, vec![(1, 0, 0, None, None), (2, 0, 0, None, None)]);
    let accuracies: i64 = review_accuracies::table
        .count()
        .get_result(&mut conn)
        .unwrap();
    assert_eq!(accuracies, 0);
}
