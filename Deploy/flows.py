#!/usr/bin/env python3
"""The flows a packaged bootstrap accepts, from the step registry it prints with --describe (Deploy/package.sh keeps
that as steps.json beside the zip):

  flows.py steps STEPS_JSON              prints the step names, one line; exits 2 when the file is not a registry
  flows.py check STEPS_JSON FLOW         exits 0 when CHALLENGE_FLOW=FLOW is a flow this bootstrap runs and the
                                         template can deploy, else prints why (with the names it takes) and exits 1
  flows.py template STEPS_JSON < T > O   T with ChallengeFlow taking any flow written in steps (a pattern instead
                                         of the built-in list, which a bootstrap of your own outgrows)

A flow is step names joined by '+' (`srp` allowed first only, with at least one step after it; one place may offer a
choice of steps joined by '|', or named: srp+email-or-sms-code is srp+email-code|sms-code), or a named flow standing
for such steps (srp-email-code is srp+email-code), where every step is one the bootstrap registers and
the flow proves who the user is (SRP, or a step that proves identity: a CAPTCHA alone does not). A flow whose steps
text messages must have "sms" in its text: the template grants sns:Publish on that (its SendsTextMessages condition).
"""
import json
import re
import sys

NAME = r"[a-z][a-z0-9-]*"
CHOICE = rf"{NAME}(\|{NAME})*"
FLOW_PATTERN = rf"^{CHOICE}(\+{CHOICE})*$"
# The flows with names of their own and the steps each stands for: SignInFlow.namedFlows (Sources/Function/Core/ChallengeFlows/
# SignInFlow.swift; Tests/DeployTests/test_bootstrap_flows.py fails when the two differ).
NAMED_FLOWS = {"email-code": "email-code", "srp-email-code": "srp+email-code", "captcha": "captcha",
               "captcha-email-code": "captcha+email-code", "passkey-or-email-code": "passkey|email-code",
               "email-or-sms-code": "email-code|sms-code"}
# A named flow of one choice may stand for that choice in a '+' list.
NAMED_CHOICES = {name: steps for name, steps in NAMED_FLOWS.items() if "|" in steps and "+" not in steps}


def template_flows(text):
    """The AllowedValues of ChallengeFlow in the template text (the same line Deploy/common.sh reads)."""
    block = re.search(r"^  ChallengeFlow:\n((?:    .*\n)+)", text, re.M)
    values = block and re.search(r"^    AllowedValues: \[(.*)\]$", block.group(1), re.M)
    return [value.strip() for value in values.group(1).split(",")] if values else []


def read_steps(path):
    try:
        with open(path, encoding="utf-8") as handle:
            steps = json.load(handle)["steps"]
        return {step["name"]: step for step in steps if isinstance(step["name"], str)}
    except (OSError, ValueError, KeyError, TypeError) as error:
        print(f"{path} is not a step registry (what a bootstrap prints with --describe): {error}", file=sys.stderr)
        sys.exit(2)


def problem(flow, steps):
    """Why FLOW cannot be deployed with this bootstrap, or None."""
    if not re.match(FLOW_PATTERN, flow):
        return ("a flow is step names (lower-case letters, digits and '-') joined by '+', one place of which may offer "
                "a choice of steps joined by '|'")
    places = [NAMED_CHOICES.get(place, place).split("|") for place in NAMED_FLOWS.get(flow, flow).split("+")]
    password = places[0] == ["srp"]
    custom = places[1:] if password else places
    if not custom:
        return "srp needs at least one step after it"
    named = [name for place in custom for name in place]
    if "srp" in named:
        return "srp may only come first"
    if sum(len(place) > 1 for place in custom) > 1:
        return "only one place of a flow may offer a choice"
    unknown = [name for name in named if name not in steps]
    if unknown:
        return f"this bootstrap registers no step named {', '.join(unknown)}"
    if not password and not any(all(steps[name].get("provesIdentity") for name in place) for place in custom):
        return "no step of it proves who the user is (add srp or a step that delivers a code, like email-code)"
    if any("sms" in steps[name].get("deliveryChannels", []) for name in named) and "sms" not in flow:
        return ("a step of it texts messages, and the template allows sns:Publish only for flows with \"sms\" in "
                "their text (name the step so)")
    return None


def main(arguments):
    if len(arguments) < 2 or arguments[0] not in ("steps", "check", "template"):
        print(__doc__, file=sys.stderr)
        return 2
    steps = read_steps(arguments[1])
    if arguments[0] == "steps":
        print(" ".join(steps))
        return 0
    if arguments[0] == "check" and len(arguments) == 3:
        reason = problem(arguments[2], steps)
        if reason is None:
            return 0
        named = [name for name in NAMED_FLOWS if problem(name, steps) is None]
        print(f"--flow {arguments[2]} is not a flow this bootstrap runs: {reason}. Flows: {', '.join(named)}, "
              f"or steps joined by '+' from: srp (first only), {', '.join(steps)}")
        return 1
    if arguments[0] == "template" and len(arguments) == 2:
        text = sys.stdin.read()
        block = re.search(r"^  ChallengeFlow:\n(?:    .*\n)+", text, re.M)
        if not block or not template_flows(text):
            print("the template has no ChallengeFlow parameter with AllowedValues", file=sys.stderr)
            return 2
        named = [name for name in NAMED_FLOWS if problem(name, steps) is None]
        description = (f"The challenges a sign-in goes through: {', '.join(named)}, or steps joined by '+' from "
                       f"this bootstrap's registry: srp (first only), {', '.join(steps)}. Deploy/deploy.sh checks the "
                       "flow against that registry.")
        default = re.search(r"^    Default: (.*)$", block.group(0), re.M)
        replacement = ("  ChallengeFlow:\n    Type: String\n"
                       f"    Description: >-\n      {description}\n"
                       f"    AllowedPattern: {json.dumps(FLOW_PATTERN)}\n"
                       "    ConstraintDescription: must be step names joined by '+'\n"
                       + (f"    Default: {default.group(1)}\n" if default else ""))
        sys.stdout.write(text[:block.start()] + replacement + text[block.end():])
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
