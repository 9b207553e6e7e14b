//! What another program runs, where only the law knows what it means: the command a
//! container or a pod runs (`docker run -v ~:/h alpine rm -rf /h`, `kubectl exec pod -- …`),
//! and the program a runner names (`npx x`, `pnpm dlx x`, `uvx x`).
//!
//! A container's command is read as a line of its own, its paths seen from the host: a path
//! under a mount is the mounted folder's (`/h/x` with `-v ~:/h` is `~/x`), a folder that holds
//! a mount is every folder mounted under it (`rm -rf /` with `-v /:/host` reaches `/`), and
//! any other path is the container's own, thrown away with it. Where the mounts are unknown
//! (`docker exec`, `docker compose run`), its paths are judged as they are written. A pod's
//! command runs on the cluster: any change there is someone else's system, lasting.

use super::Scan;
use crate::catalogue::{self, Class};
use crate::law::paths::{self as place, Place};
use crate::law::rule::RuleId;
use crate::shell::Command;
use crate::verdict::{Harm, Risk};
use crate::wish::{Act, Name, Wish};

/// Where a new container's own paths are judged: a temporary folder, thrown away with it.
const CONTAINER_ROOT: &str = "/tmp/container";

/// The work folder of a command run where the mounts are unknown (a running container, a
/// pod): its relative paths are its own, its absolute paths are judged as written.
const ELSEWHERE: &str = "/.elsewhere";

use super::table::{Row, row};

/// What a container's command is run by: (program, subcommand words, what the first operand
/// names). Matched against the program's first positional words.
#[rustfmt::skip]
const CONTAINER_RUNS: &[Row<Target>] = &[
    row("docker", &["compose", "exec"], Target::Service, &["docker compose exec web rm -rf /var/www/uploads"], &["docker compose logs web", "docker compose exec web ls /var/www/uploads"]),
    row("docker", &["compose", "run"], Target::Service, &["docker compose run --rm app npm publish"], &["docker compose up -d app", "docker compose run --rm app npm test"]),
    row("docker", &["container", "exec"], Target::Running, &["docker container exec api rm -rf /srv/data"], &["docker container ls"]),
    row("docker", &["container", "run"], Target::Image, &["docker container run --rm -v ~/projects:/p alpine rm -rf /p"], &["docker container inspect api"]),
    row("docker", &["exec"], Target::Running, &["docker exec -it web rm -rf /app/storage"], &["docker exec --help", "docker logs web"]),
    row("docker", &["run"], Target::Image, &["docker run --rm -v ~:/h alpine rm -rf /h", "docker run --rm -v \"$PWD\":/app -w /app node:20 npm publish"], &["docker run --help", "docker build -t app ."]),
    row("docker-compose", &["exec"], Target::Service, &["docker-compose exec web rm -rf /var/www/cache"], &["docker-compose ps"]),
    row("docker-compose", &["run"], Target::Service, &["docker-compose run --rm web npm publish"], &["docker-compose config", "docker compose run --rm web npm publish"]),
    row("lxc", &["exec"], Target::Running, &["lxc exec web -- rm -rf /var/lib/app"], &["lxc list", "lxc exec web -- ls /var/lib/app"]),
    row("nerdctl", &["exec"], Target::Running, &["nerdctl exec api rm -rf /srv/cache"], &["nerdctl ps"]),
    row("nerdctl", &["run"], Target::Image, &["nerdctl run --rm -v $HOME:/h alpine rm -rf /h"], &["nerdctl images"]),
    row("podman", &["container", "exec"], Target::Running, &["podman container exec web rm -rf /var/www/html"], &["podman container ls"]),
    row("podman", &["container", "run"], Target::Image, &["podman container run --rm -v ~/projects:/p alpine rm -rf /p"], &["podman container inspect web"]),
    row("podman", &["exec"], Target::Running, &["podman exec -it db rm -rf /var/lib/postgresql/data"], &["podman logs db"]),
    row("podman", &["run"], Target::Image, &["podman run --rm -v .:/src -w /src alpine rm -rf /src"], &["podman build -t app .", "docker run --rm -v .:/src -w /src alpine rm -rf /src"]),
    row("podman-compose", &["exec"], Target::Service, &["podman-compose exec web rm -rf /var/www/uploads"], &["podman-compose ps"]),
    row("podman-compose", &["run"], Target::Service, &["podman-compose run --rm web npm publish"], &["podman-compose up -d"]),
];

/// Clusters' commands that run a command in a pod.
#[rustfmt::skip]
const POD_RUNS: &[Row<()>] = &[
    row("kubectl", &["exec"], (), &["kubectl exec deploy/web -- rm -rf /var/cache/app", "kubectl exec -it web-1 -n staging -- pkill -f gunicorn"], &["kubectl exec -it web-1 -- bash", "kubectl exec web-1 -- ls /app"]),
    row("oc", &["exec"], (), &["oc exec api-7d9f -- rm -rf /data/cache"], &["oc get pods", "oc exec api-7d9f -- cat /etc/os-release"]),
    row("oc", &["rsh"], (), &["oc rsh api-7d9f pkill -f gunicorn"], &["oc rsh api-7d9f", "oc rsync ./build api-7d9f:/srv"]),
];

/// Runners that run the program named after their subcommand (`uvx x`, `pipx run x`,
/// `python -m x`): (program, subcommand words). The program they run is judged as a command
/// of its own. The JavaScript package runners (`npx`, `pnpx`, `bunx`, `pnpm dlx`/`exec`,
/// `yarn dlx`/`exec`) are the shell reader's (`shell/runs.rs` `RUNNERS`), which also reads
/// the code their program is given (`npx tsx -e …`).
#[rustfmt::skip]
const RUNS_NAMED: &[Row<()>] = &[
    row("pipx", &["run"], (), &["pipx run twine upload dist/*"], &["pipx install twine"]),
    row("python", &["-m"], (), &["python -m twine upload dist/*", "python3 -m twine upload --repository testpypi dist/*"], &["python -m pytest -q", "python -m venv .venv"]),
    row("uv", &["run"], (), &["uv run ansible-playbook -i inventory/prod site.yml"], &["uv run pytest -x", "uv sync"]),
    row("uv", &["tool", "run"], (), &["uv tool run twine upload dist/*"], &["uv tool list"]),
    row("uvx", &[], (), &["uvx twine upload dist/*"], &["uvx ruff check ."]),
];

