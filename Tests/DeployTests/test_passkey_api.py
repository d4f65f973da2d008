"""Deploy/template.yaml's passkey registration API: an HTTP API behind a Cognito JWT authorizer, routed to the `live`
alias of the trigger function, CORS for the allowed origins, invocable by API Gateway for this API only, all of it
only when PasskeyRpId is set; and Deploy/sam-translate.py, which checks the same on the translation, refuses a
template that weakens it.

Run: python3 -m pytest -q Tests/DeployTests
"""
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
DEPLOY = REPO / "Deploy"
sys.path.insert(0, str(DEPLOY))
from cfn_template import TemplateLoader  # noqa: E402

TEXT = (DEPLOY / "template.yaml").read_text(encoding="utf-8")
TEMPLATE = yaml.load(TEXT, Loader=TemplateLoader)
RESOURCES = TEMPLATE["Resources"]
ROUTES = ["POST /passkeys/registration/options", "POST /passkeys/registration", "GET /passkeys",
          "PATCH /passkeys/{id}", "DELETE /passkeys/{id}"]
CONDITION = "PasskeysEnabled"


def of_type(kind):
    return {logical_id: resource for logical_id, resource in RESOURCES.items() if resource["Type"] == kind}


def only(kind):
    found = of_type(kind)
    assert len(found) == 1, f"expected one {kind}, found {sorted(found)}"
    return next(iter(found.items()))


def test_the_condition_is_a_non_empty_relying_party():
    assert TEMPLATE["Conditions"][CONDITION] == {"Fn::Not": [{"Fn::Equals": [{"Ref": "PasskeyRpId"}, ""]}]}
    parameters = TEMPLATE["Parameters"]
    assert parameters["PasskeyRpId"]["Default"] == ""
    assert parameters["PasskeyAttestation"]["AllowedValues"] == ["none", "direct"]
    assert parameters["PasskeyAttestation"]["Default"] == "none"


def test_every_api_resource_and_the_output_exist_only_with_passkeys():
    api_resources = [logical_id for logical_id, resource in RESOURCES.items()
                     if resource["Type"].startswith("AWS::ApiGatewayV2::")]
    assert len(api_resources) == 1 + 1 + 1 + len(ROUTES) + 1  # API, authorizer, integration, routes, stage
    api_resources.append(api_permission()[0])
    for logical_id in api_resources:
        assert RESOURCES[logical_id].get("Condition") == CONDITION, f"{logical_id} is created without passkeys"
    assert TEMPLATE["Outputs"]["PasskeyApiUrl"] == {
        "Condition": CONDITION, "Description": TEMPLATE["Outputs"]["PasskeyApiUrl"]["Description"],
        "Value": {"Fn::GetAtt": [only("AWS::ApiGatewayV2::Api")[0], "ApiEndpoint"]}}


@pytest.mark.parametrize("variable,parameter", [
    ("PASSKEY_RP_ID", "PasskeyRpId"), ("PASSKEY_RP_NAME", "PasskeyRpName"),
    ("PASSKEY_ALLOWED_ORIGINS", "PasskeyAllowedOrigins"), ("PASSKEY_ATTESTATION", "PasskeyAttestation")])
def test_the_function_gets_each_setting_only_with_passkeys(variable, parameter):
    variables = RESOURCES["ChallengeFunction"]["Properties"]["Environment"]["Variables"]
    assert variables[variable] == {"Fn::If": [CONDITION, {"Ref": parameter}, {"Ref": "AWS::NoValue"}]}


def test_the_attestation_roots_are_set_only_when_named_with_passkeys():
    assert TEMPLATE["Parameters"]["PasskeyAttestationRoots"]["Default"] == ""
    assert TEMPLATE["Conditions"]["HasPasskeyAttestationRoots"] == {"Fn::And": [
        {"Condition": CONDITION}, {"Fn::Not": [{"Fn::Equals": [{"Ref": "PasskeyAttestationRoots"}, ""]}]}]}
    variables = RESOURCES["ChallengeFunction"]["Properties"]["Environment"]["Variables"]
    assert variables["PASSKEY_ATTESTATION_ROOTS"] == {
        "Fn::If": ["HasPasskeyAttestationRoots", {"Ref": "PasskeyAttestationRoots"}, {"Ref": "AWS::NoValue"}]}


def test_the_api_is_http_with_cors_for_exactly_the_allowed_origins():
    _, api = only("AWS::ApiGatewayV2::Api")
    properties = api["Properties"]
    assert properties["ProtocolType"] == "HTTP"
    cors = properties["CorsConfiguration"]
    assert cors["AllowOrigins"] == {"Fn::Split": [",", {"Ref": "PasskeyAllowedOrigins"}]}
    assert sorted(cors["AllowMethods"]) == sorted(["GET", "POST", "PATCH", "DELETE", "OPTIONS"])
    assert sorted(header.lower() for header in cors["AllowHeaders"]) == ["authorization", "content-type"]
    assert cors.get("AllowCredentials") is not True, "the token travels in a header, never in cookies"


