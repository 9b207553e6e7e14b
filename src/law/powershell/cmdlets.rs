//! The cmdlets the PowerShell law knows: their names, their aliases, what each does, and
//! their parameters, so a name resolves as PowerShell would (any case, an alias, a module
//! before a `\`) and a parameter by its unambiguous prefix or one of its aliases.

use super::lex::Token;

/// What a cmdlet does, as the law reads it (the translation in `translate.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Does {
    /// Defines an alias (read before the statements are).
    Alias,
    /// Appends a value to a file (`echo v >> f`).
    Append,
    /// Copies items (`cp`).
    Copy,
    /// Windows Defender's settings: exclusions, protection turned off.
    Defender,
    /// Deletes items (`rm`).
    Delete,
    /// Erases a disk or a volume: the circuit breaker.
    Disk,
    /// Writes its arguments out (`echo`).
    Echo,
    /// Runs text as PowerShell (`Invoke-Expression`).
    Eval,
    /// Clears the event logs.
    Evidence,
    /// An HTTP request (`curl`).
    Fetch,
    /// Downloads a file (`curl -o`).
    Bits,
    /// The firewall's settings.
    Firewall,
    /// Installs a module or a package.
    Install,
    /// Joins a path (a value).
    Join,
    /// Lists a folder (`ls`), or the environment (`env`).
    List,
    /// Changes the folder (`cd`).
    Location,
    /// Makes a folder (`mkdir -p`).
    MakeDir,
    /// Moves items (`mv`).
    Move,
    /// Makes a file, a folder, a link or a registry key.
    NewItem,
    /// Makes a .NET or COM object: a socket, a web client.
    Object,
    /// Writes what comes down the pipeline to a file (`tee`).
    OutFile,
    /// The execution policy.
    Policy,
    /// Means exactly this POSIX command.
    Posix(&'static str),
    /// Sets a registry value or an item's value.
    Property,
    /// Reads files (`cat`).
    Read,
    /// Renames an item (`mv`).
    Rename,
    /// Only reads or shapes what it is given; its arguments are still read.
    Routine,
    /// Runs script blocks (read like every block), or on another machine.
    Run,
    /// Persistence: a scheduled task or a service.
    Schedule,
    /// A local account made (`New-LocalUser`, as `useradd NAME`) or put in a group
    /// (`Add-LocalGroupMember`, as `usermod -aG GROUP MEMBER`: Administrators is the
    /// administrator's group, as sudo and wheel are).
    Account,
    /// Gives the item its path names (`Get-Item X`, `Resolve-Path X`): the path, down the
    /// pipeline or as a value (`Get-Item ~ | Remove-Item -Recurse` deletes the home folder).
    Item,
    /// Sends a mail (`Send-MailMessage`, as `swaks --to TO --server HOST --attach FILE`).
    Mail,
    /// Resolves a name (`Resolve-DnsName`, as `nslookup NAME`): what the name holds goes out
    /// in the question.
    Lookup,
    /// Makes a scheduled task's trigger (`New-ScheduledTaskTrigger`): one at sign-in or
    /// start makes the task registered after it an autostart.
    Trigger,
    /// Searches files (`grep`).
    Search,
    /// Stops or reconfigures a service.
    Service,
    /// Starts a program.
    Start,
    /// Stops a process (`kill`, `pkill`).
    Stop,
    /// Sets a variable (read before the statements are).
    Variable,
    /// Writes a value to a file (`echo v > f`).
    Write,
}

/// Whether a parameter takes a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Takes {
    Switch,
    Value,
}

use Takes::{Switch, Value};

