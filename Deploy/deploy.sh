#!/usr/bin/env bash
# Packages and deploys the stack in one command:
#   1. Deploy/package.sh (writes out/bootstrap.zip, out/template.yaml, the template pointing at that zip, and
#      out/steps.json, the steps the packaged bootstrap registers); --package-path DIR --product NAME packages a
#      bootstrap of your own; --no-package deploys what Deploy/out holds already
#   2. the code hash secret: an SSM SecureString of `openssl rand -hex 32`, created only when
#      `aws ssm get-parameter` says ParameterNotFound (any other error stops the deployment)
#   3. SES: warns when the sender is not verified, and loudly when the account is in the SES sandbox
#   4. `sam deploy` when the SAM CLI is installed, else `aws cloudformation package` (needs --s3-bucket) and
#      `aws cloudformation deploy`; parameters not given keep their values in an existing stack
#   5. prints the stack's outputs and the try-sign-in.sh command line
# ConfigurationDigest is a digest of the zip's contents (BUILDINFO aside), the template, the parameter
# overrides and the secret parameters' versions (the code hash secret's, and CaptchaSecretParameter's when one is
# given): whenever one of them changes, a new function version is published and `live` moves to it; a deployment
# with nothing changed publishes nothing.
set -euo pipefail

deploy_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=common.sh
source "$deploy_dir/common.sh"
default_secret_parameter=/cognito-challenge/code-hash-secret
zip=$deploy_dir/out/bootstrap.zip
zip_template=$deploy_dir/out/template.yaml
zip_steps=$deploy_dir/out/steps.json

usage() {
    cat <<EOF
usage: $0 --stack NAME --sender ADDRESS [--region REGION] [--flow FLOW] [--tier TIER]
          [--s3-bucket BUCKET] [--secret-parameter NAME] [--secret-kms-key ARN] [--parameter KEY=VALUE]...
          [--package-path DIR --product NAME | --no-package]

  --stack NAME              the CloudFormation stack to create or update
  --sender ADDRESS          the From address of code emails, verified in SES (SenderAddress)
  --region REGION           the Region (default: AWS_REGION, AWS_DEFAULT_REGION or the aws CLI's configuration)
  --flow FLOW               $(template_allowed_values "$deploy_dir/template.yaml" ChallengeFlow | paste -sd, - | sed 's/,/, /g') (ChallengeFlow);
                            with a bootstrap of your own also its steps joined by '+' (srp+totp), checked
                            against the steps it registers (out/steps.json)
  --tier TIER               $(template_allowed_values "$deploy_dir/template.yaml" UserPoolTier | paste -sd, - | sed 's/,/, /g') (UserPoolTier)
  --s3-bucket BUCKET        where the zip is uploaded; required without the SAM CLI (sam uses --resolve-s3)
  --secret-parameter NAME   the SSM SecureString with the code hash secret, created when missing (default: the
                            stack's current value, else $default_secret_parameter)
  --secret-kms-key ARN      a customer managed KMS key for that SecureString (SecretKmsKeyArn; default aws/ssm)
  --parameter KEY=VALUE     any other template parameter, e.g. SesRegion=eu-west-1 or DeletionProtection=INACTIVE
  --package-path DIR        package the bootstrap of another package (one calling CognitoTriggerFunction.run(steps:),
  --product NAME            like Examples/TOTPStep with totp-bootstrap): Deploy/package.sh --package-path --product
  --no-package              skip Deploy/package.sh: deploy out/bootstrap.zip and out/template.yaml as they are
Parameters not given keep their current values when the stack exists (else the template's defaults).
EOF
}

stack='' sender='' region='' flow='' tier='' bucket='' secret_parameter='' kms_key='' package_path='' product=''
extra=()
run_package=1
while (($#)); do
    case $1 in
        --stack | --sender | --region | --flow | --tier | --s3-bucket | --secret-parameter | --secret-kms-key | --parameter \
            | --package-path | --product)
            [[ $# -ge 2 && -n $2 ]] || { usage >&2; die "$1 needs a value"; }
            case $1 in
                --stack) stack=$2 ;;
                --sender) sender=$2 ;;
                --region) region=$2 ;;
                --flow) flow=$2 ;;
                --tier) tier=$2 ;;
                --s3-bucket) bucket=$2 ;;
                --secret-parameter) secret_parameter=$2 ;;
                --secret-kms-key) kms_key=$2 ;;
                --package-path) package_path=$2 ;;
                --product) product=$2 ;;
                --parameter)
                    [[ $2 == [A-Za-z]*=* ]] || die "--parameter needs KEY=VALUE, not $2"
                    extra+=("$2")
                    ;;
            esac
            shift 2
            ;;
        --no-package) run_package=0; shift ;;
        -h | --help) usage; exit 0 ;;
        *) usage >&2; die "unknown argument: $1" ;;
    esac
