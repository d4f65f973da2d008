#!/usr/bin/env bash
# The deploy checks CI runs, after Deploy/package.sh:
#   - template.yaml passes cfn-lint with no errors
#   - every app client in template.yaml allows only flows that run the triggers (Deploy/client-flows.py)
#   - the user pool and app client settings that guard the only factor (Deploy/pool-settings.py): case-insensitive
#     user names, email changes verified before they apply, an app client that can neither write email,
#     phone_number or their _verified flags nor read or write custom attributes (a step's secret)
#   - template.yaml translates to CloudFormation with aws-sam-translator, and the translation wires the triggers
#     to the `live` alias and grants exactly the SSM, SES and KMS access it should (Deploy/sam-translate.py)
#   - the zip exists and is at most 8 MiB
#   - bootstrap at its root is an executable x86-64 ELF whose interpreter is the zip's own loader and
#     whose DT_RPATH is /var/task/lib; libcurl and OpenSSL are linked in, not loaded
#   - every library the bootstrap and its libraries need is in the zip's lib/
#   - the zip carries licenses/ (the copyright files of what is linked or shipped) and a complete BUILDINFO
#   - the zip runs in an otherwise empty chroot (Deploy/chroot-smoke.sh; skipped only where chroot is
#     impossible, with a SKIP line)
#   - with --totp-example: Deploy/package.sh packages Examples/TOTPStep's totp-bootstrap (a bootstrap of another
#     package) into Deploy/out/totp-example/, that zip's template (ChallengeFlow written in steps) passes cfn-lint,
#     its steps.json lists totp, and it signs a user in with CHALLENGE_FLOW=totp through Define, Create and Verify
#     in the empty chroot (Deploy/chroot-smoke.sh --sign-in totp). Opt-in: the example's release build costs
#     minutes (Deploy/README.md, "A bootstrap of your own"); .ci/test passes it.
# Prints a PASS, FAIL or SKIP line per check and a closing count; exits 1 if any check failed.
# Usage: Deploy/check.sh [--totp-example] [ZIP]     ZIP defaults to Deploy/out/bootstrap.zip
#        Deploy/check.sh --template-only    only the template's checks (cfn-lint to the SAM translation), no zip
set -euo pipefail

deploy_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=common.sh
source "$deploy_dir/common.sh"
template_only=0 totp_example=0 zip=''
while (($#)); do
    case $1 in
        --template-only) template_only=1 ;;
        --totp-example) totp_example=1 ;;
        -*) echo "usage: $0 [--template-only | [--totp-example] [ZIP]]" >&2; exit 2 ;;
        *) zip=$1 ;;
    esac
    shift
done
zip=${zip:-$deploy_dir/out/bootstrap.zip}
max_zip_bytes=$((8 * 1024 * 1024))
task_lib=/var/task/lib
loader=ld-linux-x86-64.so.2

passed=0 failed=0 skipped=0
pass() { echo "PASS: $*"; passed=$((passed + 1)); }
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }
skip() { echo "SKIP: $*"; skipped=$((skipped + 1)); }
finish() {
    echo "deploy: $passed passed, $failed failed, $skipped skipped"
    ((failed == 0))
}

((template_only)) || install_missing_packages binutils file unzip
if ! command -v cfn-lint >/dev/null; then
    log "installing cfn-lint from PyPI"
    python3 -m pip install --quiet cfn-lint || die "cannot install cfn-lint; install it with pip install cfn-lint"
fi
if ! python3 -c 'import samtranslator' 2>/dev/null; then
    log "installing aws-sam-translator from PyPI"
    python3 -m pip install --quiet aws-sam-translator \
        || die "cannot install aws-sam-translator; install it with pip install aws-sam-translator"
fi

# cfn-lint's exit status is a bit set: 2 errors, 4 warnings, 8 informational findings (1: it failed).
lint_status=0
lint_output=$(cfn-lint -- "$deploy_dir/template.yaml" 2>&1) || lint_status=$?
[[ -n $lint_output ]] && echo "$lint_output"
if ((lint_status & ~(4 | 8))); then
    fail "cfn-lint reports errors in template.yaml (exit status $lint_status)"
elif ((lint_status & 4)); then
    pass "cfn-lint: template.yaml has no errors (warnings above)"
