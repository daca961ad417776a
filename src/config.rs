//! Configuration, from flags or environment variables.

use std::path::PathBuf;

use crate::storage::Backend;

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogFormat {
    Text,
    Json,
}

#[derive(clap::Args, Clone, Debug)]
pub struct Config {
    /// Address to listen on.
    #[arg(long, env = "KELTIS_BIND", default_value = "127.0.0.1:8080")]
    pub bind: String,
    /// `postgres://...` for PostgreSQL; otherwise a SQLite file. Default: `<data-dir>/keltis.sqlite3`.
    #[arg(long, env = "DATABASE_URL")]
    pub database_url: Option<String>,
    /// Folder for the embedded SQLite database and its generated secret.
    #[arg(long, env = "KELTIS_DATA_DIR", default_value = "data")]
    pub data_dir: PathBuf,
    /// Secret that signs access tokens (HS256). Required with PostgreSQL, so that every instance
    /// shares it; with SQLite one is generated and kept in the data folder.
    #[arg(long, env = "KELTIS_JWT_SECRET", hide_env_values = true)]
    pub jwt_secret: Option<String>,
    #[arg(long, env = "KELTIS_LOG_FORMAT", value_enum, default_value = "text")]
    pub log_format: LogFormat,
    /// Database connections in the pool.
    #[arg(long, env = "KELTIS_POOL_SIZE", default_value_t = 16)]
    pub pool_size: u32,
    /// HTTP worker threads (default: one per core).
    #[arg(long, env = "KELTIS_WORKERS")]
    pub workers: Option<usize>,
    /// Also serve HTTP/2 without TLS to clients that start with its preface (h2c, "prior
    /// knowledge"): a reverse proxy can then carry many clients' event streams on one
    /// connection instead of a descriptor each. HTTP/1.1 is served either way.
    #[arg(long, env = "KELTIS_H2C", default_value_t = true, action = clap::ArgAction::Set)]
    pub h2c: bool,
    /// Login and registration attempts allowed per client address and minute.
    #[arg(long, env = "KELTIS_AUTH_RATE_LIMIT", default_value_t = 10)]
    pub auth_rate_limit: u32,
    /// Requests per minute per API or app token (a bot's, an app's), on each instance;
    /// signed-in sessions are not counted. Over it: 429 `rate_limited` with `Retry-After`.
    #[arg(long, env = "KELTIS_TOKEN_RATE_LIMIT", default_value_t = 1200)]
    pub token_rate_limit: u32,
    /// Reverse proxies whose connections may name the client (`Forwarded`, `X-Forwarded-For`):
    /// addresses or networks, comma-separated (`127.0.0.1,10.0.0.0/8`). None by default: the
    /// peer is the client.
    #[arg(long, env = "KELTIS_TRUSTED_PROXIES", value_delimiter = ',', value_parser = network)]
    pub trusted_proxies: Vec<ipnet::IpNet>,
    /// Run the bot worker that plays the built-in bots' turns and the seats of players who left
    /// a game that goes on (the stand-in). With `false` on every instance, those turns wait,
    /// their games standing still, until an instance runs it.
    #[arg(long, env = "KELTIS_BOTS", default_value_t = true, action = clap::ArgAction::Set)]
    pub bots: bool,
    /// Run the review worker, which reviews the finished games players ask about (issue 48).
    /// With `false` on every instance, reviews asked for wait.
    #[arg(long, env = "KELTIS_REVIEWS", default_value_t = true, action = clap::ArgAction::Set)]
    pub reviews: bool,
    /// Review every rated game that ends, unasked (a few seconds of one core per game; see
    /// docs/performance.md).
    #[arg(long, env = "KELTIS_REVIEW_RATED", default_value_t = true, action = clap::ArgAction::Set)]
    pub review_rated: bool,
    /// Thinking time of `bot-mcts` per decision, in milliseconds.
    #[arg(long, env = "KELTIS_BOT_MCTS_MS", default_value_t = 100)]
    pub bot_mcts_ms: u64,
    /// Thinking time of `bot-strong` per decision, in milliseconds.
    #[arg(long, env = "KELTIS_BOT_STRONG_MS", default_value_t = 100)]
    pub bot_strong_ms: u64,
    /// SQLite only: `full` makes every acknowledged move survive a power loss, and
    /// `full-outside-lock` as well, syncing after SQLite's write lock is released (faster on
    /// many cores); `auto` (default) takes the second with 4 cores or more, the first below;
    /// `normal` commits faster but a power loss can drop the last acknowledged moves.
    #[arg(
        long,
        env = "KELTIS_SQLITE_SYNCHRONOUS",
        value_enum,
        default_value = "auto"
    )]
    pub sqlite_synchronous: crate::storage::SqliteSync,
    /// Seconds a client has to send a request's body before it is answered 408 `body_timeout`.
    #[arg(long, env = "KELTIS_BODY_TIMEOUT", default_value_t = 10)]
    pub body_timeout_seconds: u64,
    /// The longest a long poll of events (`wait=`) is held, in seconds (at most 60).
    #[arg(long, env = "KELTIS_LONG_POLL_MAX", default_value_t = 60)]
    pub long_poll_max_seconds: u64,
    /// Games a player may have open or under way at once (creating or joining one more is
    /// refused with 409 `too_many_games`); the server's bots have no cap.
    #[arg(long, env = "KELTIS_MAX_RUNNING_GAMES", default_value_t = 60, value_parser = clap::value_parser!(i64).range(1..))]
    pub max_running_games: i64,
    /// Seconds an event stream stays silent before it sends a heartbeat comment (keeps proxies
    /// from closing idle streams).
    #[arg(long, env = "KELTIS_STREAM_HEARTBEAT", default_value_t = 15)]
    pub stream_heartbeat_seconds: u64,
    /// Seconds after which the server ends an event stream; the client reconnects with
    /// `Last-Event-ID` and misses nothing (spreads long-lived connections over instances).
    #[arg(long, env = "KELTIS_STREAM_MAX", default_value_t = 3600)]
    pub stream_max_seconds: u64,
    /// Event streams and waiting long polls one player may hold open at once on each instance (a
    /// tab, a device, a client each); one more is refused with 429 `too_many_streams` until one
    /// closes.
    #[arg(long, env = "KELTIS_MAX_STREAMS_PER_PLAYER", default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_streams_per_player: u32,
    /// Allow webhook endpoints on private, loopback and link-local addresses (closed networks,
    /// tests). Off by default: a webhook must not reach into the server's own network.
    #[arg(long, env = "KELTIS_WEBHOOKS_ALLOW_PRIVATE")]
    pub webhooks_allow_private: bool,
    /// Milliseconds between the webhook worker's looks for due deliveries.
    #[arg(long, env = "KELTIS_WEBHOOK_INTERVAL_MS", default_value_t = 1000)]
    pub webhook_interval_ms: u64,
    /// The server's VAPID private key for Web Push (P-256, 32 bytes, base64url). Default: one
    /// generated on the first start and kept in the database, sealed under `--jwt-secret`, which
    /// every instance on that database reads.
    #[arg(long, env = "KELTIS_VAPID_PRIVATE_KEY", hide_env_values = true)]
    pub vapid_private_key: Option<String>,
    /// The contact VAPID tokens name to push services (`mailto:` or `https:`). Default: the
    /// address of `--mail-from`.
    #[arg(long, env = "KELTIS_VAPID_SUBJECT")]
    pub vapid_subject: Option<String>,
    /// Allow push endpoints on private, loopback, link-local and other special-purpose addresses
    /// (closed networks, tests).
    #[arg(long, env = "KELTIS_PUSH_ALLOW_PRIVATE")]
    pub push_allow_private: bool,
    /// Milliseconds between the push worker's looks for due deliveries.
    #[arg(long, env = "KELTIS_PUSH_INTERVAL_MS", default_value_t = 1000)]
    pub push_interval_ms: u64,
    /// Glicko-2's system constant tau (how fast volatility may change). After changing a rating
    /// parameter, run `keltis recompute-ratings` with the same flags.
    #[arg(long, env = "KELTIS_RATING_TAU", default_value_t = 0.5, value_parser = positive)]
    pub rating_tau: f64,
    /// Days in a rating period: a deviation grows by one period's volatility per period without
    /// a rated game.
    #[arg(long, env = "KELTIS_RATING_PERIOD_DAYS", default_value_t = 7.0, value_parser = positive)]
    pub rating_period_days: f64,
    /// Ratings with a larger deviation are provisional: marked, and not on leaderboards.
    #[arg(long, env = "KELTIS_RATING_PROVISIONAL_DEVIATION", default_value_t = 110.0, value_parser = positive)]
    pub rating_provisional_deviation: f64,
    /// Seconds between sweeps that delete expired idempotency answers, refresh tokens and
    /// sessions.
    #[arg(long, env = "KELTIS_MAINTENANCE_INTERVAL", default_value_t = 600)]
    pub maintenance_interval_seconds: u64,
    /// Milliseconds between the clock worker's looks for passed deadlines.
    #[arg(long, env = "KELTIS_CLOCK_INTERVAL_MS", default_value_t = 1000)]
    pub clock_interval_ms: u64,
    /// Milliseconds between pairing passes (lapsed requests, bots after their wait; a new request
    /// is paired at once).
    #[arg(long, env = "KELTIS_PAIRING_INTERVAL_MS", default_value_t = 2000)]
    pub pairing_interval_ms: u64,
    /// Milliseconds between events passes (events due to start, rounds to deal once the last game
    /// of a round is decided, rounds past their time, events to finish).
    #[arg(long, env = "KELTIS_EVENTS_INTERVAL_MS", default_value_t = 5000)]
    pub events_interval_ms: u64,
    /// Vacation days each player may take per calendar year (their clocks stand still).
    #[arg(long, env = "KELTIS_VACATION_DAYS", default_value_t = 30)]
    pub vacation_days_per_year: u32,
    /// The SMTP relay that sends notification emails; without one they stay in the outbox.
    #[arg(long, env = "KELTIS_SMTP_HOST")]
    pub smtp_host: Option<String>,
    /// The relay's port (default: 25 without TLS, 587 with STARTTLS, 465 with implicit TLS).
    #[arg(long, env = "KELTIS_SMTP_PORT")]
    pub smtp_port: Option<u16>,
    /// How to secure the connection to the relay.
    #[arg(long, env = "KELTIS_SMTP_TLS", value_enum, default_value = "starttls")]
    pub smtp_tls: crate::service::notify::mail::delivery::SmtpTls,
    #[arg(long, env = "KELTIS_SMTP_USERNAME")]
    pub smtp_username: Option<String>,
    #[arg(long, env = "KELTIS_SMTP_PASSWORD", hide_env_values = true)]
    pub smtp_password: Option<String>,
    /// The sender of notification emails.
    #[arg(
        long,
        env = "KELTIS_MAIL_FROM",
        default_value = "Keltis <keltis@localhost>"
    )]
    pub mail_from: String,
    /// Where players and apps reach this server: links in emails and pushes, and OAuth's
    /// metadata (`/.well-known/oauth-authorization-server`), start with it. Set it whenever the
    /// server is reached at another address than the default (another `--bind`, a proxy): the
    /// server warns at start when `--bind` differs and this is left at its default.
    #[arg(
        long,
        env = "KELTIS_PUBLIC_URL",
        default_value = "http://127.0.0.1:8080"
    )]
    pub public_url: String,
    /// Milliseconds between the mail worker's looks at the outbox.
    #[arg(long, env = "KELTIS_MAIL_INTERVAL_MS", default_value_t = 1000)]
    pub mail_interval_ms: u64,
    /// Moves by email: the address replies to "your turn" emails go to
    /// (`play@keltis.example.org`; each email extends its part before the `@` with a token of
    /// the turn). Unset: no email offers moves and no mail is received.
    #[arg(long, env = "KELTIS_REPLY_ADDRESS")]
    pub reply_address: Option<String>,
    /// Moves by email: the address the server's own SMTP listener binds to (`127.0.0.1:2525`),
    /// for the operator's mail server to hand replies to. Off by default.
    #[arg(long, env = "KELTIS_INBOUND_SMTP")]
    pub inbound_smtp: Option<String>,
    /// Moves by email: the `whsec_` secret a mail provider's inbound webhook signs its posts to
    /// `POST /api/v1/inbound/mail` with (Standard Webhooks). Unset: that endpoint is off.
    #[arg(long, env = "KELTIS_INBOUND_WEBHOOK_SECRET", hide_env_values = true)]
    pub inbound_webhook_secret: Option<String>,
    /// Moves by email: the id of the operator's mail server in `Authentication-Results`
    /// (`mx.keltis.example.org`). When set, a reply counts only if the topmost such header from
    /// that server shows DKIM or SPF pass.
    #[arg(long, env = "KELTIS_INBOUND_AUTHSERV_ID")]
    pub inbound_authserv_id: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("KELTIS_JWT_SECRET (or --jwt-secret) is required with PostgreSQL: every server instance must sign tokens with the same secret")]
    MissingSecret,
    #[error("KELTIS_JWT_SECRET must have at least 32 characters")]
    ShortSecret,
    #[error("the secret file {path}: {error}")]
    SecretFile {
        path: PathBuf,
        error: std::io::Error,
    },
}

