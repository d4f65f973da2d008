#!/usr/bin/env bash
# Regenerates Sources/Function/Assembly/bootstrap/call-graph.txt: the calls between the bootstrap's own functions that
# a sign-in makes, with how often each was made, from which release links on Linux lay those functions out (Package.swift,
# `bootstrapLinkOrder`). Run it after changes that move the code a sign-in runs; a stale graph still links (names the
# code no longer has are skipped), only with less of the gain.
#
# Runs the release bootstrap under Valgrind's callgrind through `runtime-benchmark --soak 10000` (init, warm-up and
# 10,000 Define, Create and Verify invocations; about a minute) and writes one line per caller and callee that are
# both functions of the bootstrap's own binary: `caller callee calls`, the most frequent first.
# Usage: Deploy/symbol-order.sh
set -euo pipefail

deploy_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=common.sh
source "$deploy_dir/common.sh"
repo_dir=$(dirname "$deploy_dir")
graph_file=$repo_dir/Sources/Function/Assembly/bootstrap/call-graph.txt

install_missing_packages valgrind binutils
# The two products it runs, not the whole package: TestSupport (a target beside the tests) imports Testing, which a
# release build without tests does not have.
for product in bootstrap runtime-benchmark; do
    log "swift build -c release --static-swift-stdlib --disable-local-rpath ${release_swift_flags[*]} --product $product"
    (cd "$repo_dir" && swift build -c release --static-swift-stdlib --disable-local-rpath "${release_swift_flags[@]}" --product "$product") >&2
done
bin_dir=$(cd "$repo_dir" && swift build -c release --static-swift-stdlib --disable-local-rpath "${release_swift_flags[@]}" --show-bin-path)

# runtime-benchmark runs the `bootstrap` that sits beside it: here a wrapper that runs the real one under callgrind,
# dumping its counts every few seconds of guest time (the benchmark ends the bootstrap with SIGKILL, so no final dump).
# Callgrind reads a copy without debug information (the names it needs are in the symbol table): Valgrind 3.19 gives up
# on the DWARF 5 that link-time optimization writes when it merges C into the Swift.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ln -s "$bin_dir/runtime-benchmark" "$work/runtime-benchmark"
objcopy --strip-debug "$bin_dir/bootstrap" "$work/bootstrap-without-debug-information"
cat >"$work/bootstrap" <<EOF
#!/bin/sh
exec valgrind --tool=callgrind --callgrind-out-file=$work/callgrind.%p --dump-every-bb=50000000 \\
    --demangle=no --compress-strings=no --compress-pos=no --dump-instr=no "$work/bootstrap-without-debug-information"
EOF
chmod +x "$work/bootstrap"
log "runtime-benchmark --soak 10000 with the bootstrap under callgrind"
"$work/runtime-benchmark" --soak 10000 >&2

# Each dump holds the calls made since the one before; a call's count is summed over them. Callgrind marks a
# recursive activation with a suffix ('2), which is dropped; calls into other objects (libc, libcurl) and into
# addresses it could not name are left out, as the link cannot place them.
mapfile -t dumps < <(find "$work" -name 'callgrind.*.*' | sort -V)
((${#dumps[@]})) || die "callgrind wrote no counts"
nm --defined-only "$bin_dir/bootstrap" | awk '$2 ~ /^[tTwW]$/ { print $3 }' >"$work/functions"
awk -v functions="$work/functions" '
    BEGIN { while ((getline name < functions) > 0) own[name] = 1 }
    /^fn=/ { caller = substr($0, 4); sub(/'\''[0-9]+$/, "", caller); callee = ""; next }
    /^cfn=/ { callee = substr($0, 5); sub(/'\''[0-9]+$/, "", callee); next }
    /^calls=/ {
        split(substr($0, 7), call, " ")
        if (callee != "" && callee != caller && (caller in own) && (callee in own)) count[caller " " callee] += call[1]
        callee = ""
    }
    END { for (edge in count) print edge, count[edge] }' "${dumps[@]}" | sort -k3,3nr -k1,1 -k2,2 >"$graph_file"
log "wrote $(wc -l <"$graph_file") calls between $(awk '{ print $1; print $2 }' "$graph_file" | sort -u | wc -l) functions to ${graph_file#"$repo_dir"/}"
# SwiftPM does not see the graph as an input of the link: remove the binary so that the next build links it again.
rm -f "$bin_dir/bootstrap"