/// What a container's first operand names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target {
    /// An image: a new container, whose mounts the command line says.
    Image,
    /// A container already running: its mounts are unknown.
    Running,
    /// A compose service: its mounts are in a file warden doesn't read.
    Service,
}

/// docker's, podman's and nerdctl's global options that take a value (before the subcommand).
const GLOBAL_VALUED: &[&str] = &[
    "-H",
    "--host",
    "-c",
    "--context",
    "--config",
    "-l",
    "--log-level",
    "--tlscacert",
    "--tlscert",
    "--tlskey",
    "-f",
    "--file",
    "-p",
    "--project-name",
    "--project-directory",
    "--profile",
    "--env-file",
    "--namespace",
    "-n",
    "--connection",
    "--url",
];

/// `run`'s and `exec`'s long options that take no value.
#[rustfmt::skip]
const RUN_FLAGS: &[&str] = &[
    "detach", "disable-content-trust", "help", "init", "interactive", "no-deps", "no-healthcheck",
    "oom-kill-disable", "privileged", "publish-all", "quiet", "read-only", "remove-orphans", "replace", "rm",
    "rmi", "service-ports", "tty", "use-aliases", "use-api-socket",
];

/// `run`'s and `exec`'s short options that take a value.
const RUN_SHORT_VALUED: &[u8] = b"acehlmpuvw";

/// A command run somewhere else, as a line of its own.
pub(super) struct Inside {
    /// The command, as shell text, its paths seen from the host where the mounts say.
    pub text: String,
    /// The folder its relative paths are read against.
    pub cwd: String,
    /// Where it runs, for reasons: `in the container alpine`, `in the pod web`, `on the hosts
    /// web`.
    pub place: String,
    /// The pod's or the hosts' name, when it runs on someone else's systems (a change there is
    /// lasting); `None` on this machine, or for a terminal opened there.
    pub remote: Option<String>,
}

/// What `cmd` runs in a container or a pod, if it does.
/// Does this file read what `program` runs in a container or a pod (`kubectl exec`, `docker
/// exec`, `lxc exec`)? Then what it runs there is judged as a command of its own, not as a
/// cloud's `exec` whatever it runs.
pub(super) fn reads_what_runs_inside(program: &str) -> bool {
    CONTAINER_RUNS.iter().any(|row| row.program == program)
        || POD_RUNS.iter().any(|row| row.program == program)
}

pub(super) fn inside(cmd: &Command, place: Place<'_>) -> Option<Inside> {
    let program = cmd.program();
    if !catalogue::is(program, Class::Runs) {
        return None;
    }
    let args = cmd.args();
    if program == "ansible" {
        return ansible(args, place);
    }
    if let Some(inside) = fleet(program, args) {
        return Some(inside);
    }
    let (at, target) = subcommand(program, args)?;
    match target {
        Kind::Container(row) => container(args.get(at..).unwrap_or(&[]), row.then, place),
        Kind::Pod(_) => pod(args.get(at..).unwrap_or(&[])),
    }
}

