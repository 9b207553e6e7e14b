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
    /// Talks to another machine: sends, receives, or runs commands there. A browser or a
    /// program that opens an address in one (`xdg-open URL`, macOS's `open URL`, `firefox
    /// URL`) is one: what the address carries reaches its host.
    Network,
    /// Sends mail.
    Mail,
    /// Opens a tunnel that exposes a port of this machine to the internet, in the forms
    /// the law reads (`ngrok http 8000`, `lt -p 8000`, `bore local 8000 --to bore.pub`,
    /// `chisel client host R:socks`, `frpc -c frpc.ini`, `zrok share public`,
    /// `tailscale funnel`, `cloudflared tunnel`).
    Tunnel,
    /// Hands this machine's shell or desktop to whoever connects, unless told to listen on
    /// loopback only: a terminal shared through a relay (`tmate`, `upterm host`, `sshx`), a
    /// web terminal (`ttyd bash`, `gotty -w bash`), a remote desktop server (`x11vnc`).
    RemoteAccess,
    /// Opens a session on another machine, where what is typed or clicked runs there: a
    /// remote terminal or desktop client (`telnet host`, `rdesktop host`, `xfreerdp
    /// /v:host`, `vncviewer host:1`, `remmina -c rdp://host`). ssh and its elders are read
    /// by their own rules, which also run a command there.
    Session,
    /// Wires a program it is given to a connection (`socat`-like relays).
    Relay,
    /// Serves a folder or files to whoever connects (`http-server`, `miniserve`).
    Server,
    /// An offensive tool: scans, sprays passwords at or exploits another host (`hydra`,
    /// `nxc`, `sqlmap`, `nikto`). With [`Class::Secrets`], it harvests credentials
    /// (`secretsdump.py`, `GetUserSPNs.py`).
    Attack,
    /// Sends a flood of requests to the address it names, to measure what it stands (`ab`,
    /// `hey`, `wrk`, `siege`, `oha`): at this machine, the person's own test; at another
    /// host, an attack on it unless the person names it.
    Flood,
    /// Another AI agent: what it does next, warden doesn't see (`claude`, `codex`, `aider`).
    Agent,
    /// Keeps secrets, or prints one with a subcommand (`vault`, `pass`, `gh auth token`).
    Secrets,
    /// Prints a token that acts as the person whenever it runs, unless it only asks for help
    /// or its version: an OAuth or cloud sign-in client whose output is the credential
    /// (`oauth2c ISSUER …`, `gke-gcloud-auth-plugin`). Always with [`Class::Secrets`].
    Tokens,
    /// Installs, upgrades or removes packages.
    Packages,
    /// Installs for the machine or the person's home, never for one project (`apt`, `brew`,
    /// `pacman`, `nvm`, `pyenv`, `rustup`, `pipx`): what it removes or upgrades is outside the
    /// work folder, where Undo can't bring it back. Always with [`Class::Packages`].
    Global,
    /// Starts, stops or enables services.
    Services,
    /// Changes the machine itself: mounts, users, the clock, the firewall, processes.
    System,
    /// A system tool whose name is its act: given an operand or an option other than one
    /// that lists, it does it (`kill 1234`, `mount /dev/sdb1 /mnt`, `useradd bob`,
    /// `iptables -A …`). A system tool without it acts only with a verb (`ip addr add`,
    /// `hostnamectl set-hostname`) and otherwise shows (`ip addr`, `ifconfig eth0`).
    Acts,
    /// A daemon: run, even with nothing after it, it starts and keeps running (`bluetoothd`,
    /// `cupsd`, `autofsd`, `emond -c f`), which changes what runs on this machine. Always
    /// with [`Class::Acts`].
    Daemon,
    /// Works on a disk at block level, under every file system on it: its partitions, file
    /// systems, volumes or boot record (`grub-install`, `sgdisk`, `pvremove`, `sg_raw`,
    /// `debugfs`). What it writes no Undo brings back; the law reads which invocations
    /// only read or list (`fdisk -l`, `debugfs /dev/sdb1`, `cryptsetup status`).
    Disk,
    /// Keeps a repository's history (git, Mercurial, Subversion, Perforce, RCS…): its own
    /// rules judge what reaches others, what discards work and what destroys history; its
    /// other subcommands change the work folder, which Undo keeps. So do git's server sides,
    /// which answer the client that started them on their own input and output
    /// (`git-upload-pack repo.git`, `git-lfs-transfer repo.git upload`).
    VersionControl,
    /// A cloud, cluster or hosted service's CLI: its resources are remote and lasting.
    Cloud,
    /// Keeps what nobody else has a copy of, for the person (secrets, backups, queues, CI,
    /// code hosting, object stores): a destroying verb among its first words destroys it
    /// (`restic forget`, `vault kv delete`, `rclone purge`, `gh repo delete`).
    Keeps,
    /// A database client.
    Database,
    /// Sends what it is given to its hosted service whenever it runs, unless it only reads or
    /// asks for help (`fossa analyze`, `ipfs add`, `tarsnap -c`, `apport-bug`): a way out.
    Uploads,
    /// Runs and builds containers.
    Container,
    /// Keeps programs running for the person, in sessions or as managed processes (`tmux`,
    /// `screen`, `zellij`, `pm2`, `forever`): a halting word ends what runs there
    /// (`tmux kill-server`, `screen -X quit`, `pm2 delete all`); its other words are its own.
    Sessions,
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
    /// Writes what it reads to its output, whole or changed but still there to read (`cat`,
    /// `grep`, `sed`, `jq`, `sort`, `base64`, `gzip -c`, `tar -c`): a file given to it flows
    /// down the pipe to whatever comes next (`grep . .env | curl -d @- …` sends `.env`).
    Prints,
    /// An editor or pager whose own commands can run a shell (`:!`, `!`).
    Editor,
    /// Runs virtual machines for the person on this machine (`multipass`, `limactl`,
    /// `colima`, `virsh`, `VBoxManage`, `orb`, `prlctl`, `utmctl`, `tart`, `quickemu`): a
    /// machine started is a change to what runs here (`multipass start vm`, `virsh start
    /// vm`, `VBoxManage startvm vm`), as a service started is. Always with [`Class::Keeps`]:
    /// a machine deleted loses its disk. (`vagrant` and `minikube` are a project's own.)
    Machines,
    /// Holds the keys that sign payments on a chain or a payment network (`solana`, `lncli`,
    /// `spl-token`, `bitcoin-cli`): a send, a transfer or a pay with a sum moves money, signed
    /// by its own keys, whatever names the one paid (`solana transfer $TO 10`).
    Wallet,
    /// Plays music for the person, or controls what plays (`mpc`, `playerctl`, `audtool`):
    /// its words (`stop`, `pause`, `next`, `add`, `clear`) act on what plays now or is queued
    /// to play, nothing that lasts past it, so they aren't read as any program's words.
    Player,
    /// Sets the person's desktop session: its sound, input devices, screens, keyboard or
    /// backlight (`pactl set-default-sink 1`, `xinput enable 12`, `xset s off`, `setxkbmap
    /// de`, `brightnessctl set 50%`), or its bars and widgets (`polybar-msg cmd restart`,
    /// `eww close bar`): what it sets is set back the same way and reaches nothing past the
    /// session, so its words (`enable`, `set`, `disable`, `restart`, `kill`) aren't read as
    /// any program's words. Not a tool that saves a profile or a layout for later
    /// (`autorandr -s`), which is a setting kept.
    Desktop,
    /// Rebuilds an index or a cache from what the machine already holds (`updatedb`,
    /// `mandb`, `fc-cache`): built again, it is the same, so nothing is lost, and run as the
    /// administrator it changes no setting. Not when told where to write (`updatedb -o
    /// FILE`), which the law judges as a write there.
    Index,
    /// Follows what runs on this machine without changing it: a process's system or library
    /// calls (`strace -p 1234`, `ltrace -p 1234`), the kernel's trace events and counters
    /// (`trace-cmd`, `perf`, `lttng`). Its words (`start`, `stop`, `reset`, `clear`,
    /// `destroy`) act on its own tracing, which ends with it or at the next boot, so they
    /// aren't read as any program's words. What it writes (`-o FILE`) the path rules judge,
    /// and what it runs (`strace CMD`, `perf record CMD`) is judged as run.
    Tracer,
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
    Kotlin,
    Lua,
    Perl,
    Php,
    PowerShell,
    Python,
    R,
    Ruby,
    Scala,
    Swift,
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
    /// Its helpers, `NAME.TYPE`, are its own (`mount.nfs`, `mount.steamos`, `fsck.ext4`):
    /// a name that isn't a line resolves to this one.
    pub helpers: bool,
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
        helpers: false,
    }
}

/// A program whose helpers `NAME.TYPE` are its own (`mount.nfs` → `mount`).
const fn typed(name: &'static str, classes: &'static [Class]) -> Program {
    Program {
        helpers: true,
        ..p(name, classes)
    }
}

