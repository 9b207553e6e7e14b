//! How long and how many connections `warden serve` holds: each connection is served by
//! hyper's HTTP/1.1 server with a timer, so a head (request line and headers) that doesn't
//! arrive in time closes it, counted from when it connected or from its last answer (an idle
//! kept-alive connection too); a body that doesn't arrive in time is answered 408 (the
//! routes' `JsonText`), and so is an answer the client doesn't take (`Stalling`: a client
//! that pipelines requests and reads nothing would otherwise hold its connection for ever);
//! and at most `connections` are held at once, one more is answered 503 and closed at once.
//! `[limits]` in `docs/configuration.md`.

use super::App;
use crate::config::Limits;
use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Semaphore, watch};

/// What a connection may take of the server (`[limits]`).
#[derive(Debug, Clone, Copy)]
pub struct Hold {
    /// How long a request's head may take, from the connection or the last answer.
    pub header: Duration,
    /// How long a request's body may take, from its head; and how long an answer may wait
    /// for the client to take it.
    pub body: Duration,
    /// How many connections are held at once.
    pub connections: usize,
}

impl Hold {
    /// The configuration's limits.
    pub fn new(limits: &Limits) -> Hold {
        Hold {
            header: Duration::from_millis(limits.header_timeout_ms),
            body: Duration::from_millis(limits.body_timeout_ms),
            connections: limits.connections.clamp(1, Semaphore::MAX_PERMITS),
        }
    }
}

/// What a connection past the cap is told before it is closed.
const BUSY: &str = "{\"error\":\"warden holds as many connections as it takes (`limits.connections`): try again\"}";

/// Serves `router` on `listener` until `stop` resolves, then stops taking connections, lets
/// each one finish the request it is in (an idle one closes at once), and returns when all
/// are closed. `app` counts the connections refused and timed out (`/metrics`).
pub async fn serve(
    listener: TcpListener,
    router: Router,
    hold: Hold,
    app: Arc<App>,
    stop: impl Future<Output = ()> + Send,
) -> std::io::Result<()> {
    let permits = Arc::new(Semaphore::new(hold.connections));
    let (closing, closed) = watch::channel(false);
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(hold.header)
        .keep_alive(true);
    let mut stop = std::pin::pin!(stop);
    loop {
        let stream = tokio::select! {
            () = &mut stop => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(e) => {
                    // Out of file descriptors, say: the connections held close by their
                    // timeouts, so wait a little rather than spin.
                    tracing::warn!(error = %e, "accepting a connection failed");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
        };
        // An answer is written whole as soon as it is ready: Nagle's wait for the client's
        // ack of the last one would only delay it.
        let _ = stream.set_nodelay(true);
        let Ok(permit) = Arc::clone(&permits).try_acquire_owned() else {
            app.metrics.refused();
            refuse(&stream);
            continue;
        };
        let connection = http.serve_connection(
            Stalling::new(TokioIo::new(stream), hold.body),
            TowerToHyperService::new(router.clone()),
        );
        let mut closed = closed.clone();
        let app = Arc::clone(&app);
        tokio::spawn(async move {
            let _permit = permit;
            let mut connection = std::pin::pin!(connection);
            let result = tokio::select! {
                result = connection.as_mut() => result,
                _ = closed.changed() => {
                    connection.as_mut().graceful_shutdown();
                    connection.await
                }
            };
            if let Err(e) = result {
                if is_slow(&e) {
                    app.metrics.timed_out();
                }
                tracing::debug!(error = %e, "a connection ended");
            }
        });
    }
    drop(listener);
    let _ = closing.send(true);
    // Every connection holds a permit until it closes: all of them back, all are closed.
    let all = u32::try_from(hold.connections).unwrap_or(u32::MAX);
    let _ = permits.acquire_many(all).await;
    Ok(())
}

/// Whether a connection ended because its client was too slow: a head that didn't arrive
/// (hyper's timer) or an answer it didn't take (`Stalling`).
fn is_slow(error: &hyper::Error) -> bool {
    if error.is_timeout() {
        return true;
    }
    let mut source = std::error::Error::source(error);
    while let Some(inner) = source {
        if inner
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::TimedOut)
        {
            return true;
        }
        source = inner.source();
    }
    false
}

/// Answers a connection past the cap 503 without waiting for it, and closes it.
fn refuse(stream: &TcpStream) {
    tracing::debug!("a connection past `limits.connections` was refused");
    // The answer fits in the socket's buffer of a new connection; one that can't take it at
    // once is closed without it.
    let answer = format!(
        "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\nRetry-After: 1\r\n\r\n{BUSY}",
        BUSY.len()
    );
    let _ = stream.try_write(answer.as_bytes());
}

/// A connection whose writes wait at most `stall` for the client to take them: past it the
/// write fails and hyper closes the connection.
struct Stalling<T> {
    io: T,
    stall: Duration,
    /// When the write waiting now gives up.
    waiting: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl<T> Stalling<T> {
    fn new(io: T, stall: Duration) -> Stalling<T> {
        Stalling {
            io,
            stall,
            waiting: None,
        }
    }

    /// What a write answered, unless it has waited longer than `stall`: progress starts the
    /// wait again.
    fn within<R>(
        &mut self,
        cx: &mut Context<'_>,
        answer: Poll<io::Result<R>>,
    ) -> Poll<io::Result<R>> {
        if answer.is_ready() {
            self.waiting = None;
            return answer;
        }
        let stall = self.stall;
        let waiting = self
            .waiting
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(stall)));
        match waiting.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the client took no answer within `limits.body_timeout_ms`",
            ))),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl<T: hyper::rt::Read + Unpin> hyper::rt::Read for Stalling<T> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: hyper::rt::ReadBufCursor<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_read(cx, buf)
    }
}

impl<T: hyper::rt::Write + Unpin> hyper::rt::Write for Stalling<T> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let answer = Pin::new(&mut this.io).poll_write(cx, buf);
        this.within(cx, answer)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let answer = Pin::new(&mut this.io).poll_flush(cx);
        this.within(cx, answer)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let answer = Pin::new(&mut this.io).poll_shutdown(cx);
        this.within(cx, answer)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let answer = Pin::new(&mut this.io).poll_write_vectored(cx, bufs);
        this.within(cx, answer)
    }
}