done
[[ -n $stack && -n $sender ]] || { usage >&2; die "--stack and --sender are required"; }
[[ $sender == ?*@?*.?* ]] || die "--sender $sender is not an email address"
[[ -z $package_path && -z $product || -n $package_path && -n $product ]] || die "--package-path and --product go together"
((run_package)) || [[ -z $package_path ]] || die "--package-path packages a bootstrap; --no-package deploys the one packaged"
# Checked against the template's own AllowedValues, so that the two cannot drift apart.
allowed() { [[ -z $2 ]] || template_allowed_values "$deploy_dir/template.yaml" "$1" | grep -qxF -- "$2"; }
# A bootstrap of your own registers steps of its own, and its out/template.yaml (package.sh writes it) takes any flow
# written in steps: the flow is checked against what that bootstrap says it registers (out/steps.json) instead.
custom_bootstrap=0
[[ -n $package_path ]] && custom_bootstrap=1
if ((!run_package)) && [[ -f $zip_template && -z $(template_allowed_values "$zip_template" ChallengeFlow) ]]; then
    custom_bootstrap=1
fi
check_flow_against_bootstrap() {
    [[ -n $flow ]] || return 0
    [[ -f $zip_steps ]] || die "$zip_steps not found: package the bootstrap again (Deploy/package.sh)"
    local reason
    reason=$(python3 "$deploy_dir/flows.py" check "$zip_steps" "$flow") || die "$reason"
}
if ((!custom_bootstrap)); then
    allowed ChallengeFlow "$flow" || die "--flow $flow is not a flow the template offers: $(template_allowed_values "$deploy_dir/template.yaml" ChallengeFlow | paste -sd' ' -)"
elif ((!run_package)); then
    check_flow_against_bootstrap
fi
allowed UserPoolTier "$tier" || die "--tier must be one of: $(template_allowed_values "$deploy_dir/template.yaml" UserPoolTier | paste -sd' ' -)"

command -v aws >/dev/null || die "the aws CLI is not on PATH"
region=${region:-${AWS_REGION:-${AWS_DEFAULT_REGION:-$(aws configure get region 2>/dev/null || true)}}}
[[ -n $region ]] || die "no Region: give --region or configure one (aws configure set region REGION)"
use_sam=0
command -v sam >/dev/null && use_sam=1
((use_sam)) || [[ -n $bucket ]] || die "without the SAM CLI, --s3-bucket is required (aws cloudformation package uploads the zip there)"

error_file=$(mktemp "${TMPDIR:-/tmp}/deploy.XXXXXX")
secret_dir=''
trap 'rm -f "$error_file"; if [[ -n $secret_dir ]]; then rm -rf "$secret_dir"; fi' EXIT
# Every aws call: this Region, errors kept in $error_file for the message.
in_region() { "$@" --region "$region" 2>"$error_file"; }
aws_error() { tr -s '\n' ' ' <"$error_file"; }
# The value of KEY in the --parameter list, or '' when it is not there.
extra_value() {
    local item
    for item in "${extra[@]}"; do
        [[ ${item%%=*} == "$1" ]] && { echo "${item#*=}"; return; }
    done
    return 0
}
loud() {
    local line
    echo >&2
    echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!" >&2
    for line in "$@"; do echo "!!! $line" >&2; done
    echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!" >&2
    echo >&2
}

