//! Installs and publishing. A package the project's manifests declare installs without a
//! word; a look-alike of a popular or declared package is NEVER; publishing is for others to
//! pull and scores three.

use super::{Scan, has_flag};
use crate::law::rule::RuleId;
use crate::shell::Command;
use crate::verdict::{Harm, Risk};
use crate::wish::{Act, Name, Wish};

use super::table::{ByProgram, Row, row};
use std::sync::LazyLock;

/// What installs named packages: (program, subcommand words). The packages are the
/// positional words after the subcommand.
#[rustfmt::skip]
const INSTALLERS: &[Row<()>] = &[
    // npm's short names and typos (`npm i`, `npm add`, `npm isntall`, `npm inst`) are written
    // out as `install` by the shell reader (`shell::options`), as npm reads them.
    row("npm", &["install"], (), &["npm install left-pad", "npm install --save-dev typescript", "npm i -g pnpm", "npm add lodash", "npm isntall express", "npm inst axios"], &["npm install", "npm ls left-pad", "npm ci", "npm view lodash version", "npm uninstall express"]),
    row("pnpm", &["add"], (), &["pnpm add -D vitest"], &["pnpm remove vitest"]),
    row("pnpm", &["install"], (), &["pnpm install zod"], &["pnpm install --frozen-lockfile"]),
    row("pnpm", &["i"], (), &["pnpm i axios"], &["pnpm list"]),
    row("yarn", &["add"], (), &["yarn add react-query"], &["yarn install --frozen-lockfile"]),
    row("yarn", &["global", "add"], (), &["yarn global add serve"], &["yarn global list"]),
    row("bun", &["add"], (), &["bun add hono"], &["bun run build"]),
    row("bun", &["a"], (), &["bun a zod hono"], &["bun audit"]),
    row("bun", &["install"], (), &["bun install elysia"], &["bun install"]),
    row("bun", &["i"], (), &["bun i -d @types/bun"], &["bun pm ls"]),
    row("pip", &["install"], (), &["pip install requests", "pip3 install flask", "python -m pip install --upgrade httpx"], &["pip install -r requirements.txt", "pip download requests"]),
    row("pipx", &["install"], (), &["pipx install ruff"], &["pipx list"]),
    row("uv", &["pip", "install"], (), &["uv pip install pandas"], &["uv pip list", "uv pip install -r requirements.txt"]),
    row("uv", &["add"], (), &["uv add fastapi"], &["uv sync", "uv remove fastapi"]),
    row("uv", &["tool", "install"], (), &["uv tool install ruff"], &["uv tool list"]),
    // An interpreter kept for every project (`~/.local/share/uv/python`), as `nvm install`.
    row("uv", &["python", "install"], (), &["uv python install 3.12"], &["uv python list", "uv python find"]),
    row("poetry", &["add"], (), &["poetry add pydantic"], &["poetry install"]),
    row("pdm", &["add"], (), &["pdm add django"], &["pdm install"]),
    row("conda", &["install"], (), &["conda install -c conda-forge numpy"], &["conda list"]),
    row("mamba", &["install"], (), &["mamba install -y scipy"], &["mamba env list"]),
    row("cargo", &["add"], (), &["cargo add serde --features derive"], &["cargo build --release", "cargo update -p serde"]),
    row("cargo", &["install"], (), &["cargo install ripgrep"], &["cargo install --path .", "cargo uninstall ripgrep"]),
    // Angular's `ng add`: the package installed, then its schematics run.
    row("ng", &["add"], (), &["ng add @angular/material"], &["ng build", "ng update"]),
    // cargo-binstall: a crate's released binary, fetched and installed.
    row("cargo", &["binstall"], (), &["cargo binstall -y ripgrep"], &["cargo binstall --help"]),
    row("go", &["get"], (), &["go get github.com/spf13/cobra@latest"], &["go mod tidy"]),
    row("go", &["install"], (), &["go install golang.org/x/tools/gopls@latest"], &["go build ./..."]),
    row("gem", &["install"], (), &["gem install rails"], &["gem list rails"]),
    // A named gem updated is a new version of it installed; every gem is the words'.
    row("gem", &["update"], (), &["gem update rails"], &["gem update", "gem outdated"]),
    row("bundle", &["add"], (), &["bundle add sidekiq"], &["bundle install"]),
    row("brew", &["install"], (), &["brew install jq"], &["brew info jq"]),
    row("brew", &["reinstall"], (), &["brew reinstall openssl@3"], &["brew uninstall openssl@3"]),
    // A named package upgraded is a new version of it installed, as `brew install` is;
    // every package upgraded is the words' (`brew upgrade` alone).
    row("brew", &["upgrade"], (), &["brew upgrade jq"], &["brew upgrade", "brew outdated"]),
    row("apt", &["install"], (), &["sudo apt install -y nginx"], &["apt search nginx", "apt list --installed"]),
    row("apt", &["upgrade"], (), &["sudo apt upgrade curl"], &["sudo apt upgrade", "apt list --upgradable"]),
    row("apt-get", &["install"], (), &["sudo apt-get install -y build-essential"], &["sudo apt-get remove nginx"]),
    row("yum", &["install"], (), &["sudo yum install -y httpd"], &["yum info httpd"]),
    row("yum", &["update"], (), &["sudo yum update openssl"], &["sudo yum update", "yum check-update"]),
    row("dnf", &["install"], (), &["sudo dnf install -y postgresql-server"], &["dnf search postgresql"]),
    row("dnf", &["upgrade"], (), &["sudo dnf upgrade openssl"], &["sudo dnf upgrade", "dnf check-update"]),
    // A package group: every package in it (`dnf group install "Development Tools"`, `dnf
    // grp upgrade dev`, yum's `groupinstall`).
    row("dnf", &["group", "install"], (), &["sudo dnf group install 'Development Tools'"], &["dnf group list", "dnf group info dev"]),
    row("dnf", &["group", "upgrade"], (), &["sudo dnf group upgrade dev"], &["dnf group list"]),
    row("dnf", &["grp", "install"], (), &["sudo dnf grp install dev"], &["dnf grp list"]),
    row("dnf", &["grp", "upgrade"], (), &["sudo dnf grp upgrade dev"], &["dnf grp list"]),
    row("yum", &["groupinstall"], (), &["sudo yum groupinstall 'Development Tools'"], &["yum grouplist"]),
    row("apk", &["add"], (), &["apk add --no-cache curl"], &["apk info curl"]),
    // CRUX's and Solaris' `pkgadd`, OpenBSD's `pkg_add`: the program's name is its verb.
    row("pkgadd", &[], (), &["pkgadd curl", "pkgadd -u curl"], &["pkgadd -h"]),
    row("pkg_add", &[], (), &["pkg_add curl", "doas pkg_add -v nginx"], &["pkg_add -h"]),
    row("pacman", &["-S"], (), &["sudo pacman -S --noconfirm neovim", "sudo pacman -Syu neovim"], &["pacman -Ss neovim", "pacman -Qi neovim", "pacman -Sp neovim"]),
    row("pacman", &["-U"], (), &["sudo pacman -U ./neovim-0.10-1-x86_64.pkg.tar.zst"], &["pacman -Qu"]),
    row("paru", &["-S"], (), &["paru -S visual-studio-code-bin", "paru -Syu spotify"], &["paru -Ss spotify"]),
    row("yay", &["-S"], (), &["yay -S google-chrome", "yay -Sy google-chrome"], &["yay -Si google-chrome"]),
    row("zypper", &["install"], (), &["sudo zypper install -y git"], &["zypper search git"]),
    // Slackware's slapt-get and its SlackBuild sibling slapt-src: fetched, built, installed.
    row("slapt-get", &["-i"], (), &["sudo slapt-get -i curl"], &["slapt-get --search curl"]),
    row("slapt-get", &["--install"], (), &["slapt-get --install curl"], &["slapt-get --list"]),
    row("slapt-src", &["-i"], (), &["slapt-src -i slackbuild_name"], &["slapt-src -l", "slapt-src -s name"]),
    row("slapt-src", &["--install"], (), &["slapt-src --install name"], &["slapt-src --list"]),
    row("snap", &["install"], (), &["sudo snap install code --classic"], &["snap list"]),
    row("port", &["install"], (), &["sudo port install wget"], &["port search wget"]),
    row("port", &["upgrade"], (), &["sudo port upgrade wget"], &["port outdated"]),
    row("nix-env", &["-i"], (), &["nix-env -i hello", "nix-env -i -A nixpkgs.hello"], &["nix-env -q", "nix-env -e hello"]),
    row("nix-env", &["-iA"], (), &["nix-env -iA nixpkgs.hello"], &["nix-env -qa hello"]),
    row("nix-env", &["--install"], (), &["nix-env --install hello"], &["nix-env --query"]),
    // A named package upgraded is a new version of it installed; every one is the words'.
    row("nix-env", &["-u"], (), &["nix-env -u hello"], &["nix-env -u", "nix-env -q"]),
    row("nix-env", &["--upgrade"], (), &["nix-env --upgrade hello"], &["nix-env --upgrade"]),
    row("guix", &["install"], (), &["guix install curl"], &["guix search curl"]),
    row("guix", &["package", "-i"], (), &["guix package -i curl"], &["guix package -I", "guix package -r curl"]),
    row("guix", &["package", "--install"], (), &["guix package --install curl"], &["guix package --list-installed"]),
    // A plugin installed into poetry's own environment, not the project's.
    row("poetry", &["self", "add"], (), &["poetry self add poetry-plugin-export"], &["poetry add requests", "poetry self show"]),
    row("composer", &["global", "require"], (), &["composer global require laravel/installer"], &["composer global show", "composer global update"]),
    row("composer", &["require"], (), &["composer require guzzlehttp/guzzle"], &["composer install"]),
    row("dotnet", &["add", "*", "package"], (), &["dotnet add src/Api/Api.csproj package Serilog"], &["dotnet add reference ../Lib/Lib.csproj", "dotnet add package Serilog"]),
    row("dotnet", &["add", "package"], (), &["dotnet add package Newtonsoft.Json --version 13.0.3"], &["dotnet add src/Api/Api.csproj package Serilog", "dotnet remove package Serilog"]),
];

