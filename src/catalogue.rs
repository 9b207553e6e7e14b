//! One program catalogue: every program the law knows, one sorted line each, with what it is
//! (its classes). Every rule asks the catalogue; no rule keeps a list of programs of its own.
//!
//! A program is resolved once, from the word the shell reader unquoted: its basename (after
//! `/` or `\`), lower case, a trailing `.exe` taken off, and, when that name isn't a line of
//! its own, a version suffix taken off (`python3.12`, `perl5.36`, `lua5.1` → `python`, `perl`,
//! `lua`). A line may stand for a family (`gawk`, `mawk` → `awk`; `nodejs` → `node`; `pypy3` →
//! `python`): [`name`] answers the family's name, and its classes are the family's.
//!
//! What the catalogue doesn't name is still judged: by the rules that read any program
//! (a download piped to it, a key in its arguments) and by its own words (`law::command::words`).

/// What a program is. A program may be several (`curl` downloads and is a network client).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    /// Runs shell text given with `-c`, on its standard input or in a here-document.
    Shell,
    /// Runs a file (or its standard input) as shell text in this shell: `source`, `.`.
    Source,
    /// Runs code in a language of its own (see [`Code`]).
    Interpreter,
    /// Runs the command written after it (`sudo`, `env`, `nohup`, `timeout`, `xargs`,
    /// `parallel`, `setsid`, `systemd-run`, `flock`). The shell reader takes every one off, or
    /// reads what it runs with a holder (`xargs`, `parallel`).
    Wrapper,
    /// Runs another program named in its arguments, by a subcommand, an option, a setting or
    /// its input (`find -exec`, `ssh -o ProxyCommand=…`, `docker exec`, `kubectl exec`,
    /// `vim -c '!…'`, `git -c core.pager=…`, `at`). The shell reader or the law reads what it runs.
    Runs,
    /// Runs a project's own scripts, whatever follows (`make`, `npm run`, `just`).
    ProjectRunner,
    /// Fetches what a URL names.
    Downloader,
    /// Talks to another machine: sends, receives, or runs commands there.
    Network,
    /// Sends mail.
    Mail,
    /// Wires a program it is given to a connection (`socat`-like relays).
    Relay,
    /// Serves a folder or files to whoever connects (`http-server`, `miniserve`).
    Server,
    /// Keeps secrets, or prints one with a subcommand (`vault`, `pass`, `gh auth token`).
    Secrets,
    /// Installs, upgrades or removes packages.
    Packages,
    /// Starts, stops or enables services.
    Services,
    /// Changes the machine itself: mounts, users, the clock, the firewall, processes.
    System,
    /// A system tool whose name is its act: given an operand or an option other than one
    /// that lists, it does it (`kill 1234`, `mount /dev/sdb1 /mnt`, `useradd bob`,
    /// `iptables -A …`). A system tool without it acts only with a verb (`ip addr add`,
    /// `hostnamectl set-hostname`) and otherwise shows (`ip addr`, `ifconfig eth0`).
    Acts,
    /// Keeps a repository's history (git): its own rules judge what reaches others and
    /// what discards work; its other subcommands change the work folder, which Undo keeps.
    VersionControl,
    /// A cloud, cluster or hosted service's CLI: its resources are remote and lasting.
    Cloud,
    /// A database client.
    Database,
    /// Runs and builds containers.
    Container,
    /// Deletes files.
    Remover,
    /// Turns a blob back into bytes (`base64 -d`).
    Decoder,
    /// Changes files where they are: copies, moves, links, modes, owners (`cp`, `mv`,
    /// `chmod`, `ln`, `touch`). The path rules judge it by where it writes.
    Files,
    /// A shell keyword or builtin: the shell's own state, not a program.
    Builtin,
    /// Only reads, given no option that writes (checked per program by the rules).
    ReadOnly,
    /// An editor or pager whose own commands can run a shell (`:!`, `!`).
    Editor,
}

