//! One move's server-side work without HTTP: `decisions::decide` loads the game, lets the engine
//! validate the decision, appends the event with optimistic concurrency and builds the answer, on
//! an in-memory SQLite database (so the figure is the server's own work, not the disk's). Two
//! players play 2-player `keltis` games, one after another, drawing from the deck whenever they
//! may; only the `decide` calls are timed. Under `cargo test` it runs once, as a smoke test.

use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use keltis::engine::{DecisionJson, Variant};
use keltis::ratings::RatingParameters;
use keltis::service::accounts::sessions::TokenKeys;
use keltis::service::accounts::{self, Caller, Scope};
use keltis::service::correspondence::clocks::TimeControl;
use keltis::service::i18n::Language;
use keltis::service::play::decisions::{self, DecisionAnswer, DecisionRequest};
use keltis::service::play::lobby::{self, NewGame};
use keltis::service::social::fair_use::FairUse;

/// No cap that a bench could reach.
const FAIR: FairUse = FairUse {
    max_running_games: i64::MAX,
};
use keltis::storage::Database;

/// Two seated players and the game they play.
struct Table {
    db: Database,
    players: [Caller; 2],
    game: i64,
}

impl Table {
    fn new() -> Table {
        // One connection: every connection to `:memory:` would be a database of its own.
        let db = Database::open(":memory:", 1).expect("in-memory SQLite, migrated");
        let keys = TokenKeys::new(b"bench-secret-bench-secret-bench-secret!!");
        let players = ["bench-a", "bench-b"].map(|name| {
            let session =
                accounts::register(&db, &keys, name, "bench password", None, Language::En)
                    .expect("registered");
            Caller {
                user_id: session.user_id,
                name: name.into(),
                scopes: vec![Scope::Read, Scope::Play],
                session_id: None,
            }
        });
        let mut table = Table {
            db,
            players,
            game: 0,
        };
        table.new_game();
        table
    }

    fn new_game(&mut self) {
        let new = NewGame {
            variant: Variant::Keltis,
            players: 2,
            invite_only: false,
            rated: false,
            time_control: TimeControl::None,
            bots: Vec::new(),
            invite: Vec::new(),
        };
        let created = lobby::create(&self.db, &self.players[0], &new, FAIR).expect("created");
        self.game = created.summary.id;
        lobby::join(&self.db, &self.players[1], self.game, FAIR).expect("joined");
    }

    /// The next decision of the seat to act (a draw from the deck when it may, so that games
    /// end), with that seat and the version it was made on; a new game once this one is over.
    fn next(&mut self) -> (usize, DecisionRequest) {
        loop {
            let seen = decisions::get(&self.db, &self.players[0], self.game).expect("game");
            let state = seen.state.as_ref().expect("started");
            let Some(seat) = state.to_act else {
                self.new_game();
                continue;
            };
            let mine =
                decisions::get(&self.db, &self.players[seat as usize], self.game).expect("view");
            let legal = mine.state.map(|s| s.legal_decisions).unwrap_or_default();
            let decision = legal
                .iter()
                .find(|d| matches!(d, DecisionJson::DrawDeck))
                .or(legal.first())
                .cloned()
                .expect("a legal decision");
            return (
                seat as usize,
                DecisionRequest {
                    expected_version: mine.summary.version,
                    decision,
                },
            );
        }
    }
}

fn one_move(c: &mut Criterion) {
    let mut table = Table::new();
    let ratings = RatingParameters::default();
    let mut group = c.benchmark_group("move");
    group.sample_size(50);
    group.bench_function("decide_keltis_2p_sqlite_memory", |b| {
        b.iter_custom(|iters| {
            let mut spent = Duration::ZERO;
            for _ in 0..iters {
                let (seat, request) = table.next();
                let started = Instant::now();
                let answer = decisions::decide(
                    &table.db,
                    &table.players[seat],
                    table.game,
                    &request,
                    None,
                    &ratings,
                )
                .expect("accepted");
                spent += started.elapsed();
                assert!(matches!(answer, DecisionAnswer::Fresh(_)));
            }
            spent
        })
    });
    group.finish();
}

criterion_group!(benches, one_move);
criterion_main!(benches);
