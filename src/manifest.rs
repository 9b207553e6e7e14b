//! Reading the package names a project's manifests declare, from text the host hands in.
//!
//! Pure: the host reads the files (and caches them by modification time); this module only
//! parses. Every parser is total: malformed text yields what could be read, often nothing,
//! and never a panic. Names come out lower case, sorted and unique.

use serde_json::Value as Json;
use toml::{Table, Value as Toml};

/// The manifests whose declared packages install without a word, by file name.
///
/// `requirements*.txt` stands for every file whose name starts with `requirements` and ends
/// with `.txt` (`requirements.txt`, `requirements-dev.txt`, …); the others are exact names.
/// Only these files are read: lock files, `gems.rb`, `setup.py` and `setup.cfg` are not.
pub const MANIFESTS: &[&str] = &[
    "package.json",
    "pyproject.toml",
    "requirements*.txt",
    "Pipfile",
    "Cargo.toml",
    "go.mod",
    "Gemfile",
    "Brewfile",
];

/// The kinds of manifest [`MANIFESTS`] lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    PackageJson,
    Pyproject,
    Requirements,
    Pipfile,
    Cargo,
    GoMod,
    Gemfile,
    Brewfile,
}

impl Format {
    /// The format of a file, by its name (a path's last part is used).
    fn of(file_name: &str) -> Option<Format> {
        let base = file_name.rsplit(['/', '\\']).next().unwrap_or(file_name);
        match base {
            "package.json" => Some(Format::PackageJson),
            "pyproject.toml" => Some(Format::Pyproject),
            "Pipfile" => Some(Format::Pipfile),
            "Cargo.toml" => Some(Format::Cargo),
            "go.mod" => Some(Format::GoMod),
            "Gemfile" => Some(Format::Gemfile),
            "Brewfile" => Some(Format::Brewfile),
            _ if base.starts_with("requirements") && base.ends_with(".txt") => {
                Some(Format::Requirements)
            }
            _ => None,
        }
    }
}

/// Is a file with this name (or path) one of the [`MANIFESTS`]?
pub fn is_manifest(file_name: &str) -> bool {
    Format::of(file_name).is_some()
}

/// The package names the manifest `file_name` declares in `text`: lower case, sorted, unique.
///
/// Python names are normalised as PEP 503 says (runs of `-`, `_`, `.` become `-`); when that
/// changes a name, the lower-cased name as written is listed too, so both spellings match.
/// A file that is not a manifest, or text that does not parse, declares nothing.
pub fn declared(file_name: &str, text: &str) -> Vec<String> {
    let mut names = match Format::of(file_name) {
        Some(Format::PackageJson) => package_json(text),
        Some(Format::Pyproject) => pyproject(text),
        Some(Format::Requirements) => requirements(text),
        Some(Format::Pipfile) => pipfile(text),
        Some(Format::Cargo) => cargo(text),
        Some(Format::GoMod) => go_mod(text),
        Some(Format::Gemfile) => gemfile(text),
        Some(Format::Brewfile) => brewfile(text),
        None => Vec::new(),
    };
    names.retain(|name| !name.is_empty());
    names.sort();
    names.dedup();
    names
}

/// A Python package name as PEP 503 normalises it: lower case, each run of `-`, `_` and `.`
/// one `-`.
pub fn pep503_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut in_separators = false;
    for c in name.chars() {
        if matches!(c, '-' | '_' | '.') {
            if !in_separators {
                out.push('-');
            }
            in_separators = true;
        } else {
            out.extend(c.to_lowercase());
            in_separators = false;
        }
    }
    out
}

/// Pushes a Python name: its PEP 503 form, and its lower-cased written form if different.
fn push_python(names: &mut Vec<String>, name: &str) {
    let normal = pep503_name(name);
    let written = name.to_lowercase();
    if written != normal {
        names.push(written);
    }
    names.push(normal);
}