/// A number above zero (a rating parameter).
fn positive(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x > 0.0 && x.is_finite() => Ok(x),
        _ => Err(format!("{s:?} is not a number above zero")),
    }
}

impl Config {
    /// The rating system's parameters.
    pub fn rating_parameters(&self) -> crate::ratings::RatingParameters {
        crate::ratings::RatingParameters {
            tau: self.rating_tau,
            period_days: self.rating_period_days,
            provisional_deviation: self.rating_provisional_deviation,
            ..crate::ratings::RatingParameters::default()
        }
    }

    /// Defaults for tests and tools: everything as `keltis serve` with no flags, but with the
    /// given database, and no unasked reviews of rated games (tests that want them say so).
    pub fn for_database(url: &str, data_dir: PathBuf) -> Config {
        Config {
            bind: "127.0.0.1:0".into(),
            database_url: Some(url.into()),
            data_dir,
            jwt_secret: None,
            log_format: LogFormat::Text,
            pool_size: 8,
            workers: Some(2),
            h2c: true,
            auth_rate_limit: 10,
            token_rate_limit: 1200,
            trusted_proxies: Vec::new(),
            bots: true,
            reviews: true,
            review_rated: false,
            bot_mcts_ms: 100,
            bot_strong_ms: 100,
            sqlite_synchronous: crate::storage::SqliteSync::Auto,
            body_timeout_seconds: 10,
            long_poll_max_seconds: 60,
            max_running_games: 60,
            stream_heartbeat_seconds: 15,
            max_streams_per_player: 256,
            stream_max_seconds: 3600,
            webhooks_allow_private: false,
            webhook_interval_ms: 1000,
            vapid_private_key: None,
            vapid_subject: None,
            push_allow_private: false,
            push_interval_ms: 1000,
            rating_tau: 0.5,
            rating_period_days: 7.0,
            rating_provisional_deviation: 110.0,
            maintenance_interval_seconds: 600,
            clock_interval_ms: 1000,
            pairing_interval_ms: 2000,
            events_interval_ms: 5000,
            vacation_days_per_year: 30,
            smtp_host: None,
            smtp_port: None,
            smtp_tls: crate::service::notify::mail::delivery::SmtpTls::Starttls,
            smtp_username: None,
            smtp_password: None,
            mail_from: "Keltis <keltis@localhost>".into(),
            public_url: "http://127.0.0.1:8080".into(),
            mail_interval_ms: 1000,
            reply_address: None,
            inbound_smtp: None,
            inbound_webhook_secret: None,
            inbound_authserv_id: None,
        }
    }