else
    pass "cfn-lint: template.yaml has no errors or warnings"
fi

client_flows_status=0
client_flows=$(python3 "$deploy_dir/client-flows.py" "$deploy_dir/template.yaml" 2>&1) || client_flows_status=$?
if ((client_flows_status == 0)); then
    pass "app client flows all run the triggers: $client_flows"
else
    fail "an app client lets users sign in without the triggers: $client_flows"
fi

pool_settings_status=0
pool_settings=$(python3 "$deploy_dir/pool-settings.py" "$deploy_dir/template.yaml" 2>&1) || pool_settings_status=$?
if ((pool_settings_status == 0)); then
    pass "user pool and app client guard the delivery attributes and step secrets: ${pool_settings//$'\n'/; }"
else
    fail "template.yaml leaves the only factor open to a stolen access token:"$'\n'"$pool_settings"
fi

translate_status=0
translation=$(python3 "$deploy_dir/sam-translate.py" "$deploy_dir/template.yaml" 2>&1) || translate_status=$?
if ((translate_status == 0)); then
    pass "template.yaml translates (aws-sam-translator):"$'\n'"$translation"
else
    fail "template.yaml's SAM translation fails or is wrong:"$'\n'"$translation"
fi

if ((template_only)); then
    finish
    exit
fi

if [[ ! -f $zip ]]; then
    fail "$zip not found; build it with Deploy/package.sh"
    finish
    exit
fi

zip_bytes=$(stat -c %s "$zip")
size=$(awk -v bytes="$zip_bytes" 'BEGIN { printf "%d bytes (%.2f MiB)", bytes, bytes / 1048576 }')
if ((zip_bytes <= max_zip_bytes)); then
    pass "zip size $size, limit $((max_zip_bytes / 1048576)) MiB"
else
    fail "zip size $size is over $((max_zip_bytes / 1048576)) MiB"
fi

unpacked=$(mktemp -d "${TMPDIR:-/tmp}/bootstrap-check.XXXXXX")
trap 'rm -rf "$unpacked"' EXIT
unzip -q "$zip" -d "$unpacked"
binary=$unpacked/bootstrap

if [[ ! -f $binary ]]; then
    fail "no bootstrap at the zip's root"
    finish
    exit
fi

kind=$(file -b "$binary")
if [[ -x $binary && $kind == "ELF 64-bit LSB "*"executable, x86-64"* ]]; then
    pass "bootstrap is an executable x86-64 ELF ($kind)"
else
    fail "bootstrap is not an executable x86-64 ELF: $kind, mode $(stat -c %A "$binary")"
fi

interpreter=$(readelf --program-headers "$binary" | sed -n 's/.*Requesting program interpreter: \(.*\)]$/\1/p')
if [[ $interpreter == "$task_lib/$loader" ]]; then
    pass "bootstrap's interpreter is $interpreter"
else
    fail "bootstrap's interpreter is '$interpreter', not $task_lib/$loader"
fi

dynamic=$(readelf --dynamic "$binary")
rpath=$(sed -n 's/.*(RPATH).*\[\(.*\)\]$/\1/p' <<<"$dynamic")
if [[ $rpath == "$task_lib" ]] && ! grep -q '(RUNPATH)' <<<"$dynamic"; then
    pass "bootstrap's DT_RPATH is $task_lib (no DT_RUNPATH)"
else
    fail "bootstrap should have DT_RPATH $task_lib and no DT_RUNPATH: $(grep -E '\((RPATH|RUNPATH)\)' <<<"$dynamic" || echo none)"
fi

if grep -qE 'Shared library: \[lib(curl|ssl|crypto)\.so' <<<"$dynamic"; then
    fail "bootstrap loads libcurl or OpenSSL as shared libraries; they should be linked statically"
else
    pass "libcurl and OpenSSL are linked into bootstrap (no such NEEDED entry)"
fi