account=$(in_region aws sts get-caller-identity --query Account --output text) \
    || die "no usable AWS credentials: $(aws_error)"
log "account $account, Region $region, stack $stack, $( ((use_sam)) && echo "sam deploy" || echo "aws cloudformation deploy")"

# 1. the zip
if ((run_package)); then "$deploy_dir/package.sh" ${package_path:+--package-path "$package_path" --product "$product"}; fi
[[ -f $zip && -f $zip_template ]] || die "package.sh did not write $zip and $zip_template"
((custom_bootstrap && run_package)) && check_flow_against_bootstrap

# 2. the secret. Without --secret-parameter an existing stack keeps the parameter it has.
stack_exists=0
if in_region aws cloudformation describe-stacks --stack-name "$stack" >/dev/null; then
    stack_exists=1
elif ! grep -q 'does not exist' "$error_file"; then
    die "cannot describe stack $stack: $(aws_error)"
fi
if [[ -z $secret_parameter ]] && ((stack_exists)); then
    secret_parameter=$(in_region aws cloudformation describe-stacks --stack-name "$stack" --output text \
        --query "Stacks[0].Parameters[?ParameterKey=='CodeHashSecretParameter'].ParameterValue | [0]") \
        || die "cannot read the stack's parameters: $(aws_error)"
    [[ $secret_parameter == None ]] && secret_parameter=''
fi
secret_parameter=${secret_parameter:-$default_secret_parameter}

if secret_version=$(in_region aws ssm get-parameter --name "$secret_parameter" --query Parameter.Version --output text); then
    log "the secret $secret_parameter exists (version $secret_version); leaving it as it is"
elif grep -q ParameterNotFound "$error_file"; then
    log "creating the SecureString $secret_parameter (openssl rand -hex 32)"
    # The value goes through a private file, never the command line (which other users can see).
    secret_dir=$(mktemp -d "${TMPDIR:-/tmp}/deploy-secret.XXXXXX")
    chmod 700 "$secret_dir"
    (umask 077 && printf '%s' "$(openssl rand -hex 32)" >"$secret_dir/value")
    put=(aws ssm put-parameter --name "$secret_parameter" --type SecureString --value "file://$secret_dir/value"
        --description "cognito-challenge code hash secret (stack $stack)" --query Version --output text)
    [[ -n $kms_key ]] && put+=(--key-id "$kms_key")
    secret_version=$(in_region "${put[@]}") || die "put-parameter $secret_parameter failed: $(aws_error)"
    rm -rf "$secret_dir"
    secret_dir=''
else
    die "cannot read the secret parameter $secret_parameter (nothing created): $(aws_error)"
fi

# The CAPTCHA service's secret key (--parameter CaptchaSecretParameter=NAME) is never created here: it must exist.
captcha_secret_parameter=$(extra_value CaptchaSecretParameter)
captcha_secret_item=''
if [[ -n $captcha_secret_parameter ]]; then
    captcha_secret_version=$(in_region aws ssm get-parameter --name "$captcha_secret_parameter" --query Parameter.Version \
        --output text) || die "cannot read the CAPTCHA secret parameter $captcha_secret_parameter (create it first: see" \
        "Deploy/README.md, 'The CAPTCHA service's secret key'): $(aws_error)"
    log "the CAPTCHA secret $captcha_secret_parameter exists (version $captcha_secret_version)"
    captcha_secret_item="captcha:$captcha_secret_parameter@$captcha_secret_version"
fi

# 3. SES: the sender's identity, and the sandbox
ses_region=$(extra_value SesRegion)
ses_region=${ses_region:-$region}
ses() { aws sesv2 "$@" --region "$ses_region" 2>"$error_file"; }
sender_identity=$(extra_value SenderIdentity)
verified=''
for identity in "$sender" ${sender_identity:+"$sender_identity"} "${sender#*@}"; do
    if [[ $(ses get-email-identity --email-identity "$identity" --query VerifiedForSendingStatus --output text) == True ]]; then
        verified=$identity
        break
    fi
done
if [[ -n $verified ]]; then
    log "SES in $ses_region: $verified is verified for sending"