    /// The SMTP relay's settings, if one is configured.
    pub fn smtp(&self) -> Option<crate::service::notify::mail::delivery::SmtpSettings> {
        Some(crate::service::notify::mail::delivery::SmtpSettings {
            host: self.smtp_host.clone()?,
            port: self.smtp_port,
            tls: self.smtp_tls,
            username: self.smtp_username.clone(),
            password: self.smtp_password.clone(),
            from: self.mail_from.clone(),
            public_url: self.public_url.clone(),
            reply_address: self.reply_address.clone(),
        })
    }

    pub fn database_url(&self) -> String {
        match &self.database_url {
            Some(url) => url.clone(),
            None => self
                .data_dir
                .join("keltis.sqlite3")
                .to_string_lossy()
                .into_owned(),
        }
    }

    /// The signing secret; generated and kept in the data folder for SQLite.
    pub fn jwt_secret(&self) -> Result<Vec<u8>, ConfigError> {
        if let Some(secret) = &self.jwt_secret {
            if secret.len() < 32 {
                return Err(ConfigError::ShortSecret);
            }
            return Ok(secret.as_bytes().to_vec());
        }
        if Backend::of_url(&self.database_url()) == Backend::Postgresql {
            return Err(ConfigError::MissingSecret);
        }
        let path = self.data_dir.join("jwt-secret");
        let io = |error| ConfigError::SecretFile {
            path: path.clone(),
            error,
        };
        match std::fs::read_to_string(&path) {
            Ok(text) if text.trim().len() >= 32 => Ok(text.trim().as_bytes().to_vec()),
            _ => {
                std::fs::create_dir_all(&self.data_dir).map_err(io)?;
                let secret = crate::service::random_hex(32)
                    .map_err(|e| io(std::io::Error::other(e.to_string())))?;
                write_private(&path, &secret).map_err(io)?;
                Ok(secret.into_bytes())
            }
        }
    }
}