/// What a command runs in: the row of `CONTAINER_RUNS` or `POD_RUNS` that reads it.
enum Kind {
    Container(&'static Row<Target>),
    /// Only the test of the tables' examples asks which row it is.
    #[cfg_attr(not(test), expect(dead_code))]
    Pod(&'static Row<()>),
}

/// Where the subcommand's own options start, and what it runs in.
fn subcommand(program: &str, args: &[String]) -> Option<(usize, Kind)> {
    let mut words = Vec::new();
    let mut i = 0;
    while let Some(arg) = args.get(i) {
        if words.len() == 2 {
            break;
        }
        if GLOBAL_VALUED.contains(&arg.as_str()) {
            i += 2;
            continue;
        }
        if arg.starts_with('-') {
            i += 1;
            continue;
        }
        words.push((arg.as_str(), i + 1));
        i += 1;
        let so_far: Vec<&str> = words.iter().map(|(w, _)| *w).collect();
        if let Some(row) = CONTAINER_RUNS
            .iter()
            .find(|row| row.program == program && row.words == so_far.as_slice())
        {
            return Some((i, Kind::Container(row)));
        }
        if let Some(row) = POD_RUNS
            .iter()
            .find(|row| row.program == program && row.words == so_far.as_slice())
        {
            return Some((i, Kind::Pod(row)));
        }
    }
    None
}

/// A bind mount: the host folder and where the container sees it.
struct Mount {
    host: String,
    at: String,
    /// Mounted read-only (`:ro`, `readonly`).
    read_only: bool,
}

/// Files of `/etc` a container reads to match the machine's clock, names and trusted
/// certificates: mounted read-only they give it nothing of the machine's (`-v
/// /etc/localtime:/etc/localtime:ro`, in most Compose files).
const PUBLIC_ETC: &[&str] = &[
    "/etc/ca-certificates",
    "/etc/hostname",
    "/etc/hosts",
    "/etc/localtime",
    "/etc/machine-id",
    "/etc/os-release",
    "/etc/pki/ca-trust",
    "/etc/resolv.conf",
    "/etc/ssl/certs",
    "/etc/timezone",
];

/// What a container runs and with what (`docker run [options] IMAGE CMD…`).
struct Run {
    name: String,
    mounts: Vec<Mount>,
    workdir: Option<String>,
    entrypoint: Option<String>,
    command: Vec<String>,
    /// The machine itself is given to it: `--privileged`, `--pid=host`, the docker socket,
    /// `/` or a system folder mounted.
    host: Option<String>,
}

fn read_run(args: &[String], place: Place<'_>) -> Option<Run> {
    let mut run = Run {
        name: String::new(),
        mounts: Vec::new(),
        workdir: None,
        entrypoint: None,
        command: Vec::new(),
        host: None,
    };
    let mut i = 0;
    while let Some(arg) = args.get(i) {
        if arg == "--" {
            i += 1;
            break;
        }
        if !arg.starts_with('-') || arg.len() < 2 {
            break;
        }
        let (name, value, next) = match arg.strip_prefix("--") {
            Some(long) => match long.split_once('=') {
                Some((name, value)) => (name.to_string(), Some(value.to_string()), i + 1),
                None if RUN_FLAGS.contains(&long) => (long.to_string(), None, i + 1),
                None => (long.to_string(), args.get(i + 1).cloned(), i + 2),
            },
            None => short_option(args, i),
        };
        let value = value.unwrap_or_default();
        match name.as_str() {
            "v" | "volume" => {
                if let Some(mount) = volume(&value, place) {
                    run.mounts.push(mount);
                }
            }
            "mount" => {
                if let Some(mount) = bind(&value, place) {
                    run.mounts.push(mount);
                }
            }
            "w" | "workdir" => run.workdir = Some(value),
            "entrypoint" => run.entrypoint = Some(value),
            "privileged" => run.host = Some("--privileged".to_string()),
            "pid" | "userns" | "uts" | "ipc" if value == "host" => {
                run.host = Some(format!("--{name}=host"));
            }
            "cap-add"
                if matches!(
                    value.to_ascii_uppercase().as_str(),
                    "ALL" | "SYS_ADMIN" | "CAP_SYS_ADMIN"
                ) =>
            {
                run.host = Some(format!("--cap-add={value}"));
            }
            _ => {}
        }
        i = next;
    }
    let target = args.get(i)?;
    run.name = target.clone();
    let rest = args.get(i + 1..).unwrap_or(&[]);
    // `lxc exec c -- cmd`: a `--` after the name ends the options there too.
    let rest = match rest.split_first() {
        Some((first, tail)) if first == "--" => tail,
        _ => rest,
    };
    run.command = rest.to_vec();
    if let Some(entrypoint) = &run.entrypoint {
        run.command.insert(0, entrypoint.clone());
    }
    for mount in &run.mounts {
        let public = mount.read_only && PUBLIC_ETC.iter().any(|f| place::under(&mount.host, f));
        let system =
            place::is_root_like(&mount.host) || (place::under(&mount.host, "/etc") && !public);
        let socket = mount.host.ends_with("/docker.sock") || mount.host.ends_with("/podman.sock");
        if system || socket {
            run.host = Some(format!("{} mounted", mount.host));
        }
    }
    Some(run)
}

/// A short option at `i` (`-it`, `-v a:/b`, `-va:/b`, `-itw /app`): its name, its value and
/// where the next option starts.
fn short_option(args: &[String], i: usize) -> (String, Option<String>, usize) {
    let letters = args.get(i).and_then(|a| a.get(1..)).unwrap_or("");
    let bytes = letters.as_bytes();
    let Some(&first) = bytes.first() else {
        return (String::new(), None, i + 1);
    };
    if RUN_SHORT_VALUED.contains(&first) {
        let name = (first as char).to_string();
        return match letters.get(1..) {
            Some(attached) if !attached.is_empty() => (name, Some(attached.to_string()), i + 1),
            _ => (name, args.get(i + 1).cloned(), i + 2),
        };
    }
    // Flags, the last of which may take a value (`-itw /app`).
    let last = bytes.last().copied().unwrap_or(first);
    if RUN_SHORT_VALUED.contains(&last) {
        return ((last as char).to_string(), args.get(i + 1).cloned(), i + 2);
    }
    (letters.to_string(), None, i + 1)
}

/// `-v HOST:CONTAINER[:options]`: a bind mount when HOST is a path (a name is a volume).
fn volume(value: &str, place: Place<'_>) -> Option<Mount> {
    let mut parts = value.splitn(3, ':');
    let host = parts.next()?;
    let at = parts.next()?;
    let read_only = parts
        .next()
        .is_some_and(|options| options.split(',').any(|o| o == "ro"));
    mount(host, at, place).map(|m| Mount { read_only, ..m })
}

/// `--mount type=bind,source=HOST,target=CONTAINER`.
fn bind(value: &str, place: Place<'_>) -> Option<Mount> {
    let mut host = None;
    let mut at = None;
    let mut kind = "volume";
    let mut read_only = false;
    for field in value.split(',') {
        let (key, val) = field.split_once('=').unwrap_or((field, ""));
        match key {
            "readonly" | "ro" => read_only = val.is_empty() || val == "true" || val == "1",
            "type" => kind = if val == "bind" { "bind" } else { "other" },
            "source" | "src" => host = Some(val),
            "target" | "destination" | "dst" => at = Some(val),
            _ => {}
        }
    }
    if kind != "bind" {
        return None;
    }
    mount(host?, at?, place).map(|m| Mount { read_only, ..m })
}

fn mount(host: &str, at: &str, place: Place<'_>) -> Option<Mount> {
    let is_path = host.starts_with(['/', '~', '.', '$', '`']);
    if !is_path || !at.starts_with('/') {
        return None;
    }
    let host = host_path(host, place)?;
    Some(Mount {
        host,
        at: place::normalise(at),
        read_only: false,
    })
}

/// A host path as the line names it: `$(pwd)`, `$PWD`, `` `pwd` `` are the work folder.
fn host_path(word: &str, place: Place<'_>) -> Option<String> {
    for pwd in ["$(pwd)", "${PWD}", "$PWD", "`pwd`"] {
        if let Some(rest) = word.strip_prefix(pwd) {
            return Some(place::normalise(&format!("{}/{rest}", place.cwd)));
        }
    }
    place.resolve(word)
}

/// `docker run …`, `docker exec …`, `docker compose run …`.
fn container(args: &[String], target: Target, place: Place<'_>) -> Option<Inside> {
    let run = read_run(args, place)?;
    let where_ = match target {
        Target::Image => format!("in the container {}", image_name(&run.name)),
        Target::Running => format!("in the container {}", run.name),
        Target::Service => format!("in the service {}", run.name),
    };
    if run.command.is_empty() {
        return None;
    }
    let text = words_as_text(&run.command);
    if target != Target::Image {
        // Its mounts are unknown: its paths are judged as written.
        let cwd = run.workdir.clone().unwrap_or_else(|| ELSEWHERE.to_string());
        return Some(Inside {
            text,
            cwd: place::normalise(&cwd),
            place: where_,
            remote: None,
        });
    }
    let seen = |path: &str| seen_from_host(path, &run.mounts, place);
    // Its own working folder, unless `-w` names one (the image's is unknown).
    let cwd = match &run.workdir {
        Some(dir) => seen(dir)
            .split(' ')
            .next()
            .unwrap_or(CONTAINER_ROOT)
            .to_string(),
        None => CONTAINER_ROOT.to_string(),
    };
    Some(Inside {
        text: rewrite_paths(&text, &seen),
        cwd,
        place: where_,
        remote: None,
    })
}

/// `kubectl exec [options] POD [--] CMD…`.
fn pod(args: &[String]) -> Option<Inside> {
    const VALUED: &[&str] = &[
        "-c",
        "--container",
        "-n",
        "--namespace",
        "--context",
        "--kubeconfig",
        "-f",
        "--filename",
        "--pod-running-timeout",
        "-s",
        "--server",
        "--cluster",
        "--user",
        "--token",
        "--as",
        "--request-timeout",
    ];
    let mut i = 0;
    let mut pod = None;
    while let Some(arg) = args.get(i) {
        if arg == "--" {
            i += 1;
            break;
        }
        if VALUED.contains(&arg.as_str()) {
            i += 2;
            continue;
        }
        if arg.starts_with('-') {
            i += 1;
            continue;
        }
        if pod.is_none() {
            pod = Some(arg.clone());
            i += 1;
            continue;
        }
        break;
    }
    let pod = pod?;
    let command = args.get(i..).unwrap_or(&[]);
    if command.is_empty() {
        return None;
    }
    let name = pod.rsplit('/').next().unwrap_or(&pod).to_string();
    // A shell given nothing to run is a terminal on the pod, as `ssh host` is on a host: what
    // is typed there is not in the command.
    let terminal = command.split_first().is_some_and(|(shell, flags)| {
        catalogue::is(shell, Class::Shell)
            && flags
                .iter()
                .all(|f| f.starts_with('-') && !f.contains('c') && !f.contains('s'))
    });
    Some(Inside {
        text: words_as_text(command),
        cwd: ELSEWHERE.to_string(),
        place: format!("in the pod {name}"),
        remote: (!terminal).then_some(name),
    })
}

/// ansible's modules that run their arguments as a command.
#[rustfmt::skip]
const ANSIBLE_RUNS: &[&str] = &[
    "ansible.builtin.command", "ansible.builtin.raw", "ansible.builtin.shell", "command", "raw", "shell",
];

/// `ansible PATTERN -m shell -a CMD`: the command runs on the hosts the pattern names (here
/// for `localhost` or `-c local`); `-b` runs it as the administrator.
fn ansible(args: &[String], place: Place<'_>) -> Option<Inside> {
    const VALUED: &[&str] = &[
        "-a",
        "--args",
        "-m",
        "--module-name",
        "-i",
        "--inventory",
        "--inventory-file",
        "-u",
        "--user",
        "-c",
        "--connection",
        "-e",
        "--extra-vars",
        "-f",
        "--forks",
        "-l",
        "--limit",
        "-T",
        "--timeout",
        "-t",
        "--tree",
        "-B",
        "--background",
        "-P",
        "--poll",
        "-M",
        "--module-path",
        "--private-key",
        "--key-file",
        "--become-method",
        "--become-user",
        "--vault-password-file",
        "--vault-id",
    ];
    let mut module = "command".to_string();
    let mut text = None;
    let mut pattern = None;
    let mut connection = String::new();
    let mut become_root = false;
    let mut i = 0;
    while let Some(arg) = args.get(i) {
        let (name, attached) = arg
            .split_once('=')
            .map_or((arg.as_str(), None), |(n, v)| (n, Some(v.to_string())));
        if name.starts_with("--") && attached.is_some() || VALUED.contains(&arg.as_str()) {
            let value = attached
                .or_else(|| args.get(i + 1).cloned())
                .unwrap_or_default();
            match name {
                "-m" | "--module-name" => module = value,
                "-a" | "--args" => text = Some(value),
                "-c" | "--connection" => connection = value,
                _ => {}
            }
            i += if arg.contains('=') && arg.starts_with("--") {
                1
            } else {
                2
            };
            continue;
        }
        match arg.as_str() {
            "-C" | "--check" | "--list-hosts" | "--syntax-check" => return None,
            "-b" | "--become" => become_root = true,
            _ if arg.starts_with('-') => {}
            _ if pattern.is_none() => pattern = Some(arg.clone()),
            _ => {}
        }
        i += 1;
    }
    let text = text.filter(|t| !t.trim().is_empty())?;
    if !ANSIBLE_RUNS.contains(&module.as_str()) {
        return None;
    }
    let pattern = pattern.unwrap_or_else(|| "all".to_string());
    let here = connection == "local" || matches!(pattern.as_str(), "localhost" | "127.0.0.1");
    let text = if become_root {
        format!("sudo {text}")
    } else {
        text
    };
    Some(Inside {
        text,
        cwd: if here {
            place.cwd.to_string()
        } else {
            ELSEWHERE.to_string()
        },
        place: if here {
            "on this machine, through ansible".to_string()
        } else {
            format!("on the hosts {pattern}")
        },
        remote: (!here).then_some(pattern),
    })
}

/// Salt's functions that run their argument as a shell command on the minions.
const SALT_RUNS: &[&str] = &["cmd.run", "cmd.run_all", "cmd.run_stdout", "cmd.shell"];

/// A command run on many hosts at once: `salt TARGET cmd.run TEXT` (`salt-ssh` too),
/// `pdsh -w HOSTS TEXT`, `pssh -h FILE TEXT`, `clush -w HOSTS TEXT`. The text is read as a
/// line run on someone else's systems, as ansible's `-m shell -a` is.
fn fleet(program: &str, args: &[String]) -> Option<Inside> {
    // Options whose value is the hosts (kept for the reason), and other valued options.
    let (hosts_options, valued): (&[&str], &[&str]) = match program {
        "salt" | "salt-ssh" => (
            &[],
            &[
                "-t",
                "--timeout",
                "-c",
                "--config-dir",
                "--out",
                "--log-level",
                "-b",
                "--batch-size",
                "--roster-file",
                "--priv",
            ],
        ),
        "pdsh" => (&["-w"], &["-x", "-l", "-R", "-f", "-t", "-u", "-g", "-X"]),
        "pssh" | "parallel-ssh" => (
            &["-h", "-H", "--hosts", "--host"],
            &[
                "-l",
                "--user",
                "-p",
                "--par",
                "-o",
                "--outdir",
                "-e",
                "--errdir",
                "-t",
                "--timeout",
                "-O",
                "--option",
                "-x",
                "--extra-args",
                "-X",
            ],
        ),
        "clush" => (
            &["-w", "-g", "--group"],
            &[
                "-x",
                "-X",
                "-l",
                "-f",
                "--fanout",
                "-t",
                "-u",
                "-o",
                "--options",
            ],
        ),
        _ => return None,
    };
    let mut hosts = None;
    let mut operands: Vec<&str> = Vec::new();
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        if hosts_options.contains(&arg.as_str()) {
            hosts = rest.next().map(String::as_str);
        } else if valued.contains(&arg.as_str()) {
            rest.next();
        } else if arg == "--" {
            operands.extend(rest.by_ref().map(String::as_str));
        } else if !arg.starts_with('-') {
            // Options end at the first operand: the rest is the command's own words
            // (`pdsh -w h rm -rf ~`).
            operands.push(arg);
            operands.extend(rest.by_ref().map(String::as_str));
        }
    }
    let (hosts, text) = if program.starts_with("salt") {
        // `salt TARGET FUNCTION ARGS…`: only a function that runs a command.
        let [target, function, text @ ..] = operands.as_slice() else {
            return None;
        };
        if !SALT_RUNS.contains(function) {
            return None;
        }
        (*target, text.join(" "))
    } else {
        (hosts.unwrap_or("its hosts"), operands.join(" "))
    };
    if text.trim().is_empty() {
        return None;
    }
    Some(Inside {
        text,
        cwd: ELSEWHERE.to_string(),
        place: format!("on the hosts {hosts}"),
        remote: Some(hosts.to_string()),
    })
}

/// An image's name without its registry, tag or digest (`ghcr.io/a/b:1.2` → `b`).
fn image_name(image: &str) -> String {
    let last = image.rsplit('/').next().unwrap_or(image);
    let name = last.split(['@', ':']).next().unwrap_or(last);
    name.to_string()
}

/// Words as shell text that reads back as the same words.
fn words_as_text(words: &[String]) -> String {
    let quoted: Vec<String> = words.iter().map(|w| quote(w)).collect();
    quoted.join(" ")
}

fn quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./=:,+@%~{}^".contains(&b));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// A container's absolute path as the host sees it: under a mount, the mounted folder; a
/// folder holding mounts, every folder mounted under it (joined by blanks); any other path, the
/// container's own (under [`CONTAINER_ROOT`]). Devices and the kernel's folders are shared.
fn seen_from_host(path: &str, mounts: &[Mount], place: Place<'_>) -> String {
    let candidates: Vec<String> = if let Some(rest) = path.strip_prefix('~') {
        // `~` is the host's home when the host's shell expands it, the container's (`/root`)
        // when the container's does.
        vec![format!("{}{rest}", place.home), format!("/root{rest}")]
    } else {
        vec![path.to_string()]
    };
    for path in &candidates {
        let path = place::normalise(path);
        if ["/dev", "/proc", "/sys"]
            .iter()
            .any(|dir| place::under(&path, dir))
        {
            return path;
        }
        let under = mounts
            .iter()
            .filter(|m| place::under(&path, &m.at))
            .max_by_key(|m| m.at.len());
        if let Some(m) = under {
            let rest = path.get(m.at.len()..).unwrap_or("");
            return place::normalise(&format!("{}/{rest}", m.host));
        }
        let held: Vec<&str> = mounts
            .iter()
            .filter(|m| place::under(&m.at, &path))
            .map(|m| m.host.as_str())
            .collect();
        if !held.is_empty() {
            return held.join(" ");
        }
    }
    let own = candidates.first().map(String::as_str).unwrap_or(path);
    place::normalise(&format!("{CONTAINER_ROOT}/{own}"))
}

/// `text` with every absolute path (and `~`, `$HOME`) replaced by what `seen` makes of it.
/// A path starts after a blank, a quote, `=`, `(`, `;`, `|`, `&`, `<` or `>`, and ends at one.
fn rewrite_paths(text: &str, seen: &dyn Fn(&str) -> String) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let ends = |b: u8| b" \t\n'\"`;|&()<>".contains(&b);
    let starts_after = |b: u8| b" \t\n'\"`=(;|&<>".contains(&b);
    let mut last = 0;
    while i < bytes.len() {
        let boundary = i == 0 || bytes.get(i - 1).is_some_and(|b| starts_after(*b));
        let rest = text.get(i..).unwrap_or("");
        let home = ["${HOME}", "$HOME"].iter().find(|v| rest.starts_with(*v));
        let starts = boundary && (rest.starts_with('/') || rest.starts_with('~') || home.is_some());
        if !starts {
            i += 1;
            continue;
        }
        let len = rest.bytes().position(ends).unwrap_or(rest.len());
        let token = rest.get(..len).unwrap_or("");
        let token = match home {
            Some(var) => format!("~{}", token.get(var.len()..).unwrap_or("")),
            None => token.to_string(),
        };
        let mapped = seen(&token);
        // A glob stays one (`rm -rf /h/*` with `~` mounted at `/h` is `rm -rf ~/*`): it
        // changes no command's shape, as a quote or a `$` could.
        let plain = mapped
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b" -_./=:,+@%~{}^*?[]".contains(&b));
        out.push_str(text.get(last..i).unwrap_or(""));
        if plain {
            out.push_str(&mapped);
        } else {
            out.push_str(CONTAINER_ROOT);
        }
        i += len.max(1);
        last = i;
    }
    out.push_str(text.get(last..).unwrap_or(""));
    out
}

