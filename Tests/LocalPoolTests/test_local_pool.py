"""`cognito-local pool` against real SDK clients: boto3's cognito-idp client for the JSON protocol, pycognito's
AWSSRP for the SRP math, PyJWT for the tokens. Each sign-in runs the real triggers, in-process or in the built
bootstrap."""
import json
import os
import pathlib
import subprocess
import tempfile
import urllib.error
import urllib.request

import jwt
import pytest
from botocore.exceptions import ClientError
from pycognito import aws_srp

from conftest import CLIENT_ID, POOL_ID

PASSWORD = "Correct-Horse-9"
CATALOG_ANSWERS = {
    entry["imageURL"]: entry["answer"]
    for entry in json.loads((pathlib.Path(__file__).resolve().parents[2] / "Deploy" / "captcha-catalog.json").read_text())
}


def error_of(call, **arguments):
    """The (code, message) of the Cognito error the call answers."""
    with pytest.raises(ClientError) as raised:
        call(**arguments)
    error = raised.value.response["Error"]
    return error["Code"], error["Message"]


def start_custom_auth(pool, user="jane", **parameters):
    return pool.client.initiate_auth(
        AuthFlow="CUSTOM_AUTH", ClientId=CLIENT_ID, AuthParameters={"USERNAME": user, **parameters})


def answer(pool, challenge, text, user="jane"):
    return pool.client.respond_to_auth_challenge(
        ClientId=CLIENT_ID, ChallengeName=challenge["ChallengeName"], Session=challenge["Session"],
        ChallengeResponses={"USERNAME": user, "ANSWER": text})


def srp_start(pool, user="jane", password=PASSWORD):
    """InitiateAuth CUSTOM_AUTH with SRP_A (CHALLENGE_NAME=SRP_A); returns the AWSSRP helper and the answer."""
    srp = aws_srp.AWSSRP(user, password, POOL_ID, CLIENT_ID, client=pool.client)
    parameters = dict(srp.get_auth_params(), CHALLENGE_NAME="SRP_A")
    challenge = pool.client.initiate_auth(AuthFlow="CUSTOM_AUTH", ClientId=CLIENT_ID, AuthParameters=parameters)
    assert challenge["ChallengeName"] == "PASSWORD_VERIFIER"
    assert set(challenge["ChallengeParameters"]) == {"SALT", "SRP_B", "SECRET_BLOCK", "USERNAME", "USER_ID_FOR_SRP"}
    return srp, parameters, challenge


def srp_answer(pool, srp, parameters, challenge):
    return pool.client.respond_to_auth_challenge(
        ClientId=CLIENT_ID, ChallengeName="PASSWORD_VERIFIER", Session=challenge["Session"],
        ChallengeResponses=srp.process_challenge(challenge["ChallengeParameters"], parameters))


def verify_tokens(pool, result, user="jane"):
    """Checks the ID and access tokens against the pool's JWKS with PyJWT; returns the ID token's claims."""
    keys = jwt.PyJWKClient(f"{pool.issuer}/.well-known/jwks.json")
    id_token = result["IdToken"]
    claims = jwt.decode(
        id_token, keys.get_signing_key_from_jwt(id_token).key, algorithms=["RS256"], audience=CLIENT_ID,
        issuer=pool.issuer)
    assert claims["token_use"] == "id" and claims["cognito:username"] == user
    access_token = result["AccessToken"]
    access = jwt.decode(
        access_token, keys.get_signing_key_from_jwt(access_token).key, algorithms=["RS256"], issuer=pool.issuer,
        options={"verify_aud": False})
    assert access["token_use"] == "access" and access["client_id"] == CLIENT_ID and access["username"] == user
    return claims


def test_email_code_sign_in(pools, transport):
    pool = pools(transport)
    challenge = start_custom_auth(pool)
    assert challenge["ChallengeName"] == "CUSTOM_CHALLENGE"
    parameters = challenge["ChallengeParameters"]
    assert parameters["challenge"] == "EMAIL_CODE" and parameters["USERNAME"] == "jane"
    result = answer(pool, challenge, pool.latest_code())
    claims = verify_tokens(pool, result["AuthenticationResult"])
    assert claims["email"] == "jane.doe@example.com" and claims["email_verified"] is True


def test_srp_then_email_code(pools, transport):
    pool = pools(transport, flow="srp-email-code")
    srp, parameters, challenge = srp_start(pool)
    custom = srp_answer(pool, srp, parameters, challenge)
    assert custom["ChallengeName"] == "CUSTOM_CHALLENGE"
    assert custom["ChallengeParameters"]["challenge"] == "EMAIL_CODE"
    result = answer(pool, custom, pool.latest_code())
    verify_tokens(pool, result["AuthenticationResult"])


