//! A TCP proxy on loopback in front of one `nats-server`, which can cut one kind of the
//! connections through it: those whose NATS `CONNECT` names them `warden` (a node's event
//! log; its membership's is `warden-cluster`). Cut, they are shut and new ones are closed
//! after their `CONNECT`, while every other connection goes on: a node whose log can't reach
//! the server while its membership can. Dropping it stops it.

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// The name in a `CONNECT` the proxy cuts.
const CUT: &str = "\"name\":\"warden\"";

pub struct Cut {
    pub port: u16,
    cut: Arc<AtomicBool>,
    stop: Arc<AtomicBool>,
    /// The connections named [`CUT`] open now, both ends.
    open: Arc<Mutex<Vec<(TcpStream, TcpStream)>>>,
}

impl Cut {
    /// Listens on a free loopback port, forwarding every connection to `upstream`.
    pub fn start(upstream: u16) -> Cut {
        let listener =
            TcpListener::bind("127.0.0.1:0").unwrap_or_else(|e| panic!("the proxy: {e}"));
        let port = listener
            .local_addr()
            .unwrap_or_else(|e| panic!("the proxy: {e}"))
            .port();
        listener
            .set_nonblocking(true)
            .unwrap_or_else(|e| panic!("the proxy: {e}"));
        let cut = Arc::new(AtomicBool::new(false));
        let stop = Arc::new(AtomicBool::new(false));
        let open = Arc::new(Mutex::new(Vec::new()));
        {
            let (cut, stop, open) = (Arc::clone(&cut), Arc::clone(&stop), Arc::clone(&open));
            std::thread::spawn(move || {
                while !stop.load(Ordering::SeqCst) {
                    match listener.accept() {
                        Ok((client, _)) => {
                            let (cut, open) = (Arc::clone(&cut), Arc::clone(&open));
                            std::thread::spawn(move || relay(client, upstream, &cut, &open));
                        }
                        Err(_) => std::thread::sleep(Duration::from_millis(10)),
                    }
                }
            });
        }
        Cut {
            port,
            cut,
            stop,
            open,
        }
    }

    /// `nats://127.0.0.1:<port>`.
    pub fn url(&self) -> String {
        format!("nats://127.0.0.1:{}", self.port)
    }

    /// Cuts the log's connections, and every one made until [`Cut::mend`].
    pub fn cut(&self) {
        self.cut.store(true, Ordering::SeqCst);
        for (a, b) in self
            .open
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .drain(..)
        {
            let _ = a.shutdown(Shutdown::Both);
            let _ = b.shutdown(Shutdown::Both);
        }
    }

    /// Lets the log's connections through again.
    pub fn mend(&self) {
        self.cut.store(false, Ordering::SeqCst);
    }
}

impl Drop for Cut {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        self.cut();
    }
}

/// One connection: the server's bytes copied to the client as they come; the client's first
/// line (its `CONNECT`) read to know what it is, then its bytes copied to the server.
fn relay(
    client: TcpStream,
    upstream: u16,
    cut: &AtomicBool,
    open: &Mutex<Vec<(TcpStream, TcpStream)>>,
) {
    let Ok(server) = TcpStream::connect(("127.0.0.1", upstream)) else {
        return;
    };
    let (Ok(mut to_client), Ok(from_server)) = (client.try_clone(), server.try_clone()) else {
        return;
    };
    std::thread::spawn(move || {
        let mut from_server = from_server;
        let _ = std::io::copy(&mut from_server, &mut to_client);
        let _ = to_client.shutdown(Shutdown::Both);
    });
    let Ok(reading) = client.try_clone() else {
        return;
    };
    let mut reader = BufReader::new(reading);
    let mut first = String::new();
    if reader.read_line(&mut first).is_err() {
        return;
    }
    let is_log = first.starts_with("CONNECT") && first.contains(CUT);
    if is_log {
        if cut.load(Ordering::SeqCst) {
            let _ = client.shutdown(Shutdown::Both);
            let _ = server.shutdown(Shutdown::Both);
            return;
        }
        if let (Ok(a), Ok(b)) = (client.try_clone(), server.try_clone()) {
            open.lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push((a, b));
        }
    }
    let mut to_server = server;
    if to_server.write_all(first.as_bytes()).is_err() {
        return;
    }
    let mut buffered = reader.buffer().to_vec();
    reader.consume(buffered.len());
    if to_server.write_all(&buffered).is_err() {
        return;
    }
    buffered.clear();
    let mut from_client = reader.into_inner();
    let mut chunk = [0u8; 16 * 1024];
    loop {
        match from_client.read(&mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                if to_server.write_all(&chunk[..n]).is_err() {
                    break;
                }
            }
        }
    }
    let _ = to_server.shutdown(Shutdown::Both);
}
