//! A TCP forwarder between the server and its database, to cut the database off and bring it
//! back while the server runs (an outage without stopping the shared PostgreSQL).

use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub struct Proxy {
    pub port: u16,
    up: Arc<AtomicBool>,
    open: Arc<Mutex<Vec<TcpStream>>>,
}

impl Proxy {
    /// Forward connections on a free loopback port to `target` (`host:port`).
    pub fn start(target: &str) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").expect("proxy port");
        let port = listener.local_addr().expect("address").port();
        let up = Arc::new(AtomicBool::new(true));
        let open = Arc::new(Mutex::new(Vec::new()));
        let (up2, open2, target) = (up.clone(), open.clone(), target.to_string());
        std::thread::spawn(move || {
            for client in listener.incoming().flatten() {
                if !up2.load(Ordering::SeqCst) {
                    let _ = client.shutdown(Shutdown::Both);
                    continue;
                }
                let Ok(server) = TcpStream::connect(&target) else {
                    continue;
                };
                if let (Ok(c), Ok(s)) = (client.try_clone(), server.try_clone()) {
                    let mut list = open2.lock().unwrap_or_else(|p| p.into_inner());
                    list.push(c);
                    list.push(s);
                }
                pipe(client.try_clone(), server.try_clone());
                pipe(server.try_clone(), client.try_clone());
            }
        });
        Proxy { port, up, open }
    }

    /// Drop every connection and refuse new ones.
    pub fn cut(&self) {
        self.up.store(false, Ordering::SeqCst);
        let mut list = self.open.lock().unwrap_or_else(|p| p.into_inner());
        for s in list.drain(..) {
            let _ = s.shutdown(Shutdown::Both);
        }
    }

    /// Accept and forward again.
    pub fn restore(&self) {
        self.up.store(true, Ordering::SeqCst);
    }
}

fn pipe(from: std::io::Result<TcpStream>, to: std::io::Result<TcpStream>) {
    let (Ok(mut from), Ok(mut to)) = (from, to) else {
        return;
    };
    std::thread::spawn(move || {
        let _ = from.set_read_timeout(Some(Duration::from_secs(600)));
        let mut buf = [0u8; 16 * 1024];
        loop {
            match from.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    if to.write_all(&buf[..n]).is_err() {
                        break;
                    }
                }
            }
        }
        let _ = to.shutdown(Shutdown::Both);
    });
}