def test_captcha_then_email_code(pools, transport):
    pool = pools(transport, flow="captcha-email-code")
    captcha = start_custom_auth(pool)
    url = captcha["ChallengeParameters"]["captchaUrl"]
    # The embedded catalog is Deploy/captcha-catalog.json; its image names are opaque, so look the answer up.
    code_step = answer(pool, captcha, CATALOG_ANSWERS[url])
    assert code_step["ChallengeParameters"]["challenge"] == "EMAIL_CODE"
    result = answer(pool, code_step, pool.latest_code())
    verify_tokens(pool, result["AuthenticationResult"])


def test_wrong_password_fails(pools, transport):
    pool = pools(transport, flow="srp-email-code")
    srp, parameters, challenge = srp_start(pool, password="Wrong-Horse-10")
    before = len(pool.codes())
    assert error_of(srp_answer, pool=pool, srp=srp, parameters=parameters, challenge=challenge) == (
        "NotAuthorizedException", "Incorrect username or password.")
    assert len(pool.codes()) == before, "no code is sent after a wrong password"


def test_three_wrong_codes_fail(pools, transport):
    pool = pools(transport, own=True)
    challenge = start_custom_auth(pool)
    right = pool.latest_code()
    wrong = "000000" if right != "000000" else "111111"
    for attempts_left in ("2", "1"):
        challenge = answer(pool, challenge, wrong)
        assert challenge["ChallengeName"] == "CUSTOM_CHALLENGE"
        assert challenge["ChallengeParameters"]["attemptsLeft"] == attempts_left
    assert error_of(answer, pool=pool, challenge=challenge, text=wrong) == (
        "NotAuthorizedException", "Incorrect username or password.")


def test_user_srp_auth_is_refused_by_default(pools):
    pool = pools()
    srp = aws_srp.AWSSRP("jane", PASSWORD, POOL_ID, CLIENT_ID, client=pool.client)
    code, message = error_of(srp.authenticate_user)
    assert code == "InvalidParameterException"
    assert "USER_SRP_AUTH flow not enabled for this client" in message


def test_user_srp_auth_when_allowed(pools):
    pool = pools(args=("--allow-flow", "ALLOW_USER_SRP_AUTH", "--allow-flow", "ALLOW_REFRESH_TOKEN_AUTH"))
    tokens = aws_srp.AWSSRP("jane", PASSWORD, POOL_ID, CLIENT_ID, client=pool.client).authenticate_user()
    verify_tokens(pool, tokens["AuthenticationResult"])
    wrong = aws_srp.AWSSRP("jane", "Not-The-Password-1", POOL_ID, CLIENT_ID, client=pool.client)
    assert error_of(wrong.authenticate_user) == ("NotAuthorizedException", "Incorrect username or password.")
    code, _ = error_of(start_custom_auth, pool=pool)
    assert code == "InvalidParameterException", "CUSTOM_AUTH is off when only other flows are allowed"


def test_a_session_string_works_once(pools, transport):
    pool = pools(transport, own=True)
    challenge = start_custom_auth(pool)
    answer(pool, challenge, "000000" if pool.latest_code() != "000000" else "111111")
    assert error_of(answer, pool=pool, challenge=challenge, text=pool.latest_code()) == (
        "NotAuthorizedException", "Invalid session for the user, session can only be used once.")


def test_a_session_string_expires(pools, clock):
    """The default 3 minutes pass on the pool's clock (libfaketime), not the test's: the sessions expire on the
    monotonic clock, so that one moves too."""
    clock.monotonic = True
    pool = pools(clock=clock)
    challenge = start_custom_auth(pool)
    clock.advance(181)
    assert error_of(answer, pool=pool, challenge=challenge, text=pool.latest_code()) == (
        "NotAuthorizedException", "Invalid session for the user, session is expired.")


