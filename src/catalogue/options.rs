//! The long options of the programs that take an unambiguous beginning of one for the whole
//! (`curl --upload-fi F URL` is `--upload-file`, `git reset --har` is `--hard`, `rm --rec` is
//! `--recursive`): GNU's `getopt_long` (coreutils, sed, tar, wget, xargs, util-linux,
//! shadow's user tools, sudo, psql, systemd's tools), git's own option parser, curl's, gpg's,
//! Python's `optparse` (pip) and Perl's `Getopt::Long` (`git send-email`); and the
//! subcommands of the programs that take a beginning of one for it (`qm se 100` is `qm set
//! 100`, `ip l s eth0 down` is `ip link set eth0 down`). The shell reader (`shell::options`)
//! writes such a word out whole, as the program reads it, before any rule looks at it.
//!
//! Each list is every long option the program's own help names, without the leading `--`
//! (git's `--[no-]x` as both): `--help` (`-h` for git's and pip's subcommands, all of `git
//! config`'s and its older options for it; `--help all` for curl; `--dump-options` for gpg).
//! A word is the option it begins only when it begins no other, and a name of its own is
//! never read as a longer one (`curl --data` stays `--data`), so a list must be whole, not
//! only the options a rule reads.
//!
//! Taken from git 2.47.3, GnuPG 2.2.40, pip 23.2.1, GNU coreutils 9.1, GNU sed 4.9, GNU tar
//! 1.34, GNU Wget 1.21.3, GNU findutils' xargs, util-linux 2.38 (`su`, `runuser`, `script`,
//! `flock`, `setsid`, `unshare`, `nsenter`, `ionice`, `chrt`, `taskset`), Debian 12's shadow
//! (`useradd`, `usermod`, `passwd`, `chpasswd`), PostgreSQL's `psql`, systemd 252 and curl
//! 7.88.1, ansible-core 2.19.14's `ansible`, `ansible-playbook` and `ansible-pull` (argparse) and
//! yt-dlp 2026.11.23 (optparse: every option its parser holds, the hidden ones too); sudo's from its manual (sudo isn't installed here).

/// A program's long options (a subcommand's, when `sub` is one), separated by white space.
pub(crate) struct LongOptions {
    pub program: &'static str,
    pub sub: Option<&'static str>,
    pub names: &'static str,
}

