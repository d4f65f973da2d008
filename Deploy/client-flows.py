#!/usr/bin/env python3
"""Lists each Cognito app client's ExplicitAuthFlows in a CloudFormation/SAM template and fails on any flow that
signs a user in without running the custom-auth triggers (Define, Create, Verify).

Usage: Deploy/client-flows.py [TEMPLATE]    (default: Deploy/template.yaml beside this script)
Prints one line per app client; exits 1 when a client allows a flow that skips the triggers, 2 on a bad template.
"""
import os
import sys

import yaml

# Flows that run the triggers: CUSTOM_AUTH (SRP_A inside it included) and refreshing tokens already issued.
TRIGGER_FLOWS = {"ALLOW_CUSTOM_AUTH", "CUSTOM_AUTH_FLOW_ONLY", "ALLOW_REFRESH_TOKEN_AUTH"}


class TemplateLoader(yaml.SafeLoader):
    """A YAML loader that reads CloudFormation's short-form tags (!Ref, !Sub, !GetAtt, ...) as plain values."""


TemplateLoader.add_multi_constructor("!", lambda loader, suffix, node: None)


def main() -> int:
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "template.yaml")
    try:
        with open(path, encoding="utf-8") as handle:
            template = yaml.load(handle, Loader=TemplateLoader)
        resources = template["Resources"]
    except (OSError, yaml.YAMLError, KeyError, TypeError) as error:
        print(f"cannot read the resources of {path}: {error}", file=sys.stderr)
        return 2
    clients = {name: resource.get("Properties", {}) for name, resource in resources.items()
               if isinstance(resource, dict) and resource.get("Type") == "AWS::Cognito::UserPoolClient"}
    if not clients:
        print(f"{path} has no AWS::Cognito::UserPoolClient", file=sys.stderr)
        return 2
    status = 0
    for name, properties in clients.items():
        flows = properties.get("ExplicitAuthFlows")
        if not isinstance(flows, list):
            # Without ExplicitAuthFlows Cognito allows USER_SRP_AUTH, CUSTOM_AUTH and REFRESH_TOKEN_AUTH.
            print(f"{name}: no ExplicitAuthFlows, so Cognito's defaults apply, USER_SRP_AUTH among them (skips the triggers)")
            status = 1
            continue
        skipping = [flow for flow in flows if flow not in TRIGGER_FLOWS]
        if skipping:
            print(f"{name}: {', '.join(map(str, flows))}; {', '.join(map(str, skipping))} sign users in without the triggers")
            status = 1
        else:
            print(f"{name}: {', '.join(flows)} (every flow runs the triggers)")
    return status


if __name__ == "__main__":
    sys.exit(main())
