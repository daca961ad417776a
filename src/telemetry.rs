//! Logging. Log lines carry ids, codes and timings, never cards, hands or secrets.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};

use tracing_subscriber::{fmt, EnvFilter};

use crate::config::LogFormat;

/// actix-http warns once for each stream of an HTTP/2 connection that went away while the server
/// was sending on it ("Send data error: InactiveStreamId"): when a proxy's h2c connection closes,
/// one line for every stream it carried, 20,000 at once in the load tool's runs. A client gone is
/// no warning; its errors stay. `RUST_LOG` naming actix_http sets it instead.
const QUIET_TARGETS: &str = "actix_http::h2::dispatcher=error";

/// What the log lets through: `asked` (`RUST_LOG`) or `info`, [`QUIET_TARGETS`] less.
fn filter(asked: Option<&str>) -> EnvFilter {
    let mut filter = asked
        .and_then(|asked| EnvFilter::try_new(asked).ok())
        .unwrap_or_else(|| EnvFilter::new("info"));
    if !asked.unwrap_or_default().contains("actix_http") {
        if let Ok(quiet) = QUIET_TARGETS.parse() {
            filter = filter.add_directive(quiet);
        }
    }
    filter
}

/// Install the global subscriber (`RUST_LOG` filters; default `info`). Safe to call twice.
pub fn init(format: LogFormat) {
    let filter = filter(std::env::var("RUST_LOG").ok().as_deref());
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
    use super::{filter, Throttle};
    use std::sync::{Arc, Mutex};

    /// What a subscriber with `filter(asked)` writes of a stream's send error and of a warning
    /// of the server's own.
    fn written(asked: Option<&str>) -> String {
        let out = Arc::new(Mutex::new(Vec::new()));
        let sink = out.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_env_filter(filter(asked))
            .with_writer(move || Sink(sink.clone()))
            .finish();
        tracing::subscriber::with_default(subscriber, || {
            tracing::warn!(target: "actix_http::h2::dispatcher", "Send data error");
            tracing::error!(target: "actix_http::h2::dispatcher", "a connection failed");
            tracing::warn!(target: "keltis::workers", "the worker's own warning");
        });
        let bytes = out.lock().map(|b| b.clone()).unwrap_or_default();
        String::from_utf8_lossy(&bytes).into_owned()
    }

    struct Sink(Arc<Mutex<Vec<u8>>>);

    impl std::io::Write for Sink {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            if let Ok(mut b) = self.0.lock() {
                b.extend_from_slice(buf);
            }
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_closed_http2_streams_warning_is_left_out_unless_asked_for() {
        for asked in [None, Some("warn"), Some("info,keltis=debug")] {
            let log = written(asked);
            assert!(!log.contains("Send data error"), "{asked:?}: {log}");
            assert!(log.contains("a connection failed"), "{asked:?}: {log}");
            assert!(log.contains("the worker's own warning"), "{asked:?}: {log}");
        }
        let log = written(Some("warn,actix_http=warn"));
        assert!(log.contains("Send data error"), "{log}");
    }

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