/// A name that stands for another line's program (`gawk` → `awk`).
const fn of(name: &'static str, family: &'static str) -> Program {
    Program {
        name,
        of: Some(family),
        classes: &[],
        code: None,
        helpers: false,
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
        helpers: false,
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
const GLOBAL_PKG: &[Class] = &[Packages, Global];
const CLOUD: &[Class] = &[Cloud];
const DB: &[Class] = &[Database];
const SYS: &[Class] = &[System];
const SVC: &[Class] = &[Services, System];
const ACTS: &[Class] = &[System, Acts];
const DAEMON: &[Class] = &[System, Acts, Daemon];
const RO: &[Class] = &[ReadOnly];
const PRINTS: &[Class] = &[ReadOnly, Prints];
const BUILTIN: &[Class] = &[Builtin];
const MAIL: &[Class] = &[Mail, Network];
const RELAY: &[Class] = &[Relay, Network];
const SECRET: &[Class] = &[Secrets];
const DL: &[Class] = &[Downloader, Network];
const DECODE: &[Class] = &[Decoder];
const EDIT: &[Class] = &[Editor, Runs];
const SERVE: &[Class] = &[Server];
const TUNNEL: &[Class] = &[Tunnel, Network];
const FILES: &[Class] = &[Files];
const DISK: &[Class] = &[Disk];
const PING: &[Class] = &[Network, ReadOnly];
const PLAYER: &[Class] = &[Player];
const DESKTOP: &[Class] = &[Desktop];
const INDEX: &[Class] = &[Index];
const VCS: &[Class] = &[VersionControl];
const MACHINES: &[Class] = &[Keeps, Machines];

/// Every program the law knows, sorted by name (checked by a test).
#[rustfmt::skip]
pub const CATALOGUE: &[Program] = &[
    p(".", &[Source]),
    p("[", RO),
    p("a2dismod", ACTS),
    p("a2dissite", ACTS),
    p("a2enmod", ACTS),
    p("aa-audit", ACTS),
    p("aa-cleanprof", ACTS),
    p("aa-disable", ACTS),
    p("aa-enforce", ACTS),
    p("aa-mergeprof", ACTS),
    p("aa-status", RO),
    p("aa-update-browser", ACTS),
    p("ab", &[Network, Flood]),
    p("abduco", &[Runs, Sessions]),
    p("abroot", SYS),
    p("accessorysensormgrd", DAEMON),
    p("ack", PRINTS),
    p("addcomputer.py", &[Attack]),
    p("addgroup", ACTS),
    p("adduser", ACTS),
    p("adguardhome", ACTS),
    p("ag", PRINTS),
    p("agate", SERVE),
    p("age", SECRET),
    p("agy", &[Agent]),
    p("aider", &[Agent]),
    p("airport", SYS),
    p("airportd", DAEMON),
    p("airshare", SERVE),
    p("alias", BUILTIN),
    p("aliyun", CLOUD),
    p("amixer", DESKTOP),
    p("amp", &[Agent]),
    p("ansible", &[Cloud, Runs]),
    p("ansible-playbook", CLOUD),
    p("ansible-vault", &[Secrets]),
    p("ant", PROJECT),
    p("anydesk", &[RemoteAccess]),
    p("apachectl", SVC),
    p("apfsd", DAEMON),
    p("apk", GLOBAL_PKG),
    p("applecamerad", DAEMON),
    p("apport-bug", &[Uploads]),
    p("apt", &[Packages, Global, Runs]),
    p("apt-get", &[Packages, Global, Runs]),
    p("aptitude", GLOBAL_PKG),
    p("arc", &[Cloud, Keeps]),
    p("arch", &[ReadOnly, Runs]),
    p("arch-chroot", ACTS),
    p("archinstall", DISK),
    p("archlinux-java", SYS),
    p("argocd", CLOUD),
    p("aria2c", &[Downloader, Network, Runs]),
    p("arjun", &[Attack]),
    p("arp", SYS),
    p("arping", PING),
    p("arpspoof", &[Attack]),
    p("artillery", &[Network, Flood]),
    p("asdf", &[Packages, Global, Runs]),
    p("ash", SHELL),
    p("asterisk", ACTS),
    p("at", &[ProjectRunner, System, Runs]),
    p("atexec.py", &[Attack]),
    p("atop", RO),
    p("audit2allow", RO),
    p("audit2why", RO),
    p("auditctl", ACTS),
    p("auditd", DAEMON),
    p("audtool", PLAYER),
    of("aura", "pacman"),
    p("aureport", RO),
    of("aurman", "pacman"),
    p("ausearch", RO),
    p("authconfig", ACTS),
    p("auto-cpufreq", ACTS),
    p("autocannon", &[Network, Flood]),
    p("autofsd", DAEMON),
    p("automount", ACTS),
    p("automountd", DAEMON),
    p("autossh", NET),
    code("awk", &[Interpreter, ReadOnly, Prints], L::Awk, &[""], false),
    p("aws", &[Cloud, Secrets]),
    p("aws-iam-authenticator", SECRET),
    p("aws-vault", &[Secrets, Runs]),
    p("axel", DL),
    p("az", &[Cloud, Secrets]),
    p("azcopy", &[Cloud, Keeps]),
    p("b2", &[Cloud, Keeps]),
    p("backupd", DAEMON),
    p("badblocks", DISK),
    p("bandwhich", RO),
    p("base32", &[Decoder, Prints]),
    p("base64", &[Decoder, Prints]),
    p("basename", RO),
    p("basenc", &[Decoder, Prints]),
    p("bash", SHELL),
    p("bat", PRINTS),
    p("batch", &[ProjectRunner, System, Runs]),
    p("bcachefs", DISK),
    p("bd", &[Keeps]),
    p("beesu", &[Runs]),
    p("berglas", &[Secrets, Runs]),
    p("bettercap", &[Attack]),
    p("bind", BUILTIN),
    p("bindfs", ACTS),
    p("biomesyncd", DAEMON),
    p("biosdecode", RO),
    p("birdc", SYS),
    p("bitcoin-cli", &[Secrets, Keeps, Wallet]),
    p("bless", ACTS),
    p("blkid", RO),
    p("blockdev", SYS),
    p("bloodhound-python", &[Attack]),
    p("bluetoothctl", SYS),
    p("bluetoothd", DAEMON),
    p("bmake", PROJECT),
    p("bmaptool", DISK),
    p("bmon", RO),
    p("bnepd", DAEMON),
    p("boltctl", SYS),
    p("bombardier", &[Network, Flood]),
    p("bootc", SYS),
    p("bootctl", DISK),
    p("bore", TUNNEL),
    p("borg", &[Keeps]),
    p("bosh", CLOUD),
    p("bq", &[Database, Cloud]),
    p("brave-browser", NET),
    p("brctl", SYS),
    p("brew", GLOBAL_PKG),
    p("brightnessctl", DESKTOP),
    p("brotli", &[Files, Prints]),
    p("browser-sync", SERVE),
    p("brz", VCS),
    p("bsub", CLOUD),
    p("btop", RO),
    p("btrbk", &[Keeps]),
    p("btrfs", DISK),
    p("builtin", &[Builtin, Wrapper]),
    p("buku", &[Keeps]),
    p("bully", &[Attack]),
    code("bun", &[Interpreter, Packages], L::JavaScript, &["-e", "--eval", "-p", "--print"], true),
    p("bundle", &[Runs]),
    p("bunx", &[Runs, ProjectRunner]),
    p("bunzip2", &[Decoder, Files, Prints]),
    p("busctl", &[Runs]),
    p("busybox", WRAP),
    p("bw", SECRET),
    p("bwrap", &[Runs]),
    of("byobu", "tmux"),
    p("bzcat", &[Decoder, Prints]),
    p("bzip2", &[Files, Prints]),
    p("bzr", VCS),
    p("cabal", PKG),
    p("caddy", SERVE),
    p("caffeinate", WRAP),
    p("cal", RO),
    p("calcurse", &[Keeps]),
    p("caligula", DISK),
    p("cancel", NET),
    p("capsh", &[Runs]),
    p("cargo", &[Packages, Runs]),
    p("case", BUILTIN),
    p("cat", PRINTS),
    p("catchsegv", &[Runs]),
    p("cd", RO),
    p("cdk", CLOUD),
    p("cdktf", CLOUD),
    p("cdrecord", DISK),
    p("cephadm", CLOUD),
    p("cf", CLOUD),
    p("cfdisk", DISK),
    p("cgdisk", DISK),
    p("chage", ACTS),
    p("chainctl", CLOUD),
    p("chamber", &[Secrets, Runs]),
    p("changepasswd.py", &[Attack]),
    p("chatgpt", &[Agent]),
    p("chattr", FILES),
    p("chcat", ACTS),
    p("chfn", ACTS),
    p("chgrp", FILES),
    p("chisel", TUNNEL),
    p("chkconfig", SVC),
    p("chmem", ACTS),
    p("chmod", FILES),
    p("chntpw", SECRET),
    p("chown", FILES),
    p("chpass", ACTS),
    p("chpasswd", ACTS),
    p("chromium", NET),
    p("chromium-browser", NET),
    p("chronic", WRAP),
    p("chronyc", SYS),
    p("chroot", &[Wrapper, System]),
    p("chrt", WRAP),
    p("chsh", ACTS),
    p("ci", VCS),
    p("circleci", &[Cloud, Keeps]),
    p("civo", CLOUD),
    p("cksum", RO),
    p("claude", &[Agent]),
    p("cli4", CLOUD),
    p("cli53", CLOUD),
    p("clickhouse-client", DB),
    p("clido", &[Keeps]),
    p("clojure", INTERP),
    p("cloudd", DAEMON),
    p("cloudflared", &[Cloud, Tunnel]),
    p("cloudphotod", DAEMON),
    p("clush", &[Network, Runs]),
    p("clusterdb", DB),
    p("clusterssh", &[Network, Session]),
    p("cmd", &[Shell, Runs]),
    p("cmp", RO),
    p("cmus-remote", PLAYER),
    p("co", VCS),
    p("cockpit-ws", DAEMON),
    p("cockroach", DB),
    p("codecov", &[Uploads]),
    p("codex", &[Agent]),
    p("colima", MACHINES),
    p("collectd", DAEMON),
    p("column", PRINTS),
    p("comm", PRINTS),
    p("command", WRAP),
    p("commix", &[Attack]),
    p("complete", BUILTIN),
    p("composer", PKG),
    p("concurrently", PROJECT),
    p("conda", &[Packages, Global, Runs]),
    p("confluent", CLOUD),
    p("conntrack", ACTS),
    p("consul", &[Keeps]),
    p("copilot", &[Agent]),
    p("coproc", BUILTIN),
    p("coreaudiod", DAEMON),
    p("corebrightnessd", DAEMON),
    p("coredatad", DAEMON),
    p("corepack", PROJECT),
    p("coreutils", WRAP),
    p("coveralls", &[Uploads]),
    p("cp", FILES),
    p("cpuctl", SYS),
    p("cqlsh", DB),
    p("crackmapexec", &[Attack]),
    p("crane", CLOUD),
    p("createdb", DB),
    p("crictl", &[Container]),
    p("criu", SYS),
    p("crond", DAEMON),
    p("crontab", &[ProjectRunner, System, Runs]),
    p("crush", &[Agent]),
    p("cryfs-unmount", ACTS),
    p("cryptcat", RELAY),
    p("cryptsetup", DISK),
    code("crystal", INTERP, L::Ruby, &["eval"], true),
    p("csh", SHELL),
    p("csrutil", SYS),
    p("cssh", &[Network, Session]),
    p("csshx", &[Network, Session]),
    p("ctr", &[Container]),
    p("cupsaccept", ACTS),
    p("cupsd", DAEMON),
    p("cupsdisable", ACTS),
    p("cupsenable", ACTS),
    p("cupsreject", ACTS),
    p("curl", DL),
    p("curlie", DL),
    p("cursor-agent", &[Agent]),
    p("cut", PRINTS),
    p("cvfsck", DISK),
    p("cvs", VCS),
    p("dacledit.py", &[Attack]),
    p("daemon", SVC),
    p("daemonize", &[Runs]),
    p("dalfox", &[Attack]),
    p("darcs", VCS),
    p("darkhttpd", SERVE),
    p("darwin-rebuild", SYS),
    p("dash", SHELL),
    p("date", RO),
    p("dbd", RELAY),
    p("dbus-daemon", ACTS),
    p("dbus-launch", &[Runs]),
    p("dbus-send", &[Runs]),
    p("dcgmi", SYS),
    p("dcomexec.py", &[Attack]),
    p("dconf", SYS),
    p("dd", SYS),
    p("ddcutil", DESKTOP),
    p("ddrescue", FILES),
    p("debugfs", DISK),
    p("declare", BUILTIN),
    p("defaults", SYS),
    p("deleted", DAEMON),
    p("delgroup", ACTS),
    p("deluser", ACTS),
    p("delv", NET),
    code("deno", &[Interpreter, Downloader], L::JavaScript, &["eval"], true),
    p("devpod", CLOUD),
    p("devspace", CLOUD),
    p("devtunnel", TUNNEL),
    p("dexter", SECRET),
    p("df", RO),
    p("dhcpcd", DAEMON),
    p("diff", PRINTS),
    p("dig", NET),
    p("dirb", &[Attack]),
    p("direnv", &[Runs]),
    p("dirname", RO),
    p("dirsearch", &[Attack]),
    p("diskutil", SYS),
    p("distccd", DAEMON),
    p("distrobox", &[Runs]),
    p("dm-tool", SYS),
    p("dmesg", RO),
    p("dmidecode", RO),
    p("dmstats", SYS),
    p("dnf", GLOBAL_PKG),
    p("dnote", &[Keeps]),
    p("dnsmasq", ACTS),
    p("do", BUILTIN),
    p("do-release-upgrade", ACTS),
    p("doas", WRAP),
    p("docker", &[Container, Runs]),
    p("docker-compose", &[Container, Runs]),
    p("docker-machine", CLOUD),
    p("doctl", CLOUD),
    p("doit", PROJECT),
    p("dokku", CLOUD),
    p("done", BUILTIN),
    p("doppler", &[Secrets, Keeps]),
    p("dotenv", &[Runs]),
    p("dotenvx", &[Secrets, Runs]),
    p("dotnet", &[Interpreter, Packages]),
    p("dpkg", PKG),
    p("dpkg-reconfigure", ACTS),
    p("dracut", ACTS),
    p("drill", NET),
    p("dtach", &[Runs, Sessions]),
    p("dtruss", RO),
    p("du", RO),
    p("duckdb", DB),
    p("dump.exfat", RO),
    p("dumpe2fs", RO),
    p("dumpntlminfo.py", &[Attack]),
    p("duplicity", &[Keeps]),
    p("dzdo", WRAP),
    p("e2freefrag", RO),
    p("e2fsck", ACTS),
    p("e2image", DISK),
    p("e2label", SYS),
    p("e2undo", DISK),
    p("e4defrag", ACTS),
    p("eb", CLOUD),
    p("echo", RO),
    p("ed", EDIT),
    p("edquota", ACTS),
    p("efibootmgr", DISK),
    p("egrep", PRINTS),
    p("eksctl", CLOUD),
    p("elasticsearch-keystore", SECRET),
    p("elasticsearch-node", SYS),
    p("elasticsearch-reset-password", SECRET),
    p("electrum", &[Secrets, Keeps, Wallet]),
    p("elif", BUILTIN),
    code("elixir", INTERP, L::Elixir, &["-e", "--eval"], false),
    p("else", BUILTIN),
    p("elvish", SHELL),
    p("emerge", PKG),
    p("emond", DAEMON),
    p("enable", BUILTIN),
    p("entr", WRAP),
    p("enum4linux", &[Attack]),
    p("env", &[Wrapper, ReadOnly]),
    p("envchain", &[Runs]),
    p("envoy", CLOUD),
    p("erl", INTERP),
    p("esac", BUILTIN),
    p("escript", INTERP),
    p("eselect", SYS),
    p("etcdctl", &[Keeps]),
    p("ethtool", SYS),
    p("ettercap", &[Attack]),
    p("euse", ACTS),
    p("eval", BUILTIN),
    p("evil-winrm", &[Attack]),
    p("eww", DESKTOP),
    of("ex", "vim"),
    p("exec", &[Builtin, Wrapper]),
    p("execsnoop", RO),
    p("exfatlabel", SYS),
    p("exo", CLOUD),
    p("exoscale", &[Cloud, Keeps]),
    code("expect", &[Interpreter, Runs], L::Tcl, &["-c"], true),
    p("export", &[Builtin, ReadOnly]),
    p("expose", SERVE),
    p("expressvpn", SYS),
    p("extundelete", RO),
    p("fab", PROJECT),
    p("fabric", &[Agent]),
    p("faillock", ACTS),
    p("fakechroot", &[Runs]),
    p("fakeroot", WRAP),
    p("faketime", WRAP),
    p("false", RO),
    p("fastboot", DISK),
    p("fastd", DAEMON),
    p("fatlabel", SYS),
    p("fatrace", RO),
    p("fc", BUILTIN),
    p("fc-cache", INDEX),
    p("fd", &[ReadOnly, Runs]),
    p("fdisk", DISK),
    p("feroxbuster", &[Attack]),
    p("fetch", DL),
    p("ffuf", &[Attack]),
    p("fgrep", PRINTS),
    p("fi", BUILTIN),
    p("file", RO),
    p("file-rename", FILES),
    p("filebrowser", SERVE),
    p("filecoordinationd", DAEMON),
    p("filen", &[Cloud, Keeps]),
    p("find", &[ReadOnly, Runs]),
    p("finddelegation.py", &[Attack]),
    p("findmnt", RO),
    p("finger", NET),
    p("firebase", CLOUD),
    p("firecfg", ACTS),
    p("firefox", NET),
    p("firejail", WRAP),
    p("firewall-cmd", SYS),
    p("fish", SHELL),
    p("fisher", PKG),
    p("fixfiles", ACTS),
    p("fj", &[Cloud, Keeps]),
    p("flatpak", &[Packages, Global, Runs]),
    p("flatpak-spawn", &[Runs]),
    p("flock", WRAP),
    p("fls", RO),
    p("flux", CLOUD),
    p("fly", CLOUD),
    of("flyctl", "fly"),
    p("fmt", PRINTS),
    p("fnm", GLOBAL_PKG),
    p("fold", PRINTS),
    p("fontd", DAEMON),
    p("for", BUILTIN),
    p("foreman", PROJECT),
    p("forever", &[ProjectRunner, Sessions]),
    p("fossa", &[Uploads]),
    p("fossil", VCS),
    p("fping", PING),
    p("fprintd-delete", ACTS),
    p("free", RO),
    p("frpc", TUNNEL),
    p("fs_cli", SYS),
    p("fs_usage", RO),
    typed("fsck", ACTS),
    p("fsstat", RO),
    p("ftp", NET),
    p("ftpput", NET),
    p("function", BUILTIN),
    p("fuser", SYS),
    p("fwconsole", SVC),
    p("fwupdtool", SYS),
    of("gawk", "awk"),
    p("gcalcli", &[Keeps]),
    p("gcloud", &[Cloud, Secrets]),
    p("gcrane", CLOUD),
    p("gdb", &[Runs]),
    p("gdbus", &[Runs]),
    p("gdisk", DISK),
    p("gdm-restart", ACTS),
    p("gdm-safe-restart", ACTS),
    p("gem", GLOBAL_PKG),
    p("gemini", &[Agent]),
    p("get-gpppassword.py", &[Attack, Secrets]),
    p("getadcomputers.py", &[Attack]),
    p("getadusers.py", &[Attack]),
    p("getarch.py", &[Attack]),
    p("getenforce", RO),
    p("getent", RO),
    p("getlapspassword.py", &[Attack, Secrets]),
    p("getnpusers.py", &[Attack, Secrets]),
    p("getopts", BUILTIN),
    p("getst.py", &[Attack]),
    p("gettgt.py", &[Attack]),
    p("getuserspns.py", &[Attack, Secrets]),
    p("gh", &[Cloud, Secrets, Keeps]),
    p("ghc", INTERP),
    of("ghci", "runghc"),
    p("ghcup", GLOBAL_PKG),
    p("gio", NET),
    p("git", &[VersionControl, Runs]),
    p("git-lfs-transfer", VCS),
    p("git-receive-pack", VCS),
    p("git-upload-archive", VCS),
    p("git-upload-pack", VCS),
    p("github-label-sync", &[Cloud, Keeps]),
    p("gitlab-backup", &[Keeps]),
    p("gitlab-ctl", SVC),
    p("gitlab-runner", &[Keeps]),
    p("gke-gcloud-auth-plugin", &[Secrets, Tokens]),
    p("gksu", &[Runs]),
    p("gksudo", &[Runs]),
    p("glab", &[Cloud, Secrets, Keeps]),
    p("gmake", PROJECT),
    p("go", PKG),
    p("go-task", PROJECT),
    p("gobuster", &[Attack]),
    p("goenv", GLOBAL_PKG),
    p("goldenpac.py", &[Attack]),
    p("google-chrome", NET),
    p("google-chrome-stable", NET),
    p("goose", &[Agent]),
    p("gopass", SECRET),
    p("gosu", WRAP),
    p("gotty", &[RemoteAccess]),
    p("gpasswd", ACTS),
    p("gpclient", SYS),
    p("gpg", &[Secrets, Prints]),
    p("gpg-tui", SECRET),
    p("gradle", PROJECT),
    p("gradlew", PROJECT),
    p("grep", PRINTS),
    code("groovy", INTERP, L::Groovy, &["-e"], false),
    p("groupadd", ACTS),
    p("groupdel", ACTS),
    p("groupmod", ACTS),
    p("groups", RO),
    p("growisofs", DISK),
    p("growpart", DISK),
    p("grub-bios-setup", DISK),
    p("grub-editenv", SYS),
    p("grub-install", DISK),
    p("grub-mount", ACTS),
    p("grub-probe", RO),
    p("grub-set-default", ACTS),
    of("grub2-install", "grub-install"),
    p("grubby", ACTS),
    p("gs-netcat", RELAY),
    of("gsed", "sed"),
    p("gsettings", SYS),
    p("gsutil", &[Cloud, Keeps]),
    p("gtk-update-icon-cache", INDEX),
    p("guile", INTERP),
    p("gunzip", &[Decoder, Files, Prints]),
    p("gvm", GLOBAL_PKG),
    p("gyb", &[Keeps]),
    p("gzip", &[Files, Prints]),
    p("h2load", &[Network, Flood]),
    p("halt", ACTS),
    p("handlr", SYS),
    p("haproxy", ACTS),
    p("hash", BUILTIN),
    p("haveged", DAEMON),
    p("hcloud", &[Cloud, Keeps]),
    p("hd-idle", SYS),
    p("hddtemp", RO),
    p("hdiutil", SYS),
    p("hdparm", DISK),
    p("head", PRINTS),
    p("helm", CLOUD),
    p("helmfile", CLOUD),
    p("help", RO),
    p("herbstclient", &[Runs]),
    p("heroku", &[Cloud, Keeps]),
    p("hexdump", PRINTS),
    p("hey", &[Network, Flood]),
    p("hf", &[Cloud, Keeps]),
    p("hg", VCS),
    p("history", RO),
    p("home-manager", SYS),
    p("homectl", SYS),
    p("honcho", PROJECT),
    p("host", NET),
    p("hostapd", DAEMON),
    p("hostname", RO),
    p("hostnamectl", SYS),
    p("hping3", NET),
    p("hsw-cli", SECRET),
    p("htop", RO),
    p("htpdate", ACTS),
    p("http", DL),
    p("http-server", SERVE),
    p("http-server-upload", SERVE),
    p("httpd", SERVE),
    p("https", DL),
    p("hub", &[Cloud, Keeps]),
    p("hut", &[Cloud, Keeps]),
    p("hwclock", ACTS),
    p("hydra", &[Attack]),
    p("hyperfine", &[Runs]),
    p("hyprctl", &[Runs]),
    p("i2cset", ACTS),
    p("i3-msg", &[Runs]),
    p("i3exit", ACTS),
    p("ia", CLOUD),
    p("ibmcloud", CLOUD),
    p("id", RO),
    p("idevicebackup2", &[Keeps]),
    code("iex", INTERP, L::Elixir, &[], true),
    p("if", BUILTIN),
    p("ifconfig", SYS),
    p("ifdown", ACTS),
    p("ifmetric", ACTS),
    p("iftop", RO),
    p("ifup", ACTS),
    p("immich", &[Cloud, Keeps]),
    p("imp", SYS),
    p("infisical", &[Secrets, Runs]),
    p("influx", &[Database, Keeps]),
    p("inlets", TUNNEL),
    p("inputattach", ACTS),
    p("insmod", ACTS),
    p("install", FILES),
    p("internetsharing", ACTS),
    p("invoke", PROJECT),
    p("ionice", WRAP),
    p("ioping", DISK),
    p("iostat", RO),
    p("iotop", RO),
    p("ip", &[System, Runs]),
    p("ip6tables", ACTS),
    p("ipconfig", SYS),
    p("ipcrm", ACTS),
    p("ipfs", &[Uploads]),
    p("ipset", SYS),
    p("iptables", ACTS),
    p("iptables-restore", ACTS),
    p("iptraf-ng", RO),
    of("ipython", "python"),
    of("ipython3", "python"),
    code("irb", INTERP, L::Ruby, &[], true),
    p("iredis", DB),
    p("istat", RO),
    p("ivpn", SYS),
    p("iw", SYS),
    p("iwconfig", ACTS),
    p("jabba", GLOBAL_PKG),
    p("java", INTERP),
    of("javaw", "java"),
    p("jenv", GLOBAL_PKG),
    p("jira", &[Cloud, Keeps]),
    p("jj", VCS),
    p("journalctl", RO),
    p("jq", PRINTS),
    p("jrnl", &[Keeps]),
    of("jruby", "ruby"),
    code("jrunscript", INTERP, L::JavaScript, &["-e"], false),
    code("jshell", INTERP, L::Java, &[], true),
    code("julia", INTERP, L::Julia, &["-e", "-E", "--eval", "--print"], true),
    p("juliaup", GLOBAL_PKG),
    p("just", PROJECT),
    of("jython", "python"),
    p("k3s", CLOUD),
    p("k3s-uninstall.sh", ACTS),
    p("k8sec", &[Secrets, Keeps]),
    p("k9s", CLOUD),
    p("kafka-acls", &[Keeps]),
    p("kafka-configs", &[Keeps]),
    p("kafka-console-producer", NET),
    p("kafka-console-producer.sh", NET),
    p("kafka-consumer-groups", &[Keeps]),
    p("kafka-delete-records", &[Keeps]),
    p("kafka-topics", &[Keeps]),
    of("kafkacat", "kcat"),
    p("kaggle", CLOUD),
    p("kcat", &[Keeps]),
    p("kdesu", &[Runs]),
    p("kdesudo", &[Runs]),
    p("kdig", NET),
    p("keepassxc-cli", SECRET),
    p("kerbrute", &[Attack]),
    p("kernel-install", SYS),
    p("kernelstub", ACTS),
    p("keyctl", SECRET),
    p("keylistattack.py", &[Attack, Secrets]),
    p("keyring", SECRET),
    p("kill", ACTS),
    p("killall", ACTS),
    p("kinit", SECRET),
    p("kmod", SYS),
    p("knotc", SYS),
    p("kompose", CLOUD),
    p("kopia", &[Keeps]),
    p("kops", CLOUD),
    code("kotlin", INTERP, L::Kotlin, &["-e", "-expression"], false),
    p("koyeb", &[Cloud, Keeps]),
    p("krdc", &[Network, Session]),
    p("ksh", SHELL),
    p("kubeadm", CLOUD),
    p("kubectl", &[Cloud, Secrets, Runs]),
    p("kubeseal", SECRET),
    p("kwallet-query", SECRET),
    p("kwriteconfig5", ACTS),
    p("kwriteconfig6", ACTS),
    p("l2ping", PING),
    p("last", RO),
    p("lastb", RO),
    p("launchctl", &[Services, System, Runs]),
    p("lazagne", &[Attack, Secrets]),
    p("lbu", SYS),
    p("lchage", ACTS),
    p("ldconfig", SYS),
    p("ldd", RO),
    p("lerna", PROJECT),
    p("less", &[ReadOnly, Prints, Editor, Runs]),
    p("let", BUILTIN),
    p("lftp", NET),
    p("light", DESKTOP),
    p("light-arionum-cli", SECRET),
    p("lightning-cli", &[Secrets, Keeps, Wallet]),
    p("limactl", MACHINES),
    p("limine", DISK),
    p("limine-entry-tool", ACTS),
    p("limine-scan", ACTS),
    p("limine-snapper-sync", ACTS),
    p("limine-snapper-watcher", ACTS),
    p("linode-cli", &[Cloud, Keeps]),
    p("linux-boot-prober", RO),
    p("litecli", DB),
    p("live-server", SERVE),
    p("ll", RO),
    p("ln", FILES),
    p("lncli", &[Secrets, Keeps, Wallet]),
    p("loadtest", &[Network, Flood]),
    p("local", BUILTIN),
    p("locale", RO),
    p("localectl", SYS),
    p("localtunnel", TUNNEL),
    p("localxpose", TUNNEL),
    p("locate.updatedb", INDEX),
    p("loclx", TUNNEL),
    p("locust", &[Network, Flood]),
    p("loft", CLOUD),
    p("login", SHELL),
    p("loginctl", SVC),
    p("loksh", SHELL),
    p("lookupsid.py", &[Attack]),
    p("losetup", SYS),
    p("lp", NET),
    p("lpadmin", ACTS),
    p("lpass", SECRET),
    p("lpmove", ACTS),
    p("lpq", RO),
    p("lpr", NET),
    p("lprm", NET),
    p("lpstat", RO),
    p("ls", RO),
    p("lsblk", RO),
    p("lscpu", RO),
    p("lshw", RO),
    p("lsmod", RO),
    p("lsof", RO),
    p("lspci", RO),
    p("lsusb", RO),
    p("lt", TUNNEL),
    p("ltrace", &[Wrapper, Tracer]),
    p("lttng", &[Tracer]),
    code("lua", INTERP, L::Lua, &["-e"], true),
    p("luaenv", GLOBAL_PKG),
    of("luajit", "lua"),
    p("lure", GLOBAL_PKG),
    p("lvchange", ACTS),
    p("lvconvert", DISK),
    p("lvcreate", ACTS),
    p("lvdisplay", RO),
    p("lvextend", ACTS),
    // lvm runs its own commands by name (`lvm pvdisplay` is pvdisplay); alone, its shell.
    p("lvm", &[Wrapper, Disk]),
    p("lvmdevices", ACTS),
    p("lvreduce", DISK),
    p("lvremove", DISK),
    p("lvrename", ACTS),
    p("lvresize", ACTS),
    p("lvs", RO),
    p("lvscan", RO),
    p("lxc", &[Container, Runs]),
    p("lxqt-sudo", &[Runs]),
    p("lxsudo", &[Runs]),
    p("lynx", DL),
    p("lz4", &[Files, Prints]),
    p("lz4cat", &[Decoder, Prints]),
    p("lzcat", &[Decoder, Prints]),
    p("lzip", &[Files, Prints]),
    p("lzma", &[Files, Prints]),
    p("lzop", &[Files, Prints]),
    p("mac-cleanup", ACTS),
    p("macchanger", ACTS),
    p("maestral", &[Cloud, Keeps]),
    p("mage", PROJECT),
    p("mail", MAIL),
    of("mailx", "mail"),
    p("make", PROJECT),
    p("makewhatis", INDEX),
    p("mamba", GLOBAL_PKG),
    p("man", &[ReadOnly, Editor, Runs]),
    p("mandb", INDEX),
    p("mapfile", BUILTIN),
    p("mariadb", DB),
    p("masscan", &[Attack]),
    of("mawk", "awk"),
    p("maza", SYS),
    p("mc", &[Keeps]),
    p("md5sum", RO),
    p("mdadm", DISK),
    p("medusa", &[Attack]),
    p("microsoft-edge", NET),
    p("mimikatz", &[Attack, Secrets]),
    p("minikube", &[Keeps]),
    p("minio", &[Server]),
    p("minipro", DISK),
    p("miniserve", SERVE),
    p("mirrord", CLOUD),
    p("mise", &[Packages, Global, Runs]),
    p("mitm6", &[Attack]),
    p("mkdir", FILES),
    p("mkinitcpio", ACTS),
    p("mkinitfs", ACTS),
    p("mkpart", DISK),
    p("mksh", SHELL),
    p("mlabel", SYS),
    p("mmcli", SYS),
    p("mmls", RO),
    p("mocp", PLAYER),
    p("modprobe", ACTS),
    p("mokutil", ACTS),
    p("mole", SYS),
    p("monero-wallet-cli", &[Secrets, Keeps, Wallet]),
    p("mongo", DB),
    p("mongorestore", DB),
    p("mongosh", DB),
    p("more", &[ReadOnly, Prints, Editor]),
    p("mosh", NET),
    p("mosh-server", &[RemoteAccess]),
    p("mosquitto", DAEMON),
    p("mosquitto_passwd", SECRET),
    p("mosquitto_pub", NET),
    typed("mount", ACTS),
    p("mozillavpn", SYS),
    p("mpc", PLAYER),
    of("mpiexec", "mpirun"),
    p("mpirun", &[Runs]),
    p("mpstat", RO),
    p("msfconsole", &[Attack]),
    p("msmtp", MAIL),
    p("mssql-cli", DB),
    p("mssqlclient.py", &[Attack]),
    p("mstsc", &[Network, Session]),
    p("mtr", PING),
    p("mullvad", SYS),
    p("multipass", MACHINES),
    p("mutt", MAIL),
    p("mv", FILES),
    p("mvn", PROJECT),
    p("mycli", DB),
    p("mysql", DB),
    p("mysqlimport", DB),
    p("nagios", ACTS),
    p("nagios4", ACTS),
    p("nala", GLOBAL_PKG),
    p("nats", &[Keeps]),
    of("nawk", "awk"),
    p("nb", &[Keeps]),
    p("nc", NET),
    p("ncat", NET),
    p("ncrack", &[Attack]),
    p("ndc", SYS),
    of("neomutt", "mutt"),
    p("neonctl", &[Cloud, Keeps]),
    p("nerdctl", &[Container, Runs]),
    of("netcat", "nc"),
    p("netexec", &[Attack]),
    p("nethogs", RO),
    p("netlify", &[Cloud, Keeps]),
    p("netplan", SYS),
    p("netselect", PING),
    p("netserver", ACTS),
    p("netstat", RO),
    p("nettacker", &[Attack]),
    p("networkctl", SYS),
    p("networksetup", SYS),
    p("nfcd", DAEMON),
    p("nft", SYS),
    p("ngrep", RO),
    p("ngrok", TUNNEL),
    p("nh", SYS),
    p("nice", WRAP),
    p("niceload", &[Runs]),
    p("nikto", &[Attack]),
    p("nikto.pl", &[Attack]),
    p("nim", INTERP),
    p("niri", &[Runs]),
    p("nix", &[Packages, Runs]),
    p("nix-channel", PKG),
    p("nix-collect-garbage", SYS),
    p("nix-env", GLOBAL_PKG),
    p("nix-shell", &[Runs]),
    p("nixos-rebuild", SYS),
    p("nl", PRINTS),
    p("nload", RO),
    p("nm", RO),
    p("nmcli", SYS),
    p("nocorrect", WRAP),
    code("node", INTERP, L::JavaScript, &["-e", "--eval", "-p", "--print"], true),
    of("nodejs", "node"),
    p("nodemon", &[ProjectRunner, Runs]),
    p("nodenv", GLOBAL_PKG),
    p("noglob", WRAP),
    p("nohup", WRAP),
    p("nomad", CLOUD),
    p("nordvpn", SYS),
    p("northflank", &[Cloud, Keeps]),
    p("noseyparker", SECRET),
    p("notifyd", DAEMON),
    p("nox", PROJECT),
    p("npm", &[Packages, Runs]),
    p("npm-run-all", PROJECT),
    p("nproc", RO),
    p("npx", &[Runs, ProjectRunner]),
    p("nq", &[Runs]),
    p("nsenter", WRAP),
    p("nslookup", NET),
    p("ntfsfix", ACTS),
    p("ntlmrelayx.py", &[Attack]),
    p("ntpd", DAEMON),
    p("nu", SHELL),
    p("nuclei", &[Attack]),
    p("nvidia-smi", RO),
    of("nvim", "vim"),
    p("nvm", GLOBAL_PKG),
    p("nvme", DISK),
    p("nvram", SYS),
    p("nwipe", DISK),
    p("nx", PROJECT),
    p("nxc", &[Attack]),
    p("oauth2c", &[Secrets, Tokens]),
    p("objdump", RO),
    p("obsidian", &[Keeps]),
    p("oc", &[Cloud, Runs]),
    p("ocaml", INTERP),
    p("oci", CLOUD),
    p("octez-client", SECRET),
    p("od", PRINTS),
    p("odpscmd", &[Cloud, Keeps]),
    p("oha", &[Network, Flood]),
    p("oksh", SHELL),
    p("oneliner", &[Agent]),
    p("onionshare-cli", &[Uploads]),
    p("op", &[Secrets, Keeps]),
    p("open", NET),
    p("openai", &[Agent]),
    p("openclaw", &[Agent]),
    p("opencode", &[Agent]),
    p("opensnoop", RO),
    p("openssl", &[Decoder, Prints, Network]),
    p("openstack", &[Cloud, Keeps]),
    p("openvpn", DAEMON),
    p("opkg", GLOBAL_PKG),
    p("orb", MACHINES),
    p("orbctl", MACHINES),
    p("os-prober", RO),
    code("osascript", INTERP, L::AppleScript, &["-e"], true),
    p("osh", SHELL),
    p("ots", &[Uploads]),
    p("owneredit.py", &[Attack]),
    p("p11tool", &[Secrets, Keeps]),
    p("p4", &[VersionControl, Keeps]),
    of("pacaur", "pacman"),
    p("pacman", GLOBAL_PKG),
    p("pacman-key", ACTS),
    p("pactl", DESKTOP),
    of("pakku", "pacman"),
    p("pamixer", DESKTOP),
    p("paperkey", SECRET),
    p("parallel", WRAP),
    p("parallel-ssh", &[Network, Runs]),
    p("partclone.ext4", DISK),
    p("parted", DISK),
    p("particle", CLOUD),
    p("paru", GLOBAL_PKG),
    p("pass", SECRET),
    p("passage", SECRET),
    p("passwd", ACTS),
    p("pastebinit", &[Uploads]),
    p("patator", &[Attack]),
    p("pct", CLOUD),
    p("pdbedit", ACTS),
    p("pdm", &[Packages, Runs]),
    p("pdsh", &[Network, Runs]),
    p("pee", &[Runs]),
    p("perf", &[Wrapper, Tracer]),
    code("perl", INTERP, L::Perl, &["-e", "-E"], true),
    p("perl-rename", FILES),
    p("perlbrew", GLOBAL_PKG),
    p("pfexec", &[Runs]),
    p("pg_ctl", SVC),
    p("pg_restore", DB),
    p("pgcli", DB),
    p("pgrep", RO),
    p("photorec", RO),
    code("php", INTERP, L::Php, &["-r"], true),
    p("php-coveralls", &[Uploads]),
    p("php-fpm", DAEMON),
    p("phpdismod", ACTS),
    p("phpenv", GLOBAL_PKG),
    p("pidof", RO),
    p("pidstat", RO),
    p("pigz", &[Files, Prints]),
    p("pihole", SYS),
    p("pijul", VCS),
    of("pikaur", "pacman"),
    p("ping", &[Network, ReadOnly]),
    p("ping6", PING),
    p("pip", PKG),
    p("pipenv", &[Packages, Runs]),
    p("pipx", &[Packages, Global, Runs]),
    p("pivot_root", ACTS),
    p("pivpn", SYS),
    p("pixz", &[Files, Prints]),
    p("pkcs11-tool", &[Secrets, Keeps]),
    p("pkexec", WRAP),
    p("pkg", GLOBAL_PKG),
    p("pkg_add", GLOBAL_PKG),
    p("pkgadd", GLOBAL_PKG),
    p("pkill", ACTS),
    p("planetscale", &[Cloud, Keeps]),
    p("playerctl", PLAYER),
    p("please", &[Runs]),
    p("plenv", GLOBAL_PKG),
    p("pm2", &[ProjectRunner, Services, Sessions]),
    p("pmap", RO),
    p("pmount", ACTS),
    p("pmset", SYS),
    p("pnpm", &[Packages, ProjectRunner, Runs]),
    p("pnpx", &[Runs, ProjectRunner]),
    p("podman", &[Container, Runs]),
    p("podman-compose", &[Container, Runs]),
    p("poetry", &[Packages, Runs]),
    p("polybar-msg", DESKTOP),
    p("popd", RO),
    p("port", GLOBAL_PKG),
    p("portablectl", SVC),
    p("posh", SHELL),
    p("postfix", SYS),
    p("postgres", ACTS),
    p("powercat", RELAY),
    p("powermetrics", RO),
    p("poweroff", ACTS),
    p("powerprofilesctl", SYS),
    of("powershell", "pwsh"),
    of("powershell_ise", "pwsh"),
    p("powertop2tuned", ACTS),
    p("prename", FILES),
    p("printenv", RO),
    p("printf", RO),
    p("prlctl", MACHINES),
    p("proot", &[Runs]),
    p("prosodyctl", SVC),
    p("protector", CLOUD),
    p("protonvpn", SYS),
    p("protonvpn-cli", SYS),
    p("proxychains", WRAP),
    of("proxychains4", "proxychains"),
    p("ps", RO),
    p("pscale", &[Cloud, Keeps]),
    p("psexec.py", &[Attack]),
    p("psql", DB),
    p("pssh", &[Network, Runs]),
    p("pstree", RO),
    p("pueue", &[Runs]),
    p("pulumi", CLOUD),
    p("puppet", CLOUD),
    p("pushd", RO),
    p("putty", &[Network, Session]),
    p("pvchange", ACTS),
    p("pvck", ACTS),
    p("pvcreate", DISK),
    p("pvdisplay", RO),
    p("pveam", CLOUD),
    p("pvecm", CLOUD),
    p("pvenode", CLOUD),
    p("pvesh", CLOUD),
    p("pvesm", CLOUD),
    p("pveum", CLOUD),
    p("pvmove", ACTS),
    p("pvremove", DISK),
    p("pvresize", ACTS),
    p("pvs", RO),
    p("pvscan", RO),
    p("pwd", RO),
    p("pwncat", RELAY),
    p("pwpolicy", ACTS),
    code("pwsh", &[Shell, Interpreter], L::PowerShell, &["-c", "-command", "-encodedcommand", "-enc", "-e", "-ec"], true),
    of("pwsh-preview", "pwsh"),
    p("pyenv", &[Packages, Global, Runs]),
    p("pyinfra", CLOUD),
    of("pypy", "python"),
    code("python", &[Interpreter, Runs], L::Python, &["-c"], true),
    p("qchat", &[Agent]),
    p("qdbus", &[Runs]),
    p("qm", CLOUD),
    p("qmmp", PLAYER),
    p("qovery", &[Cloud, Keeps]),
    p("quickemu", MACHINES),
    p("qwen", &[Agent]),
    code("r", INTERP, L::R, &["-e"], true),
    p("rabbitmq-queues", &[Keeps]),
    p("rabbitmq-upgrade", SYS),
    p("rabbitmqadmin", &[Keeps]),
    p("rabbitmqctl", &[Keeps]),
    p("racket", INTERP),
    p("rage", SECRET),
    // Rails' own command: the project's tasks, generators and server, and Ruby code run in
    // the application (`rails runner CODE`, `rails r CODE`).
    code("rails", &[ProjectRunner, Interpreter], L::Ruby, &["r", "runner"], false),
    p("railway", &[Cloud, Keeps]),
    p("raisechild.py", &[Attack]),
    p("rake", PROJECT),
    p("rathole", TUNNEL),
    p("rauc", SYS),
    p("rbash", SHELL),
    p("rbcd.py", &[Attack]),
    p("rbenv", &[Packages, Global, Runs]),
    p("rbw", SECRET),
    p("rc-service", SVC),
    p("rc-update", SVC),
    p("rcat", RELAY),
    p("rclone", &[Network, Keeps]),
    of("rcp", "scp"),
    p("rcs", VCS),
    p("rcsdiff", VCS),
    p("rcsmerge", VCS),
    p("rdesktop", &[Network, Session]),
    p("rdp_check.py", &[Attack]),
    p("read", BUILTIN),
    p("readarray", BUILTIN),
    p("readelf", RO),
    p("readlink", RO),
    p("readonly", BUILTIN),
    p("realpath", RO),
    p("reaver", &[Attack]),
    p("reboot", SYS),
    p("redis-cli", DB),
    p("regedit", SYS),
    p("reindexdb", DB),
    p("remmina", &[Network, Session]),
    p("remote-viewer", &[Network, Session]),
    p("rename", FILES),
    p("render", &[Cloud, Keeps]),
    p("renice", ACTS),
    p("repquota", RO),
    p("resize2fs", DISK),
    p("resolvconf", ACTS),
    p("responder", &[Attack, Secrets]),
    p("restic", &[Network, Keeps]),
    p("resticprofile", &[Keeps]),
    p("restorecon", ACTS),
    p("retry", &[Runs]),
    p("rev", &[ReadOnly, Prints, Decoder]),
    p("rexec", NET),
    p("rfkill", SYS),
    p("rg", PRINTS),
    // Node's `rm -rf`: every operand deleted with what is under it.
    p("rimraf", &[Remover]),
    p("riverctl", &[Runs]),
    p("rlog", VCS),
    p("rlogin", NET),
    p("rlwrap", &[Runs]),
    p("rm", &[Remover]),
    p("rmdir", &[Remover]),
    p("rmmod", ACTS),
    p("rmpc", PLAYER),
    p("route", SYS),
    p("rpcclient", &[Attack]),
    p("rpcdump.py", &[Attack]),
    p("rpi-eeprom-update", ACTS),
    p("rpi-imager", DISK),
    p("rpi-otp-private-key", SECRET),
    p("rpk", &[Cloud, Keeps]),
    p("rpm", PKG),
    of("rscript", "r"),
    p("rsh", NET),
    p("rsync", &[Network, Runs]),
    p("rtcwake", ACTS),
    of("rtx", "mise"),
    code("ruby", &[Interpreter, Runs], L::Ruby, &["-e"], true),
    p("run-p", PROJECT),
    p("run-s", PROJECT),
    p("run0", WRAP),
    p("run_init", SVC),
    p("runghc", INTERP),
    of("runhaskell", "runghc"),
    p("runsvchdir", SVC),
    p("runsvdir", SVC),
    p("runuser", WRAP),
    p("rustdesk", &[RemoteAccess]),
    p("rustup", GLOBAL_PKG),
    p("rvm", GLOBAL_PKG),
    p("rye", PKG),
    p("s-nail", MAIL),
    p("s3cmd", &[Cloud, Keeps]),
    p("sacctmgr", CLOUD),
    p("safe", SECRET),
    p("safeejectgpu", SYS),
    p("salloc", CLOUD),
    p("salt", &[Cloud, Runs]),
    p("salt-run", CLOUD),
    p("salt-ssh", &[Network, Runs]),
    p("sam", CLOUD),
    p("sambapipe.py", &[Attack]),
    p("samrdump.py", &[Attack]),
    p("sar", RO),
    p("sbatch", &[Runs]),
    p("sbcl", INTERP),
    p("sbd", RELAY),
    code("scala", INTERP, L::Scala, &["-e"], false),
    p("scalaenv", GLOBAL_PKG),
    p("schroot", &[Runs]),
    p("scoop", GLOBAL_PKG),
    p("scp", &[Network, Runs]),
    p("screen", &[Shell, Runs, Sessions]),
    p("script", &[Shell, Runs]),
    p("scrontab", CLOUD),
    p("scutil", SYS),
    p("scw", &[Cloud, Keeps]),
    p("sdk", GLOBAL_PKG),
    p("sdl-freerdp", &[Network, Session]),
    p("secd", DAEMON),
    p("secret-tool", SECRET),
    p("secretsdump.py", &[Attack, Secrets]),
    p("security", SECRET),
    p("sed", &[ReadOnly, Prints, Interpreter]),
    p("select", BUILTIN),
    p("sem", &[Runs]),
    p("semodule", ACTS),
    p("sendmail", MAIL),
    p("sensible-browser", NET),
    p("sensors", RO),
    p("seq", RO),
    p("serve", SERVE),
    p("serveo", TUNNEL),
    p("serverless", CLOUD),
    p("service", SVC),
    p("set", BUILTIN),
    p("setcap", &[System, Acts]),
    p("setenforce", ACTS),
    p("setfacl", FILES),
    p("setfiles", ACTS),
    p("setsebool", ACTS),
    p("setsid", WRAP),
    p("setxkbmap", DESKTOP),
    p("sf", CLOUD),
    p("sfdisk", DISK),
    p("sfill", ACTS),
    p("sftp", &[Network, Runs]),
    p("sg", &[Runs]),
    p("sg_raw", DISK),
    p("sgdisk", DISK),
    p("sgpt", &[Agent]),
    p("sh", SHELL),
    p("sha1sum", RO),
    p("sha256sum", RO),
    p("shasum", RO),
    p("shellinaboxd", &[RemoteAccess]),
    p("shiny-mirrors", SYS),
    p("shopt", BUILTIN),
    p("showmount", RO),
    p("shred", &[Remover]),
    p("shutdown", SYS),
    p("siege", &[Network, Flood]),
    p("simple-mtpfs", ACTS),
    p("simplehttpserver", SERVE),
    p("skopeo", CLOUD),
    p("slabtop", RO),
    p("slackcat", &[Uploads]),
    p("sleep", RO),
    p("slowhttptest", &[Network, Flood]),
    of("sls", "serverless"),
    p("slurmrestd", DAEMON),
    p("smartctl", RO),
    p("smbclient", NET),
    p("smbclient.py", &[Attack]),
    p("smbexec.py", &[Attack]),
    p("smbmap", &[Attack]),
    p("smbpasswd", ACTS),
    p("smbserver.py", SERVE),
    p("snap", GLOBAL_PKG),
    p("snapper", SYS),
    p("snowsql", DB),
    p("sntp", SYS),
    p("sntpd", DAEMON),
    p("socat", RELAY),
    p("socket", RELAY),
    p("solana", &[Keeps, Wallet]),
    p("sops", &[Secrets, Runs]),
    p("sort", PRINTS),
    p("source", &[Source]),
    p("spctl", SYS),
    p("spl-token", &[Secrets, Keeps, Wallet]),
    p("sponge", &[Files]),
    p("spotify", PLAYER),
    p("sq", SECRET),
    p("sqlcmd", DB),
    p("sqlite3", DB),
    p("sqlmap", &[Attack]),
    p("sqsc", &[Cloud, Keeps]),
    p("squid", DAEMON),
    p("srm", &[Remover]),
    p("srun", &[Runs]),
    p("ss", RO),
    p("ssh", &[Network, Runs]),
    p("ssh-add", SECRET),
    p("sshd", DAEMON),
    p("sshpass", WRAP),
    p("sshx", &[RemoteAccess]),
    p("sslstrip", SECRET),
    p("ssmtp", MAIL),
    p("sst", CLOUD),
    p("sswap", ACTS),
    p("stat", RO),
    p("stdbuf", WRAP),
    p("steamos-chroot", ACTS),
    p("steamos-devmode", SYS),
    p("steamos-readonly", SYS),
    p("steamos-select-branch", ACTS),
    p("steamos-session-select", ACTS),
    p("step", SECRET),
    p("strace", &[Wrapper, Tracer]),
    p("strigger", CLOUD),
    p("strings", PRINTS),
    p("stripe", CLOUD),
    p("su", &[Shell, Runs]),
    p("su-exec", WRAP),
    p("sudo", WRAP),
    of("sudo-rs", "sudo"),
    p("sudoedit", SYS),
    p("summon", &[Runs]),
    p("supabase", &[Cloud, Keeps]),
    p("supervisorctl", SVC),
    p("supervisord", SVC),
    p("surge", CLOUD),
    p("sv", SVC),
    p("svn", VCS),
    p("sw_vers", RO),
    p("swaks", MAIL),
    p("swaplabel", DISK),
    p("swapoff", ACTS),
    p("swapon", ACTS),
    p("swaymsg", &[Runs]),
    code("swift", INTERP, L::Swift, &["-e"], true),
    p("swiftenv", GLOBAL_PKG),
    p("symptomsd", DAEMON),
    p("synoupgrade", ACTS),
    p("sysctl", SYS),
    p("system_profiler", RO),
    p("systemctl", SVC),
    p("systemd-ask-password", SECRET),
    p("systemd-creds", SECRET),
    p("systemd-cryptenroll", DISK),
    p("systemd-cryptsetup", SYS),
    p("systemd-hwdb", SYS),
    p("systemd-inhibit", &[Runs]),
    p("systemd-mount", ACTS),
    p("systemd-repart", DISK),
    p("systemd-run", &[Wrapper, Services]),
    p("systemd-sysusers", ACTS),
    p("systemd-tmpfiles", ACTS),
    p("systemsetup", SYS),
    p("sysv-rc-conf", SVC),
    p("tac", PRINTS),
    p("tail", PRINTS),
    p("tailscale", &[Network, Tunnel]),
    p("takeout", &[Container]),
    p("talosctl", CLOUD),
    p("tar", &[Runs, Prints]),
    p("tarsnap", &[Uploads]),
    p("tart", MACHINES),
    p("task", PROJECT),
    p("taskset", WRAP),
    p("tccutil", SYS),
    code("tclsh", INTERP, L::Tcl, &[], true),
    p("tcpdump", RO),
    p("tcpick", RO),
    p("tcptraceroute", PING),
    p("tcptrack", RO),
    p("tcsh", SHELL),
    p("tea", &[Cloud, Keeps]),
    p("teamviewer", &[RemoteAccess]),
    p("tee", FILES),
    p("teleconsole", &[RemoteAccess]),
    p("telinit", ACTS),
    p("teller", &[Secrets, Runs]),
    p("telnet", &[Network, Session]),
    p("terraform", CLOUD),
    p("terragrunt", CLOUD),
    p("test", RO),
    p("tfenv", GLOBAL_PKG),
    p("tftp", NET),
    p("tgpt", &[Agent]),
    p("then", BUILTIN),
    p("ticketconverter.py", SECRET),
    p("ticketer.py", &[Attack]),
    p("time", WRAP),
    p("timed", DAEMON),
    p("timedatectl", SYS),
    p("timeout", WRAP),
    p("timeshift", &[Keeps]),
    p("timew", &[Keeps]),
    p("tldr", RO),
    p("tlp", SYS),
    p("tlp-stat", RO),
    p("tmate", &[RemoteAccess]),
    p("tmutil", SYS),
    p("tmux", &[Shell, Runs, Sessions]),
    p("tod", &[Keeps]),
    p("todoist", &[Keeps]),
    p("tofu", CLOUD),
    p("togglesebool", ACTS),
    p("toolbox", &[Runs]),
    p("top", RO),
    p("torsocks", WRAP),
    p("touch", FILES),
    p("tox", PROJECT),
    p("toybox", WRAP),
    p("tpm2", SYS),
    p("tr", &[ReadOnly, Prints, Decoder]),
    p("trace-cmd", &[Wrapper, Tracer]),
    p("tracepath", PING),
    p("traceroute", PING),
    p("traceroute6", PING),
    p("traefik", DAEMON),
    p("transfersh", &[Uploads]),
    p("translationd", DAEMON),
    p("trap", BUILTIN),
    p("travis", &[Cloud, Keeps]),
    p("tree", RO),
    of("trizen", "pacman"),
    p("true", RO),
    p("truncate", FILES),
    p("trust", SYS),
    of("ts-node", "node"),
    p("tshark", RO),
    of("tsx", "node"),
    p("tty", RO),
    p("tty-share", &[RemoteAccess]),
    p("ttyd", &[RemoteAccess]),
    p("tune.exfat", SYS),
    p("tune2fs", ACTS),
    p("tuned", DAEMON),
    p("tunelp", ACTS),
    p("turbo", PROJECT),
    p("turso", CLOUD),
    p("twilio", CLOUD),
    p("twine", PKG),
    p("twistd", SERVE),
    p("type", RO),
    p("typeset", BUILTIN),
    p("ubuntu-bug", &[Uploads]),
    p("ubus", SYS),
    p("uci", SYS),
    p("udevadm", SYS),
    p("udevmon", DAEMON),
    p("udiskie-mount", ACTS),
    p("udisksctl", SYS),
    p("ufw", SYS),
    p("uinput", ACTS),
    p("ukify", ACTS),
    typed("umount", ACTS),
    p("unalias", BUILTIN),
    p("uname", RO),
    p("unbuffer", WRAP),
    p("uniq", PRINTS),
    p("universalaccessd", DAEMON),
    p("unlink", &[Remover]),
    p("unlzma", &[Decoder, Files, Prints]),
    p("unset", BUILTIN),
    p("unshare", WRAP),
    p("until", BUILTIN),
    p("unxz", &[Decoder, Files, Prints]),
    p("unzstd", &[Decoder, Files, Prints]),
    p("upctl", CLOUD),
    p("update-alternatives", SYS),
    p("update-ca-certificates", SYS),
    p("update-ca-trust", SYS),
    p("update-desktop-database", INDEX),
    p("update-grub", SYS),
    p("update-initramfs", ACTS),
    p("update-mime-database", INDEX),
    p("update-rc.d", SVC),
    p("updatectl", SYS),
    p("updatedb", INDEX),
    p("updog", SERVE),
    p("upnpc", ACTS),
    p("upstash", CLOUD),
    p("upterm", &[RemoteAccess]),
    p("uptime", RO),
    p("useradd", ACTS),
    p("userdel", ACTS),
    p("usermod", ACTS),
    p("usernoted", DAEMON),
    p("usql", DB),
    p("utmctl", MACHINES),
    p("uudecode", DECODE),
    p("uuencode", PRINTS),
    p("uv", &[Packages, Runs]),
    p("uvx", &[Runs, ProjectRunner]),
    p("vacuumdb", DB),
    p("vagrant", &[Keeps]),
    p("valgrind", WRAP),
    p("valkey-cli", DB),
    p("vault", &[Secrets, Keeps]),
    p("vboxmanage", MACHINES),
    p("vcgencmd", SYS),
    p("vcluster", CLOUD),
    p("vela", CLOUD),
    p("velero", &[Keeps]),
    p("ventoy", DISK),
    p("veracrypt", ACTS),
    p("vercel", CLOUD),
    p("vfox", GLOBAL_PKG),
    p("vgcfgrestore", DISK),
    p("vgchange", ACTS),
    p("vgcreate", DISK),
    p("vgdisplay", RO),
    p("vgextend", ACTS),
    p("vgreduce", ACTS),
    p("vgremove", DISK),
    p("vgrename", ACTS),
    p("vgs", RO),
    p("vgscan", RO),
    of("vi", "vim"),
    p("vibe", &[Agent]),
    p("vim", EDIT),
    p("vipw", ACTS),
    p("virsh", MACHINES),
    p("virt-clone", &[Keeps]),
    p("vmstat", RO),
    p("vncserver", SERVE),
    p("vncviewer", &[Network, Session]),
    p("volta", &[Packages, Global, Runs]),
    p("vpnc-disconnect", ACTS),
    p("vso", SYS),
    p("vultr-cli", CLOUD),
    p("w", RO),
    p("warmd", DAEMON),
    p("warp-cli", SYS),
    p("watch", WRAP),
    p("watchexec", WRAP),
    p("watchlistd", DAEMON),
    p("watchman-make", &[Runs]),
    p("watson", &[Keeps]),
    p("waypipe", WRAP),
    p("wc", RO),
    p("webfsd", SERVE),
    p("webinspectord", DAEMON),
    p("websocat", RELAY),
    p("webssh", &[RemoteAccess]),
    p("wetty", &[RemoteAccess]),
    p("wfuzz", &[Attack]),
    p("wg", SYS),
    p("wg-quick", SYS),
    p("wget", DL),
    p("whereis", RO),
    p("which", RO),
    p("while", BUILTIN),
    p("who", RO),
    p("whoami", RO),
    p("whois", NET),
    p("wifite", &[Attack]),
    p("wifivelocityd", DAEMON),
    p("windscribe", SYS),
    p("winget", GLOBAL_PKG),
    p("wipe", &[Remover]),
    code("wish", INTERP, L::Tcl, &[], true),
    p("with-contenv", &[Runs]),
    p("wlfreerdp", &[Network, Session]),
    p("wmiexec.py", &[Attack]),
    p("wmipersist.py", &[Attack]),
    p("wmiquery.py", &[Attack]),
    p("wodim", DISK),
    p("woeusb", DISK),
    p("wondershaper", ACTS),
    p("wormhole", NET),
    p("wpa_cli", SYS),
    p("wpa_supplicant", ACTS),
    p("wpctl", DESKTOP),
    p("wpscan", &[Attack]),
    p("wrangler", CLOUD),
    p("wrk", &[Network, Flood]),
    p("wrk2", &[Network, Flood]),
    p("wwand", DAEMON),
    p("x-www-browser", NET),
    p("x0vncserver", SERVE),
    p("x11vnc", &[RemoteAccess]),
    p("xargs", WRAP),
    p("xauth", SECRET),
    p("xbacklight", DESKTOP),
    p("xbps-install", PKG),
    p("xdg-mime", SYS),
    p("xdg-open", NET),
    p("xdg-settings", SYS),
    p("xdg-su", &[Runs]),
    p("xdp-filter", ACTS),
    p("xfreerdp", &[Network, Session]),
    p("xfs_admin", SYS),
    p("xfs_repair", ACTS),
    p("xh", DL),
    p("xinput", DESKTOP),
    p("xonsh", SHELL),
    p("xrandr", DESKTOP),
    p("xsand", DAEMON),
    p("xset", DESKTOP),
    p("xsetwacom", DESKTOP),
    p("xsstrike", &[Attack]),
    p("xtigervncviewer", &[Network, Session]),
    p("xvfb-run", &[Runs]),
    p("xxd", &[ReadOnly, Prints, Decoder]),
    p("xz", &[Files, Prints]),
    p("xzcat", &[Decoder, Prints]),
    of("yaourt", "pacman"),
    p("yarn", &[Packages, ProjectRunner, Runs]),
    of("yarnpkg", "yarn"),
    p("yash", SHELL),
    p("yay", GLOBAL_PKG),
    p("ykman", &[Secrets, Keeps]),
    p("youtube-dl", &[Downloader, Network, Runs]),
    p("yq", PRINTS),
    p("ysh", SHELL),
    p("yt-dlp", &[Downloader, Network, Runs]),
    p("yubico-piv-tool", &[Secrets, Keeps]),
    p("yum", GLOBAL_PKG),
    p("zabbix_agent2", DAEMON),
    p("zabbix_agentd", DAEMON),
    p("zabbix_proxy", DAEMON),
    p("zabbix_server", DAEMON),
    p("zapier", CLOUD),
    p("zcat", &[Decoder, Prints]),
    p("zellij", &[Runs, Sessions]),
    p("zeroclaw", &[Agent]),
    p("zerotier-cli", SYS),
    p("zfs", DISK),
    p("zip", &[Runs, Prints]),
    p("zmap", &[Attack]),
    p("zpool", DISK),
    p("zrok", &[Server, Tunnel]),
    p("zsh", SHELL),
    p("zstd", &[Files, Prints]),
    p("zstdcat", &[Decoder, Prints]),
    p("zx", INTERP),
    p("zypper", GLOBAL_PKG),
];

/// Impacket's scripts as distributions install them (`impacket-secretsdump`,
/// `impacket-getTGT`): the script's own line (`secretsdump.py`).
fn impacket(name: &str) -> Option<&'static Program> {
    let script = name.strip_prefix("impacket-")?;
    find(&format!("{script}.py"))
}

/// The line whose helper `name` is (`mount.nfs`, `fsck.ext4` → `mount`, `fsck`): the part
/// before its first dot, when that line says its helpers are its own. A script (`mount.sh`)
/// is not a helper.
fn helper_of(name: &str) -> Option<&'static Program> {
    // Program names are a few bytes: a plain loop, not the searcher `split_once` builds.
    let dot = name.bytes().position(|b| b == b'.')?;
    let (head, kind) = (name.get(..dot)?, name.get(dot + 1..)?);
    let scripts = [
        "sh", "bash", "zsh", "py", "pl", "rb", "js", "ts", "php", "ps1",
    ];
    let plain = !kind.is_empty()
        && kind
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    // The type's own checks first: most names with a dot are no helper's, and are not
    // looked up.
    if !plain || scripts.contains(&kind) {
        return None;
    }
    find(head).filter(|line| line.helpers)
}

