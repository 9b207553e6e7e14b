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
    /// An offensive tool: scans, sprays passwords at or exploits another host (`hydra`,
    /// `nxc`, `sqlmap`, `nikto`). With [`Class::Secrets`], it harvests credentials
    /// (`secretsdump.py`, `GetUserSPNs.py`).
    Attack,
    /// Another AI agent: what it does next, warden doesn't see (`claude`, `codex`, `aider`).
    Agent,
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
    /// Works on a disk at block level, under every file system on it: its partitions, file
    /// systems, volumes or boot record (`grub-install`, `sgdisk`, `pvremove`, `sg_raw`,
    /// `debugfs`). What it writes no Undo brings back; the law reads which invocations
    /// only read or list (`fdisk -l`, `debugfs /dev/sdb1`, `cryptsetup status`).
    Disk,
    /// Keeps a repository's history (git): its own rules judge what reaches others and
    /// what discards work; its other subcommands change the work folder, which Undo keeps.
    VersionControl,
    /// A cloud, cluster or hosted service's CLI: its resources are remote and lasting.
    Cloud,
    /// Keeps what nobody else has a copy of, for the person (secrets, backups, queues, CI,
    /// code hosting, object stores): a destroying verb among its first words destroys it
    /// (`restic forget`, `vault kv delete`, `rclone purge`, `gh repo delete`).
    Keeps,
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
const DISK: &[Class] = &[Disk];
const PING: &[Class] = &[Network, ReadOnly];

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
    p("ab", NET),
    p("abroot", SYS),
    p("accessorysensormgrd", ACTS),
    p("ack", RO),
    p("adduser", ACTS),
    p("adguardhome", ACTS),
    p("ag", RO),
    p("agate", SERVE),
    p("agy", &[Agent]),
    p("aider", &[Agent]),
    p("airport", SYS),
    p("airportd", ACTS),
    p("airshare", SERVE),
    p("alias", BUILTIN),
    p("amp", &[Agent]),
    p("ansible", &[Cloud, Runs]),
    p("ansible-playbook", CLOUD),
    p("ant", PROJECT),
    p("apachectl", SVC),
    p("apfsd", ACTS),
    p("apk", PKG),
    p("applecamerad", ACTS),
    p("apt", &[Packages, Runs]),
    p("apt-get", &[Packages, Runs]),
    p("arc", &[Cloud, Keeps]),
    p("arch", RO),
    p("arch-chroot", ACTS),
    p("archinstall", DISK),
    p("archlinux-java", SYS),
    p("argocd", CLOUD),
    p("aria2c", DL),
    p("arjun", &[Attack]),
    p("arp", SYS),
    p("arping", PING),
    p("asdf", PKG),
    p("ash", SHELL),
    p("asterisk", ACTS),
    p("at", &[ProjectRunner, System, Runs]),
    p("auditctl", ACTS),
    p("aureport", RO),
    p("ausearch", RO),
    p("authconfig", ACTS),
    p("auto-cpufreq", ACTS),
    p("autofsd", ACTS),
    p("automount", ACTS),
    p("automountd", ACTS),
    code("awk", &[Interpreter, ReadOnly], L::Awk, &[""], false),
    p("aws", &[Cloud, Secrets]),
    p("az", &[Cloud, Secrets]),
    p("azcopy", &[Cloud, Keeps]),
    p("b2", &[Cloud, Keeps]),
    p("backupd", ACTS),
    p("badblocks", DISK),
    p("base32", DECODE),
    p("base64", DECODE),
    p("basename", RO),
    p("bash", SHELL),
    p("bat", RO),
    p("batch", &[ProjectRunner, System, Runs]),
    p("bcachefs", DISK),
    p("bd", &[Keeps]),
    p("bind", BUILTIN),
    p("bindfs", ACTS),
    p("biomesyncd", ACTS),
    p("birdc", SYS),
    p("bitcoin-cli", &[Secrets, Keeps]),
    p("bless", ACTS),
    p("blkid", RO),
    p("blockdev", SYS),
    p("bloodhound-python", &[Attack]),
    p("bluetoothctl", SYS),
    p("bmake", PROJECT),
    p("bmaptool", DISK),
    p("bnepd", ACTS),
    p("boltctl", SYS),
    p("bootc", SYS),
    p("bootctl", DISK),
    p("borg", &[Keeps]),
    p("bosh", CLOUD),
    p("bq", &[Database, Cloud]),
    p("brctl", SYS),
    p("brew", PKG),
    p("browser-sync", SERVE),
    p("bsub", CLOUD),
    p("btrbk", &[Keeps]),
    p("btrfs", DISK),
    p("builtin", &[Builtin, Wrapper]),
    p("buku", &[Keeps]),
    p("bully", &[Attack]),
    code("bun", &[Interpreter, Packages], L::JavaScript, &["-e", "--eval", "-p", "--print"], true),
    p("bunx", &[Runs, ProjectRunner]),
    p("busybox", WRAP),
    p("bw", SECRET),
    p("cabal", PKG),
    p("caddy", SERVE),
    p("caffeinate", WRAP),
    p("cal", RO),
    p("calcurse", &[Keeps]),
    p("caligula", DISK),
    p("cancel", NET),
    p("cargo", PKG),
    p("case", BUILTIN),
    p("cat", RO),
    p("cd", RO),
    p("cdk", CLOUD),
    p("cdktf", CLOUD),
    p("cephadm", CLOUD),
    p("cfdisk", DISK),
    p("cgdisk", DISK),
    p("chage", ACTS),
    p("chainctl", CLOUD),
    p("chattr", FILES),
    p("chcat", ACTS),
    p("chgrp", FILES),
    p("chkconfig", SVC),
    p("chmem", ACTS),
    p("chmod", FILES),
    p("chntpw", SECRET),
    p("chown", FILES),
    p("chronic", WRAP),
    p("chronyc", SYS),
    p("chroot", &[Wrapper, System]),
    p("chrt", WRAP),
    p("chsh", ACTS),
    p("circleci", &[Cloud, Keeps]),
    p("cksum", RO),
    p("claude", &[Agent]),
    p("cli4", CLOUD),
    p("cli53", CLOUD),
    p("clickhouse-client", DB),
    p("clido", &[Keeps]),
    p("cloudd", ACTS),
    p("cloudflared", CLOUD),
    p("cloudphotod", ACTS),
    p("cmd", SHELL),
    p("cmp", RO),
    p("cockroach", DB),
    p("codex", &[Agent]),
    p("collectd", ACTS),
    p("column", RO),
    p("comm", RO),
    p("command", WRAP),
    p("commix", &[Attack]),
    p("complete", BUILTIN),
    p("composer", PKG),
    p("concurrently", PROJECT),
    p("conda", PKG),
    p("conntrack", ACTS),
    p("consul", &[Keeps]),
    p("copilot", &[Agent]),
    p("coproc", BUILTIN),
    p("coreaudiod", ACTS),
    p("corebrightnessd", ACTS),
    p("coredatad", ACTS),
    p("corepack", PROJECT),
    p("cp", FILES),
    p("cpuctl", SYS),
    p("cqlsh", DB),
    p("crackmapexec", &[Attack]),
    p("crane", CLOUD),
    p("crictl", &[Container]),
    p("criu", SYS),
    p("crond", ACTS),
    p("crontab", &[ProjectRunner, System, Runs]),
    p("crush", &[Agent]),
    p("cryfs-unmount", ACTS),
    p("cryptcat", RELAY),
    p("cryptsetup", DISK),
    code("crystal", INTERP, L::Ruby, &["eval"], true),
    p("csh", SHELL),
    p("csrutil", SYS),
    p("ctr", &[Container]),
    p("cupsaccept", ACTS),
    p("cupsd", ACTS),
    p("cupsenable", ACTS),
    p("curl", DL),
    p("curlie", DL),
    p("cursor-agent", &[Agent]),
    p("cut", RO),
    p("cvfsck", DISK),
    p("daemon", SVC),
    p("dalfox", &[Attack]),
    p("darkhttpd", SERVE),
    p("darwin-rebuild", SYS),
    p("dash", SHELL),
    p("date", RO),
    p("dbd", RELAY),
    p("dbus-daemon", ACTS),
    p("dcgmi", SYS),
    p("dd", SYS),
    p("ddrescue", FILES),
    p("debugfs", DISK),
    p("declare", BUILTIN),
    p("defaults", SYS),
    p("deleted", ACTS),
    p("deluser", ACTS),
    code("deno", &[Interpreter, Downloader], L::JavaScript, &["eval"], true),
    p("devpod", CLOUD),
    p("devspace", CLOUD),
    p("dexter", SECRET),
    p("df", RO),
    p("dhcpcd", ACTS),
    p("diff", RO),
    p("dig", NET),
    p("dirb", &[Attack]),
    p("dirname", RO),
    p("dirsearch", &[Attack]),
    p("diskutil", SYS),
    p("distccd", ACTS),
    p("dm-tool", SYS),
    p("dmesg", RO),
    p("dmidecode", RO),
    p("dmstats", SYS),
    p("dnf", PKG),
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
    p("dotenvx", SECRET),
    p("dotnet", &[Interpreter, Packages]),
    p("dpkg", PKG),
    p("dpkg-reconfigure", ACTS),
    p("dracut", ACTS),
    p("dtruss", RO),
    p("du", RO),
    p("duckdb", DB),
    p("dump.exfat", RO),
    p("dumpe2fs", RO),
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
    p("edquota", ACTS),
    p("efibootmgr", DISK),
    p("egrep", RO),
    p("eksctl", CLOUD),
    p("elasticsearch-keystore", SECRET),
    p("elasticsearch-node", SYS),
    p("elasticsearch-reset-password", SECRET),
    p("electrum", &[Secrets, Keeps]),
    p("elif", BUILTIN),
    code("elixir", INTERP, L::Elixir, &["-e", "--eval"], false),
    p("else", BUILTIN),
    p("elvish", SHELL),
    p("emerge", PKG),
    p("enable", BUILTIN),
    p("entr", WRAP),
    p("enum4linux", &[Attack]),
    p("env", &[Wrapper, ReadOnly]),
    p("envoy", CLOUD),
    p("erl", INTERP),
    p("esac", BUILTIN),
    p("escript", INTERP),
    p("eselect", SYS),
    p("etcdctl", &[Keeps]),
    p("ethtool", SYS),
    p("euse", ACTS),
    p("eval", BUILTIN),
    p("evil-winrm", &[Attack]),
    of("ex", "vim"),
    p("exec", &[Builtin, Wrapper]),
    p("exfatlabel", SYS),
    p("exo", CLOUD),
    p("exoscale", &[Cloud, Keeps]),
    code("expect", &[Interpreter, Runs], L::Tcl, &["-c"], true),
    p("export", &[Builtin, ReadOnly]),
    p("expose", SERVE),
    p("extundelete", RO),
    p("fab", PROJECT),
    p("faillock", ACTS),
    p("fakeroot", WRAP),
    p("faketime", WRAP),
    p("false", RO),
    p("fastboot", DISK),
    p("fatlabel", SYS),
    p("fc", BUILTIN),
    p("fd", &[ReadOnly, Runs]),
    p("fdisk", DISK),
    p("feroxbuster", &[Attack]),
    p("fetch", DL),
    p("ffuf", &[Attack]),
    p("fgrep", RO),
    p("fi", BUILTIN),
    p("file", RO),
    p("filebrowser", SERVE),
    p("filecoordinationd", ACTS),
    p("filen", &[Cloud, Keeps]),
    p("find", &[ReadOnly, Runs]),
    p("findmnt", RO),
    p("finger", NET),
    p("firebase", CLOUD),
    p("firecfg", ACTS),
    p("firejail", WRAP),
    p("firewall-cmd", SYS),
    p("fish", SHELL),
    p("fisher", PKG),
    p("fixfiles", ACTS),
    p("fj", &[Cloud, Keeps]),
    p("flatpak", PKG),
    p("flock", WRAP),
    p("fls", RO),
    p("flux", CLOUD),
    p("fly", CLOUD),
    of("flyctl", "fly"),
    p("fmt", RO),
    p("fnm", PKG),
    p("fold", RO),
    p("fontd", ACTS),
    p("for", BUILTIN),
    p("foreman", PROJECT),
    p("fprintd-delete", ACTS),
    p("free", RO),
    p("fs_cli", SYS),
    typed("fsck", ACTS),
    p("fsstat", RO),
    p("ftp", NET),
    p("function", BUILTIN),
    p("fuser", SYS),
    p("fwconsole", SVC),
    p("fwupdtool", SYS),
    of("gawk", "awk"),
    p("gcalcli", &[Keeps]),
    p("gcloud", &[Cloud, Secrets]),
    p("gcrane", CLOUD),
    p("gdb", &[Runs]),
    p("gdisk", DISK),
    p("gdm-restart", ACTS),
    p("gdm-safe-restart", ACTS),
    p("gem", PKG),
    p("gemini", &[Agent]),
    p("getent", RO),
    p("getnpusers.py", &[Attack, Secrets]),
    p("getuserspns.py", &[Attack, Secrets]),
    p("gh", &[Cloud, Secrets, Keeps]),
    of("ghci", "runghc"),
    p("ghcup", PKG),
    p("git", &[VersionControl, Runs]),
    p("github-label-sync", &[Cloud, Keeps]),
    p("gitlab-backup", &[Keeps]),
    p("gitlab-ctl", SVC),
    p("gitlab-runner", &[Keeps]),
    p("glab", &[Cloud, Secrets, Keeps]),
    p("gmake", PROJECT),
    p("go", PKG),
    p("go-task", PROJECT),
    p("gobuster", &[Attack]),
    p("goenv", PKG),
    p("goose", &[Agent]),
    p("gopass", SECRET),
    p("gosu", WRAP),
    p("gpclient", SYS),
    p("gpg", SECRET),
    p("gpg-tui", SECRET),
    p("gradle", PROJECT),
    p("gradlew", PROJECT),
    p("grep", RO),
    code("groovy", INTERP, L::Groovy, &["-e"], false),
    p("groupadd", ACTS),
    p("groupdel", ACTS),
    p("groupmod", ACTS),
    p("groups", RO),
    p("growpart", DISK),
    p("grub-bios-setup", DISK),
    p("grub-install", DISK),
    p("grub-mount", ACTS),
    p("grub-probe", RO),
    p("grub-set-default", ACTS),
    of("grub2-install", "grub-install"),
    p("grubby", ACTS),
    p("gs-netcat", RELAY),
    of("gsed", "sed"),
    p("gsutil", &[Cloud, Keeps]),
    p("gyb", &[Keeps]),
    p("halt", ACTS),
    p("haproxy", ACTS),
    p("hash", BUILTIN),
    p("haveged", ACTS),
    p("hcloud", &[Cloud, Keeps]),
    p("hd-idle", SYS),
    p("hddtemp", RO),
    p("hdiutil", SYS),
    p("hdparm", DISK),
    p("head", RO),
    p("helm", CLOUD),
    p("helmfile", CLOUD),
    p("help", RO),
    p("heroku", &[Cloud, Keeps]),
    p("hexdump", RO),
    p("hf", &[Cloud, Keeps]),
    p("history", RO),
    p("homectl", SYS),
    p("honcho", PROJECT),
    p("host", NET),
    p("hostapd", ACTS),
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
    p("i2cset", ACTS),
    p("i3exit", ACTS),
    p("ia", CLOUD),
    p("ibmcloud", CLOUD),
    p("id", RO),
    p("idevicebackup2", &[Keeps]),
    code("iex", INTERP, L::Elixir, &[], true),
    p("if", BUILTIN),
    p("ifconfig", SYS),
    p("ifmetric", ACTS),
    p("immich", &[Cloud, Keeps]),
    p("imp", SYS),
    p("infisical", SECRET),
    p("influx", &[Keeps]),
    p("inputattach", ACTS),
    p("insmod", ACTS),
    p("install", FILES),
    p("internetsharing", ACTS),
    p("invoke", PROJECT),
    p("ionice", WRAP),
    p("ioping", DISK),
    p("iostat", RO),
    p("iotop", RO),
    p("ip", SYS),
    p("ip6tables", ACTS),
    p("ipconfig", SYS),
    p("ipcrm", ACTS),
    p("ipset", SYS),
    p("iptables", ACTS),
    p("iptables-restore", ACTS),
    code("irb", INTERP, L::Ruby, &[], true),
    p("iredis", DB),
    p("istat", RO),
    p("ivpn", SYS),
    p("iw", SYS),
    p("iwconfig", ACTS),
    p("java", INTERP),
    of("javaw", "java"),
    p("jira", &[Cloud, Keeps]),
    p("journalctl", RO),
    p("jq", RO),
    p("jrnl", &[Keeps]),
    of("jruby", "ruby"),
    code("jrunscript", INTERP, L::JavaScript, &["-e"], false),
    code("jshell", INTERP, L::Java, &[], true),
    code("julia", INTERP, L::Julia, &["-e", "-E", "--eval", "--print"], true),
    p("just", PROJECT),
    of("jython", "python"),
    p("k3s", CLOUD),
    p("k3s-uninstall.sh", ACTS),
    p("k8sec", &[Cloud, Secrets]),
    p("k9s", CLOUD),
    p("kafka-acls", &[Keeps]),
    p("kafka-configs", &[Keeps]),
    p("kafka-consumer-groups", &[Keeps]),
    p("kafka-delete-records", &[Keeps]),
    p("kafka-topics", &[Keeps]),
    p("kaggle", CLOUD),
    p("kcat", &[Keeps]),
    p("keepassxc-cli", SECRET),
    p("kerbrute", &[Attack]),
    p("kernel-install", SYS),
    p("kernelstub", ACTS),
    p("keyctl", SECRET),
    p("kill", ACTS),
    p("killall", ACTS),
    p("kinit", SECRET),
    p("kmod", SYS),
    p("knotc", SYS),
    p("kompose", CLOUD),
    p("kopia", &[Keeps]),
    p("kops", CLOUD),
    p("kotlin", INTERP),
    p("ksh", SHELL),
    p("kubeadm", CLOUD),
    p("kubectl", &[Cloud, Secrets, Runs]),
    p("kubeseal", SECRET),
    p("l2ping", PING),
    p("last", RO),
    p("lastb", RO),
    p("launchctl", SVC),
    p("lazagne", &[Attack, Secrets]),
    p("lbu", SYS),
    p("lchage", ACTS),
    p("ldd", RO),
    p("lerna", PROJECT),
    p("less", &[ReadOnly, Editor, Runs]),
    p("let", BUILTIN),
    p("lftp", NET),
    p("light-arionum-cli", SECRET),
    p("limactl", &[Keeps]),
    p("limine", DISK),
    p("limine-entry-tool", ACTS),
    p("limine-scan", ACTS),
    p("limine-snapper-watcher", ACTS),
    p("linode-cli", &[Cloud, Keeps]),
    p("linux-boot-prober", RO),
    p("litecli", DB),
    p("live-server", SERVE),
    p("ll", RO),
    p("ln", FILES),
    p("local", BUILTIN),
    p("locale", RO),
    p("localectl", SYS),
    p("loft", CLOUD),
    p("login", SHELL),
    p("losetup", SYS),
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
    p("lvchange", ACTS),
    p("lvconvert", DISK),
    p("lvcreate", ACTS),
    p("lvdisplay", RO),
    p("lvextend", ACTS),
    p("lvm", DISK),
    p("lvmdevices", ACTS),
    p("lvreduce", DISK),
    p("lvremove", DISK),
    p("lvrename", ACTS),
    p("lvresize", ACTS),
    p("lvs", RO),
    p("lvscan", RO),
    p("lxc", &[Container, Runs]),
    p("lynx", DL),
    p("mac-cleanup", ACTS),
    p("macchanger", ACTS),
    p("maestral", &[Cloud, Keeps]),
    p("mage", PROJECT),
    p("mail", MAIL),
    of("mailx", "mail"),
    p("make", PROJECT),
    p("mamba", PKG),
    p("man", &[ReadOnly, Editor, Runs]),
    p("mariadb", DB),
    p("masscan", &[Attack]),
    of("mawk", "awk"),
    p("maza", SYS),
    p("mc", &[Keeps]),
    p("md5sum", RO),
    p("mdadm", DISK),
    p("medusa", &[Attack]),
    p("mimikatz", &[Attack, Secrets]),
    p("minikube", &[Keeps]),
    p("miniserve", SERVE),
    p("mirrord", CLOUD),
    p("mise", PKG),
    p("mitm6", &[Attack]),
    p("mkdir", FILES),
    p("mkinitcpio", ACTS),
    p("mkinitfs", ACTS),
    p("mkpart", DISK),
    p("mksh", SHELL),
    p("mlabel", SYS),
    p("mmcli", SYS),
    p("mmls", RO),
    p("modprobe", ACTS),
    p("mokutil", ACTS),
    p("mole", SYS),
    p("mongo", DB),
    p("mongosh", DB),
    p("more", &[ReadOnly, Editor]),
    p("mosh", NET),
    p("mosquitto", ACTS),
    p("mosquitto_passwd", SECRET),
    typed("mount", ACTS),
    p("mozillavpn", SYS),
    p("mpstat", RO),
    p("msfconsole", &[Attack]),
    p("msmtp", MAIL),
    p("mssql-cli", DB),
    p("mssqlclient.py", &[Attack]),
    p("mullvad", SYS),
    p("multipass", &[Keeps]),
    p("mutt", MAIL),
    p("mv", FILES),
    p("mvn", PROJECT),
    p("mycli", DB),
    p("mysql", DB),
    p("nagios", ACTS),
    p("nagios4", ACTS),
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
    p("netserver", ACTS),
    p("netstat", RO),
    p("networkctl", SYS),
    p("networksetup", SYS),
    p("nfcd", ACTS),
    p("nft", SYS),
    p("ngrep", RO),
    p("nice", WRAP),
    p("nikto", &[Attack]),
    p("nikto.pl", &[Attack]),
    p("nix", PKG),
    p("nix-channel", PKG),
    p("nix-env", PKG),
    p("nixos-rebuild", SYS),
    p("nl", RO),
    p("nm", RO),
    p("nocorrect", WRAP),
    code("node", INTERP, L::JavaScript, &["-e", "--eval", "-p", "--print"], true),
    of("nodejs", "node"),
    p("nodemon", PROJECT),
    p("nodenv", PKG),
    p("noglob", WRAP),
    p("nohup", WRAP),
    p("nomad", CLOUD),
    p("nordvpn", SYS),
    p("noseyparker", SECRET),
    p("nox", PROJECT),
    p("npm", PKG),
    p("npm-run-all", PROJECT),
    p("nproc", RO),
    p("npx", &[Runs, ProjectRunner]),
    p("nsenter", WRAP),
    p("nslookup", NET),
    p("ntfsfix", ACTS),
    p("ntpd", ACTS),
    p("nu", SHELL),
    p("nuclei", &[Attack]),
    p("nvidia-smi", RO),
    of("nvim", "vim"),
    p("nvm", PKG),
    p("nvme", DISK),
    p("nvram", SYS),
    p("nwipe", DISK),
    p("nx", PROJECT),
    p("nxc", &[Attack]),
    p("oauth2c", SECRET),
    p("objdump", RO),
    p("obsidian", &[Keeps]),
    p("oc", &[Cloud, Runs]),
    p("ocaml", INTERP),
    p("oci", CLOUD),
    p("octez-client", SECRET),
    p("od", RO),
    p("odpscmd", &[Cloud, Keeps]),
    p("oneliner", &[Agent]),
    p("op", &[Secrets, Keeps]),
    p("openclaw", &[Agent]),
    p("opencode", &[Agent]),
    p("openssl", &[Decoder, Network]),
    p("openstack", &[Cloud, Keeps]),
    p("os-prober", RO),
    code("osascript", INTERP, L::AppleScript, &["-e"], true),
    p("p4", &[Keeps]),
    p("pacman", PKG),
    p("pacman-key", ACTS),
    p("paperkey", SECRET),
    p("parallel", WRAP),
    p("partclone.ext4", DISK),
    p("parted", DISK),
    p("particle", CLOUD),
    p("paru", PKG),
    p("pass", SECRET),
    p("passwd", ACTS),
    p("patator", &[Attack]),
    p("pct", CLOUD),
    p("pdbedit", ACTS),
    p("pdm", PKG),
    code("perl", INTERP, L::Perl, &["-e", "-E"], true),
    p("pg_ctl", SVC),
    p("pgcli", DB),
    p("pgrep", RO),
    p("photorec", RO),
    code("php", INTERP, L::Php, &["-r"], true),
    p("phpdismod", ACTS),
    p("pidof", RO),
    p("pihole", SYS),
    p("ping", &[Network, ReadOnly]),
    p("pip", PKG),
    p("pipenv", PKG),
    p("pipx", &[Packages, Runs]),
    p("pivot_root", ACTS),
    p("pivpn", SYS),
    p("pkexec", WRAP),
    p("pkg", PKG),
    p("pkill", ACTS),
    p("planetscale", &[Cloud, Keeps]),
    p("pm2", &[ProjectRunner, Services]),
    p("pmount", ACTS),
    p("pmset", SYS),
    p("pnpm", &[Packages, ProjectRunner, Runs]),
    p("pnpx", &[Runs, ProjectRunner]),
    p("podman", &[Container, Runs]),
    p("podman-compose", &[Container, Runs]),
    p("poetry", PKG),
    p("popd", RO),
    p("port", PKG),
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
    p("printenv", RO),
    p("printf", RO),
    p("prosodyctl", SVC),
    p("protector", CLOUD),
    p("proxychains", WRAP),
    of("proxychains4", "proxychains"),
    p("ps", RO),
    p("pscale", &[Cloud, Keeps]),
    p("psexec.py", &[Attack]),
    p("psql", DB),
    p("pstree", RO),
    p("pulumi", CLOUD),
    p("puppet", CLOUD),
    p("pushd", RO),
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
    p("pyenv", PKG),
    p("pyinfra", CLOUD),
    of("pypy", "python"),
    code("python", &[Interpreter, Runs], L::Python, &["-c"], true),
    p("qm", CLOUD),
    p("quickemu", &[Keeps]),
    p("qwen", &[Agent]),
    code("r", INTERP, L::R, &["-e"], true),
    p("rabbitmq-queues", &[Keeps]),
    p("rabbitmq-upgrade", SYS),
    p("rabbitmqadmin", &[Keeps]),
    p("rabbitmqctl", &[Keeps]),
    p("railway", &[Cloud, Keeps]),
    p("rake", PROJECT),
    p("rauc", SYS),
    p("rbash", SHELL),
    p("rbenv", PKG),
    p("rbw", SECRET),
    p("rc-service", SVC),
    p("rc-update", SVC),
    p("rcat", RELAY),
    p("rclone", &[Network, Keeps]),
    p("rdp_check.py", &[Attack]),
    p("readelf", RO),
    p("readlink", RO),
    p("readonly", BUILTIN),
    p("realpath", RO),
    p("reaver", &[Attack]),
    p("reboot", SYS),
    p("redis-cli", DB),
    p("regedit", SYS),
    p("render", &[Cloud, Keeps]),
    p("renice", ACTS),
    p("repquota", RO),
    p("resize2fs", DISK),
    p("resolvconf", ACTS),
    p("responder", &[Attack, Secrets]),
    p("restic", &[Network, Keeps]),
    p("resticprofile", &[Keeps]),
    p("restorecon", ACTS),
    p("rev", &[ReadOnly, Decoder]),
    p("rfkill", SYS),
    p("rg", RO),
    p("rm", &[Remover]),
    p("rmdir", &[Remover]),
    p("rmmod", ACTS),
    p("route", SYS),
    p("rpcclient", &[Attack]),
    p("rpi-eeprom-update", ACTS),
    p("rpi-imager", DISK),
    p("rpi-otp-private-key", SECRET),
    p("rpk", &[Cloud, Keeps]),
    p("rpm", PKG),
    of("rscript", "r"),
    p("rsync", &[Network, Runs]),
    p("rtcwake", ACTS),
    code("ruby", INTERP, L::Ruby, &["-e"], true),
    p("run-p", PROJECT),
    p("run-s", PROJECT),
    p("run0", WRAP),
    p("run_init", SVC),
    p("runghc", INTERP),
    of("runhaskell", "runghc"),
    p("runsvchdir", SVC),
    p("runsvdir", SVC),
    p("runuser", WRAP),
    p("rustup", PKG),
    p("rye", PKG),
    p("s-nail", MAIL),
    p("s3cmd", &[Cloud, Keeps]),
    p("sacctmgr", CLOUD),
    p("safe", SECRET),
    p("safeejectgpu", SYS),
    p("salloc", CLOUD),
    p("salt", CLOUD),
    p("salt-run", CLOUD),
    p("sam", CLOUD),
    p("sbd", RELAY),
    p("scala", INTERP),
    p("scoop", PKG),
    p("scp", &[Network, Runs]),
    p("screen", &[Shell, Runs]),
    p("script", &[Shell, Runs]),
    p("scrontab", CLOUD),
    p("scutil", SYS),
    p("scw", &[Cloud, Keeps]),
    p("sdk", PKG),
    p("secd", ACTS),
    p("secret-tool", SECRET),
    p("secretsdump.py", &[Attack, Secrets]),
    p("security", SECRET),
    p("sed", &[ReadOnly, Interpreter]),
    p("select", BUILTIN),
    p("semodule", ACTS),
    p("sendmail", MAIL),
    p("sensors", RO),
    p("seq", RO),
    p("serve", SERVE),
    p("serverless", CLOUD),
    p("service", SVC),
    p("set", BUILTIN),
    p("setcap", &[System, Acts]),
    p("setenforce", ACTS),
    p("setfacl", FILES),
    p("setfiles", ACTS),
    p("setsebool", ACTS),
    p("setsid", WRAP),
    p("sf", CLOUD),
    p("sfdisk", DISK),
    p("sftp", &[Network, Runs]),
    p("sg_raw", DISK),
    p("sgdisk", DISK),
    p("sgpt", &[Agent]),
    p("sh", SHELL),
    p("sha1sum", RO),
    p("sha256sum", RO),
    p("shasum", RO),
    p("shiny-mirrors", SYS),
    p("shopt", BUILTIN),
    p("shred", &[Remover]),
    p("shutdown", SYS),
    p("simple-mtpfs", ACTS),
    p("simplehttpserver", SERVE),
    p("skopeo", CLOUD),
    p("slabtop", RO),
    p("sleep", RO),
    of("sls", "serverless"),
    p("slurmrestd", ACTS),
    p("smartctl", RO),
    p("smbclient", NET),
    p("smbexec.py", &[Attack]),
    p("smbmap", &[Attack]),
    p("smbpasswd", ACTS),
    p("smbserver.py", SERVE),
    p("snap", PKG),
    p("snapper", SYS),
    p("snowsql", DB),
    p("sntp", SYS),
    p("sntpd", ACTS),
    p("socat", RELAY),
    p("socket", RELAY),
    p("sops", SECRET),
    p("sort", RO),
    p("source", &[Source]),
    p("spctl", SYS),
    p("sq", SECRET),
    p("sqlcmd", DB),
    p("sqlite3", DB),
    p("sqlmap", &[Attack]),
    p("sqsc", &[Cloud, Keeps]),
    p("squid", ACTS),
    p("srm", &[Remover]),
    p("ss", RO),
    p("ssh", &[Network, Runs]),
    p("ssh-add", SECRET),
    p("sshd", ACTS),
    p("sshpass", WRAP),
    p("sslstrip", SECRET),
    p("ssmtp", MAIL),
    p("stat", RO),
    p("stdbuf", WRAP),
    p("steamos-chroot", ACTS),
    p("steamos-devmode", SYS),
    p("steamos-readonly", SYS),
    p("steamos-select-branch", ACTS),
    p("steamos-session-select", ACTS),
    p("step", SECRET),
    p("strace", WRAP),
    p("strigger", CLOUD),
    p("strings", RO),
    p("stripe", CLOUD),
    p("su", &[Shell, Runs]),
    p("su-exec", WRAP),
    p("sudo", WRAP),
    p("sudoedit", SYS),
    p("supabase", &[Cloud, Keeps]),
    p("supervisorctl", SVC),
    p("supervisord", SVC),
    p("surge", CLOUD),
    p("sv", SVC),
    p("sw_vers", RO),
    p("swaks", MAIL),
    p("swaplabel", DISK),
    p("swapoff", ACTS),
    p("swapon", ACTS),
    p("swift", INTERP),
    p("symptomsd", ACTS),
    p("synoupgrade", ACTS),
    p("sysctl", SYS),
    p("system_profiler", RO),
    p("systemctl", SVC),
    p("systemd-ask-password", SECRET),
    p("systemd-creds", SECRET),
    p("systemd-cryptenroll", DISK),
    p("systemd-cryptsetup", SYS),
    p("systemd-hwdb", SYS),
    p("systemd-mount", ACTS),
    p("systemd-run", &[Wrapper, Services]),
    p("systemd-sysusers", ACTS),
    p("systemd-tmpfiles", ACTS),
    p("systemsetup", SYS),
    p("tac", RO),
    p("tail", RO),
    p("tailscale", NET),
    p("talosctl", CLOUD),
    p("tar", &[Runs]),
    p("tart", &[Keeps]),
    p("task", PROJECT),
    p("taskset", WRAP),
    p("tccutil", SYS),
    code("tclsh", INTERP, L::Tcl, &[], true),
    p("tcpdump", RO),
    p("tcpick", RO),
    p("tcsh", SHELL),
    p("tea", &[Cloud, Keeps]),
    p("tee", FILES),
    p("telnet", NET),
    p("terraform", CLOUD),
    p("terragrunt", CLOUD),
    p("test", RO),
    p("tftp", NET),
    p("tgpt", &[Agent]),
    p("then", BUILTIN),
    p("ticketconverter.py", SECRET),
    p("time", WRAP),
    p("timedatectl", SYS),
    p("timeout", WRAP),
    p("timeshift", &[Keeps]),
    p("timew", &[Keeps]),
    p("tldr", RO),
    p("tlp", SYS),
    p("tlp-stat", RO),
    p("tmutil", SYS),
    p("tmux", &[Shell, Runs]),
    p("tod", &[Keeps]),
    p("todoist", &[Keeps]),
    p("tofu", CLOUD),
    p("togglesebool", ACTS),
    p("top", RO),
    p("torsocks", WRAP),
    p("touch", FILES),
    p("tox", PROJECT),
    p("tpm2", SYS),
    p("tr", RO),
    p("tracepath", RO),
    p("traceroute", RO),
    p("translationd", ACTS),
    p("trap", BUILTIN),
    p("travis", &[Cloud, Keeps]),
    p("tree", RO),
    p("true", RO),
    p("truncate", FILES),
    p("trust", SYS),
    of("ts-node", "node"),
    p("tshark", RO),
    of("tsx", "node"),
    p("tty", RO),
    p("tune.exfat", SYS),
    p("tune2fs", ACTS),
    p("tuned", ACTS),
    p("tunelp", ACTS),
    p("turbo", PROJECT),
    p("twine", PKG),
    p("type", RO),
    p("typeset", BUILTIN),
    p("ubus", SYS),
    p("uci", SYS),
    p("udevadm", SYS),
    p("udiskie-mount", ACTS),
    p("udisksctl", SYS),
    p("ufw", SYS),
    p("uinput", ACTS),
    p("ukify", ACTS),
    typed("umount", ACTS),
    p("unalias", BUILTIN),
    p("uname", RO),
    p("unbuffer", WRAP),
    p("uniq", RO),
    p("universalaccessd", ACTS),
    p("unlink", &[Remover]),
    p("unset", BUILTIN),
    p("unshare", WRAP),
    p("until", BUILTIN),
    p("update-alternatives", SYS),
    p("update-ca-certificates", SYS),
    p("update-ca-trust", SYS),
    p("update-grub", SYS),
    p("update-initramfs", ACTS),
    p("update-rc.d", SVC),
    p("updatectl", SYS),
    p("upnpc", ACTS),
    p("uptime", RO),
    p("useradd", ACTS),
    p("userdel", ACTS),
    p("usermod", ACTS),
    p("usql", DB),
    p("uudecode", DECODE),
    p("uv", &[Packages, Runs]),
    p("uvx", &[Runs, ProjectRunner]),
    p("vagrant", &[Keeps]),
    p("valgrind", WRAP),
    p("valkey-cli", DB),
    p("vault", &[Secrets, Keeps]),
    p("vboxmanage", &[Keeps]),
    p("vcgencmd", SYS),
    p("vcluster", CLOUD),
    p("vela", CLOUD),
    p("velero", &[Keeps]),
    p("ventoy", DISK),
    p("vercel", CLOUD),
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
    p("virsh", &[Keeps]),
    p("virt-clone", &[Keeps]),
    p("vmstat", RO),
    p("vncserver", SERVE),
    p("volta", PKG),
    p("vpnc-disconnect", ACTS),
    p("vso", SYS),
    p("w", RO),
    p("warmd", ACTS),
    p("warp-cli", SYS),
    p("watch", WRAP),
    p("watchexec", WRAP),
    p("watson", &[Keeps]),
    p("wc", RO),
    p("webinspectord", ACTS),
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
    p("wifivelocityd", ACTS),
    p("winget", PKG),
    code("wish", INTERP, L::Tcl, &[], true),
    p("wmiexec.py", &[Attack]),
    p("woeusb", DISK),
    p("wondershaper", ACTS),
    p("wormhole", NET),
    p("wpa_cli", SYS),
    p("wpa_supplicant", ACTS),
    p("wpscan", &[Attack]),
    p("wrangler", CLOUD),
    p("wwand", ACTS),
    p("x0vncserver", SERVE),
    p("xargs", WRAP),
    p("xauth", SECRET),
    p("xbps-install", PKG),
    p("xdp-filter", ACTS),
    p("xfs_admin", SYS),
    p("xfs_repair", ACTS),
    p("xh", DL),
    p("xonsh", SHELL),
    p("xsand", ACTS),
    p("xsstrike", &[Attack]),
    p("xxd", &[ReadOnly, Decoder]),
    p("yarn", &[Packages, ProjectRunner, Runs]),
    of("yarnpkg", "yarn"),
    p("yash", SHELL),
    p("yay", PKG),
    p("yq", RO),
    p("yum", PKG),
    p("zabbix_agent2", ACTS),
    p("zabbix_server", ACTS),
    p("zapier", CLOUD),
    p("zcat", DECODE),
    p("zeroclaw", &[Agent]),
    p("zerotier-cli", SYS),
    p("zfs", DISK),
    p("zip", &[Runs]),
    p("zmap", &[Attack]),
    p("zpool", DISK),
    p("zrok", SERVE),
    p("zsh", SHELL),
    p("zx", INTERP),
    p("zypper", PKG),
];

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
        .or_else(|| helper_of(name))?;
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

#[cfg(test)]
mod tests;
