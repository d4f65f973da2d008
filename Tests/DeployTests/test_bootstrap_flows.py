"""A bootstrap of your own through the deploy scripts: Deploy/flows.py checks a flow against the steps a packaged
bootstrap registers (its --describe output, steps.json) and writes the template that takes them; Deploy/deploy.sh
checks --flow against them; Deploy/package.sh takes --package-path and --product together; the stand-in Runtime API
drives a sign-in through Define, Create and Verify.

Run: python3 -m pytest -q Tests/DeployTests
"""
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
DEPLOY = REPO / "Deploy"
FLOWS = DEPLOY / "flows.py"
sys.path.insert(0, str(DEPLOY))
from cfn_template import TemplateLoader  # noqa: E402


def step(name, kind, proves, channels=(), built_in=True):
    return {"name": name, "kind": kind, "provesIdentity": proves, "deliversAnswer": bool(channels),
            "deliveryChannels": list(channels), "builtIn": built_in}


# What Examples/TOTPStep's bootstrap prints with --describe, and a step that texts under a name without "sms".
REGISTRY = {"steps": [
    step("email-code", "EMAIL_CODE", True, ["email"]), step("captcha", "CAPTCHA", False),
    step("magic-link", "MAGIC_LINK", True, ["email"]), step("sms-code", "SMS_CODE", True, ["sms"]),
    step("totp", "TOTP", True, built_in=False),
    step("text-word", "TEXT_WORD", True, ["sms"], built_in=False),
]}


@pytest.fixture
def steps_json(tmp_path):
    path = tmp_path / "steps.json"
    path.write_text(json.dumps(REGISTRY), encoding="utf-8")
    return path


def flows(*arguments, stdin=None):
    return subprocess.run([sys.executable, str(FLOWS), *map(str, arguments)], capture_output=True, text=True, input=stdin)


@pytest.mark.parametrize("flow", ["totp", "srp+totp", "captcha+totp", "email-code+totp", "srp-email-code",
                                  "captcha-email-code", "email-code", "sms-code", "email-or-sms-code",
                                  "srp+email-or-sms-code", "captcha+email-code|sms-code"])
def test_flows_of_registered_steps_are_taken(flow, steps_json):
    result = flows("check", steps_json, flow)
    assert result.returncode == 0, result.stdout


@pytest.mark.parametrize("flow,reason", [
    ("srp+word", "registers no step named word"),
    ("passkey", "registers no step named passkey"),
    ("email-or-sms-code+captcha|totp", "only one place of a flow may offer a choice"),
    ("captcha", "no step of it proves who the user is"),
    ("srp", "srp needs at least one step after it"),
    ("totp+srp", "srp may only come first"),
    ("SRP+totp", "a flow is step names"),
    ("srp++totp", "a flow is step names"),
    ("text-word", "texts messages"),
])
def test_other_flows_are_refused_with_the_names(flow, reason, steps_json):
    result = flows("check", steps_json, flow)
    assert result.returncode == 1
    assert reason in result.stdout
    assert result.stdout.strip().endswith(
        "Flows: email-code, srp-email-code, captcha-email-code, email-or-sms-code, or steps joined by '+' from: srp "
        "(first only), email-code, captcha, magic-link, sms-code, totp, text-word")


def test_a_file_that_is_no_registry_is_refused(tmp_path):
    path = tmp_path / "steps.json"
    path.write_text('{"error": "no step registry"}', encoding="utf-8")
    result = flows("check", path, "totp")
    assert result.returncode == 2 and "is not a step registry" in result.stderr


def test_the_named_flows_are_those_of_the_swift_code():
    source = (REPO / "Sources/Function/Core/ChallengeFlows/SignInFlow.swift").read_text(encoding="utf-8")
    block = re.search(r"namedFlows: \[\(name: String, specification: String\)\] = \[(.*?)\n    \]", source, re.S).group(1)
    named = dict(re.findall(r'\("([^"]+)", "([^"]+)"\)', block))
    from flows import NAMED_FLOWS
    assert named == NAMED_FLOWS


