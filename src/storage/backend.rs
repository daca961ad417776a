//! Which database a URL names: PostgreSQL, or a SQLite file (or one in memory).

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Postgresql,
    Sqlite,
}

impl Backend {
    /// `postgres://` and `postgresql://` URLs select PostgreSQL; anything else is a SQLite file
    /// (an optional `sqlite://` prefix is removed).
    pub fn of_url(url: &str) -> Backend {
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Backend::Postgresql
        } else {
            Backend::Sqlite
        }
    }
}

/// Whether a SQLite path is a database in memory (no file).
pub(super) fn is_in_memory(path: &str) -> bool {
    path == ":memory:" || path.starts_with("file::memory:")
}

/// The file a SQLite URL names: the URL without its optional `sqlite://` prefix.
pub(super) fn sqlite_path(url: &str) -> &str {
    url.strip_prefix("sqlite://").unwrap_or(url)
}