/// Sorted by program, then subcommand.
pub(crate) const LONG_OPTIONS: &[LongOptions] = &[
    LongOptions {
        program: "ansible",
        sub: None,
        names: "args ask-become-pass ask-pass ask-vault-pass ask-vault-password background become
            become-method become-pass-file become-password-file become-user check conn-pass-file
            connection connection-password-file diff extra-vars flush-cache forks help inventory
            inventory-file key-file limit list-hosts module-name module-path one-line playbook-dir
            poll private-key scp-extra-args sftp-extra-args ssh-common-args ssh-extra-args
            task-timeout timeout tree user vault-id vault-pass-file vault-password-file verbose
            version",
    },
    LongOptions {
        program: "ansible-playbook",
        sub: None,
        names: "ask-become-pass ask-pass ask-vault-pass ask-vault-password become become-method
            become-pass-file become-password-file become-user check conn-pass-file connection
            connection-password-file diff extra-vars flush-cache force-handlers forks help inventory
            inventory-file key-file limit list-hosts list-tags list-tasks module-path private-key
            scp-extra-args sftp-extra-args skip-tags ssh-common-args ssh-extra-args start-at-task
            step syntax-check tags timeout user vault-id vault-pass-file vault-password-file verbose
            version",
    },
    LongOptions {
        program: "ansible-pull",
        sub: None,
        names: "accept-host-key ask-become-pass ask-pass ask-vault-pass ask-vault-password
            become-pass-file become-password-file check checkout clean conn-pass-file connection
            connection-password-file diff directory extra-vars flush-cache force full help inventory
            inventory-file key-file limit list-hosts module-name module-path only-if-changed
            private-key purge scp-extra-args sftp-extra-args skip-tags sleep ssh-common-args
            ssh-extra-args tags timeout track-subs url user vault-id vault-pass-file
            vault-password-file verbose verify-commit version",
    },
    LongOptions {
        program: "chgrp",
        sub: None,
        names: "changes dereference help no-dereference no-preserve-root preserve-root quiet recursive
            reference silent verbose version",
    },
    LongOptions {
        program: "chmod",
        sub: None,
        names: "changes help no-preserve-root preserve-root quiet recursive reference silent verbose
            version",
    },
    LongOptions {
        program: "chown",
        sub: None,
        names: "changes dereference from help no-dereference no-preserve-root preserve-root quiet
            recursive reference silent verbose version",
    },
    LongOptions {
        program: "chpasswd",
        sub: None,
        names: "crypt-method encrypted help md5 root sha-rounds",
    },
    LongOptions {
        program: "chroot",
        sub: None,
        names: "groups help skip-chdir userspec version",
    },
    LongOptions {
        program: "chrt",
        sub: None,
        names: "all-tasks batch deadline fifo help idle max other pid reset-on-fork rr sched-deadline
            sched-period sched-runtime verbose version",
    },
    LongOptions {
        program: "cp",
        sub: None,
        names: "archive attributes-only backup context copy-contents dereference force help interactive
            link no-clobber no-dereference no-preserve no-target-directory one-file-system parents
            preserve recursive reflink remove-destination sparse strip-trailing-slashes suffix
            symbolic-link target-directory update verbose version",
    },
    LongOptions {
        program: "curl",
        sub: None,
        names: "abstract-unix-socket alt-svc anyauth append aws-sigv4 basic cacert capath cert
            cert-status cert-type ciphers compressed compressed-ssh config connect-timeout
            connect-to continue-at cookie cookie-jar create-dirs create-file-mode crlf crlfile
            curves data data-ascii data-binary data-raw data-urlencode delegation digest disable
            disable-eprt disable-epsv disallow-username-in-url dns-interface dns-ipv4-addr
            dns-ipv6-addr dns-servers doh-cert-status doh-insecure doh-url dump-header egd-file
            engine etag-compare etag-save expect100-timeout fail fail-early fail-with-body
            false-start form form-escape form-string ftp-account ftp-alternative-to-user
            ftp-create-dirs ftp-method ftp-pasv ftp-port ftp-pret ftp-skip-pasv-ip ftp-ssl-ccc
            ftp-ssl-ccc-mode ftp-ssl-control get globoff happy-eyeballs-timeout-ms haproxy-protocol
            head header help hostpubmd5 hostpubsha256 hsts http0 http1 http2 http2-prior-knowledge
            http3 http3-only ignore-content-length include insecure interface ipv4 ipv6 json
            junk-session-cookies keepalive-time key key-type krb libcurl limit-rate list-only
            local-port location location-trusted login-options mail-auth mail-from mail-rcpt
            mail-rcpt-allowfails manual max-filesize max-redirs max-time metalink negotiate netrc
            netrc-file netrc-optional next no-alpn no-buffer no-clobber no-keepalive no-npn
            no-progress-meter no-sessionid noproxy ntlm ntlm-wb oauth2-bearer output output-dir
            parallel parallel-immediate parallel-max pass path-as-is pinnedpubkey post301 post302
            post303 preproxy progress-bar proto proto-default proto-redir proxy proxy-anyauth
            proxy-basic proxy-cacert proxy-capath proxy-cert proxy-cert-type proxy-ciphers
            proxy-crlfile proxy-digest proxy-header proxy-insecure proxy-key proxy-key-type
            proxy-negotiate proxy-ntlm proxy-pass proxy-pinnedpubkey proxy-service-name
            proxy-ssl-allow-beast proxy-ssl-auto-client-cert proxy-tls13-ciphers proxy-tlsauthtype
            proxy-tlspassword proxy-tlsuser proxy-tlsv1 proxy-user proxy1 proxytunnel pubkey quote
            random-file range rate raw referer remote-header-name remote-name remote-name-all
            remote-time remove-on-error request request-target resolve retry retry-all-errors
            retry-connrefused retry-delay retry-max-time sasl-authzid sasl-ir service-name
            show-error silent socks4 socks4a socks5 socks5-basic socks5-gssapi socks5-gssapi-nec
            socks5-gssapi-service socks5-hostname speed-limit speed-time ssl ssl-allow-beast
            ssl-auto-client-cert ssl-no-revoke ssl-reqd ssl-revoke-best-effort sslv2 sslv3 stderr
            styled-output suppress-connect-headers tcp-fastopen tcp-nodelay telnet-option
            tftp-blksize tftp-no-options time-cond tls-max tls13-ciphers tlsauthtype tlspassword
            tlsuser tlsv1 tr-encoding trace trace-ascii trace-time unix-socket upload-file url
            url-query use-ascii user user-agent verbose version write-out xattr",
    },
    LongOptions {
        program: "env",
        sub: None,
        names: "block-signal chdir debug default-signal help ignore-environment ignore-signal
            list-signal-handling null split-string unset version",
    },
    LongOptions {
        program: "flock",
        sub: None,
        names: "close command conflict-exit-code exclusive help no-fork nonblock shared timeout unlock
            verbose version",
    },
    LongOptions {
        program: "git",
        sub: Some("add"),
        names: "all chmod dry-run edit force ignore-errors ignore-missing ignore-removal intent-to-add
            interactive no-all no-chmod no-dry-run no-edit no-force no-ignore-errors
            no-ignore-missing no-ignore-removal no-intent-to-add no-interactive no-patch
            no-pathspec-file-nul no-pathspec-from-file no-refresh no-renormalize no-sparse no-update
            no-verbose patch pathspec-file-nul pathspec-from-file refresh renormalize sparse update
            verbose",
    },
    LongOptions {
        program: "git",
        sub: Some("am"),
        names: "3way abort allow-empty committer-date-is-author-date continue directory empty exclude
            gpg-sign ignore-date ignore-space-change ignore-whitespace include interactive keep
            keep-cr keep-non-patch message-id no-3way no-committer-date-is-author-date no-directory
            no-exclude no-gpg-sign no-ignore-date no-ignore-space-change no-ignore-whitespace
            no-include no-interactive no-keep no-keep-cr no-keep-non-patch no-message-id
            no-patch-format no-quiet no-reject no-rerere-autoupdate no-resolvemsg no-scissors
            no-signoff no-utf8 no-verify no-whitespace patch-format quiet quit quoted-cr reject
            rerere-autoupdate resolved resolvemsg retry scissors show-current-patch signoff skip
            utf8 verify whitespace",
    },
    LongOptions {
        program: "git",
        sub: Some("apply"),
        names: "3way add allow-empty allow-overlap apply build-fake-ancestor cached check directory
            exclude ignore-space-change ignore-whitespace inaccurate-eof include index intent-to-add
            no-3way no-add no-allow-empty no-allow-overlap no-apply no-build-fake-ancestor no-cached
            no-check no-directory no-ignore-space-change no-ignore-whitespace no-inaccurate-eof
            no-index no-intent-to-add no-numstat no-quiet no-recount no-reject no-reverse no-stat
            no-summary no-unidiff-zero no-unsafe-paths no-verbose no-whitespace numstat ours quiet
            recount reject reverse stat summary theirs unidiff-zero union unsafe-paths verbose
            whitespace",
    },
    LongOptions {
        program: "git",
        sub: Some("archive"),
        names: "add-file add-virtual-file exec format list mtime no-add-file no-add-virtual-file no-exec
            no-format no-list no-output no-prefix no-remote no-verbose no-worktree-attributes output
            prefix remote verbose worktree-attributes",
    },
    LongOptions {
        program: "git",
        sub: Some("branch"),
        names: "abbrev all color column contains copy create-reflog delete edit-description force format
            ignore-case list merged move no-abbrev no-color no-column no-contains no-copy
            no-create-reflog no-delete no-edit-description no-force no-format no-ignore-case no-list
            no-merged no-move no-omit-empty no-points-at no-quiet no-recurse-submodules
            no-set-upstream-to no-show-current no-sort no-track no-unset-upstream no-verbose
            omit-empty points-at quiet recurse-submodules remotes set-upstream-to show-current sort
            track unset-upstream verbose",
    },
    LongOptions {
        program: "git",
        sub: Some("checkout"),
        names: "conflict detach force guess ignore-other-worktrees ignore-skip-worktree-bits merge
            no-conflict no-detach no-force no-guess no-ignore-other-worktrees
            no-ignore-skip-worktree-bits no-merge no-orphan no-overlay no-overwrite-ignore no-patch
            no-pathspec-file-nul no-pathspec-from-file no-progress no-quiet no-recurse-submodules
            no-track orphan ours overlay overwrite-ignore patch pathspec-file-nul pathspec-from-file
            progress quiet recurse-submodules theirs track",
    },
    LongOptions {
        program: "git",
        sub: Some("clean"),
        names: "dry-run exclude force interactive no-dry-run no-force no-interactive no-quiet quiet",
    },
    LongOptions {
        program: "git",
        sub: Some("clone"),
        names: "also-filter-submodules bare branch bundle-uri checkout config depth dissociate filter
            hardlinks ipv4 ipv6 jobs local mirror no-also-filter-submodules no-bare no-branch
            no-bundle-uri no-checkout no-config no-depth no-dissociate no-filter no-hardlinks
            no-jobs no-local no-mirror no-origin no-progress no-quiet no-recurse-submodules
            no-recursive no-ref-format no-reference no-reference-if-able no-reject-shallow
            no-remote-submodules no-separate-git-dir no-server-option no-shallow-exclude
            no-shallow-since no-shallow-submodules no-shared no-single-branch no-sparse no-tags
            no-template no-upload-pack no-verbose origin progress quiet recurse-submodules recursive
            ref-format reference reference-if-able reject-shallow remote-submodules separate-git-dir
            server-option shallow-exclude shallow-since shallow-submodules shared single-branch
            sparse tags template upload-pack verbose",
    },
    LongOptions {
        program: "git",
        sub: Some("commit"),
        names: "ahead-behind all amend author branch cleanup date dry-run edit file fixup gpg-sign
            include interactive long message no-ahead-behind no-all no-amend no-author no-branch
            no-cleanup no-date no-dry-run no-edit no-file no-fixup no-gpg-sign no-include
            no-interactive no-long no-message no-null no-only no-patch no-pathspec-file-nul
            no-pathspec-from-file no-porcelain no-post-rewrite no-quiet no-reedit-message
            no-reset-author no-reuse-message no-short no-signoff no-squash no-status no-template
            no-untracked-files no-verbose no-verify null only patch pathspec-file-nul
            pathspec-from-file porcelain post-rewrite quiet reedit-message reset-author
            reuse-message short signoff squash status template trailer untracked-files verbose
            verify",
    },
    LongOptions {
        program: "git",
        sub: Some("config"),
        names: "add all append blob bool bool-or-int bool-or-str comment default edit expiry-date file
            fixed-value get get-all get-color get-colorbool get-regexp get-urlmatch global includes
            int list local name-only no-all no-append no-blob no-comment no-default no-file
            no-fixed-value no-global no-includes no-local no-name-only no-null no-regexp
            no-show-names no-show-origin no-show-scope no-system no-type no-url no-value no-worktree
            null path regexp remove-section rename-section replace-all show-names show-origin
            show-scope system type unset unset-all url value worktree",
    },
    LongOptions {
        program: "git",
        sub: Some("fetch"),
        names: "all append atomic auto auto-gc auto-maintenance deepen depth dry-run filter force ipv4
            ipv6 jobs keep multiple negotiate-only negotiation-tip no-all no-append no-atomic
            no-auto-gc no-auto-maintenance no-deepen no-depth no-dry-run no-filter no-force no-jobs
            no-keep no-multiple no-negotiate-only no-negotiation-tip no-porcelain no-prefetch
            no-progress no-prune no-prune-tags no-quiet no-recurse-submodules no-server-option
            no-set-upstream no-shallow-exclude no-shallow-since no-show-forced-updates no-stdin
            no-tags no-update-head-ok no-update-shallow no-upload-pack no-verbose
            no-write-commit-graph no-write-fetch-head porcelain prefetch progress prune prune-tags
            quiet recurse-submodules refetch refmap server-option set-upstream shallow-exclude
            shallow-since show-forced-updates stdin tags unshallow update-head-ok update-shallow
            upload-pack verbose write-commit-graph write-fetch-head",
    },
    LongOptions {
        program: "git",
        sub: Some("gc"),
        names: "aggressive auto cruft detach force keep-largest-pack max-cruft-size no-aggressive
            no-auto no-cruft no-detach no-force no-keep-largest-pack no-prune no-quiet prune quiet",
    },
    LongOptions {
        program: "git",
        sub: Some("init"),
        names: "bare initial-branch no-bare no-initial-branch no-object-format no-quiet no-ref-format
            no-separate-git-dir no-template object-format quiet ref-format separate-git-dir shared
            template",
    },
    LongOptions {
        program: "git",
        sub: Some("ls-remote"),
        names: "branches exit-code get-url no-branches no-exit-code no-get-url no-quiet no-refs
            no-server-option no-sort no-symref no-tags no-upload-pack quiet refs server-option sort
            symref tags upload-pack",
    },
    LongOptions {
        program: "git",
        sub: Some("merge"),
        names: "abort allow-unrelated-histories autostash cleanup commit continue edit ff ff-only file
            gpg-sign into-name log message no-abort no-allow-unrelated-histories no-autostash
            no-cleanup no-commit no-continue no-edit no-ff no-gpg-sign no-into-name no-log
            no-message no-overwrite-ignore no-progress no-quiet no-quit no-rerere-autoupdate
            no-signoff no-squash no-stat no-strategy no-strategy-option no-summary no-verbose
            no-verify no-verify-signatures overwrite-ignore progress quiet quit rerere-autoupdate
            signoff squash stat strategy strategy-option summary verbose verify verify-signatures",
    },
    LongOptions {
        program: "git",
        sub: Some("pull"),
        names: "all allow-unrelated-histories append autostash cleanup commit deepen depth dry-run edit
            ff ff-only force gpg-sign ipv4 ipv6 jobs keep log negotiation-tip no-all
            no-allow-unrelated-histories no-append no-autostash no-cleanup no-commit no-deepen
            no-depth no-dry-run no-edit no-ff no-force no-gpg-sign no-ipv4 no-ipv6 no-jobs no-keep
            no-log no-negotiation-tip no-progress no-prune no-quiet no-rebase no-recurse-submodules
            no-server-option no-set-upstream no-shallow-exclude no-shallow-since
            no-show-forced-updates no-signoff no-squash no-stat no-strategy no-strategy-option
            no-tags no-update-shallow no-upload-pack no-verbose no-verify no-verify-signatures
            progress prune quiet rebase recurse-submodules refmap server-option set-upstream
            shallow-exclude shallow-since show-forced-updates signoff squash stat strategy
            strategy-option tags unshallow update-shallow upload-pack verbose verify
            verify-signatures",
    },
    LongOptions {
        program: "git",
        sub: Some("push"),
        names: "all atomic branches delete dry-run exec follow-tags force force-if-includes
            force-with-lease ipv4 ipv6 mirror no-all no-atomic no-branches no-delete no-dry-run
            no-exec no-follow-tags no-force no-force-if-includes no-force-with-lease no-mirror
            no-porcelain no-progress no-prune no-push-option no-quiet no-receive-pack
            no-recurse-submodules no-repo no-set-upstream no-signed no-tags no-thin no-verbose
            no-verify porcelain progress prune push-option quiet receive-pack recurse-submodules
            repo set-upstream signed tags thin verbose verify",
    },
    LongOptions {
        program: "git",
        sub: Some("rebase"),
        names: "abort apply autosquash autostash committer-date-is-author-date continue edit-todo empty
            exec ff force-rebase fork-point gpg-sign ignore-whitespace interactive keep-base merge
            no-autosquash no-autostash no-committer-date-is-author-date no-exec no-ff
            no-force-rebase no-fork-point no-gpg-sign no-ignore-whitespace no-keep-base no-onto
            no-quiet no-reapply-cherry-picks no-rebase-merges no-rerere-autoupdate
            no-reschedule-failed-exec no-reset-author-date no-root no-signoff no-stat no-strategy
            no-strategy-option no-update-refs no-verbose no-verify no-whitespace onto quiet quit
            reapply-cherry-picks rebase-merges rerere-autoupdate reschedule-failed-exec
            reset-author-date root show-current-patch signoff skip stat strategy strategy-option
            update-refs verbose verify whitespace",
    },
    LongOptions {
        program: "git",
        sub: Some("reset"),
        names: "hard intent-to-add keep merge mixed no-intent-to-add no-patch no-pathspec-file-nul
            no-pathspec-from-file no-quiet no-recurse-submodules no-refresh patch pathspec-file-nul
            pathspec-from-file quiet recurse-submodules refresh soft",
    },
    LongOptions {
        program: "git",
        sub: Some("restore"),
        names: "conflict ignore-skip-worktree-bits ignore-unmerged merge no-conflict
            no-ignore-skip-worktree-bits no-ignore-unmerged no-merge no-overlay no-patch
            no-pathspec-file-nul no-pathspec-from-file no-progress no-quiet no-recurse-submodules
            no-source no-staged no-worktree ours overlay patch pathspec-file-nul pathspec-from-file
            progress quiet recurse-submodules source staged theirs worktree",
    },
    LongOptions {
        program: "git",
        sub: Some("rm"),
        names: "cached dry-run force ignore-unmatch no-cached no-dry-run no-force no-ignore-unmatch
            no-pathspec-file-nul no-pathspec-from-file no-quiet no-sparse pathspec-file-nul
            pathspec-from-file quiet sparse",
    },
    LongOptions {
        program: "git",
        sub: Some("send-email"),
        names: "8bit-encoding annotate batch-size bcc cc cc-cmd cc-cover chain-reply-to compose
            compose-encoding confirm dry-run dump-aliases envelope-sender force format-patch from
            header-cmd identity in-reply-to mailmap no-annotate no-bcc no-cc no-cc-cover
            no-chain-reply-to no-format-patch no-header-cmd no-mailmap no-signed-off-by-cc
            no-smtp-auth no-suppress-from no-thread no-to no-to-cover no-validate no-xmailer quiet
            relogin-delay reply-to sendmail-cmd signed-off-by-cc smtp-auth smtp-debug smtp-domain
            smtp-encryption smtp-pass smtp-server smtp-server-option smtp-server-port smtp-ssl
            smtp-ssl-cert-path smtp-user subject suppress-cc suppress-from thread to to-cmd to-cover
            transfer-encoding translate-aliases validate xmailer",
    },
    LongOptions {
        program: "git",
        sub: Some("switch"),
        names: "conflict create detach discard-changes force force-create guess ignore-other-worktrees
            merge no-conflict no-create no-detach no-discard-changes no-force no-force-create
            no-guess no-ignore-other-worktrees no-merge no-orphan no-overwrite-ignore no-progress
            no-quiet no-recurse-submodules no-track orphan overwrite-ignore progress quiet
            recurse-submodules track",
    },
    LongOptions {
        program: "git",
        sub: Some("tag"),
        names: "annotate cleanup color column contains create-reflog delete edit file force format
            ignore-case list local-user merged message no-annotate no-cleanup no-color no-column
            no-contains no-create-reflog no-edit no-file no-force no-format no-ignore-case
            no-local-user no-merged no-omit-empty no-points-at no-sign no-sort omit-empty points-at
            sign sort trailer verify",
    },
    LongOptions {
        program: "gpg",
        sub: None,
        names: "agent-program allow-freeform-uid allow-multiple-messages allow-multisig-verification
            allow-non-selfsigned-uid allow-secret-key-import allow-weak-digest-algos
            allow-weak-key-signatures always-trust armor armour ask-cert-expire ask-cert-level
            ask-sig-expire attribute-fd attribute-file auto-check-trustdb auto-key-import
            auto-key-locate auto-key-retrieve batch bzip2-compress-level bzip2-decompress-lowmem
            card-edit card-status cert-digest-algo cert-notation cert-policy-url change-passphrase
            change-pin charset check-sig check-signatures check-sigs check-trustdb cipher-algo
            clear-sign clearsign command-fd command-file comment completes-needed compliance
            compress-algo compress-keys compress-level compress-sigs compression-algo configuration
            ctapi-driver dearmor dearmour debug debug-all debug-iolbf debug-level debug-quick-random
            decrypt decrypt-files default-cert-check-level default-cert-expire default-cert-level
            default-comment default-key default-keyserver-url default-new-key-algo
            default-preference-list default-recipient default-recipient-self default-sig-expire
            delete-keys delete-secret-and-public-keys delete-secret-keys desig-revoke detach-sign
            digest-algo dirmngr-program disable-ccid disable-cipher-algo disable-dirmngr
            disable-dsa2 disable-large-rsa disable-mdc disable-pubkey-algo disable-signer-uid
            display display-charset dry-run dump-option-table dump-options edit-card edit-key
            emit-version enable-dsa2 enable-large-rsa enable-progress-filter
            enable-special-filenames enarmor enarmour encrypt encrypt-files encrypt-to
            encrypt-to-default-key escape-from-lines exec-path exit-on-status-write-error expert
            export export-filter export-options export-ownertrust export-secret-keys
            export-secret-subkeys export-ssh-key faked-system-time fast-import fast-list-mode
            fetch-keys fingerprint fix-trustdb fixed-list-mode for-your-eyes-only forbid-gen-key
            force-mdc force-ownertrust force-sign-key force-v3-sigs force-v4-certs full-gen-key
            full-generate-key gen-key gen-prime gen-random gen-revoke generate-designated-revocation
            generate-key generate-revocation gnupg gpg-agent-info gpgconf-list gpgconf-test group
            help hidden-encrypt-to hidden-recipient hidden-recipient-file homedir honor-http-proxy
            ignore-crc-error ignore-mdc-error ignore-time-conflict ignore-valid-from import
            import-filter import-options import-ownertrust importexport include-key-block input
            input-size-hint interactive key-edit key-origin keyid-format keylist keyring keyserver
            keyserver-options known-notation lc-ctype lc-messages legacy-list-mode
            limit-card-insert-tries list-config list-gcrypt-config list-key list-keys list-only
            list-options list-packets list-public-keys list-secret-keys list-sig list-signatures
            list-sigs list-trustdb local-user locate-external-keys locate-keys lock-multiple
            lock-never lock-once log-file logger-fd logger-file lsign-key mangle-dos-filenames
            marginals-needed max-cert-depth max-output merge-only mimemode min-cert-level
            min-rsa-length monitor multifile no no-allow-freeform-uid no-allow-multiple-messages
            no-allow-non-selfsigned-uid no-armor no-armour no-ask-cert-expire no-ask-cert-level
            no-ask-sig-expire no-auto-check-trustdb no-auto-key-import no-auto-key-locate
            no-auto-key-retrieve no-autostart no-batch no-comments no-default-keyring
            no-default-recipient no-disable-mdc no-emit-version no-encrypt-to no-escape-from-lines
            no-expensive-trust-checks no-expert no-for-your-eyes-only no-force-mdc no-force-v3-sigs
            no-force-v4-certs no-greeting no-groups no-include-key-block no-keyring no-literal
            no-mangle-dos-filenames no-mdc-warning no-options no-permission-warning no-pgp2 no-pgp6
            no-pgp7 no-pgp8 no-random-seed-file no-require-backsigs no-require-cross-certification
            no-require-secmem no-rfc2440-text no-secmem-warning no-show-notation no-show-photos
            no-show-policy-url no-sig-cache no-sk-comments no-skip-hidden-recipients no-symkey-cache
            no-textmode no-throw-keyids no-tty no-use-agent no-use-embedded-filename no-utf8-strings
            no-verbose no-version not-dash-escaped only-sign-text-ids openpgp options output
            override-compliance-check override-session-key override-session-key-fd passphrase
            passphrase-fd passphrase-file passphrase-repeat passwd pcsc-driver
            personal-cipher-preferences personal-cipher-prefs personal-compress-preferences
            personal-compress-prefs personal-digest-preferences personal-digest-prefs pgp6 pgp7 pgp8
            photo-viewer pinentry-mode preserve-permissions primary-keyring print-dane-records
            print-md print-mds print-pka-records quick-add-key quick-add-uid quick-addkey
            quick-adduid quick-gen-key quick-generate-key quick-lsign-key quick-revoke-sig
            quick-revoke-uid quick-revuid quick-set-expire quick-set-primary-uid quick-sign-key
            quiet reader-port rebuild-keydb-caches receive-keys recipient recipient-file recv-keys
            refresh-keys remote-user request-origin require-backsigs require-compliance
            require-cross-certification require-secmem rfc2440 rfc2440-text rfc4880 rfc4880bis
            s2k-cipher-algo s2k-count s2k-digest-algo s2k-mode search-keys secret-keyring security
            send-keys sender server set-filename set-filesize set-notation set-policy-url show-key
            show-keyring show-keys show-notation show-photos show-policy-url show-session-key
            sig-keyserver-url sig-notation sig-policy-url sign sign-key sign-with sk-comments
            skip-hidden-recipients skip-verify status-fd status-file store symmetric temp-directory
            textmode throw-keyids tofu-db-format tofu-default-policy tofu-policy trust-model
            trustdb-name trusted-key try-all-secrets try-secret-key ttyname ttytype ungroup unwrap
            update-trustdb use-agent use-embedded-filename use-only-openpgp-card user utf8-strings
            verbose verify verify-files verify-options version warranty weak-digest with-colons
            with-fingerprint with-icao-spelling with-key-data with-key-origin with-keygrip
            with-secret with-sig-check with-sig-list with-subkey-fingerprint
            with-subkey-fingerprints with-tofu-info with-wkd-hash xauthority yes",
    },
    LongOptions {
        program: "install",
        sub: None,
        names: "backup compare context directory group help mode no-target-directory owner
            preserve-context preserve-timestamps strip strip-program suffix target-directory verbose
            version",
    },
    LongOptions {
        program: "ionice",
        sub: None,
        names: "class classdata help ignore pgid pid uid version",
    },
    LongOptions {
        program: "journalctl",
        sub: None,
        names: "after-cursor all boot case-sensitive catalog cursor cursor-file directory disk-usage
            dmesg dump-catalog facility field fields file flush follow force grep header help
            identifier image interval lines list-boots list-catalog machine merge namespace no-full
            no-hostname no-pager no-tail output output-fields pager-end priority quiet
            relinquish-var reverse root rotate setup-keys show-cursor since smart-relinquish-var
            sync system unit until update-catalog user user-unit utc vacuum-files vacuum-size
            vacuum-time verify verify-key version",
    },
    LongOptions {
        program: "ln",
        sub: None,
        names: "backup directory force help interactive logical no-dereference no-target-directory
            physical relative suffix symbolic target-directory verbose version",
    },
    LongOptions {
        program: "mkdir",
        sub: None,
        names: "context help mode parents verbose version",
    },
    LongOptions {
        program: "mv",
        sub: None,
        names: "backup context force help interactive no-clobber no-target-directory
            strip-trailing-slashes suffix target-directory update verbose version",
    },
    LongOptions {
        program: "nice",
        sub: None,
        names: "adjustment help version",
    },
    LongOptions {
        program: "nsenter",
        sub: None,
        names: "all cgroup follow-context help ipc mount net no-fork pid preserve-credentials root
            setgid setuid target time user uts version wd wdns",
    },
    LongOptions {
        program: "passwd",
        sub: None,
        names: "all delete expire help inactive keep-tokens lock maxdays mindays quiet repository root
            status unlock warndays",
    },
    LongOptions {
        program: "pip",
        sub: Some("download"),
        names: "abi cache-dir cert check-build-dependencies client-cert constraint debug dest
            disable-pip-version-check exists-action extra-index-url find find-links global-option
            help ignore-requires-python implementation index-url isolated keyring-provider log
            no-binary no-build-isolation no-cache-dir no-clean no-color no-deps no-index no-input
            no-python-version-warning only-binary platform pre prefer-binary progress-bar proxy
            python python-version quiet require-hashes require-virtualenv requirement retries src
            timeout trusted-host use-deprecated use-feature use-pep517 verbose version",
    },
    LongOptions {
        program: "pip",
        sub: Some("install"),
        names: "abi break-system-packages cache-dir cert check-build-dependencies client-cert compile
            config-settings constraint debug disable-pip-version-check dry-run editable
            exists-action extra-index-url find find-links force-reinstall global-option help
            ignore-installed ignore-requires-python implementation index-url isolated
            keyring-provider log no-binary no-build-isolation no-cache-dir no-clean no-color
            no-compile no-deps no-index no-input no-python-version-warning no-warn-conflicts
            no-warn-script-location only-binary platform pre prefer-binary prefix progress-bar proxy
            python python-version quiet report require-hashes require-virtualenv requirement retries
            root root-user-action src target timeout trusted-host upgrade upgrade-strategy
            use-deprecated use-feature use-pep517 user verbose version",
    },
    LongOptions {
        program: "psql",
        sub: None,
        names: "command csv dbname echo-all echo-errors echo-hidden echo-queries expanded
            field-separator field-separator-zero file help host html list log-file no-align
            no-password no-psqlrc no-readline output password port pset quiet record-separator
            record-separator-zero set single-line single-step single-transaction table-attr
            tuples-only username variable version",
    },
    LongOptions {
        program: "rm",
        sub: None,
        names: "dir force help interactive no-preserve-root one-file-system preserve-root recursive
            verbose version",
    },
    LongOptions {
        program: "runuser",
        sub: None,
        names: "command fast group help login preserve-environment pty session-command shell supp-group
            user version whitelist-environment",
    },
    LongOptions {
        program: "script",
        sub: None,
        names: "append command echo flush force help log-in log-io log-out log-timing logging-format
            output-limit quiet return timing version",
    },
    LongOptions {
        program: "sed",
        sub: None,
        names: "debug expression file follow-symlinks help in-place line-length null-data posix quiet
            regexp-extended sandbox separate silent unbuffered version",
    },
    LongOptions {
        program: "setsid",
        sub: None,
        names: "ctty fork help version wait",
    },
    LongOptions {
        program: "shred",
        sub: None,
        names: "exact force help iterations random-source remove size verbose version zero",
    },
    LongOptions {
        program: "sort",
        sub: None,
        names: "batch-size buffer-size check compress-program debug dictionary-order field-separator
            files0-from general-numeric-sort help human-numeric-sort ignore-case
            ignore-leading-blanks ignore-nonprinting key merge month-sort numeric-sort output
            parallel random-sort random-source reverse sort stable temporary-directory unique
            version version-sort zero-terminated",
    },
    LongOptions {
        program: "split",
        sub: None,
        names: "additional-suffix bytes elide-empty-files filter help hex-suffixes line-bytes lines
            number numeric-suffixes separator suffix-length unbuffered verbose version",
    },
    LongOptions {
        program: "stdbuf",
        sub: None,
        names: "error help input output version",
    },
    LongOptions {
        program: "su",
        sub: None,
        names: "command fast group help login preserve-environment pty session-command shell supp-group
            version whitelist-environment",
    },
    LongOptions {
        program: "sudo",
        sub: None,
        names: "askpass background bell chdir chroot close-from edit group help host list login
            login-class non-interactive other-user preserve-env preserve-groups prompt
            remove-timestamp reset-timestamp role set-home shell stdin type user validate version",
    },
    LongOptions {
        program: "systemctl",
        sub: None,
        names: "all boot-loader-entry boot-loader-menu check-inhibitors dry-run failed firmware-setup
            force full global help host image job-mode kill-whom legend lines machine marked mkdir
            no-ask-password no-block no-pager no-reload no-wall now output plain preset-mode
            property quiet read-only recursive reverse root runtime show-transaction show-types
            signal state system timestamp type user value version wait what with-dependencies",
    },
    LongOptions {
        program: "systemd-run",
        sub: None,
        names: "collect description gid help host machine nice no-ask-password no-block on-active
            on-boot on-calendar on-clock-change on-startup on-timezone-change on-unit-active
            on-unit-inactive path-property pipe property pty quiet remain-after-exit same-dir scope
            send-sighup service-type setenv shell slice slice-inherit socket-property timer-property
            uid unit user version wait working-directory",
    },
    LongOptions {
        program: "tar",
        sub: None,
        names: "absolute-names acls add-file after-date anchored append atime-preserve auto-compress
            backup block-number blocking-factor bzip2 catenate check-device check-links checkpoint
            checkpoint-action clamp-mtime compare compress concatenate confirmation create
            delay-directory-restore delete dereference diff directory exclude exclude-backups
            exclude-caches exclude-caches-all exclude-caches-under exclude-from exclude-ignore
            exclude-ignore-recursive exclude-tag exclude-tag-all exclude-tag-under exclude-vcs
            exclude-vcs-ignores extract file files-from force-local format full-time get group
            group-map gunzip gzip hard-dereference help hole-detection ignore-case
            ignore-command-error ignore-failed-read ignore-zeros incremental index-file info-script
            interactive keep-directory-symlink keep-newer-files keep-old-files label level list
            listed-incremental lzip lzma lzop mode mtime multi-volume new-volume-script newer
            newer-mtime no-acls no-anchored no-auto-compress no-check-device
            no-delay-directory-restore no-ignore-case no-ignore-command-error no-null
            no-overwrite-dir no-quote-chars no-recursion no-same-owner no-same-permissions no-seek
            no-selinux no-unquote no-verbatim-files-from no-wildcards no-wildcards-match-slash
            no-xattrs null numeric-owner occurrence old-archive one-file-system one-top-level
            overwrite overwrite-dir owner owner-map pax-option portability posix preserve-order
            preserve-permissions quote-chars quoting-style read-full-records record-size recursion
            recursive-unlink remove-files restrict rmt-command rsh-command same-order same-owner
            same-permissions seek selinux show-defaults show-omitted-dirs show-snapshot-field-ranges
            show-stored-names show-transformed-names skip-old-files sort sparse sparse-version
            starting-file strip-components suffix tape-length test-label to-command to-stdout totals
            touch transform uncompress ungzip unlink-first unquote update usage use-compress-program
            utc verbatim-files-from verbose verify version volno-file warning wildcards
            wildcards-match-slash xattrs xattrs-exclude xattrs-include xform xz zstd",
    },
    LongOptions {
        program: "taskset",
        sub: None,
        names: "all-tasks cpu-list help pid version",
    },
    LongOptions {
        program: "tee",
        sub: None,
        names: "append help ignore-interrupts output-error version",
    },
    LongOptions {
        program: "timeout",
        sub: None,
        names: "foreground help kill-after preserve-status signal verbose version",
    },
    LongOptions {
        program: "touch",
        sub: None,
        names: "date help no-create no-dereference reference time version",
    },
    LongOptions {
        program: "truncate",
        sub: None,
        names: "help io-blocks no-create reference size version",
    },
    LongOptions {
        program: "unshare",
        sub: None,
        names: "boottime cgroup fork help ipc keep-caps kill-child map-auto map-current-user map-group
            map-groups map-root-user map-user map-users monotonic mount mount-proc net pid
            propagation root setgid setgroups setuid time user uts version wd",
    },
    LongOptions {
        program: "useradd",
        sub: None,
        names: "add-subids-for-system badname base-dir btrfs-subvolume-home comment create-home defaults
            expiredate gid groups help home-dir inactive key no-create-home no-log-init
            no-user-group non-unique password prefix root selinux-user shell skel system uid
            user-group",
    },
    LongOptions {
        program: "usermod",
        sub: None,
        names: "add-subgids add-subuids append badname comment del-subgids del-subuids expiredate gid
            groups help home inactive lock login move-home non-unique password prefix remove root
            selinux-user shell uid unlock",
    },
    LongOptions {
        program: "wget",
        sub: None,
        names: "accept accept-regex adjust-extension append-output ask-password auth-no-challenge
            background backup-converted backups base bind-address body-data body-file ca-certificate
            ca-directory certificate certificate-type ciphers compression config connect-timeout
            content-disposition content-on-error continue convert-file-only convert-links crl-file
            cut-dirs debug default-page delete-after directory-prefix dns-timeout domains
            exclude-directories exclude-domains execute follow-ftp follow-tags force-directories
            force-html ftp-password ftp-user ftps-clear-data-connection ftps-fallback-to-ftp
            ftps-implicit ftps-resume-ssl header help hsts-file http-password http-user https-only
            ignore-case ignore-length ignore-tags include-directories inet4-only inet6-only
            input-file keep-session-cookies level limit-rate load-cookies local-encoding
            max-redirect method mirror no-cache no-check-certificate no-clobber no-config no-cookies
            no-directories no-dns-cache no-glob no-host-directories no-hsts no-http-keep-alive
            no-if-modified-since no-iri no-netrc no-parent no-passive-ftp no-proxy no-remove-listing
            no-use-server-timestamps no-verbose no-warc-compression no-warc-digests no-warc-keep-log
            output-document output-file page-requisites password pinnedpubkey post-data post-file
            prefer-family preserve-permissions private-key private-key-type progress
            protocol-directories proxy-password proxy-user quiet quota random-wait read-timeout
            recursive referer regex-type reject reject-regex rejected-log relative remote-encoding
            report-speed restrict-file-names retr-symlinks retry-connrefused retry-on-http-error
            save-cookies save-headers secure-protocol server-response show-progress span-hosts
            spider start-pos strict-comments timeout timestamping tries trust-server-names unlink
            use-askpass user user-agent verbose version wait waitretry warc-cdx warc-dedup warc-file
            warc-header warc-max-size warc-tempdir xattr",
    },
    LongOptions {
        program: "xargs",
        sub: None,
        names: "arg-file delimiter eof exit help interactive max-args max-chars max-lines max-procs
            no-run-if-empty null open-tty process-slot-var replace show-limits verbose version",
    },
    LongOptions {
        program: "yt-dlp",
        sub: None,
        names: "abort-on-error abort-on-unavailable-fragments add-chapters add-headers add-metadata
            age-limit alias all-formats all-subs allow-dynamic-mpd allow-unplayable-formats
            ap-list-mso ap-mso ap-password ap-username audio-format audio-multistreams audio-quality
            autonumber-size autonumber-start batch-file bidi-workaround break-match-filters
            break-on-existing break-on-reject break-per-input buffer-size cache-dir call-home
            check-all-formats check-formats clean-info-json clean-infojson client-certificate
            client-certificate-key client-certificate-password cn-verification-proxy color
            compat-options concat-playlist concurrent-fragments config-locations console-title
            continue convert-sub convert-subs convert-subtitles convert-thumbnails cookies
            cookies-from-browser date dateafter datebefore default-search download-archive
            download-sections downloader downloader-args dump-json dump-pages dump-single-json
            dump-user-agent embed-chapters embed-info-json embed-metadata embed-subs embed-thumbnail
            enable-file-urls encoding exec exec-before-download external-downloader
            external-downloader-args extract-audio extractor-args extractor-descriptions
            extractor-retries ffmpeg-location file-access-retries fixup flat-playlist
            force-download-archive force-generic-extractor force-ipv4 force-ipv6
            force-keyframes-at-cuts force-overwrites force-write-archive
            force-write-download-archive format format-sort format-sort-force format-sort-reset
            fragment-retries geo-bypass geo-bypass-country geo-bypass-ip-block
            geo-verification-proxy get-comments get-description get-duration get-filename get-format
            get-id get-thumbnail get-title get-url help hls-prefer-ffmpeg hls-prefer-native
            hls-split-discontinuity hls-use-mpegts http-chunk-size id ies ignore-config
            ignore-dynamic-mpd ignore-errors ignore-no-formats-error impersonate include-ads
            js-runtimes keep-fragments keep-video lazy-playlist legacy-server-connect limit-rate
            list-extractors list-formats list-formats-as-table list-formats-old
            list-impersonate-targets list-subs list-thumbnails live-from-start load-info-json
            load-pages mark-watched match-filters match-title max-downloads max-filesize
            max-sleep-interval max-views merge-output-format metadata-from-title min-filesize
            min-sleep-interval min-views mtime netrc netrc-cmd netrc-location newline
            no-abort-on-error no-abort-on-unavailable-fragments no-add-chapters no-add-metadata
            no-allow-dynamic-mpd no-allow-unplayable-formats no-audio-multistreams no-batch-file
            no-break-match-filters no-break-on-existing no-break-per-input no-cache-dir no-call-home
            no-check-certificates no-check-formats no-clean-info-json no-clean-infojson no-colors
            no-colours no-config no-config-locations no-continue no-cookies no-cookies-from-browser
            no-download no-download-archive no-embed-chapters no-embed-info-json no-embed-metadata
            no-embed-subs no-embed-thumbnail no-exec no-exec-before-download no-flat-playlist
            no-force-keyframes-at-cuts no-force-overwrites no-format-sort-force no-geo-bypass
            no-get-comments no-hls-split-discontinuity no-hls-use-mpegts no-ignore-dynamic-mpd
            no-ignore-errors no-ignore-no-formats-error no-include-ads no-js-runtimes
            no-keep-fragments no-keep-video no-lazy-playlist no-list-formats-as-table
            no-live-from-start no-mark-watched no-match-filters no-mtime no-overwrites no-part
            no-playlist no-playlist-reverse no-plugin-dirs no-post-overwrites no-prefer-avconv
            no-prefer-ffmpeg no-prefer-free-formats no-progress no-quiet no-remote-components
            no-remove-chapters no-resize-buffer no-restrict-filenames no-simulate
            no-skip-unavailable-fragments no-split-chapters no-split-tracks no-sponskrub
            no-sponskrub-cut no-sponskrub-force no-sponsorblock no-update no-video-multistreams
            no-wait-for-video no-warnings no-windows-filenames no-write-annotations
            no-write-auto-subs no-write-automatic-subs no-write-comments no-write-description
            no-write-info-json no-write-playlist-metafiles no-write-srt no-write-subs
            no-write-thumbnail no-youtube-include-dash-manifest no-youtube-include-hls-manifest
            no-youtube-skip-dash-manifest no-youtube-skip-hls-manifest output output-na-placeholder
            parse-metadata part password paths playlist-end playlist-items playlist-random
            playlist-reverse playlist-start plugin-dirs post-overwrites postprocessor-args ppa
            prefer-avconv prefer-ffmpeg prefer-free-formats prefer-insecure prefer-unsecure
            preset-alias print print-json print-to-file print-traffic progress progress-delta
            progress-template proxy quiet rate-limit recode-video referer reject-title
            remote-components remove-chapters remux-video replace-in-metadata resize-buffer
            restrict-filenames retries retry-sleep rm-cache-dir s-force simulate skip-download
            skip-playlist-after-errors skip-unavailable-fragments sleep-interval sleep-requests
            sleep-subtitles socket-timeout source-address split-chapters split-tracks sponskrub
            sponskrub-args sponskrub-cut sponskrub-force sponskrub-location sponsorblock-api
            sponsorblock-chapter-title sponsorblock-mark sponsorblock-remove srt-langs sub-format
            sub-langs test throttled-rate trim-file-names trim-filenames twofactor update update-to
            use-extractors use-postprocessor user-agent username verbose version video-multistreams
            video-password wait-for-video windows-filenames write-all-thumbnails write-annotations
            write-auto-subs write-automatic-subs write-comments write-description write-desktop-link
            write-info-json write-link write-pages write-playlist-metafiles write-srt write-subs
            write-thumbnail write-url-link write-webloc-link xattr xattr-set-filesize xattrs xff
            yes-overwrites yes-playlist youtube-include-dash-manifest youtube-include-hls-manifest
            youtube-print-sig-code youtube-skip-dash-manifest youtube-skip-hls-manifest",
    },
];

