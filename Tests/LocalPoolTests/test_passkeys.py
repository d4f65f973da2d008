"""Passkeys end to end through `cognito-local pool` and the real `bootstrap`, as an app and its browser would do it:
boto3 signs jane in with an emailed code (`passkey-or-email-code`, choosing `email-code`), her access token registers
a passkey through the pool's HTTP API (the JWT authorizer, the function's registration API), and she then signs in
with the passkey alone. The browser's part is written here on python-fido2's data types and `cryptography`'s P-256
keys, independently of the project's own SoftwareAuthenticator."""
import base64
import hashlib
import json
import os
import urllib.error
import urllib.request

import pytest

from conftest import BUILD, CLIENT_ID

fido2 = pytest.importorskip("fido2", reason="needs python-fido2: run .ci/setup --test")
from cryptography.hazmat.primitives import hashes  # noqa: E402
from cryptography.hazmat.primitives.asymmetric import ec  # noqa: E402
from fido2 import cbor  # noqa: E402
from fido2.cose import ES256  # noqa: E402
from fido2.webauthn import AttestedCredentialData, AuthenticatorData  # noqa: E402


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Browser:
    """A platform authenticator with one P-256 passkey, and the page at `origin` that uses it."""

    def __init__(self, origin):
        self.origin = origin
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.credential_id = os.urandom(16)
        self.counter = 0
        self.user_handle = None

    def client_data(self, kind, challenge):
        return json.dumps({"type": kind, "challenge": challenge, "origin": self.origin, "crossOrigin": False}).encode()

    def create(self, options):
        """`credential.toJSON()` after navigator.credentials.create with these creation options."""
        self.user_handle = unb64url(options["user"]["id"])
        rp_hash = hashlib.sha256(options["rp"]["id"].encode()).digest()
        attested = AttestedCredentialData.create(b"\0" * 16, self.credential_id, ES256.from_cryptography_key(self.key.public_key()))
        flags = AuthenticatorData.FLAG.UP | AuthenticatorData.FLAG.UV | AuthenticatorData.FLAG.AT
        auth_data = AuthenticatorData.create(rp_hash, flags, self.counter, bytes(attested))
        attestation = cbor.encode({"fmt": "none", "attStmt": {}, "authData": bytes(auth_data)})
        return {
            "id": b64url(self.credential_id), "rawId": b64url(self.credential_id), "type": "public-key",
            "response": {"clientDataJSON": b64url(self.client_data("webauthn.create", options["challenge"])),
                         "attestationObject": b64url(attestation), "transports": ["internal"]},
            "authenticatorAttachment": "platform", "clientExtensionResults": {},
        }

    def get(self, options):
        """`credential.toJSON()` after navigator.credentials.get, or None when no allowed credential is held."""
        allowed = [unb64url(descriptor["id"]) for descriptor in options.get("allowCredentials", [])]
        if allowed and self.credential_id not in allowed:
            return None
        self.counter += 1
        rp_hash = hashlib.sha256(options["rpId"].encode()).digest()
        flags = AuthenticatorData.FLAG.UP | AuthenticatorData.FLAG.UV
        auth_data = bytes(AuthenticatorData.create(rp_hash, flags, self.counter))
        client_data = self.client_data("webauthn.get", options["challenge"])
        signature = self.key.sign(auth_data + hashlib.sha256(client_data).digest(), ec.ECDSA(hashes.SHA256()))
        return {
            "id": b64url(self.credential_id), "rawId": b64url(self.credential_id), "type": "public-key",
            "response": {"clientDataJSON": b64url(client_data), "authenticatorData": b64url(auth_data),
                         "signature": b64url(signature), "userHandle": b64url(self.user_handle)},
            "authenticatorAttachment": "platform", "clientExtensionResults": {},
        }


