"""Deploy/pool-settings.py accepts Deploy/template.yaml and rejects it once any setting that guards the only factor
is removed or weakened; Deploy/check.sh --template-only fails with it.

Run: python3 -m pytest -q Tests/DeployTests
"""
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DEPLOY = REPO / "Deploy"
TEMPLATE = DEPLOY / "template.yaml"
CHECKER = DEPLOY / "pool-settings.py"


def drop_block(text, key):
    """The template without the (unique) property KEY and every more-indented line under it."""
    lines = text.splitlines(keepends=True)
    starts = [i for i, line in enumerate(lines) if re.match(rf"^\s*{re.escape(key)}:", line)]
    assert len(starts) == 1, f"{key} should appear once in the template, found {len(starts)}"
    start = starts[0]
    indent = len(lines[start]) - len(lines[start].lstrip())
    end = start + 1
    while end < len(lines) and (not lines[end].strip() or len(lines[end]) - len(lines[end].lstrip()) > indent):
        end += 1
    return "".join(lines[:start] + lines[end:])


def replace_once(text, old, new):
    assert text.count(old) == 1, f"{old!r} should appear once in the template"
    return text.replace(old, new)


def run_checker(path):
    return subprocess.run([sys.executable, str(CHECKER), str(path)], capture_output=True, text=True)


ORIGINAL = TEMPLATE.read_text(encoding="utf-8")
WRITE = "WriteAttributes: [name, given_name, family_name, locale]"
READ = "ReadAttributes: [email, email_verified, phone_number, phone_number_verified, name, given_name, family_name, locale]"
VERIFY = "AttributesRequireVerificationBeforeUpdate: [email]"

# name -> (the weakened template, a phrase the checker's complaint must contain)
WEAKENED = {
    "no UsernameConfiguration": (drop_block(ORIGINAL, "UsernameConfiguration"), "CaseSensitive must be false"),
    "case-sensitive user names": (replace_once(ORIGINAL, "CaseSensitive: false", "CaseSensitive: true"),
                                  "CaseSensitive must be false"),
    "no UserAttributeUpdateSettings": (drop_block(ORIGINAL, "UserAttributeUpdateSettings"),
                                       "AttributesRequireVerificationBeforeUpdate must be a list naming email"),
    "verification list without email": (
        replace_once(replace_once(ORIGINAL, VERIFY, "AttributesRequireVerificationBeforeUpdate: [phone_number]"),
                     "AutoVerifiedAttributes: [email]", "AutoVerifiedAttributes: [email, phone_number]"),
        "it must name email"),
    "phone_number to verify but not auto-verified": (
        replace_once(ORIGINAL, VERIFY, "AttributesRequireVerificationBeforeUpdate: [email, phone_number]"),
        "which AutoVerifiedAttributes"),
    "phone_number auto-verified but not re-verified": (
        replace_once(ORIGINAL, "AutoVerifiedAttributes: [email]", "AutoVerifiedAttributes: [email, phone_number]"),
        "must name it too"),
    "no WriteAttributes": (drop_block(ORIGINAL, "WriteAttributes"), "WriteAttributes must be a plain list"),
    "WriteAttributes through an intrinsic": (
        replace_once(ORIGINAL, WRITE, "WriteAttributes: !If [SendsTextMessages, [name], [name]]"),
        "WriteAttributes must be a plain list"),
    "email writable": (replace_once(ORIGINAL, WRITE, "WriteAttributes: [name, email]"), "WriteAttributes names ['email']"),
    "phone_number writable": (replace_once(ORIGINAL, WRITE, "WriteAttributes: [name, phone_number]"),
                              "WriteAttributes names ['phone_number']"),
    "email_verified writable": (replace_once(ORIGINAL, WRITE, "WriteAttributes: [email_verified]"),
                                "WriteAttributes names ['email_verified']"),
    "TOTP secret writable": (replace_once(ORIGINAL, WRITE, "WriteAttributes: [name, custom:totp_secret]"),
                             "WriteAttributes names ['custom:totp_secret']"),
    "no ReadAttributes": (drop_block(ORIGINAL, "ReadAttributes"), "ReadAttributes must be a plain list"),
    "TOTP secret readable": (replace_once(ORIGINAL, READ, "ReadAttributes: [email, custom:totp_secret]"),
                             "ReadAttributes names ['custom:totp_secret']"),
}


def test_the_real_template_passes():
    result = run_checker(TEMPLATE)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.splitlines() == ["UserPool: ok", "UserPoolClient: ok"]


@pytest.mark.parametrize("name", sorted(WEAKENED))
def test_each_weakened_template_fails(name, tmp_path):
    text, complaint = WEAKENED[name]
    assert text != ORIGINAL
    path = tmp_path / "template.yaml"
    path.write_text(text, encoding="utf-8")
    result = run_checker(path)
    assert result.returncode == 1, f"{name}: exit {result.returncode}\n{result.stdout}{result.stderr}"
    assert complaint in result.stdout, result.stdout


def test_a_template_without_a_pool_or_client_is_unreadable(tmp_path):
    path = tmp_path / "template.yaml"
    path.write_text("Resources:\n  Topic:\n    Type: AWS::SNS::Topic\n", encoding="utf-8")
    assert run_checker(path).returncode == 2


@pytest.mark.skipif(shutil.which("cfn-lint") is None, reason="cfn-lint is not installed")
def test_check_sh_fails_on_a_weakened_template_that_cfn_lint_accepts(tmp_path):
    # Every setting gone at once: still a valid template for cfn-lint and SAM, but not for check.sh.
    text = ORIGINAL
    for key in ("UsernameConfiguration", "UserAttributeUpdateSettings", "WriteAttributes", "ReadAttributes"):
        text = drop_block(text, key)
    deploy = tmp_path / "Deploy"
    shutil.copytree(DEPLOY, deploy, ignore=shutil.ignore_patterns("out", "work", "__pycache__"))
    (deploy / "template.yaml").write_text(text, encoding="utf-8")
    lint = subprocess.run(["cfn-lint", "--", str(deploy / "template.yaml")], capture_output=True, text=True)
    assert lint.returncode & ~(4 | 8) == 0, lint.stdout
    result = subprocess.run(["bash", str(deploy / "check.sh"), "--template-only"], capture_output=True, text=True)
    assert result.returncode != 0, result.stdout
    assert "FAIL: template.yaml leaves the only factor open" in result.stdout
    assert "CaseSensitive must be false" in result.stdout and "WriteAttributes must be a plain list" in result.stdout
