//! The `keltis` command.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::process::ExitCode;

use clap::Parser;

/// mimalloc returns freed memory to the system where glibc's per-thread arenas fragment: the
/// server's resident memory stays flat under steady play instead of growing.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod cli;
use cli::{Cli, Command};

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("keltis: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Result<(), Box<dyn std::error::Error>> {
    match cli.command {
        Command::Serve(config) => {
            keltis::telemetry::init(config.log_format);
            keltis::limits::raise_and_log_open_files();
            actix_web::rt::System::new().block_on(async {
                let running = keltis::startup::build(&config)?;
                let backend = keltis::storage::Backend::of_url(&config.database_url());
                let protocols = if config.h2c {
                    "HTTP/1.1, h2c"
                } else {
                    "HTTP/1.1"
                };
                tracing::info!(port = running.port, ?backend, protocols, "listening");
                actix_web::rt::spawn(running.stopper.clone().stop_on_signal());
                running.server.await?;
                // The server has stopped (a signal): let the workers finish their pass.
                running.workers.stop();
                Ok(())
            })
        }
        Command::Migrate(config) => {
            keltis::telemetry::init(config.log_format);
            let db = keltis::storage::Database::open_with(
                &config.database_url(),
                1,
                config.sqlite_synchronous,
            )?;
            println!("migrations applied ({:?})", db.backend());
            Ok(())
        }
        Command::Backup { to, config } => {
            keltis::storage::backups::backup(&config.database_url(), &to)?;
            println!("backed up to {}", to.display());
            Ok(())
        }
        Command::Restore {
            from,
            force,
            config,
        } => {
            keltis::storage::backups::restore(&config.database_url(), &from, force)?;
            println!(
                "restored {} into {}: start the server",
                from.display(),
                config.database_url()
            );
            Ok(())
        }
        Command::Moderator {
            name,
            revoke,
            config,
        } => {
            let db = keltis::storage::Database::open_with(
                &config.database_url(),
                1,
                config.sqlite_synchronous,
            )?;
            if !keltis::service::social::moderation::set_moderator(&db, &name, !revoke)? {
                return Err(format!("there is no player {name:?}").into());
            }
            println!(
                "{name} is {} a moderator",
                if revoke { "no longer" } else { "now" }
            );
            Ok(())
        }
        Command::RecomputeRatings(config) => {
            keltis::telemetry::init(config.log_format);
            let db = keltis::storage::Database::open_with(
                &config.database_url(),
                1,
                config.sqlite_synchronous,
            )?;
            let report = keltis::service::ratings::recompute(&db, &config.rating_parameters())?;
            println!("{}", serde_json::to_string(&report)?);
            Ok(())
        }
        Command::Seed {
            finished,
            active,
            players,
            seed,
            config,
        } => {
            keltis::telemetry::init(config.log_format);
            let db = keltis::storage::Database::open_with(
                &config.database_url(),
                1,
                config.sqlite_synchronous,
            )?;
            let report = keltis::service::play::seed::seed_games(
                &db,
                finished,
                active,
                players,
                &config.rating_parameters(),
                seed,
            )?;
            println!("{}", serde_json::to_string(&report)?);
            Ok(())
        }
        Command::Load {
            reads: true,
            url,
            games,
            seconds,
            seed,
            threads,
            ..
        } => {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(threads.max(1))
                .enable_all()
                .build()?;
            let report = runtime.block_on(keltis::loadtest::reads::run(
                keltis::loadtest::reads::ReadOptions {
                    url,
                    readers: games,
                    seconds,
                    seed,
                },
            ))?;
            println!("{}", serde_json::to_string_pretty(&report)?);
            Ok(())
        }
        Command::Load {
            url,
            variant,
            games,
            seconds,
            seed,
            streams,
            waiters,
            followers,
            watch_h2c,
            server_pid,
            pgbench,
            database_pid,
            threads,
            rate,
            warm_up_seconds,
            reads: false,
        } => {
            // Every stream and long poll holds a connection (unless they share one, h2c): the
            // load tool needs as many files.
            let files = keltis::limits::raise_open_files();
            let watching = if watch_h2c { 1 } else { streams + waiters };
            let needed = (watching + 2 * games) as u64 + 256;
            if files.now.is_some_and(|n| n < needed) {
                eprintln!(
                    "warning: {streams} streams and {waiters} long polls need some {needed} open \
                     files, the limit is {:?}: some will fail here, not in the server",
                    files.now
                );
            }
            // One worker thread by default: on a 2-core machine the server keeps the other core.
            let threads = threads.max(1);
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(threads)
                .enable_all()
                .build()?;
            let report =
                runtime.block_on(keltis::loadtest::run(keltis::loadtest::LoadOptions {
                    url,
                    variant: variant.name().to_string(),
                    games,
                    seconds,
                    seed,
                    streams,
                    waiters,
                    followers,
                    watch_h2c,
                    server_pid,
                    pgbench,
                    rate,
                    warm_up_seconds,
                    threads,
                    database_pid,
                }))?;
            println!("{}", serde_json::to_string_pretty(&report)?);
            Ok(())
        }
        Command::Arena {
            variant,
            players,
            games,
            bots,
            seed,
            threads,
        } => {
            let threads = threads.unwrap_or_else(keltis::limits::cores);
            let report = keltis::arena::run(variant, players, games, &bots, seed, threads)?;
            println!("{}", serde_json::to_string_pretty(&report)?);
            Ok(())
        }
        Command::Openapi => {
            println!("{}", keltis::api::openapi_json());
            Ok(())
        }
        Command::VapidKey => {
            println!(
                "{}",
                keltis::service::notify::push::PushKeys::generate_private()
            );
            Ok(())
        }
        Command::Selfplay {
            variant,
            players,
            games,
            seed,
            records,
        } => {
            let mut file = records.map(File::create).transpose()?.map(BufWriter::new);
            let report = keltis::selfplay::run(
                variant,
                players,
                games,
                seed,
                file.as_mut().map(|f| f as &mut dyn Write),
            )?;
            if let Some(f) = file.as_mut() {
                f.flush()?;
            }
            println!("{}", serde_json::to_string(&report)?);
            Ok(())
        }
        Command::Review {
            variant,
            players,
            games,
            seed,
            samples,
            judge,
            records,
            summary,
            calibrate,
            strong,
            pairings,
            stability,
            pool,
            judge_revision,
            strong_revision,
        } => {
            use keltis::review_tool::{
                calibrate, greedy_game, print_reviews, read_records, tables,
            };
            let server = keltis::review::server_effort(variant, players);
            let effort = keltis::review::Effort {
                samples: samples.unwrap_or(server.samples),
                judge: judge.unwrap_or(server.judge),
                ..server
            };
            if !pool.is_empty() {
                let mut games = Vec::new();
                for path in pool {
                    let file = std::io::BufReader::new(File::open(path)?);
                    games.extend(keltis::review_tool::read_game_lines(file)?);
                }
                let of = tables::Pooled {
                    variant,
                    players,
                    judge: effort.judge,
                    samples: effort.samples,
                    strong,
                    judge_revision,
                    strong_revision: strong_revision
                        .unwrap_or_else(|| keltis::engine::bots::strong_revision(variant, players)),
                };
                println!("{}", tables::pool(&games, of)?);
                return Ok(());
            }
            if calibrate {
                let only = |name: &str| pairings.is_empty() || pairings.iter().any(|p| p == name);
                let table =
                    calibrate::run(strong, variant, players, games, seed, effort, only, |t| {
                        eprintln!("{t}")
                    })?;
                println!("{table}");
                return Ok(());
            }
            // Each record with the seed its review is made on: a calibration game's own (as
            // `--calibrate` reviewed it), --seed for any other.
            let records: Vec<(keltis::engine::Record, u64)> = match (records, pairings.as_slice()) {
                (Some(path), _) => read_records(std::io::BufReader::new(File::open(path)?))?
                    .into_iter()
                    .map(|r| (r, seed))
                    .collect(),
                (None, [name]) => {
                    let pairing = calibrate::pairings(strong, effort)
                        .into_iter()
                        .find(|p| &p.name() == name)
                        .ok_or("--pairings names one of the four pairings")?;
                    (seed..seed + games)
                        .map(|s| Ok((calibrate::pairing_game(pairing, variant, players, s)?, s)))
                        .collect::<Result<_, keltis::review_tool::ReviewToolError>>()?
                }
                (None, []) => (0..games)
                    .map(|g| Ok((greedy_game(variant, players, seed + g)?, seed)))
                    .collect::<Result<_, keltis::review_tool::ReviewToolError>>()?,
                (None, _) => return Err("without --calibrate, --pairings names one pairing".into()),
            };
            if stability {
                let found = keltis::review_tool::stability(&records, effort)?;
                println!("{}", serde_json::to_string(&found)?);
                return Ok(());
            }
            print_reviews(&records, effort, summary)?;
            Ok(())
        }
    }
}