/// A container given the machine itself, and a pod's command that changes the cluster.
pub(super) fn judge(cmd: &Command, scan: &mut Scan<'_>) {
    let program = cmd.program();
    if !catalogue::is(program, Class::Runs) {
        return;
    }
    let args = cmd.args();
    match subcommand(program, args) {
        Some((at, Kind::Container(row))) if row.then == Target::Image => {
            let Some(run) = read_run(args.get(at..).unwrap_or(&[]), scan.place) else {
                return;
            };
            // The home folder (or a folder it is in) mounted whole: whatever the image runs
            // reads the keys in it, as the home folder packed does (`-v ~:/data`). So does a
            // key folder or file mounted alone, read-only or not (`-v ~/.ssh:/root/.ssh:ro`):
            // the image's code, which nobody here read, has them.
            let home = scan.place.home.trim_end_matches('/');
            if let Some(mount) = run.mounts.iter().find(|m| {
                (place::under(home, &m.host) && !crate::law::paths::is_root_like(&m.host))
                    || super::paths::is_key_path(&m.host, scan.place.home)
            }) {
                let image = image_name(&run.name);
                let whole = if place::under(home, &mount.host) {
                    " whole"
                } else {
                    ""
                };
                super::net::key_leaves(
                    scan,
                    &format!("mount {}{whole} into the container {image}", mount.host),
                );
            }
            if let Some(what) = run.host {
                let image = image_name(&run.name);
                scan.add(
                    Risk::new(
                        RuleId::ContainerHost,
                        Harm::Severe,
                        true,
                        format!("run the container {image} with {what}, which gives it this machine itself"),
                    )
                    .wish(Wish::new(Act::Run).naming(Name::one(&image))),
                );
            }
        }
        Some((_, Kind::Pod(_))) => scan.network = true,
        _ => {}
    }
}

