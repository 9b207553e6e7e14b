//! What code given to an interpreter names, found in one pass: the marks of reading a file,
//! opening a connection, writing a file, a socket, running a command, decoding a blob,
//! evaluating code, serving a folder and a loopback address. The rules that read code by its
//! words (a send, a reverse shell, a blob run, a folder served) ask these marks, so a program
//! of a few kilobytes is scanned once, not once for each word a rule looks for.
//!
//! The words are lower case: the code is lower-cased before it is scanned.

use aho_corasick::automaton::Automaton;
use aho_corasick::automaton::StateID;
use aho_corasick::dfa::DFA;
use aho_corasick::{Anchored, MatchKind};
use std::sync::LazyLock;

/// One kind of mark.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Mark {
    /// Reads a file.
    Reads,
    /// Opens a connection or makes a request.
    Connects,
    /// Writes a file: a download, not a send.
    Writes,
    /// Opens a socket (for a shell wired to the network).
    Socket,
    /// Runs a command.
    Runs,
    /// Decodes a blob.
    Decodes,
    /// Evaluates code.
    Evaluates,
    /// Serves the folder it runs in.
    Serving,
    /// Names a loopback address.
    Loopback,
}

#[rustfmt::skip]
const LISTS: &[(Mark, &[&str])] = &[
    (Mark::Reads, &[
        "createreadstream", "file.read", "file_get_contents", "fopen(", "fs.readfile",
        "get-content", "io.open(", "readallbytes", "readfilesync",
    ]),
    (Mark::Connects, &[
        "curl_init", "fsockopen", "http.request", "http::tiny", "httpclient", "https.request",
        "invoke-restmethod", "invoke-webrequest", "io::socket", "lwp::", "net.connect",
        "net::http", "requests.post", "requests.put", "require(\"http", "require('http",
        "socket", "tcpclient", "tcpsocket", "uploadfile", "urlopen(", "webclient",
    ]),
    (Mark::Writes, &[
        "\">\"", "\"w\"", "\"wb\"", "'>'", "'w'", "'wb'", "copy_stream", "createwritestream",
        "downloadfile", "file_put_contents", "out-file", "set-content", "urlretrieve",
        "writefile",
    ]),
    (Mark::Socket, &[
        "socket", "fsockopen", "tcpsocket", "tcpserver", "net.connect", "net.socket",
        "net.dial", "/inet/tcp", "/inet/udp", "/dev/tcp", "/dev/udp",
        "createconnection", "createserver", "tcpclient", "tcplistener", "require(\"net\")",
        "require('net')",
    ]),
    (Mark::Runs, &[
        "subprocess", "pty.spawn", "dup2", "exec(", "exec ", "system(", "system$", "system ",
        "spawn(", "/bin/sh", "/bin/bash", "cmd.exe", "popen", "child_process", "proc_open",
        "shell_exec", "passthru", "|&", "sh -i", "execsync", "fdopen", "processbuilder",
        "process.new", "os.execute", "run(", "invoke-expression", "iex ", "iex(", "| iex",
        "|iex",
    ]),
    (Mark::Decodes, &[
        "b64decode", "base64_decode", "base64.decode", "atob(", "from_base64", "unpack(\"m",
        "unpack('m", "decode64", "decode_base64", "'base64')", "\"base64\")", "fromcharcode",
        "codecs.decode", "bytes.fromhex", "unhexlify", "hex2bin", "pack(\"h*\"", "pack('h*'",
        "pack \"h*\"", "pack 'h*'", "str_rot13", "gzinflate", "gzuncompress", "unpack1(\"m",
        "unpack1('m", "frombase64string", "zlib.decompress", "inflatesync", "gunzipsync",
    ]),
    (Mark::Evaluates, &[
        "exec(", "eval(", "eval ", "system(", "compile(", "function(", "popen", "subprocess",
        "child_process", "execsync", "require(",
    ]),
    (Mark::Serving, &[
        "express.static", "http.fileserver", "serve-static", "simplehttprequesthandler",
        "simplehttpserver", "webrick",
    ]),
    (Mark::Loopback, &["127.0.0.1", "localhost", "::1"]),
];

/// Every word of every list, each with the marks it is a word of (a word can be in several:
/// `socket` opens a connection and a socket).
struct Finder {
    words: DFA,
    marks: Vec<Marks>,
    /// The length of the longest word.
    longest: usize,
}

