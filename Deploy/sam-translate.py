#!/usr/bin/env python3
"""Translates the SAM template to plain CloudFormation with aws-sam-translator (the library behind the
AWS::Serverless transform), for a few sets of parameter values, and checks what the translation must hold:

  - the triggers and Cognito's invoke permission name the `live` alias (an AWS::Lambda::Alias), not the function
  - the environment names the SSM parameter (CODE_HASH_SECRET_PARAMETER), SES_REGION, and
    SES_CONFIGURATION_SET only when one is given; no plaintext CODE_HASH_SECRET
  - the CAPTCHA_* variables appear only when their parameters are given (CAPTCHA_PROVIDER only for a CAPTCHA
    service, not catalog), CAPTCHA_SECRET_PARAMETER names the SSM parameter; no plaintext CAPTCHA_SECRET
  - ssm:GetParameter is allowed on exactly the parameter's ARN (no double slash for a /path name), and on the
    CAPTCHA secret's parameter only when CaptchaSecretParameter is given
  - ses:SendEmail covers the identity in the SES Region, plus the configuration set when one is given
  - kms:Decrypt (through SSM only) appears only with SecretKmsKeyArn
  - sns:Publish (to phone numbers only, no topic) appears exactly for flows with "sms" in their text
  - DynamoDB: GetItem and PutItem on the state table alone
  - the pool's UserPoolTier and DeletionProtection come from the parameters
  - with PasskeyRpId: the PASSKEY_* variables, and the passkey API: an HTTP API with CORS for exactly the allowed
    origins, a JWT authorizer (issuer the pool, audience the app client), the five routes each behind it and
    requiring the access tokens' scope aws.cognito.signin.user.admin, a
    payload 2.0 integration to the `live` alias, a $default stage, API Gateway's invoke permission on the alias for
    this API's /passkeys routes only, and the PasskeyApiUrl output; without PasskeyRpId none of them

Conditions and the intrinsic functions the checks look through (Ref, Fn::If, Fn::Sub, Fn::Select, Fn::Split,
Fn::Equals, Fn::Not) are evaluated here for the given values; references to resources stay as "<Ref X>".

Usage: Deploy/sam-translate.py [--case NAME] [TEMPLATE]      (default: Deploy/template.yaml beside this script)
  --case NAME   only that set of parameter values (defaults, everything set, text messages, passkeys)
Prints one line per parameter set; exits 1 when a check fails, 2 when the template does not translate.
"""
import copy
import logging
import os
import re
import sys

try:
    from samtranslator.public.exceptions import InvalidDocumentException
    from samtranslator.translator.transform import transform
    from samtranslator.yaml_helper import yaml_parse
except ImportError:
    print("aws-sam-translator is not installed: pip install aws-sam-translator", file=sys.stderr)
    sys.exit(2)

REGION = "eu-west-1"
ACCOUNT = "123456789012"
PSEUDO = {"AWS::Region": REGION, "AWS::AccountId": ACCOUNT, "AWS::Partition": "aws", "AWS::StackName": "stack",
          "AWS::URLSuffix": "amazonaws.com"}
NO_VALUE = object()
KMS_KEY = f"arn:aws:kms:{REGION}:{ACCOUNT}:key/1234abcd-12ab-34cd-56ef-1234567890ab"

CASES = {
    "defaults": {"SenderAddress": "no-reply@example.com"},
    "everything set": {
        "SenderAddress": "no-reply@example.com", "SenderIdentity": "example.com", "SesRegion": "us-east-1",
        "SesConfigurationSet": "codes", "CodeHashSecretParameter": "plain-name", "SecretKmsKeyArn": KMS_KEY,
        "UserPoolTier": "ESSENTIALS", "DeletionProtection": "INACTIVE", "ConfigurationDigest": "0123456789abcdef",
        "ChallengeFlow": "captcha-email-code", "CaptchaProvider": "turnstile", "CaptchaSiteKey": "0x4AAAAAAASiteKey",
        "CaptchaAllowedHostnames": "login.example.com,app.example.com", "CaptchaAction": "login",
        "CaptchaSecretParameter": "/cognito-challenge/captcha-secret",
    },
    "text messages": {"SenderAddress": "no-reply@example.com", "ChallengeFlow": "email-or-sms-code"},
    "passkeys": {
        "SenderAddress": "no-reply@example.com", "ChallengeFlow": "passkey-or-email-code", "PasskeyRpId": "example.com",
        "PasskeyRpName": "Example", "PasskeyAllowedOrigins": "https://app.example.com,http://localhost:8080",
        "PasskeyAttestation": "direct", "PasskeyAttestationRoots": "/var/task/attestation-roots.pem",
    },
}

