"""`cognito-local new-step NAME` as a user runs it, outside this repository: the package it writes builds and passes
its own tests as written, and its bootstrap signs a user in — with the word from the users table's attributes —
through `cognito-local sign-in` and through `cognito-local pool` with boto3."""
import pathlib
import shutil
import subprocess
import tempfile

import pytest

from conftest import BUILD, CLIENT_ID, LocalPool, ROOT

pytestmark = pytest.mark.skipif(shutil.which("swift") is None, reason="needs the Swift toolchain (swift build)")


def run(command, cwd, timeout=900):
    finished = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    assert finished.returncode == 0, f"{command} exited {finished.returncode}:\n{finished.stdout}\n{finished.stderr}"
    return finished


@pytest.fixture(scope="module")
def step_package():
    """A new `security-word` step package in a temporary folder outside the repository, built with its tests run.
    Without --runtime, outside any checkout, the package depends on the checkout the tool was built from."""
    with tempfile.TemporaryDirectory(prefix="new-step-") as parent:
        package = pathlib.Path(parent) / "security-word-step"
        written = run([str(BUILD / "cognito-local"), "new-step", "security-word", "--directory", str(package)],
                      cwd=parent)
        assert "SecurityWordStep, kind SECURITY_WORD" in written.stdout
        assert f'path: "{ROOT}"' in (package / "Package.swift").read_text()
        tests = run(["swift", "test"], cwd=package)
        assert "4 tests in 1 suite passed" in tests.stdout + tests.stderr
        yield package


def test_refuses_a_name_a_step_cannot_have(tmp_path):
    finished = subprocess.run([str(BUILD / "cognito-local"), "new-step", "Security_Word", "--runtime", str(ROOT)],
                              cwd=tmp_path, capture_output=True, text=True)
    assert finished.returncode == 64 and "cannot name a step" in finished.stderr
    assert list(tmp_path.iterdir()) == []


def test_its_bootstrap_signs_in_through_cognito_local(step_package):
    bootstrap = step_package / ".build" / "debug" / "security-word-bootstrap"
    signed_in = run([str(BUILD / "cognito-local"), "sign-in", "--bootstrap", str(bootstrap), "--flow", "security-word",
                     "--users", "users.json", "--answers", "@expected"], cwd=step_package, timeout=120)
    assert "SECURITY_WORD" in signed_in.stdout and "Signed in as jane" in signed_in.stdout
    refused = subprocess.run([str(BUILD / "cognito-local"), "sign-in", "--bootstrap", str(bootstrap), "--flow",
                              "security-word", "--users", "users.json", "--answers", "jam,toast,butter"],
                             cwd=step_package, capture_output=True, text=True, timeout=120)
    assert refused.returncode == 1


def test_its_bootstrap_signs_in_through_the_local_pool(step_package):
    bootstrap = step_package / ".build" / "debug" / "security-word-bootstrap"
    pool = LocalPool("in-process", flow="security-word",
                     args=["--bootstrap", str(bootstrap), "--users", str(step_package / "users.json")])
    try:
        challenge = pool.client.initiate_auth(AuthFlow="CUSTOM_AUTH", ClientId=CLIENT_ID, AuthParameters={"USERNAME": "jane"})
        assert challenge["ChallengeParameters"]["challenge"] == "SECURITY_WORD"
        assert challenge["ChallengeParameters"]["question"] == "What is your security word?"
        wrong = pool.client.respond_to_auth_challenge(
            ClientId=CLIENT_ID, ChallengeName="CUSTOM_CHALLENGE", Session=challenge["Session"],
            ChallengeResponses={"USERNAME": "jane", "ANSWER": "jam"})
        assert "AuthenticationResult" not in wrong
        result = pool.client.respond_to_auth_challenge(
            ClientId=CLIENT_ID, ChallengeName="CUSTOM_CHALLENGE", Session=wrong["Session"],
            ChallengeResponses={"USERNAME": "jane", "ANSWER": " MARMALADE "})
        assert result["AuthenticationResult"]["AccessToken"]
    finally:
        pool.stop()
