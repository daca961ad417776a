//! Behind a reverse proxy with TLS, as the operating guide says to run it: Debian's nginx on
//! loopback with a self-signed certificate and the guide's own example configuration (read from
//! `docs/operating.md`, so the example is the one tested), in front of a server started with
//! `--trusted-proxies`. Over HTTPS: the API answers, the login limit counts each forwarded
//! client address apart, and an event stream passes each event on at once (not buffered).

use crate::support;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command};
use std::time::Duration;

use serde_json::json;
use support::Db;

/// The guide's nginx example, pointed at this test's ports and certificate.
fn guide_config(dir: &std::path::Path, listen: u16, upstream: u16) -> String {
    let guide = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/operating.md"))
        .expect("the operating guide");
    let start = guide
        .find("```nginx\n")
        .expect("an nginx example in the guide")
        + 9;
    let example = &guide[start..start + guide[start..].find("```").expect("its end")];
    assert!(example.contains("proxy_buffering off"), "{example}");
    let server = example
        .replace(
            "listen 443 ssl;",
            &format!("listen 127.0.0.1:{listen} ssl;"),
        )
        .replace(
            "/etc/ssl/keltis.pem",
            &dir.join("cert.pem").to_string_lossy(),
        )
        .replace(
            "/etc/ssl/keltis.key",
            &dir.join("key.pem").to_string_lossy(),
        )
        .replace("127.0.0.1:8080", &format!("127.0.0.1:{upstream}"));
    assert!(
        server.contains(&format!("127.0.0.1:{upstream}")),
        "{server}"
    );
    let d = dir.to_string_lossy();
    format!(
        "daemon off;\nmaster_process off;\npid {d}/nginx.pid;\nerror_log {d}/error.log;\n\
         events {{}}\nhttp {{\n access_log off;\n client_body_temp_path {d}/body;\n \
         proxy_temp_path {d}/proxy;\n fastcgi_temp_path {d}/fastcgi;\n uwsgi_temp_path {d}/uwsgi;\n \
         scgi_temp_path {d}/scgi;\n{server}\n}}\n"
    )
}

struct Nginx(Child);

impl Drop for Nginx {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn nginx_binary() -> &'static str {
    if std::path::Path::new("/usr/sbin/nginx").exists() {
        "/usr/sbin/nginx"
    } else {
        "nginx"
    }
}