/// How a program reads a beginning of one of its subcommands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reads {
    /// As the one name it begins, when it begins only one (Proxmox's CLI handler: `qm se` is
    /// `qm set`, `pveum u d` is `pveum user delete`).
    OnlyOne,
    /// As the first name it begins, in the order listed, the order the program tries them in
    /// (iproute2's `matches`: `ip l s` is `ip link set`, `ip r d` is `ip route delete`).
    FirstInOrder,
    /// Only whole: a name, or an alias the program gives it (cobra's `Aliases`: `helm un` is
    /// `helm uninstall`).
    Whole,
}

/// A program's subcommands, at one level: those after `under` (space-separated, empty at the
/// top). A name written `=name` is only read whole.
pub(crate) struct Subcommands {
    pub program: &'static str,
    pub under: &'static str,
    /// Separated by white space, in the order the program tries them.
    pub names: &'static str,
    /// Names that stand for other words (`pveum userdel` is `pveum user delete`, `npm rm` is
    /// `npm uninstall`): begun too only when they are among `names` too.
    pub aliases: &'static [(&'static str, &'static str)],
    pub reads: Reads,
}

/// A level read only whole (cobra's: a name, or an alias the program gives it).
const fn whole(
    program: &'static str,
    under: &'static str,
    names: &'static str,
    aliases: &'static [(&'static str, &'static str)],
) -> Subcommands {
    Subcommands {
        program,
        under,
        names,
        aliases,
        reads: Reads::Whole,
    }
}