/// The language an interpreter's code is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Language {
    AppleScript,
    Awk,
    Elixir,
    Groovy,
    Java,
    JavaScript,
    Julia,
    Lua,
    Perl,
    Php,
    PowerShell,
    Python,
    R,
    Ruby,
    Tcl,
}

/// How an interpreter takes code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Code {
    pub language: Language,
    /// The options whose value is code (`-c`, `-e`, `--eval`). `""` means the first operand is
    /// the code (awk's program).
    pub inline: &'static [&'static str],
    /// Reads code from its standard input when given no file (`curl … | python3`).
    pub stdin: bool,
}

/// One line of the catalogue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Program {
    pub name: &'static str,
    /// The family this name stands for (`gawk` → `awk`), if another line.
    pub of: Option<&'static str>,
    pub classes: &'static [Class],
    pub code: Option<Code>,
}

impl Program {
    /// Is this program of `class`?
    pub fn is(&self, class: Class) -> bool {
        self.classes.contains(&class)
    }
}

const fn p(name: &'static str, classes: &'static [Class]) -> Program {
    Program {
        name,
        of: None,
        classes,
        code: None,
    }
}

/// A name that stands for another line's program (`gawk` → `awk`).
const fn of(name: &'static str, family: &'static str) -> Program {
    Program {
        name,
        of: Some(family),
        classes: &[],
        code: None,
    }
}

const fn code(
    name: &'static str,
    classes: &'static [Class],
    language: Language,
    inline: &'static [&'static str],
    stdin: bool,
) -> Program {
    Program {
        name,
        of: None,
        classes,
        code: Some(Code {
            language,
            inline,
            stdin,
        }),
    }
}

use Class::*;
use Language as L;

const SHELL: &[Class] = &[Shell];
const INTERP: &[Class] = &[Interpreter];
const WRAP: &[Class] = &[Wrapper];
const PROJECT: &[Class] = &[ProjectRunner];
const NET: &[Class] = &[Network];
const PKG: &[Class] = &[Packages];
const CLOUD: &[Class] = &[Cloud];
const DB: &[Class] = &[Database];
const SYS: &[Class] = &[System];
const SVC: &[Class] = &[Services, System];
const ACTS: &[Class] = &[System, Acts];
const RO: &[Class] = &[ReadOnly];
const BUILTIN: &[Class] = &[Builtin];
const MAIL: &[Class] = &[Mail, Network];
const RELAY: &[Class] = &[Relay, Network];
const SECRET: &[Class] = &[Secrets];
const DL: &[Class] = &[Downloader, Network];
const DECODE: &[Class] = &[Decoder];
const EDIT: &[Class] = &[Editor, Runs];
const SERVE: &[Class] = &[Server];
const FILES: &[Class] = &[Files];