# The passkey settings and the variable each sets, with PasskeyRpId.
PASSKEY_VARIABLES = {
    "PasskeyRpId": "PASSKEY_RP_ID", "PasskeyRpName": "PASSKEY_RP_NAME",
    "PasskeyAllowedOrigins": "PASSKEY_ALLOWED_ORIGINS", "PasskeyAttestation": "PASSKEY_ATTESTATION",
}
PASSKEY_ROUTES = ["POST /passkeys/registration/options", "POST /passkeys/registration", "GET /passkeys",
                  "PATCH /passkeys/{id}", "DELETE /passkeys/{id}"]

# Each CAPTCHA parameter and the variable it sets, when given.
CAPTCHA_VARIABLES = {
    "CaptchaSiteKey": "CAPTCHA_SITE_KEY", "CaptchaAllowedHostnames": "CAPTCHA_ALLOWED_HOSTNAMES",
    "CaptchaAction": "CAPTCHA_ACTION", "CaptchaSecretParameter": "CAPTCHA_SECRET_PARAMETER",
}


class Evaluator:
    def __init__(self, template, values):
        self.values = dict(PSEUDO)
        for name, parameter in template.get("Parameters", {}).items():
            if name in values:
                self.values[name] = values[name]
            elif "Default" in parameter:
                self.values[name] = str(parameter["Default"])
        self.conditions = {}
        self.template_conditions = template.get("Conditions", {})

    def condition(self, name):
        if name not in self.conditions:
            self.conditions[name] = bool(self.eval(self.template_conditions[name]))
        return self.conditions[name]

    def sub(self, text, variables):
        def replace(match):
            key = match.group(1)
            if key in variables:
                return str(variables[key])
            if key in self.values:
                return str(self.values[key])
            return f"<{key}>"
        return re.sub(r"\$\{([^}!]+)\}", replace, text)

    def eval(self, node):
        if isinstance(node, list):
            return [value for value in (self.eval(item) for item in node) if value is not NO_VALUE]
        if not isinstance(node, dict):
            return node
        if len(node) == 1:
            (key, argument), = node.items()
            if key == "Ref":
                if argument == "AWS::NoValue":
                    return NO_VALUE
                return self.values.get(argument, f"<Ref {argument}>")
            if key == "Fn::If":
                return self.eval(argument[1] if self.condition(argument[0]) else argument[2])
            if key == "Fn::Equals":
                return self.eval(argument[0]) == self.eval(argument[1])
            if key == "Fn::Not":
                return not self.eval(argument[0])
            if key == "Fn::And":
                return all(self.eval(item) for item in argument)
            if key == "Fn::Or":
                return any(self.eval(item) for item in argument)
            if key == "Condition":
                return self.condition(argument)
            if key == "Fn::Select":
                return self.eval(argument[1])[int(self.eval(argument[0]))]
            if key == "Fn::Split":
                return self.eval(argument[1]).split(argument[0])
            if key == "Fn::Sub":
                if isinstance(argument, str):
                    return self.sub(argument, {})
                return self.sub(argument[0], {name: self.eval(value) for name, value in argument[1].items()})
            if key == "Fn::GetAtt":
                return f"<GetAtt {'.'.join(argument) if isinstance(argument, list) else argument}>"
        return {key: value for key, value in ((k, self.eval(v)) for k, v in node.items()) if value is not NO_VALUE}


def statements(role):
    for policy in role["Properties"].get("Policies", []):
        yield from policy["PolicyDocument"]["Statement"]


def as_list(value):
    return value if isinstance(value, list) else [value]