/// The name a PEP 508 requirement (`requests[socks]>=2; python_version>'3'`) starts with,
/// or `None` when the text does not start with a name followed by something a requirement
/// may hold there (which rules out URLs, paths and options).
fn pep508_name(spec: &str) -> Option<&str> {
    let spec = spec.trim_start();
    let end = spec
        .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')))
        .unwrap_or(spec.len());
    let (name, rest) = spec.split_at(end);
    let follows_a_name = match rest.chars().next() {
        None => true,
        Some(c) => c.is_whitespace() || "[(<>=!~;@,".contains(c),
    };
    let name = name.trim_end_matches(['-', '_', '.']);
    let starts_well = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphanumeric());
    (follows_a_name && starts_well).then_some(name)
}

/// Pushes the name of each PEP 508 requirement string in a TOML array.
fn push_requirements(names: &mut Vec<String>, array: Option<&Toml>) {
    for item in array.and_then(Toml::as_array).into_iter().flatten() {
        if let Some(name) = item.as_str().and_then(pep508_name) {
            push_python(names, name);
        }
    }
}

/// The value at a dotted path of tables.
fn at<'a>(table: &'a Table, path: &[&str]) -> Option<&'a Toml> {
    let (first, rest) = path.split_first()?;
    let mut value = table.get(*first)?;
    for key in rest {
        value = value.as_table()?.get(*key)?;
    }
    Some(value)
}

/// The keys of the table at a dotted path.
fn keys_at<'a>(table: &'a Table, path: &[&str]) -> impl Iterator<Item = &'a String> {
    at(table, path)
        .and_then(Toml::as_table)
        .into_iter()
        .flat_map(|t| t.keys())
}

fn package_json(text: &str) -> Vec<String> {
    const SECTIONS: &[&str] = &[
        "dependencies",
        "devDependencies",
        "peerDependencies",
        "optionalDependencies",
    ];
    let Ok(json) = serde_json::from_str::<Json>(text) else {
        return Vec::new();
    };
    let mut names = Vec::new();
    for section in SECTIONS {
        let Some(deps) = json.get(section).and_then(Json::as_object) else {
            continue;
        };
        for (name, version) in deps {
            names.push(name.trim().to_lowercase());
            // An alias, `"pad": "npm:left-pad@^1"`, installs the package after `npm:`.
            if let Some(real) = version.as_str().and_then(npm_alias) {
                names.push(real.to_lowercase());
            }
        }
    }
    names
}

/// The real package of an npm alias version, `npm:@scope/name@^1` → `@scope/name`.
fn npm_alias(version: &str) -> Option<&str> {
    let target = version.trim().strip_prefix("npm:")?;
    let at_version = target
        .char_indices()
        .skip(1)
        .find(|&(_, c)| c == '@')
        .map(|(i, _)| i);
    let real = &target[..at_version.unwrap_or(target.len())];
    (!real.is_empty()).then_some(real)
}

fn pyproject(text: &str) -> Vec<String> {
    let Ok(table) = toml::from_str::<Table>(text) else {
        return Vec::new();
    };
    let mut names = Vec::new();
    push_requirements(&mut names, at(&table, &["project", "dependencies"]));
    let optional = at(&table, &["project", "optional-dependencies"]).and_then(Toml::as_table);
    for extra in optional.into_iter().flat_map(|t| t.values()) {
        push_requirements(&mut names, Some(extra));
    }
    // `[dependency-groups]` (PEP 735): strings, or `{ include-group = "…" }` tables, skipped.
    let groups = table.get("dependency-groups").and_then(Toml::as_table);
    for group in groups.into_iter().flat_map(|t| t.values()) {
        push_requirements(&mut names, Some(group));
    }
    let mut poetry: Vec<&String> = keys_at(&table, &["tool", "poetry", "dependencies"])
        .chain(keys_at(&table, &["tool", "poetry", "dev-dependencies"]))
        .collect();
    let poetry_groups = at(&table, &["tool", "poetry", "group"]).and_then(Toml::as_table);
    for group in poetry_groups.into_iter().flat_map(|t| t.values()) {
        let deps = group.get("dependencies").and_then(Toml::as_table);
        poetry.extend(deps.into_iter().flat_map(|t| t.keys()));
    }
    for name in poetry {
        if !name.eq_ignore_ascii_case("python") {
            push_python(&mut names, name);
        }
    }
    names
}