/// Every program the law knows, sorted by name (checked by a test).
#[rustfmt::skip]
pub const CATALOGUE: &[Program] = &[
    p(".", &[Source]),
    p("[", RO),
    p("ab", NET),
    p("ack", RO),
    p("adduser", ACTS),
    p("ag", RO),
    p("alias", BUILTIN),
    p("ansible", &[Cloud, Runs]),
    p("ansible-playbook", CLOUD),
    p("ant", PROJECT),
    p("apk", PKG),
    p("apt", &[Packages, Runs]),
    p("apt-get", &[Packages, Runs]),
    p("arch", RO),
    p("aria2c", DL),
    p("asdf", PKG),
    p("ash", SHELL),
    p("at", &[ProjectRunner, System, Runs]),
    code("awk", &[Interpreter, ReadOnly], L::Awk, &[""], false),
    p("aws", &[Cloud, Secrets]),
    p("az", &[Cloud, Secrets]),
    p("base32", DECODE),
    p("base64", DECODE),
    p("basename", RO),
    p("bash", SHELL),
    p("bat", RO),
    p("batch", &[ProjectRunner, System, Runs]),
    p("bind", BUILTIN),
    p("blkid", RO),
    p("bmake", PROJECT),
    p("bq", &[Database, Cloud]),
    p("brew", PKG),
    p("builtin", &[Builtin, Wrapper]),
    code("bun", &[Interpreter, Packages], L::JavaScript, &["-e", "--eval", "-p", "--print"], true),
    p("bunx", &[Runs, ProjectRunner]),
    p("busybox", WRAP),
    p("bw", SECRET),
    p("cabal", PKG),
    p("caddy", SERVE),
    p("caffeinate", WRAP),
    p("cal", RO),
    p("cancel", NET),
    p("cargo", PKG),
    p("case", BUILTIN),
    p("cat", RO),
    p("cd", RO),
    p("cdk", CLOUD),
    p("cdktf", CLOUD),
    p("chattr", FILES),
    p("chgrp", FILES),
    p("chmod", FILES),
    p("chown", FILES),
    p("chronic", WRAP),
    p("chroot", &[Wrapper, System]),
    p("chrt", WRAP),
    p("chsh", ACTS),
    p("cksum", RO),
    p("clickhouse-client", DB),
    p("cmd", SHELL),
    p("cmp", RO),
    p("cockroach", DB),
    p("column", RO),
    p("comm", RO),
    p("command", WRAP),
    p("complete", BUILTIN),
    p("composer", PKG),
    p("concurrently", PROJECT),
    p("conda", PKG),
    p("coproc", BUILTIN),
    p("corepack", PROJECT),
    p("cp", FILES),
    p("cqlsh", DB),
    p("crictl", &[Container]),
    p("crontab", &[ProjectRunner, System, Runs]),
    p("cryptcat", RELAY),
    code("crystal", INTERP, L::Ruby, &["eval"], true),
    p("csh", SHELL),
    p("ctr", &[Container]),
    p("curl", DL),
    p("curlie", DL),
    p("cut", RO),
    p("darkhttpd", SERVE),
    p("dash", SHELL),
    p("date", RO),
    p("dbd", RELAY),
    p("dd", SYS),
    p("declare", BUILTIN),
    p("deluser", ACTS),
    code("deno", &[Interpreter, Downloader], L::JavaScript, &["eval"], true),
    p("df", RO),
    p("diff", RO),
    p("dig", NET),
    p("dirname", RO),
    p("dmesg", RO),
    p("dmidecode", RO),
    p("dnf", PKG),
    p("do", BUILTIN),
    p("doas", WRAP),
    p("docker", &[Container, Runs]),
    p("docker-compose", &[Container, Runs]),
    p("doctl", CLOUD),
    p("doit", PROJECT),
    p("done", BUILTIN),
    p("doppler", SECRET),
    p("dotnet", &[Interpreter, Packages]),
    p("dtruss", RO),
    p("du", RO),
    p("duckdb", DB),
    p("eb", CLOUD),
    p("echo", RO),
    p("egrep", RO),
    p("eksctl", CLOUD),
    p("elif", BUILTIN),
    code("elixir", INTERP, L::Elixir, &["-e", "--eval"], false),
    p("else", BUILTIN),
    p("elvish", SHELL),
    p("enable", BUILTIN),
    p("entr", WRAP),
    p("env", &[Wrapper, ReadOnly]),
    p("erl", INTERP),
    p("esac", BUILTIN),
    p("escript", INTERP),
    p("eval", BUILTIN),
    of("ex", "vim"),
    p("exec", &[Builtin, Wrapper]),
    p("exoscale", CLOUD),
    code("expect", &[Interpreter, Runs], L::Tcl, &["-c"], true),
    p("export", &[Builtin, ReadOnly]),
    p("fab", PROJECT),
    p("fakeroot", WRAP),
    p("faketime", WRAP),
    p("false", RO),
    p("fc", BUILTIN),
    p("fd", &[ReadOnly, Runs]),
    p("fetch", DL),
    p("fgrep", RO),
    p("fi", BUILTIN),
    p("file", RO),
    p("find", &[ReadOnly, Runs]),
    p("finger", NET),
    p("firebase", CLOUD),
    p("firejail", WRAP),
    p("firewall-cmd", SYS),
    p("fish", SHELL),
    p("flatpak", PKG),
    p("flock", WRAP),
    p("fly", CLOUD),
    of("flyctl", "fly"),
    p("fmt", RO),
    p("fold", RO),
    p("for", BUILTIN),
    p("foreman", PROJECT),
    p("free", RO),
    p("ftp", NET),
    p("function", BUILTIN),
    p("fuser", SYS),
    of("gawk", "awk"),
    p("gcloud", &[Cloud, Secrets]),
    p("gdb", &[Runs]),
    p("gem", PKG),
    p("getent", RO),
    p("gh", &[Cloud, Secrets]),
    of("ghci", "runghc"),
    p("git", &[VersionControl, Runs]),
    p("glab", &[Cloud, Secrets]),
    p("gmake", PROJECT),
    p("go", PKG),
    p("go-task", PROJECT),
    p("gopass", SECRET),
    p("gosu", WRAP),
    p("gpg", SECRET),
    p("gradle", PROJECT),
    p("gradlew", PROJECT),
    p("grep", RO),
    code("groovy", INTERP, L::Groovy, &["-e"], false),
    p("groupadd", ACTS),
    p("groupdel", ACTS),
    p("groups", RO),
    p("gs-netcat", RELAY),
    of("gsed", "sed"),
    p("gsutil", CLOUD),
    p("hash", BUILTIN),
    p("hcloud", CLOUD),
    p("head", RO),
    p("helm", CLOUD),
    p("help", RO),
    p("heroku", CLOUD),
    p("hexdump", RO),
    p("history", RO),
    p("honcho", PROJECT),
    p("host", NET),
    p("hostname", RO),
    p("hostnamectl", SYS),
    p("hping3", NET),
    p("htop", RO),
    p("http", DL),
    p("http-server", SERVE),
    p("httpd", SERVE),
    p("https", DL),
    p("hyperfine", &[Runs]),
    p("ibmcloud", CLOUD),
    p("id", RO),
    code("iex", INTERP, L::Elixir, &[], true),
    p("if", BUILTIN),
    p("ifconfig", SYS),
    p("infisical", SECRET),
    p("insmod", ACTS),
    p("install", FILES),
    p("invoke", PROJECT),
    p("ionice", WRAP),
    p("iostat", RO),
    p("ip", SYS),
    p("ip6tables", ACTS),
    p("iptables", ACTS),
    code("irb", INTERP, L::Ruby, &[], true),
    p("java", INTERP),
    of("javaw", "java"),
    p("journalctl", RO),
    p("jq", RO),
    of("jruby", "ruby"),
    code("jrunscript", INTERP, L::JavaScript, &["-e"], false),
    code("jshell", INTERP, L::Java, &[], true),
    code("julia", INTERP, L::Julia, &["-e", "-E", "--eval", "--print"], true),
    p("just", PROJECT),
    of("jython", "python"),
    p("keepassxc-cli", SECRET),
    p("kill", ACTS),
    p("killall", ACTS),
    p("kotlin", INTERP),
    p("ksh", SHELL),
    p("kubectl", &[Cloud, Secrets, Runs]),
    p("last", RO),
    p("launchctl", SVC),
    p("ldd", RO),
    p("lerna", PROJECT),
    p("less", &[ReadOnly, Editor, Runs]),
    p("let", BUILTIN),
    p("lftp", NET),
    p("linode-cli", CLOUD),
    p("live-server", SERVE),
    p("ll", RO),
    p("ln", FILES),
    p("local", BUILTIN),
    p("locale", RO),
    p("localectl", SYS),
    p("loft", CLOUD),
    p("login", SHELL),
    p("lp", NET),
    p("lpass", SECRET),
    p("lpr", NET),
    p("ls", RO),
    p("lsblk", RO),
    p("lscpu", RO),
    p("lshw", RO),
    p("lsmod", RO),
    p("lsof", RO),
    p("lspci", RO),
    p("lsusb", RO),
    p("ltrace", WRAP),
    code("lua", INTERP, L::Lua, &["-e"], true),
    of("luajit", "lua"),
    p("lvdisplay", RO),
    p("lvs", RO),
    p("lxc", &[Container, Runs]),
    p("lynx", DL),
    p("mage", PROJECT),
    p("mail", MAIL),
    of("mailx", "mail"),
    p("make", PROJECT),
    p("mamba", PKG),
    p("man", &[ReadOnly, Editor, Runs]),
    p("mariadb", DB),
    of("mawk", "awk"),
    p("md5sum", RO),
    p("miniserve", SERVE),
    p("mise", PKG),
    p("mkdir", FILES),
    p("mksh", SHELL),
    p("modprobe", ACTS),
    p("mongo", DB),
    p("mongosh", DB),
    p("more", &[ReadOnly, Editor]),
    p("mosh", NET),
    p("mount", ACTS),
    p("mpstat", RO),
    p("msmtp", MAIL),
    p("mutt", MAIL),
    p("mv", FILES),
    p("mvn", PROJECT),
    p("mysql", DB),
    of("nawk", "awk"),
    p("nc", NET),
    p("ncat", NET),
    of("neomutt", "mutt"),
    p("neonctl", CLOUD),
    p("nerdctl", &[Container, Runs]),
    of("netcat", "nc"),
    p("netlify", CLOUD),
    p("netstat", RO),
    p("nft", SYS),
    p("nice", WRAP),
    p("nix", PKG),
    p("nix-env", PKG),
    p("nl", RO),
    p("nm", RO),
    p("nocorrect", WRAP),
    code("node", INTERP, L::JavaScript, &["-e", "--eval", "-p", "--print"], true),
    of("nodejs", "node"),
    p("nodemon", PROJECT),
    p("noglob", WRAP),
    p("nohup", WRAP),
    p("nox", PROJECT),
    p("npm", PKG),
    p("npm-run-all", PROJECT),
    p("nproc", RO),
    p("npx", &[Runs, ProjectRunner]),
    p("nsenter", WRAP),
    p("nslookup", NET),
    p("nu", SHELL),
    p("nvidia-smi", RO),
    of("nvim", "vim"),
    p("nvm", PKG),
    p("nx", PROJECT),
    p("objdump", RO),
    p("oc", &[Cloud, Runs]),
    p("ocaml", INTERP),
    p("oci", CLOUD),
    p("od", RO),
    p("op", SECRET),
    p("openssl", &[Decoder, Network]),
    p("openstack", CLOUD),
    code("osascript", INTERP, L::AppleScript, &["-e"], true),
    p("parallel", WRAP),
    p("pass", SECRET),
    p("passwd", ACTS),
    p("pdm", PKG),
    code("perl", INTERP, L::Perl, &["-e", "-E"], true),
    p("pgrep", RO),
    code("php", INTERP, L::Php, &["-r"], true),
    p("pidof", RO),
    p("ping", &[Network, ReadOnly]),
    p("pip", PKG),
    p("pipenv", PKG),
    p("pipx", &[Packages, Runs]),
    p("pkexec", WRAP),
    p("pkill", ACTS),
    p("pm2", &[ProjectRunner, Services]),
    p("pnpm", &[Packages, ProjectRunner, Runs]),
    p("pnpx", &[Runs, ProjectRunner]),
    p("podman", &[Container, Runs]),
    p("podman-compose", &[Container, Runs]),
    p("poetry", PKG),
    p("popd", RO),
    p("port", PKG),
    p("posh", SHELL),
    p("powercat", RELAY),
    of("powershell", "pwsh"),
    of("powershell_ise", "pwsh"),
    p("printenv", RO),
    p("printf", RO),
    p("proxychains", WRAP),
    of("proxychains4", "proxychains"),
    p("ps", RO),
    p("pscale", CLOUD),
    p("psql", DB),
    p("pstree", RO),
    p("pulumi", CLOUD),
    p("pushd", RO),
    p("pvdisplay", RO),
    p("pvs", RO),
    p("pwd", RO),
    p("pwncat", RELAY),
    code("pwsh", &[Shell, Interpreter], L::PowerShell, &["-c", "-command", "-encodedcommand", "-enc", "-e", "-ec"], true),
    of("pwsh-preview", "pwsh"),
    of("pypy", "python"),
    code("python", INTERP, L::Python, &["-c"], true),
    code("r", INTERP, L::R, &["-e"], true),
    p("railway", CLOUD),
    p("rake", PROJECT),
    p("rbash", SHELL),
    p("rc-service", SVC),
    p("rcat", RELAY),
    p("rclone", NET),
    p("readelf", RO),
    p("readlink", RO),
    p("readonly", BUILTIN),
    p("realpath", RO),
    p("reboot", SYS),
    p("redis-cli", DB),
    p("restic", NET),
    p("rev", &[ReadOnly, Decoder]),
    p("rg", RO),
    p("rm", &[Remover]),
    p("rmdir", &[Remover]),
    p("rmmod", ACTS),
    p("route", SYS),
    of("rscript", "r"),
    p("rsync", &[Network, Runs]),
    code("ruby", INTERP, L::Ruby, &["-e"], true),
    p("run-p", PROJECT),
    p("run-s", PROJECT),
    p("run0", WRAP),
    p("runghc", INTERP),
    of("runhaskell", "runghc"),
    p("runuser", WRAP),
    p("rustup", PKG),
    p("rye", PKG),
    p("s-nail", MAIL),
    p("sbd", RELAY),
    p("scala", INTERP),
    p("scoop", PKG),
    p("scp", &[Network, Runs]),
    p("screen", &[Shell, Runs]),
    p("script", &[Shell, Runs]),
    p("scw", CLOUD),
    p("secret-tool", SECRET),
    p("security", SECRET),
    p("sed", &[ReadOnly, Interpreter]),
    p("select", BUILTIN),
    p("sendmail", MAIL),
    p("sensors", RO),
    p("seq", RO),
    p("serve", SERVE),
    p("serverless", CLOUD),
    p("service", SVC),
    p("set", BUILTIN),
    p("setfacl", FILES),
    p("setsid", WRAP),
    p("sftp", &[Network, Runs]),
    p("sh", SHELL),
    p("sha1sum", RO),
    p("sha256sum", RO),
    p("shasum", RO),
    p("shopt", BUILTIN),
    p("shred", &[Remover]),
    p("shutdown", SYS),
    p("sleep", RO),
    of("sls", "serverless"),
    p("smbclient", NET),
    p("snap", PKG),
    p("snowsql", DB),
    p("socat", RELAY),
    p("socket", RELAY),
    p("sops", SECRET),
    p("sort", RO),
    p("source", &[Source]),
    p("sqlcmd", DB),
    p("sqlite3", DB),
    p("srm", &[Remover]),
    p("ss", RO),
    p("ssh", &[Network, Runs]),
    p("sshpass", WRAP),
    p("ssmtp", MAIL),
    p("stat", RO),
    p("stdbuf", WRAP),
    p("strace", WRAP),
    p("strings", RO),
    p("su", &[Shell, Runs]),
    p("su-exec", WRAP),
    p("sudo", WRAP),
    p("sudoedit", SYS),
    p("supabase", CLOUD),
    p("supervisorctl", SVC),
    p("sv", SVC),
    p("sw_vers", RO),
    p("swaks", MAIL),
    p("swapoff", ACTS),
    p("swapon", ACTS),
    p("swift", INTERP),
    p("sysctl", SYS),
    p("system_profiler", RO),
    p("systemctl", SVC),
    p("systemd-run", &[Wrapper, Services]),
    p("tac", RO),
    p("tail", RO),
    p("tailscale", NET),
    p("tar", &[Runs]),
    p("task", PROJECT),
    p("taskset", WRAP),
    code("tclsh", INTERP, L::Tcl, &[], true),
    p("tcsh", SHELL),
    p("tee", FILES),
    p("telnet", NET),
    p("terraform", CLOUD),
    p("terragrunt", CLOUD),
    p("test", RO),
    p("tftp", NET),
    p("then", BUILTIN),
    p("time", WRAP),
    p("timedatectl", SYS),
    p("timeout", WRAP),
    p("tldr", RO),
    p("tmux", &[Shell, Runs]),
    p("tofu", CLOUD),
    p("top", RO),
    p("torsocks", WRAP),
    p("touch", FILES),
    p("tox", PROJECT),
    p("tr", RO),
    p("tracepath", RO),
    p("traceroute", RO),
    p("trap", BUILTIN),
    p("tree", RO),
    p("true", RO),
    p("truncate", FILES),
    of("ts-node", "node"),
    of("tsx", "node"),
    p("tty", RO),
    p("turbo", PROJECT),
    p("twine", PKG),
    p("type", RO),
    p("typeset", BUILTIN),
    p("ufw", SYS),
    p("umount", ACTS),
    p("unalias", BUILTIN),
    p("uname", RO),
    p("unbuffer", WRAP),
    p("uniq", RO),
    p("unlink", &[Remover]),
    p("unset", BUILTIN),
    p("unshare", WRAP),
    p("until", BUILTIN),
    p("uptime", RO),
    p("useradd", ACTS),
    p("userdel", ACTS),
    p("usermod", ACTS),
    p("uudecode", DECODE),
    p("uv", &[Packages, Runs]),
    p("uvx", &[Runs, ProjectRunner]),
    p("valgrind", WRAP),
    p("vault", SECRET),
    p("vcluster", CLOUD),
    p("vercel", CLOUD),
    p("vgdisplay", RO),
    p("vgs", RO),
    of("vi", "vim"),
    p("vim", EDIT),
    p("vmstat", RO),
    p("w", RO),
    p("watch", WRAP),
    p("watchexec", WRAP),
    p("wc", RO),
    p("wget", DL),
    p("whereis", RO),
    p("which", RO),
    p("while", BUILTIN),
    p("who", RO),
    p("whoami", RO),
    p("whois", NET),
    p("winget", PKG),
    code("wish", INTERP, L::Tcl, &[], true),
    p("wormhole", NET),
    p("wrangler", CLOUD),
    p("xargs", WRAP),
    p("xh", DL),
    p("xonsh", SHELL),
    p("xxd", &[ReadOnly, Decoder]),
    p("yarn", &[Packages, ProjectRunner, Runs]),
    of("yarnpkg", "yarn"),
    p("yash", SHELL),
    p("yq", RO),
    p("yum", PKG),
    p("zcat", DECODE),
    p("zip", &[Runs]),
    p("zsh", SHELL),
    p("zx", INTERP),
    p("zypper", PKG),
];

