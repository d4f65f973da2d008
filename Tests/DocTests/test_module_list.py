"""docs/architecture.md keeps the one list of the package's modules: every target Package.swift declares is listed
there, and nothing else is."""
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
TARGET_KINDS = ("target", "executableTarget", "testTarget", "systemLibrary")


def declared_targets(manifest):
    """The names of the `.target(name:`, `.executableTarget(name:`, `.testTarget(name:` and `.systemLibrary(name:`
    entries, wherever the `name:` argument sits after the opening parenthesis."""
    kinds = "|".join(TARGET_KINDS)
    return re.findall(rf'\.(?:{kinds})\(\s*name:\s*"([^"]+)"', manifest)


def listed_modules(architecture):
    """The names in the first column of the tables under "## Modules", up to the next "## " heading."""
    section = re.search(r"^## Modules\n(.*?)(?=^## |\Z)", architecture, re.M | re.S)
    assert section, 'docs/architecture.md has no "## Modules" section'
    names = []
    for line in section.group(1).splitlines():
        cells = line.split("|")
        if line.startswith("|") and len(cells) > 2:
            names += re.findall(r"`([^`]+)`", cells[1])
    return names


def test_the_manifest_is_read():
    targets = declared_targets((ROOT / "Package.swift").read_text())
    for expected in ("bootstrap", "cognito-local", "ChallengeFlows", "TestSupport", "CCurl", "LosslessJSONTests"):
        assert expected in targets


def test_a_missing_module_is_found():
    manifest = '.target(name: "A"),\n.executableTarget(\n    name: "b-tool",\n    dependencies: ["A"]),\n.testTarget(name: "ATests")'
    listed = "## Modules\n\n| module | job |\n| --- | --- |\n| `A` | a |\n| `ATests` | tests |\n## Next\n| `b-tool` | elsewhere |\n"
    assert set(declared_targets(manifest)) - set(listed_modules(listed)) == {"b-tool"}


def test_every_target_is_listed_once_and_nothing_else():
    targets = declared_targets((ROOT / "Package.swift").read_text())
    listed = listed_modules((ROOT / "docs" / "architecture.md").read_text())
    missing = sorted(set(targets) - set(listed))
    unknown = sorted(set(listed) - set(targets))
    twice = sorted({name for name in listed if listed.count(name) > 1})
    assert not missing, f"docs/architecture.md does not list these targets of Package.swift: {missing}"
    assert not unknown, f"docs/architecture.md lists modules Package.swift does not declare: {unknown}"
    assert not twice, f"docs/architecture.md lists these modules more than once: {twice}"