def api(pool, method, path, token, body=None):
    request = urllib.request.Request(
        f"{pool.api_url}{path}", method=method, data=None if body is None else json.dumps(body).encode(),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def choose(pool, challenge, method, user="jane"):
    """Answers the choice of method: the name as the answer and as ClientMetadata `method`."""
    assert challenge["ChallengeParameters"]["challenge"] == "METHOD_CHOICE"
    assert challenge["ChallengeParameters"]["methods"] == "passkey,email-code"
    return pool.client.respond_to_auth_challenge(
        ClientId=CLIENT_ID, ChallengeName="CUSTOM_CHALLENGE", Session=challenge["Session"],
        ChallengeResponses={"USERNAME": user, "ANSWER": method}, ClientMetadata={"method": method})


def respond(pool, challenge, answer, user="jane"):
    return pool.client.respond_to_auth_challenge(
        ClientId=CLIENT_ID, ChallengeName="CUSTOM_CHALLENGE", Session=challenge["Session"],
        ChallengeResponses={"USERNAME": user, "ANSWER": answer})


def start(pool, user="jane"):
    return pool.client.initiate_auth(AuthFlow="CUSTOM_AUTH", ClientId=CLIENT_ID, AuthParameters={"USERNAME": user})


@pytest.fixture(scope="module")
def pool(pools):
    return pools("bootstrap", flow="passkey-or-email-code")


def test_a_passkey_registered_with_pool_tokens_signs_in_through_the_bootstrap(pool):
    port = pool.url.rsplit(":", 1)[1]
    browser = Browser(f"http://localhost:{port}")
    code_challenge = choose(pool, start(pool), "email-code")
    assert code_challenge["ChallengeParameters"]["challenge"] == "EMAIL_CODE"
    tokens = respond(pool, code_challenge, pool.latest_code())["AuthenticationResult"]

    status, options = api(pool, "POST", "/passkeys/registration/options", tokens["AccessToken"], {})
    assert status == 200 and options["rp"]["id"] == "localhost" and options["user"]["name"] == "jane"
    status, created = api(pool, "POST", "/passkeys/registration", tokens["AccessToken"], dict(browser.create(options), name="Laptop"))
    assert status == 201, created
    status, listed = api(pool, "GET", "/passkeys", tokens["AccessToken"])
    assert status == 200 and [(p["id"], p["name"]) for p in listed["passkeys"]] == [(b64url(browser.credential_id), "Laptop")]
    assert "publicKey" not in listed["passkeys"][0]

    passkey_challenge = choose(pool, start(pool), "passkey")
    parameters = passkey_challenge["ChallengeParameters"]
    assert parameters["challenge"] == "PASSKEY"
    request_options = json.loads(parameters["options"])
    assert request_options["userVerification"] == "required"
    assertion = browser.get(request_options)
    assert assertion is not None, "the registered passkey is among allowCredentials"
    result = respond(pool, passkey_challenge, json.dumps(assertion))
    assert result["AuthenticationResult"]["AccessToken"]

    replay = choose(pool, start(pool), "passkey")
    refused = respond(pool, replay, json.dumps(assertion))
    assert "AuthenticationResult" not in refused, "an assertion for another challenge is refused"


def test_users_without_passkeys_and_unknown_users_look_like_users_with_them(pool):
    def options_for(user):
        challenge = choose(pool, start(pool, user), "passkey", user)
        return json.loads(challenge["ChallengeParameters"]["options"])

    answers = {}
    for user in ("jane", "nobody-at-all", "someone-else"):
        options = options_for(user)
        assert options["allowCredentials"] == [], "the options name no credential for anyone"
        options.pop("challenge")
        answers[user] = json.dumps(options, sort_keys=True)
    assert len(set(answers.values())) == 1, answers


def test_registration_needs_the_users_own_access_token(pool):
    status, body = api(pool, "POST", "/passkeys/registration/options", "not-a-token", {})
    assert (status, body) == (401, {"message": "Unauthorized"})