/// A parameter: its name and aliases (lower case) and whether it takes a value.
pub(super) type Param = (&'static str, &'static [&'static str], Takes);

/// One cmdlet: its name and aliases (lower case), what it does, its parameters.
pub(super) type Cmdlet = (
    &'static str,
    &'static [&'static str],
    Does,
    &'static [Param],
);

/// The parameters every cmdlet takes.
#[rustfmt::skip]
const COMMON: &[Param] = &[
    ("debug", &["db"], Switch), ("erroraction", &["ea"], Value), ("errorvariable", &["ev"], Value),
    ("informationaction", &["infa"], Value), ("informationvariable", &["iv"], Value), ("outbuffer", &["ob"], Value),
    ("outvariable", &["ov"], Value), ("pipelinevariable", &["pv"], Value), ("progressaction", &["proga"], Value),
    ("verbose", &["vb"], Switch), ("warningaction", &["wa"], Value), ("warningvariable", &["wv"], Value),
];

#[rustfmt::skip]
const REMOVE_ITEM: &[Param] = &[
    ("confirm", &["cf"], Switch), ("credential", &[], Value), ("exclude", &[], Value), ("filter", &[], Value),
    ("force", &[], Switch), ("include", &[], Value), ("literalpath", &["lp", "pspath"], Value), ("path", &[], Value),
    ("recurse", &[], Switch), ("stream", &[], Value), ("whatif", &["wi"], Switch),
];

#[rustfmt::skip]
const GET_CHILDITEM: &[Param] = &[
    ("attributes", &[], Value), ("depth", &[], Value), ("directory", &["ad", "d"], Switch), ("exclude", &[], Value),
    ("file", &["af"], Switch), ("filter", &[], Value), ("followsymlink", &[], Switch), ("force", &[], Switch),
    ("hidden", &["ah", "h"], Switch), ("include", &[], Value), ("literalpath", &["lp", "pspath"], Value), ("name", &[], Switch),
    ("path", &[], Value), ("readonly", &["ar"], Switch), ("recurse", &["s"], Switch), ("system", &["as"], Switch),
];

#[rustfmt::skip]
const GET_CONTENT: &[Param] = &[
    ("asbytestream", &[], Switch), ("credential", &[], Value), ("delimiter", &[], Value), ("encoding", &[], Value),
    ("exclude", &[], Value), ("filter", &[], Value), ("force", &[], Switch), ("include", &[], Value),
    ("literalpath", &["lp", "pspath"], Value), ("path", &[], Value), ("raw", &[], Switch), ("readcount", &[], Value),
    ("stream", &[], Value), ("tail", &["last"], Value), ("totalcount", &["first", "head"], Value), ("wait", &[], Switch),
];

#[rustfmt::skip]
const SET_CONTENT: &[Param] = &[
    ("asbytestream", &[], Switch), ("confirm", &["cf"], Switch), ("credential", &[], Value), ("encoding", &[], Value),
    ("exclude", &[], Value), ("filter", &[], Value), ("force", &[], Switch), ("include", &[], Value),
    ("literalpath", &["lp", "pspath"], Value), ("nonewline", &[], Switch), ("passthru", &[], Switch), ("path", &[], Value),
    ("stream", &[], Value), ("value", &[], Value), ("whatif", &["wi"], Switch),
];

#[rustfmt::skip]
const OUT_FILE: &[Param] = &[
    ("append", &[], Switch), ("confirm", &["cf"], Switch), ("encoding", &[], Value), ("filepath", &["path"], Value),
    ("force", &[], Switch), ("inputobject", &[], Value), ("literalpath", &["lp", "pspath"], Value),
    ("noclobber", &["nooverwrite"], Switch), ("nonewline", &[], Switch), ("variable", &[], Value),
    ("whatif", &["wi"], Switch), ("width", &[], Value),
];

#[rustfmt::skip]
const COPY_ITEM: &[Param] = &[
    ("confirm", &["cf"], Switch), ("container", &[], Switch), ("credential", &[], Value), ("destination", &[], Value),
    ("exclude", &[], Value), ("filter", &[], Value), ("force", &[], Switch), ("fromsession", &[], Value),
    ("include", &[], Value), ("literalpath", &["lp", "pspath"], Value), ("passthru", &[], Switch), ("path", &[], Value),
    ("recurse", &[], Switch), ("tosession", &[], Value), ("whatif", &["wi"], Switch),
];

#[rustfmt::skip]
const MOVE_ITEM: &[Param] = &[
    ("confirm", &["cf"], Switch), ("credential", &[], Value), ("destination", &[], Value), ("exclude", &[], Value),
    ("filter", &[], Value), ("force", &[], Switch), ("include", &[], Value), ("literalpath", &["lp", "pspath"], Value),
    ("newname", &[], Value), ("passthru", &[], Switch), ("path", &[], Value), ("whatif", &["wi"], Switch),
];

#[rustfmt::skip]
const NEW_ITEM: &[Param] = &[
    ("confirm", &["cf"], Switch), ("credential", &[], Value), ("force", &[], Switch), ("itemtype", &["type"], Value),
    ("name", &[], Value), ("parents", &[], Switch), ("path", &[], Value), ("value", &["target"], Value),
    ("whatif", &["wi"], Switch),
];

#[rustfmt::skip]
const SET_ITEM_PROPERTY: &[Param] = &[
    ("confirm", &["cf"], Switch), ("credential", &[], Value), ("exclude", &[], Value), ("filter", &[], Value),
    ("force", &[], Switch), ("include", &[], Value), ("inputobject", &[], Value), ("literalpath", &["lp", "pspath"], Value),
    ("name", &["pspropertyname"], Value), ("passthru", &[], Switch), ("path", &[], Value), ("propertytype", &[], Value),
    ("type", &[], Value), ("value", &[], Value), ("whatif", &["wi"], Switch),
];

#[rustfmt::skip]
const INVOKE_WEB_REQUEST: &[Param] = &[
    ("allowinsecureredirect", &[], Switch), ("allowunencryptedauthentication", &[], Switch), ("authentication", &[], Value),
    ("body", &[], Value), ("certificate", &[], Value), ("certificatethumbprint", &[], Value),
    ("connectiontimeoutseconds", &["timeoutsec"], Value), ("contenttype", &[], Value), ("credential", &[], Value),
    ("custommethod", &["cm"], Value), ("disablekeepalive", &[], Switch), ("form", &[], Value), ("headers", &[], Value),
    ("httpversion", &[], Value), ("infile", &[], Value), ("maximumredirection", &[], Value), ("maximumretrycount", &[], Value),
    ("method", &[], Value), ("noproxy", &[], Switch), ("operationtimeoutseconds", &[], Value), ("outfile", &[], Value),
    ("passthru", &[], Switch), ("preserveauthorizationonredirect", &[], Switch), ("preservehttpmethodonredirect", &[], Switch),
    ("proxy", &[], Value), ("proxycredential", &[], Value), ("proxyusedefaultcredentials", &[], Switch), ("resume", &[], Switch),
    ("retryintervalsec", &[], Value), ("sessionvariable", &["sv"], Value), ("skipcertificatecheck", &[], Switch),
    ("skipheadervalidation", &[], Switch), ("skiphttperrorcheck", &[], Switch), ("sslprotocol", &[], Value),
    ("token", &[], Value), ("transferencoding", &[], Value), ("unixsocket", &[], Value), ("uri", &[], Value),
    ("usebasicparsing", &[], Switch), ("usedefaultcredentials", &[], Switch), ("useragent", &[], Value), ("websession", &[], Value),
];

#[rustfmt::skip]
const INVOKE_REST_METHOD: &[Param] = &[
    ("allowinsecureredirect", &[], Switch), ("allowunencryptedauthentication", &[], Switch), ("authentication", &[], Value),
    ("body", &[], Value), ("certificate", &[], Value), ("certificatethumbprint", &[], Value),
    ("connectiontimeoutseconds", &["timeoutsec"], Value), ("contenttype", &[], Value), ("credential", &[], Value),
    ("custommethod", &["cm"], Value), ("disablekeepalive", &[], Switch), ("followrellink", &["fl"], Switch), ("form", &[], Value),
    ("headers", &[], Value), ("httpversion", &[], Value), ("infile", &[], Value), ("maximumfollowrellink", &["ml"], Value),
    ("maximumredirection", &[], Value), ("maximumretrycount", &[], Value), ("method", &[], Value), ("noproxy", &[], Switch),
    ("operationtimeoutseconds", &[], Value), ("outfile", &[], Value), ("passthru", &[], Switch),
    ("preserveauthorizationonredirect", &[], Switch), ("preservehttpmethodonredirect", &[], Switch), ("proxy", &[], Value),
    ("proxycredential", &[], Value), ("proxyusedefaultcredentials", &[], Switch), ("responseheadersvariable", &["rhv"], Value),
    ("resume", &[], Switch), ("retryintervalsec", &[], Value), ("sessionvariable", &["sv"], Value),
    ("skipcertificatecheck", &[], Switch), ("skipheadervalidation", &[], Switch), ("skiphttperrorcheck", &[], Switch),
    ("sslprotocol", &[], Value), ("statuscodevariable", &["scv"], Value), ("token", &[], Value), ("transferencoding", &[], Value),
    ("unixsocket", &[], Value), ("uri", &[], Value), ("usebasicparsing", &[], Switch), ("usedefaultcredentials", &[], Switch),
    ("useragent", &[], Value), ("websession", &[], Value),
];

#[rustfmt::skip]
const START_BITS_TRANSFER: &[Param] = &[
    ("asynchronous", &[], Switch), ("authentication", &[], Value), ("credential", &[], Value), ("description", &[], Value),
    ("destination", &[], Value), ("displayname", &[], Value), ("priority", &[], Value), ("proxyauthentication", &[], Value),
    ("proxybypass", &[], Value), ("proxycredential", &[], Value), ("proxylist", &[], Value), ("proxyusage", &[], Value),
    ("retryinterval", &[], Value), ("retrytimeout", &[], Value), ("source", &[], Value), ("suspended", &[], Switch),
    ("transferpolicy", &[], Value), ("transfertype", &[], Value),
];

#[rustfmt::skip]
const START_PROCESS: &[Param] = &[
    ("argumentlist", &["args"], Value), ("credential", &["runas"], Value), ("environment", &[], Value),
    ("filepath", &["path", "pspath"], Value), ("loaduserprofile", &["lup"], Switch), ("nonewwindow", &["nnw"], Switch),
    ("passthru", &[], Switch), ("redirectstandarderror", &["rse"], Value), ("redirectstandardinput", &["rsi"], Value),
    ("redirectstandardoutput", &["rso"], Value), ("usenewenvironment", &[], Switch), ("verb", &[], Value), ("wait", &[], Switch),
    ("windowstyle", &[], Value), ("workingdirectory", &[], Value),
];

#[rustfmt::skip]
const INVOKE_ITEM: &[Param] = &[
    ("confirm", &["cf"], Switch), ("credential", &[], Value), ("exclude", &[], Value), ("filter", &[], Value),
    ("include", &[], Value), ("literalpath", &["lp", "pspath"], Value), ("path", &[], Value), ("whatif", &["wi"], Switch),
];

#[rustfmt::skip]
const INVOKE_EXPRESSION: &[Param] = &[("command", &[], Value)];

#[rustfmt::skip]
const INVOKE_COMMAND: &[Param] = &[
    ("allowredirection", &[], Switch), ("applicationname", &[], Value), ("argumentlist", &["args"], Value), ("asjob", &[], Switch),
    ("authentication", &[], Value), ("certificatethumbprint", &[], Value), ("computername", &["cn"], Value),
    ("configurationname", &[], Value), ("connectionuri", &["cu", "uri"], Value), ("containerid", &[], Value),
    ("credential", &[], Value), ("enablenetworkaccess", &[], Switch), ("filepath", &["pspath"], Value),
    ("hidecomputername", &["hcn"], Switch), ("hostname", &[], Value), ("inputobject", &[], Value), ("jobname", &[], Value),
    ("keyfilepath", &["idfile"], Value), ("nonewscope", &["nns"], Switch), ("options", &[], Value), ("port", &[], Value),
    ("remotedebug", &[], Switch), ("runasadministrator", &[], Switch), ("scriptblock", &["command"], Value),
    ("session", &[], Value), ("sessionname", &[], Value), ("sessionoption", &[], Value), ("sshconnection", &[], Value),
    ("sshtransport", &[], Switch), ("strictmode", &[], Value), ("subsystem", &[], Value), ("throttlelimit", &[], Value),
    ("username", &[], Value), ("usessl", &[], Switch), ("vmid", &["vmguid"], Value), ("vmname", &[], Value),
];

#[rustfmt::skip]
const SET_ALIAS: &[Param] = &[
    ("confirm", &["cf"], Switch), ("description", &[], Value), ("force", &[], Switch), ("name", &[], Value),
    ("option", &[], Value), ("passthru", &[], Switch), ("scope", &[], Value), ("value", &[], Value), ("whatif", &["wi"], Switch),
];

#[rustfmt::skip]
const SET_VARIABLE: &[Param] = &[
    ("confirm", &["cf"], Switch), ("description", &[], Value), ("exclude", &[], Value), ("force", &[], Switch),
    ("include", &[], Value), ("name", &[], Value), ("option", &[], Value), ("passthru", &[], Switch), ("scope", &[], Value),
    ("value", &[], Value), ("visibility", &[], Value), ("whatif", &["wi"], Switch),
];

#[rustfmt::skip]
const NEW_OBJECT: &[Param] = &[
    ("argumentlist", &["args"], Value), ("comobject", &[], Value), ("property", &[], Value), ("strict", &[], Switch),
    ("typename", &[], Value),
];

#[rustfmt::skip]
const SET_EXECUTION_POLICY: &[Param] = &[
    ("confirm", &["cf"], Switch), ("executionpolicy", &[], Value), ("force", &[], Switch), ("scope", &[], Value),
    ("whatif", &["wi"], Switch),
];

#[rustfmt::skip]
const SELECT_STRING: &[Param] = &[
    ("allmatches", &[], Switch), ("casesensitive", &[], Switch), ("context", &[], Value), ("culture", &[], Value),
    ("encoding", &[], Value), ("exclude", &[], Value), ("include", &[], Value), ("inputobject", &[], Value), ("list", &[], Switch),
    ("literalpath", &["lp", "pspath"], Value), ("noemphasis", &[], Switch), ("notmatch", &[], Switch), ("path", &[], Value),
    ("pattern", &[], Value), ("quiet", &[], Switch), ("raw", &[], Switch), ("simplematch", &[], Switch),
];

#[rustfmt::skip]
const SET_LOCATION: &[Param] = &[
    ("literalpath", &["lp", "pspath"], Value), ("passthru", &[], Switch), ("path", &[], Value), ("stackname", &[], Value),
];

#[rustfmt::skip]
const STOP_PROCESS: &[Param] = &[
    ("confirm", &["cf"], Switch), ("force", &[], Switch), ("id", &[], Value), ("inputobject", &[], Value),
    ("name", &["processname"], Value), ("passthru", &[], Switch), ("whatif", &["wi"], Switch),
];

#[rustfmt::skip]
const REGISTER_TASK: &[Param] = &[
    ("action", &[], Value), ("description", &[], Value), ("force", &[], Switch), ("inputobject", &[], Value),
    ("password", &[], Value), ("principal", &[], Value), ("runlevel", &[], Value), ("settings", &[], Value),
    ("taskname", &[], Value), ("taskpath", &[], Value), ("trigger", &[], Value), ("user", &[], Value),
    ("xml", &[], Value),
];

#[rustfmt::skip]
const TRIGGER: &[Param] = &[
    ("at", &[], Value), ("atlogon", &[], Switch), ("atstartup", &[], Switch), ("daily", &[], Switch),
    ("daysinterval", &[], Value), ("daysofweek", &[], Value), ("once", &[], Switch),
    ("randomdelay", &[], Value), ("repetitionduration", &[], Value), ("repetitioninterval", &[], Value),
    ("user", &[], Value), ("weekly", &[], Switch), ("weeksinterval", &[], Value),
];

#[rustfmt::skip]
const SERVICE: &[Param] = &[
    ("confirm", &["cf"], Switch), ("credential", &[], Value), ("description", &[], Value), ("displayname", &["dn"], Value),
    ("exclude", &[], Value), ("force", &[], Switch), ("include", &[], Value), ("inputobject", &[], Value),
    ("name", &["servicename", "sn"], Value), ("nowait", &[], Switch), ("passthru", &[], Switch),
    ("securitydescriptorsddl", &["sd"], Value), ("startuptype", &["starttype"], Value), ("status", &[], Value),
    ("whatif", &["wi"], Switch),
];

#[rustfmt::skip]
const INSTALL_MODULE: &[Param] = &[
    ("acceptlicense", &[], Switch), ("allowclobber", &[], Switch), ("allowprerelease", &[], Switch), ("confirm", &["cf"], Switch),
    ("credential", &[], Value), ("force", &[], Switch), ("inputobject", &[], Value), ("maximumversion", &[], Value),
    ("minimumversion", &[], Value), ("name", &[], Value), ("passthru", &[], Switch), ("proxy", &[], Value),
    ("proxycredential", &[], Value), ("repository", &[], Value), ("requiredversion", &[], Value), ("scope", &[], Value),
    ("skippublishercheck", &[], Switch), ("whatif", &["wi"], Switch),
];

#[rustfmt::skip]
const JOIN_PATH: &[Param] = &[
    ("additionalchildpath", &[], Value), ("childpath", &[], Value), ("credential", &[], Value), ("extension", &[], Value),
    ("path", &["pspath"], Value), ("resolve", &[], Switch),
];

#[rustfmt::skip]
const ITEM: &[Param] = &[
    ("force", &[], Switch), ("literalpath", &["lp", "pspath"], Value), ("path", &[], Value),
    ("relative", &[], Switch),
];

#[rustfmt::skip]
const RESOLVE_DNS_NAME: &[Param] = &[
    ("dnsonly", &[], Switch), ("name", &[], Value), ("server", &[], Value), ("type", &[], Value),
];

#[rustfmt::skip]
const SEND_MAIL_MESSAGE: &[Param] = &[
    ("attachments", &["pspath", "attachment"], Value), ("bcc", &[], Value), ("body", &[], Value), ("bodyashtml", &["bah"], Switch),
    ("cc", &[], Value), ("credential", &["cred"], Value), ("deliverynotificationoption", &["dno"], Value),
    ("encoding", &["be", "bodyencoding"], Value), ("from", &[], Value), ("port", &[], Value), ("priority", &[], Value),
    ("replyto", &[], Value), ("smtpserver", &["computername"], Value), ("subject", &["sub"], Value), ("to", &[], Value),
    ("usessl", &[], Switch),
];

#[rustfmt::skip]
const ADD_LOCAL_GROUP_MEMBER: &[Param] = &[
    ("confirm", &["cf"], Switch), ("group", &[], Value), ("member", &[], Value), ("name", &[], Value),
    ("sid", &[], Value), ("whatif", &["wi"], Switch),
];

#[rustfmt::skip]
const NEW_LOCAL_USER: &[Param] = &[
    ("accountexpires", &[], Value), ("accountneverexpires", &[], Switch), ("confirm", &["cf"], Switch),
    ("description", &[], Value), ("disabled", &[], Switch), ("fullname", &[], Value), ("name", &[], Value),
    ("nopassword", &[], Switch), ("password", &[], Value), ("passwordneverexpires", &[], Switch),
    ("usermaynotchangepassword", &[], Switch), ("whatif", &["wi"], Switch),
];

#[rustfmt::skip]
const FOREACH_OBJECT: &[Param] = &[
    ("argumentlist", &["args"], Value), ("asjob", &[], Switch), ("begin", &[], Value), ("confirm", &["cf"], Switch),
    ("end", &[], Value), ("inputobject", &[], Value), ("membername", &[], Value), ("parallel", &[], Value),
    ("process", &[], Value), ("remainingscripts", &[], Value), ("throttlelimit", &[], Value), ("timeoutseconds", &[], Value),
    ("usenewrunspace", &[], Switch), ("whatif", &["wi"], Switch),
];

/// Every cmdlet (and the two functions, `mkdir` and `md`) the law reads by name. Sorted by
/// name; names and aliases are lower case and unique across the table. A cmdlet not here
/// whose verb only reads (`Get-`, `Test-`, `Format-`…, [`READS`]) is read as routine; any
/// other name is a program.
#[rustfmt::skip]
pub(super) const CMDLETS: &[Cmdlet] = &[
    ("add-content", &["ac"], Does::Append, SET_CONTENT),
    ("add-localgroupmember", &["algm"], Does::Account, ADD_LOCAL_GROUP_MEMBER),
    ("add-mppreference", &[], Does::Defender, &[]),
    ("clear-content", &["clc"], Does::Write, SET_CONTENT),
    ("clear-disk", &[], Does::Disk, &[]),
    ("clear-eventlog", &[], Does::Evidence, &[]),
    ("clear-history", &["clhy"], Does::Posix("history -c"), &[]),
    ("clear-host", &["clear", "cls"], Does::Routine, &[]),
    // Emptied for good, as the trash folder's files deleted are.
    ("clear-recyclebin", &[], Does::Posix("rm -rf ~/.local/share/Trash/files"), &[]),
    ("compare-object", &["compare", "diff"], Does::Routine, &[]),
    ("copy-item", &["copy", "cp", "cpi"], Does::Copy, COPY_ITEM),
    // Every profile's firewall off, as `ufw disable`.
    ("disable-netfirewallprofile", &[], Does::Posix("ufw disable"), &[]),
    // WinRM started and kept on, its listener taking remote shells (`winrm quickconfig`).
    ("enable-psremoting", &[], Does::Posix("systemctl enable --now winrm"), &[]),
    // A session on another machine, as `Invoke-Command -ComputerName` runs one there.
    ("enter-pssession", &["etsn"], Does::Run, INVOKE_COMMAND),
    ("foreach-object", &["%", "foreach"], Does::Run, FOREACH_OBJECT),
    ("format-list", &["fl"], Does::Routine, &[]),
    ("format-table", &["ft"], Does::Routine, &[]),
    ("format-volume", &[], Does::Disk, &[]),
    ("format-wide", &["fw"], Does::Routine, &[]),
    ("get-childitem", &["dir", "gci", "ls"], Does::List, GET_CHILDITEM),
    ("get-content", &["cat", "gc", "type"], Does::Read, GET_CONTENT),
    ("get-item", &["gi"], Does::Item, ITEM),
    ("get-location", &["gl", "pwd"], Does::Routine, &[]),
    ("get-process", &["gps", "ps"], Does::Routine, &[]),
    ("get-service", &["gsv"], Does::Routine, &[]),
    ("group-object", &["group"], Does::Routine, &[]),
    // A certificate put in a store the machine or the person trusts, as `update-ca-certificates`.
    ("import-certificate", &[], Does::Posix("update-ca-certificates"), &[]),
    ("import-module", &["ipmo"], Does::Routine, &[]),
    ("install-module", &[], Does::Install, INSTALL_MODULE),
    ("install-package", &[], Does::Install, INSTALL_MODULE),
    ("install-script", &[], Does::Install, INSTALL_MODULE),
    ("invoke-command", &["icm"], Does::Run, INVOKE_COMMAND),
    ("invoke-expression", &["iex"], Does::Eval, INVOKE_EXPRESSION),
    ("invoke-item", &["ii"], Does::Start, INVOKE_ITEM),
    ("invoke-restmethod", &["irm"], Does::Fetch, INVOKE_REST_METHOD),
    ("invoke-webrequest", &["curl", "iwr", "wget"], Does::Fetch, INVOKE_WEB_REQUEST),
    ("join-path", &[], Does::Join, JOIN_PATH),
    ("measure-command", &[], Does::Run, &[]),
    ("measure-object", &["measure"], Does::Routine, &[]),
    ("mkdir", &["md"], Does::MakeDir, NEW_ITEM),
    ("move-item", &["mi", "move", "mv"], Does::Move, MOVE_ITEM),
    ("new-alias", &["nal"], Does::Alias, SET_ALIAS),
    ("new-item", &["ni"], Does::NewItem, NEW_ITEM),
    ("new-itemproperty", &[], Does::Property, SET_ITEM_PROPERTY),
    ("new-localuser", &["nlu"], Does::Account, NEW_LOCAL_USER),
    // A rule opened (inbound and allowing, by default), as `ufw allow`.
    ("new-netfirewallrule", &[], Does::Posix("ufw allow"), &[]),
    ("new-object", &[], Does::Object, NEW_OBJECT),
    ("new-pssession", &["nsn"], Does::Run, INVOKE_COMMAND),
    ("new-scheduledtasktrigger", &[], Does::Trigger, TRIGGER),
    ("new-service", &[], Does::Schedule, &[]),
    ("new-variable", &["nv"], Does::Variable, SET_VARIABLE),
    ("out-file", &[], Does::OutFile, OUT_FILE),
    ("out-host", &["oh"], Does::Routine, &[]),
    ("out-null", &[], Does::Routine, &[]),
    ("out-string", &[], Does::Routine, &[]),
    ("pop-location", &["popd"], Does::Location, &[]),
    ("push-location", &["pushd"], Does::Location, SET_LOCATION),
    ("register-scheduledjob", &[], Does::Schedule, &[]),
    ("register-scheduledtask", &[], Does::Schedule, REGISTER_TASK),
    ("remove-item", &["del", "erase", "rd", "ri", "rm", "rmdir"], Does::Delete, REMOVE_ITEM),
    ("remove-partition", &[], Does::Disk, &[]),
    ("rename-item", &["ren", "rni"], Does::Rename, MOVE_ITEM),
    ("resolve-dnsname", &[], Does::Lookup, RESOLVE_DNS_NAME),
    ("resolve-path", &["rvpa"], Does::Item, ITEM),
    ("restart-computer", &[], Does::Posix("reboot"), &[]),
    ("select-object", &["select"], Does::Routine, &[]),
    ("select-string", &["sls"], Does::Search, SELECT_STRING),
    ("send-mailmessage", &[], Does::Mail, SEND_MAIL_MESSAGE),
    ("set-alias", &["sal"], Does::Alias, SET_ALIAS),
    ("set-content", &["sc"], Does::Write, SET_CONTENT),
    ("set-executionpolicy", &[], Does::Policy, SET_EXECUTION_POLICY),
    ("set-item", &["si"], Does::Property, SET_ITEM_PROPERTY),
    ("set-itemproperty", &["sp"], Does::Property, SET_ITEM_PROPERTY),
    ("set-location", &["cd", "chdir", "sl"], Does::Location, SET_LOCATION),
    ("set-mppreference", &[], Does::Defender, &[]),
    ("set-netfirewallprofile", &[], Does::Firewall, &[]),
    ("set-scheduledtask", &[], Does::Schedule, &[]),
    ("set-service", &[], Does::Service, SERVICE),
    ("set-variable", &["set", "sv"], Does::Variable, SET_VARIABLE),
    ("sort-object", &["sort"], Does::Routine, &[]),
    ("start-bitstransfer", &[], Does::Bits, START_BITS_TRANSFER),
    ("start-job", &["sajb"], Does::Run, &[]),
    ("start-process", &["saps", "start"], Does::Start, START_PROCESS),
    ("start-sleep", &["sleep"], Does::Routine, &[]),
    ("start-threadjob", &[], Does::Run, &[]),
    ("stop-computer", &[], Does::Posix("shutdown now"), &[]),
    ("stop-process", &["kill", "spps"], Does::Stop, STOP_PROCESS),
    ("stop-service", &["spsv"], Does::Service, SERVICE),
    ("tee-object", &["tee"], Does::OutFile, OUT_FILE),
    ("test-path", &[], Does::Routine, &[]),
    ("where-object", &["?", "where"], Does::Run, &[]),
    ("write-host", &[], Does::Echo, &[]),
    ("write-output", &["echo", "write"], Does::Echo, &[]),
];

/// Aliases that are also programs of their own on Linux and macOS, where PowerShell leaves
/// the program in charge: when a parameter doesn't bind, they are read as the program.
#[rustfmt::skip]
pub(super) const PROGRAMS_TOO: &[&str] = &[
    "cat", "cp", "curl", "diff", "kill", "ls", "mv", "ps", "rm", "rmdir", "sleep", "sort", "tee", "wget",
];

/// Verbs whose cmdlets only read or shape what they are given.
#[rustfmt::skip]
pub(super) const READS: &[&str] = &[
    "compare", "convertfrom", "convertto", "find", "format", "get", "group", "join", "measure", "out",
    "read", "resolve", "search", "select", "show", "sort", "split", "test", "trace", "wait", "watch", "write",
];

/// Reading words PowerShell doesn't treat as commands at the start of a statement.
#[rustfmt::skip]
pub(super) const KEYWORDS: &[&str] = &[
    "begin", "break", "catch", "class", "clean", "configuration", "continue", "data", "do", "dynamicparam",
    "else", "elseif", "end", "enum", "exit", "filter", "finally", "for", "foreach", "function", "if",
    "inlinescript", "parallel", "param", "process", "return", "sequence", "switch", "throw", "trap", "try",
    "until", "using", "while", "workflow",
];

/// The cmdlet a name (any case, module-qualified or not) stands for.
pub(super) fn cmdlet(name: &str) -> Option<&'static Cmdlet> {
    let name = name.to_lowercase();
    let name = unqualified(&name);
    CMDLETS
        .iter()
        .find(|(cmdlet, aliases, _, _)| *cmdlet == name || aliases.contains(&name))
}