/// Adds what was found inside a container, a pod or on ansible's hosts: its risks, said to
/// be there, and for a pod or remote hosts, a change on someone else's systems.
pub(super) fn found_inside(inside: &Inside, found: super::Assessment, scan: &mut Scan<'_>) {
    scan.changes |= found.changes;
    scan.network |= found.network;
    for mut risk in found.risks {
        risk.reason = format!("{} ({})", risk.reason, inside.place);
        scan.add(risk);
    }
    if inside.remote.is_some() {
        scan.network = true;
    }
    if let Some(remote) = &inside.remote
        && found.changes
    {
        let mut names = vec![remote.to_lowercase()];
        if let Some((stem, _)) = remote.split_once('-') {
            names.push(stem.to_lowercase());
        }
        scan.add(
            Risk::new(
                RuleId::InfraExec,
                Harm::Severe,
                true,
                format!("run a command that changes things {}, someone else's systems, which warden can't take back", inside.place),
            )
            .way_out()
            .wish(Wish::new(Act::Run).naming(Name::AnyOf(names))),
        );
    }
}

/// The program a runner runs (`uvx x`, `pipx run x`), as a command
/// of its own, judged by every rule for commands.
pub(super) fn named_program(cmd: &Command) -> Option<Command> {
    let (_, row) = runner(cmd)?;
    let args = cmd.args();
    let skip = row.words.len();
    let rest: Vec<String> = args
        .iter()
        .skip(skip)
        .skip_while(|a| a.starts_with('-'))
        .cloned()
        .collect();
    if rest.is_empty() {
        return None;
    }
    Some(cmd.with_words(rest))
}