# Every NEEDED entry of every ELF in the zip, resolved inside the unpacked tree.
missing=()
for elf in "$binary" "$unpacked"/lib/*; do
    [[ -f $elf ]] || continue
    while read -r needed; do
        [[ -f $unpacked/lib/$needed ]] || missing+=("${elf#"$unpacked"/} needs $needed")
    done < <(readelf --dynamic "$elf" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p')
done
[[ -f $unpacked/lib/$loader ]] || missing+=("the loader lib/$loader")
if ((${#missing[@]} == 0)); then
    pass "every needed library is in lib/: $(cd "$unpacked/lib" && echo *)"
else
    fail "missing from lib/: ${missing[*]}"
fi

# The notices of what the zip ships or links (Deploy/package.sh writes them).
licenses=(libc6 libstdc++6 libgcc-s1 libssl3 curl)
missing=()
for name in "${licenses[@]}"; do
    [[ -s $unpacked/licenses/$name ]] || missing+=("licenses/$name")
done
if ((${#missing[@]} == 0)); then
    pass "licenses/ holds the copyright files: ${licenses[*]}"
else
    fail "missing or empty in the zip: ${missing[*]}"
fi

buildinfo_keys=(swift glibc openssl curl commit built)
missing=()
for key in "${buildinfo_keys[@]}"; do
    grep -qE "^$key: .+" "$unpacked/BUILDINFO" 2>/dev/null || missing+=("$key")
done
if [[ ! -f $unpacked/BUILDINFO ]]; then
    fail "no BUILDINFO at the zip's root"
elif ((${#missing[@]} == 0)); then
    pass "BUILDINFO: $(grep -E '^(commit|built): ' "$unpacked/BUILDINFO" | paste -sd ';' - | sed 's/;/; /')"
else
    fail "BUILDINFO lacks: ${missing[*]}"
fi

# Runs Deploy/chroot-smoke.sh ("$@") and counts the PASS, FAIL and SKIP lines it prints (one per check it made);
# a failure that printed none counts as one.
chroot_smoke() {
    local status=0 output
    output=$("$deploy_dir/chroot-smoke.sh" "$@") || status=$?
    [[ -n $output ]] && echo "$output"
    passed=$((passed + $(grep -c '^PASS: ' <<<"$output" || true)))
    skipped=$((skipped + $(grep -c '^SKIP: ' <<<"$output" || true)))
    failed=$((failed + $(grep -c '^FAIL: ' <<<"$output" || true)))
    if ((status != 0 && status != 77)) && ! grep -q '^FAIL: ' <<<"$output"; then
        echo "FAIL: Deploy/chroot-smoke.sh $* exited with $status"
        failed=$((failed + 1))
    fi
}
chroot_smoke "$zip"

# A bootstrap of another package, packaged and run as Lambda would.
if ((totp_example)); then
    example_dir=$(dirname "$deploy_dir")/Examples/TOTPStep
    example_out=$deploy_dir/out/totp-example
    example_log=$deploy_dir/work/totp-example-package.log
    mkdir -p "$(dirname "$example_log")"
    started=$SECONDS
    if "$deploy_dir/package.sh" --package-path "$example_dir" --product totp-bootstrap --output-dir "$example_out" \
        >"$example_log" 2>&1; then
        pass "packaged Examples/TOTPStep's totp-bootstrap as bootstrap in $((SECONDS - started)) s:" \
            "$(stat -c %s "$example_out/bootstrap.zip") bytes, steps $(python3 "$deploy_dir/flows.py" steps "$example_out/steps.json")"
        if python3 "$deploy_dir/flows.py" check "$example_out/steps.json" srp+totp >/dev/null; then
            pass "the example's steps.json offers totp (srp+totp is a flow deploy.sh takes)"
        else
            fail "the example's steps.json has no totp step: $(cat "$example_out/steps.json")"
        fi
        example_lint=0
        lint_output=$(cfn-lint -- "$example_out/template.yaml" 2>&1) || example_lint=$?
        if ((example_lint & ~(4 | 8))); then
            fail "cfn-lint reports errors in the example's template.yaml:"$'\n'"$lint_output"
        else
            pass "cfn-lint: the example's template.yaml (ChallengeFlow written in steps) has no errors"
        fi
        chroot_smoke --sign-in totp "$example_out/bootstrap.zip"
    else
        fail "Deploy/package.sh could not package Examples/TOTPStep's totp-bootstrap; the last lines of $example_log:"$'\n'"$(tail -n 25 "$example_log")"
    fi
fi

finish