else
    loud "SES in $ses_region has no verified identity for $sender (neither the address nor ${sender#*@})." \
        "Codes cannot be sent until it is: aws sesv2 create-email-identity --email-identity $sender --region $ses_region" \
        "then click the link SES emails to that address."
fi
sandbox=0
if account_json=$(ses get-account --output json); then
    if grep -qE '"ProductionAccessEnabled": *false' <<<"$account_json"; then sandbox=1; fi
else
    log "warning: cannot read the SES account in $ses_region: $(aws_error)"
fi
sandbox_warning=(
    "The SES account in $ses_region is in the SANDBOX (ProductionAccessEnabled: false)."
    "SES sends only to VERIFIED recipients: every other user gets NO code and cannot sign in."
    "Meanwhile verify each test recipient: aws sesv2 create-email-identity --email-identity ADDRESS --region $ses_region"
    "Request production access: aws sesv2 put-account-details (see Deploy/README.md, 'The SES sandbox')."
)
((sandbox)) && loud "${sandbox_warning[@]}"

# 4. deploy
overrides=("SenderAddress=$sender" "CodeHashSecretParameter=$secret_parameter")
[[ -n $flow ]] && overrides+=("ChallengeFlow=$flow")
[[ -n $tier ]] && overrides+=("UserPoolTier=$tier")
[[ -n $kms_key ]] && overrides+=("SecretKmsKeyArn=$kms_key")
overrides+=("${extra[@]}")
digest=$(python3 - "$zip" "$zip_template" "$secret_parameter@$secret_version" ${captcha_secret_item:+"$captcha_secret_item"} \
    "${overrides[@]}" <<'EOF'
import hashlib, sys, zipfile
zip_path, template, *rest = sys.argv[1:]
digest = hashlib.sha256()
with zipfile.ZipFile(zip_path) as archive:
    for name in sorted(archive.namelist()):
        if name != "BUILDINFO":  # its build time changes with every package run
            digest.update(name.encode() + b"\0" + hashlib.sha256(archive.read(name)).digest())
with open(template, "rb") as handle:
    digest.update(hashlib.sha256(handle.read()).digest())
for item in sorted(rest):
    digest.update(item.encode() + b"\0")
print(digest.hexdigest()[:10])
EOF
)
overrides+=("ConfigurationDigest=$digest")
log "parameter overrides: ${overrides[*]}"

capabilities=(CAPABILITY_IAM CAPABILITY_AUTO_EXPAND)
if ((use_sam)); then
    s3=(--resolve-s3)
    [[ -n $bucket ]] && s3=(--s3-bucket "$bucket" --s3-prefix "$stack")
    sam deploy --template-file "$zip_template" --stack-name "$stack" --region "$region" \
        --capabilities "${capabilities[@]}" "${s3[@]}" --no-confirm-changeset --no-fail-on-empty-changeset \
        --parameter-overrides "${overrides[@]}"
else
    packaged=$deploy_dir/out/packaged.yaml
    aws cloudformation package --template-file "$zip_template" --s3-bucket "$bucket" --s3-prefix "$stack" \
        --output-template-file "$packaged" --region "$region"
    aws cloudformation deploy --template-file "$packaged" --stack-name "$stack" --region "$region" \
        --capabilities "${capabilities[@]}" --no-fail-on-empty-changeset --parameter-overrides "${overrides[@]}"
fi

# 5. the outputs
in_region aws cloudformation describe-stacks --stack-name "$stack" --query 'Stacks[0].Outputs' --output table \
    || die "cannot read the stack's outputs: $(aws_error)"
output() {
    in_region aws cloudformation describe-stacks --stack-name "$stack" --output text \
        --query "Stacks[0].Outputs[?OutputKey=='$1'].OutputValue | [0]"
}
pool=$(output UserPoolId) client=$(output UserPoolClientId)
echo "Try a sign-in (creates the user if needed; the code is emailed to it):"
echo "  $deploy_dir/try-sign-in.sh --pool $pool --client $client --region $region --email YOU@EXAMPLE.COM"
((sandbox)) && loud "${sandbox_warning[@]}"
exit 0
