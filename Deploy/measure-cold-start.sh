#!/usr/bin/env bash
# Measures init time, from just before the exec to the first GET /next reaching a stand-in Runtime API
# on 127.0.0.1, with a cold page cache (sync; echo 3 > /proc/sys/vm/drop_caches before each run) and,
# for reference, warm. Two builds:
#   packaged    Deploy/out/bootstrap.zip unpacked into an otherwise empty chroot (as on Lambda)
#   unpackaged  a plain `swift build -c release` bootstrap: shared Swift runtime and Debian's shared
#               libcurl with its whole dependency tree (scratch path .build-coldstart)
# Needs root. Dropping the page cache slows everything else on the machine for a moment.
# Usage: Deploy/measure-cold-start.sh [RUNS]     (RUNS per build and cache state, default 5)
set -euo pipefail

deploy_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=common.sh
source "$deploy_dir/common.sh"
repo_dir=$(dirname "$deploy_dir")
runs=${1:-5}
zip=$deploy_dir/out/bootstrap.zip

[[ $runs =~ ^[1-9][0-9]*$ ]] || die "RUNS must be a positive whole number, got '$runs'"
[[ $(id -u) == 0 ]] || die "needs root: chroot and dropping the page cache"
[[ -f $zip ]] || die "$zip not found; build it with Deploy/package.sh"
(sync && echo 3 >/proc/sys/vm/drop_caches) 2>/dev/null || die "this machine refuses to drop the page cache (/proc/sys/vm/drop_caches)"

log "building the unpackaged comparison (swift build -c release, scratch path .build-coldstart)"
(cd "$repo_dir" && swift build -c release --product bootstrap --scratch-path .build-coldstart) >&2
unpackaged=$(cd "$repo_dir" && swift build -c release --product bootstrap --scratch-path .build-coldstart --show-bin-path)/bootstrap

# The chroot lives on disk under Deploy/work, so dropping the page cache really evicts it.
mkdir -p "$deploy_dir/work"
root=$(TMPDIR=$deploy_dir/work "$deploy_dir/chroot-smoke.sh" --prepare-only "$zip")
trap 'rm -rf "$(dirname "$root")"' EXIT

# Prints the milliseconds of each run on one line, then the median on the next.
measure() {
    local options=(--quiet) times=() i result
    if [[ $1 == cold ]]; then options+=(--drop-caches); fi
    shift
    for ((i = 0; i < runs; i++)); do
        result=$(python3 "$deploy_dir/await-first-next.py" "${options[@]}" "$@") || die "a run failed: $*"
        times+=("${result#first-next-ms }")
    done
    echo "${times[*]}"
    printf '%s\n' "${times[@]}" | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'
}

report() {
    local name=$1 cache=$2 output
    shift 2
    output=$(measure "$cache" "$@")
    printf '%-11s %-4s median %8.2f ms   runs: %s\n' "$name" "$cache" "$(tail -n1 <<<"$output")" "$(head -n1 <<<"$output")"
}

echo "init to first GET /next, $runs runs each; packaged zip $(stat -c %s "$zip") bytes,"
echo "unpackaged binary with $("/lib64/ld-linux-x86-64.so.2" --list "$unpackaged" | grep -c '=>') shared libraries"
report packaged cold --chroot "$root" -- /var/task/bootstrap
report unpackaged cold -- "$unpackaged"
report packaged warm --chroot "$root" -- /var/task/bootstrap
report unpackaged warm -- "$unpackaged"
