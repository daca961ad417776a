//! Marks the build with what the integration tests can reach, so that a test without its
//! database or tools is reported as ignored, never as passed:
//! `TEST_DATABASE_URL` (PostgreSQL) and `KELTIS_CONTRACT_TOOLS` (schemathesis,
//! openapi-python-client and npx on the PATH; `.ci/run` installs them) and `KELTIS_MAIL_TESTS`
//! (Python's aiosmtpd, the SMTP server the mail tests start on loopback) and
//! `KELTIS_BROWSER_TESTS` (Debian's chromium and `npm install` done in `tests/browser/`) and
//! `KELTIS_PROXY_TESTS` (Debian's nginx and openssl, for the test behind a TLS proxy).

fn main() {
    println!("cargo::rerun-if-env-changed=TEST_DATABASE_URL");
    println!("cargo::rustc-check-cfg=cfg(postgres_tests)");
    println!("cargo::rerun-if-env-changed=KELTIS_CONTRACT_TOOLS");
    println!("cargo::rustc-check-cfg=cfg(contract_tools)");
    println!("cargo::rerun-if-env-changed=KELTIS_MAIL_TESTS");
    println!("cargo::rustc-check-cfg=cfg(mail_tests)");
    println!("cargo::rerun-if-env-changed=KELTIS_BROWSER_TESTS");
    println!("cargo::rustc-check-cfg=cfg(browser_tests)");
    println!("cargo::rerun-if-env-changed=KELTIS_PROXY_TESTS");
    println!("cargo::rustc-check-cfg=cfg(proxy_tests)");
    let set = |name: &str| std::env::var_os(name).is_some_and(|v| !v.is_empty());
    if set("TEST_DATABASE_URL") {
        println!("cargo::rustc-cfg=postgres_tests");
    }
    if set("KELTIS_CONTRACT_TOOLS") {
        println!("cargo::rustc-cfg=contract_tools");
    }
    if set("KELTIS_MAIL_TESTS") {
        println!("cargo::rustc-cfg=mail_tests");
    }
    if set("KELTIS_BROWSER_TESTS") {
        println!("cargo::rustc-cfg=browser_tests");
    }
    if set("KELTIS_PROXY_TESTS") {
        println!("cargo::rustc-cfg=proxy_tests");
    }
}