/// The default of `--public-url` (and `--bind`'s address).
pub const DEFAULT_PUBLIC_URL: &str = "http://127.0.0.1:8080";

impl Config {
    /// Why the public URL is likely wrong: left at its default while the server listens
    /// elsewhere (emails' links and OAuth's metadata would name an address nobody reaches).
    pub fn public_url_warning(&self) -> Option<String> {
        // Only a server other machines can reach needs another address: on a loopback bind
        // (a first start, a test on port 0) the players are on this machine.
        let host = self
            .bind
            .rsplit_once(':')
            .map_or(self.bind.as_str(), |(host, _)| host);
        let loopback = host
            .trim_matches(|c| c == '[' || c == ']')
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
            || host == "localhost";
        (self.public_url.trim_end_matches('/') == DEFAULT_PUBLIC_URL && !loopback).then(|| {
            format!(
                "--public-url is left at {DEFAULT_PUBLIC_URL} while the server listens on {}: \
                     links in emails and pushes and OAuth's metadata name that address; set \
                     --public-url (KELTIS_PUBLIC_URL) to where players reach this server",
                self.bind
            )
        })
    }

    /// The VAPID private key this configuration names: the setting, or (SQLite) the one an older
    /// version kept in the data folder. `None`: the one kept in the database is used (made on
    /// the first start), shared by every instance.
    pub fn vapid_private_key(&self) -> Result<Option<String>, ConfigError> {
        if let Some(key) = &self.vapid_private_key {
            return Ok(Some(key.trim().to_string()));
        }
        if Backend::of_url(&self.database_url()) == Backend::Postgresql {
            return Ok(None);
        }
        let path = self.data_dir.join("vapid-private-key");
        match std::fs::read_to_string(&path) {
            Ok(text) if !text.trim().is_empty() => Ok(Some(text.trim().to_string())),
            Ok(_) => Ok(None),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(error) => Err(ConfigError::SecretFile { path, error }),
        }
    }