/// Composer's commands and their aliases, at its top and after `global`.
const COMPOSER: &str =
    "about archive audit browse bump cc check-platform-reqs clear-cache clearcache
            completion config create-project depends diagnose dump-autoload dumpautoload exec
            fund global help home i info init install licenses list outdated prohibits r
            reinstall remove require run run-script search self-update selfupdate show status
            suggests u update upgrade validate why why-not";
const COMPOSER_ALIASES: &[(&str, &str)] = &[
    ("cc", "clear-cache"),
    ("clearcache", "clear-cache"),
    ("dumpautoload", "dump-autoload"),
    ("home", "browse"),
    ("i", "install"),
    ("info", "show"),
    ("r", "require"),
    ("run", "run-script"),
    ("selfupdate", "self-update"),
    ("u", "update"),
    ("upgrade", "update"),
    ("why", "depends"),
    ("why-not", "prohibits"),
];

/// Sorted by program, then `under`. Proxmox VE's tools from each one's `$cmddef` (qm from
/// qemu-server e6352be, pct from pve-container 94f5585, pveum from pve-access-control
/// 5ccd07d, pvesm from pve-storage 0c56bad, pvecm from pve-cluster 7091d92, pveam, pvenode,
/// pvesr and pvesh from pve-manager 14a22df, ha-manager from pve-ha-manager b71218f); `ip`
/// from iproute2 ee2a4a8 (`ip/ip.c`'s `cmds[]`, each object's `do_*` in the order it tries
/// its verbs); bundle from Bundler 2.3.15's Thor commands and their map (the one a word
/// begins, aliases of one counted once); composer from Composer 2.5.5's `composer list` and
/// its commands' aliases
/// (Symfony's console: the one command or alias a word begins, aliases of one command
/// counted once; `global` runs another of them); gem from RubyGems 3.3.15's `CommandManager`
/// (its aliases only whole); dnf's and zypper's short names of their package commands, only
/// whole (dnf 4's commands' aliases, zypper's manual: `dnf in`, `zypper in`, `zypper ar`);
/// helm's aliases of `uninstall` (helm 3's `cmd/helm/uninstall.go`); jj's config commands;
/// npm from npm 11.19.1's `lib/utils/cmd-list.js` (its commands and aliases,
/// a beginning of either read, then the alias: `npm unpub` is `npm unpublish`); doctl's
/// command tree, every level, from its source (digitalocean/doctl 168188d, `commands/*.go`:
/// each group's `Use` and `Aliases`, each command's `CmdBuilder` use and `aliasOpt`), only
/// whole, as cobra reads them (`doctl k c d x` is `doctl kubernetes cluster delete x`); an
/// alias two commands of one level share (`registry g`) is left out, and stays as written.
#[rustfmt::skip]
pub(crate) const SUBCOMMANDS: &[Subcommands] = &[
    Subcommands {
        program: "bundle",
        under: "",
        names: "add binstubs c cache check clean cli_help config console doctor e env ex exe exec
            fund gem help i info init inject install issue licenses list lock ls open outdated
            pack package platform plugin pristine remove show update version viz",
        aliases: &[
            ("c", "check"),
            ("e", "exec"),
            ("ex", "exec"),
            ("exe", "exec"),
            ("i", "install"),
            ("ls", "list"),
            ("pack", "cache"),
            ("package", "cache"),
        ],
        reads: Reads::OnlyOne,
    },
    Subcommands {
        program: "composer",
        under: "",
        names: COMPOSER,
        aliases: COMPOSER_ALIASES,
        reads: Reads::OnlyOne,
    },
    // `composer global COMMAND` runs one of the same commands, read the same way.
    Subcommands {
        program: "composer",
        under: "global",
        names: COMPOSER,
        aliases: COMPOSER_ALIASES,
        reads: Reads::OnlyOne,
    },
    Subcommands {
        program: "dnf",
        under: "",
        names: "distro-sync downgrade install makecache reinstall remove upgrade",
        aliases: &[
            ("dg", "downgrade"),
            ("distribution-synchronization", "distro-sync"),
            ("distrosync", "distro-sync"),
            ("dsync", "distro-sync"),
            ("erase", "remove"),
            ("in", "install"),
            ("localinstall", "install"),
            ("localupdate", "upgrade"),
            ("mc", "makecache"),
            ("rei", "reinstall"),
            ("rm", "remove"),
            ("up", "upgrade"),
            ("update", "upgrade"),
        ],
        reads: Reads::Whole,
    },
    whole("doctl", "", "1-click account apps auth balance billing-history compute databases dedicated-inference gradient invoice kubernetes monitoring network nfs projects registries registry secrets security serverless serverless-inference spaces vector-databases version vpcs", &[("a", "apps"), ("ai", "gradient"), ("app", "apps"), ("bh", "billing-history"), ("d", "databases"), ("database", "databases"), ("db", "databases"), ("dbs", "databases"), ("dedicated-inferences", "dedicated-inference"), ("di", "dedicated-inference"), ("genai", "gradient"), ("gradientai", "gradient"), ("inference", "serverless-inference"), ("k", "kubernetes"), ("k8s", "kubernetes"), ("kube", "kubernetes"), ("r", "registry"), ("reg", "registry"), ("regs", "registries"), ("rs", "registries"), ("si", "serverless-inference"), ("sp", "spaces"), ("vdb", "vector-databases"), ("vdbs", "vector-databases")]),
    whole("doctl", "1-click", "list", &[("ls", "list")]),
    whole("doctl", "account", "get ratelimit", &[("g", "get"), ("rl", "ratelimit")]),
    whole("doctl", "apps", "cancel-event cancel-job-invocation console create create-deployment delete dev get get-deployment get-event get-job-invocation list list-alerts list-buildpacks list-deployments list-events list-instances list-job-invocations list-regions logs propose restart spec tier update update-alert-destinations upgrade-buildpack", &[("c", "create"), ("cd", "create-deployment"), ("ce", "cancel-event"), ("cji", "cancel-job-invocation"), ("cs", "console"), ("d", "delete"), ("g", "get"), ("gd", "get-deployment"), ("ge", "get-event"), ("gji", "get-job-invocation"), ("i", "list-instances"), ("l", "logs"), ("la", "list-alerts"), ("ls", "list"), ("lsd", "list-deployments"), ("lse", "list-events"), ("lsji", "list-job-invocations"), ("p", "propose"), ("r", "restart"), ("rm", "delete"), ("u", "update"), ("uad", "update-alert-destinations")]),
    whole("doctl", "apps dev", "build config", &[("b", "build"), ("c", "config")]),
    whole("doctl", "apps dev config", "set unset", &[]),
    whole("doctl", "apps spec", "get", &[]),
    whole("doctl", "apps tier", "get instance-size list", &[("ls", "list")]),
    whole("doctl", "apps tier instance-size", "get list", &[("ls", "list")]),
    whole("doctl", "auth", "", &[]),
    whole("doctl", "balance", "get", &[("g", "get")]),
    whole("doctl", "billing-history", "list", &[("ls", "list")]),
    whole("doctl", "compute", "action cdn certificate domain droplet droplet-action droplet-autoscale firewall image image-action load-balancer plugin region reserved-ip reserved-ip-action reserved-ipv6 size snapshot ssh-key tag volume volume-action vpc-nat-gateway", &[("d", "droplet"), ("da", "droplet-action"), ("das", "droplet-autoscale"), ("fipa", "reserved-ip-action"), ("floating-ip-action", "reserved-ip-action"), ("floating-ip-actions", "reserved-ip-action"), ("k", "ssh-key"), ("lb", "load-balancer"), ("p", "plugin"), ("reserved-ip-actions", "reserved-ip-action"), ("s", "snapshot"), ("vng", "vpc-nat-gateway")]),
    whole("doctl", "compute action", "get list wait", &[("g", "get"), ("ls", "list"), ("w", "wait")]),
    whole("doctl", "compute cdn", "create delete flush get list update", &[("c", "create"), ("fc", "flush"), ("g", "get"), ("ls", "list"), ("rm", "delete"), ("u", "update")]),
    whole("doctl", "compute certificate", "create delete get list", &[("c", "create"), ("d", "delete"), ("g", "get"), ("ls", "list"), ("rm", "delete")]),
    whole("doctl", "compute domain", "create delete get list", &[("c", "create"), ("d", "delete"), ("g", "get"), ("ls", "list"), ("rm", "delete")]),
    whole("doctl", "compute droplet", "1-click actions backup-policies backups create delete get kernels list neighbors snapshots tag untag", &[("a", "actions"), ("b", "backups"), ("c", "create"), ("d", "delete"), ("del", "delete"), ("g", "get"), ("k", "kernels"), ("ls", "list"), ("n", "neighbors"), ("rm", "delete"), ("s", "snapshots")]),
    whole("doctl", "compute droplet 1-click", "list", &[("ls", "list")]),
    whole("doctl", "compute droplet backup-policies", "get list list-supported", &[("ls", "list")]),
    whole("doctl", "compute droplet-action", "change-backup-policy change-kernel disable-backups enable-backups enable-ipv6 enable-private-networking get password-reset power-cycle power-off power-on reboot rebuild rename resize restore shutdown snapshot", &[("g", "get")]),
    whole("doctl", "compute droplet-autoscale", "create delete delete-dangerous get list list-history list-members update", &[("d", "delete"), ("ls", "list"), ("rm", "delete")]),
    whole("doctl", "compute firewall", "add-droplets add-rules add-tags create delete get list list-by-droplet remove-droplets remove-rules remove-tags update", &[("c", "create"), ("d", "delete"), ("g", "get"), ("ls", "list"), ("rm", "delete"), ("u", "update")]),
    whole("doctl", "compute image", "create delete get list list-application list-distribution list-user update", &[("ls", "list"), ("rm", "delete")]),
    whole("doctl", "compute image-action", "get transfer", &[]),
    whole("doctl", "compute load-balancer", "add-droplets add-forwarding-rules create delete get list purge-cache remove-droplets remove-forwarding-rules update", &[("c", "create"), ("d", "delete"), ("g", "get"), ("ls", "list"), ("rm", "delete"), ("u", "update")]),
    whole("doctl", "compute plugin", "list run", &[("ls", "list")]),
    whole("doctl", "compute region", "list", &[("ls", "list")]),
    whole("doctl", "compute reserved-ip", "create delete get list", &[("c", "create"), ("d", "delete"), ("g", "get"), ("ls", "list"), ("rm", "delete")]),
    whole("doctl", "compute reserved-ip-action", "assign get unassign", &[]),
    whole("doctl", "compute reserved-ipv6", "assign create delete get list unassign", &[("c", "create"), ("d", "delete"), ("g", "get"), ("ls", "list"), ("rm", "delete")]),
    whole("doctl", "compute size", "list", &[("ls", "list")]),
    whole("doctl", "compute snapshot", "delete get list", &[("d", "delete"), ("g", "get"), ("ls", "list"), ("rm", "delete")]),
    whole("doctl", "compute ssh-key", "create delete get import list update", &[("c", "create"), ("d", "delete"), ("g", "get"), ("i", "import"), ("ls", "list"), ("rm", "delete"), ("u", "update")]),
    whole("doctl", "compute tag", "apply create delete get list remove", &[("ls", "list"), ("rm", "delete")]),
    whole("doctl", "compute volume", "create delete get list snapshot", &[("c", "create"), ("d", "delete"), ("g", "get"), ("ls", "list"), ("rm", "delete"), ("s", "snapshot")]),
    whole("doctl", "compute volume-action", "attach detach detach-by-droplet-id get list resize", &[("a", "attach"), ("d", "detach"), ("ls", "list"), ("r", "resize")]),
    whole("doctl", "compute vpc-nat-gateway", "create delete get list update", &[("c", "create"), ("d", "delete"), ("ls", "list"), ("rm", "delete"), ("u", "update")]),
    whole("doctl", "databases", "backups configuration connection create db delete events firewalls fork get get-ca indexes list maintenance-window migrate options pool replica resize sql-mode storage-autoscale topics user", &[("autoscale", "storage-autoscale"), ("bu", "backups"), ("c", "create"), ("cfg", "configuration"), ("config", "configuration"), ("conn", "connection"), ("f", "fork"), ("fw", "firewalls"), ("g", "get"), ("gc", "get-ca"), ("ls", "list"), ("m", "migrate"), ("main", "maintenance-window"), ("maintenance", "maintenance-window"), ("mw", "maintenance-window"), ("o", "options"), ("p", "pool"), ("r", "replica"), ("rep", "replica"), ("rm", "delete"), ("rs", "resize"), ("sm", "sql-mode"), ("storage", "storage-autoscale"), ("u", "user")]),
    whole("doctl", "databases configuration", "get update", &[("g", "get"), ("u", "update")]),
    whole("doctl", "databases db", "create delete get list", &[("c", "create"), ("g", "get"), ("ls", "list"), ("rm", "delete")]),
    whole("doctl", "databases events", "list", &[("ls", "list")]),
    whole("doctl", "databases firewalls", "append list remove replace", &[("a", "append"), ("ls", "list"), ("r", "replace"), ("rm", "remove")]),
    whole("doctl", "databases indexes", "delete list", &[("ls", "list"), ("rm", "delete")]),
    whole("doctl", "databases maintenance-window", "get install update", &[("g", "get"), ("i", "install"), ("u", "update")]),
    whole("doctl", "databases options", "engines regions slugs versions", &[("eng", "engines"), ("r", "regions"), ("s", "slugs"), ("v", "versions")]),
    whole("doctl", "databases pool", "create delete get list update", &[("c", "create"), ("g", "get"), ("ls", "list"), ("rm", "delete"), ("u", "update")]),
    whole("doctl", "databases replica", "connection create delete get list promote", &[("c", "create"), ("conn", "connection"), ("g", "get"), ("ls", "list"), ("p", "promote"), ("rm", "delete")]),
    whole("doctl", "databases sql-mode", "get set", &[("g", "get"), ("s", "set")]),
    whole("doctl", "databases storage-autoscale", "get update", &[("g", "get"), ("u", "update")]),
    whole("doctl", "databases topics", "create delete get list partitions update", &[("c", "create"), ("g", "get"), ("ls", "list"), ("p", "partitions"), ("rm", "delete"), ("u", "update")]),
    whole("doctl", "databases user", "create delete get list reset", &[("c", "create"), ("g", "get"), ("ls", "list"), ("rm", "delete"), ("rs", "reset")]),
    whole("doctl", "dedicated-inference", "create create-token delete get get-gpu-model-config get-sizes list list-accelerators list-tokens revoke-token update", &[("c", "create"), ("ct", "create-token"), ("d", "delete"), ("g", "get"), ("ggmc", "get-gpu-model-config"), ("gs", "get-sizes"), ("la", "list-accelerators"), ("ls", "list"), ("lt", "list-tokens"), ("rm", "delete"), ("rt", "revoke-token"), ("u", "update")]),
    whole("doctl", "gradient", "agent knowledge-base openai-key", &[("a", "agent"), ("agents", "agent"), ("kb", "knowledge-base"), ("ok", "openai-key")]),
    whole("doctl", "gradient agent", "apikeys create delete functionroute get list list-versions route update update-visibility", &[("apk", "apikeys"), ("c", "create"), ("d", "delete"), ("del", "delete"), ("fr", "functionroute"), ("g", "get"), ("ls", "list"), ("lv", "list-versions"), ("r", "route"), ("rm", "delete"), ("routes", "route"), ("u", "update"), ("update-vis", "update-visibility"), ("uv", "update-visibility")]),
    whole("doctl", "gradient agent apikeys", "create delete list regenerate update", &[("c", "create"), ("d", "delete"), ("del", "delete"), ("ls", "list"), ("regen-api-key", "regenerate"), ("rm", "delete"), ("u", "update")]),
    whole("doctl", "gradient agent functionroute", "create delete update", &[("c", "create"), ("d", "delete"), ("del", "delete"), ("rm", "delete"), ("u", "update")]),
    whole("doctl", "gradient agent route", "add delete update", &[("c", "add"), ("d", "delete"), ("del", "delete"), ("rm", "delete"), ("u", "update")]),
    whole("doctl", "gradient knowledge-base", "add-datasource attach cancel-indexing-job create delete delete-datasource detach get get-indexing-job list list-datasources list-indexing-job-data-sources list-indexing-jobs update", &[("add-ds", "add-datasource"), ("ath", "attach"), ("c", "create"), ("cancel-job", "cancel-indexing-job"), ("d-ds", "delete-datasource"), ("del", "delete"), ("dth", "detach"), ("g", "get"), ("get-job", "get-indexing-job"), ("ls", "list"), ("ls-ds", "list-datasources"), ("ls-job-ds", "list-indexing-job-data-sources"), ("ls-jobs", "list-indexing-jobs"), ("rm", "delete"), ("u", "update")]),
    whole("doctl", "gradient openai-key", "create delete get get-agents list update", &[("c", "create"), ("g", "get"), ("ga", "get-agents"), ("ls", "list"), ("rm", "delete"), ("u", "update")]),
    whole("doctl", "invoice", "csv get list pdf summary", &[("c", "csv"), ("g", "get"), ("ls", "list"), ("p", "pdf"), ("s", "summary")]),
    whole("doctl", "kubernetes", "1-click cluster options", &[("c", "cluster"), ("clusters", "cluster"), ("o", "options"), ("opts", "options")]),
    whole("doctl", "kubernetes 1-click", "install list", &[("in", "install"), ("ls", "list")]),
    whole("doctl", "kubernetes cluster", "create delete delete-selective get get-upgrades kubeconfig list list-associated-resources node-pool registry update upgrade", &[("ar", "list-associated-resources"), ("c", "create"), ("cfg", "kubeconfig"), ("config", "kubeconfig"), ("d", "delete"), ("ds", "delete-selective"), ("g", "get"), ("gu", "get-upgrades"), ("k8scfg", "kubeconfig"), ("kubecfg", "kubeconfig"), ("ls", "list"), ("node-pools", "node-pool"), ("nodepool", "node-pool"), ("nodepools", "node-pool"), ("np", "node-pool"), ("p", "node-pool"), ("pool", "node-pool"), ("pools", "node-pool"), ("reg", "registry"), ("rm", "delete"), ("u", "update")]),
    whole("doctl", "kubernetes cluster kubeconfig", "exec-credential remove save show", &[("d", "remove"), ("g", "show"), ("p", "show"), ("rm", "remove"), ("s", "save")]),
    whole("doctl", "kubernetes cluster node-pool", "create delete delete-node get list recycle replace-node update", &[("c", "create"), ("d", "delete"), ("g", "get"), ("ls", "list"), ("r", "recycle"), ("rm", "delete"), ("u", "update")]),
    whole("doctl", "kubernetes cluster registry", "add remove", &[("a", "add"), ("rm", "remove")]),
    whole("doctl", "kubernetes options", "regions sizes versions", &[("r", "regions"), ("s", "sizes"), ("v", "versions")]),
    whole("doctl", "monitoring", "alert uptime", &[("a", "alert"), ("alerts", "alert")]),
    whole("doctl", "monitoring alert", "create delete get list update", &[("ls", "list"), ("rm", "delete")]),
    whole("doctl", "monitoring uptime", "alert create delete get list update", &[("alerts", "alert"), ("c", "create"), ("d", "delete"), ("del", "delete"), ("g", "get"), ("ls", "list"), ("rm", "delete"), ("u", "update")]),
    whole("doctl", "monitoring uptime alert", "create delete get list update", &[("c", "create"), ("d", "delete"), ("del", "delete"), ("g", "get"), ("ls", "list"), ("rm", "delete"), ("u", "update")]),
    whole("doctl", "network", "attachment byoip-prefix", &[("byoip-prefixes", "byoip-prefix")]),
    whole("doctl", "network attachment", "create delete get get-bgp-auth-key get-service-key list list-routes regenerate-service-key update", &[("c", "create"), ("g", "get"), ("g-bgp-auth-key", "get-bgp-auth-key"), ("g-service-key", "get-service-key"), ("ls", "list"), ("ls-routes", "list-routes"), ("regen-service-key", "regenerate-service-key"), ("rm", "delete"), ("u", "update")]),
    whole("doctl", "network byoip-prefix", "create delete get list resource update", &[("c", "create"), ("d", "delete"), ("g", "get"), ("ls", "list"), ("resources", "resource"), ("rm", "delete"), ("u", "update")]),
    whole("doctl", "nfs", "access-point attach create delete detach get list reassign resize snapshot switch-performance-tier", &[("ls", "list"), ("rm", "delete")]),
    whole("doctl", "nfs access-point", "create delete get list", &[("ls", "list"), ("rm", "delete")]),
    whole("doctl", "nfs snapshot", "create delete get list", &[("ls", "list"), ("rm", "delete")]),
    whole("doctl", "projects", "create delete get list resources update", &[("c", "create"), ("d", "delete"), ("g", "get"), ("ls", "list"), ("rm", "delete"), ("u", "update")]),
    whole("doctl", "projects resources", "assign get list", &[("a", "assign"), ("g", "get"), ("ls", "list")]),
    whole("doctl", "registries", "create delete docker-config garbage-collection get kubernetes-manifest list login logout options repository", &[("c", "create"), ("config", "docker-config"), ("d", "delete"), ("del", "delete"), ("gc", "garbage-collection"), ("k8s", "kubernetes-manifest"), ("ls", "list"), ("o", "options"), ("opts", "options"), ("r", "repository"), ("repo", "repository"), ("rm", "delete")]),
    whole("doctl", "registries garbage-collection", "cancel get-active list start", &[("c", "cancel"), ("g", "get-active"), ("ga", "get-active"), ("l", "list"), ("ls", "list"), ("s", "start")]),
    whole("doctl", "registries options", "available-regions subscription-tiers", &[("regions", "available-regions"), ("tiers", "subscription-tiers")]),
    whole("doctl", "registries repository", "delete-manifest delete-tag list list-manifests list-tags list-v2", &[("dm", "delete-manifest"), ("dt", "delete-tag"), ("lm", "list-manifests"), ("ls", "list"), ("ls2", "list-v2"), ("lt", "list-tags")]),
    whole("doctl", "registry", "create delete docker-config garbage-collection get kubernetes-manifest login logout options repository", &[("config", "docker-config"), ("d", "delete"), ("del", "delete"), ("gc", "garbage-collection"), ("k8s", "kubernetes-manifest"), ("o", "options"), ("opts", "options"), ("r", "repository"), ("repo", "repository"), ("rm", "delete")]),
    whole("doctl", "registry garbage-collection", "cancel get-active list start", &[("c", "cancel"), ("g", "get-active"), ("ga", "get-active"), ("l", "list"), ("ls", "list"), ("s", "start")]),
    whole("doctl", "registry options", "available-regions subscription-tiers", &[("regions", "available-regions"), ("tiers", "subscription-tiers")]),
    whole("doctl", "registry repository", "delete-manifest delete-tag list list-manifests list-tags list-v2", &[("dm", "delete-manifest"), ("dt", "delete-tag"), ("lm", "list-manifests"), ("ls", "list"), ("ls2", "list-v2"), ("lt", "list-tags")]),
    whole("doctl", "secrets", "create delete get list list-versions restore set unset update", &[("c", "create"), ("d", "delete"), ("g", "get"), ("ls", "list"), ("rm", "delete")]),
    whole("doctl", "security", "scans", &[("scan", "scans")]),
    whole("doctl", "security scans", "affected-resources create get latest list", &[("c", "create"), ("g", "get"), ("ls", "list")]),
    whole("doctl", "serverless", "activations connect functions key namespaces status triggers undeploy uninstall upgrade", &[("activation", "activations"), ("actv", "activations"), ("fn", "functions"), ("function", "functions")]),
    whole("doctl", "serverless activations", "get list logs result", &[("ls", "list")]),
    whole("doctl", "serverless functions", "get invoke list", &[("ls", "list")]),
    whole("doctl", "serverless key", "create delete list", &[("ls", "list"), ("rm", "delete")]),
    whole("doctl", "serverless namespaces", "create delete list list-regions", &[("ls", "list"), ("rm", "delete")]),
    whole("doctl", "serverless triggers", "disable enable get list", &[("ls", "list")]),
    whole("doctl", "serverless-inference", "async-invoke chat-completions embeddings images messages models responses", &[("async", "async-invoke"), ("chat", "chat-completions"), ("chatcompletion", "chat-completions")]),
    whole("doctl", "serverless-inference async-invoke", "create get", &[]),
    whole("doctl", "serverless-inference chat-completions", "create", &[]),
    whole("doctl", "serverless-inference embeddings", "create", &[]),
    whole("doctl", "serverless-inference images", "create", &[]),
    whole("doctl", "serverless-inference messages", "create", &[]),
    whole("doctl", "serverless-inference models", "list", &[("ls", "list")]),
    whole("doctl", "serverless-inference responses", "create", &[]),
    whole("doctl", "spaces", "keys", &[("k", "keys")]),
    whole("doctl", "spaces keys", "create delete get list update", &[("rm", "delete")]),
    whole("doctl", "vector-databases", "backups create credentials delete get list resize restore restore-status tags update", &[("bu", "backups"), ("c", "create"), ("creds", "credentials"), ("g", "get"), ("ls", "list"), ("rm", "delete"), ("rs", "resize"), ("rs-status", "restore-status"), ("u", "update")]),
    whole("doctl", "version", "", &[]),
    whole("doctl", "vpcs", "create delete get list peerings update", &[("c", "create"), ("d", "delete"), ("g", "get"), ("ls", "list"), ("rm", "delete"), ("u", "update")]),
    whole("doctl", "vpcs peerings", "create delete get list update", &[("c", "create"), ("d", "delete"), ("g", "get"), ("ls", "list"), ("rm", "delete"), ("u", "update")]),
    // fnm's own short names (fnm 1.38): `fnm i 20` installs, `fnm uni 18` uninstalls.
    Subcommands {
        program: "fnm",
        under: "",
        names: "list-remote list install use env completions alias unalias default current exec
            uninstall",
        aliases: &[
            ("i", "install"),
            ("ls", "list"),
            ("ls-remote", "list-remote"),
            ("uni", "uninstall"),
        ],
        reads: Reads::Whole,
    },
    Subcommands {
        program: "gem",
        under: "",
        names: "build cert check cleanup contents dependency environment fetch generate_index help
            info install list lock mirror open outdated owner pristine push query rdoc search
            server signin signout sources specification stale uninstall unpack update which yank",
        aliases: &[("i", "install"), ("login", "signin"), ("logout", "signout")],
        reads: Reads::OnlyOne,
    },
    Subcommands {
        program: "ha-manager",
        under: "",
        names: "add config crm-command groupadd groupconfig groupremove groupset remove rules set
            status",
        aliases: &[
            ("migrate", "crm-command migrate"),
            ("relocate", "crm-command relocate"),
        ],
        reads: Reads::OnlyOne,
    },
    Subcommands {
        program: "ha-manager",
        under: "crm-command",
        names: "arm-ha disarm-ha migrate node-maintenance relocate stop",
        aliases: &[],
        reads: Reads::OnlyOne,
    },
    Subcommands {
        program: "ha-manager",
        under: "crm-command node-maintenance",
        names: "disable enable",
        aliases: &[],
        reads: Reads::OnlyOne,
    },
    Subcommands {
        program: "ha-manager",
        under: "rules",
        names: "add config list remove set",
        aliases: &[],
        reads: Reads::OnlyOne,
    },
    Subcommands {
        program: "helm",
        under: "",
        names: "uninstall",
        aliases: &[
            ("del", "uninstall"),
            ("delete", "uninstall"),
            ("un", "uninstall"),
        ],
        reads: Reads::Whole,
    },
    Subcommands {
        program: "ip",
        under: "",
        names: "address addrlabel maddress route rule neighbor neighbour ntable ntbl link l2tp fou
            ila macsec tunnel tunl tuntap tap token tcpmetrics tcp_metrics monitor xfrm mroute
            mrule netns netconf vrf sr nexthop mptcp ioam help stats",
        aliases: &[],
        reads: Reads::FirstInOrder,
    },
    Subcommands {
        program: "ip",
        under: "address",
        names: "add change =chg replace delete list show lst flush save showdump restore help",
        aliases: &[],
        reads: Reads::FirstInOrder,
    },
    Subcommands {
        program: "ip",
        under: "addrlabel",
        names: "list lst show add delete flush help",
        aliases: &[],
        reads: Reads::FirstInOrder,
    },
    Subcommands {
        program: "ip",
        under: "link",
        names: "add set change replace delete show lst list xstats afstats property help",
        aliases: &[],
        reads: Reads::FirstInOrder,
    },
    Subcommands {
        program: "ip",
        under: "maddress",
        names: "add delete list show lst help",
        aliases: &[],
        reads: Reads::FirstInOrder,
    },
    Subcommands {
        program: "ip",
        under: "neighbor",
        names: "add change =chg replace delete get show lst list flush help",
        aliases: &[],
        reads: Reads::FirstInOrder,
    },
    Subcommands {
        program: "ip",
        under: "neighbour",
        names: "add change =chg replace delete get show lst list flush help",
        aliases: &[],
        reads: Reads::FirstInOrder,
    },
    Subcommands {
        program: "ip",
        under: "netns",
        names: "list show lst list-id help add set delete identify pids exec monitor attach",
        aliases: &[],
        reads: Reads::FirstInOrder,
    },
    Subcommands {
        program: "ip",
        under: "nexthop",
        names: "add replace delete list show lst get flush bucket help",
        aliases: &[],
        reads: Reads::FirstInOrder,
    },
    Subcommands {
        program: "ip",
        under: "route",
        names: "add change =chg replace prepend append test delete list show lst get flush save
            restore showdump help",
        aliases: &[],
        reads: Reads::FirstInOrder,
    },
    Subcommands {
        program: "ip",
        under: "rule",
        names: "list lst show save restore add delete flush help",
        aliases: &[],
        reads: Reads::FirstInOrder,
    },
    Subcommands {
        program: "ip",
        under: "tap",
        names: "add delete show lst list help",
        aliases: &[],
        reads: Reads::FirstInOrder,
    },
    Subcommands {
        program: "ip",
        under: "token",
        names: "list lst show set add delete get help",
        aliases: &[],
        reads: Reads::FirstInOrder,
    },
    Subcommands {
        program: "ip",
        under: "tunl",
        names: "add change delete show lst list prl 6rd help",
        aliases: &[],
        reads: Reads::FirstInOrder,
    },
    Subcommands {
        program: "ip",
        under: "tunnel",
        names: "add change delete show lst list prl 6rd help",
        aliases: &[],
        reads: Reads::FirstInOrder,
    },
    Subcommands {
        program: "ip",
        under: "tuntap",
        names: "add delete show lst list help",
        aliases: &[],
        reads: Reads::FirstInOrder,
    },
    Subcommands {
        program: "ip",
        under: "vrf",
        names: "identify pids exec show lst list help",
        aliases: &[],
        reads: Reads::FirstInOrder,
    },
    // jj's config commands by their visible aliases (jj's `cli/src/commands/config/mod.rs`,
    // clap's `visible_alias`: only whole).
    Subcommands {
        program: "jj",
        under: "",
        names: "config",
        aliases: &[],
        reads: Reads::Whole,
    },
    Subcommands {
        program: "jj",
        under: "config",
        names: "edit get list path set unset",
        aliases: &[
            ("e", "edit"),
            ("g", "get"),
            ("l", "list"),
            ("p", "path"),
            ("s", "set"),
            ("u", "unset"),
        ],
        reads: Reads::Whole,
    },
    // LURE's own short names (lure 0.1): `lure in curl` installs, `lure rr -n repo` removes
    // a repository.
    Subcommands {
        program: "lure",
        under: "",
        names: "install remove upgrade info list build add-repo remove-repo refresh fix version",
        // Its repositories' commands written apart, so each word is read (`remove-repo`).
        aliases: &[
            ("addrepo", "add-repo"),
            ("ar", "add-repo"),
            ("in", "install"),
            ("ls", "list"),
            ("ref", "refresh"),
            ("removerepo", "remove-repo"),
            ("rm", "remove"),
            ("rr", "remove-repo"),
            ("up", "upgrade"),
        ],
        reads: Reads::Whole,
    },
    // NetworkManager's nmcli takes any beginning of an object or a command, the first in its
    // own order (nmcli 1.46: `nmcli d w s` is `device wifi show-password`, `nmcli r w on`
    // `radio wifi on`).
    Subcommands {
        program: "nmcli",
        under: "",
        names: "general networking radio connection device agent monitor",
        aliases: &[],
        reads: Reads::FirstInOrder,
    },
    Subcommands {
        program: "nmcli",
        under: "connection",
        names: "show up down add modify clone edit delete monitor reload load import export
            migrate",
        aliases: &[],
        reads: Reads::FirstInOrder,
    },
    Subcommands {
        program: "nmcli",
        under: "device",
        names: "status show set connect reapply modify disconnect delete monitor wifi lldp",
        aliases: &[],
        reads: Reads::FirstInOrder,
    },
    Subcommands {
        program: "nmcli",
        under: "device wifi",
        names: "list connect hotspot rescan show-password",
        aliases: &[],
        reads: Reads::FirstInOrder,
    },
    Subcommands {
        program: "nmcli",
        under: "general",
        names: "status hostname permissions logging reload",
        aliases: &[],
        reads: Reads::FirstInOrder,
    },
    Subcommands {
        program: "nmcli",
        under: "networking",
        names: "on off connectivity",
        aliases: &[],
        reads: Reads::FirstInOrder,
    },
    Subcommands {
        program: "nmcli",
        under: "radio",
        names: "all wifi wwan",
        aliases: &[],
        reads: Reads::FirstInOrder,
    },
    // NordVPN's own short names: `nordvpn c Germany` connects, `nordvpn d` disconnects.
    Subcommands {
        program: "nordvpn",
        under: "",
        names: "account connect disconnect groups login logout rate register set settings status
            whitelist allowlist version countries cities mesh meshnet fileshare",
        aliases: &[("c", "connect"), ("d", "disconnect"), ("s", "set")],
        reads: Reads::Whole,
    },
    Subcommands {
        program: "npm",
        under: "",
        names: "access add add-user adduser approve-scripts audit author bugs c cache ci cit
            clean-install clean-install-test completion config create ddp dedupe deny-scripts
            deprecate diff dist-tag dist-tags docs doctor edit exec explain explore find
            find-dupes fund get help help-search hlep home i ic in info init innit ins inst
            insta instal install install-ci-test install-clean install-scripts install-test isnt
            isnta isntal isntall isntall-clean issues it la link list ll ln login logout ls ogr
            org outdated owner pack ping pkg prefix profile prune publish query r rb rebuild
            remove repo restart rm root rum run run-script s sbom se search set show shrinkwrap
            sit stage star stars start stop t team test token trust tst u udpate un undeprecate
            uninstall unlink unpublish unstar up update upgrade urn v verison version view
            whoami why x",
        aliases: &[
            ("add", "install"),
            ("add-user", "adduser"),
            ("author", "owner"),
            ("c", "config"),
            ("cit", "install-ci-test"),
            ("clean-install", "ci"),
            ("clean-install-test", "install-ci-test"),
            ("create", "init"),
            ("ddp", "dedupe"),
            ("dist-tags", "dist-tag"),
            ("find", "search"),
            ("hlep", "help"),
            ("home", "docs"),
            ("i", "install"),
            ("ic", "ci"),
            ("in", "install"),
            ("info", "view"),
            ("innit", "init"),
            ("ins", "install"),
            ("inst", "install"),
            ("insta", "install"),
            ("instal", "install"),
            ("install-clean", "ci"),
            ("isnt", "install"),
            ("isnta", "install"),
            ("isntal", "install"),
            ("isntall", "install"),
            ("isntall-clean", "ci"),
            ("issues", "bugs"),
            ("it", "install-test"),
            ("la", "ll"),
            ("list", "ls"),
            ("ln", "link"),
            ("ogr", "org"),
            ("r", "uninstall"),
            ("rb", "rebuild"),
            ("remove", "uninstall"),
            ("rm", "uninstall"),
            ("rum", "run"),
            ("run-script", "run"),
            ("s", "search"),
            ("se", "search"),
            ("show", "view"),
            ("sit", "install-ci-test"),
            ("t", "test"),
            ("tst", "test"),
            ("u", "update"),
            ("udpate", "update"),
            ("un", "uninstall"),
            ("unlink", "uninstall"),
            ("up", "update"),
            ("upgrade", "update"),
            ("urn", "run"),
            ("v", "view"),
            ("verison", "version"),
            ("why", "explain"),
            ("x", "exec"),
        ],
        reads: Reads::OnlyOne,
    },
    Subcommands {
        program: "pct",
        under: "",
        names: "clone config console cpusets create delsnapshot destroy df enter exec fsck fstrim
            list listsnapshot migrate mount move-volume pending pull push reboot remote-migrate
            rescan resize restore resume rollback set shutdown snapshot start status stop
            suspend template unlock unmount",
        aliases: &[("move_volume", "move-volume")],
        reads: Reads::OnlyOne,
    },
    Subcommands {
        program: "pveam",
        under: "",
        names: "available download list remove update",
        aliases: &[],
        reads: Reads::OnlyOne,
    },
    Subcommands {
        program: "pvecm",
        under: "",
        names: "add addnode apiver create delnode expected keygen mtunnel nodes qdevice status
            updatecerts",
        aliases: &[],
        reads: Reads::OnlyOne,
    },
    Subcommands {
        program: "pvecm",
        under: "qdevice",
        names: "remove setup",
        aliases: &[],
        reads: Reads::OnlyOne,
    },
    Subcommands {
        program: "pvenode",
        under: "",
        names: "acme cert config migrateall startall stopall task wakeonlan",
        aliases: &[],
        reads: Reads::OnlyOne,
    },
    Subcommands {
        program: "pvenode",
        under: "acme",
        names: "account cert plugin",
        aliases: &[],
        reads: Reads::OnlyOne,
    },
    Subcommands {
        program: "pvenode",
        under: "acme account",
        names: "deactivate info list register update",
        aliases: &[],
        reads: Reads::OnlyOne,
    },
    Subcommands {
        program: "pvenode",
        under: "acme cert",
        names: "order renew revoke",
        aliases: &[],
        reads: Reads::OnlyOne,
    },
    Subcommands {
        program: "pvenode",
        under: "acme plugin",
        names: "add config list remove set",
        aliases: &[],
        reads: Reads::OnlyOne,
    },
    Subcommands {
        program: "pvenode",
        under: "cert",
        names: "delete info set",
        aliases: &[],
        reads: Reads::OnlyOne,
    },
    Subcommands {
        program: "pvenode",
        under: "config",
        names: "get set",
        aliases: &[],
        reads: Reads::OnlyOne,
    },
    Subcommands {
        program: "pvenode",
        under: "task",
        names: "list log status",
        aliases: &[],
        reads: Reads::OnlyOne,
    },
    Subcommands {
        program: "pvesh",
        under: "",
        names: "create delete get ls set usage",
        aliases: &[],
        reads: Reads::OnlyOne,
    },
    Subcommands {
        program: "pvesm",
        under: "",
        names: "add alloc apiinfo export extractconfig free import list path prune-backups remove
            scan set status",
        aliases: &[
            ("cifsscan", "scan cifs"),
            ("iscsiscan", "scan iscsi"),
            ("lvmscan", "scan lvm"),
            ("lvmthinscan", "scan lvmthin"),
            ("nfsscan", "scan nfs"),
            ("zfsscan", "scan zfs"),
        ],
        reads: Reads::OnlyOne,
    },
    Subcommands {
        program: "pvesm",
        under: "scan",
        names: "cifs iscsi lvm lvmthin nfs pbs zfs",
        aliases: &[],
        reads: Reads::OnlyOne,
    },
    Subcommands {
        program: "pvesr",
        under: "",
        names: "create-local-job delete disable enable finalize-local-job list prepare-local-job
            read run schedule-now set-state status update",
        aliases: &[],
        reads: Reads::OnlyOne,
    },
    Subcommands {
        program: "pveum",
        under: "",
        names: "acl group passwd pool realm role ticket user",
        aliases: &[
            ("acldel", "acl delete"),
            ("aclmod", "acl modify"),
            ("groupadd", "group add"),
            ("groupdel", "group delete"),
            ("groupmod", "group modify"),
            ("roleadd", "role add"),
            ("roledel", "role delete"),
            ("rolemod", "role modify"),
            ("useradd", "user add"),
            ("userdel", "user delete"),
            ("usermod", "user modify"),
        ],
        reads: Reads::OnlyOne,
    },
    Subcommands {
        program: "pveum",
        under: "acl",
        names: "delete list modify",
        aliases: &[],
        reads: Reads::OnlyOne,
    },
    Subcommands {
        program: "pveum",
        under: "group",
        names: "add delete list modify",
        aliases: &[],
        reads: Reads::OnlyOne,
    },
    Subcommands {
        program: "pveum",
        under: "pool",
        names: "add delete list modify",
        aliases: &[],
        reads: Reads::OnlyOne,
    },
    Subcommands {
        program: "pveum",
        under: "realm",
        names: "add delete list modify sync",
        aliases: &[],
        reads: Reads::OnlyOne,
    },
    Subcommands {
        program: "pveum",
        under: "role",
        names: "add delete list modify",
        aliases: &[],
        reads: Reads::OnlyOne,
    },
    Subcommands {
        program: "pveum",
        under: "user",
        names: "add delete list modify permissions tfa token",
        aliases: &[],
        reads: Reads::OnlyOne,
    },
    Subcommands {
        program: "pveum",
        under: "user tfa",
        names: "delete list unlock",
        aliases: &[],
        reads: Reads::OnlyOne,
    },
    Subcommands {
        program: "pveum",
        under: "user token",
        names: "add delete list modify permissions",
        aliases: &[("remove", "delete")],
        reads: Reads::OnlyOne,
    },
    Subcommands {
        program: "qm",
        under: "",
        names:
            "cleanup clone cloudinit config create delsnapshot destroy disk enroll-efi-keys guest
            import importovf list listsnapshot migrate monitor mtunnel nbdstop pending reboot
            remote-migrate reset resume rollback sendkey set showcmd shutdown snapshot start
            status stop suspend template terminal unlock vncproxy wait",
        aliases: &[
            ("agent", "guest cmd"),
            ("importdisk", "disk import"),
            ("move-disk", "disk move"),
            ("move_disk", "disk move"),
            ("rescan", "disk rescan"),
            ("resize", "disk resize"),
            ("unlink", "disk unlink"),
        ],
        reads: Reads::OnlyOne,
    },
    Subcommands {
        program: "qm",
        under: "cloudinit",
        names: "dump pending update",
        aliases: &[],
        reads: Reads::OnlyOne,
    },
    Subcommands {
        program: "qm",
        under: "disk",
        names: "import move rescan resize unlink",
        aliases: &[],
        reads: Reads::OnlyOne,
    },
    Subcommands {
        program: "qm",
        under: "guest",
        names: "cmd exec exec-status passwd",
        aliases: &[],
        reads: Reads::OnlyOne,
    },
    Subcommands {
        program: "zypper",
        under: "",
        names: "addlock addrepo dist-upgrade install modifyrepo refresh remove removerepo
            source-install update",
        aliases: &[
            ("al", "addlock"),
            ("ar", "addrepo"),
            ("dup", "dist-upgrade"),
            ("in", "install"),
            ("mr", "modifyrepo"),
            ("ref", "refresh"),
            ("rm", "remove"),
            ("rr", "removerepo"),
            ("si", "source-install"),
            ("up", "update"),
        ],
        reads: Reads::Whole,
    },
];