/// Options whose value is a separate word, per installer family.
const VALUED: &[&str] = &[
    "-r",
    "--requirement",
    "-c",
    "--constraint",
    "-e",
    "--editable",
    "-i",
    "--index-url",
    "--extra-index-url",
    "-t",
    "--target",
    "--prefix",
    "--root",
    "-f",
    "--find-links",
    "--registry",
    "--tag",
    "--python",
    "-p",
    "--version",
    "--features",
    "-F",
    "--git",
    "--branch",
    "--rev",
    "--path",
    "--source",
    "--group",
    "-G",
    // A host or a file the install is told of, not a package (`pip install --trusted-host
    // HOST -r requirements.txt`, `--cert ca.pem`).
    "--trusted-host",
    "--allow-insecure-host",
    "--cert",
    "--client-cert",
    "--proxy",
    "--cache-dir",
];

/// What a publisher publishes: its rule, and what it does.
type Publish = (RuleId, &'static str);

const NPM: Publish = (RuleId::PublishPackage, "publish the package to npm");
const PYPI: Publish = (RuleId::PublishPackage, "publish the package to PyPI");
const IMAGE: Publish = (
    RuleId::PublishImage,
    "push an image to a registry, for others to pull",
);

/// What publishes for others to pull: (program, subcommand words, rule, what it publishes).
#[rustfmt::skip]
const PUBLISHERS: &[Row<Publish>] = &[
    row("npm", &["publish"], NPM, &["npm publish --access public"], &["npm publish --dry-run", "npm publish --help", "npm pack"]),
    row("pnpm", &["publish"], NPM, &["pnpm publish --no-git-checks"], &["pnpm publish --dry-run", "pnpm pack"]),
    row("yarn", &["publish"], NPM, &["yarn publish --new-version 1.2.0"], &["yarn pack", "yarn npm publish"]),
    row("yarn", &["npm", "publish"], NPM, &["yarn npm publish --access public"], &["yarn npm info react"]),
    row("bun", &["publish"], NPM, &["bun publish --access public"], &["bun pm pack"]),
    row("lerna", &["publish"], NPM, &["lerna publish from-package --yes"], &["lerna run build", "lerna version --no-push"]),
    row("nx", &["release", "publish"], NPM, &["nx release publish"], &["nx release --dry-run", "nx run-many -t build"]),
    row("cargo", &["publish"], (RuleId::PublishPackage, "publish the crate to crates.io"), &["cargo publish", "cargo publish -p warden"], &["cargo publish --dry-run", "cargo publish -h", "cargo package"]),
    row("twine", &["upload"], (RuleId::PublishPackage, "upload the package to PyPI"), &["twine upload dist/*"], &["twine check dist/*"]),
    row("poetry", &["publish"], PYPI, &["poetry publish --build"], &["poetry build"]),
    row("uv", &["publish"], PYPI, &["uv publish"], &["uv build"]),
    row("flit", &["publish"], PYPI, &["flit publish"], &["flit build"]),
    row("hatch", &["publish"], PYPI, &["hatch publish"], &["hatch build"]),
    row("gem", &["push"], (RuleId::PublishPackage, "publish the gem to RubyGems"), &["gem push acme-client-1.0.0.gem"], &["gem build acme-client.gemspec"]),
    row("dotnet", &["nuget", "push"], (RuleId::PublishPackage, "publish the package to NuGet"), &["dotnet nuget push bin/Release/Acme.Client.1.0.0.nupkg --source nuget.org"], &["dotnet nuget list source", "dotnet pack -c Release"]),
    row("mvn", &["deploy"], (RuleId::PublishPackage, "deploy the artifact to a Maven repository"), &["mvn deploy -DskipTests"], &["mvn package", "mvn clean install", "mvn clean deploy"]),
    row("mvn", &["clean", "deploy"], (RuleId::PublishPackage, "deploy the artifact to a Maven repository"), &["mvn clean deploy", "mvn -B clean deploy -DskipTests"], &["mvn clean verify"]),
    // Gradle's maven-publish and plugin-publish tasks (`publishToMavenLocal` stays here).
    row("gradle", &["publish"], (RuleId::PublishPackage, "publish the artifacts to a Maven repository"), &["gradle publish"], &["gradle publishToMavenLocal", "gradle build"]),
    row("gradle", &["publishPlugins"], (RuleId::PublishPackage, "publish the plugin to the Gradle Plugin Portal"), &["gradle publishPlugins"], &["gradle validatePlugins"]),
    row("gradlew", &["publish"], (RuleId::PublishPackage, "publish the artifacts to a Maven repository"), &["./gradlew publish", "gradlew publish --no-daemon"], &["./gradlew publishToMavenLocal", "./gradlew test"]),
    row("gradlew", &["clean", "publish"], (RuleId::PublishPackage, "publish the artifacts to a Maven repository"), &["./gradlew clean publish"], &["./gradlew clean build"]),
    row("gradlew", &["publishPlugins"], (RuleId::PublishPackage, "publish the plugin to the Gradle Plugin Portal"), &["./gradlew publishPlugins"], &["./gradlew validatePlugins"]),
    row("mix", &["hex.publish"], (RuleId::PublishPackage, "publish the package to Hex"), &["mix hex.publish", "mix hex.publish --yes"], &["mix hex.build", "mix hex.publish --dry-run"]),
    // A release: its archives to GitHub, its formulas, images and packages wherever the
    // configuration sends them (not a `--snapshot`, which publishes nothing).
    row("goreleaser", &["release"], (RuleId::PublishRelease, "publish a release and its artifacts"), &["goreleaser release --clean"], &["goreleaser release --snapshot --clean", "goreleaser check", "goreleaser build --snapshot"]),
    row("docker", &["push"], IMAGE, &["docker push ghcr.io/acme/app:1.4.0"], &["docker pull ghcr.io/acme/app:1.4.0", "docker tag app ghcr.io/acme/app:1.4.0"]),
    row("podman", &["push"], IMAGE, &["podman push quay.io/acme/app:latest"], &["podman pull quay.io/acme/app:latest"]),
    row("docker", &["image", "push"], IMAGE, &["docker image push ghcr.io/acme/app:1.4.0"], &["docker image ls"]),
    row("helm", &["push"], (RuleId::PublishImage, "push a chart to a registry, for others to pull"), &["helm push app-1.4.0.tgz oci://ghcr.io/acme/charts"], &["helm package ./chart", "helm pull oci://ghcr.io/acme/charts/app"]),
    row("oras", &["push"], (RuleId::PublishImage, "push an artifact to a registry, for others to pull"), &["oras push ghcr.io/acme/artifact:v1 ./dist/app.tar.gz"], &["oras pull ghcr.io/acme/artifact:v1"]),
    row("crane", &["push"], IMAGE, &["crane push image.tar ghcr.io/acme/app:1.4.0"], &["crane pull ghcr.io/acme/app:1.4.0 image.tar"]),
    // crane's and gcrane's other writes land in a registry too: a copy's target, a tag, a
    // flattened or rebased image pushed where it came from.
    row("crane", &["copy"], IMAGE, &["crane copy ghcr.io/acme/app:1.4 quay.io/acme/app:1.4"], &["crane config ghcr.io/acme/app:1.4"]),
    row("crane", &["cp"], IMAGE, &["crane cp ghcr.io/acme/app:1.4 registry.example.com/app:1.4 -a"], &["crane catalog ghcr.io"]),
    row("crane", &["tag"], IMAGE, &["crane tag ghcr.io/acme/app:1.4 latest"], &["crane digest ghcr.io/acme/app:1.4"]),
    row("crane", &["flatten"], IMAGE, &["crane flatten ghcr.io/acme/app:1.4 -t ghcr.io/acme/app:flat"], &["crane manifest ghcr.io/acme/app:1.4"]),
    row("crane", &["rebase"], IMAGE, &["crane rebase ghcr.io/acme/app:1.4 --new_base debian:12"], &["crane ls ghcr.io/acme/app"]),
    row("gcrane", &["copy"], IMAGE, &["gcrane copy -r gcr.io/acme/app eu.gcr.io/acme/app"], &["gcrane ls gcr.io/acme"]),
    row("gcrane", &["cp"], IMAGE, &["gcrane cp gcr.io/acme/app:1 eu.gcr.io/acme/app:1"], &["gcrane gc gcr.io/acme/app"]),
    row("docker", &["buildx", "build", "--push"], IMAGE, &["docker buildx build --platform linux/amd64,linux/arm64 -t ghcr.io/acme/app:1.4.0 --push ."], &["docker buildx build --load -t app:dev ."]),
    row("gh", &["release", "create"], (RuleId::PublishRelease, "create a public release"), &["gh release create v1.4.0 --generate-notes"], &["gh release view v1.4.0", "gh release create --help"]),
    row("gh", &["release", "upload"], (RuleId::PublishRelease, "upload files to a public release"), &["gh release upload v1.4.0 dist/app.tar.gz"], &["gh release download v1.4.0"]),
    row("gh", &["repo", "create"], (RuleId::PublishRelease, "create a repository on GitHub"), &["gh repo create acme/new-service --public --source=."], &["gh repo clone acme/app", "gh repo view"]),
    row("gh", &["gist", "create"], (RuleId::PublishRelease, "publish a gist"), &["gh gist create notes.md --public"], &["gh gist list"]),
    row("gh", &["gist", "new"], (RuleId::PublishRelease, "publish a gist"), &["gh gist new deploy.sh"], &["gh gist view 5b0e0062eb8e9654adad7bb1d81cc75f"]),
];

/// A forge's step: its rule, its act, and what it does.
type Speak = (RuleId, Act, &'static str);

/// Steps on a forge that speak for the person or merge their work: moderate and lasting,
/// so they go before reading and ask after it (words to other people after reading are
/// shown each time). (program, subcommand words, rule, act, what it does.)
#[rustfmt::skip]
const SPEAKERS: &[Row<Speak>] = &[
    row("gh", &["pr", "create"], (RuleId::ForgeSpeaks, Act::Send, "open a pull request in the person's name"), &["gh pr create --fill", "gh pr create --title 'Fix login' --body 'Closes #12'"], &["gh pr create --web", "gh pr create --help", "gh pr view 12"]),
    row("gh", &["pr", "comment"], (RuleId::ForgeSpeaks, Act::Send, "comment on a pull request in the person's name"), &["gh pr comment 12 --body 'LGTM once CI is green'"], &["gh pr checks 12"]),
    row("gh", &["pr", "review"], (RuleId::ForgeSpeaks, Act::Send, "review a pull request in the person's name"), &["gh pr review 12 --approve"], &["gh pr diff 12"]),
    row("gh", &["issue", "create"], (RuleId::ForgeSpeaks, Act::Send, "open an issue in the person's name"), &["gh issue create --title 'Crash on start' --body 'Steps to reproduce'"], &["gh issue list --label bug", "gh issue create --web"]),
    row("gh", &["issue", "comment"], (RuleId::ForgeSpeaks, Act::Send, "comment on an issue in the person's name"), &["gh issue comment 34 --body 'Fixed in #35'"], &["gh issue view 34"]),
    row("gh", &["pr", "merge"], (RuleId::ForgeMerge, Act::Merge, "merge a pull request into a branch others share"), &["gh pr merge 12 --squash --delete-branch"], &["gh pr status", "gh pr merge --help", "glab mr merge 12"]),
    row("gh", &["workflow", "run"], (RuleId::ForgeSpeaks, Act::Run, "run a workflow on the forge's runners, with the repository's secrets, in the person's name"), &["gh workflow run deploy.yml -f env=prod"], &["gh workflow list", "gh workflow view deploy.yml"]),
    row("gh", &["run", "rerun"], (RuleId::ForgeSpeaks, Act::Run, "run a workflow again on the forge's runners, with the repository's secrets, in the person's name"), &["gh run rerun 4821 --failed"], &["gh run list", "gh run view 4821"]),
    row("gh", &["repo", "rename"], (RuleId::ForgeSpeaks, Act::Send, "rename the repository, which every clone and link of it follows"), &["gh repo rename acme-app --yes"], &["gh repo view acme/app"]),
    // hub, GitHub's older CLI.
    row("hub", &["pull-request"], (RuleId::ForgeSpeaks, Act::Send, "open a pull request in the person's name"), &["hub pull-request --no-edit", "hub pull-request -m 'Fix login'"], &["hub browse", "hub pr list"]),
    row("hub", &["issue", "create"], (RuleId::ForgeSpeaks, Act::Send, "open an issue in the person's name"), &["hub issue create -m 'Crash on start'"], &["hub issue"]),
    // Jira's own CLI (jira-cli): an issue or a comment others read, in the person's name.
    row("jira", &["issue", "create"], (RuleId::ForgeSpeaks, Act::Send, "open an issue in the person's name"), &["jira issue create -tBug -s'Login fails'"], &["jira issue list", "jira issue view ISS-1"]),
    row("jira", &["issue", "comment", "add"], (RuleId::ForgeSpeaks, Act::Send, "comment on an issue in the person's name"), &["jira issue comment add ISS-1 'Fixed'"], &["jira issue view ISS-1 --comments 5"]),
    row("glab", &["ci", "run"], (RuleId::ForgeSpeaks, Act::Run, "run a pipeline on the forge's runners, with the project's secrets, in the person's name"), &["glab ci run -b main"], &["glab ci status", "glab ci view"]),
    row("glab", &["mr", "create"], (RuleId::ForgeSpeaks, Act::Send, "open a merge request in the person's name"), &["glab mr create --fill --yes"], &["glab mr list", "glab mr create --web"]),
    row("glab", &["mr", "approve"], (RuleId::ForgeSpeaks, Act::Send, "approve a merge request in the person's name"), &["glab mr approve 12"], &["glab mr view 12"]),
    row("glab", &["mr", "note"], (RuleId::ForgeSpeaks, Act::Send, "comment on a merge request in the person's name"), &["glab mr note 12 -m 'LGTM'"], &["glab mr diff 12"]),
    row("glab", &["issue", "note"], (RuleId::ForgeSpeaks, Act::Send, "comment on an issue in the person's name"), &["glab issue note 34 -m 'Fixed in !35'"], &["glab issue view 34"]),
    row("glab", &["mr", "merge"], (RuleId::ForgeMerge, Act::Merge, "merge a merge request into a branch others share"), &["glab mr merge 12 --squash"], &["glab mr view 12"]),
    row("glab", &["issue", "create"], (RuleId::ForgeSpeaks, Act::Send, "open an issue in the person's name"), &["glab issue create --title 'Flaky test' --description 'Fails one run in ten'"], &["glab issue list"]),
];

/// Do these rules judge this command (an installer, a publisher or a forge's line matches
/// it)? Then the program's own words leave it to them: `npm install` with nothing named
/// installs what the manifests declare.
pub(super) fn reads(cmd: &Command) -> bool {
    let (program, args) = module_run(cmd);
    let mut lines = INSTALLERS_BY
        .rows(&program)
        .filter_map(|at| INSTALLERS.get(at).map(|row| row.words))
        .chain(
            PUBLISHERS_BY
                .rows(&program)
                .filter_map(|at| PUBLISHERS.get(at).map(|row| row.words)),
        )
        .chain(
            SPEAKERS_BY
                .rows(&program)
                .filter_map(|at| SPEAKERS.get(at).map(|row| row.words)),
        );
    // An upgrade that names no package upgrades every one: the words' to read (`brew
    // upgrade` alone).
    let names_one = |pattern: &[&str]| {
        !matches!(pattern.last(), Some(&"upgrade" | &"update"))
            || args.iter().filter(|a| !a.starts_with('-')).count() > pattern.len()
    };
    // pacman's sync that upgrades every package, however its letters are written (`-S -y
    // -u`, `--sync --sysupgrade`), names none either.
    let upgrades_all = super::words::PACMAN_FAMILY.contains(&program.as_str())
        && super::words::syncs_every_package(args)
        && args.iter().all(|a| a.starts_with('-'));
    !upgrades_all && lines.any(|pattern| starts_with(args, pattern) && names_one(pattern))
}

/// The three tables' rows by program, made once: every command of every line asks them.
static INSTALLERS_BY: LazyLock<ByProgram> = LazyLock::new(|| by_program(INSTALLERS));
static PUBLISHERS_BY: LazyLock<ByProgram> = LazyLock::new(|| by_program(PUBLISHERS));
static SPEAKERS_BY: LazyLock<ByProgram> = LazyLock::new(|| by_program(SPEAKERS));

fn by_program<T>(rows: &[Row<T>]) -> ByProgram {
    let programs: Vec<&'static str> = rows.iter().map(|row| row.program).collect();
    ByProgram::new(&programs)
}

/// The program a command installs or publishes with, and the words after it: its own, or the
/// module `python -m` runs (`python -m pip install x`).
fn module_run(cmd: &Command) -> (String, &[String]) {
    let program = cmd.program();
    let args = cmd.args();
    match (program, args.first(), args.get(1)) {
        ("python", Some(m), Some(module)) if m == "-m" => {
            (module.clone(), args.get(2..).unwrap_or(&[]))
        }
        _ => (program.to_string(), args),
    }
}

/// Is this program one these rules install with (`npm`, `pip`, `brew`, `cargo`…)? Its
/// install words are theirs: what they don't flag installs what the manifests declare or
/// what is already there (`poetry install`, `cargo update -p serde`, `brew upgrade`).
/// Do the forge's rules (`gh pr create`, `glab mr merge`) read this program?
pub(super) fn is_forge(program: &str) -> bool {
    SPEAKERS_BY.knows(program)
}

pub(super) fn is_installer(program: &str) -> bool {
    INSTALLERS_BY.knows(program)
}

/// The installer's row for these words, and where it is in the table: the first that matches.
fn installer(program: &str, args: &[String]) -> Option<(usize, &'static Row<()>)> {
    // A sync that only reads, its letters written apart (`pacman -S -s neovim`, `-S --info`).
    if super::words::PACMAN_FAMILY.contains(&program)
        && super::words::pacman_letters(args).contains(['s', 'i', 'l', 'g', 'p', 'w', 'c'])
    {
        return None;
    }
    let split;
    let args = match pacman_operation(program, args) {
        Some(operation) => {
            split = operation;
            &split
        }
        None => args,
    };
    INSTALLERS_BY
        .rows(program)
        .filter_map(|at| Some((at, INSTALLERS.get(at)?)))
        .find(|(_, row)| starts_with(args, row.words))
}

/// pacman's (and its AUR helpers') operation letter cut from the letters written with it, as
/// pacman reads them: `-Syu nginx` is `-S -yu nginx`, a sync that installs nginx. A sync
/// that only reads (`-Ss` search, `-Si` info, `-Sl` list, `-Sg` groups, `-Sp` print, `-Sw`
/// download, `-Sc` clean) is left whole, and installs nothing.
fn pacman_operation(program: &str, args: &[String]) -> Option<Vec<String>> {
    if !matches!(program, "pacman" | "paru" | "yay") {
        return None;
    }
    let at = args
        .iter()
        .position(|a| a.starts_with("-S") || a.starts_with("-U"))?;
    let word = args.get(at)?;
    let (operation, letters) = word.split_at(2);
    if letters.is_empty()
        || !letters.bytes().all(|b| b.is_ascii_alphabetic())
        || letters.contains(['s', 'i', 'l', 'g', 'p', 'w', 'c'])
    {
        return None;
    }
    let mut split = args.to_vec();
    split.splice(at..=at, [operation.to_string(), format!("-{letters}")]);
    Some(split)
}

/// The publisher's row for these words, and where it is in the table: the first that matches.
fn publisher(program: &str, args: &[String]) -> Option<(usize, &'static Row<Publish>)> {
    if !PUBLISHERS_BY.knows(program) {
        return None;
    }
    let words: Vec<&str> = args
        .iter()
        .map(String::as_str)
        .filter(|w| !w.starts_with('-') || *w == "--push")
        .collect();
    PUBLISHERS_BY
        .rows(program)
        .filter_map(|at| Some((at, PUBLISHERS.get(at)?)))
        .find(|(_, row)| {
            let pattern = row.words;
            if pattern.contains(&"--push") {
                args.iter().any(|a| a == "--push") && words.first() == pattern.first()
            } else {
                pattern.len() <= words.len()
                    && pattern.iter().zip(&words).all(|(want, got)| want == got)
            }
        })
}

/// The forge's row for these words, and where it is in the table: the first that matches.
fn speaker(program: &str, args: &[String]) -> Option<(usize, &'static Row<Speak>)> {
    if !SPEAKERS_BY.knows(program) {
        return None;
    }
    let words: Vec<&str> = args
        .iter()
        .map(String::as_str)
        .filter(|w| !w.starts_with('-'))
        .collect();
    SPEAKERS_BY
        .rows(program)
        .filter_map(|at| Some((at, SPEAKERS.get(at)?)))
        .find(|(_, row)| {
            row.words.len() <= words.len()
                && row.words.iter().zip(&words).all(|(want, got)| want == got)
        })
}

fn forge(program: &str, args: &[String], scan: &mut Scan<'_>) {
    let Some((_, row)) = speaker(program, args) else {
        return;
    };
    // `gh pr create --web`, `glab mr create -w`: the form opens in the person's browser, and
    // they are the ones who send it. `gh pr merge --help` only prints.
    let in_browser = args.iter().any(|a| a == "--web" || a == "-w");
    if (in_browser && row.words.last() == Some(&"create")) || asks_help(args) {
        return;
    }
    let (rule, act, reason) = row.then;
    scan.network = true;
    scan.add(
        Risk::new(rule, Harm::Moderate, true, reason.to_string())
            .way_out()
            .wish(Wish::new(act)),
    );
    // `gh gist create .env`, `glab snippet create .env`, `gh release upload v1 .env`: a
    // file given to what the forge shows others leaves with it.
    for file in super::positional(args).into_iter().skip(row.words.len()) {
        super::net::file_leaves(scan, file, program);
    }
}

/// Where the words after a row's subcommand start: its words matched in order among the
/// arguments, options before and between them passed over (`dnf -y install nginx`), `*`
/// any one word.
fn after_pattern(args: &[String], pattern: &[&str]) -> usize {
    let mut at = 0;
    for word in pattern {
        while args
            .get(at)
            .is_some_and(|a| a.starts_with('-') && !word.starts_with('-'))
        {
            at += 1;
        }
        if args.get(at).is_none() {
            return args.len();
        }
        at += 1;
    }
    at
}

pub(super) fn judge(cmd: &Command, scan: &mut Scan<'_>) {
    fetched_package(cmd, scan);
    forge(cmd.program(), cmd.args(), scan);
    let (program, args) = module_run(cmd);
    publish(&program, args, scan);
    let Some((_, row)) = installer(&program, args) else {
        return;
    };
    if simulates(&program, args) {
        return;
    }
    let pattern = row.words;
    scan.network = true;
    let global = has_flag(args, Some('g'), &["global", "user"])
        || (program == "composer" && pattern.first() == Some(&"global"))
        || matches!(
            program.as_str(),
            "brew"
                | "apt"
                | "apt-get"
                | "yum"
                | "dnf"
                | "apk"
                | "pacman"
                | "paru"
                | "yay"
                | "zypper"
                | "snap"
                | "port"
                | "pipx"
        );
    // `pip install -i https://pypi.x.example/simple requests`, `npm i --registry URL lodash`:
    // even a declared name comes from where the line says, which a page can name.
    if let Some(host) = other_source(args).or_else(|| source_in_env(&cmd.assignments)) {
        scan.add(
            Risk::new(
                RuleId::InstallUndeclared,
                Harm::Moderate,
                true,
                format!(
                    "install packages from {host}, a source the project's manifests don't name"
                ),
            )
            .wish(Wish::new(Act::Install).naming(Name::AnyOf(super::host_names(&host)))),
        );
    }
    let declared = scan.facts.declared(scan.place.cwd);
    for spec in packages(args.get(after_pattern(args, pattern)..).unwrap_or(&[])) {
        if let Some(reason) = not_a_name(spec) {
            let host = super::net::url_host(spec);
            let mut wish = Wish::new(Act::Install);
            if let Some(host) = &host {
                wish = wish.naming(Name::AnyOf(super::host_names(host)));
            }
            scan.add(
                Risk::new(
                    RuleId::InstallUndeclared,
                    Harm::Moderate,
                    true,
                    format!("install {reason} {spec}"),
                )
                .wish(wish),
            );
            continue;
        }
        let name = package_name(spec);
        let known = declared.as_deref().unwrap_or(&[]);
        if known.iter().any(|d| d.eq_ignore_ascii_case(&name)) {
            continue;
        }
        let found = match ecosystem(&program) {
            Some(ecosystem) => crate::lookalike::lookalike_in(ecosystem, &name, known),
            None => None,
        };
        if let Some(real) = found {
            scan.add(
                Risk::new(
                    RuleId::InstallLookalike,
                    Harm::Severe,
                    true,
                    format!("install {name}, a look-alike of the package {real}"),
                )
                .never(),
            );
            continue;
        }
        let where_ = if global { " system-wide" } else { "" };
        scan.add(
            Risk::new(
                RuleId::InstallUndeclared,
                Harm::Moderate,
                true,
                format!("install {name}{where_}, which the project's manifests don't list"),
            )
            .wish(Wish::new(Act::Install).naming(Name::one(&name))),
        );
    }
}

/// Options of the runners below that take a value: the package's (`-p`, `--package`,
/// `--from`, `--spec`) and the others'.
const RUNNER_VALUED: &[&str] = &[
    "--cache",
    "--from",
    "--index",
    "--index-url",
    "--extra-index-url",
    "--package",
    "--pip-args",
    "--python",
    "--registry",
    "--spec",
    "--userconfig",
    "--with",
    "-p",
];

/// `npx X`, `bunx X`, `uvx X`, `pipx run X`, `pnpm dlx X`, `yarn dlx X`, `npm exec X`, `bun x
/// X`, `uv tool run X`: a package fetched from its registry by name and run, an install and a
/// run in one. A package the project declares, or a command its installed packages give
/// (`npx tsc` with `node_modules/.bin/tsc`, which npx and bunx run without fetching), is the
/// project's own; a look-alike of a declared name is never; any other asks after reading, as
/// installing it would. A spec that is an address is `fetched.rs`'s.
fn fetched_package(cmd: &Command, scan: &mut Scan<'_>) {
    let args = cmd.args();
    let first = args.first().map(String::as_str);
    let (rest, local_first, registry) = match (cmd.program(), first) {
        ("npx", _) => (args, true, "npm"),
        ("bunx", _) => (args, true, "bun"),
        ("uvx", _) => (args, false, "uv"),
        ("pipx", Some("run")) => (&args[1..], false, "pipx"),
        ("pnpm" | "yarn", Some("dlx")) => (&args[1..], false, "pnpm"),
        ("npm", Some("exec" | "x")) => (&args[1..], true, "npm"),
        ("bun", Some("x")) => (&args[1..], true, "bun"),
        ("uv", Some("tool")) if args.get(1).is_some_and(|a| a == "run") => {
            (&args[2..], false, "uv")
        }
        _ => return,
    };
    let mut given = None;
    let mut command = None;
    let mut words = rest.iter();
    while let Some(arg) = words.next() {
        let arg = arg.as_str();
        if matches!(
            arg,
            "--no-install" | "--offline" | "--help" | "-h" | "--version"
        ) {
            return;
        }
        if arg == "--" {
            command = words.next().map(String::as_str);
            break;
        }
        if let Some((option, value)) = arg.split_once('=')
            && option.starts_with("--")
        {
            if matches!(option, "--package" | "--from" | "--spec") {
                given = Some(value);
            }
            continue;
        }
        if RUNNER_VALUED.contains(&arg) {
            let value = words.next().map(String::as_str);
            // uvx's `-p` is the python; npx's and pnpm's the package.
            if matches!(arg, "--package" | "--from" | "--spec") || (arg == "-p" && registry != "uv")
            {
                given = value;
            }
            continue;
        }
        if arg.starts_with('-') {
            continue;
        }
        command = Some(arg);
        break;
    }
    let Some(spec) = given.or(command) else {
        return;
    };
    if not_a_name(spec).is_some() || spec.contains(':') {
        return;
    }
    let name = package_name(spec);
    if name.is_empty() {
        return;
    }
    let here = scan.place.cwd;
    let declared = scan.facts.declared(here);
    let known = declared.as_deref().unwrap_or(&[]);
    if known.iter().any(|d| d.eq_ignore_ascii_case(&name)) {
        return;
    }
    if local_first && given.is_none() && scan.facts.installed_bin(here, &name) == Some(true) {
        return;
    }
    scan.network = true;
    if let Some(real) = ecosystem(registry)
        .and_then(|ecosystem| crate::lookalike::lookalike_in(ecosystem, &name, known))
    {
        scan.add(
            Risk::new(
                RuleId::InstallLookalike,
                Harm::Severe,
                true,
                format!("fetch and run {name}, a look-alike of the package {real}"),
            )
            .never(),
        );
        return;
    }
    scan.add(
        Risk::new(
            RuleId::InstallUndeclared,
            Harm::Moderate,
            true,
            format!("fetch {name} from its registry and run it, which the project's manifests don't list"),
        )
        .wish(Wish::new(Act::Install).naming(Name::one(&name))),
    );
}

/// Options that name where an installer fetches packages from.
const SOURCE_OPTIONS: &[&str] = &[
    "--default-index",
    "--extra-index-url",
    "--find-links",
    "--index",
    "--index-url",
    "--registry",
    "--source",
    "-f",
    "-i",
];

/// The ecosystems' own registries: an install from one of them is the default.
const DEFAULT_REGISTRIES: &[&str] = &[
    "crates.io",
    "files.pythonhosted.org",
    "index.crates.io",
    "proxy.golang.org",
    "pypi.org",
    "pypi.python.org",
    "registry.npmjs.org",
    "registry.yarnpkg.com",
    "rubygems.org",
];

/// The host of a package source an install's options name, other than the ecosystem's own
/// registry or this machine (`-i https://pypi.x.example/simple`, `--registry=URL`).
fn other_source(args: &[String]) -> Option<String> {
    args.iter().enumerate().find_map(|(at, arg)| {
        let value = match arg.split_once('=') {
            Some((name, value)) if SOURCE_OPTIONS.contains(&name) => value,
            _ if SOURCE_OPTIONS.contains(&arg.as_str()) => args.get(at + 1)?.as_str(),
            _ => return None,
        };
        let host = super::net::url_host(value)?;
        let default = DEFAULT_REGISTRIES
            .iter()
            .any(|r| host == *r || host.ends_with(&format!(".{r}")));
        (!default && !super::net::is_local(&host)).then_some(host)
    })
}

/// Variables that name an installer's package source, set before it
/// (`PIP_INDEX_URL=… pip install x`, `npm_config_registry=… npm i`, `GOPROXY=… go get`).
const SOURCE_VARIABLES: &[&str] = &[
    "goproxy",
    "npm_config_registry",
    "pip_extra_index_url",
    "pip_index_url",
    "uv_default_index",
    "uv_extra_index_url",
    "uv_index_url",
    "yarn_registry",
];

fn source_in_env(assignments: &[(String, String)]) -> Option<String> {
    assignments.iter().find_map(|(name, value)| {
        if !SOURCE_VARIABLES.contains(&name.to_ascii_lowercase().as_str()) {
            return None;
        }
        // GOPROXY is a list (`https://a,direct`): any host in it.
        let args: Vec<String> = value
            .split([',', '|', ' '])
            .flat_map(|v| ["--index-url".to_string(), v.to_string()])
            .collect();
        other_source(&args)
    })
}

/// The registry an installer draws from, for look-alike names.
fn ecosystem(program: &str) -> Option<crate::lookalike::Ecosystem> {
    use crate::lookalike::Ecosystem;
    Some(match program {
        "npm" | "pnpm" | "yarn" | "bun" => Ecosystem::Npm,
        "pip" | "pip3" | "pipx" | "uv" | "poetry" | "pdm" => Ecosystem::Pypi,
        "cargo" => Ecosystem::Crates,
        "go" => Ecosystem::Go,
        "gem" | "bundle" => Ecosystem::Gem,
        "brew" => Ecosystem::Brew,
        _ => return None,
    })
}

fn publish(program: &str, args: &[String], scan: &mut Scan<'_>) {
    let Some((_, row)) = publisher(program, args) else {
        return;
    };
    // A dry run, or a release told to publish nothing (`goreleaser release --snapshot`,
    // `--skip=publish`).
    let skips_publishing = args
        .iter()
        .any(|a| a == "--snapshot" || a.starts_with("--skip=publish") || a == "--skip-publish");
    if has_flag(args, None, &["dry-run"]) || asks_help(args) || skips_publishing {
        return;
    }
    let (rule, reason) = row.then;
    scan.network = true;
    scan.add(
        Risk::new(rule, Harm::Severe, true, reason.to_string())
            .way_out()
            .wish(Wish::new(Act::Publish)),
    );
    // `gh gist create .env`, `gh release upload v1 .env`: a secrets file published with it.
    for file in super::positional(args).into_iter().skip(row.words.len()) {
        super::net::file_leaves(scan, file, program);
    }
}

/// A machine's package manager told to show what it would install and install nothing: its
/// letter, or its long options (`apt-get -s install x`, `emerge -pv x`, `pacman -Sp x`,
/// `dnf install --assumeno x`, `zypper in -D x`, `brew install --dry-run x`). Only the
/// managers whose simulation reads their metadata and runs no package's code: pip's and
/// npm's dry runs still build or fetch what they resolve, and are installs. Sorted.
#[rustfmt::skip]
const SIMULATES: &[(&str, Option<char>, &[&str])] = &[
    ("apt", Some('s'), &["dry-run", "just-print", "no-act", "recon", "simulate"]),
    ("apt-get", Some('s'), &["dry-run", "just-print", "no-act", "recon", "simulate"]),
    ("brew", Some('n'), &["dry-run"]),
    ("dnf", None, &["assumeno"]),
    ("emerge", Some('p'), &["pretend"]),
    ("nix-env", None, &["dry-run"]),
    ("pacman", Some('p'), &["print"]),
    ("yum", None, &["assumeno"]),
    ("zypper", Some('D'), &["dry-run"]),
];

/// Does the command only show what `program` would install ([`SIMULATES`])?
fn simulates(program: &str, args: &[String]) -> bool {
    SIMULATES
        .iter()
        .find(|(name, _, _)| *name == program)
        .is_some_and(|(_, short, long)| has_flag(args, *short, long))
}

/// A request for help (`--help`, `-h`) runs nothing, as infra.rs reads it.
fn asks_help(args: &[String]) -> bool {
    args.iter().any(|a| super::words::is_help_option(a))
}

fn starts_with(args: &[String], pattern: &[&str]) -> bool {
    let words: Vec<&str> = args
        .iter()
        .map(String::as_str)
        .filter(|w| !w.starts_with('-') || pattern.contains(w))
        .collect();
    pattern.len() <= words.len()
        && pattern
            .iter()
            .zip(&words)
            .all(|(want, got)| *want == "*" || want == got)
}

/// The package specs after the subcommand, without options and their values.
fn packages(args: &[String]) -> Vec<&str> {
    let mut out = Vec::new();
    let mut skip = false;
    let mut source = false;
    for arg in args {
        if skip {
            skip = false;
            // `cargo install --git URL`: what is installed is the repository's.
            if source {
                out.push(arg.as_str());
            }
            continue;
        }
        source = arg == "--git";
        if let Some(url) = arg.strip_prefix("--git=") {
            out.push(url);
        } else if VALUED.contains(&arg.as_str()) {
            skip = true;
        } else if !arg.starts_with('-') && !arg.is_empty() {
            out.push(arg.as_str());
        }
    }
    out
}

/// A spec that is a path, a URL or a file rather than a registry name.
fn not_a_name(spec: &str) -> Option<&'static str> {
    if spec.contains("://") || spec.starts_with("git+") || spec.starts_with("git@") {
        Some("from the address")
    } else if spec.starts_with('.')
        || spec.starts_with('/')
        || spec.starts_with("file:")
        || spec.ends_with(".whl")
        || spec.ends_with(".tgz")
        || spec.ends_with(".tar.gz")
    {
        Some("from the local file")
    } else {
        None
    }
}

/// `lodash@4`, `requests>=2`, `serde@1.0`, `@scope/pkg@1` → the bare, lower-case name.
fn package_name(spec: &str) -> String {
    let (scope, rest) = match spec.strip_prefix('@') {
        Some(rest) => match rest.split_once('/') {
            Some((scope, name)) => (format!("@{scope}/"), name),
            None => (String::new(), spec),
        },
        None => (String::new(), spec),
    };
    let end = rest
        .find(['@', '=', '<', '>', '~', '!', '[', ';', ' '])
        .unwrap_or(rest.len());
    let name = rest.get(..end).unwrap_or(rest);
    // go modules carry a path; keep it whole.
    format!("{scope}{name}").to_lowercase()
}

/// The tables' rows, for the one test that walks every table's examples (`rows.rs`).
/// The shell commands a project's package manager keeps as the project's scripts (`npm
/// set-script postinstall CMD`, `npm pkg set scripts.postinstall=CMD`, `pnpm pkg set …`,
/// `bun pm pkg set …`): the next install, test or run runs them where no step is judged, as
/// a git alias is (`git::settings_run`), so each is judged as a line of its own.
pub(super) fn scripts_set(cmd: &Command) -> Vec<String> {
    let args = cmd.args();
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    let sets: &[&str] = match (cmd.program(), words.as_slice()) {
        ("npm", ["set-script", _name, script, ..]) => return vec![(*script).to_string()],
        ("npm" | "pnpm", ["pkg", "set", rest @ ..]) | ("bun", ["pm", "pkg", "set", rest @ ..]) => {
            rest
        }
        _ => return Vec::new(),
    };
    sets.iter()
        .filter_map(|pair| pair.split_once('='))
        .filter(|(key, _)| {
            key.strip_prefix("scripts.")
                .is_some_and(|name| !name.is_empty())
        })
        .map(|(_, script)| script.to_string())
        .collect()
}

#[cfg(test)]
pub(super) fn walked() -> Vec<super::rows::Walked> {
    use super::rows::rows_of;
    rows_of("install::INSTALLERS", INSTALLERS, installs)
        .chain(rows_of("install::PUBLISHERS", PUBLISHERS, publishes))
        .chain(rows_of("install::SPEAKERS", SPEAKERS, speaks))
        .collect()
}

/// Does installer row `at` judge the line: it is the row for one of the line's commands, and
/// the line installs a package the manifests don't declare?
#[cfg(test)]
fn installs(at: usize, line: &crate::shell::Line, found: &super::Assessment) -> bool {
    let picked = line.commands.iter().any(|cmd| {
        let (program, args) = module_run(cmd);
        installer(&program, args).is_some_and(|(index, _)| index == at)
    });
    picked
        && found
            .risks
            .iter()
            .any(|risk| risk.rule == RuleId::InstallUndeclared)
}

/// Does publisher row `at` judge the line: it is the row for one of the line's commands, and
/// the line has its rule, for its reason?
#[cfg(test)]
fn publishes(at: usize, line: &crate::shell::Line, found: &super::Assessment) -> bool {
    let Some(row) = PUBLISHERS.get(at) else {
        return false;
    };
    let picked = line.commands.iter().any(|cmd| {
        let (program, args) = module_run(cmd);
        publisher(&program, args).is_some_and(|(index, _)| index == at)
    });
    let (rule, reason) = row.then;
    picked
        && found
            .risks
            .iter()
            .any(|risk| risk.rule == rule && risk.reason == reason)
}

/// Does forge row `at` judge the line: it is the row for one of the line's commands, and the
/// line has its rule, for its reason?
#[cfg(test)]
fn speaks(at: usize, line: &crate::shell::Line, found: &super::Assessment) -> bool {
    let Some(row) = SPEAKERS.get(at) else {
        return false;
    };
    let picked = line
        .commands
        .iter()
        .any(|cmd| speaker(cmd.program(), cmd.args()).is_some_and(|(index, _)| index == at));
    let (rule, _, reason) = row.then;
    picked
        && found
            .risks
            .iter()
            .any(|risk| risk.rule == rule && risk.reason == reason)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn package_specs_reduce_to_names() {
        for (spec, want) in [
            ("lodash@4.17.21", "lodash"),
            ("requests>=2.31", "requests"),
            ("@types/node@20", "@types/node"),
            ("Flask[async]", "flask"),
            ("github.com/spf13/cobra@latest", "github.com/spf13/cobra"),
        ] {
            assert_eq!(package_name(spec), want, "{spec}");
        }
    }
}
