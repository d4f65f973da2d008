#!/usr/bin/env bash
# Proves the Lambda zip is self-contained: unpacks it into ROOT/var/task of an otherwise empty
# directory and runs /var/task/bootstrap with chroot ROOT (so nothing of this machine's / is visible)
# against a stand-in Runtime API on 127.0.0.1, until the bootstrap's first GET /next arrives.
#
# Usage: Deploy/chroot-smoke.sh [--prepare-only] [--sign-in STEP] [ZIP]   ZIP defaults to Deploy/out/bootstrap.zip
#   --prepare-only  only unpack: print ROOT on stdout and leave it for the caller (who removes
#                   ROOT's parent directory when done), e.g. for a test that drives its own Runtime API.
#   --sign-in STEP  then sign a user in through Define, Create and Verify with CHALLENGE_FLOW=STEP, in the same root
#                   (Deploy/sign-in-smoke.py; STEP: totp, the step of Examples/TOTPStep's bootstrap)
# Exit status: 0 passed, 1 failed, 77 skipped because chroot is impossible here (not root, or refused).
set -euo pipefail

deploy_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

prepare_only=0
sign_in=''
zip=$deploy_dir/out/bootstrap.zip
while (($#)); do
    case $1 in
        --prepare-only) prepare_only=1 ;;
        --sign-in)
            [[ $# -ge 2 && -n $2 ]] || { echo "--sign-in needs a step" >&2; exit 2; }
            sign_in=$2
            shift
            ;;
        -*) echo "usage: $0 [--prepare-only] [--sign-in STEP] [ZIP]" >&2; exit 2 ;;
        *) zip=$1 ;;
    esac
    shift
done

fail() { echo "FAIL: chroot smoke: $*"; exit 1; }
skip() { echo "SKIP: chroot smoke: $*"; exit 77; }

[[ -f $zip ]] || fail "$zip not found; build it with Deploy/package.sh"
command -v unzip >/dev/null || fail "unzip is missing; install it: apt-get install unzip"

# Prints the root it made: <new temporary directory>/root, holding only var/task.
prepare_root() {
    local parent
    parent=$(mktemp -d "${TMPDIR:-/tmp}/bootstrap-chroot.XXXXXX")
    mkdir -p "$parent/root/var/task"
    unzip -q "$zip" -d "$parent/root/var/task" || { rm -rf "$parent"; fail "cannot unpack $zip"; }
    echo "$parent/root"
}

root=$(prepare_root)
if ((prepare_only)); then
    echo "$root"
    exit 0
fi
trap 'rm -rf "$(dirname "$root")"' EXIT

[[ $(id -u) == 0 ]] || skip "chroot needs root (this is uid $(id -u))"
if ! probe=$(chroot "$root" /var/task/lib/ld-linux-x86-64.so.2 --version 2>&1); then
    grep -qi 'operation not permitted' <<<"$probe" && skip "this sandbox refuses chroot: $probe"
    fail "the packaged loader does not run inside the chroot: $probe"
fi

if result=$(python3 "$deploy_dir/await-first-next.py" --chroot "$root" --timeout 10 -- /var/task/bootstrap); then
    echo "PASS: chroot smoke: the packaged bootstrap reached the Runtime API (${result#first-next-ms } ms to the first GET /next)"
else
    fail "the packaged bootstrap did not reach the Runtime API (its output is above)"
fi
[[ -z $sign_in ]] && exit 0

if transcript=$(python3 "$deploy_dir/sign-in-smoke.py" --step "$sign_in" --chroot "$root" -- /var/task/bootstrap); then
    echo "PASS: chroot sign-in: CHALLENGE_FLOW=$sign_in through Define, Create and Verify: ${transcript//$'\n'/; }"
else
    fail "CHALLENGE_FLOW=$sign_in did not sign in: ${transcript//$'\n'/; } (the bootstrap's output is above)"
fi