def test_the_authorizer_takes_access_tokens_of_this_pool_and_client():
    _, authorizer = only("AWS::ApiGatewayV2::Authorizer")
    properties = authorizer["Properties"]
    assert properties["AuthorizerType"] == "JWT"
    assert properties["ApiId"] == {"Ref": only("AWS::ApiGatewayV2::Api")[0]}
    assert properties["IdentitySource"] == ["$request.header.Authorization"]
    assert properties["JwtConfiguration"] == {
        "Issuer": {"Fn::Sub": "https://cognito-idp.${AWS::Region}.amazonaws.com/${UserPool}"},
        "Audience": [{"Ref": "UserPoolClient"}],
    }


def test_the_integration_hands_payload_2_to_the_live_alias():
    _, integration = only("AWS::ApiGatewayV2::Integration")
    properties = integration["Properties"]
    assert properties["IntegrationType"] == "AWS_PROXY"
    assert properties["IntegrationUri"] == {"Ref": "ChallengeFunction.Alias"}
    assert properties["PayloadFormatVersion"] == "2.0"
    # The same alias the triggers call.
    assert RESOURCES["UserPool"]["Properties"]["LambdaConfig"]["CreateAuthChallenge"] == {"Ref": "ChallengeFunction.Alias"}


def routes():
    return {resource["Properties"]["RouteKey"]: resource["Properties"]
            for resource in of_type("AWS::ApiGatewayV2::Route").values()}


def test_the_routes_are_exactly_the_five():
    assert sorted(routes()) == sorted(ROUTES)
    assert len(of_type("AWS::ApiGatewayV2::Route")) == len(ROUTES)


@pytest.mark.parametrize("route_key", ROUTES)
def test_each_route_needs_the_jwt_authorizer(route_key):
    route = routes()[route_key]
    assert route["AuthorizationType"] == "JWT"
    assert route["AuthorizerId"] == {"Ref": only("AWS::ApiGatewayV2::Authorizer")[0]}
    # Access tokens only: Cognito's ID tokens carry the client id as `aud` too, but no scope.
    assert route["AuthorizationScopes"] == ["aws.cognito.signin.user.admin"]
    assert route["Target"] == {"Fn::Sub": f"integrations/${{{only('AWS::ApiGatewayV2::Integration')[0]}}}"}


def test_the_default_stage_deploys_itself_and_throttles():
    _, stage = only("AWS::ApiGatewayV2::Stage")
    properties = stage["Properties"]
    assert (properties["StageName"], properties["AutoDeploy"]) == ("$default", True)
    settings = properties["DefaultRouteSettings"]
    assert 0 < settings["ThrottlingRateLimit"] <= settings["ThrottlingBurstLimit"]


def api_permission():
    found = [(logical_id, resource) for logical_id, resource in of_type("AWS::Lambda::Permission").items()
             if resource["Properties"]["Principal"] == "apigateway.amazonaws.com"]
    assert len(found) == 1
    return found[0]


def test_api_gateway_may_invoke_the_alias_for_this_api_only():
    properties = api_permission()[1]["Properties"]
    assert properties["Action"] == "lambda:InvokeFunction"
    assert properties["FunctionName"] == {"Ref": "ChallengeFunction.Alias"}
    assert properties["SourceAccount"] == {"Ref": "AWS::AccountId"}
    api_id = only("AWS::ApiGatewayV2::Api")[0]
    assert properties["SourceArn"] == {
        "Fn::Sub": f"arn:${{AWS::Partition}}:execute-api:${{AWS::Region}}:${{AWS::AccountId}}:${{{api_id}}}/*/*/passkeys*"}


def test_the_role_reads_and_writes_single_items_of_the_state_table_only():
    statements = RESOURCES["ChallengeFunction"]["Properties"]["Policies"][0]["Statement"]
    dynamodb = [statement for statement in statements
                if isinstance(statement, dict) and "Action" in statement
                and any(str(action).startswith("dynamodb:") for action in statement["Action"])]
    assert len(dynamodb) == 1
    assert sorted(dynamodb[0]["Action"]) == ["dynamodb:GetItem", "dynamodb:PutItem"]
    assert dynamodb[0]["Resource"] == {"Fn::GetAtt": ["SignInStateTable", "Arn"]}


