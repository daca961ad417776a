//! A real SMTP server on loopback for the mail tests: Python's aiosmtpd running
//! `tests/mail/smtp_sink.py`, which writes every message it accepts as JSON into a folder.

use std::io::BufRead;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::Value;

pub struct SmtpSink {
    pub port: u16,
    dir: std::path::PathBuf,
    child: Option<Child>,
}

pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// A free port below the system's ephemeral range, for a server that stops and starts again on
/// it: a port from the ephemeral range (`free_port`) can be handed, while the server is down, to
/// another test's connection or listener, and the restart then fails (it did in a CI run).
/// Nothing here binds port 0 or connects out from below that range.
pub fn restartable_port() -> u16 {
    let low = std::fs::read_to_string("/proc/sys/net/ipv4/ip_local_port_range")
        .ok()
        .and_then(|r| r.split_whitespace().next()?.parse::<u16>().ok())
        .unwrap_or(32768);
    let (from, to) = (10_000u16, low.max(10_100));
    for _ in 0..1000 {
        let mut buf = [0u8; 2];
        getrandom::getrandom(&mut buf).expect("os randomness");
        let port = from + u16::from_le_bytes(buf) % (to - from);
        if std::net::TcpListener::bind(("127.0.0.1", port)).is_ok() {
            return port;
        }
    }
    free_port()
}

impl SmtpSink {
    /// Start the server on a free port (one it can start on again, after `down`).
    pub fn start() -> SmtpSink {
        let dir = std::env::temp_dir().join(format!(
            "keltis_smtp_{}_{}",
            std::process::id(),
            free_port()
        ));
        let mut sink = SmtpSink {
            port: restartable_port(),
            dir,
            child: None,
        };
        sink.up();
        sink
    }

    /// (Re)start the server on its port.
    pub fn up(&mut self) {
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/mail/smtp_sink.py");
        let mut child = Command::new("python3")
            .arg(script)
            .arg(self.port.to_string())
            .arg(&self.dir)
            .stdout(Stdio::piped())
            .spawn()
            .expect("python3 runs tests/mail/smtp_sink.py (pip install aiosmtpd)");
        let stdout = child.stdout.take().expect("stdout");
        let mut line = String::new();
        std::io::BufReader::new(stdout)
            .read_line(&mut line)
            .expect("the SMTP server starts");
        assert_eq!(line.trim(), "ready", "the SMTP server did not start");
        self.child = Some(child);
    }

    /// Stop the server (the relay is down).
    pub fn down(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Every message received so far, oldest first.
    pub fn messages(&self) -> Vec<Value> {
        let mut files: Vec<_> = std::fs::read_dir(&self.dir)
            .map(|d| d.filter_map(Result::ok).map(|e| e.path()).collect())
            .unwrap_or_default();
        files.retain(|p| p.extension().is_some_and(|e| e == "json"));
        files.sort();
        files
            .iter()
            .filter_map(|p| std::fs::read_to_string(p).ok())
            .filter_map(|t| serde_json::from_str(&t).ok())
            .collect()
    }

    /// Messages to `address`.
    pub fn to(&self, address: &str) -> Vec<Value> {
        self.messages()
            .into_iter()
            .filter(|m| {
                m["to"]
                    .as_array()
                    .is_some_and(|t| t.iter().any(|a| a == address))
            })
            .collect()
    }

    /// Wait (real time, up to 30 s: a loaded machine delivers slowly) until `address` has
    /// received `n` messages; they.
    pub fn wait_for(&self, address: &str, n: usize) -> Vec<Value> {
        for _ in 0..600 {
            let got = self.to(address);
            if got.len() >= n {
                return got;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("{address} got {} messages, not {n}", self.to(address).len());
    }
}

impl Drop for SmtpSink {
    fn drop(&mut self) {
        self.down();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
