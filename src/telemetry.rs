//! Logging. Log lines carry ids, codes and timings, never cards, hands or secrets.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};

use tracing_subscriber::{fmt, EnvFilter};

use crate::config::LogFormat;

/// Install the global subscriber (`RUST_LOG` filters; default `info`). Safe to call twice.
pub fn init(format: LogFormat) {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    // Colours only for a terminal: a file or a journal gets plain text.
    let builder = fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal());
    let _ = match format {
        LogFormat::Json => builder.json().try_init(),
        LogFormat::Text => builder.try_init(),
    };
}

/// The request log, one line per request: method, path, status and time. The path without its
/// query: a query can carry a one-time secret (an email link's `token=`, a stream's `ticket=`),
/// and a log is read by more people, and kept longer, than the secret may be.
pub fn request_log() -> actix_web::middleware::Logger {
    actix_web::middleware::Logger::new("%{method}xi %U %s %Dms")
        .custom_request_replace("method", |req| req.method().to_string())
        .exclude("/healthz")
}

/// Repeats of one log line, summarised: the first is written, then at most one per interval,
/// saying how many were left out since the last (`left_out`). Through a database outage every
/// request and every worker's pass fails the same way, many times a second.
pub struct Throttle {
    interval_ms: i64,
    next_at: AtomicI64,
    left_out: AtomicU64,
}

impl Throttle {
    pub const fn new(interval_ms: i64) -> Throttle {
        Throttle {
            interval_ms,
            next_at: AtomicI64::new(i64::MIN),
            left_out: AtomicU64::new(0),
        }
    }

    /// At `now_ms`: `Some(lines left out before this one)` when this one is to be written.
    pub fn admit(&self, now_ms: i64) -> Option<u64> {
        let next_at = self.next_at.load(Ordering::Relaxed);
        if now_ms >= next_at
            && self
                .next_at
                .compare_exchange(
                    next_at,
                    now_ms.saturating_add(self.interval_ms),
                    Ordering::Relaxed,
                    Ordering::Relaxed,
                )
                .is_ok()
        {
            return Some(self.left_out.swap(0, Ordering::Relaxed));
        }
        self.left_out.fetch_add(1, Ordering::Relaxed);
        None
    }
}

/// `tracing::warn!`, at most once every 10 seconds from this call site, with `left_out`.
#[macro_export]
macro_rules! warn_throttled {
    ($($arg:tt)+) => {{
        static THROTTLE: $crate::telemetry::Throttle = $crate::telemetry::Throttle::new(10_000);
        if let Some(left_out) = THROTTLE.admit($crate::storage::now_millis()) {
            tracing::warn!(left_out, $($arg)+);
        }
    }};
}

#[cfg(test)]
mod tests {
    use super::Throttle;

    #[test]
    fn repeats_are_written_once_per_interval_with_their_count() {
        let t = Throttle::new(10_000);
        assert_eq!(t.admit(0), Some(0));
        for ms in 1..30 {
            assert_eq!(t.admit(ms * 100), None);
        }
        assert_eq!(t.admit(10_000), Some(29));
        assert_eq!(t.admit(10_001), None);
        assert_eq!(t.admit(25_000), Some(1));
    }
}
