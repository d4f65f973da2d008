# shellcheck shell=bash
# Helpers shared by the Deploy/ scripts (sourced, not run).

script=$(basename "$0" .sh)
log() { echo "$script: $*" >&2; }
die() { log "error: $*"; exit 1; }

# Build flags of every release bootstrap (the zip's, the symbol order's, the benchmark's). Types such as a
# Dictionary's storage get their metadata through direct accessor calls instead of mangled names the Swift runtime
# demangles at first use: 1.4 M fewer instructions before the first GET /next for 40 KB more code. The whole program
# is optimized at link time (LLVM full LTO, SwiftPM's `--experimental-lto-mode=full`): code inlined and dropped across
# the package's modules, 2-3 % fewer instructions per warm invocation and less code run, about 0.05x less CPU per
# invocation against the benchmark's C floor (docs/benchmark.md). Passed on the command line, not in Package.swift:
# a manifest has no setting for link-time optimization, and SwiftPM refuses unsafe flags in the library targets of a
# package used as a dependency.
release_swift_flags=(-Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors
    --experimental-lto-mode=full)

# Installs the Debian packages that are missing (apt-get update once, then one install).
install_missing_packages() {
    local missing=() package
    for package in "$@"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
    done
    ((${#missing[@]} == 0)) && return 0
    [[ $(id -u) == 0 ]] || die "missing packages ${missing[*]}; install them as root: apt-get install ${missing[*]}"
    log "installing ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
}

# `apt-get source` needs a deb-src entry; Debian's container images ship only binary ones.
ensure_deb_src() {
    local sources=/etc/apt/sources.list.d/debian-src.sources
    if grep -rqsE '^(deb-src|Types:.*deb-src)' /etc/apt/sources.list /etc/apt/sources.list.d/; then
        return 0
    fi
    [[ $(id -u) == 0 ]] || die "no deb-src entry in /etc/apt; as root, add one for bookworm like $sources in Deploy/common.sh"
    log "adding $sources"
    cat >"$sources" <<'EOF'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    apt-get update -qq
}

# The source tree `apt-get source PACKAGE` unpacked into DIR (dies when there is none).
# Usage: src_dir=$(unpacked_source DIR PACKAGE)
unpacked_source() {
    local dir
    dir=$(find "$1" -mindepth 1 -maxdepth 1 -type d -name "$2-*" | head -n1)
    [[ -d $dir ]] || die "no unpacked $2 source in $1"
    echo "$dir"
}

# Waits for a build run as a background subshell (PID) with its output in LOG; when it failed, dies with WHAT
# and the log's last lines. Waited for rather than tested with ||, under which the subshell would run without errexit.
# Usage: ( ... ) >"$log" 2>&1 & await_build $! WHAT LOG
await_build() {
    wait "$1" || die "$2 failed; the last lines of $3:$(echo; tail -n 25 "$3")"
}

# The AllowedValues of a template parameter, one per line (the parameter's `AllowedValues: [a, b]` line).
template_allowed_values() {
    local template=$1 parameter=$2
    awk -v start="  $parameter:" '
        $0 == start { inside = 1; next }
        inside && /^  [A-Za-z]/ { exit }
        inside && /AllowedValues:/ { sub(/.*\[/, ""); sub(/\].*/, ""); gsub(/, */, "\n"); print; exit }
    ' "$template"
}