/// The row of `RUNS_NAMED` that reads this command, and where it is in the table: the longest
/// that matches.
fn runner(cmd: &Command) -> Option<(usize, &'static Row<()>)> {
    let program = cmd.program();
    if !catalogue::is(program, Class::Runs) {
        return None;
    }
    let args = cmd.args();
    RUNS_NAMED
        .iter()
        .enumerate()
        .filter(|(_, row)| {
            row.program == program
                && row.words.iter().zip(args).all(|(want, got)| want == got)
                && row.words.len() <= args.len()
        })
        .max_by_key(|(_, row)| row.words.len())
}

/// The tables' rows, for the one test that walks every table's examples (`rows.rs`).
#[cfg(test)]
pub(super) fn walked() -> Vec<super::rows::Walked> {
    use super::rows::rows_of;
    rows_of("runs::CONTAINER_RUNS", CONTAINER_RUNS, runs_in_container)
        .chain(rows_of("runs::POD_RUNS", POD_RUNS, runs_in_pod))
        .chain(rows_of("runs::RUNS_NAMED", RUNS_NAMED, runs_named))
        .collect()
}

/// Does container row `at` judge the line: it reads one of the line's commands, and what that
/// runs is found, said to be in the container (an image's or a running one) or the service?
#[cfg(test)]
fn runs_in_container(at: usize, line: &crate::shell::Line, found: &super::Assessment) -> bool {
    let Some(want) = CONTAINER_RUNS.get(at) else {
        return false;
    };
    let picked = line.commands.iter().any(|cmd| {
        matches!(subcommand(cmd.program(), cmd.args()),
            Some((_, Kind::Container(row))) if std::ptr::eq(row, want))
    });
    let place = match want.then {
        Target::Image | Target::Running => "(in the container ",
        Target::Service => "(in the service ",
    };
    picked && found.risks.iter().any(|risk| risk.reason.contains(place))
}

/// Does pod row `at` judge the line: it reads one of the line's commands, and what that runs
/// changes the cluster (`infra.exec`)?
#[cfg(test)]
fn runs_in_pod(at: usize, line: &crate::shell::Line, found: &super::Assessment) -> bool {
    let Some(want) = POD_RUNS.get(at) else {
        return false;
    };
    let picked = line.commands.iter().any(|cmd| {
        matches!(subcommand(cmd.program(), cmd.args()),
            Some((_, Kind::Pod(row))) if std::ptr::eq(row, want))
    });
    picked
        && found
            .risks
            .iter()
            .any(|risk| risk.rule == RuleId::InfraExec && risk.reason.contains("in the pod "))
}