    /// The contact VAPID tokens name: the setting, or `mailto:` the sender's address.
    pub fn vapid_subject(&self) -> String {
        if let Some(subject) = &self.vapid_subject {
            return subject.clone();
        }
        let address = self
            .mail_from
            .rsplit_once('<')
            .map(|(_, rest)| rest.trim_end_matches('>'))
            .unwrap_or(&self.mail_from);
        format!("mailto:{}", address.trim())
    }
}

fn write_private(path: &std::path::Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    options.open(path)?.write_all(text.as_bytes())
}

/// A network (`10.0.0.0/8`) or one address (`127.0.0.1`, `::1`).
fn network(text: &str) -> Result<ipnet::IpNet, String> {
    let text = text.trim();
    text.parse::<ipnet::IpNet>()
        .or_else(|_| text.parse::<std::net::IpAddr>().map(ipnet::IpNet::from))
        .map_err(|_| format!("{text:?} is neither an address nor a network like 10.0.0.0/8"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn postgres_without_a_secret_is_a_clear_start_up_error() {
        let dir = std::env::temp_dir().join(format!("keltis-config-pg-{}", std::process::id()));
        let config = Config::for_database("postgres://postgres@127.0.0.1/x", dir);
        let err = config.jwt_secret().unwrap_err();
        assert!(matches!(err, ConfigError::MissingSecret));
        assert!(err.to_string().contains("KELTIS_JWT_SECRET"));
        let mut short = config.clone();
        short.jwt_secret = Some("short".into());
        assert!(matches!(
            short.jwt_secret().unwrap_err(),
            ConfigError::ShortSecret
        ));
    }

    #[test]
    fn sqlite_default_generates_a_secret_once_and_keeps_it() {
        let dir = std::env::temp_dir().join(format!("keltis-config-sq-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let config = Config {
            database_url: None,
            ..Config::for_database("unused", dir.clone())
        };
        assert_eq!(
            config.database_url(),
            dir.join("keltis.sqlite3").to_string_lossy()
        );
        let first = config.jwt_secret().unwrap();
        assert!(first.len() >= 32);
        assert_eq!(
            config.jwt_secret().unwrap(),
            first,
            "kept in the data folder"
        );
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn a_default_public_url_with_another_bind_is_warned_of() {
        let dir = std::env::temp_dir().join("keltis-config-url");
        let mut config = Config::for_database("unused", dir);
        config.public_url = DEFAULT_PUBLIC_URL.into();
        config.bind = "127.0.0.1:8080".into();
        assert_eq!(config.public_url_warning(), None);
        config.bind = "127.0.0.1:0".into();
        assert_eq!(
            config.public_url_warning(),
            None,
            "a loopback bind is this machine's"
        );
        config.bind = "[::1]:8081".into();
        assert_eq!(config.public_url_warning(), None);
        config.bind = "0.0.0.0:9000".into();
        let warning = config.public_url_warning().expect("a warning");
        assert!(warning.contains("0.0.0.0:9000") && warning.contains("--public-url"));
        config.public_url = "https://keltis.example.org".into();
        assert_eq!(config.public_url_warning(), None);
    }
}
