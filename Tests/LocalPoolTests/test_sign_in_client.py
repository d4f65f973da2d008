"""The Swift client of Examples/SignInClient (`sign-in-client`) against `cognito-local pool`: the JSON protocol over
libcurl, SRP from CognitoSRP's client side, the CUSTOM_CHALLENGE loop with answers from `--answer-command` (codes
and links from the outbox, CAPTCHA answers from cognito-local's embedded catalog) or from standard input, and the
tokens' claims at the end. Nothing is built here: the example's binary must already be built."""
import json
import os
import pathlib
import re
import subprocess
import sys
import time

import pytest

from conftest import CLIENT_ID, POOL_ID, ROOT
from test_local_pool import PASSWORD, verify_tokens

BUILD_COMMAND = "swift build --package-path Examples/SignInClient"
CLIENT = pathlib.Path(os.environ.get(
    "SIGN_IN_CLIENT", ROOT / "Examples" / "SignInClient" / ".build" / "debug" / "sign-in-client"))
pytestmark = pytest.mark.skipif(
    not CLIENT.exists(), reason=f"{CLIENT} is not built: run `{BUILD_COMMAND}` first")

# The answer command: the method given (else the first offered) for a choice of method, a CAPTCHA's answer from the
# catalog, else the newest code (or link) the outbox holds for the user. It reads the challenge from the environment
# the client gives it.
ANSWER_SCRIPT = """
import json, os, sys
outbox, catalog, user, field, method = sys.argv[1:6]
parameters = json.loads(os.environ["CHALLENGE_PARAMETERS"])
assert os.environ["CHALLENGE_NAME"] == "CUSTOM_CHALLENGE" and int(os.environ["CHALLENGE_ROUND"]) >= 1
if parameters.get("challenge") == "METHOD_CHOICE":
    print(method if method != "-" else parameters["methods"].split(",")[0])
elif "captchaUrl" in parameters:
    print(json.load(open(catalog))[parameters["captchaUrl"]])
else:
    messages = [json.loads(line) for line in open(outbox) if line.strip()]
    print([message[field] for message in messages if message["userName"] == user][-1])
"""


def embedded_catalog():
    """{imageURL: answer} of cognito-local's embedded CAPTCHA catalog, read from LocalDefaults.swift."""
    source = (ROOT / "Sources" / "Tools" / "Invoker" / "Configuration" / "LocalDefaults.swift").read_text()
    template = re.search(r'imageURL: "([^"]*)\\\(\$0\.0\)([^"]*)"', source)
    pairs = re.findall(r'\("([0-9a-f]{16})", "([^"]+)"\)', source)
    if not template or not pairs:
        return None
    return {f"{template.group(1)}{name}{template.group(2)}": answer for name, answer in pairs}


@pytest.fixture(scope="module")
def answer_files(tmp_path_factory):
    directory = tmp_path_factory.mktemp("sign-in-client")
    (directory / "answer.py").write_text(ANSWER_SCRIPT)
    (directory / "catalog.json").write_text(json.dumps(embedded_catalog() or {}))
    return directory


def answer_command(pool, files, user="jane", field="code", method="-"):
    return (f"{sys.executable} {files / 'answer.py'} {pool.outbox} {files / 'catalog.json'} {user} {field} {method}")


def sign_in(pool, *arguments, stdin=None):
    return subprocess.run(
        [str(CLIENT), "--endpoint", pool.url, "--user-pool-id", POOL_ID, "--client-id", CLIENT_ID, *arguments],
        input=stdin, capture_output=True, text=True, timeout=120)


def signed_in_json(pool, *arguments):
    run = sign_in(pool, "--json", *arguments)
    assert run.returncode == 0, run.stdout + run.stderr
    output = json.loads(run.stdout)
    verify_tokens(pool, output["authenticationResult"])
    assert output["idTokenClaims"]["cognito:username"] == "jane"
    assert output["accessTokenClaims"]["token_use"] == "access"
    return output, run.stderr


def test_email_code(pools, transport, answer_files):
    pool = pools(transport)
    run = sign_in(pool, "--user", "jane", "--answer-command", answer_command(pool, answer_files))
    assert run.returncode == 0, run.stdout + run.stderr
    assert "InitiateAuth  CUSTOM_AUTH  USERNAME=jane" in run.stdout
    assert "1. CUSTOM_CHALLENGE" in run.stdout and "challenge: EMAIL_CODE" in run.stdout
    assert f"answer › {pool.latest_code()}" in run.stdout
    assert "Signed in as jane after 1 challenge(s): ID, access, refresh tokens" in run.stdout
    assert "ID token claims:" in run.stdout and "Access token claims:" in run.stdout
    assert "jane.doe@example.com" in run.stdout and pool.issuer in run.stdout


def test_email_code_json(pools, answer_files):
    pool = pools()
    output, progress = signed_in_json(pool, "--answer-command", answer_command(pool, answer_files))
    assert output["challenges"] == ["CUSTOM_CHALLENGE"]
    assert output["idTokenClaims"]["email"] == "jane.doe@example.com"
    assert "challenge: EMAIL_CODE" in progress, "in --json mode the challenges go to standard error"