/// The bytes that make a word other than a resolved name: upper case, and the separators
/// of a path (one look-up a byte).
const NOT_PLAIN: [bool; 256] = {
    let mut table = [false; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        table[c] = b.is_ascii_uppercase() || b == b'/' || b == b'\\';
        c += 1;
    }
    table
};

/// The program a word names, as the catalogue resolves it: basename, lower case, `.exe` off,
/// then the line itself, else the name without its version suffix (`python3.12`, `pip3`),
/// else the program a helper is of (`mount.nfs` → `mount`).
pub fn program(word: &str) -> Option<&'static Program> {
    // The rules ask about one command's program again and again (forty times a routine
    // command): the last few words asked about are kept with their answers.
    let Some(key) = Recent::key(word) else {
        return look_up(word);
    };
    RECENT.with(|recent| {
        recent.get(key).unwrap_or_else(|| {
            let found = look_up(word);
            recent.put(key, found);
            found
        })
    })
}

/// A word of at most 16 bytes as a key: its length and its bytes, zeros after its end.
type Key = (u8, u64, u64);

/// A word kept, with what it names.
type Kept = Option<(Key, Option<&'static Program>)>;

/// The last words [`program`] was asked about, with what they name: a bounded memo of a
/// function of the word alone (the catalogue is fixed), so an answer kept is the answer.
struct Recent {
    slots: [std::cell::Cell<Kept>; 4],
    /// The slot the next word asked about takes (the oldest).
    next: std::cell::Cell<usize>,
}

thread_local! {
    static RECENT: Recent = const {
        Recent {
            slots: [const { std::cell::Cell::new(None) }; 4],
            next: std::cell::Cell::new(0),
        }
    };
}

impl Recent {
    /// The key of a word short enough to keep (most programs' names are).
    fn key(word: &str) -> Option<Key> {
        let bytes = word.as_bytes();
        let len = u8::try_from(bytes.len()).ok().filter(|&len| len <= 16)?;
        let (first, rest) = bytes.split_at(bytes.len().min(8));
        Some((len, head(first), head(rest)))
    }

    fn get(&self, key: Key) -> Option<Option<&'static Program>> {
        self.slots
            .iter()
            .find_map(|slot| slot.get().filter(|(kept, _)| *kept == key))
            .map(|(_, found)| found)
    }

    fn put(&self, key: Key, found: Option<&'static Program>) {
        let at = self.next.get();
        if let Some(slot) = self.slots.get(at) {
            slot.set(Some((key, found)));
        }
        self.next.set((at + 1) % self.slots.len());
    }
}