def custom_template(steps_json):
    result = flows("template", steps_json, stdin=(DEPLOY / "template.yaml").read_text(encoding="utf-8"))
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_the_template_for_a_bootstrap_of_your_own_takes_flows_written_in_steps(steps_json):
    text = custom_template(steps_json)
    original = yaml.load((DEPLOY / "template.yaml").read_text(encoding="utf-8"), Loader=TemplateLoader)
    changed = yaml.load(text, Loader=TemplateLoader)
    parameter = changed["Parameters"]["ChallengeFlow"]
    assert "AllowedValues" not in parameter
    pattern = re.compile(parameter["AllowedPattern"])
    assert pattern.match("srp+totp") and pattern.match("email-code") and not pattern.match("srp+ totp")
    assert "totp" in parameter["Description"] and parameter["Default"] == "email-code"
    # Nothing else changes.
    del original["Parameters"]["ChallengeFlow"], changed["Parameters"]["ChallengeFlow"]
    assert changed == original


@pytest.mark.skipif(shutil.which("cfn-lint") is None, reason="cfn-lint is not installed")
def test_cfn_lint_takes_the_template_for_a_bootstrap_of_your_own(steps_json, tmp_path):
    path = tmp_path / "template.yaml"
    path.write_text(custom_template(steps_json), encoding="utf-8")
    lint = subprocess.run(["cfn-lint", "--", str(path)], capture_output=True, text=True)
    assert lint.returncode & ~(4 | 8) == 0, lint.stdout


@pytest.fixture
def deploy_copy(tmp_path):
    """A copy of Deploy/ whose out/ holds what package.sh writes for a bootstrap of your own (the zip a stand-in)."""
    deploy = tmp_path / "Deploy"
    shutil.copytree(DEPLOY, deploy, ignore=shutil.ignore_patterns("out", "work", "__pycache__"))
    out = deploy / "out"
    out.mkdir()
    (out / "steps.json").write_text(json.dumps(REGISTRY), encoding="utf-8")
    (out / "template.yaml").write_text(custom_template(out / "steps.json"), encoding="utf-8")
    (out / "bootstrap.zip").write_bytes(b"")
    return deploy


def deploy(directory, *arguments):
    """deploy.sh without the aws CLI on PATH: it stops right after checking its arguments."""
    environment = dict(os.environ, PATH="/usr/bin:/bin")
    return subprocess.run(
        ["bash", str(directory / "deploy.sh"), "--stack", "s", "--sender", "no-reply@example.com", *arguments],
        capture_output=True, text=True, env=environment)


@pytest.mark.parametrize("flow", ["srp+totp", "totp", "email-code"])
def test_deploy_takes_the_flows_of_the_packaged_bootstrap(flow, deploy_copy):
    result = deploy(deploy_copy, "--no-package", "--flow", flow)
    assert "the aws CLI is not on PATH" in result.stderr, result.stderr


def test_deploy_refuses_a_step_the_packaged_bootstrap_lacks(deploy_copy):
    result = deploy(deploy_copy, "--no-package", "--flow", "srp+word")
    assert result.returncode == 1
    assert "--flow srp+word is not a flow this bootstrap runs: this bootstrap registers no step named word" in result.stderr


def test_deploy_checks_the_built_in_bootstrap_against_the_template(deploy_copy):
    # The template package.sh writes for this package's own bootstrap keeps the list.
    shutil.copy(DEPLOY / "template.yaml", deploy_copy / "out" / "template.yaml")
    result = deploy(deploy_copy, "--no-package", "--flow", "srp+totp")
    assert result.returncode == 1 and "--flow srp+totp is not a flow the template offers" in result.stderr


@pytest.mark.parametrize("arguments,complaint", [
    (["--package-path", "Examples/TOTPStep"], "--package-path and --product go together"),
    (["--product", "totp-bootstrap"], "--package-path and --product go together"),
    (["--package-path", "Examples/TOTPStep", "--product", "totp-bootstrap", "--no-package"],
     "--no-package deploys the one packaged"),
])
def test_deploy_takes_package_path_and_product_together(arguments, complaint):
    result = deploy(DEPLOY, *arguments)
    assert result.returncode == 1 and complaint in result.stderr, result.stderr


