"""A step of your own through `cognito-local pool`: the TOTP example's bootstrap (Examples/TOTPStep) drives the
triggers, its user's secret comes from the users table's `attributes`, and boto3 answers with a TOTP computed here
(RFC 6238: HMAC-SHA1, 30-second steps, 6 digits). Also the pool's attribute rules: the app client's WriteAttributes
and ReadAttributes from Deploy/template.yaml, attributes kept by the admin and user operations, and case-insensitive
user names."""
import base64
import hashlib
import hmac
import json
import os
import pathlib
import struct
import subprocess
import tempfile
import time

import jwt
import pytest
from botocore.exceptions import ClientError

from conftest import BUILD, CLIENT_ID, POOL_ID, ROOT

EXAMPLE = ROOT / "Examples" / "TOTPStep"
SECRET = "JBSWY3DPEHPK3PXP"
OTHER_SECRET = "KRSXG5CTMVRXEZLU"


def totp_bootstrap():
    """The example's built bootstrap (TOTP_BOOTSTRAP, or Examples/TOTPStep's debug build), or None."""
    if "TOTP_BOOTSTRAP" in os.environ:
        path = pathlib.Path(os.environ["TOTP_BOOTSTRAP"])
        return path if path.exists() else None
    try:
        bin_path = subprocess.run(
            ["swift", "build", "--package-path", str(EXAMPLE), "--show-bin-path"], capture_output=True, text=True,
            timeout=120, check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        bin_path = str(EXAMPLE / ".build" / "debug")
    path = pathlib.Path(bin_path) / "totp-bootstrap"
    return path if path.exists() else None


BOOTSTRAP = totp_bootstrap()
pytestmark = pytest.mark.skipif(
    BOOTSTRAP is None,
    reason="the TOTP example's bootstrap is not built: swift build --package-path Examples/TOTPStep --product totp-bootstrap")


def totp(secret, at=None, digits=6, period=30):
    """RFC 6238 with HMAC-SHA1."""
    key = base64.b32decode(secret + "=" * (-len(secret) % 8))
    counter = int((time.time() if at is None else at) // period)
    mac = hmac.new(key, struct.pack(">Q", counter), hashlib.sha1).digest()
    offset = mac[-1] & 0x0F
    value = struct.unpack(">I", mac[offset:offset + 4])[0] & 0x7FFFFFFF
    return str(value % 10 ** digits).zfill(digits)


def error_of(call, **arguments):
    with pytest.raises(ClientError) as raised:
        call(**arguments)
    error = raised.value.response["Error"]
    return error["Code"], error["Message"]


@pytest.fixture(scope="module")
def users_file():
    directory = tempfile.TemporaryDirectory(prefix="own-steps-")
    path = pathlib.Path(directory.name) / "users.json"
    path.write_text(json.dumps([
        {"userName": "jane", "password": "Correct-Horse-9", "email": "jane.doe@example.com",
         "attributes": {"custom:totp_secret": SECRET, "name": "Jane Doe"}},
        {"userName": "kim", "password": "Correct-Horse-9", "email": "kim@example.com",
         "attributes": {"custom:totp_secret": SECRET}},
        {"userName": "Alice", "password": "Correct-Horse-9", "email": "alice@example.com",
         "attributes": {"custom:totp_secret": OTHER_SECRET, "email_verified": "false"}},
    ]))
    yield str(path)
    directory.cleanup()


@pytest.fixture
def pool(pools, users_file):
    return pools("bootstrap", flow="totp", args=("--bootstrap", str(BOOTSTRAP), "--users", users_file))


def sign_in(pool, user, secret, steps_ahead=0):
    """CUSTOM_AUTH with the TOTP step: the challenge, a wrong code, then the right one computed here. The step accepts
    a code once per user (and none older), so a second sign-in in the same 30 seconds answers with the next step's
    code (`steps_ahead=1`), which it accepts for clocks that drift."""
    challenge = pool.client.initiate_auth(AuthFlow="CUSTOM_AUTH", ClientId=CLIENT_ID, AuthParameters={"USERNAME": user})
    assert challenge["ChallengeName"] == "CUSTOM_CHALLENGE"
    parameters = challenge["ChallengeParameters"]
    assert parameters["challenge"] == "TOTP" and parameters["digits"] == "6" and parameters["period"] == "30"
    wrong = pool.client.respond_to_auth_challenge(
        ClientId=CLIENT_ID, ChallengeName="CUSTOM_CHALLENGE", Session=challenge["Session"],
        ChallengeResponses={"USERNAME": user, "ANSWER": "000000" if totp(secret) != "000000" else "111111"})
    assert wrong["ChallengeName"] == "CUSTOM_CHALLENGE"
    return pool.client.respond_to_auth_challenge(
        ClientId=CLIENT_ID, ChallengeName="CUSTOM_CHALLENGE", Session=wrong["Session"],
        ChallengeResponses={"USERNAME": user, "ANSWER": totp(secret, at=time.time() + 30 * steps_ahead)})


def id_claims(pool, result):
    keys = jwt.PyJWKClient(f"{pool.issuer}/.well-known/jwks.json")
    token = result["IdToken"]
    return jwt.decode(token, keys.get_signing_key_from_jwt(token).key, algorithms=["RS256"], audience=CLIENT_ID,
                      issuer=pool.issuer)


def test_totp_bootstrap_signs_in_with_the_secret_from_the_users_table(pool):
    result = sign_in(pool, "jane", SECRET)["AuthenticationResult"]
    claims = id_claims(pool, result)
    assert claims["cognito:username"] == "jane" and claims["email"] == "jane.doe@example.com"
    assert claims["name"] == "Jane Doe"
    # ReadAttributes has no custom attribute: neither the ID token nor GetUser shows the secret.
    assert "custom:totp_secret" not in claims
    shown = pool.client.get_user(AccessToken=result["AccessToken"])["UserAttributes"]
    assert {"Name": "name", "Value": "Jane Doe"} in shown
    assert all(attribute["Name"] != "custom:totp_secret" for attribute in shown)
    # The administrator sees every attribute.
    admin = pool.client.admin_get_user(UserPoolId=POOL_ID, Username="jane")["UserAttributes"]
    assert {"Name": "custom:totp_secret", "Value": SECRET} in admin


def test_the_client_writes_only_its_write_attributes(pool):
    result = sign_in(pool, "kim", SECRET)["AuthenticationResult"]
    for name, value in [("custom:totp_secret", OTHER_SECRET), ("email", "thief@example.com"), ("email_verified", "true")]:
        assert error_of(
            pool.client.update_user_attributes, AccessToken=result["AccessToken"],
            UserAttributes=[{"Name": name, "Value": value}],
        ) == ("NotAuthorizedException", "A client attempted to write unauthorized attribute")
    pool.client.update_user_attributes(
        AccessToken=result["AccessToken"], UserAttributes=[{"Name": "given_name", "Value": "Janet"}])
    admin = pool.client.admin_get_user(UserPoolId=POOL_ID, Username="kim")["UserAttributes"]
    assert {"Name": "given_name", "Value": "Janet"} in admin
    assert {"Name": "custom:totp_secret", "Value": SECRET} in admin
    assert {"Name": "email", "Value": "kim@example.com"} in admin


def test_user_names_are_case_insensitive_and_admin_updates_reach_the_triggers(pool):
    # Alice is in the table with a capital; any case signs her in, and the tokens carry her name as created.
    claims = id_claims(pool, sign_in(pool, "ALICE", OTHER_SECRET)["AuthenticationResult"])
    assert claims["cognito:username"] == "Alice" and claims["email_verified"] is False
    # A new secret set by the administrator is the one Verify checks next.
    pool.client.admin_update_user_attributes(
        UserPoolId=POOL_ID, Username="alice", UserAttributes=[{"Name": "custom:totp_secret", "Value": SECRET}])
    claims = id_claims(pool, sign_in(pool, "alice", SECRET, steps_ahead=1)["AuthenticationResult"])
    assert claims["cognito:username"] == "Alice"
    assert error_of(
        pool.client.admin_create_user, UserPoolId=POOL_ID, Username="aLiCe",
    )[0] == "UsernameExistsException"


def test_admin_created_and_signed_up_users_keep_their_attributes(pool):
    pool.client.admin_create_user(
        UserPoolId=POOL_ID, Username="lee", MessageAction="SUPPRESS", UserAttributes=[
            {"Name": "email", "Value": "lee@example.com"}, {"Name": "custom:totp_secret", "Value": OTHER_SECRET}])
    pool.client.admin_set_user_password(UserPoolId=POOL_ID, Username="lee", Password="Lee-Strong-Pass-1", Permanent=True)
    assert sign_in(pool, "lee", OTHER_SECRET)["AuthenticationResult"]["IdToken"]
    pool.client.sign_up(ClientId=CLIENT_ID, Username="sam", Password="Sam-Strong-Pass-1", UserAttributes=[
        {"Name": "email", "Value": "sam@example.com"}, {"Name": "custom:totp_secret", "Value": SECRET}])
    pool.client.admin_confirm_sign_up(UserPoolId=POOL_ID, Username="sam")
    assert sign_in(pool, "sam", SECRET)["AuthenticationResult"]["IdToken"]


def test_a_flow_with_a_step_the_bootstrap_lacks_is_refused_with_its_list(users_file):
    result = subprocess.run(
        [str(BUILD / "cognito-local"), "pool", "--port", "0", "--bootstrap", str(BOOTSTRAP), "--flow", "srp+word"],
        cwd=ROOT, capture_output=True, text=True, timeout=60, env=dict(os.environ, NO_COLOR="1"))
    assert result.returncode == 7, result.stderr
    assert 'CHALLENGE_FLOW="srp+word" is not valid' in result.stderr
    assert "totp" in result.stderr and "email-code" in result.stderr
