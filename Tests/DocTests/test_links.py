"""The links between the documents lead somewhere: every relative link of README.md, Deploy/README.md and docs/*.md
names a file of the repository, and every `#anchor` a heading of that file (GitHub's anchors: lower case, spaces to
`-`, punctuation dropped)."""
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOCUMENTS = [ROOT / "README.md", ROOT / "Deploy" / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def anchor(heading):
    text = heading.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(document):
    text = re.sub(r"^```.*?^```", "", document.read_text(), flags=re.M | re.S)
    return {anchor(match) for match in re.findall(r"^#+ (.*)$", text, re.M)}


def links(document):
    return relative_links(document.read_text())


def relative_links(text):
    """The relative link targets of Markdown text, outside code blocks and inline code (where `[a](b)` is code)."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)
    text = re.sub(r"`[^`\n]*`", "", text)
    return [target for target in re.findall(r"\]\(([^)\s]+)\)", text) if not re.match(r"[a-z]+:", target)]


def test_code_is_not_a_link():
    assert relative_links("`[UInt8](unsafeUninitializedCapacity:)` and [`serve`](docs/local.md#serve)") == [
        "docs/local.md#serve"
    ]


def test_anchors_follow_github():
    assert anchor("Magic links: the app's page") == "magic-links-the-apps-page"
    assert anchor("Limits across sign-ins (`STATE_STORE`)") == "limits-across-sign-ins-state_store"


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda document: str(document.relative_to(ROOT)))
def test_every_link_resolves(document):
    broken = []
    for target in links(document):
        path, _, fragment = target.partition("#")
        file = (document.parent / path).resolve() if path else document
        if not file.exists():
            broken.append(f"{target}: no such file")
        elif fragment and file.suffix == ".md" and fragment not in anchors(file):
            broken.append(f"{target}: no such heading in {file.relative_to(ROOT)}")
    assert not broken, f"{document.relative_to(ROOT)}: " + "; ".join(broken)