def test_refresh_and_revoke(pools):
    pool = pools()
    challenge = start_custom_auth(pool)
    result = answer(pool, challenge, pool.latest_code())["AuthenticationResult"]
    refresh_token = result["RefreshToken"]
    refreshed = pool.client.initiate_auth(
        AuthFlow="REFRESH_TOKEN_AUTH", ClientId=CLIENT_ID, AuthParameters={"REFRESH_TOKEN": refresh_token})
    assert "RefreshToken" not in refreshed["AuthenticationResult"]
    first = verify_tokens(pool, result)
    again = verify_tokens(pool, refreshed["AuthenticationResult"])
    assert again["auth_time"] == first["auth_time"] and again["sub"] == first["sub"]
    access_token = refreshed["AuthenticationResult"]["AccessToken"]
    assert pool.client.get_user(AccessToken=access_token)["Username"] == "jane"

    pool.client.revoke_token(Token=refresh_token, ClientId=CLIENT_ID)
    assert error_of(pool.client.initiate_auth, AuthFlow="REFRESH_TOKEN", ClientId=CLIENT_ID,
                    AuthParameters={"REFRESH_TOKEN": refresh_token}) == (
        "NotAuthorizedException", "Refresh Token has been revoked.")
    assert error_of(pool.client.get_user, AccessToken=access_token) == (
        "NotAuthorizedException", "Access Token has been revoked.")


def test_unknown_user_runs_the_triggers_and_fails(pools, transport):
    pool = pools(transport)
    before = len(pool.codes("nobody"))
    challenge = start_custom_auth(pool, user="nobody")
    assert challenge["ChallengeName"] == "CUSTOM_CHALLENGE", "the pool does not reveal that the user is unknown"
    assert len(pool.codes("nobody")) == before, "no email goes to a user that does not exist"
    for _ in range(2):
        challenge = answer(pool, challenge, "123456", user="nobody")
    assert error_of(answer, pool=pool, challenge=challenge, text="123456", user="nobody") == (
        "NotAuthorizedException", "Incorrect username or password.")


def test_unknown_user_with_srp_fails_at_the_password(pools):
    pool = pools(flow="srp-email-code")
    srp, parameters, challenge = srp_start(pool, user="nobody")
    assert error_of(srp_answer, pool=pool, srp=srp, parameters=parameters, challenge=challenge) == (
        "NotAuthorizedException", "Incorrect username or password.")


def test_admin_created_user_signs_in_with_srp(pools):
    pool = pools(flow="srp-email-code")
    admin = pool.client
    created = admin.admin_create_user(
        UserPoolId=POOL_ID, Username="lee", MessageAction="SUPPRESS",
        UserAttributes=[{"Name": "email", "Value": "lee@example.com"}, {"Name": "email_verified", "Value": "true"}])
    assert created["User"]["UserStatus"] == "FORCE_CHANGE_PASSWORD"
    admin.admin_set_user_password(UserPoolId=POOL_ID, Username="lee", Password="Lee-Strong-Pass-1", Permanent=True)
    assert admin.admin_get_user(UserPoolId=POOL_ID, Username="lee")["UserStatus"] == "CONFIRMED"
    srp, parameters, challenge = srp_start(pool, user="lee", password="Lee-Strong-Pass-1")
    custom = srp_answer(pool, srp, parameters, challenge)
    result = answer(pool, custom, pool.latest_code("lee"), user="lee")
    claims = verify_tokens(pool, result["AuthenticationResult"], user="lee")
    assert claims["email"] == "lee@example.com"
    assert error_of(admin.admin_create_user, UserPoolId=POOL_ID, Username="lee")[0] == "UsernameExistsException"
    assert error_of(admin.admin_set_user_password, UserPoolId=POOL_ID, Username="lee", Password="short",
                    Permanent=True)[0] == "InvalidPasswordException"


def test_sign_up_needs_confirmation(pools):
    pool = pools()
    signed_up = pool.client.sign_up(
        ClientId=CLIENT_ID, Username="sam", Password="Sam-Strong-Pass-1",
        UserAttributes=[{"Name": "email", "Value": "sam@example.com"}])
    assert signed_up["UserConfirmed"] is False
    assert error_of(start_custom_auth, pool=pool, user="sam") == ("UserNotConfirmedException", "User is not confirmed.")
    pool.client.admin_confirm_sign_up(UserPoolId=POOL_ID, Username="sam")
    user = pool.client.admin_get_user(UserPoolId=POOL_ID, Username="sam")
    assert user["UserStatus"] == "CONFIRMED" and user["Enabled"] is True
    assert {"Name": "sub", "Value": signed_up["UserSub"]} in user["UserAttributes"]


def test_a_trigger_error_reaches_the_client(pools, transport):
    # Create cannot deliver the code (the outbox is in a directory that does not exist), so it throws.
    pool = pools(transport, env={"OUTBOX_PATH": "/nonexistent-directory/outbox.jsonl"})
    code, message = error_of(start_custom_auth, pool=pool)
    assert code == "UserLambdaValidationException"
    assert message.startswith("CreateAuthChallenge failed with error ")


