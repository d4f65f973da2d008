"""Every flow the code offers is documented where a user looks for it: the CHALLENGE_FLOW row of
docs/configuration.md, the README's table of flows and `cognito-local --flow`'s help. The flows are read from the
code: the named flows of SignInFlow.namedFlows and the name of every step under Sources/ (each step is a flow on its
own, and a word of composed flows)."""
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]


def offered_flows():
    named = re.search(r"namedFlows[^=]*=\s*\[(.*?)\]", (ROOT / "Sources/Function/Core/ChallengeFlows/SignInFlow.swift").read_text(), re.S)
    assert named, "SignInFlow.namedFlows was not found"
    flows = set(re.findall(r'\(\s*"([^"]+)"\s*,', named.group(1)))
    for source in (ROOT / "Sources").rglob("*.swift"):
        flows |= set(re.findall(r'var name: String \{ "([a-z0-9-]+)" \}', source.read_text()))
    flows.discard("choose-method")  # the first challenge of a flow with a choice (a|b), never named in CHALLENGE_FLOW
    assert {"email-code", "srp-email-code", "captcha"} <= flows, flows
    return flows


def missing(flows, text):
    return sorted(flow for flow in flows if not re.search(rf"(?<![\w-]){re.escape(flow)}(?![\w-])", text))


def test_the_challenge_flow_row_lists_every_flow():
    row = re.search(r"^\| `CHALLENGE_FLOW` \|.*$", (ROOT / "docs/configuration.md").read_text(), re.M)
    assert row, "docs/configuration.md has no CHALLENGE_FLOW row"
    assert not missing(offered_flows(), row.group(0)), "the CHALLENGE_FLOW row leaves out flows"


def test_the_readme_table_lists_every_flow():
    rows = re.findall(r"^\| `([a-z0-9+-]+)`", (ROOT / "README.md").read_text(), re.M)
    assert not missing(offered_flows(), " ".join(rows)), "README.md's table of flows leaves out flows"


def test_the_flow_option_help_lists_every_flow():
    options = (ROOT / "Sources/Tools/cognito-local/Options.swift").read_text()
    help_text = re.search(r'ArgumentHelp\("The sign-in flow \(CHALLENGE_FLOW\):[^"]*"', options)
    assert help_text, "cognito-local's --flow help was not found"
    assert not missing(offered_flows(), help_text.group(0)), "cognito-local's --flow help leaves out flows"
