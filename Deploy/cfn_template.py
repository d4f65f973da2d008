"""Reading a CloudFormation/SAM template's resources, for the checks beside this file (client-flows.py,
pool-settings.py)."""
import os
import sys

import yaml


class TemplateLoader(yaml.SafeLoader):
    """Reads CloudFormation's short-form tags (!Ref, !If, !GetAtt, ...) as their long forms ({"Fn::If": [...]}),
    so that a setting given through an intrinsic function is seen as one rather than as a plain value."""


def _intrinsic(loader, suffix, node):
    if isinstance(node, yaml.ScalarNode):
        value = loader.construct_scalar(node)
        if suffix == "GetAtt":
            value = value.split(".", 1)
    elif isinstance(node, yaml.SequenceNode):
        value = loader.construct_sequence(node, deep=True)
    else:
        value = loader.construct_mapping(node, deep=True)
    return {suffix if suffix in ("Ref", "Condition") else f"Fn::{suffix}": value}


TemplateLoader.add_multi_constructor("!", _intrinsic)


def resources_or_exit():
    """The path named on the command line (default: template.yaml beside this file) and its Resources mapping;
    exits 2 with a message when the template cannot be read."""
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "template.yaml")
    try:
        with open(path, encoding="utf-8") as handle:
            resources = yaml.load(handle, Loader=TemplateLoader)["Resources"]
        resources.items()
    except (OSError, yaml.YAMLError, KeyError, TypeError, AttributeError) as error:
        print(f"cannot read the resources of {path}: {error}", file=sys.stderr)
        sys.exit(2)
    return path, resources
