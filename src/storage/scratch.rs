//! For unit tests: a SQLite file in a folder of its own, removed when the test is done.

use std::path::PathBuf;

/// A database file's path in a fresh folder, which is removed on drop: declare it before the
/// databases opened on it, so that they close first.
pub(crate) struct ScratchFile {
    dir: PathBuf,
    path: String,
}

impl ScratchFile {
    /// `file` in a folder named after the test and this process.
    pub(crate) fn new(test: &str, file: &str) -> ScratchFile {
        let dir = std::env::temp_dir().join(format!("keltis-{test}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        let path = dir.join(file).to_str().expect("a path").to_owned();
        ScratchFile { dir, path }
    }

    pub(crate) fn path(&self) -> &str {
        &self.path
    }
}

impl Drop for ScratchFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