fn requirements(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    for line in text.lines() {
        let line = match line.find(" #").or_else(|| line.find("\t#")) {
            Some(comment) => &line[..comment],
            None => line,
        };
        let line = line.trim().trim_end_matches('\\').trim();
        if line.is_empty() || line.starts_with(['#', '-']) {
            continue;
        }
        if let Some(name) = pep508_name(line) {
            push_python(&mut names, name);
        }
    }
    names
}

fn pipfile(text: &str) -> Vec<String> {
    let Ok(table) = toml::from_str::<Table>(text) else {
        return Vec::new();
    };
    let mut names = Vec::new();
    for name in keys_at(&table, &["packages"]).chain(keys_at(&table, &["dev-packages"])) {
        push_python(&mut names, name);
    }
    names
}

fn cargo(text: &str) -> Vec<String> {
    const KINDS: &[&str] = &[
        "dependencies",
        "dev-dependencies",
        "dev_dependencies",
        "build-dependencies",
        "build_dependencies",
    ];
    let Ok(table) = toml::from_str::<Table>(text) else {
        return Vec::new();
    };
    let mut tables: Vec<&Toml> = KINDS.iter().filter_map(|kind| table.get(*kind)).collect();
    tables.extend(at(&table, &["workspace", "dependencies"]));
    let targets = table.get("target").and_then(Toml::as_table);
    for target in targets.into_iter().flat_map(|t| t.values()) {
        tables.extend(KINDS.iter().filter_map(|kind| target.get(*kind)));
    }
    let mut names = Vec::new();
    for deps in tables.into_iter().filter_map(Toml::as_table) {
        for (key, spec) in deps {
            // A rename, `json = { package = "serde_json" }`, installs the real name.
            let real = spec.get("package").and_then(Toml::as_str).unwrap_or(key);
            names.push(real.trim().to_lowercase());
        }
    }
    names
}

fn go_mod(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut in_block = false;
    for line in text.lines() {
        let line = line.split("//").next().unwrap_or_default().trim();
        let module = if in_block {
            if line.starts_with(')') {
                in_block = false;
                continue;
            }
            line
        } else if let Some(rest) = keyword_rest(line, "require") {
            match rest.strip_prefix('(') {
                Some(inside) => {
                    in_block = true;
                    inside.trim()
                }
                None => rest,
            }
        } else {
            continue;
        };
        if let Some(path) = module.split_whitespace().next() {
            let path = path.trim_matches(['"', '`']);
            if !path.is_empty() && path != ")" {
                names.push(path.to_lowercase());
            }
        }
    }
    names
}

fn gemfile(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|line| quoted_after(line, "gem"))
        .map(str::to_lowercase)
        .collect()
}

fn brewfile(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    for line in text.lines() {
        let Some(name) = quoted_after(line, "brew").or_else(|| quoted_after(line, "cask")) else {
            continue;
        };
        let name = name.to_lowercase();
        // A tap-qualified `user/tap/name` installs `name` from that tap.
        if let Some(short) = name.rsplit('/').next().filter(|short| *short != name) {
            names.push(short.to_string());
        }
        names.push(name);
    }
    names
}

/// What follows `keyword` at the start of a line, when the keyword is a whole word; trimmed.
fn keyword_rest<'a>(line: &'a str, keyword: &str) -> Option<&'a str> {
    let rest = line.trim_start().strip_prefix(keyword)?;
    let ends_word = rest
        .chars()
        .next()
        .is_none_or(|c| c.is_whitespace() || c == '(');
    ends_word.then(|| rest.trim_start())
}

