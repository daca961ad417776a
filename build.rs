//! Marks the build when `TEST_DATABASE_URL` is set, so that PostgreSQL integration tests are
//! reported as ignored (not as passed) when there is no database to run them against.

fn main() {
    println!("cargo::rerun-if-env-changed=TEST_DATABASE_URL");
    println!("cargo::rustc-check-cfg=cfg(postgres_tests)");
    if std::env::var_os("TEST_DATABASE_URL").is_some_and(|v| !v.is_empty()) {
        println!("cargo::rustc-cfg=postgres_tests");
    }
}
