//! Serving connections: actix's HTTP service over each TCP connection, as `HttpServer` would
//! run it, with one difference. actix-http answers a request it cannot parse by itself, before any
//! route or middleware runs, with an empty body: a request line that is not HTTP or holds raw
//! bytes that are not ASCII (400), a URL past 64 KiB (400), a head past 128 KiB or with more than
//! 96 headers (431), a head that does not arrive in time (408). Those are the only answers with an
//! error status and `content-length: 0` the server writes (every other error answer carries a
//! problem body: `error::with_problem_body`), so each connection is wrapped in [`ProblemIo`],
//! which writes them with the problem body of their status instead.
//!
//! With `h2c` a connection that opens with HTTP/2's preface is served HTTP/2 without TLS
//! ("prior knowledge", RFC 9113 3.3), as a reverse proxy may send it: many clients' event streams
//! then share one connection, where HTTP/1.1 holds a descriptor for each (issue 50).

use std::io;
use std::net::TcpListener;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use actix_http::{HttpService, Protocol, Request, Response};
use actix_server::Server;
use actix_service::{
    fn_service, map_config, IntoServiceFactory, ServiceFactory, ServiceFactoryExt,
};
use actix_web::body::MessageBody;
use actix_web::dev::AppConfig;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// How the server runs its connections (the values `HttpServer` uses by default).
pub struct ServerSettings {
    /// HTTP worker threads; `None`: one per core.
    pub workers: Option<usize>,
    /// Threads per worker for blocking work (database calls).
    pub max_blocking_threads: usize,
    /// Serve HTTP/2 to connections that open with its preface (h2c).
    pub h2c: bool,
}

/// How long a request's head may take to arrive (actix's `client_request_timeout`).
const REQUEST_HEAD_TIMEOUT: Duration = Duration::from_secs(5);

/// The start of HTTP/2's connection preface (RFC 9113 3.4), enough to tell it from any HTTP/1.1
/// request line; clients send the whole preface in one write.
const H2_PREFACE: &[u8] = b"PRI * HTTP/2";

/// Which protocol a new connection speaks: HTTP/2 if `h2c` and its first bytes are the preface.
async fn protocol_of(io: &actix_web::rt::net::TcpStream, h2c: bool) -> Protocol {
    if !h2c {
        return Protocol::Http1;
    }
    let mut first = [0u8; H2_PREFACE.len()];
    // A client that sends nothing is left to HTTP/1.1, whose own timer answers it 408.
    match tokio::time::timeout(REQUEST_HEAD_TIMEOUT, io.peek(&mut first)).await {
        Ok(Ok(n)) if first[..n] == *H2_PREFACE => Protocol::Http2,
        _ => Protocol::Http1,
    }
}

/// Serve `app` on `listener`, each connection wrapped in [`ProblemIo`]. Signals are the
/// caller's (see `startup::Stopper`).
pub fn serve<F, I, S, B>(
    listener: TcpListener,
    app: F,
    settings: ServerSettings,
) -> io::Result<Server>
where
    F: Fn() -> I + Send + Clone + 'static,
    I: IntoServiceFactory<S, Request>,
    S: ServiceFactory<Request, Config = AppConfig> + 'static,
    S::Error: Into<actix_web::Error> + 'static,
    S::InitError: std::fmt::Debug,
    S::Response: Into<Response<B>> + 'static,
    <S::Service as actix_service::Service<Request>>::Future: 'static,
    S::Service: 'static,
    B: MessageBody + 'static,
{
    let addr = listener.local_addr()?;
    let h2c = settings.h2c;
    let mut builder = Server::build();
    let shutdown = builder.graceful_shutdown_signal();
    if let Some(workers) = settings.workers {
        builder = builder.workers(workers);
    }
    builder = builder
        .worker_max_blocking_threads(settings.max_blocking_threads)
        .disable_signals()
        .listen("keltis-http", listener, move || {
            let shutdown = shutdown.clone();
            let http = HttpService::build()
                .graceful_shutdown_signal(move || {
                    let signal = shutdown.clone();
                    async move { signal.notified().await }
                })
                .keep_alive(actix_http::KeepAlive::default())
                .client_request_timeout(REQUEST_HEAD_TIMEOUT)
                .client_disconnect_timeout(Duration::from_secs(1))
                .local_addr(addr)
                .finish(map_config(
                    app()
                        .into_factory()
                        .map_err(|err| err.into().error_response()),
                    |_| AppConfig::default(),
                ));
            fn_service(move |io: actix_web::rt::net::TcpStream| async move {
                let _ = io.set_nodelay(true);
                let peer = io.peer_addr().ok();
                let protocol = protocol_of(&io, h2c).await;
                // HTTP/2's frames never begin like the HTTP/1.1 answers `ProblemIo` rewrites.
                Ok::<_, actix_http::error::DispatchError>((ProblemIo::new(io), protocol, peer))
            })
            .and_then(http)
        })?;
    Ok(builder.run())
}