@pytest.mark.parametrize("arguments,complaint", [
    (["--package-path", "Examples/TOTPStep"], "--package-path needs --product"),
    (["--product", "totp-bootstrap"], "--product totp-bootstrap needs --package-path"),
    (["--package-path", "Deploy"], "--package-path needs a directory holding a Package.swift"),
])
def test_package_takes_package_path_and_product_together(arguments, complaint):
    result = subprocess.run(["bash", str(DEPLOY / "package.sh"), *arguments], capture_output=True, text=True, cwd=REPO)
    assert result.returncode == 1 and complaint in result.stderr, result.stderr


FAKE_BOOTSTRAP = textwrap.dedent('''\
    """A stand-in bootstrap that talks the Runtime API: answers each TOTP trigger as the TOTP step would, or, with
    WRONG set, accepts every answer (which the sign-in must notice)."""
    import base64, hashlib, hmac, json, os, struct, sys, time, urllib.request
    api = "http://" + os.environ["AWS_LAMBDA_RUNTIME_API"] + "/2018-06-01/runtime/invocation/"
    def code(secret, at):
        mac = hmac.new(secret, struct.pack(">Q", int(at) // 30), hashlib.sha1).digest()
        value = struct.unpack(">I", mac[mac[-1] & 15:(mac[-1] & 15) + 4])[0] & 0x7FFFFFFF
        return "%06d" % (value % 1000000)
    assert os.environ["CHALLENGE_FLOW"] == "totp"
    while True:
        with urllib.request.urlopen(api + "next") as next_:
            request_id = next_.headers["Lambda-Runtime-Aws-Request-Id"]
            event = json.load(next_)
        request, response = event["request"], {}
        if event["triggerSource"].startswith("Define"):
            done = any(entry["challengeResult"] for entry in request["session"])
            response = {"challengeName": None if done else "CUSTOM_CHALLENGE", "issueTokens": done,
                        "failAuthentication": False}
        elif event["triggerSource"].startswith("Create"):
            response = {"publicChallengeParameters": {"challenge": "TOTP", "digits": "6", "period": "30"},
                        "privateChallengeParameters": {"challenge": "TOTP"}, "challengeMetadata": "TOTP:0"}
        else:
            secret = request["userAttributes"]["custom:totp_secret"]
            secret = base64.b32decode(secret + "=" * (-len(secret) % 8))
            right = request["challengeAnswer"] in {code(secret, time.time() + 30 * n) for n in (-1, 0, 1)}
            response = {"answerCorrect": right or bool(os.environ.get("WRONG"))}
        event["response"] = response
        post = urllib.request.Request(api + request_id + "/response", data=json.dumps(event).encode(), method="POST")
        urllib.request.urlopen(post).read()
''')


@pytest.mark.parametrize("wrong,outcome", [(False, 0), (True, 1)])
def test_the_sign_in_smoke_drives_define_create_and_verify(wrong, outcome, tmp_path):
    bootstrap = tmp_path / "bootstrap.py"
    bootstrap.write_text(FAKE_BOOTSTRAP, encoding="utf-8")
    settings = ["--env", "WRONG=1"] if wrong else []
    result = subprocess.run([sys.executable, str(DEPLOY / "sign-in-smoke.py"), "--step", "totp", "--timeout", "20",
                             *settings, "--", sys.executable, str(bootstrap)], capture_output=True, text=True)
    assert result.returncode == outcome, result.stdout + result.stderr
    if wrong:
        assert "Verify a wrong code: answerCorrect: True, expected False" in result.stdout
    else:
        assert result.stdout.splitlines() == [
            "Define: CUSTOM_CHALLENGE", 'Create: public parameters {"challenge": "TOTP", "digits": "6", "period": "30"}, '
            "metadata TOTP", "Verify: the current code is right, another is wrong", "Define: issue tokens"]
