#!/usr/bin/env python3
"""Lists each Cognito app client's ExplicitAuthFlows in a CloudFormation/SAM template and fails on any flow that
signs a user in without running the custom-auth triggers (Define, Create, Verify).

Usage: Deploy/client-flows.py [TEMPLATE]    (default: Deploy/template.yaml beside this script)
Prints one line per app client; exits 1 when a client allows a flow that skips the triggers, 2 on a bad template.
"""
import sys

from cfn_template import resources_or_exit

# Flows that run the triggers: CUSTOM_AUTH (SRP_A inside it included) and refreshing tokens already issued.
TRIGGER_FLOWS = {"ALLOW_CUSTOM_AUTH", "CUSTOM_AUTH_FLOW_ONLY", "ALLOW_REFRESH_TOKEN_AUTH"}


def main() -> int:
    path, resources = resources_or_exit()
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
