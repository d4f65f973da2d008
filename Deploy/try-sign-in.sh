#!/usr/bin/env bash
# Signs a test user in through the pool's CUSTOM_AUTH flow, end to end:
#   1. admin-create-user (no invitation email; email and email_verified=true), or reuse the user when it
#      exists, then admin-set-user-password --permanent with a random password, so that the user is
#      CONFIRMED rather than FORCE_CHANGE_PASSWORD
#   2. initiate-auth --auth-flow CUSTOM_AUTH, and print the challenge parameters
#   3. read the answer (the emailed code) from the terminal, or run --code-command, whose stdout is the
#      answer; respond-to-auth-challenge; answer again while Cognito returns another CUSTOM_CHALLENGE
#   4. print whether tokens came back (never the tokens themselves)
# Exits 0 when tokens came back, 1 otherwise. Every aws call gets --endpoint-url when it is given (a local
# Cognito emulator in CI) and --region when it is given.
#
# --code-command CMD runs through bash -c with TRY_SIGN_IN_EMAIL, TRY_SIGN_IN_ROUND (1, 2, ...) and
# TRY_SIGN_IN_CHALLENGE (the challenge parameters as JSON) in its environment.
# The flows that start with SRP (srp-email-code) need an SDK; the aws CLI cannot compute SRP.
set -euo pipefail

deploy_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=common.sh
source "$deploy_dir/common.sh"
max_rounds=5

usage() {
    cat <<EOF
usage: $0 --pool ID --client ID --email ADDRESS [--region REGION] [--endpoint-url URL] [--code-command CMD]

  --pool ID            the user pool (the stack's UserPoolId output)
  --client ID          the app client (the stack's UserPoolClientId output)
  --email ADDRESS      the test user, created when missing; with the SES sandbox it must be a verified address
  --region REGION      the pool's Region (default: AWS_REGION, the aws CLI's configured Region, else the pool id's)
  --endpoint-url URL   send every Cognito call there, e.g. a local Cognito emulator
  --code-command CMD   run CMD (bash -c) for each answer instead of asking on the terminal; its stdout is
                       the answer. It sees TRY_SIGN_IN_EMAIL, TRY_SIGN_IN_ROUND and TRY_SIGN_IN_CHALLENGE.
Exits 0 when the sign-in returned tokens, 1 otherwise.
EOF
}

pool='' client='' email='' region='' endpoint_url='' code_command=''
while (($#)); do
    case $1 in
        --pool | --client | --email | --region | --endpoint-url | --code-command)
            [[ $# -ge 2 && -n $2 ]] || { usage >&2; die "$1 needs a value"; }
            case $1 in
                --pool) pool=$2 ;;
                --client) client=$2 ;;
                --email) email=$2 ;;
                --region) region=$2 ;;
                --endpoint-url) endpoint_url=$2 ;;
                --code-command) code_command=$2 ;;
            esac
            shift 2
            ;;
        -h | --help) usage; exit 0 ;;
        *) usage >&2; die "unknown argument: $1" ;;
    esac
done
[[ -n $pool && -n $client && -n $email ]] || { usage >&2; die "--pool, --client and --email are required"; }
[[ $email == ?*@?*.?* ]] || die "--email $email is not an email address"
command -v aws >/dev/null || die "the aws CLI is not on PATH"
command -v python3 >/dev/null || die "python3 is not on PATH (it reads the CLI's JSON)"
if [[ -z $code_command && ! -r /dev/tty ]]; then
    die "no terminal to read the code from: give --code-command"
fi

# A pool id names its Region (`eu-west-1_AbC123`): the default when none is given or configured, so that the
# script runs on a machine without AWS configuration.
region=${region:-${AWS_REGION:-${AWS_DEFAULT_REGION:-$(aws configure get region 2>/dev/null || true)}}}
[[ -n $region ]] || region=${pool%%_*}
common=(--output json --region "$region")
if [[ -n $endpoint_url ]]; then
    common+=(--endpoint-url "$endpoint_url")
    # A local emulator takes any keys; the CLI still wants some before it sends a request.
    if ! aws configure get aws_access_key_id >/dev/null 2>&1 && [[ -z ${AWS_ACCESS_KEY_ID:-} ]]; then
        export AWS_ACCESS_KEY_ID=local AWS_SECRET_ACCESS_KEY=local
    fi