/// A program's one-letter options, as its help gives them: those that take no value
/// (`flags`), and those that take one, the rest of the word or the next (`valued`). A letter
/// in neither (one whose value is optional, `sed -i[SUFFIX]`) ends what is read of a word.
pub(crate) struct ShortOptions {
    pub program: &'static str,
    pub flags: &'static str,
    pub valued: &'static str,
}

/// Sorted by program; from the same help texts as [`LONG_OPTIONS`] (curl's `-x` takes a
/// value its help writes in brackets).
pub(crate) const SHORT_OPTIONS: &[ShortOptions] = &[
    ShortOptions {
        program: "chgrp",
        flags: "HLPRcfhv",
        valued: "",
    },
    ShortOptions {
        program: "chmod",
        flags: "Rcfv",
        valued: "",
    },
    ShortOptions {
        program: "chown",
        flags: "HLPRcfhv",
        valued: "",
    },
    ShortOptions {
        program: "chpasswd",
        flags: "ehms",
        valued: "Rc",
    },
    ShortOptions {
        program: "chrt",
        flags: "RVabdfhimoprv",
        valued: "DPT",
    },
    ShortOptions {
        program: "cp",
        flags: "HLPRTZabdfilnpsuvx",
        valued: "St",
    },
    ShortOptions {
        program: "curl",
        flags: "#012346BGIJLMNORSVZafgijklnpqsv",
        valued: "ACDEFHKPQTUXYbcdehmortuwxyz",
    },
    ShortOptions {
        program: "env",
        flags: "0iv",
        valued: "CSu",
    },
    ShortOptions {
        program: "flock",
        flags: "FVhnosux",
        valued: "Ecw",
    },
    ShortOptions {
        program: "install",
        flags: "CDTZbcdpsv",
        valued: "Sgmot",
    },
    ShortOptions {
        program: "ionice",
        flags: "Vht",
        valued: "Pcnpu",
    },
    ShortOptions {
        program: "journalctl",
        flags: "Naefhkmqrx",
        valued: "DFMSUcgoptu",
    },
    ShortOptions {
        program: "ln",
        flags: "LPTbdfinrsv",
        valued: "St",
    },
    ShortOptions {
        program: "mkdir",
        flags: "Zpv",
        valued: "m",
    },
    ShortOptions {
        program: "mv",
        flags: "TZbfinuv",
        valued: "St",
    },
    ShortOptions {
        program: "nice",
        flags: "2",
        valued: "n",
    },
    ShortOptions {
        program: "nsenter",
        flags: "FVWZah",
        valued: "GSt",
    },
    ShortOptions {
        program: "passwd",
        flags: "Sadehklqu",
        valued: "Rinrwx",
    },
    ShortOptions {
        program: "psql",
        flags: "01AESVWXabelnqstwxz",
        valued: "FHLPRTUcdfhopv",
    },
    ShortOptions {
        program: "rm",
        flags: "Idfirv",
        valued: "",
    },
    ShortOptions {
        program: "runuser",
        flags: "PVfhm",
        valued: "Gcgsuw",
    },
    ShortOptions {
        program: "script",
        flags: "Vaefhq",
        valued: "BEIOTcmo",
    },
    ShortOptions {
        program: "sed",
        flags: "Ensuz",
        valued: "efl",
    },
    ShortOptions {
        program: "setsid",
        flags: "Vcfhw",
        valued: "",
    },
    ShortOptions {
        program: "shred",
        flags: "fuvxz",
        valued: "ns",
    },
    ShortOptions {
        program: "sort",
        flags: "MRVbcdfghimnrsuz",
        valued: "CSTkot",
    },
    ShortOptions {
        program: "split",
        flags: "deux",
        valued: "Cablnt",
    },
    ShortOptions {
        program: "stdbuf",
        flags: "",
        valued: "eio",
    },
    ShortOptions {
        program: "su",
        flags: "PVfhm",
        valued: "Gcgsw",
    },
    ShortOptions {
        program: "systemctl",
        flags: "Tafhilqr",
        valued: "HMPnopst",
    },
    ShortOptions {
        program: "systemd-run",
        flags: "GPSdhqrt",
        valued: "EHMpu",
    },
    ShortOptions {
        program: "tar",
        flags: "?ABGJMOPRSUWZacdhijklmnoprstuvwxz",
        valued: "CFHIKLNTVXbfg",
    },
    ShortOptions {
        program: "taskset",
        flags: "Vachp",
        valued: "",
    },
    ShortOptions {
        program: "tee",
        flags: "aip",
        valued: "",
    },
    ShortOptions {
        program: "timeout",
        flags: "v",
        valued: "ks",
    },
    ShortOptions {
        program: "touch",
        flags: "acfhm",
        valued: "drt",
    },
    ShortOptions {
        program: "truncate",
        flags: "co",
        valued: "rs",
    },
    ShortOptions {
        program: "unshare",
        flags: "Vcfhr",
        valued: "GRSw",
    },
    ShortOptions {
        program: "useradd",
        flags: "DFMNUhlmor",
        valued: "GKPRZbcdefgkpsu",
    },
    ShortOptions {
        program: "usermod",
        flags: "LUabhmor",
        valued: "GPRVWZcdefglpsuvw",
    },
    ShortOptions {
        program: "wget",
        flags: "46EFHKLNSVbcdhkmpqrvx",
        valued: "ABDIOPQRTUXaeilnotw",
    },
    ShortOptions {
        program: "xargs",
        flags: "0oprtx",
        valued: "EILPadns",
    },
    // xauth's manual (X.Org xauth 1.1.2).
    ShortOptions {
        program: "xauth",
        flags: "binqvV",
        valued: "f",
    },
];

