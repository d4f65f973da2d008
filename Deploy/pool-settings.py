#!/usr/bin/env python3
"""Checks the Cognito settings in a CloudFormation/SAM template that guard the only sign-in factor: the inbox (or
phone) the codes and links go to, and the secrets a step keeps in user attributes.

Every AWS::Cognito::UserPool must have
  - UsernameConfiguration.CaseSensitive false (one user per address, whatever its capitals);
  - UserAttributeUpdateSettings.AttributesRequireVerificationBeforeUpdate naming email (a new address takes effect
    only once verified), every name in it also in AutoVerifiedAttributes (Cognito refuses the pool otherwise), and
    phone_number in it whenever phone_number is auto-verified.
Every AWS::Cognito::UserPoolClient must have
  - WriteAttributes, a plain list without email, phone_number, their _verified flags, or any custom: or dev:
    attribute (a step's secret such as custom:totp_secret lives in one): without the list, Cognito lets an access
    token write every attribute;
  - ReadAttributes, a plain list without any custom: or dev: attribute (the ID token would carry a step's secret).

Usage: Deploy/pool-settings.py [TEMPLATE]    (default: Deploy/template.yaml beside this script)
Prints one line per user pool and app client; exits 1 when a setting is missing or wrong, 2 on an unreadable
template.
"""
import sys

from cfn_template import resources_or_exit

# Attributes an access token must never change: where codes and links go, and whether they are trusted.
DELIVERY_ATTRIBUTES = {"email", "phone_number", "email_verified", "phone_number_verified"}
# Prefixes of attributes that may hold a step's secret (custom:totp_secret) or developer-only data.
SECRET_PREFIXES = ("custom:", "dev:")


def plain_list(value):
    """The value when it is a literal list of strings, else None (an intrinsic function, a scalar, missing)."""
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return value
    return None


def is_false(value):
    return value is False or (isinstance(value, str) and value.lower() == "false")


def check_pool(properties):
    problems = []
    username = properties.get("UsernameConfiguration")
    if not isinstance(username, dict) or not is_false(username.get("CaseSensitive")):
        problems.append("UsernameConfiguration.CaseSensitive must be false (user names case-insensitive: "
                        "Jane@Example.com and jane@example.com are one user)")
    settings = properties.get("UserAttributeUpdateSettings")
    required = plain_list(settings.get("AttributesRequireVerificationBeforeUpdate")) if isinstance(settings, dict) else None
    auto_verified = plain_list(properties.get("AutoVerifiedAttributes")) or []
    if required is None:
        problems.append("UserAttributeUpdateSettings.AttributesRequireVerificationBeforeUpdate must be a list naming "
                        "email (else a new address takes effect before its owner proves it)")
    else:
        if "email" not in required:
            problems.append(f"AttributesRequireVerificationBeforeUpdate is {required}: it must name email")
        if "phone_number" in auto_verified and "phone_number" not in required:
            problems.append("phone_number is auto-verified, so AttributesRequireVerificationBeforeUpdate must name it too")
        unverified = [name for name in required if name not in auto_verified]
        if unverified:
            problems.append(f"AttributesRequireVerificationBeforeUpdate names {unverified}, which AutoVerifiedAttributes "
                            f"{auto_verified} lacks; Cognito refuses such a pool")
    return problems


def check_client(properties):
    problems = []
    write = plain_list(properties.get("WriteAttributes"))
    if write is None:
        problems.append("WriteAttributes must be a plain list (without it an access token may change every attribute, "
                        "email and phone_number included)")
    else:
        delivery = [name for name in write if name in DELIVERY_ATTRIBUTES]
        if delivery:
            problems.append(f"WriteAttributes names {delivery}: a stolen access token could send every later code and "
                            "link elsewhere")
        secret = [name for name in write if name.startswith(SECRET_PREFIXES)]
        if secret:
            problems.append(f"WriteAttributes names {secret}: a user could replace a step's secret kept there")
    read = plain_list(properties.get("ReadAttributes"))
    if read is None:
        problems.append("ReadAttributes must be a plain list (without it the ID token carries every attribute, a "
                        "step's secret included)")
    else:
        secret = [name for name in read if name.startswith(SECRET_PREFIXES)]
        if secret:
            problems.append(f"ReadAttributes names {secret}: the ID token and GetUser would show a step's secret")
    return problems


def main() -> int:
    path, resources = resources_or_exit()
    checks = {"AWS::Cognito::UserPool": check_pool, "AWS::Cognito::UserPoolClient": check_client}
    found = {kind: 0 for kind in checks}
    status = 0
    for name, resource in resources.items():
        if not isinstance(resource, dict) or resource.get("Type") not in checks:
            continue
        kind = resource["Type"]
        found[kind] += 1
        properties = resource.get("Properties")
        problems = checks[kind](properties if isinstance(properties, dict) else {})
        if problems:
            print(f"{name}: " + "; ".join(problems))
            status = 1
        else:
            print(f"{name}: ok")
    missing = [kind for kind, count in found.items() if count == 0]
    if missing:
        print(f"{path} has no {' or '.join(missing)}", file=sys.stderr)
        return 2
    return status


if __name__ == "__main__":
    sys.exit(main())
