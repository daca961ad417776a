//! The SMTP listener for moves by email (`--inbound-smtp`): the operator's mail server hands it
//! the replies to "your turn" emails. Recipients that are not reply addresses are refused at
//! `RCPT`; every accepted message is acted on before `DATA` is answered, so a message answered
//! 250 is recorded, and a failure of the database answers 451 (the sending server tries again).
//! Several instances may each listen: the record of each message keeps it from being played
//! twice.

use std::net::TcpListener;

use mailin_embedded::response::{NO_MAILBOX, OK};
use mailin_embedded::{Action, Handler, Response, Server, SslConfig};

use crate::service::correspondence::by_mail::{receive, Inbound, MAX_MESSAGE_BYTES};
use crate::storage::Database;

/// Connections served at once.
const THREADS: u32 = 4;

/// A refusal at the end of `DATA`, after which the connection is closed: mailin stays in its
/// data state after an error there, and would read the client's next command as message text.
fn refused_and_closed(code: u16, text: &str) -> Response {
    let mut response = Response::custom(code, text.into());
    response.action = Action::Close;
    response
}

#[derive(Clone)]
struct Receiver {
    db: Database,
    inbound: Inbound,
    recipients: Vec<String>,
    data: Vec<u8>,
    too_large: bool,
}

impl Handler for Receiver {
    fn rcpt(&mut self, to: &str) -> Response {
        if self.inbound.reply.read(to).is_some() {
            OK
        } else {
            NO_MAILBOX
        }
    }

    fn data_start(&mut self, _domain: &str, _from: &str, _is8bit: bool, to: &[String]) -> Response {
        self.recipients = to.to_vec();
        self.data.clear();
        self.too_large = false;
        OK
    }

    fn data(&mut self, buf: &[u8]) -> std::io::Result<()> {
        if self.data.len() + buf.len() > MAX_MESSAGE_BYTES {
            self.too_large = true;
        } else {
            self.data.extend_from_slice(buf);
        }
        Ok(())
    }

    fn data_end(&mut self) -> Response {
        if self.too_large {
            return refused_and_closed(552, "5.3.4 the message is too large");
        }
        let data = std::mem::take(&mut self.data);
        match receive(&self.db, &self.inbound, &data, &self.recipients) {
            Ok(_) => OK,
            Err(e) => {
                tracing::warn!(error = %e, "a reply by email could not be handled now");
                refused_and_closed(451, "4.3.0 try again later")
            }
        }
    }
}

/// Bind `address` and serve SMTP on threads of its own; returns the address bound.
pub fn spawn(db: Database, inbound: Inbound, address: &str) -> std::io::Result<String> {
    let listener = TcpListener::bind(address)?;
    let bound = listener.local_addr()?.to_string();
    let handler = Receiver {
        db,
        inbound,
        recipients: Vec::new(),
        data: Vec::new(),
        too_large: false,
    };
    let mut server = Server::new(handler);
    server
        .with_name("keltis")
        .with_num_threads(THREADS)
        .with_ssl(SslConfig::None)
        .map_err(|e| std::io::Error::other(e.to_string()))?
        .with_tcp_listener(listener);
    std::thread::Builder::new()
        .name("inbound-smtp".into())
        .spawn(move || {
            if let Err(e) = server.serve() {
                tracing::error!(error = %e, "the SMTP listener stopped");
            }
        })?;
    Ok(bound)
}