def test_protocol_errors(pools):
    pool = pools()
    assert error_of(pool.client.initiate_auth, AuthFlow="CUSTOM_AUTH", ClientId="someone-else",
                    AuthParameters={"USERNAME": "jane"})[0] == "ResourceNotFoundException"
    assert error_of(pool.client.admin_get_user, UserPoolId=POOL_ID, Username="nobody") == (
        "UserNotFoundException", "User does not exist.")
    assert error_of(pool.client.get_user, AccessToken="not-a-token")[0] == "NotAuthorizedException"


def test_admin_initiate_and_respond(pools):
    pool = pools()
    challenge = pool.client.admin_initiate_auth(
        UserPoolId=POOL_ID, ClientId=CLIENT_ID, AuthFlow="CUSTOM_AUTH", AuthParameters={"USERNAME": "jane"})
    result = pool.client.admin_respond_to_auth_challenge(
        UserPoolId=POOL_ID, ClientId=CLIENT_ID, ChallengeName="CUSTOM_CHALLENGE", Session=challenge["Session"],
        ChallengeResponses={"USERNAME": "jane", "ANSWER": pool.latest_code()})
    verify_tokens(pool, result["AuthenticationResult"])
    assert error_of(pool.client.admin_initiate_auth, UserPoolId="us-east-1_Other", ClientId=CLIENT_ID,
                    AuthFlow="CUSTOM_AUTH", AuthParameters={"USERNAME": "jane"})[0] == "ResourceNotFoundException"


ALLOWED_HEADERS = ("content-type, x-amz-target, x-amz-user-agent, authorization, x-amz-date, x-amz-security-token, "
                   "amz-sdk-invocation-id, amz-sdk-request")


def http(url, method="GET", headers=None, body=None):
    """(status, headers) of one request, whatever the status."""
    request = urllib.request.Request(url, method=method, headers=headers or {}, data=body)
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, response.headers
    except urllib.error.HTTPError as error:
        return error.code, error.headers


