//! A server-sent events client for the tests: reads a stream frame by frame.

use std::io::{BufRead, BufReader};
use std::time::Duration;

use reqwest::blocking::{Client, Response};
use serde_json::Value;

/// One frame of a stream.
#[derive(Clone, Debug, PartialEq)]
pub enum Frame {
    /// A comment line (`: ...`): the opening, or a heartbeat.
    Comment(String),
    Event {
        id: Option<String>,
        event: Option<String>,
        data: Value,
    },
}

pub struct Sse {
    reader: BufReader<Response>,
}

impl Sse {
    /// Open `url` (with `Last-Event-ID` when given); panics unless the answer is a stream.
    pub fn open(url: &str, token: Option<&str>, last_event_id: Option<i64>) -> Sse {
        let response = Sse::request(url, token, last_event_id);
        assert_eq!(response.status(), 200, "{url}");
        assert_eq!(
            response.headers()["content-type"].to_str().unwrap(),
            "text/event-stream"
        );
        Sse {
            reader: BufReader::new(response),
        }
    }

    /// Open `url` resuming after `last_event_id` as the stream wrote it (`N` or `N.M`).
    pub fn resume(url: &str, token: &str, last_event_id: &str) -> Sse {
        let client = Client::builder()
            .timeout(None::<Duration>)
            .build()
            .expect("client");
        let response = client
            .get(url)
            .bearer_auth(token)
            .header("Last-Event-ID", last_event_id)
            .send()
            .expect("stream request");
        assert_eq!(response.status(), 200, "{url}");
        Sse {
            reader: BufReader::new(response),
        }
    }

    /// The answer to opening `url`, stream or not.
    pub fn request(url: &str, token: Option<&str>, last_event_id: Option<i64>) -> Response {
        // No overall timeout: a stream lasts as long as the test reads it.
        let client = Client::builder()
            .timeout(None::<Duration>)
            .build()
            .expect("client");
        let mut req = client.get(url);
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        if let Some(id) = last_event_id {
            req = req.header("Last-Event-ID", id.to_string());
        }
        req.send().expect("stream request")
    }

    /// The next frame; `None` when the stream ended.
    pub fn frame(&mut self) -> Option<Frame> {
        let (mut id, mut event, mut data, mut comment) = (None, None, String::new(), None);
        loop {
            let mut line = String::new();
            match self.reader.read_line(&mut line) {
                Ok(0) | Err(_) => return None,
                Ok(_) => {}
            }
            let line = line.trim_end_matches(['\r', '\n']);
            if line.is_empty() {
                if let Some(c) = comment.take() {
                    return Some(Frame::Comment(c));
                }
                if !data.is_empty() {
                    return Some(Frame::Event {
                        id,
                        event,
                        data: serde_json::from_str(&data).expect("JSON data"),
                    });
                }
                continue;
            }
            if let Some(c) = line.strip_prefix(':') {
                comment = Some(c.trim().to_string());
            } else if let Some(v) = line.strip_prefix("id: ") {
                id = Some(v.to_string());
            } else if let Some(v) = line.strip_prefix("event: ") {
                event = Some(v.to_string());
            } else if let Some(v) = line.strip_prefix("data: ") {
                data.push_str(v);
            }
        }
    }

    /// The next event (comments skipped); `None` when the stream ended.
    pub fn event(&mut self) -> Option<(i64, String, Value)> {
        loop {
            match self.frame()? {
                Frame::Comment(_) => continue,
                Frame::Event { id, event, data } => {
                    let id = id
                        .and_then(|i| i.parse().ok())
                        .expect("every event has an id");
                    return Some((id, event.unwrap_or_default(), data));
                }
            }
        }
    }
}
