#!/usr/bin/env bash
# Regenerates Sources/Function/Assembly/bootstrap/symbol-order.txt: the bootstrap's functions that a warm sign-in runs, which release
# links on Linux place next to each other (Package.swift, `bootstrapLinkOrder`). Run it after changes that move
# the code a sign-in runs; a stale list still links (unknown names are skipped), only with less of the gain.
#
# Runs the release bootstrap under Valgrind's callgrind through `runtime-benchmark --soak 10000` (init, warm-up and
# 10,000 Define, Create and Verify invocations; about a minute) and lists every function of the bootstrap's own
# binary that ran, in the order callgrind reported them.
# Usage: Deploy/symbol-order.sh
set -euo pipefail

deploy_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=common.sh
source "$deploy_dir/common.sh"
repo_dir=$(dirname "$deploy_dir")
order_file=$repo_dir/Sources/Function/Assembly/bootstrap/symbol-order.txt

install_missing_packages valgrind
# The two products it runs, not the whole package: TestSupport (a target beside the tests) imports Testing, which a
# release build without tests does not have.
for product in bootstrap runtime-benchmark; do
    log "swift build -c release --static-swift-stdlib --disable-local-rpath ${release_swift_flags[*]} --product $product"
    (cd "$repo_dir" && swift build -c release --static-swift-stdlib --disable-local-rpath "${release_swift_flags[@]}" --product "$product") >&2
done
bin_dir=$(cd "$repo_dir" && swift build -c release --static-swift-stdlib --disable-local-rpath "${release_swift_flags[@]}" --show-bin-path)

# runtime-benchmark runs the `bootstrap` that sits beside it: here a wrapper that runs the real one under callgrind,
# dumping its counts every few seconds of guest time (the benchmark ends the bootstrap with SIGKILL, so no final dump).
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ln -s "$bin_dir/runtime-benchmark" "$work/runtime-benchmark"
cat >"$work/bootstrap" <<EOF
#!/bin/sh
exec valgrind --tool=callgrind --callgrind-out-file=$work/callgrind.%p --dump-every-bb=50000000 \\
    --demangle=no --compress-strings=no --compress-pos=no --dump-instr=no "$bin_dir/bootstrap"
EOF
chmod +x "$work/bootstrap"
log "runtime-benchmark --soak 10000 with the bootstrap under callgrind"
"$work/runtime-benchmark" --soak 10000 >&2

# Dumps in the order they were written (callgrind.PID.1, .2, …); each function once, from the bootstrap's own
# object only, without callgrind's recursion suffixes ('2) and the unnamed addresses it could not symbolise.
mapfile -t dumps < <(find "$work" -name 'callgrind.*.*' | sort -V)
((${#dumps[@]})) || die "callgrind wrote no counts"
awk -v binary="$(readlink -f "$bin_dir/bootstrap")" '
    /^ob=/ { object = substr($0, 4) }
    /^fn=/ && object == binary {
        name = substr($0, 4)
        sub(/'\''[0-9]+$/, "", name)
        if (name !~ /^0x/ && name != "(below main)" && !seen[name]++) print name
    }' "${dumps[@]}" >"$order_file"
log "wrote $(wc -l <"$order_file") functions to ${order_file#"$repo_dir"/}"
# SwiftPM does not see the list as an input of the link: remove the binary so that the next build links it again.
rm -f "$bin_dir/bootstrap"