/// The first quoted string after `keyword` on a Ruby line: `gem 'rails', '~> 7'` → `rails`.
fn quoted_after<'a>(line: &'a str, keyword: &str) -> Option<&'a str> {
    let rest = keyword_rest(line, keyword)?;
    let rest = rest.strip_prefix('(').unwrap_or(rest).trim_start();
    let quote = rest.chars().next().filter(|c| matches!(c, '"' | '\''))?;
    let body = rest.strip_prefix(quote)?;
    let name = body[..body.find(quote)?].trim();
    (!name.is_empty()).then_some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(file: &str, cases: &[(&str, &[&str])]) {
        for (text, expected) in cases {
            let got = declared(file, text);
            let mut want: Vec<String> = expected.iter().map(|s| s.to_string()).collect();
            want.sort();
            assert_eq!(got, want, "{file} declares these names in:\n{text}");
        }
    }

    #[test]
    fn knows_which_files_are_manifests() {
        let cases = [
            ("package.json", true),
            ("pyproject.toml", true),
            ("requirements.txt", true),
            ("requirements-dev.txt", true),
            ("requirements_test.txt", true),
            ("Pipfile", true),
            ("Cargo.toml", true),
            ("go.mod", true),
            ("Gemfile", true),
            ("Brewfile", true),
            ("/home/x/project/package.json", true),
            ("package-lock.json", false),
            ("Cargo.lock", false),
            ("requirements.in", false),
            ("go.sum", false),
            ("Gemfile.lock", false),
            ("cargo.toml", false),
            ("", false),
        ];
        for (name, expected) in cases {
            assert_eq!(is_manifest(name), expected, "is {name:?} a manifest?");
        }
        assert_eq!(declared("README.md", "dependencies"), Vec::<String>::new());
    }

    #[test]
    fn normalises_python_names() {
        let cases = [
            ("requests", "requests"),
            ("Python_Dateutil", "python-dateutil"),
            ("zope.interface", "zope-interface"),
            ("a-_.b", "a-b"),
        ];
        for (name, expected) in cases {
            assert_eq!(pep503_name(name), expected, "pep503 of {name:?}");
        }
    }

    #[test]
    fn reads_package_json() {
        check(
            "package.json",
            &[
                (
                    r#"{"name": "app", "dependencies": {"React": "^18", "@types/node": "20"},
                       "devDependencies": {"jest": "*"}, "peerDependencies": {"vue": "3"},
                       "optionalDependencies": {"fsevents": "2"}, "scripts": {"x": "y"}}"#,
                    &["react", "@types/node", "jest", "vue", "fsevents"],
                ),
                (
                    r#"{"dependencies": {"pad": "npm:left-pad@^1", "t": "npm:@scope/real@2"}}"#,
                    &["pad", "left-pad", "t", "@scope/real"],
                ),
                (r#"{"dependencies": ["react"]}"#, &[]),
                (r#"{"dependencies": {"react": "#, &[]),
                ("", &[]),
                ("[1, 2]", &[]),
            ],
        );
    }

    #[test]
    fn reads_pyproject() {
        check(
            "pyproject.toml",
            &[
                (
                    r#"
                    [project]
                    name = "app"
                    dependencies = ["requests[socks]>=2; python_version>'3'", "Python_Dateutil",
                                    "numpy ==1.26", "attrs@https://x/attrs.whl"]
                    [project.optional-dependencies]
                    test = ["pytest>=7", "zope.interface"]
                    [dependency-groups]
                    dev = ["ruff", {include-group = "test"}]
                    "#,
                    &[
                        "requests",
                        "python_dateutil",
                        "python-dateutil",
                        "numpy",
                        "attrs",
                        "pytest",
                        "zope.interface",
                        "zope-interface",
                        "ruff",
                    ],
                ),
                (
                    r#"
                    [tool.poetry.dependencies]
                    python = "^3.11"
                    Django = "^5"
                    [tool.poetry.dev-dependencies]
                    black = "*"
                    [tool.poetry.group.docs.dependencies]
                    mkdocs = "*"
                    "#,
                    &["django", "black", "mkdocs"],
                ),
                ("[project]\ndependencies = \"requests\"\n", &[]),
                ("[project\ndependencies = [\"requests\"]", &[]),
                ("", &[]),
            ],
        );
    }

    #[test]
    fn reads_requirements() {
        check(
            "requirements-dev.txt",
            &[
                (
                    "# the app\nrequests[socks]>=2.31 ; python_version > '3.8'  # http\n\
                     Flask==3.0\n-r base.txt\n-e git+https://x/y.git#egg=mine\n\
                     --index-url https://pypi.org/simple\n\
                     https://x/pkg.whl\n./local/pkg\n/abs/pkg\n\
                     numpy>=1 \\\n    --hash=sha256:abc\n\
                     attrs @ https://x/attrs.whl\nruamel.yaml\n\n   \n",
                    &[
                        "requests",
                        "flask",
                        "numpy",
                        "attrs",
                        "ruamel.yaml",
                        "ruamel-yaml",
                    ],
                ),
                ("\u{0}\u{1}garbage ::: ===\n", &[]),
                ("", &[]),
            ],
        );
    }

    #[test]
    fn reads_pipfile() {
        check(
            "Pipfile",
            &[
                (
                    r#"
                    [[source]]
                    url = "https://pypi.org/simple"
                    [packages]
                    requests = "*"
                    Django = {version = ">=5"}
                    [dev-packages]
                    pytest_cov = "*"
                    [requires]
                    python_version = "3.12"
                    "#,
                    &["requests", "django", "pytest_cov", "pytest-cov"],
                ),
                ("[packages\nrequests = \"*\"", &[]),
            ],
        );
    }

    #[test]
    fn reads_cargo_toml() {
        check(
            "Cargo.toml",
            &[
                (
                    r#"
                    [package]
                    name = "app"
                    [dependencies]
                    serde = { version = "1", features = ["derive"] }
                    json = { package = "serde_json", version = "1" }
                    tokio.workspace = true
                    [dev-dependencies]
                    proptest = "1"
                    [build-dependencies]
                    cc = "1"
                    [workspace.dependencies]
                    Anyhow = "1"
                    [target.'cfg(unix)'.dependencies]
                    libc = "0.2"
                    [target.'cfg(windows)'.dev-dependencies]
                    windows-sys = "0.59"
                    "#,
                    &[
                        "serde",
                        "serde_json",
                        "tokio",
                        "proptest",
                        "cc",
                        "anyhow",
                        "libc",
                        "windows-sys",
                    ],
                ),
                ("[dependencies]\nserde = ", &[]),
                ("dependencies = 3", &[]),
            ],
        );
    }

    #[test]
    fn reads_go_mod() {
        check(
            "go.mod",
            &[
                (
                    "module example.com/app\n\ngo 1.22\n\n\
                     require github.com/spf13/cobra v1.8.0\n\
                     require (\n\tgithub.com/BurntSushi/toml v1.3.2 // indirect\n\
                     \t\"golang.org/x/net\" v0.20.0\n\t// a comment\n)\n\
                     replace github.com/a/b => ../b\nexclude github.com/c/d v1.0.0\n",
                    &[
                        "github.com/spf13/cobra",
                        "github.com/burntsushi/toml",
                        "golang.org/x/net",
                    ],
                ),
                (
                    "require (\n\tgithub.com/gin-gonic/gin v1.9.1\n",
                    &["github.com/gin-gonic/gin"],
                ),
                ("requirement x\nrequire\n)\n", &[]),
                ("", &[]),
            ],
        );
    }

    #[test]
    fn reads_gemfile() {
        check(
            "Gemfile",
            &[
                (
                    "source 'https://rubygems.org'\ngemspec\ngem 'rails', '~> 7.1'\n\
                     group :test do\n  gem \"RSpec\"\n  gem('pry')\nend\n# gem 'commented'\n",
                    &["rails", "rspec", "pry"],
                ),
                ("gem 'unterminated\ngem\ngem ''\n", &[]),
            ],
        );
    }

    #[test]
    fn reads_brewfile() {
        check(
            "Brewfile",
            &[
                (
                    "tap \"homebrew/bundle\"\nbrew \"wget\"\nbrew \"user/tap/Thing\", args: [\"x\"]\n\
                     cask 'firefox'\nmas \"Xcode\", id: 497799835\nvscode \"rust-lang.rust\"\n",
                    &["wget", "user/tap/thing", "thing", "firefox"],
                ),
                ("brew\nbrew \"\ncask 'x\n", &[]),
            ],
        );
    }
}