def test_the_passkey_flows_are_offered_and_need_a_relying_party():
    flows = TEMPLATE["Parameters"]["ChallengeFlow"]["AllowedValues"]
    for flow in ("passkey", "passkey-or-email-code", "srp+passkey"):
        assert flow in flows
    rule = TEMPLATE["Rules"]["PasskeyFlowsNeedARelyingParty"]
    assert {"Fn::Equals": [{"Ref": "ChallengeFlow"}, "srp+passkey"]} in rule["RuleCondition"]["Fn::Or"]
    assert rule["Assertions"][0]["Assert"] == {"Fn::Not": [{"Fn::Equals": [{"Ref": "PasskeyRpId"}, ""]}]}


def sam_translate(text, tmp_path, case=None):
    path = tmp_path / "template.yaml"
    path.write_text(text, encoding="utf-8")
    selection = ["--case", case] if case else []
    return subprocess.run([sys.executable, str(DEPLOY / "sam-translate.py"), *selection, str(path)],
                          capture_output=True, text=True)


needs_translator = pytest.mark.skipif(
    subprocess.run([sys.executable, "-c", "import samtranslator"], capture_output=True).returncode != 0,
    reason="aws-sam-translator is not installed")


@needs_translator
def test_the_translation_holds_the_api_with_passkeys_and_nothing_without(tmp_path):
    result = sam_translate(TEXT, tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    lines = dict(line.split(": ", 1) for line in result.stdout.splitlines())
    assert "passkey API with 5 routes behind the JWT authorizer" in lines["passkeys"]
    assert "passkey API absent" in lines["defaults"]


def replace_once(text, old, new):
    assert text.count(old) == 1, f"{old!r} should appear once in the template"
    return text.replace(old, new)


# name -> (the weakened template, a phrase sam-translate.py's complaint must contain, the parameter set that shows it)
WEAKENED = {
    "a route without the authorizer": (
        replace_once(TEXT, "      RouteKey: GET /passkeys\n      AuthorizationType: JWT\n",
                     "      RouteKey: GET /passkeys\n      AuthorizationType: NONE\n"),
        "GET /passkeys is not behind the JWT authorizer", "passkeys"),
    "a permission for any API": (
        replace_once(TEXT, ":${PasskeyApi}/*/*/passkeys*", ":*/*/*/*"), "API Gateway may invoke for", "passkeys"),
    "a route taking ID tokens": (
        replace_once(TEXT, "      RouteKey: DELETE /passkeys/{id}\n      AuthorizationType: JWT\n      AuthorizerId: !Ref PasskeyApiAuthorizer\n      AuthorizationScopes: [aws.cognito.signin.user.admin]\n",
                     "      RouteKey: DELETE /passkeys/{id}\n      AuthorizationType: JWT\n      AuthorizerId: !Ref PasskeyApiAuthorizer\n"),
        "DELETE /passkeys/{id} is not behind the JWT authorizer", "passkeys"),
    "another audience": (replace_once(TEXT, "Audience: [!Ref UserPoolClient]", "Audience: [any-client]"),
                         "not JWT from", "passkeys"),
    "CORS for every origin": (replace_once(TEXT, 'AllowOrigins: !Split [",", !Ref PasskeyAllowedOrigins]',
                                           'AllowOrigins: ["*"]'), "with CORS origins ['*']", "passkeys"),
    "an API without the condition": (replace_once(TEXT, "    Type: AWS::ApiGatewayV2::Api\n    Condition: PasskeysEnabled\n",
                                                  "    Type: AWS::ApiGatewayV2::Api\n"),
                                     "AWS::ApiGatewayV2::Api is created without PasskeyRpId", "defaults"),
    "DeleteItem on every table": (
        replace_once(TEXT, "Action: [dynamodb:GetItem, dynamodb:PutItem]\n              Resource: !GetAtt SignInStateTable.Arn",
                     "Action: [dynamodb:GetItem, dynamodb:PutItem, dynamodb:DeleteItem]\n              Resource: '*'"),
        "not GetItem and PutItem on the state table", "defaults"),
}


@needs_translator
@pytest.mark.parametrize("name", sorted(WEAKENED))
def test_sam_translate_refuses_a_weakened_api(name, tmp_path):
    text, complaint, case = WEAKENED[name]
    result = sam_translate(text, tmp_path, case)
    assert result.returncode == 1, f"{name}: exit {result.returncode}\n{result.stdout}{result.stderr}"
    assert complaint in result.stdout, result.stdout


@pytest.mark.skipif(shutil.which("cfn-lint") is None, reason="cfn-lint is not installed")
def test_cfn_lint_finds_no_error():
    lint = subprocess.run(["cfn-lint", "--", str(DEPLOY / "template.yaml")], capture_output=True, text=True)
    assert lint.returncode & ~(4 | 8) == 0, lint.stdout