/// What the tables above hold for one program: its long options (each subcommand's), its
/// one-letter options, its levels of subcommands.
#[derive(Clone, Copy)]
pub(crate) struct Known {
    pub long: &'static [LongOptions],
    pub short: Option<&'static ShortOptions>,
    pub subcommands: &'static [Subcommands],
    /// The names of each of `long`, split: in the same order.
    pub long_names: &'static [Box<[&'static str]>],
    /// The names of each of `subcommands`, split: in the same order.
    pub subcommand_names: &'static [Box<[&'static str]>],
}

/// Every list's names split once, in the order of its table: a command of a program the
/// tables know looks a subcommand or a long option up in lists of up to a kilobyte, and
/// splitting the list again at each lookup was most of what writing words out cost.
type Split = std::sync::LazyLock<Vec<Box<[&'static str]>>>;

static LONG_NAMES: Split = std::sync::LazyLock::new(|| {
    LONG_OPTIONS
        .iter()
        .map(|o| o.names.split_ascii_whitespace().collect())
        .collect()
});

static SUBCOMMAND_NAMES: Split = std::sync::LazyLock::new(|| {
    SUBCOMMANDS
        .iter()
        .map(|s| s.names.split_ascii_whitespace().collect())
        .collect()
});

/// The tables' programs, each found by one lookup (most commands are of none).
static KNOWN: std::sync::LazyLock<super::Names<Known>> = std::sync::LazyLock::new(|| {
    let mut names: Vec<&'static str> = LONG_OPTIONS
        .iter()
        .map(|o| o.program)
        .chain(SHORT_OPTIONS.iter().map(|o| o.program))
        .chain(SUBCOMMANDS.iter().map(|s| s.program))
        .collect();
    names.sort_unstable();
    names.dedup();
    let entries: Vec<(&'static str, Known)> = names
        .into_iter()
        .map(|program| {
            let long_at = LONG_OPTIONS.partition_point(|o| o.program < program);
            let long_len = LONG_OPTIONS
                .get(long_at..)
                .unwrap_or(&[])
                .iter()
                .take_while(|o| o.program == program)
                .count();
            let sub_at = SUBCOMMANDS.partition_point(|s| s.program < program);
            let sub_len = SUBCOMMANDS
                .get(sub_at..)
                .unwrap_or(&[])
                .iter()
                .take_while(|s| s.program == program)
                .count();
            let known = Known {
                long: LONG_OPTIONS.get(long_at..long_at + long_len).unwrap_or(&[]),
                short: SHORT_OPTIONS.iter().find(|o| o.program == program),
                subcommands: SUBCOMMANDS.get(sub_at..sub_at + sub_len).unwrap_or(&[]),
                long_names: LONG_NAMES.get(long_at..long_at + long_len).unwrap_or(&[]),
                subcommand_names: SUBCOMMAND_NAMES
                    .get(sub_at..sub_at + sub_len)
                    .unwrap_or(&[]),
            };
            (program, known)
        })
        .collect();
    super::Names::new(entries.into_iter())
});

/// What the tables hold for `program` (the catalogue's name), if anything.
pub(crate) fn known(program: &str) -> Option<&'static Known> {
    KNOWN.get(program)
}