/// `Microsoft.PowerShell.Management\Remove-Item` → `Remove-Item`; a path stays a path.
pub(super) fn unqualified(name: &str) -> &str {
    match name.rsplit_once('\\') {
        Some((module, cmdlet))
            if !module.is_empty()
                && !cmdlet.is_empty()
                && !module.contains(['\\', '/', ':'])
                && !module.starts_with(['.', '~'])
                && cmdlet.contains('-') =>
        {
            cmdlet
        }
        _ => name,
    }
}

/// A cmdlet not in [`CMDLETS`] whose verb only reads (`Get-FileHash`, `Test-Connection`).
pub(super) fn reads_by_verb(name: &str) -> bool {
    let name = name.to_lowercase();
    let name = unqualified(&name);
    name.split_once('-').is_some_and(|(verb, noun)| {
        !noun.is_empty() && noun.chars().all(|c| c.is_alphanumeric()) && READS.contains(&verb)
    })
}

/// One argument as a command sees it: a parameter, a value (a list when commas join items;
/// each item is the tokens glued together), or `--%`'s raw text.
#[derive(Debug, Clone)]
pub(super) enum Arg<'t> {
    Param { name: String, colon: bool },
    Value(Vec<Vec<&'t Token>>),
    Raw(String),
}

/// How a cmdlet's arguments bind to its parameters, by index into the arguments.
#[derive(Debug, Default)]
pub(super) struct Bound {
    /// Canonical parameter names, with the index of the value each was given.
    pub named: Vec<(&'static str, Option<usize>)>,
    pub positional: Vec<usize>,
    /// A parameter matched none, or more than one: PowerShell would refuse the command.
    pub unbound: bool,
}

impl Bound {
    /// The value given to a parameter.
    pub fn get(&self, name: &str) -> Option<usize> {
        self.named
            .iter()
            .find(|(param, value)| *param == name && value.is_some())
            .and_then(|(_, value)| *value)
    }

