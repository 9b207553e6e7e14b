//! A small client of the Chrome DevTools protocol: Debian's `chromium`, headless, started
//! with `--remote-debugging-port=0` in a profile folder of its own, and one page of it
//! driven over its websocket (tungstenite, blocking). Only what the page's test needs:
//! navigate, evaluate, wait for a condition, press keys, type, set a file input's file,
//! zoom, take screenshots, read cookies.

use serde_json::{Value, json};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tungstenite::{Message, WebSocket};

/// How long the browser may take to start and show its first page.
const STARTS_WITHIN: Duration = Duration::from_secs(30);

/// How long a condition is waited for before the test fails.
pub const WAIT: Duration = Duration::from_secs(15);

/// Where Debian puts chromium, or `WARDEN_CHROMIUM`.
pub fn chromium() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("WARDEN_CHROMIUM").filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(path));
    }
    ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .into_iter()
        .map(PathBuf::from)
        .find(|p| p.exists())
}

/// The version `chromium --version` prints.
pub fn version(program: &Path) -> String {
    Command::new(program)
        .arg("--version")
        .stderr(Stdio::null())
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default()
}

/// A running headless chromium and its page. Dropping it ends the browser.
pub struct Browser {
    child: Child,
    _profile: tempfile::TempDir,
    socket: WebSocket<TcpStream>,
    next: u64,
}