def preflight(pool, origin, requested="content-type,x-amz-target,x-amz-user-agent,x-evil-header"):
    return http(f"{pool.url}/", "OPTIONS", {
        "Origin": origin, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": requested})


def admin_get_user_from(pool, origin):
    return http(f"{pool.url}/", "POST", {
        "Origin": origin, "Content-Type": "application/x-amz-json-1.1",
        "X-Amz-Target": "AWSCognitoIdentityProviderService.AdminGetUser"},
        json.dumps({"UserPoolId": POOL_ID, "Username": "jane"}).encode())


def test_discovery_and_browser_preflight(pools):
    pool = pools()
    with urllib.request.urlopen(f"{pool.issuer}/.well-known/openid-configuration") as response:
        discovery = json.load(response)
    assert discovery["issuer"] == pool.issuer
    assert discovery["jwks_uri"] == f"{pool.issuer}/.well-known/jwks.json"
    port = pool.url.rsplit(":", 1)[1]
    for own in (f"http://127.0.0.1:{port}", f"http://localhost:{port}"):
        status, headers = preflight(pool, own)
        assert status == 200
        assert headers["Access-Control-Allow-Origin"] == own
        assert headers["Access-Control-Allow-Headers"] == ALLOWED_HEADERS, "a fixed list, not the headers asked for"
        assert headers["Vary"] == "Origin"


def test_other_origins_get_no_cors(pools):
    """By default only the pool's own origin gets CORS headers: a page elsewhere in the developer's browser cannot
    call AdminGetUser or AdminSetUserPassword."""
    pool = pools()
    for origin in ("http://localhost:5173", "https://evil.example", "null"):
        status, headers = preflight(pool, origin)
        assert status == 403
        assert headers["Access-Control-Allow-Origin"] is None
        assert headers["Access-Control-Allow-Headers"] is None
        assert headers["Vary"] == "Origin"
        status, headers = admin_get_user_from(pool, origin)
        assert status == 403, "a POST from another page is not run at all"
        assert headers["Access-Control-Allow-Origin"] is None
        assert headers["Access-Control-Expose-Headers"] is None
        assert headers["Vary"] == "Origin"
    status, headers = http(f"{pool.issuer}/.well-known/jwks.json", headers={"Origin": "https://evil.example"})
    assert status == 200 and headers["Access-Control-Allow-Origin"] is None
    status, headers = http(f"{pool.url}/", "OPTIONS")
    assert status == 403, "an OPTIONS without Origin is no preflight of an allowed page"


def test_allow_origin_names_the_pages(pools):
    pool = pools(args=("--allow-origin", "http://localhost:5173", "--allow-origin", "https://app.example.com"))
    for origin in ("http://localhost:5173", "https://app.example.com"):
        status, headers = preflight(pool, origin)
        assert status == 200
        assert headers["Access-Control-Allow-Origin"] == origin
        assert headers["Access-Control-Allow-Headers"] == ALLOWED_HEADERS
        status, headers = admin_get_user_from(pool, origin)
        assert status == 200
        assert headers["Access-Control-Allow-Origin"] == origin
        assert headers["Access-Control-Expose-Headers"] == "x-amzn-RequestId, x-amzn-ErrorType"
        assert headers["Vary"] == "Origin"
    port = pool.url.rsplit(":", 1)[1]
    for other in ("http://localhost:5174", f"http://localhost:{port}", "https://evil.example"):
        assert preflight(pool, other)[0] == 403, "only the origins named"


@pytest.mark.parametrize("origin", ["*", "localhost:5173", "http://localhost:5173/app"])
def test_allow_origin_must_be_an_origin(origin):
    from conftest import BUILD
    result = subprocess.run([str(BUILD / "cognito-local"), "pool", "--port", "0", "--allow-origin", origin],
                            capture_output=True, text=True, timeout=30)
    assert result.returncode != 0
    assert "--allow-origin" in result.stderr


def test_temporary_password_must_be_changed(pools):
    pool = pools(args=("--allow-flow", "ALLOW_USER_SRP_AUTH", "--allow-flow", "ALLOW_USER_PASSWORD_AUTH"))
    pool.client.admin_create_user(
        UserPoolId=POOL_ID, Username="kim", TemporaryPassword="Temporary-Pass-1", MessageAction="SUPPRESS",
        UserAttributes=[{"Name": "email", "Value": "kim@example.com"}])
    srp = aws_srp.AWSSRP("kim", "Temporary-Pass-1", POOL_ID, CLIENT_ID, client=pool.client)
    changed = srp.set_new_password_challenge("Permanent-Pass-2")
    verify_tokens(pool, changed["AuthenticationResult"], user="kim")
    assert pool.client.admin_get_user(UserPoolId=POOL_ID, Username="kim")["UserStatus"] == "CONFIRMED"
    tokens = pool.client.initiate_auth(
        AuthFlow="USER_PASSWORD_AUTH", ClientId=CLIENT_ID,
        AuthParameters={"USERNAME": "kim@example.com", "PASSWORD": "Permanent-Pass-2"})
    verify_tokens(pool, tokens["AuthenticationResult"], user="kim")
    assert error_of(pool.client.initiate_auth, AuthFlow="USER_PASSWORD_AUTH", ClientId=CLIENT_ID,
                    AuthParameters={"USERNAME": "kim", "PASSWORD": "Temporary-Pass-1"}) == (
        "NotAuthorizedException", "Incorrect username or password.")


def test_deploy_try_sign_in_script(pools):
    """Deploy/try-sign-in.sh, the script that tries a deployed pool, walks a whole sign-in against the local pool:
    a confirmed test user (not FORCE_CHANGE_PASSWORD), CUSTOM_AUTH, the code from the outbox, tokens."""
    pool = pools("in-process")
    root = pathlib.Path(__file__).resolve().parents[2]
    code_command = (f"python3 -c \"import json; print(json.loads(open('{pool.outbox}').read().splitlines()[-1])['code'])\"")
    # As a newcomer runs it: no Region, keys or AWS configuration anywhere (the Region comes from the pool id).
    bare = {name: value for name, value in os.environ.items() if not name.startswith("AWS_")}
    with tempfile.TemporaryDirectory() as home:
        run = subprocess.run(
            [str(root / "Deploy" / "try-sign-in.sh"), "--pool", POOL_ID, "--client", CLIENT_ID, "--email", "tester@example.com",
             "--endpoint-url", pool.url, "--code-command", code_command],
            capture_output=True, text=True, timeout=120, env=dict(bare, HOME=home))
    assert run.returncode == 0, run.stdout + run.stderr
    assert "signed in after 1 answer(s)" in run.stdout
    assert "CONFIRMED" in run.stderr
    user = pool.client.admin_get_user(UserPoolId=POOL_ID, Username="tester@example.com")
    assert user["UserStatus"] == "CONFIRMED"
