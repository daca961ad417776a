//! The request log names the path without its query: an email link's `token=` and a stream's
//! `ticket=` are one-time secrets, and they must not reach the log. Written to a file, the log
//! has no terminal colours. The `keltis` binary runs with
//! its log on a file, as an operator runs it (SQLite: the log line does not depend on the
//! database).

use std::net::TcpListener;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::support;

/// The server's process, killed when the test ends, passed or not.
struct Serving(std::process::Child);

impl Drop for Serving {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn the_request_log_names_paths_never_their_secrets() {
    let dir = std::env::temp_dir().join(format!("keltis-request-log-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a data directory");
    let log_path = dir.join("server.log");
    let log = std::fs::File::create(&log_path).expect("a log file");
    let port = TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port");
    let base = format!("http://127.0.0.1:{port}");
    let _server = Serving(
        Command::new(env!("CARGO_BIN_EXE_keltis"))
            .arg("serve")
            .env_remove("DATABASE_URL")
            .env("KELTIS_DATA_DIR", dir.join("data"))
            .env("KELTIS_BIND", format!("127.0.0.1:{port}"))
            .env("KELTIS_JWT_SECRET", support::SECRET)
            .env("KELTIS_BOTS", "false")
            .env("RUST_LOG", "info")
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("keltis serve starts"),
    );
    let client = reqwest::blocking::Client::new();
    let until = Instant::now() + Duration::from_secs(60);
    while !client
        .get(format!("{base}/readyz"))
        .send()
        .is_ok_and(|r| r.status().is_success())
    {
        assert!(Instant::now() < until, "keltis serve did not become ready");
        std::thread::sleep(Duration::from_millis(50));
    }

    let secrets = [
        ("/api/v1/email/verify?token=", "secret-verify-7f3a"),
        (
            "/api/v1/email/unsubscribe?token=",
            "secret-unsubscribe-91c2",
        ),
        ("/reset-password?token=", "secret-reset-5d08"),
        ("/api/v1/games/1/stream?ticket=", "secret-ticket-e6b4"),
    ];
    let mut statuses = Vec::new();
    for (path, secret) in secrets {
        let answer = client
            .get(format!("{base}{path}{secret}"))
            .send()
            .expect("an answer");
        statuses.push(answer.status().as_u16());
    }
    // The last request's line is written once it is answered: wait for it.
    let last = "GET /api/v1/games/1/stream ";
    let until = Instant::now() + Duration::from_secs(30);
    let text = loop {
        let text = std::fs::read_to_string(&log_path).expect("the log");
        if text.contains(last) || Instant::now() > until {
            break text;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    for ((path, secret), status) in secrets.iter().zip(&statuses) {
        let bare = path.split('?').next().expect("a path");
        assert!(
            text.contains(&format!("GET {bare} {status} ")),
            "no line for {bare} answered {status}:\n{text}"
        );
        assert!(!text.contains(secret), "{secret} is in the log:\n{text}");
    }
    assert!(!text.contains("token="), "a query is in the log:\n{text}");
    // Written to a file, the log is plain text: no terminal colours.
    assert!(!text.contains('\u{1b}'), "colour codes in the log:\n{text}");
    let _ = std::fs::remove_dir_all(&dir);
}