impl Browser {
    /// Starts the browser and connects to its first page.
    pub fn launch(program: &Path) -> Result<Browser, String> {
        let profile = tempfile::tempdir().map_err(|e| e.to_string())?;
        let child = Command::new(program)
            .args([
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--no-first-run",
                "--no-default-browser-check",
                "--disable-extensions",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--remote-debugging-address=127.0.0.1",
                "--remote-debugging-port=0",
                "--window-size=1280,1000",
                "--lang=en-GB",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("starting {}: {e}", program.display()))?;
        let socket = open_socket(profile.path())?;
        let mut browser = Browser {
            child,
            _profile: profile,
            socket,
            next: 0,
        };
        browser.call("Page.enable", json!({}))?;
        browser.call("Runtime.enable", json!({}))?;
        browser.call("Network.enable", json!({}))?;
        Ok(browser)
    }

    /// One command, and its result (events that arrive meanwhile are passed over).
    pub fn call(&mut self, method: &str, params: Value) -> Result<Value, String> {
        self.next += 1;
        let id = self.next;
        let message = json!({"id": id, "method": method, "params": params}).to_string();
        self.socket
            .send(Message::text(message))
            .map_err(|e| format!("{method}: {e}"))?;
        let deadline = Instant::now() + WAIT * 2;
        loop {
            if Instant::now() > deadline {
                return Err(format!("{method}: no answer in {:?}", WAIT * 2));
            }
            let message = self.socket.read().map_err(|e| format!("{method}: {e}"))?;
            let Message::Text(text) = message else {
                continue;
            };
            let value: Value = serde_json::from_str(text.as_str()).map_err(|e| e.to_string())?;
            if value["id"].as_u64() != Some(id) {
                continue;
            }
            if let Some(error) = value.get("error") {
                return Err(format!("{method}: {error}"));
            }
            return Ok(value["result"].clone());
        }
    }

    /// Evaluates a JavaScript expression in the page (a promise is awaited) and returns its
    /// value; an exception is an error with its text.
    pub fn eval(&mut self, expression: &str) -> Result<Value, String> {
        let result = self.call(
            "Runtime.evaluate",
            json!({"expression": expression, "returnByValue": true, "awaitPromise": true}),
        )?;
        if let Some(exception) = result.get("exceptionDetails") {
            return Err(format!("`{expression}` threw: {exception}"));
        }
        Ok(result["result"]["value"].clone())
    }

    /// Waits until `expression` is truthy; its value. Fails after [`WAIT`], saying what it
    /// was waiting for.
    pub fn wait_for(&mut self, what: &str, expression: &str) -> Value {
        let deadline = Instant::now() + WAIT;
        loop {
            match self.eval(expression) {
                Ok(value) if truthy(&value) => return value,
                Ok(_) | Err(_) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(50));
                }
                Ok(value) => panic!("waited {WAIT:?} for {what}: `{expression}` is {value}"),
                Err(e) => panic!("waited {WAIT:?} for {what}: {e}"),
            }
        }
    }

    /// Goes to `url` and waits for its document to load.
    pub fn navigate(&mut self, url: &str) -> Result<(), String> {
        self.call("Page.navigate", json!({"url": url}))?;
        let deadline = Instant::now() + WAIT;
        loop {
            let state = self.eval("document.readyState + ' ' + location.href");
            if let Ok(Value::String(state)) = &state
                && state.starts_with("complete")
                && !state.ends_with("about:blank")
            {
                return Ok(());
            }
            if Instant::now() > deadline {
                return Err(format!("{url} did not load: {state:?}"));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Presses a key (`Tab`, `Enter`, …), as a person at the keyboard would.
    pub fn press(&mut self, key: &str) -> Result<(), String> {
        let (code, text, vk) = match key {
            "Tab" => ("Tab", "", 9),
            "Enter" => ("Enter", "\r", 13),
            " " => ("Space", " ", 32),
            other => return Err(format!("no key `{other}` in this client")),
        };
        for kind in ["keyDown", "keyUp"] {
            let mut params = json!({"type": kind, "key": key, "code": code,
                                    "windowsVirtualKeyCode": vk, "nativeVirtualKeyCode": vk});
            if kind == "keyDown" && !text.is_empty() {
                params["text"] = json!(text);
            }
            self.call("Input.dispatchKeyEvent", params)?;
        }
        Ok(())
    }

    /// Types text into whatever has the focus.
    pub fn type_text(&mut self, text: &str) -> Result<(), String> {
        self.call("Input.insertText", json!({"text": text}))
            .map(drop)
    }

    /// Gives a file input (by CSS selector) a file, as choosing it in the dialog would.
    pub fn set_file(&mut self, selector: &str, file: &Path) -> Result<(), String> {
        let document = self.call("DOM.getDocument", json!({"depth": 0}))?;
        let root = document["root"]["nodeId"].clone();
        let node = self.call(
            "DOM.querySelector",
            json!({"nodeId": root, "selector": selector}),
        )?;
        self.call(
            "DOM.setFileInputFiles",
            json!({"nodeId": node["nodeId"], "files": [file.display().to_string()]}),
        )
        .map(drop)
    }

    /// The page as seen at `zoom` (2.0: 200%): a narrower window in CSS pixels, each drawn
    /// twice as large, as a browser zoomed to 200% lays it out.
    pub fn zoom(&mut self, zoom: f64) -> Result<(), String> {
        let width = (1280.0 / zoom).round();
        let height = (1000.0 / zoom).round();
        self.call(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": width, "height": height, "deviceScaleFactor": zoom, "mobile": false}),
        )
        .map(drop)
    }

    /// A PNG of the whole page (beyond the window too), written to `path`.
    pub fn screenshot(&mut self, path: &Path) -> Result<(), String> {
        let metrics = self.call("Page.getLayoutMetrics", json!({}))?;
        let size = &metrics["cssContentSize"];
        let width = size["width"].as_f64().unwrap_or(1280.0).ceil();
        let height = size["height"].as_f64().unwrap_or(1000.0).ceil();
        let shot = self.call(
            "Page.captureScreenshot",
            json!({"format": "png", "captureBeyondViewport": true,
                   "clip": {"x": 0, "y": 0, "width": width, "height": height, "scale": 1}}),
        )?;
        let data = shot["data"].as_str().ok_or("no screenshot data")?;
        let bytes = data_encoding::BASE64
            .decode(data.as_bytes())
            .map_err(|e| e.to_string())?;
        std::fs::write(path, bytes).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// The browser's cookies for `url`.
    pub fn cookies(&mut self, url: &str) -> Result<Vec<Value>, String> {
        let result = self.call("Network.getCookies", json!({"urls": [url]}))?;
        Ok(result["cookies"].as_array().cloned().unwrap_or_default())
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.socket.close(None);
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn truthy(value: &Value) -> bool {
    match value {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|n| n != 0.0),
        Value::String(s) => !s.is_empty(),
        Value::Array(_) | Value::Object(_) => true,
    }
}

/// Reads `DevToolsActivePort` from the profile folder: the port the browser listens on.
pub fn port_of(profile: &Path) -> Option<u16> {
    let text = std::fs::read_to_string(profile.join("DevToolsActivePort")).ok()?;
    text.lines().next()?.trim().parse().ok()
}

/// The websocket address of the browser's first page, from its `/json/list`.
pub fn page_socket(port: u16) -> Result<String, String> {
    let agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(5)))
        .build()
        .new_agent();
    let text = agent
        .get(&format!("http://127.0.0.1:{port}/json/list"))
        .call()
        .map_err(|e| e.to_string())?
        .body_mut()
        .read_to_string()
        .map_err(|e| e.to_string())?;
    let targets: Vec<Value> = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    targets
        .iter()
        .find(|t| t["type"] == "page")
        .and_then(|t| t["webSocketDebuggerUrl"].as_str())
        .map(str::to_string)
        .ok_or_else(|| format!("no page among {text}"))
}

/// Opens the page's websocket, waiting for the browser to be up (chromium writes the port
/// it listens on into the profile folder as `DevToolsActivePort`).
pub fn open_socket(profile: &Path) -> Result<WebSocket<TcpStream>, String> {
    let deadline = Instant::now() + STARTS_WITHIN;
    let url = loop {
        if let Some(port) = port_of(profile)
            && let Ok(url) = page_socket(port)
        {
            break url;
        }
        if Instant::now() > deadline {
            return Err(format!("chromium did not start in {STARTS_WITHIN:?}"));
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let authority = url
        .strip_prefix("ws://")
        .and_then(|rest| rest.split('/').next())
        .ok_or_else(|| format!("not a ws:// address: {url}"))?
        .to_string();
    let stream = TcpStream::connect(&authority).map_err(|e| format!("{authority}: {e}"))?;
    stream
        .set_read_timeout(Some(WAIT * 2))
        .map_err(|e| e.to_string())?;
    let (socket, _) = tungstenite::client::client(url.as_str(), stream)
        .map_err(|e| format!("the DevTools websocket: {e}"))?;
    Ok(socket)
}