/// [`program`], looked up.
fn look_up(word: &str) -> Option<&'static Program> {
    // Most words the rules ask about are already a resolved name (`git`, `python`): found
    // without a copy.
    let plain = !word.is_empty()
        && !word.bytes().any(|b| NOT_PLAIN[usize::from(b)])
        && !word.ends_with(".exe");
    let owned;
    let name: &str = if plain {
        word
    } else {
        owned = base(word);
        &owned
    };
    let line = find(name)
        .or_else(|| {
            // Most names that are no line end in a letter: no suffix to take off.
            let suffixed = name
                .as_bytes()
                .last()
                .is_some_and(|b| b.is_ascii_digit() || matches!(b, b'.' | b'-'));
            if !suffixed {
                return None;
            }
            let stem = name.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.' || c == '-');
            (stem.len() < name.len() && stem.len() >= 2)
                .then(|| find(stem))
                .flatten()
        })
        .or_else(|| helper_of(name))
        .or_else(|| impacket(name))?;
    match line.of {
        Some(family) => find(family),
        None => Some(line),
    }
}

/// The name a word stands for: the catalogue's family name when it knows the program
/// (`/usr/bin/Python3.12` → `python`, `gawk` → `awk`), else its basename, lower case, `.exe` off.
pub fn name(word: &str) -> String {
    resolved(word).into_owned()
}

