# shellcheck shell=bash
# Helpers shared by the Deploy/ scripts (sourced, not run).

script=$(basename "$0" .sh)
log() { echo "$script: $*" >&2; }
die() { log "error: $*"; exit 1; }

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
