#!/usr/bin/env bash
# Builds the libFuzzer targets (with AddressSanitizer) and runs each for SECONDS (default 60), one after the other.
#   Tests/Fuzz/run.sh [SECONDS] [TARGET...]      e.g. Tests/Fuzz/run.sh 600 fuzz-trigger
# Exits non-zero if a target crashes, leaks, runs out of memory or hangs on an input; the input is kept under
# Tests/Fuzz/.build/fuzz/crashes/TARGET/. Each target's corpus grows in Tests/Fuzz/.build/fuzz/corpus/TARGET/ from
# one run to the next, seeded every run (Events/ for the JSON and trigger targets, Events/passkey-api/ for the HTTP API
# one, the samples below for the others).
set -euo pipefail
cd "$(dirname "$0")"
fuzz_dir=$PWD
root=$(cd ../.. && pwd)

seconds=${1:-60}
shift || true
# libFuzzer takes -max_total_time=0 as "run for ever".
[[ $seconds =~ ^[1-9][0-9]*$ ]] || { echo "usage: $0 [SECONDS (at least 1)] [TARGET...]" >&2; exit 2; }
targets=("$@")
(( ${#targets[@]} )) || targets=(fuzz-json fuzz-trigger fuzz-sigv4 fuzz-runtime-headers fuzz-webauthn fuzz-http-api)

# Linux only: -sanitize=fuzzer needs the swift.org toolchain's libFuzzer. -enable-testing lets a target reach the
# internal parsing functions it fuzzes (`@testable import`).
build_flags=(-c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing)
work="$fuzz_dir/.build/fuzz"
mkdir -p "$work"
echo "fuzz: building ($(swift --version 2>/dev/null | head -1))"
started=$SECONDS
# ld.gold warns once per ASan helper symbol that it cannot export: left out of what is shown.
if ! swift build "${build_flags[@]}" >"$work/build.log" 2>&1; then
    grep -v "Cannot export local symbol" "$work/build.log" >&2
    echo "fuzz: build failed" >&2
    exit 1
fi
grep -v "Cannot export local symbol" "$work/build.log" | tail -1
bin=$(swift build "${build_flags[@]}" --show-bin-path)
echo "fuzz: built in $((SECONDS - started)) s"

# Writes the seed inputs of one target into its corpus (existing files are kept).
seed() {
    local target=$1 corpus=$2
    case "$target" in
        fuzz-json | fuzz-trigger)
            local file
            while IFS= read -r -d '' file; do
                local name=${file#"$root/Events/"}
                cp "$file" "$corpus/seed-${name//\//-}"
            done < <(find "$root/Events" -type f -print0)
            ;;
        fuzz-http-api)
            # The passkey API's own events, and the request bodies inside them.
            local file
            for file in "$root"/Events/passkey-api/*.json; do
                [[ $file == *.expected.json ]] && continue
                cp "$file" "$corpus/seed-$(basename "$file")"
            done
            printf '{"name":"Work laptop"}' >"$corpus/seed-rename-body"
            # A registration the software authenticator made (Ed25519, none) for the options the target's fixed random
            # bytes give (challenge and user handle 0, 1, …, 31; RP ID localhost): it verifies, so mutations reach past
            # the ceremony into the account and the credential claim.
            printf '%s' '{"id":"NLqc-a0KmHRmqT5hEdhX4h-bf79cwqphrQ8v-T2j","rawId":"NLqc-a0KmHRmqT5hEdhX4h-bf79cwqphrQ8v-T2j","type":"public-key","response":{"clientDataJSON":"eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIiwiY2hhbGxlbmdlIjoiQUFFQ0F3UUZCZ2NJQ1FvTERBME9EeEFSRWhNVUZSWVhHQmthR3h3ZEhoOCIsIm9yaWdpbiI6Imh0dHA6Ly9sb2NhbGhvc3Q6NTE3MyIsImNyb3NzT3JpZ2luIjpmYWxzZX0","attestationObject":"o2NmbXRkbm9uZWdhdHRTdG10oGhhdXRoRGF0YVh_SZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2NFAAAAAFoPfkORLEuNph48V9KQa_QAHjS6nPmtCph0Zqk-YRHYV-Ifm3-_XMKqYa0PL_k9o6QBAQMnIAYhWCBCalspNEWUBBkNDlex32-puRZ5jXhPTm3m9nwoOmRSHA","transports":["internal","hybrid"],"publicKeyAlgorithm":-8,"publicKey":"MCowBQYDK2VwAyEAQmpbKTRFlAQZDQ5Xsd9vqbkWeY14T05t5vZ8KDpkUhw","authenticatorData":"SZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2NFAAAAAFoPfkORLEuNph48V9KQa_QAHjS6nPmtCph0Zqk-YRHYV-Ifm3-_XMKqYa0PL_k9o6QBAQMnIAYhWCBCalspNEWUBBkNDlex32-puRZ5jXhPTm3m9nwoOmRSHA"},"authenticatorAttachment":"platform","clientExtensionResults":{}}' >"$corpus/seed-registration-body"
            ;;
        fuzz-sigv4)
            # Lines: Unix time, method, path, query, headers up to an empty line, then the body.
            printf '1440938160\nPOST\n/v2/email/outbound-emails\n\nContent-Type: application/json\n\n{"FromEmailAddress":"a@example.com"}' \
                >"$corpus/seed-ses"
            printf '1440938160\nGET\n/a/./b/../c//d/\nb=2&a=1&a=0&%%25=\xc3\xa9&empty\nMy-Header:  a   b  \nmy-header:c\n\n' \
                >"$corpus/seed-normalization"
            printf -- '-9223372036854775808\nGET\n/\n\n' >"$corpus/seed-int64-min"  # overflowed once
            printf -- '-1\nPOST\n/\n\nX-Amz-Target: DynamoDB_20120810.GetItem\n\n{}' >"$corpus/seed-before-1970"
            ;;
        fuzz-runtime-headers)
            # A `next` answer's header block, as the Runtime API sends it (one line at a time to libcurl's callback).
            printf '%s\r\n' 'HTTP/1.1 200 OK' 'Content-Type: application/json' \
                'Lambda-Runtime-Aws-Request-Id: 8476a536-e9f4-11e8-9739-2dfe598c3fcd' \
                'Lambda-Runtime-Deadline-Ms: 1542409706888' \
                'Lambda-Runtime-Invoked-Function-Arn: arn:aws:lambda:us-east-2:123456789012:function:custom-runtime' \
                'Lambda-Runtime-Trace-Id: Root=1-5bef4de7-ad49b0e87f6ef6c87fc2e700;Parent=9a9197af755a6419;Sampled=1' \
                'Lambda-Runtime-Client-Context: {"client":{"installation_id":"x"}}' \
                'Lambda-Runtime-Cognito-Identity: {"cognitoIdentityId":"eu-west-1:x","cognitoIdentityPoolId":"y"}' \
                'Date: Fri, 16 Nov 2018 22:08:26 GMT' 'Content-Length: 2' '' >"$corpus/seed-next"
            printf '%s\r\n' 'HTTP/1.1 100 Continue' '' 'HTTP/1.1 200 OK' 'lambda-runtime-aws-request-id:  id ' \
                'LAMBDA-RUNTIME-DEADLINE-MS: 1' '' >"$corpus/seed-continue"
            ;;
        fuzz-webauthn)
            # Authenticator data for RP ID example.com (UP, UV, counter 1), and a `none` attestation object holding it.
            local authdata='\xa3\x79\xa6\xf6\xee\xaf\xb9\xa5\x5e\x37\x8c\x11\x80\x34\xe2\x75\x1e\x68\x2f\xab\x9f\x2d\x30\xab\x13\xd2\x12\x55\x86\xce\x19\x47\x05\x00\x00\x00\x01'
            printf "$authdata" >"$corpus/seed-authenticator-data"
            printf '\xa3\x63fmt\x64none\x67attStmt\xa0\x68authData\x58\x25'"$authdata" >"$corpus/seed-attestation-none"
            printf '{"id":"AQ","rawId":"AQ","type":"public-key","response":{"clientDataJSON":"e30","authenticatorData":"AA","signature":"AA"}}' \
                >"$corpus/seed-assertion-json"
            ;;
    esac
}

failed=()
summary=()
for target in "${targets[@]}"; do
    corpus="$work/corpus/$target"
    crashes="$work/crashes/$target"
    log="$work/logs/$target.log"
    mkdir -p "$corpus" "$crashes" "$(dirname "$log")"
    seed "$target" "$corpus"
    echo "fuzz: $target for ${seconds} s (log: $log)"
    started=$SECONDS
    status=0
    # Swift's own backtracer would spend up to 30 s symbolicating each crash: libFuzzer and ASan print the stack.
    SWIFT_BACKTRACE=enable=no "$bin/$target" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 \
        -print_final_stats=1 -artifact_prefix="$crashes/" "$corpus" >"$log" 2>&1 || status=$?
    elapsed=$((SECONDS - started))
    stat_of() { sed -n "s/^stat::$1: *//p" "$log"; }
    line="$target: $(stat_of number_of_executed_units) runs in ${elapsed} s, $(stat_of average_exec_per_sec) exec/s,"
    line+=" $(stat_of new_units_added) new units, corpus $(find "$corpus" -type f | wc -l) files, peak RSS $(stat_of peak_rss_mb) MB"
    if (( status != 0 )); then
        line+=" -- FAILED (exit $status)"
        failed+=("$target")
        echo "---- $target: last lines of $log" >&2
        grep -v '^#[0-9]' "$log" | tail -40 >&2
        echo "---- inputs kept in $crashes:" >&2
        ls -1 "$crashes" >&2
    fi
    summary+=("$line")
done

echo "fuzz: results"
printf '  %s\n' "${summary[@]}"
if (( ${#failed[@]} )); then
    echo "fuzz: ${#failed[@]} target(s) failed: ${failed[*]}; replay one input with: $bin/TARGET INPUT" >&2
    exit 1
fi