/// Does runner row `at` judge the line: it reads one of the line's commands, and every rule the
/// program it names fires, judged as a line of its own, is in the line's assessment?
#[cfg(test)]
fn runs_named(at: usize, line: &crate::shell::Line, found: &super::Assessment) -> bool {
    line.commands.iter().any(|cmd| {
        let picked = runner(cmd).is_some_and(|(index, _)| index == at);
        let Some(named) = named_program(cmd).filter(|_| picked) else {
            return false;
        };
        let (_, alone) = super::rows::judged(&words_as_text(&named.words));
        !alone.risks.is_empty()
            && alone
                .risks
                .iter()
                .all(|risk| found.risks.iter().any(|f| f.rule == risk.rule))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::CATALOGUE;
    use crate::facts::FakeFacts;

    /// One example for every program the catalogue says runs others: how it is made to run
    /// `rm -rf ~` (or a home folder mounted and wiped).
    #[rustfmt::skip]
    const RUNS_EXAMPLES: &[(&str, &str)] = &[
        ("abduco", "abduco -c work rm -rf ~"),
        ("ansible", "ansible localhost -m shell -a 'rm -rf ~'"),
        ("apt", "apt update -o APT::Update::Pre-Invoke::='rm -rf ~'"),
        ("apt-get", "apt-get update -o APT::Update::Post-Invoke-Success::='rm -rf ~'"),
        ("arch", "arch -x86_64 rm -rf ~"),
        ("aria2c", "aria2c --on-download-complete='rm -rf ~' https://x.example/f"),
        ("asdf", "asdf exec rm -rf ~"),
        ("at", "at now <<< 'rm -rf ~'"),
        ("aws-vault", "aws-vault exec prod -- rm -rf ~"),
        ("batch", "echo 'rm -rf ~' | batch"),
        ("beesu", "beesu -c 'rm -rf ~'"),
        ("berglas", "berglas exec -- rm -rf ~"),
        ("bundle", "bundle exec rm -rf ~"),
        ("bunx", "bunx rm -rf ~"),
        ("busctl", "busctl call org.freedesktop.systemd1 /org/freedesktop/systemd1 org.freedesktop.systemd1.Manager StartTransientUnit 'ssa(sv)a(sa(sv))' x.service fail 1 ExecStart 'a(sasb)' 1 /bin/sh 3 /bin/sh -c 'rm -rf ~' false 0"),
        ("bwrap", "bwrap --bind / / --dev /dev rm -rf ~"),
        ("capsh", "capsh --drop=cap_net_raw -- -c 'rm -rf ~'"),
        ("cargo", "cargo watch -s 'rm -rf ~'"),
        ("catchsegv", "catchsegv rm -rf ~"),
        ("chamber", "chamber exec app -- rm -rf ~"),
        ("clush", "clush -w node[1-4] 'rm -rf ~'"),
        ("cmd", "cmd /c \"rd /s /q %USERPROFILE%\""),
        ("conda", "conda run -n base rm -rf ~"),
        ("crontab", "echo '@reboot rm -rf ~' | crontab -"),
        ("daemonize", "daemonize -c /tmp /bin/rm -rf ~"),
        ("dbus-launch", "dbus-launch --exit-with-session rm -rf ~"),
        ("dbus-send", "dbus-send --session --dest=org.kde.klauncher5 /KLauncher org.kde.KLauncher.exec_blind string:/bin/sh array:string:-c,'rm -rf ~'"),
        ("direnv", "direnv exec . rm -rf ~"),
        ("distrobox", "distrobox enter box -- rm -rf ~"),
        ("docker", "docker run --rm -v ~:/h alpine rm -rf /h"),
        ("docker-compose", "docker-compose exec web rm -rf ~"),
        ("dotenv", "dotenv -e .env -- rm -rf ~"),
        ("dotenvx", "dotenvx run -f .env -- rm -rf ~"),
        ("dtach", "dtach -n /tmp/s rm -rf ~"),
        ("ed", "ed notes.txt <<< '!rm -rf ~'"),
        ("envchain", "envchain aws rm -rf ~"),
        ("expect", "expect -c 'spawn rm -rf ~'"),
        ("fakechroot", "fakechroot rm -rf ~"),
        ("fd", "fd -x rm -rf ~"),
        ("find", "find . -exec rm -rf ~ \\;"),
        ("flatpak", "flatpak run --command=sh org.example.App -c 'rm -rf ~'"),
        ("flatpak-spawn", "flatpak-spawn --host rm -rf ~"),
        ("gdb", "gdb -batch -ex 'shell rm -rf ~'"),
        ("gdbus", "gdbus call --session --dest org.kde.klauncher5 --object-path /KLauncher --method org.kde.KLauncher.exec_blind /bin/sh \"['-c', 'rm -rf ~']\""),
        ("git", "git -c core.pager='rm -rf ~' log"),
        ("gksu", "gksu -u root -k 'rm -rf ~'"),
        ("gksudo", "gksudo 'rm -rf ~'"),
        ("herbstclient", "herbstclient spawn rm -rf ~"),
        ("hyperfine", "hyperfine --prepare 'rm -rf ~' true"),
        ("hyprctl", "hyprctl dispatch exec rm -rf ~"),
        ("i3-msg", "i3-msg 'exec rm -rf ~'"),
        ("infisical", "infisical run --env=prod -- rm -rf ~"),
        ("ip", "ip netns exec blue rm -rf ~"),
        ("kdesu", "kdesu -c 'rm -rf ~'"),
        ("kdesudo", "kdesudo -u root rm -rf ~"),
        ("kubectl", "kubectl exec web -- rm -rf ~"),
        ("launchctl", "launchctl submit -l x -- rm -rf ~"),
        ("less", "less '+!rm -rf ~' f"),
        ("lxc", "lxc exec c -- rm -rf ~"),
        ("lxqt-sudo", "lxqt-sudo rm -rf ~"),
        ("lxsudo", "lxsudo rm -rf ~"),
        ("man", "man -P 'rm -rf ~' ls"),
        ("mise", "mise exec -- rm -rf ~"),
        ("mpirun", "mpirun -n 2 rm -rf ~"),
        ("nerdctl", "nerdctl run --rm -v $HOME:/h alpine rm -rf /h"),
        ("niceload", "niceload -l 4 rm -rf ~"),
        ("niri", "niri msg action spawn -- rm -rf ~"),
        ("nix", "nix develop -c rm -rf ~"),
        ("nix-shell", "nix-shell -p hello --run 'rm -rf ~'"),
        ("nodemon", "nodemon --exec 'rm -rf ~'"),
        ("npm", "npm exec -- rm -rf ~"),
        ("npx", "npx rm -rf ~"),
        ("nq", "nq rm -rf ~"),
        ("oc", "oc exec web -- rm -rf ~"),
        ("parallel-ssh", "parallel-ssh -h hosts.txt -i 'rm -rf ~'"),
        ("pdm", "pdm run rm -rf ~"),
        ("pdsh", "pdsh -w web[1-3] 'rm -rf ~'"),
        ("pee", "cat x | pee 'rm -rf ~' cat"),
        ("pfexec", "pfexec rm -rf ~"),
        ("pipenv", "pipenv run rm -rf ~"),
        ("pipx", "pipx run rm -rf ~"),
        ("please", "please -u root rm -rf ~"),
        ("pnpm", "pnpm exec rm -rf ~"),
        ("pnpx", "pnpx rm -rf ~"),
        ("podman", "podman run --rm -v ~:/root alpine sh -c 'rm -rf ~'"),
        ("podman-compose", "podman-compose run web rm -rf ~"),
        ("poetry", "poetry run rm -rf ~"),
        ("proot", "proot -r /srv/root -b /home rm -rf ~"),
        ("pssh", "pssh -h hosts.txt 'rm -rf ~'"),
        ("pueue", "pueue add -- rm -rf ~"),
        ("pyenv", "pyenv exec rm -rf ~"),
        ("python", "python3 -c \"import shutil, os; shutil.rmtree(os.path.expanduser('~'))\""),
        ("qdbus", "qdbus org.kde.klauncher5 /KLauncher exec_blind /bin/sh '(' -c 'rm -rf ~' ')'"),
        ("rbenv", "rbenv exec rm -rf ~"),
        ("retry", "retry -t 3 -- rm -rf ~"),
        ("riverctl", "riverctl spawn 'rm -rf ~'"),
        ("rlwrap", "rlwrap rm -rf ~"),
        ("rsync", "rsync -e 'rm -rf ~' a h:b"),
        ("ruby", "ruby -run -e rm -- -rf ~"),
        ("salt", "salt '*' cmd.run 'rm -rf ~'"),
        ("salt-ssh", "salt-ssh 'web*' cmd.run 'rm -rf ~'"),
        ("sbatch", "sbatch --wrap 'rm -rf ~'"),
        ("schroot", "schroot -c jammy -- rm -rf ~"),
        ("scp", "scp -S 'rm -rf ~' a h:b"),
        ("screen", "screen -dm rm -rf ~"),
        ("script", "script -qc 'rm -rf ~' /dev/null"),
        ("sem", "sem -j 2 rm -rf ~"),
        ("sftp", "sftp -o ProxyCommand='rm -rf ~' h"),
        ("sg", "sg wheel 'rm -rf ~'"),
        ("sops", "sops exec-env secrets.env 'rm -rf ~'"),
        ("srun", "srun -n 1 rm -rf ~"),
        ("ssh", "ssh -o ProxyCommand='rm -rf ~' h"),
        ("su", "su -c 'rm -rf ~'"),
        ("summon", "summon -p keyring rm -rf ~"),
        ("swaymsg", "swaymsg exec rm -rf ~"),
        ("systemd-inhibit", "systemd-inhibit --why=backup rm -rf ~"),
        ("tar", "tar -xf a.tar --to-command='rm -rf ~'"),
        ("teller", "teller run -- rm -rf ~"),
        ("tmux", "tmux new-session -d 'rm -rf ~'"),
        ("toolbox", "toolbox run -c dev rm -rf ~"),
        ("uv", "uv run rm -rf ~"),
        ("uvx", "uvx rm -rf ~"),
        ("vim", "vim -c ':!rm -rf ~'"),
        ("volta", "volta run --node 20 rm -rf ~"),
        ("watchman-make", "watchman-make -p '**/*' --run 'rm -rf ~'"),
        ("with-contenv", "with-contenv rm -rf ~"),
        ("xdg-su", "xdg-su -c 'rm -rf ~'"),
        ("xvfb-run", "xvfb-run -a rm -rf ~"),
        ("yarn", "yarn exec rm -rf ~"),
        ("youtube-dl", "youtube-dl --exec 'rm -rf ~' https://example.com/v"),
        ("yt-dlp", "yt-dlp --exec 'rm -rf ~' https://example.com/v"),
        ("zellij", "zellij run --floating -- rm -rf ~"),
        ("zip", "zip z.zip f -TT 'rm -rf ~'"),
    ];

    #[test]
    fn every_program_that_runs_others_is_read() {
        let runs: Vec<&str> = CATALOGUE
            .iter()
            .filter(|p| p.is(Class::Runs))
            .map(|p| p.name)
            .collect();
        let named: Vec<&str> = RUNS_EXAMPLES.iter().map(|(name, _)| *name).collect();
        assert_eq!(
            named, runs,
            "one example for each program of Class::Runs, in catalogue order"
        );
        let facts = FakeFacts::repo(&[]);
        for (name, example) in RUNS_EXAMPLES {
            let found = super::super::assess(example, "/home/user/app", &facts);
            assert!(
                found.risks.iter().any(|r| r.rule == "critical.wipe"),
                "{name}: what {example:?} runs is not read: {:?}",
                found.risks
            );
        }
    }

    #[test]
    fn the_law_s_tables_name_programs_that_run_others() {
        let names = CONTAINER_RUNS
            .iter()
            .map(|row| row.program)
            .chain(POD_RUNS.iter().map(|row| row.program))
            .chain(RUNS_NAMED.iter().map(|row| row.program));
        for name in names {
            assert!(
                catalogue::is(name, Class::Runs),
                "{name} must be Class::Runs"
            );
        }
        for table in [
            CONTAINER_RUNS
                .iter()
                .map(|row| (row.program, row.words))
                .collect::<Vec<_>>(),
            POD_RUNS
                .iter()
                .map(|row| (row.program, row.words))
                .collect(),
            RUNS_NAMED
                .iter()
                .map(|row| (row.program, row.words))
                .collect(),
        ] {
            for pair in table.windows(2) {
                if let [a, b] = pair {
                    assert!(a < b, "{a:?} must come before {b:?}");
                }
            }
        }
    }

    #[test]
    fn a_container_s_paths_are_seen_from_the_host() {
        let place = Place::new("/home/user/app", "/home/user");
        let mounts = vec![
            Mount {
                host: "/home/user".to_string(),
                at: "/h".to_string(),
                read_only: false,
            },
            Mount {
                host: "/home/user/app".to_string(),
                at: "/h/app".to_string(),
                read_only: false,
            },
            Mount {
                host: "/srv/data".to_string(),
                at: "/data".to_string(),
                read_only: false,
            },
        ];
        for (path, want) in [
            ("/h", "/home/user"),
            ("/h/.ssh/id_rsa", "/home/user/.ssh/id_rsa"),
            ("/h/app/src", "/home/user/app/src"),
            ("/", "/home/user /home/user/app /srv/data"),
            ("/usr/bin/x", "/tmp/container/usr/bin/x"),
            ("/dev/tcp/1.2.3.4/80", "/dev/tcp/1.2.3.4/80"),
            ("~", "/tmp/container/home/user"),
        ] {
            assert_eq!(seen_from_host(path, &mounts, place), want, "{path}");
        }
        let seen = |p: &str| seen_from_host(p, &mounts, place);
        assert_eq!(
            rewrite_paths("sh -c 'rm -rf /h/x $HOME' >/data/log", &seen),
            "sh -c 'rm -rf /home/user/x /tmp/container/home/user' >/srv/data/log"
        );
    }
}