def test_email_code_from_standard_input(pools):
    pool = pools()
    before = len(pool.codes())
    client = subprocess.Popen(
        [str(CLIENT), "--endpoint", pool.url, "--user-pool-id", POOL_ID, "--client-id", CLIENT_ID],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while len(pool.codes()) == before and client.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        stdout, stderr = client.communicate(pool.latest_code() + "\n", timeout=60)
    finally:
        if client.poll() is None:
            client.kill()
            client.wait()
    assert client.returncode == 0, stdout + stderr
    assert "answer › " in stderr, "the prompt goes to standard error"
    assert "Signed in as jane after 1 challenge(s)" in stdout


def test_srp_then_email_code(pools, transport, answer_files):
    pool = pools(transport, flow="srp-email-code")
    output, progress = signed_in_json(
        pool, "--password", PASSWORD, "--answer-command", answer_command(pool, answer_files))
    assert output["challenges"] == ["PASSWORD_VERIFIER", "CUSTOM_CHALLENGE"]
    assert "CHALLENGE_NAME=SRP_A" in progress and "PASSWORD_VERIFIER  answered with the SRP password claim" in progress


def test_srp_password_from_the_environment(pools, answer_files):
    pool = pools(flow="srp-email-code")
    run = subprocess.run(
        [str(CLIENT), "--endpoint", pool.url, "--srp", "--answer-command", answer_command(pool, answer_files)],
        capture_output=True, text=True, timeout=120, env=dict(os.environ, SIGN_IN_PASSWORD=PASSWORD))
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Signed in as jane after 2 challenge(s)" in run.stdout


def test_srp_wrong_password_fails(pools, answer_files):
    pool = pools(flow="srp-email-code")
    before = len(pool.codes())
    run = sign_in(pool, "--password", "Wrong-Horse-10", "--answer-command", answer_command(pool, answer_files))
    assert run.returncode == 1, run.stdout + run.stderr
    assert "RespondToAuthChallenge: NotAuthorizedException: Incorrect username or password." in run.stderr
    assert len(pool.codes()) == before


def test_srp_flow_without_a_password_is_explained(pools):
    pool = pools(flow="srp-email-code")
    run = sign_in(pool)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "InitiateAuth: NotAuthorizedException: Incorrect username or password." in run.stderr
    assert "give --srp or --password" in run.stderr


@pytest.mark.skipif(embedded_catalog() is None, reason="cognito-local's embedded CAPTCHA catalog was not found in LocalDefaults.swift")
def test_captcha_then_email_code(pools, transport, answer_files):
    pool = pools(transport, flow="captcha-email-code")
    output, progress = signed_in_json(pool, "--answer-command", answer_command(pool, answer_files))
    assert output["challenges"] == ["CUSTOM_CHALLENGE", "CUSTOM_CHALLENGE"]
    assert "captchaUrl: https://captcha.example.com/images/" in progress
    assert "challenge: EMAIL_CODE" in progress


@pytest.mark.parametrize("link", [None, "https://app.example.com/sign-in#token={token}"])
def test_magic_link_answered_with_the_whole_link(pools, answer_files, link):
    # cognito-local's own link has the token in the query string; a deployed page's has it in the fragment.
    pool = pools(flow="magic-link", env={"MAGIC_LINK_URL": link} if link else None)
    output, progress = signed_in_json(pool, "--answer-command", answer_command(pool, answer_files, field="link"))
    assert output["challenges"] == ["CUSTOM_CHALLENGE"]
    assert "challenge: MAGIC_LINK" in progress
    sent = [json.loads(line) for line in pool.outbox.read_text().splitlines() if line.strip()][-1]["link"]
    assert sent.startswith((link or "http://localhost:3000/sign-in#token={token}").split("{")[0])


def test_choice_after_the_password(pools, answer_files):
    # The client answers the choice with a method and sends it as ClientMetadata method, which Cognito hands to the
    # Create that follows: the chosen step's code goes by text message.
    pool = pools(flow="srp+email-or-sms-code")
    output, progress = signed_in_json(
        pool, "--password", PASSWORD, "--answer-command", answer_command(pool, answer_files, method="sms-code"))
    assert output["challenges"] == ["PASSWORD_VERIFIER", "CUSTOM_CHALLENGE", "CUSTOM_CHALLENGE"]
    assert "methods: email-code,sms-code" in progress
    assert "challenge: SMS_CODE" in progress
    messages = [json.loads(line) for line in pool.outbox.read_text().splitlines() if line.strip()]
    assert messages[-1]["channel"] == "sms"


def test_wrong_answers_end_the_sign_in(pools):
    pool = pools()
    run = sign_in(pool, "--answer-command", "echo 000000")
    if run.returncode == 0:
        pytest.skip("000000 happened to be the code")
    assert run.returncode == 1, run.stdout + run.stderr
    assert "NotAuthorizedException: Incorrect username or password." in run.stderr
    assert run.stdout.count("CUSTOM_CHALLENGE") == 3


def test_bad_client_metadata_is_a_usage_error(pools):
    run = sign_in(pools(), "--client-metadata", "app")
    assert run.returncode == 64
    assert "--client-metadata" in run.stderr


@pytest.mark.parametrize("flow, method, channel", [
    ("sms-code", "-", "sms"), ("email-or-sms-code", "email-code", "email"), ("email-or-sms-code", "sms-code", "sms")])
def test_code_flows(pools, answer_files, flow, method, channel):
    # email-or-sms-code asks first which step: the code goes by the chosen step's channel.
    pool = pools(flow=flow)
    output, _ = signed_in_json(pool, "--answer-command", answer_command(pool, answer_files, method=method))
    assert output["challenges"] == ["CUSTOM_CHALLENGE"] * (1 if flow == "sms-code" else 2)
    messages = [json.loads(line) for line in pool.outbox.read_text().splitlines() if line.strip()]
    assert messages[-1]["channel"] == channel