fi

# Runs `aws cognito-idp ARGS...`; its JSON goes to stdout, its error text to $error_file.
error_file=$(mktemp "${TMPDIR:-/tmp}/try-sign-in.XXXXXX")
trap 'rm -f "$error_file"' EXIT
cognito() { aws cognito-idp "$@" "${common[@]}" 2>"$error_file"; }
aws_error() { tr -s '\n' ' ' <"$error_file"; }

# Prints the value at a dotted path of the JSON on stdin ('' when absent; objects as JSON).
json_get() {
    python3 -c '
import json, sys
value = json.load(sys.stdin)
for key in sys.argv[1].split("."):
    value = value.get(key) if isinstance(value, dict) else None
print("" if value is None else value if isinstance(value, str) else json.dumps(value))
' "$1"
}

log "creating $email in $pool (no invitation email)"
if cognito admin-create-user --user-pool-id "$pool" --username "$email" --message-action SUPPRESS \
    --user-attributes Name=email,Value="$email" Name=email_verified,Value=true >/dev/null; then
    log "created"
elif grep -q UsernameExistsException "$error_file"; then
    log "$email exists already; using it"
else
    die "admin-create-user failed: $(aws_error)"
fi

# Upper case, lower case and digits, to meet the pool's password policy; it is never shown or needed: the
# email-code flows do not ask for it.
password="Aa1-$(openssl rand -hex 16)"
cognito admin-set-user-password --user-pool-id "$pool" --username "$email" --password "$password" --permanent >/dev/null \
    || die "admin-set-user-password failed: $(aws_error)"
log "password set (permanent), so the user is CONFIRMED"

response=$(cognito initiate-auth --client-id "$client" --auth-flow CUSTOM_AUTH --auth-parameters USERNAME="$email") \
    || { log "initiate-auth failed: $(aws_error)"; echo "result: no tokens"; exit 1; }

round=0
while :; do
    if [[ -n $(json_get AuthenticationResult.AccessToken <<<"$response") ]]; then
        expires=$(json_get AuthenticationResult.ExpiresIn <<<"$response")
        present=$(python3 -c '
import json, sys
result = json.load(sys.stdin)["AuthenticationResult"]
print(", ".join(name for name in ("IdToken", "AccessToken", "RefreshToken") if result.get(name)))' <<<"$response")
        echo "result: signed in after $round answer(s); tokens: $present (expire in ${expires:-?} s)"
        exit 0
    fi
    challenge=$(json_get ChallengeName <<<"$response")
    if [[ $challenge != CUSTOM_CHALLENGE ]]; then
        echo "result: no tokens; Cognito answered with challenge '${challenge:-none}' rather than CUSTOM_CHALLENGE"
        exit 1
    fi
    round=$((round + 1))
    if ((round > max_rounds)); then
        echo "result: no tokens after $max_rounds answers"
        exit 1
    fi
    session=$(json_get Session <<<"$response")
    parameters=$(json_get ChallengeParameters <<<"$response")
    echo "challenge $round: CUSTOM_CHALLENGE"
    python3 -c '
import json, sys
for name, value in sorted(json.load(sys.stdin).items()):
    print(f"  {name}: {value}")' <<<"${parameters:-{\}}"

    if [[ -n $code_command ]]; then
        answer=$(TRY_SIGN_IN_EMAIL=$email TRY_SIGN_IN_ROUND=$round TRY_SIGN_IN_CHALLENGE=${parameters:-{\}} \
            bash -c "$code_command") || die "--code-command failed (exit status $?)"
        answer=$(tr -d '[:space:]' <<<"$answer")
    else
        read -r -p "answer (the code from the email): " answer </dev/tty
    fi
    [[ -n $answer ]] || die "empty answer"

    responses=$(python3 -c 'import json, sys; print(json.dumps({"USERNAME": sys.argv[1], "ANSWER": sys.argv[2]}))' \
        "$email" "$answer")
    if ! response=$(cognito respond-to-auth-challenge --client-id "$client" --challenge-name CUSTOM_CHALLENGE \
        --session "$session" --challenge-responses "$responses"); then
        echo "result: no tokens; respond-to-auth-challenge failed: $(aws_error)"
        exit 1
    fi
done