/// [`name`], borrowed from the catalogue's line when it knows the program.
pub(crate) fn resolved(word: &str) -> std::borrow::Cow<'static, str> {
    match program(word) {
        Some(found) => std::borrow::Cow::Borrowed(found.name),
        None => std::borrow::Cow::Owned(base(word)),
    }
}

/// Is the program `word` names of `class`?
pub fn is(word: &str, class: Class) -> bool {
    program(word).is_some_and(|found| found.is(class))
}

/// The basename (after `/` or `\`), lower case, a trailing `.exe` taken off.
fn base(word: &str) -> String {
    // A byte search, not `rsplit`'s searcher for two characters: words are a few bytes.
    let last = match word.bytes().rposition(|b| b == b'/' || b == b'\\') {
        Some(at) => word.get(at + 1..).unwrap_or(word),
        None => word,
    };
    let lower = last.to_ascii_lowercase();
    match lower.strip_suffix(".exe") {
        Some(stem) if !stem.is_empty() => stem.to_string(),
        _ => lower,
    }
}

/// Fixed names and what each stands for, made once and only read: a lookup runs for every
/// word a rule asks about (forty times a routine command) and every path code names, so it
/// is one multiply and one or two slots, not a general map. Open addressing over a power of
/// two at most a quarter full (most names asked about are none of its: a miss ends at the
/// first free slot); a slot holds its name's first eight bytes, so a slot of another name is
/// passed over without comparing texts. The catalogue's lines by their names, and the code
/// reader's lexicon index (`law::code::lexicon`).
pub(crate) struct Names<V: 'static> {
    slots: Box<[Slot<V>]>,
    /// The top bits of a hash pick the slot: `64 - log2(slots)`.
    shift: u32,
}

