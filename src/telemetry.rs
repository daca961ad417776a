//! Logging. Log lines carry ids, codes and timings, never cards, hands or secrets.

use tracing_subscriber::{fmt, EnvFilter};

use crate::config::LogFormat;

/// Install the global subscriber (`RUST_LOG` filters; default `info`). Safe to call twice.
pub fn init(format: LogFormat) {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = fmt().with_env_filter(filter).with_writer(std::io::stderr);
    let _ = match format {
        LogFormat::Json => builder.json().try_init(),
        LogFormat::Text => builder.try_init(),
    };
}