def check(name, template, values):
    document = copy.deepcopy(template)
    # `sam deploy` / `aws cloudformation package` replace the local CodeUri with the uploaded object's.
    document["Resources"]["ChallengeFunction"]["Properties"]["CodeUri"] = "s3://bucket/bootstrap.zip"
    try:
        translated = transform(document, values, None)
    except InvalidDocumentException as error:
        print(f"{name}: the template does not translate: {'; '.join(str(cause) for cause in error.causes)}")
        return 2
    evaluator = Evaluator(translated, values)
    # What CloudFormation would create: resources whose condition is false are left out.
    resources = {logical_id: evaluator.eval(resource) for logical_id, resource in translated["Resources"].items()
                 if "Condition" not in resource or evaluator.condition(resource["Condition"])}
    problems = []
    aliases = [logical_id for logical_id, resource in resources.items() if resource["Type"] == "AWS::Lambda::Alias"]
    alias_ref = f"<Ref {aliases[0]}>" if len(aliases) == 1 else None
    if not alias_ref:
        problems.append(f"expected one AWS::Lambda::Alias, found {aliases}")

    pool = resources["UserPool"]["Properties"]
    for trigger in ("DefineAuthChallenge", "CreateAuthChallenge", "VerifyAuthChallengeResponse"):
        if pool["LambdaConfig"].get(trigger) != alias_ref:
            problems.append(f"{trigger} is {pool['LambdaConfig'].get(trigger)}, not the alias")
    permissions = [r["Properties"] for r in resources.values() if r["Type"] == "AWS::Lambda::Permission"]
    passkeys = bool(evaluator.values["PasskeyRpId"])
    if [p["FunctionName"] for p in permissions] != [alias_ref] * (2 if passkeys else 1):
        problems.append(f"the invoke permissions name {[p['FunctionName'] for p in permissions]}, not the alias")
    problems += passkey_problems(resources, evaluator, alias_ref, translated.get("Outputs", {}))
    for key, parameter in (("UserPoolTier", "UserPoolTier"), ("DeletionProtection", "DeletionProtection")):
        if pool.get(key) != evaluator.values[parameter]:
            problems.append(f"the pool's {key} is {pool.get(key)}, not {evaluator.values[parameter]}")

    function = resources["ChallengeFunction"]["Properties"]
    variables = function["Environment"]["Variables"]
    ses_region = evaluator.values["SesRegion"] or REGION
    secret_name = evaluator.values["CodeHashSecretParameter"]
    configuration_set = evaluator.values["SesConfigurationSet"]
    expected_variables = {"SES_REGION": ses_region, "CODE_HASH_SECRET_PARAMETER": secret_name}
    if configuration_set:
        expected_variables["SES_CONFIGURATION_SET"] = configuration_set
    for variable, expected in expected_variables.items():
        if variables.get(variable) != expected:
            problems.append(f"{variable} is {variables.get(variable)!r}, not {expected!r}")
    if not configuration_set and "SES_CONFIGURATION_SET" in variables:
        problems.append("SES_CONFIGURATION_SET is set with no configuration set given")
    if "CODE_HASH_SECRET" in variables:
        problems.append("the environment holds a plaintext CODE_HASH_SECRET")
    provider = evaluator.values["CaptchaProvider"]
    captcha_expected = {variable: evaluator.values[parameter] for parameter, variable in CAPTCHA_VARIABLES.items()
                        if evaluator.values[parameter]}
    if provider != "catalog":
        captcha_expected["CAPTCHA_PROVIDER"] = provider
    captcha_found = {variable: value for variable, value in variables.items()
                     if variable.startswith("CAPTCHA_") and variable != "CAPTCHA_CATALOG"}
    if captcha_found != captcha_expected:
        problems.append(f"the CAPTCHA variables are {captcha_found}, not {captcha_expected}")

    passkey_expected = {variable: evaluator.values[parameter] for parameter, variable in PASSKEY_VARIABLES.items()
                        if passkeys}
    if passkeys and evaluator.values.get("PasskeyAttestationRoots"):
        passkey_expected["PASSKEY_ATTESTATION_ROOTS"] = evaluator.values["PasskeyAttestationRoots"]
    passkey_found = {variable: value for variable, value in variables.items() if variable.startswith("PASSKEY_")}
    if passkey_found != passkey_expected:
        problems.append(f"the PASSKEY variables are {passkey_found}, not {passkey_expected}")

    role = resources[function["Role"].removeprefix("<GetAtt ").removesuffix(".Arn>")]
    by_action = {}
    for statement in statements(role):
        for action in as_list(statement["Action"]):
            by_action.setdefault(action, []).append(statement)
    secret_arn = f"arn:aws:ssm:{REGION}:{ACCOUNT}:parameter/{secret_name.lstrip('/')}"
    expected_ssm = [[secret_arn]]
    captcha_secret = evaluator.values["CaptchaSecretParameter"]
    if captcha_secret:
        expected_ssm.append([f"arn:aws:ssm:{REGION}:{ACCOUNT}:parameter/{captcha_secret.lstrip('/')}"])
    ssm = by_action.get("ssm:GetParameter", [])
    if [as_list(s["Resource"]) for s in ssm] != expected_ssm:
        problems.append(f"ssm:GetParameter is on {[s['Resource'] for s in ssm]}, not exactly {expected_ssm}")
    identity = evaluator.values["SenderIdentity"] or evaluator.values["SenderAddress"]
    expected_ses = [f"arn:aws:ses:{ses_region}:{ACCOUNT}:identity/{identity}"]
    if configuration_set:
        expected_ses.append(f"arn:aws:ses:{ses_region}:{ACCOUNT}:configuration-set/{configuration_set}")
    ses = by_action.get("ses:SendEmail", [])
    if [as_list(s["Resource"]) for s in ses] != [expected_ses]:
        problems.append(f"ses:SendEmail is on {[s['Resource'] for s in ses]}, not {expected_ses}")
    kms = by_action.get("kms:Decrypt", [])
    key = evaluator.values["SecretKmsKeyArn"]
    expected_kms = [{"Resource": key, "Via": f"ssm.{REGION}.amazonaws.com"}] if key else []
    found_kms = [{"Resource": s["Resource"], "Via": s.get("Condition", {}).get("StringEquals", {}).get("kms:ViaService")}
                 for s in kms]
    if found_kms != expected_kms:
        problems.append(f"kms:Decrypt statements are {found_kms}, expected {expected_kms}")

    sns = [s.get("NotResource") for s in by_action.get("sns:Publish", [])]
    texts = "sms" in evaluator.values["ChallengeFlow"]
    if sns != (["arn:aws:sns:*:*:*"] if texts else []):
        problems.append(f"sns:Publish statements (NotResource) are {sns} for {evaluator.values['ChallengeFlow']}")
    dynamodb = sorted((action, str(s["Resource"])) for action, found in by_action.items()
                      if action.startswith("dynamodb:") for s in found)
    if dynamodb != [("dynamodb:GetItem", "<GetAtt SignInStateTable.Arn>"), ("dynamodb:PutItem", "<GetAtt SignInStateTable.Arn>")]:
        problems.append(f"the DynamoDB grants are {dynamodb}, not GetItem and PutItem on the state table")

    version = [logical_id for logical_id, r in resources.items() if r["Type"] == "AWS::Lambda::Version"]
    digest = evaluator.values["ConfigurationDigest"]
    if digest and version != [f"ChallengeFunctionVersion{digest[:10]}"]:
        problems.append(f"the version is {version}, not named after ConfigurationDigest {digest[:10]}")

    if problems:
        print(f"{name}: " + "; ".join(problems))
        return 1
    print(f"{name}: translates; triggers and permission on {aliases[0]}, "
          f"passkey API {'with ' + str(len(PASSKEY_ROUTES)) + ' routes behind the JWT authorizer' if passkeys else 'absent'}, "
          f"GetParameter on {', '.join(arn for arns in expected_ssm for arn in arns)}, CAPTCHA by {provider}, "
          f"SendEmail on {len(expected_ses)} resource(s) in {ses_region}, kms:Decrypt {'granted' if key else 'not needed'}")
    return 0


