//! A webhook receiver on loopback for the tests: records each request and answers with the
//! statuses it is told, in turn (200 once they run out).

use std::collections::{HashMap, VecDeque};
use std::io::Write;
use std::net::TcpListener;
use std::sync::{Arc, Mutex};
use std::time::Duration;

#[derive(Clone, Debug)]
pub struct Received {
    /// Header names in lower case.
    pub headers: HashMap<String, String>,
    pub body: String,
    /// The status it was answered.
    pub answered: u16,
}

pub struct Receiver {
    pub url: String,
    received: Arc<Mutex<Vec<Received>>>,
}

impl Receiver {
    /// Start answering `statuses` in turn, then 200.
    pub fn start(statuses: &[u16]) -> Receiver {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let url = format!("http://{}/hook", listener.local_addr().expect("addr"));
        let received = Arc::new(Mutex::new(Vec::new()));
        let log = received.clone();
        let mut script: VecDeque<u16> = statuses.iter().copied().collect();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { continue };
                let Some((headers, body)) = super::read_request(&stream) else {
                    continue;
                };
                let status = script.pop_front().unwrap_or(200);
                log.lock().unwrap().push(Received {
                    headers,
                    body: String::from_utf8_lossy(&body).into_owned(),
                    answered: status,
                });
                let _ = write!(
                    stream,
                    "HTTP/1.1 {status} X\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                );
            }
        });
        Receiver { url, received }
    }

    pub fn received(&self) -> Vec<Received> {
        self.received.lock().unwrap().clone()
    }

    /// Wait (real time, briefly) until `n` requests came; all of them.
    pub fn wait_for(&self, n: usize) -> Vec<Received> {
        for _ in 0..200 {
            let got = self.received();
            if got.len() >= n {
                return got;
            }
            std::thread::sleep(Duration::from_millis(25));
        }
        panic!("{} requests, not {n}", self.received().len());
    }
}