#[test]
#[cfg_attr(
    not(proxy_tests),
    ignore = "behind a proxy: set KELTIS_PROXY_TESTS=1 with Debian's nginx and openssl installed"
)]
fn the_server_works_behind_the_guides_tls_proxy() {
    let s = support::spawn(Db::Sqlite, |c| {
        c.trusted_proxies = vec!["127.0.0.1/32".parse().unwrap()];
        c.auth_rate_limit = 3;
    })
    .expect("a server");
    let upstream: u16 = s.base.rsplit(':').next().unwrap().parse().unwrap();
    let dir = std::env::temp_dir().join(format!(
        "keltis_proxy_{}_{}",
        std::process::id(),
        support::smtp::free_port()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    // A test authority and the proxy's certificate, signed by it, for 127.0.0.1.
    let made = Command::new("sh")
        .current_dir(&dir)
        .arg("-c")
        .arg(
            "set -e
             openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=keltis-test-ca \
               -keyout ca.key -out ca.pem
             openssl req -newkey rsa:2048 -nodes -subj /CN=localhost -keyout key.pem -out leaf.csr
             printf 'subjectAltName=IP:127.0.0.1\nbasicConstraints=critical,CA:FALSE\n' > leaf.ext
             openssl x509 -req -in leaf.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 \
               -extfile leaf.ext -out cert.pem",
        )
        .output()
        .expect("openssl runs");
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    let listen = support::smtp::free_port();
    std::fs::write(dir.join("nginx.conf"), guide_config(&dir, listen, upstream)).unwrap();
    let _nginx = Nginx(
        Command::new(nginx_binary())
            .arg("-p")
            .arg(&dir)
            .arg("-c")
            .arg(dir.join("nginx.conf"))
            .spawn()
            .expect("nginx runs"),
    );
    let cert = std::fs::read(dir.join("ca.pem")).unwrap();
    let client = reqwest::blocking::Client::builder()
        .add_root_certificate(reqwest::Certificate::from_pem(&cert).unwrap())
        .timeout(Duration::from_secs(30))
        .build()
        .unwrap();
    let base = format!("https://127.0.0.1:{listen}");
    let mut last = String::from("no answer");
    for _ in 0..200 {
        match client.get(format!("{base}/healthz")).send() {
            Ok(r) if r.status() == 200 => {
                last.clear();
                break;
            }
            Ok(r) => last = r.status().to_string(),
            Err(e) => last = format!("{e:?}"),
        }
        std::thread::sleep(Duration::from_millis(25));
    }
    assert!(
        last.is_empty(),
        "nginx answers over TLS: {last} {:?}",
        std::fs::read_to_string(dir.join("error.log"))
    );
    // /metrics stays inside.
    assert_eq!(
        client
            .get(format!("{base}/metrics"))
            .send()
            .unwrap()
            .status(),
        404
    );

    // The login limit counts each client the proxy forwards apart.
    let login = |from: &str| {
        client
            .post(format!("{base}/api/v1/auth/login"))
            .header("X-Forwarded-For", from)
            .json(&json!({"name": "nobody", "password": "wrong password"}))
            .send()
            .unwrap()
    };
    for _ in 0..3 {
        assert_eq!(login("203.0.113.5").status(), 401);
    }
    let limited = login("203.0.113.5");
    assert_eq!(limited.status(), 429);
    assert!(limited.headers().contains_key("retry-after"));
    assert_eq!(
        login("203.0.113.6").status(),
        401,
        "another client is not limited"
    );

    // Two players over HTTPS, a game, and its event stream through the proxy.
    let register = |name: &str, from: &str| {
        let a = client
            .post(format!("{base}/api/v1/auth/register"))
            .header("X-Forwarded-For", from)
            .json(&json!({"name": name, "password": "correct horse"}))
            .send()
            .unwrap();
        assert_eq!(a.status(), 201);
        a.json::<serde_json::Value>().unwrap()["access_token"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let tokens = [
        register("pia", "198.51.100.1"),
        register("quinn", "198.51.100.2"),
    ];
    let created = client
        .post(format!("{base}/api/v1/games"))
        .bearer_auth(&tokens[0])
        .json(&json!({"variant": "keltis-card", "players": 2}))
        .send()
        .unwrap();
    assert_eq!(created.status(), 201);
    let id = created.json::<serde_json::Value>().unwrap()["id"]
        .as_i64()
        .unwrap();
    let joined = client
        .post(format!("{base}/api/v1/games/{id}/join"))
        .bearer_auth(&tokens[1])
        .json(&json!({}))
        .send()
        .unwrap();
    assert_eq!(joined.status(), 200);
    let view = |token: &str| {
        client
            .get(format!("{base}/api/v1/games/{id}"))
            .bearer_auth(token)
            .send()
            .unwrap()
            .json::<serde_json::Value>()
            .unwrap()
    };
    let seat = view(&tokens[0])["state"]["to_act"].as_u64().unwrap() as usize;
    let mine = view(&tokens[seat]);
    let version = mine["version"].as_i64().unwrap();
    let stream = client
        .get(format!("{base}/api/v1/games/{id}/stream?after={version}"))
        .bearer_auth(&tokens[1 - seat])
        .send()
        .unwrap();
    assert_eq!(stream.status(), 200);
    let mut lines = BufReader::new(stream).lines();
    // The opening comment comes through before anything happens: nothing is held back.
    let first = lines.next().expect("a first line").unwrap();
    assert!(first.starts_with(':'), "{first}");
    let decided = client
        .post(format!("{base}/api/v1/games/{id}/decisions"))
        .bearer_auth(&tokens[seat])
        .json(
            &json!({"expected_version": version, "decision": mine["state"]["legal_decisions"][0]}),
        )
        .send()
        .unwrap();
    assert_eq!(decided.status(), 200);
    // The move's event arrives while the stream stays open (the client's 30 s timeout would end
    // a buffered stream first).
    let event = lines
        .map_while(Result::ok)
        .find(|l| l.starts_with("data:") && l.contains("decided"));
    assert!(event.is_some(), "the event came through the proxy");
}
