//! Issue 50: the server raises its soft open-file limit to the hard one at start. Started by a
//! shell that left it low (256), it holds 600 idle event streams at once, every one answered 200,
//! and its log says the limit and what it allows (and, being the test that reads the start's
//! log, that it says how SQLite's commits are synced). Over HTTP/2 without TLS (h2c), as a
//! reverse proxy may send them, 600 streams share one connection: a server whose hard limit is
//! 256 holds them all.

mod support;

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
    let setup = support::spawn(Db::Sqlite, |_| {}).expect("SQLite server");
    let watcher = setup.register("watcher");
    let other = setup.register("player");
    let id = setup.started_game("keltis-card", &[watcher.clone(), other]);
    setup.stop();
    let data_dir = std::env::temp_dir().join(format!("keltis-files-{}", std::process::id()));
    std::fs::create_dir_all(&data_dir).expect("a data folder");
    let log = data_dir.join("server.log");
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

#[test]
fn streams_over_one_h2c_connection_hold_no_descriptor_each() {
    let setup = support::spawn(Db::Sqlite, |_| {}).expect("SQLite server");
    let watcher = setup.register("watcher");
    let other = setup.register("player");
    let id = setup.started_game("keltis-card", &[watcher.clone(), other]);
    setup.stop();
    let data_dir = std::env::temp_dir().join(format!("keltis-h2c-{}", std::process::id()));
    std::fs::create_dir_all(&data_dir).expect("a data folder");
    let log = data_dir.join("server.log");
    // Soft and hard at 256: over HTTP/1.1 it could not hold 600 streams.
    let (mut child, base) =
        serve_with_open_files(&setup.database_url, &data_dir, LOW, Some(LOW), &log);
    let (soft, hard) = open_files_of(child.id()).expect("/proc/<pid>/limits");
    assert_eq!((soft.as_str(), hard.as_str()), ("256", "256"));

    let h2c = reqwest::blocking::Client::builder()
        .http2_prior_knowledge()
        .timeout(None)
        .build()
        .expect("an HTTP/2 client");
    let mut streams = Vec::with_capacity(STREAMS);
    let mut failures = Vec::new();
    for _ in 0..STREAMS {
        let answer = h2c
            .get(format!("{base}/api/v1/games/{id}/stream"))
            .bearer_auth(&watcher.token)
            .header("Accept", "text/event-stream")
            .send();
        match answer {
            Ok(r) if r.status() == 200 && r.version() == reqwest::Version::HTTP_2 => {
                streams.push(r)
            }
            Ok(r) => failures.push(format!("{} over {:?}", r.status(), r.version())),
            Err(e) => failures.push(e.to_string()),
        }
    }
    // Every stream open at once, each then sends the game's first event.
    let events: Vec<Result<String, String>> = streams.iter_mut().map(first_event).collect();
    let descriptors = std::fs::read_dir(format!("/proc/{}/fd", child.id()))
        .map(|d| d.count())
        .unwrap_or(0);
    // HTTP/1.1 on the same port, beside them.
    let ready = reqwest::blocking::get(format!("{base}/readyz")).map(|r| r.status().as_u16());
    drop(streams);
    let _ = child.kill();
    let _ = child.wait();
    let said = std::fs::read_to_string(&log).unwrap_or_default();
    let _ = std::fs::remove_dir_all(&data_dir);
    assert!(
        failures.is_empty(),
        "{} failed: {:?}\n{said}",
        failures.len(),
        failures.first()
    );
    let sent: Vec<&String> = events.iter().filter_map(|e| e.as_ref().ok()).collect();
    assert_eq!(
        sent.len(),
        STREAMS,
        "{:?}",
        events.iter().find(|e| e.is_err())
    );
    assert!(sent.iter().all(|e| e.starts_with("id: ")), "{:?}", sent[0]);
    assert!(
        descriptors > 0 && descriptors < LOW as usize,
        "{descriptors}"
    );
    assert_eq!(ready.ok(), Some(200));
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