static FINDER: LazyLock<Option<Finder>> = LazyLock::new(|| {
    let mut words: Vec<&str> = Vec::new();
    let mut marks: Vec<Marks> = Vec::new();
    for (mark, list) in LISTS {
        for word in *list {
            match words.iter().position(|w| w == word) {
                Some(at) => marks[at].0 |= bit(*mark),
                None => {
                    words.push(word);
                    marks.push(Marks(bit(*mark)));
                }
            }
        }
    }
    // A DFA: one table step a byte, the fastest of the kinds for a scan of a few kilobytes
    // (the table is made once, for about a hundred words). Walked by hand (`Marks::of`), so
    // no prefilter: its start state is then an ordinary one.
    let longest = words.iter().map(|word| word.len()).max().unwrap_or(0);
    let words = DFA::builder()
        .match_kind(MatchKind::Standard)
        .prefilter(false)
        .build(&words)
        .ok()?;
    Some(Finder {
        words,
        marks,
        longest,
    })
});

fn bit(mark: Mark) -> u16 {
    1 << (mark as u16)
}

/// The marks a text holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) struct Marks(u16);

impl Marks {
    /// The marks in `code` (lower case).
    pub(super) fn of(code: &str) -> Marks {
        let Some(finder) = FINDER.as_ref() else {
            // The words are fixed, so the finder is always made; were it not, each list is
            // looked for on its own, slower and the same.
            return Marks(
                LISTS
                    .iter()
                    .filter(|(_, list)| list.iter().any(|word| code.contains(word)))
                    .fold(0, |all, (mark, _)| all | bit(*mark)),
            );
        };
        // Every word at every place it ends (an overlapping search, its states walked here: a
        // match state holds every word that ends there), its marks gathered.
        let dfa = &finder.words;
        let mut found = Marks::default();
        let Ok(start) = dfa.start_state(Anchored::No) else {
            return found;
        };
        let mut gather = |state: StateID| {
            if dfa.is_special(state) && dfa.is_match(state) {
                for at in 0..dfa.match_len(state) {
                    let word = dfa.match_pattern(state, at);
                    if let Some(marks) = finder.marks.get(word.as_usize()) {
                        found.0 |= marks.0;
                    }
                }
            }
        };
        // Two walks at once, one over each half: a step waits for the state the step before
        // it loaded, so two walks that don't wait for each other take about the time of one.
        // The second starts as many bytes before the half as the longest word has, less one:
        // a word across the cut is found whole by it (a word found by both is the same marks).
        // A non-anchored search never reaches the dead state, so both walk to their ends.
        let bytes = code.as_bytes();
        let half = bytes.len() / 2;
        let first = bytes.get(..half).unwrap_or(&[]);
        let second = bytes
            .get(half.saturating_sub(finder.longest.saturating_sub(1))..)
            .unwrap_or(&[]);
        let (mut one, mut two) = (start, start);
        for (&a, &b) in first.iter().zip(second) {
            one = dfa.next_state(Anchored::No, one, a);
            two = dfa.next_state(Anchored::No, two, b);
            gather(one);
            gather(two);
        }
        for &b in second.get(first.len()..).unwrap_or(&[]) {
            two = dfa.next_state(Anchored::No, two, b);
            gather(two);
        }
        found
    }

    pub(super) fn has(self, mark: Mark) -> bool {
        self.0 & bit(mark) != 0
    }

    /// Opens a socket and runs commands: a shell wired to the network.
    pub(super) fn wires_shell(self) -> bool {
        self.has(Mark::Socket) && self.has(Mark::Runs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_pass_finds_what_each_list_would() {
        for code in [
            "import socket,subprocess,os;s=socket.socket();s.connect((\"10.0.0.1\",4444))",
            "require('http').createserver(); eval(atob('x'))",
            "open('f', 'w').write(urlretrieve(u))",
            "app.use(express.static('.')); app.listen(80, 'localhost')",
            "print('hello')",
            "",
            "x = 1; import socket",
            "import socket; x = 1",
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaasocketbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb",
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaasimplehttprequesthandlerbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb",
            "s",
            "::1",
        ] {
            let naive = LISTS
                .iter()
                .filter(|(_, list)| list.iter().any(|word| code.contains(word)))
                .fold(0, |all, (mark, _)| all | bit(*mark));
            assert_eq!(Marks::of(code), Marks(naive), "{code}");
        }
    }

    #[test]
    fn a_word_is_found_wherever_the_halves_are_cut() {
        for (_, list) in LISTS {
            for word in *list {
                for before in 0..40 {
                    for after in [0, 1, 7, 40] {
                        let code = format!("{}{word}{}", "_".repeat(before), "_".repeat(after));
                        let naive = LISTS
                            .iter()
                            .filter(|(_, list)| list.iter().any(|w| code.contains(w)))
                            .fold(0, |all, (mark, _)| all | bit(*mark));
                        assert_eq!(Marks::of(&code), Marks(naive), "{code}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_word_of_two_lists_is_both_marks() {
        let marks = Marks::of("s = socket.socket()");
        assert!(marks.has(Mark::Socket) && marks.has(Mark::Connects));
        assert!(!marks.has(Mark::Runs) && !marks.wires_shell());
        assert!(Marks::of("socket; subprocess.call(['/bin/sh'])").wires_shell());
    }
}