    /// Whether a parameter was named at all.
    pub fn has(&self, name: &str) -> bool {
        self.named.iter().any(|(param, _)| *param == name)
    }
}

enum Found {
    One(&'static Param),
    Many(Vec<&'static Param>),
    None,
}

/// A parameter's name as written (`rec`, `Fo`, `LP`) among a cmdlet's parameters.
fn find(params: &'static [Param], written: &str) -> Found {
    let written = written.to_lowercase();
    let all = || params.iter().chain(COMMON);
    if let Some(param) =
        all().find(|(name, aliases, _)| *name == written || aliases.contains(&written.as_str()))
    {
        return Found::One(param);
    }
    let by_name: Vec<&Param> = all()
        .filter(|(name, _, _)| name.starts_with(&written))
        .collect();
    let matched = if by_name.is_empty() {
        all()
            .filter(|(_, aliases, _)| aliases.iter().any(|a| a.starts_with(&written)))
            .collect()
    } else {
        by_name
    };
    match matched.as_slice() {
        [] => Found::None,
        [one] => Found::One(one),
        _ => Found::Many(matched),
    }
}

/// Binds arguments to parameters as PowerShell would, reading the dangerous side of what it
/// can't: a prefix that matches several parameters sets every switch among them.
pub(super) fn bind(params: &'static [Param], args: &[Arg<'_>]) -> Bound {
    let mut bound = Bound::default();
    let mut i = 0;
    while let Some(arg) = args.get(i) {
        match arg {
            Arg::Param { name, colon } => match find(params, name) {
                Found::One((canonical, _, takes)) => {
                    let value = match (takes, colon) {
                        (_, true) | (Takes::Value, false) => match args.get(i + 1) {
                            Some(Arg::Value(_) | Arg::Raw(_)) => {
                                i += 1;
                                Some(i)
                            }
                            _ => None,
                        },
                        (Takes::Switch, false) => None,
                    };
                    bound.named.push((canonical, value));
                }
                Found::Many(params) => {
                    bound.unbound = true;
                    for (canonical, _, takes) in params {
                        if *takes == Takes::Switch {
                            bound.named.push((canonical, None));
                        }
                    }
                    if *colon {
                        i += 1;
                    }
                }
                Found::None => {
                    bound.unbound = true;
                    if *colon {
                        i += 1;
                    }
                }
            },
            Arg::Value(_) | Arg::Raw(_) => bound.positional.push(i),
        }
        i += 1;
    }
    bound
}
