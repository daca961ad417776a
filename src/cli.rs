//! The `keltis` command's arguments: the server, its tools and their options.

use std::path::PathBuf;

use clap::{Parser, Subcommand};
use keltis::engine::Variant;

#[derive(Parser)]
#[command(
    name = "keltis",
    version,
    about = "Keltis game server, rules engine and tools"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    /// Run the HTTP server (SQLite under ./data by default; DATABASE_URL=postgres://... for PostgreSQL).
    Serve(keltis::config::Config),
    /// Apply pending database migrations and exit.
    Migrate(keltis::config::Config),
    /// Copy the SQLite database into a new file, while the server runs: the copy is the database
    /// at one instant. (PostgreSQL: pg_dump or a base backup, see docs/operating.md.)
    Backup {
        /// The new file (never overwritten).
        #[arg(long)]
        to: PathBuf,
        #[command(flatten)]
        config: keltis::config::Config,
    },
    /// Put a SQLite backup in place of the database. The server must be stopped; an existing
    /// database is replaced only with --force. Start the server after: it migrates an older
    /// backup forward.
    Restore {
        /// The backup (a file made by `keltis backup`).
        #[arg(long)]
        from: PathBuf,
        /// Replace the database that is there.
        #[arg(long)]
        force: bool,
        #[command(flatten)]
        config: keltis::config::Config,
    },
    /// Make a player a moderator (who reads reports, mutes, suspends and dismisses through the
    /// API), or with --revoke no longer one. The role is given here only, never through the API.
    Moderator {
        /// The player's user name.
        name: String,
        /// Take the role away.
        #[arg(long)]
        revoke: bool,
        #[command(flatten)]
        config: keltis::config::Config,
    },
    /// Record every finished game's result and rating again from the games' logs, with the
    /// rating flags given (after changing them); prints one JSON report. Run it while no game ends.
    RecomputeRatings(keltis::config::Config),
    /// Write finished rated games fast (real deals ended by resignations, with results and
    /// ratings) and, with `--active`, games being played, for measuring at scale with `keltis
    /// load`; prints one JSON report.
    Seed {
        /// Finished games to write.
        #[arg(long, default_value_t = 100_000)]
        finished: usize,
        /// Games still being played to write after them (a deal and a few dozen random moves).
        #[arg(long, default_value_t = 0)]
        active: usize,
        /// Accounts (`seeded-<n>`) the games are shared among.
        #[arg(long, default_value_t = 1000)]
        players: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[command(flatten)]
        config: keltis::config::Config,
    },
    /// Print the OpenAPI document.
    Openapi,
    /// Print a new VAPID private key (base64url) for `--vapid-private-key`. Optional: without the
    /// setting, the first instance makes one and keeps it in the database for all of them.
    VapidKey,
    /// Bots against each other, seats rotated, on every core; prints one JSON report.
    Arena {
        #[arg(long, value_parser = parse_variant)]
        variant: Variant,
        #[arg(long, default_value_t = 2)]
        players: u8,
        #[arg(long, default_value_t = 100)]
        games: u64,
        /// One bot per seat: random, greedy, planner, mcts (10 ms), mcts:50ms, mcts:2000i, rollout
        /// (100 ms), rollout:50ms, rollout:20i
        #[arg(long, value_delimiter = ',', value_parser = parse_bot)]
        bots: Vec<keltis::engine::bots::BotKind>,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Threads (default: one per core).
        #[arg(long)]
        threads: Option<usize>,
    },
    /// Play many concurrent games against a running server; print moves per second and latencies.
    Load {
        /// The server's base URL.
        #[arg(long, default_value = "http://127.0.0.1:8080")]
        url: String,
        #[arg(long, default_value = "keltis", value_parser = parse_variant)]
        variant: Variant,
        /// Concurrent games (two accounts play all of them).
        #[arg(long, default_value_t = 32)]
        games: usize,
        /// Stop after this many seconds.
        #[arg(long, default_value_t = 20)]
        seconds: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Server-sent event streams to hold open meanwhile (one follows each game, the rest
        /// wait where nothing happens).
        #[arg(long, default_value_t = 0)]
        streams: usize,
        /// Long polls to keep waiting meanwhile (shared out as the streams).
        #[arg(long, default_value_t = 0)]
        waiters: usize,
        /// How many games get a following stream and long poll whose wake-ups are measured
        /// (default: every game).
        #[arg(long)]
        followers: Option<usize>,
        /// Carry the streams and long polls over HTTP/2 without TLS on one connection (h2c), as
        /// a reverse proxy may, instead of a connection each.
        #[arg(long)]
        watch_h2c: bool,
        /// The server's process id: report its thread count.
        #[arg(long)]
        server_pid: Option<u32>,
        /// A PostgreSQL URL (the server's database): after the load, run `pgbench` there in
        /// the shape of one move with as many clients as games, and report both rates.
        #[arg(long)]
        pgbench: Option<String>,
        /// PostgreSQL's postmaster process id: with --pgbench, report PostgreSQL's CPU per move
        /// and per pgbench transaction (all its processes).
        #[arg(long)]
        database_pid: Option<u32>,
        /// The load tool's threads, and pgbench's (1 leaves the other cores of a small machine
        /// to the server; give it as many as the cores it has to itself).
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Offer this many moves per second in all, the tables taking turns, instead of each
        /// moving as soon as it is answered (latency at a given load).
        #[arg(long)]
        rate: Option<f64>,
        /// Play this many seconds before the measured `--seconds` (connections, threads and
        /// caches warm up; a start where every table opens its game at once is not measured).
        #[arg(long, default_value_t = 0)]
        warm_up_seconds: u64,
        /// Instead of playing: read history, profiles and leaderboards with `--games` readers
        /// (a database seeded with `keltis seed`).
        #[arg(long)]
        reads: bool,
    },
    /// Play random legal games and print one JSON report.
    Selfplay {
        /// keltis, neue-wege or keltis-card
        #[arg(long, default_value = "keltis", value_parser = parse_variant)]
        variant: Variant,
        #[arg(long, default_value_t = 2)]
        players: u8,
        #[arg(long, default_value_t = 1000)]
        games: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Write each game's full record to this file, one JSON line per game.
        #[arg(long)]
        records: Option<PathBuf>,
    },
    /// Review games on one core and print one JSON line per game (its cost, its review): the
    /// records in --records, --games calibration games of the pairing --pairings names, or
    /// --games games between greedy bots.
    Review {
        #[arg(long, default_value = "keltis", value_parser = parse_variant)]
        variant: Variant,
        #[arg(long, default_value_t = 2)]
        players: u8,
        #[arg(long, default_value_t = 1)]
        games: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Games sampled per decision: unless given, the server's for --variant and --players
        /// (`review::server_effort`).
        #[arg(long)]
        samples: Option<usize>,
        /// How sampled games are played on: `quick` (the search bot's quick policy), `strong`
        /// (the strong bot's play-outs) or `hybrid` (quick for every choice, greedy play-outs
        /// that start paths for the best few). Unless given, the server's for --variant and
        /// --players (`review::server_effort`).
        #[arg(long, value_parser = parse_judge)]
        judge: Option<keltis::review::Judge>,
        /// Records to review (one JSON record per line) instead of bot games.
        #[arg(long)]
        records: Option<PathBuf>,
        /// Print the figures only, not each decision.
        #[arg(long)]
        summary: bool,
        /// Instead: --games games of each pairing (random v greedy, greedy v strong, strong v
        /// strong, strong v the judge playing its own best choices), reviewed, and a table of
        /// what the reviews said of each player (on standard error as it grows: each game's
        /// figures and each seat's seconds spent deciding as a JSON line, each pairing's table).
        #[arg(long)]
        calibrate: bool,
        /// The strong bot of --calibrate (and of --pool).
        #[arg(long, default_value = "rollout:32i", value_parser = parse_bot)]
        strong: keltis::engine::bots::BotKind,
        /// Instead: each game reviewed twice (with --seed and --seed + 1000), and how many
        /// decisions both marked alike.
        #[arg(long)]
        stability: bool,
        /// Instead: the table of the calibration games in these files (each a --calibrate run's
        /// standard error, or its game lines), pooled: runs on other seeds add up to one table.
        /// Every game must be of --variant, --players, the judge, --samples and --strong (each
        /// line says its own; a line that does not is taken to be of these).
        #[arg(long, num_args = 1..)]
        pool: Vec<PathBuf>,
        /// The judge's revision the --pool games must be of (a line without one is of the
        /// first): the current one unless given.
        #[arg(long, default_value_t = keltis::review::JUDGE_REVISION)]
        judge_revision: u32,
        /// The strong bot's revision the --pool games that seat it must be of (a line without
        /// one is of the first): the current one for --variant and --players unless given.
        #[arg(long)]
        strong_revision: Option<u32>,
        /// The pairings --calibrate plays, by name (all unless given). Without --calibrate, one
        /// pairing: its --games calibration games from --seed, each reviewed on its own seed as
        /// --calibrate reviews it, printed decision by decision (or measured with --stability).
        #[arg(long, value_delimiter = ',', value_parser = ["random-greedy", "greedy-strong", "strong-strong", "strong-judge"])]
        pairings: Vec<String>,
    },
}

fn parse_variant(s: &str) -> Result<Variant, String> {
    Variant::parse(s)
        .ok_or_else(|| format!("unknown variant {s:?}: keltis, neue-wege or keltis-card"))
}

fn parse_judge(s: &str) -> Result<keltis::review::Judge, String> {
    keltis::review::Judge::parse(s)
        .ok_or_else(|| format!("unknown judge {s:?}: strong, quick or hybrid"))
}

fn parse_bot(s: &str) -> Result<keltis::engine::bots::BotKind, String> {
    keltis::engine::bots::BotKind::parse(s)
        .ok_or_else(|| format!("unknown bot {s:?}: random, greedy, mcts, mcts:<N>ms, mcts:<N>i, rollout, rollout:<N>ms, rollout:<N>i"))
}