/// The program a word names, as the catalogue resolves it: basename, lower case, `.exe` off,
/// then the line itself, else the name without its version suffix (`python3.12`, `pip3`).
pub fn program(word: &str) -> Option<&'static Program> {
    let name = base(word);
    let line = find(&name).or_else(|| {
        let stem = name.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.' || c == '-');
        (stem.len() < name.len() && stem.len() >= 2)
            .then(|| find(stem))
            .flatten()
    })?;
    match line.of {
        Some(family) => find(family),
        None => Some(line),
    }
}

/// The name a word stands for: the catalogue's family name when it knows the program
/// (`/usr/bin/Python3.12` → `python`, `gawk` → `awk`), else its basename, lower case, `.exe` off.
pub fn name(word: &str) -> String {
    match program(word) {
        Some(found) => found.name.to_string(),
        None => base(word),
    }
}

/// Is the program `word` names of `class`?
pub fn is(word: &str, class: Class) -> bool {
    program(word).is_some_and(|found| found.is(class))
}

/// The basename (after `/` or `\`), lower case, a trailing `.exe` taken off.
fn base(word: &str) -> String {
    let last = word.rsplit(['/', '\\']).next().unwrap_or(word);
    let lower = last.to_ascii_lowercase();
    match lower.strip_suffix(".exe") {
        Some(stem) if !stem.is_empty() => stem.to_string(),
        _ => lower,
    }
}

fn find(name: &str) -> Option<&'static Program> {
    CATALOGUE
        .binary_search_by(|line| line.name.cmp(name))
        .ok()
        .and_then(|at| CATALOGUE.get(at))
}

#[cfg(test)]
mod tests;