/// The first eight bytes of a name as one number (zeros after a shorter name's end).
fn head(name: &[u8]) -> u64 {
    match name.get(..8).map(<[u8; 8]>::try_from) {
        Some(Ok(eight)) => u64::from_le_bytes(eight),
        // Byte by byte, last first: a copy of a few bytes would be a call.
        _ => name
            .iter()
            .rev()
            .fold(0u64, |word, b| (word << 8) | u64::from(*b)),
    }
}

/// A name's hash: its head, the rest eight bytes at a time, and its length, mixed by
/// multiplies (the slot is taken from the top bits, which they leave strong).
fn name_hash(name: &[u8], head: u64) -> u64 {
    const SEED: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut h = (head ^ (name.len() as u64).rotate_right(8)).wrapping_mul(SEED);
    for chunk in name.get(8..).unwrap_or(&[]).chunks(8) {
        h = (h.rotate_left(23) ^ self::head(chunk)).wrapping_mul(SEED);
    }
    h
}

/// A slot of [`Names`]: empty, or a name's first eight bytes, the name, and its value.
type Slot<V> = Option<(u64, &'static str, V)>;

impl<V: Copy + 'static> Names<V> {
    /// The table of `entries`; of two with one name, the first is kept.
    pub(crate) fn new(entries: impl ExactSizeIterator<Item = (&'static str, V)>) -> Names<V> {
        let size = (entries.len() * 4).next_power_of_two().max(64);
        let shift = 64 - size.trailing_zeros();
        let mut slots: Vec<Slot<V>> = vec![None; size];
        for (name, value) in entries {
            let bytes = name.as_bytes();
            let first = head(bytes);
            let mut at = (name_hash(bytes, first) >> shift) as usize;
            // INVARIANT: the table is at most a quarter full, so a free slot is found.
            while let Some(Some((_, taken, _))) = slots.get(at) {
                if *taken == name {
                    break;
                }
                at = (at + 1) & (size - 1);
            }
            if let Some(slot) = slots.get_mut(at)
                && slot.is_none()
            {
                *slot = Some((first, name, value));
            }
        }
        Names {
            slots: slots.into_boxed_slice(),
            shift,
        }
    }

    /// What `name` stands for, if it is one of the table's names.
    #[inline]
    pub(crate) fn get(&self, name: &str) -> Option<&V> {
        let bytes = name.as_bytes();
        let first = head(bytes);
        let mask = self.slots.len() - 1;
        let mut at = (name_hash(bytes, first) >> self.shift) as usize;
        loop {
            let (word, key, value) = self.slots.get(at)?.as_ref()?;
            if *word == first
                && key.len() == bytes.len()
                && (bytes.len() <= 8 || key.as_bytes().get(8..) == bytes.get(8..))
            {
                return Some(value);
            }
            at = (at + 1) & mask;
        }
    }
}

/// Every line by its name, made once.
static BY_NAME: std::sync::LazyLock<Names<&'static Program>> =
    std::sync::LazyLock::new(|| Names::new(CATALOGUE.iter().map(|line| (line.name, line))));

#[inline]
fn find(name: &str) -> Option<&'static Program> {
    BY_NAME.get(name).copied()
}
pub(crate) mod options;

#[cfg(test)]
mod tests;