def passkey_problems(resources, evaluator, alias_ref, outputs):
    """What is wrong with the passkey API in the translated RESOURCES (present exactly with PasskeyRpId)."""
    by_type = {}
    for logical_id, resource in resources.items():
        by_type.setdefault(resource["Type"], []).append((logical_id, resource["Properties"]))
    api_types = [kind for kind in by_type if kind.startswith("AWS::ApiGatewayV2::")]
    output = outputs.get("PasskeyApiUrl", {})
    output_present = "Condition" not in output or evaluator.condition(output["Condition"])
    if not evaluator.values["PasskeyRpId"]:
        problems = [f"{kind} is created without PasskeyRpId" for kind in api_types]
        return problems + (["the PasskeyApiUrl output is there without PasskeyRpId"] if output_present else [])
    problems = []
    if not output_present:
        problems.append("no PasskeyApiUrl output")
    (api_id, api), = by_type.get("AWS::ApiGatewayV2::Api", [(None, {})])
    cors = api.get("CorsConfiguration", {})
    origins = evaluator.values["PasskeyAllowedOrigins"].split(",")
    if api.get("ProtocolType") != "HTTP" or cors.get("AllowOrigins") != origins:
        problems.append(f"the API is {api.get('ProtocolType')} with CORS origins {cors.get('AllowOrigins')}, not HTTP with {origins}")
    (authorizer_id, authorizer), = by_type.get("AWS::ApiGatewayV2::Authorizer", [(None, {})])
    jwt = authorizer.get("JwtConfiguration", {})
    issuer = f"https://cognito-idp.{REGION}.amazonaws.com/<UserPool>"
    if (authorizer.get("AuthorizerType"), jwt.get("Issuer"), jwt.get("Audience")) != ("JWT", issuer, ["<Ref UserPoolClient>"]):
        problems.append(f"the authorizer is {authorizer.get('AuthorizerType')} {jwt}, not JWT from {issuer} for the app client")
    (integration_id, integration), = by_type.get("AWS::ApiGatewayV2::Integration", [(None, {})])
    if (integration.get("IntegrationUri"), integration.get("PayloadFormatVersion")) != (alias_ref, "2.0"):
        problems.append(f"the integration calls {integration.get('IntegrationUri')} with payload "
                        f"{integration.get('PayloadFormatVersion')}, not the alias with 2.0")
    routes = {route["RouteKey"]: route for _, route in by_type.get("AWS::ApiGatewayV2::Route", [])}
    if sorted(routes) != sorted(PASSKEY_ROUTES):
        problems.append(f"the routes are {sorted(routes)}, not {sorted(PASSKEY_ROUTES)}")
    for key, route in routes.items():
        if (route.get("AuthorizationType"), route.get("AuthorizerId"), route.get("AuthorizationScopes"),
                route.get("Target")) != ("JWT", f"<Ref {authorizer_id}>", ["aws.cognito.signin.user.admin"],
                                         f"integrations/<{integration_id}>"):
            problems.append(f"{key} is not behind the JWT authorizer, to the integration: {route}")
    stages = [stage for _, stage in by_type.get("AWS::ApiGatewayV2::Stage", [])]
    if [(s.get("StageName"), s.get("AutoDeploy")) for s in stages] != [("$default", True)]:
        problems.append(f"the stages are {stages}, not one auto-deployed $default")
    source = f"arn:aws:execute-api:{REGION}:{ACCOUNT}:<{api_id}>/*/*/passkeys*"
    granted = [p.get("SourceArn") for _, p in by_type.get("AWS::Lambda::Permission", [])
               if p.get("Principal") == "apigateway.amazonaws.com"]
    if granted != [source]:
        problems.append(f"API Gateway may invoke for {granted}, not exactly {source}")
    return problems


def main():
    arguments = sys.argv[1:]
    cases = CASES
    if arguments[:1] == ["--case"]:
        if len(arguments) < 2 or arguments[1] not in CASES:
            print(f"--case needs one of: {', '.join(CASES)}", file=sys.stderr)
            return 2
        cases = {arguments[1]: CASES[arguments[1]]}
        arguments = arguments[2:]
    path = arguments[0] if arguments else os.path.join(os.path.dirname(os.path.abspath(__file__)), "template.yaml")
    os.environ.setdefault("AWS_DEFAULT_REGION", REGION)  # the translator wants a Region for ARNs
    logging.getLogger("samtranslator").setLevel(logging.ERROR)  # not its "unpublished metrics" warning
    with open(path, encoding="utf-8") as handle:
        template = yaml_parse(handle.read())
    return max(check(name, template, values) for name, values in cases.items())


if __name__ == "__main__":
    sys.exit(main())
