"""Deploy/deploy.sh and Deploy/README.md follow the template: every flow and tier the template allows is taken,
nothing else is, and every parameter is documented.

Run: python3 -m pytest -q Tests/DeployTests
"""
import os
import re
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DEPLOY = REPO / "Deploy"
TEMPLATE = (DEPLOY / "template.yaml").read_text()


def allowed_values(parameter):
    block = re.search(rf"^  {parameter}:\n((?:    .*\n)+)", TEMPLATE, re.M).group(1)
    return [value.strip() for value in re.search(r"AllowedValues: \[(.*)\]", block).group(1).split(",")]


def parameters():
    section = re.search(r"^Parameters:\n(.*?)^\S", TEMPLATE, re.M | re.S).group(1)
    return re.findall(r"^  ([A-Za-z0-9]+):$", section, re.M)


def deploy(*arguments):
    """deploy.sh without the aws CLI on PATH: it stops right after checking its arguments."""
    environment = dict(os.environ, PATH="/usr/bin:/bin")
    return subprocess.run(
        ["bash", str(DEPLOY / "deploy.sh"), "--stack", "s", "--sender", "no-reply@example.com", *arguments],
        capture_output=True, text=True, env=environment)


@pytest.mark.parametrize("flow", allowed_values("ChallengeFlow"))
def test_every_template_flow_is_taken(flow):
    result = deploy("--flow", flow)
    assert "the aws CLI is not on PATH" in result.stderr, result.stderr


@pytest.mark.parametrize("tier", allowed_values("UserPoolTier"))
def test_every_template_tier_is_taken(tier):
    assert "the aws CLI is not on PATH" in deploy("--tier", tier).stderr


def test_other_flows_are_refused_with_the_list():
    result = deploy("--flow", "captcha")
    assert result.returncode == 1
    assert "--flow captcha is not a flow the template offers: " + " ".join(allowed_values("ChallengeFlow")) in result.stderr


def test_help_lists_the_template_flows():
    help_text = subprocess.run(["bash", str(DEPLOY / "deploy.sh"), "--help"], capture_output=True, text=True).stdout
    assert ", ".join(allowed_values("ChallengeFlow")) in help_text


@pytest.mark.parametrize("parameter", parameters())
def test_every_parameter_is_documented(parameter):
    readme = (DEPLOY / "README.md").read_text()
    assert re.search(rf"^\| `{parameter}` \|", readme, re.M), f"Deploy/README.md's parameter table lacks {parameter}"


def test_every_flow_is_documented():
    readme = (DEPLOY / "README.md").read_text()
    row = re.search(r"^\| `ChallengeFlow` \|.*$", readme, re.M).group(0)
    for flow in allowed_values("ChallengeFlow"):
        assert f"`{flow}`" in row
