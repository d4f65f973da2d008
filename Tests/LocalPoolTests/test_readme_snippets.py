"""docs/cognito-local.md's Python client code, run as written against `cognito-local pool` (only the pool's address and
outbox path are those of the test's pool, here with the triggers in-process): what the document prints is what it
prints. Tests/DocTests runs the same block as written, against the pool the document starts."""
import contextlib
import io
import pathlib
import re

README = pathlib.Path(__file__).resolve().parents[2] / "docs" / "cognito-local.md"


def python_blocks():
    return re.findall(r"```python\n(.*?)```", README.read_text(), re.S)


def test_the_boto3_and_pycognito_sign_in_runs_as_written(pools):
    pool = pools("in-process", flow="srp-email-code")
    [block] = [block for block in python_blocks() if "AWSSRP" in block]
    code = block.replace("http://127.0.0.1:9230", pool.url).replace("/tmp/outbox.jsonl", str(pool.outbox))
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, "docs/cognito-local.md", "exec"), {})
    lines = printed.getvalue().splitlines()
    assert lines[0] == "CUSTOM_CHALLENGE j***@e***.com"
    assert lines[1] == "['AccessToken', 'ExpiresIn', 'IdToken', 'RefreshToken', 'TokenType']"