/// A connection whose bodiless error answers (see the module's comment) are written with the
/// problem body of their status.
pub struct ProblemIo<T> {
    inner: T,
    /// An answer being written in place of the one the dispatcher gave: the bytes, how many are
    /// written, and how many of the dispatcher's bytes they stand for.
    replacing: Option<(Vec<u8>, usize, usize)>,
}

impl<T> ProblemIo<T> {
    pub fn new(inner: T) -> ProblemIo<T> {
        ProblemIo {
            inner,
            replacing: None,
        }
    }
}

/// If `buf` begins with a whole answer of an error status and an empty body, that answer with
/// the problem body of its status, and how many bytes of `buf` it replaces.
fn with_problem(buf: &[u8]) -> Option<(Vec<u8>, usize)> {
    let head_end = buf.windows(4).position(|w| w == b"\r\n\r\n")? + 4;
    let head = std::str::from_utf8(&buf[..head_end]).ok()?;
    let mut lines = head.split("\r\n");
    let status_line = lines.next()?;
    let status: u16 = status_line
        .strip_prefix("HTTP/1.")?
        .get(2..5)?
        .parse()
        .ok()?;
    let status = actix_web::http::StatusCode::from_u16(status).ok()?;
    let headers: Vec<&str> = lines.filter(|l| !l.is_empty()).collect();
    let empty = headers
        .iter()
        .any(|h| h.eq_ignore_ascii_case("content-length: 0"));
    let typed = headers
        .iter()
        .any(|h| h.to_ascii_lowercase().starts_with("content-type:"));
    if status.as_u16() < 400 || !empty || typed {
        return None;
    }
    let message = match status.as_u16() {
        408 => "the request's head did not arrive in time",
        431 => "the request's head is too large: at most 128 KiB and 96 headers",
        _ => "the request is not HTTP/1.1 as the server reads it: a request line or URL that is malformed, has bytes that are not ASCII, or is longer than 64 KiB",
    };
    let body = super::error::problem_json(status, message);
    let mut answer = format!("{status_line}\r\n");
    for h in headers
        .iter()
        .filter(|h| !h.to_ascii_lowercase().starts_with("content-length:"))
    {
        answer.push_str(h);
        answer.push_str("\r\n");
    }
    answer.push_str(&format!(
        "content-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    ));
    Some((answer.into_bytes(), head_end))
}

impl<T: AsyncRead + Unpin> AsyncRead for ProblemIo<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for ProblemIo<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        if this.replacing.is_none() {
            match with_problem(buf) {
                Some((bytes, stands_for)) => this.replacing = Some((bytes, 0, stands_for)),
                None => return Pin::new(&mut this.inner).poll_write(cx, buf),
            }
        }
        // The dispatcher calls again with the same bytes until they are reported written.
        let Some((bytes, written, stands_for)) = &mut this.replacing else {
            return Poll::Ready(Ok(0));
        };
        while *written < bytes.len() {
            match Pin::new(&mut this.inner).poll_write(cx, &bytes[*written..]) {
                Poll::Ready(Ok(0)) => return Poll::Ready(Err(io::ErrorKind::WriteZero.into())),
                Poll::Ready(Ok(n)) => *written += n,
                other => return other,
            }
        }
        let n = *stands_for;
        this.replacing = None;
        Poll::Ready(Ok(n))
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::with_problem;

    #[test]
    fn a_bodiless_error_answer_gets_the_problem_body() {
        let answer = b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\nconnection: close\r\ndate: Wed, 25 Nov 2026 16:15:11 GMT\r\n\r\n";
        let (bytes, stands_for) = with_problem(answer).unwrap();
        assert_eq!(stands_for, answer.len());
        let text = String::from_utf8(bytes).unwrap();
        let (head, body) = text.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 431 Request Header Fields Too Large\r\n"));
        assert!(head.contains("connection: close\r\n"));
        assert!(head.contains("content-type: application/json"));
        assert!(head.contains(&format!("content-length: {}", body.len())));
        let problem: serde_json::Value = serde_json::from_str(body).unwrap();
        assert_eq!(problem["code"], "headers_too_large");
    }

    #[test]
    fn other_answers_pass_unchanged() {
        for answer in [
            &b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n"[..],
            b"HTTP/1.1 404 Not Found\r\ncontent-length: 27\r\ncontent-type: application/json\r\n\r\n{\"code\":\"not_found\"}",
            b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n",
            b"{\"data\": \"HTTP/1.1 400 x\r\ncontent-length: 0\r\n\r\n\"}",
        ] {
            assert!(with_problem(answer).is_none(), "{}", String::from_utf8_lossy(answer));
        }
    }
}
