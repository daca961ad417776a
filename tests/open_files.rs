//! Issue 50: the server raises its soft open-file limit to the hard one at start. Started by a
//! shell that left it low (256), it holds 600 idle event streams at once, every one answered 200,
//! and its log says the limit and what it allows (and, being the test that reads the start's
//! log, that it says how SQLite's commits are synced). Over HTTP/2 without TLS (h2c), as a
//! reverse proxy may send them, 600 streams share one connection: a server whose hard limit is
//! 256 holds them all. What holds a connection open is capped per player: streams and waiting
//! long polls.

use crate::support;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use support::drill::serve_with_open_files;
use support::Db;

const LOW: u64 = 256;
const STREAMS: usize = 600;

/// The soft and hard "Max open files" of a running process.
fn open_files_of(pid: u32) -> Option<(String, String)> {
    let limits = std::fs::read_to_string(format!("/proc/{pid}/limits")).ok()?;
    let line = limits.lines().find(|l| l.starts_with("Max open files"))?;
    let mut numbers = line["Max open files".len()..].split_whitespace();
    Some((numbers.next()?.to_string(), numbers.next()?.to_string()))
}

/// A started game and its watcher on a SQLite database whose server has stopped (for a server
/// of the test's own to serve it), and a data folder `keltis-<name>-<pid>` with its log's path.
fn a_game_to_watch(
    name: &str,
) -> (
    support::TestServer,
    support::User,
    i64,
    std::path::PathBuf,
    std::path::PathBuf,
) {
    let setup = support::spawn(Db::Sqlite, |_| {}).expect("SQLite server");
    let watcher = setup.register("watcher");
    let other = setup.register("player");
    let id = setup.started_game("keltis-card", &[watcher.clone(), other]);
    setup.stop();
    let data_dir = std::env::temp_dir().join(format!("keltis-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&data_dir).expect("a data folder");
    let log = data_dir.join("server.log");
    (setup, watcher, id, data_dir, log)
}

#[test]
fn idle_streams_beyond_a_low_soft_limit_all_open() {
    // This process holds one end of every stream too.
    let ours = keltis::limits::raise_open_files();
    if ours.now.is_some_and(|n| n < 2 * STREAMS as u64) {
        eprintln!(
            "SKIPPED: this machine's hard open-file limit ({ours:?}) is below the test's need"
        );
        return;
    }
    let (setup, watcher, id, data_dir, log) = a_game_to_watch("files");
    let (mut child, base) = serve_with_open_files(&setup.database_url, &data_dir, LOW, None, &log);

    let (soft, hard) = open_files_of(child.id()).expect("/proc/<pid>/limits");
    assert_eq!(soft, hard, "the soft limit is raised to the hard one");
    assert_ne!(soft, LOW.to_string());

    let address = base.trim_start_matches("http://").to_string();
    let mut streams = Vec::with_capacity(STREAMS);
    let mut refused = 0;
    for _ in 0..STREAMS {
        let Ok(mut stream) = TcpStream::connect(&address) else {
            refused += 1;
            continue;
        };
        let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
        let request = format!(
            "GET /api/v1/games/{id}/stream HTTP/1.1\r\nHost: {address}\r\n\
             Authorization: Bearer {}\r\nAccept: text/event-stream\r\n\r\n",
            watcher.token
        );
        let mut status = [0u8; 12];
        let answered = stream.write_all(request.as_bytes()).is_ok()
            && stream.read_exact(&mut status).is_ok()
            && &status == b"HTTP/1.1 200";
        if !answered {
            refused += 1;
        }
        streams.push(stream);
    }
    let ready = reqwest::blocking::get(format!("{base}/readyz")).map(|r| r.status().as_u16());
    drop(streams);
    let _ = child.kill();
    let _ = child.wait();
    let said = std::fs::read_to_string(&log).unwrap_or_default();
    let _ = std::fs::remove_dir_all(&data_dir);
    assert_eq!(
        refused, 0,
        "streams refused with a soft limit of {LOW} at start"
    );
    assert_eq!(ready.ok(), Some(200));
    assert!(said.contains("open-file limit"), "{said}");
    // And how it syncs SQLite's commits, as `auto` chose for this machine's cores.
    let chosen = keltis::storage::SqliteSync::Auto.on_this_machine().name();
    assert!(
        said.contains(&format!("SQLite durability: {chosen} (")),
        "{said}"
    );
}

/// The first event a stream sends, past its comments (`: open`): a game's stream starts at the
/// game's first event. Or why none came.
fn first_event(stream: &mut impl Read) -> Result<String, String> {
    let mut seen = String::new();
    let mut chunk = [0u8; 1024];
    loop {
        let event = seen
            .split_inclusive("\n\n")
            .find(|frame| frame.ends_with("\n\n") && !frame.starts_with(':'));
        if let Some(event) = event {
            return Ok(event.to_string());
        }
        match stream.read(&mut chunk) {
            Ok(0) => return Err(format!("the stream ended after {seen:?}")),
            Ok(n) => seen.push_str(&String::from_utf8_lossy(&chunk[..n])),
            Err(e) => return Err(e.to_string()),
        }
    }
}

/// What a server whose open-file limits are both 256 did with [`STREAMS`] event streams opened
/// through `via` (its base URL → the URL clients use, and what must stay alive meanwhile) by
/// `client`, each read up to its first event.
struct HeldStreams {
    failures: Vec<String>,
    events: Vec<Result<String, String>>,
    /// The server's open descriptors with every stream open.
    descriptors: usize,
    versions: std::collections::BTreeSet<String>,
    log: String,
}

fn hold_streams_under_a_hard_limit<T>(
    name: &str,
    client: reqwest::blocking::Client,
    via: impl FnOnce(&str) -> (String, T),
) -> HeldStreams {
    let (setup, watcher, id, data_dir, log) = a_game_to_watch(name);
    // Soft and hard at 256: over HTTP/1.1 it could not hold 600 streams.
    let (mut child, base) =
        serve_with_open_files(&setup.database_url, &data_dir, LOW, Some(LOW), &log);
    let (soft, hard) = open_files_of(child.id()).expect("/proc/<pid>/limits");
    assert_eq!((soft.as_str(), hard.as_str()), ("256", "256"));
    let (url, alive) = via(&base);

    let mut streams = Vec::with_capacity(STREAMS);
    let mut failures = Vec::new();
    let mut versions = std::collections::BTreeSet::new();
    for _ in 0..STREAMS {
        let answer = client
            .get(format!("{url}/api/v1/games/{id}/stream"))
            .bearer_auth(&watcher.token)
            .header("Accept", "text/event-stream")
            .send();
        match answer {
            Ok(r) if r.status() == 200 => {
                versions.insert(format!("{:?}", r.version()));
                streams.push(r)
            }
            Ok(r) => failures.push(format!("{} over {:?}", r.status(), r.version())),
            Err(e) => failures.push(e.to_string()),
        }
    }
    // Every stream open at once, each then sends the game's first event.
    let events = streams.iter_mut().map(first_event).collect();
    let descriptors = std::fs::read_dir(format!("/proc/{}/fd", child.id()))
        .map(|d| d.count())
        .unwrap_or(0);
    drop(streams);
    drop(alive);
    let _ = child.kill();
    let _ = child.wait();
    let said = std::fs::read_to_string(&log).unwrap_or_default();
    let _ = std::fs::remove_dir_all(&data_dir);
    HeldStreams {
        failures,
        events,
        descriptors,
        versions,
        log: said,
    }
}

impl HeldStreams {
    /// Every stream answered 200 and sent its game's first event; the server stayed under its
    /// limit.
    fn assert_all_held(&self) {
        println!("the server held {} descriptors", self.descriptors);
        assert!(
            self.failures.is_empty(),
            "{} failed: {:?}\n{}",
            self.failures.len(),
            self.failures.first(),
            self.log
        );
        let sent: Vec<&String> = self.events.iter().filter_map(|e| e.as_ref().ok()).collect();
        assert_eq!(
            sent.len(),
            STREAMS,
            "{:?}",
            self.events.iter().find(|e| e.is_err())
        );
        assert!(sent.iter().all(|e| e.starts_with("id: ")), "{:?}", sent[0]);
        assert!(
            self.descriptors > 0 && self.descriptors < LOW as usize,
            "{}",
            self.descriptors
        );
    }
}

#[test]
fn streams_over_one_h2c_connection_hold_no_descriptor_each() {
    let h2c = reqwest::blocking::Client::builder()
        .http2_prior_knowledge()
        .timeout(None)
        .build()
        .expect("an HTTP/2 client");
    let mut ready = None;
    let held = hold_streams_under_a_hard_limit("h2c", h2c, |base| {
        // HTTP/1.1 on the same port, beside them.
        ready = reqwest::blocking::get(format!("{base}/readyz"))
            .map(|r| r.status().as_u16())
            .ok();
        (base.to_string(), ())
    });
    held.assert_all_held();
    assert_eq!(held.versions.iter().collect::<Vec<_>>(), ["HTTP/2.0"]);
    assert_eq!(ready, Some(200));
}

/// The operating guide's HAProxy example: it takes each client's stream over HTTP/1.1, a
/// connection each, and forwards them all to the server over HTTP/2 (`proto h2`).
#[test]
fn streams_through_an_h2c_proxy_hold_no_descriptor_each() {
    if std::process::Command::new("haproxy")
        .arg("-v")
        .output()
        .is_err()
    {
        eprintln!("SKIPPED: haproxy is not installed (.ci/run installs Debian's)");
        return;
    }
    // HAProxy holds a descriptor for each client: it takes this process's limit.
    keltis::limits::raise_open_files();
    let clients = reqwest::blocking::Client::builder()
        .http1_only()
        .pool_max_idle_per_host(0)
        .timeout(None)
        .build()
        .expect("an HTTP/1.1 client");
    let mut answers = Vec::new();
    let held = hold_streams_under_a_hard_limit("haproxy", clients, |base| {
        let proxy = Haproxy::h2c_to(base.trim_start_matches("http://"));
        // The API answers through it; `/metrics` stays inside.
        for path in ["/readyz", "/metrics"] {
            let status = reqwest::blocking::get(format!("{}{path}", proxy.base))
                .map(|r| r.status().as_u16())
                .ok();
            answers.push((path, status));
        }
        (proxy.base.clone(), proxy)
    });
    held.assert_all_held();
    assert_eq!(answers, [("/readyz", Some(200)), ("/metrics", Some(404))]);
    assert_eq!(held.versions.iter().collect::<Vec<_>>(), ["HTTP/1.1"]);
}

/// `--h2c false`: HTTP/1.1 only; an HTTP/2 client with prior knowledge gets no answer.
#[test]
fn h2c_can_be_turned_off() {
    let on = support::spawn(Db::Sqlite, |_| {}).expect("SQLite server");
    let off = support::spawn(Db::Sqlite, |config| config.h2c = false).expect("SQLite server");
    let h2c = reqwest::blocking::Client::builder()
        .http2_prior_knowledge()
        .build()
        .expect("an HTTP/2 client");
    let answer = |base: &str| {
        h2c.get(format!("{base}/readyz"))
            .send()
            .map(|r| (r.status().as_u16(), r.version()))
    };
    assert_eq!(answer(&on.base).ok(), Some((200, reqwest::Version::HTTP_2)));
    assert!(answer(&off.base).is_err());
    // HTTP/1.1 either way.
    for server in [&on, &off] {
        let plain = reqwest::blocking::get(format!("{}/readyz", server.base));
        assert_eq!(plain.map(|r| r.status().as_u16()).ok(), Some(200));
    }
}

/// HAProxy in the foreground on a free loopback port; stopped when dropped.
struct Haproxy {
    child: std::process::Child,
    base: String,
    dir: std::path::PathBuf,
}

impl Haproxy {
    /// The operating guide's HAProxy example in front of `server` (`host:port`): clients over
    /// HTTP/1.1 on loopback (the example's `bind` line without TLS), the server behind over h2c.
    fn h2c_to(server: &str) -> Haproxy {
        let guide =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/operating.md"))
                .expect("the operating guide");
        let start = guide
            .find("```haproxy\n")
            .expect("a HAProxy example in the guide")
            + "```haproxy\n".len();
        let example = &guide[start..start + guide[start..].find("```").expect("its end")];
        assert!(example.contains("proto h2"), "{example}");
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .expect("a free port");
        let config: String = example
            .lines()
            .map(|line| match line.trim_start() {
                bind if bind.starts_with("bind ") => format!("    bind 127.0.0.1:{port}"),
                _ => line.replace("127.0.0.1:8080", server),
            })
            .collect::<Vec<_>>()
            .join("\n");
        let dir = std::env::temp_dir().join(format!("keltis-haproxy-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a folder");
        let file = dir.join("haproxy.cfg");
        std::fs::write(&file, config + "\n").expect("HAProxy's configuration");
        let log = std::fs::File::create(dir.join("haproxy.log")).expect("a log file");
        let child = std::process::Command::new("haproxy")
            .arg("-db")
            .arg("-f")
            .arg(&file)
            .stdout(std::process::Stdio::null())
            .stderr(log)
            .spawn()
            .expect("haproxy starts");
        let until = std::time::Instant::now() + Duration::from_secs(20);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                std::time::Instant::now() < until,
                "HAProxy did not listen: {}",
                std::fs::read_to_string(dir.join("haproxy.log")).unwrap_or_default()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        Haproxy {
            child,
            base: format!("http://127.0.0.1:{port}"),
            dir,
        }
    }
}

impl Drop for Haproxy {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// One player holds at most `--max-streams-per-player` event streams at once on an instance (any
/// stream: a game's or their notices'); one more is refused with 429 `too_many_streams` and a
/// `Retry-After` of a heartbeat's interval, and a stream whose client went away frees its place
/// when its next heartbeat finds it gone. Another player is not affected.
#[test]
fn a_player_holds_at_most_the_cap_of_streams() {
    let s = support::spawn(Db::Sqlite, |config| {
        config.max_streams_per_player = 2;
        config.stream_heartbeat_seconds = 1;
    })
    .expect("SQLite server");
    let watcher = s.register("watcher");
    let other = s.register("player");
    let id = s.started_game("keltis-card", &[watcher.clone(), other.clone()]);
    let open = |path: &str, user: &support::User| {
        s.client
            .get(s.url(path))
            .bearer_auth(&user.token)
            .header("Accept", "text/event-stream")
            .send()
            .expect("an answer")
    };
    let game = format!("/api/v1/games/{id}/stream");
    let first = open(&game, &watcher);
    let second = open("/api/v1/me/stream", &watcher);
    assert_eq!(
        (first.status().as_u16(), second.status().as_u16()),
        (200, 200)
    );
    let refused = open(&game, &watcher);
    assert_eq!(refused.status(), 429);
    assert_eq!(refused.headers()["retry-after"], "1");
    let problem: serde_json::Value = refused.json().expect("a problem body");
    assert_eq!(problem["code"], "too_many_streams", "{problem}");
    assert_eq!(open(&game, &other).status(), 200);
    // The first stream's client goes away: its next heartbeat finds it gone and frees its place
    // (waited for in real time, a few seconds at most: the server's own heartbeat).
    drop(first);
    let reopened = (0..200).find_map(|_| {
        let answer = open(&game, &watcher);
        if answer.status() == 200 {
            return Some(answer);
        }
        std::thread::sleep(Duration::from_millis(25));
        None
    });
    assert!(
        reopened.is_some(),
        "the closed stream's place was not freed"
    );
    drop(second);
}

/// A long poll that waits (`GET /games/{id}/events?wait=`) holds its connection as a stream does,
/// so it takes one of the player's places until it answers; one that finds events at once is
/// answered whatever the player holds.
#[test]
fn a_waiting_long_poll_counts_among_the_streams() {
    let s = support::spawn(Db::Sqlite, |config| config.max_streams_per_player = 1)
        .expect("SQLite server");
    let players = [s.register("watcher"), s.register("player")];
    let id = s.started_game("keltis-card", &players);
    let watcher = &players[0];
    let version = s.game(id, watcher)["version"].as_i64().expect("version");
    let events_after = |after: i64| format!("/api/v1/games/{id}/events?after={after}&wait=60");
    let waiting = {
        let (client, url, token) = (
            s.client.clone(),
            s.url(&events_after(version)),
            watcher.token.clone(),
        );
        std::thread::spawn(move || {
            client
                .get(url)
                .bearer_auth(token)
                .send()
                .expect("an answer")
        })
    };
    // The server counts its waiter once it has taken its place (real time, briefly).
    let waits = (0..400).any(|_| {
        let metrics = s.get("/metrics", None).text;
        if metrics.lines().any(|l| l == "keltis_waiters 1") {
            return true;
        }
        std::thread::sleep(Duration::from_millis(25));
        false
    });
    assert!(waits, "the long poll never waited");
    let stream = s.get(&format!("/api/v1/games/{id}/stream"), Some(&watcher.token));
    assert_eq!(stream.status, 429, "{}", stream.text);
    assert_eq!(stream.code(), "too_many_streams");
    let another_poll = s.get(&events_after(version), Some(&watcher.token));
    assert_eq!(another_poll.status, 429, "{}", another_poll.text);
    let answered_at_once = s.get(&events_after(0), Some(&watcher.token));
    assert_eq!(answered_at_once.status, 200, "{}", answered_at_once.text);
    assert!(!answered_at_once
        .json()
        .as_array()
        .expect("events")
        .is_empty());

    // A move wakes it; its answer gives the place back.
    s.finish_turn(id, &players);
    let woken = waiting.join().expect("the long poll's thread");
    assert_eq!(woken.status(), 200);
    let events: serde_json::Value = woken.json().expect("events");
    assert!(events[0]["seq"].as_i64() > Some(version), "{events}");
    let open = s
        .client
        .get(s.url(&format!("/api/v1/games/{id}/stream")))
        .bearer_auth(&watcher.token)
        .send()
        .expect("an answer");
    assert_eq!(open.status(), 200);
}
