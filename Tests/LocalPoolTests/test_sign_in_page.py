"""The sign-in page `cognito-local pool` serves at `/`, in headless Chromium driven by selenium: every sign-in runs
the page's own JavaScript against the pool's Cognito JSON API, with the triggers in the built bootstrap. A screenshot
of each final state goes to the output folder (SIGN_IN_PAGE_OUTPUT, else a temporary folder, printed); a failure
also saves the page's console log and a screenshot there."""
import json
import os
import pathlib
import shutil
import socket
import tempfile
import time

import pytest

from conftest import POOL_ID

selenium = pytest.importorskip("selenium", reason="selenium is not installed (.ci/setup --test installs it)")
from selenium import webdriver  # noqa: E402
from selenium.common.exceptions import TimeoutException, WebDriverException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.virtual_authenticator import Protocol, Transport, VirtualAuthenticatorOptions  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

PASSWORD = "Correct-Horse-9"
CATALOG_ANSWERS = {
    entry["imageURL"]: entry["answer"]
    for entry in json.loads((pathlib.Path(__file__).resolve().parents[2] / "Deploy" / "captcha-catalog.json").read_text())
}
OUTPUT = pathlib.Path(os.environ.get("SIGN_IN_PAGE_OUTPUT") or tempfile.mkdtemp(prefix="sign-in-page-"))


def chromium_options():
    options = webdriver.ChromeOptions()
    for binary in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(binary):
            options.binary_location = shutil.which(binary)
            break
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--window-size=900,1000", "--no-first-run", "--disable-extensions"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return options


@pytest.fixture(scope="module")
def chromium():
    """One headless Chromium for the module; the tests skip, saying why, only when it cannot start."""
    driver_path = shutil.which("chromedriver")
    try:
        service = webdriver.ChromeService(executable_path=driver_path) if driver_path else webdriver.ChromeService()
        driver = webdriver.Chrome(options=chromium_options(), service=service)
    except WebDriverException as error:
        pytest.skip(f"Chromium cannot start (apt-get install chromium chromium-driver): {error.msg}")
    OUTPUT.mkdir(parents=True, exist_ok=True)
    print(f"\nsign-in page screenshots in {OUTPUT}")
    yield driver
    driver.quit()


@pytest.fixture
def browser(chromium, request):
    """The browser with one tab, cleared between tests; on failure its console log and a screenshot are saved."""
    yield chromium
    report = getattr(request.node, "report_call", None)
    name = request.node.name.replace("/", "_")
    if report is not None and report.failed:
        chromium.save_screenshot(str(OUTPUT / f"{name}-FAILED.png"))
        log = chromium.get_log("browser")
        (OUTPUT / f"{name}-console.log").write_text("\n".join(f"{e['level']} {e['message']}" for e in log))
        print(f"page at failure: {OUTPUT / (name + '-FAILED.png')}; console log: {json.dumps(log, indent=1)}")
    for handle in chromium.window_handles[1:]:
        chromium.switch_to.window(handle)
        chromium.close()
    chromium.switch_to.window(chromium.window_handles[0])
    chromium.get("about:blank")


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def open_page(browser, pool):
    browser.get(f"{pool.url}/")
    wait_for_state(browser, "start")


def wait_for_state(browser, *states, timeout=20):
    try:
        WebDriverWait(browser, timeout).until(lambda b: b.find_element(By.TAG_NAME, "body").get_attribute("data-state") in states)
    except TimeoutException:
        state = browser.find_element(By.TAG_NAME, "body").get_attribute("data-state")
        raise AssertionError(f"the page stayed in state {state!r}, not {states}: {status_text(browser)!r}")
    return browser.find_element(By.TAG_NAME, "body").get_attribute("data-state")


def status_text(browser):
    return browser.find_element(By.ID, "status").text


def fill(browser, element_id, text):
    field = browser.find_element(By.ID, element_id)
    field.clear()
    field.send_keys(text)


def submit(browser, form_id):
    browser.find_element(By.CSS_SELECTOR, f"#{form_id} button[type=submit]").click()


def start(browser, user="jane", password=None):
    fill(browser, "username", user)
    if password is not None:
        fill(browser, "password", password)
    submit(browser, "start-form")


def wait_for_log(pool, text):
    deadline = time.time() + 10
    while time.time() < deadline:
        if text in pool.log_text():
            return
        time.sleep(0.05)
    raise AssertionError(f"the pool's log never said {text!r}:\n{pool.log_text()}")


def wait_for_code(pool, before, user="jane"):
    deadline = time.time() + 10
    while time.time() < deadline:
        codes = pool.codes(user)
        if len(codes) > before:
            return codes[-1]
        time.sleep(0.05)
    raise AssertionError(f"no new code for {user} in the outbox")


def enter_code(browser, code):
    fill(browser, "code", code)
    submit(browser, "code-form")


def claims_shown(browser):
    rows = browser.find_elements(By.CSS_SELECTOR, "#claims tbody tr")
    return {row.find_element(By.TAG_NAME, "th").text: row.find_element(By.TAG_NAME, "td").text for row in rows}


def screenshot(browser, request):
    browser.save_screenshot(str(OUTPUT / f"{request.node.name}.png"))


def assert_signed_in(browser, pool, user="jane"):
    wait_for_state(browser, "signed-in")
    claims = claims_shown(browser)
    assert claims["cognito:username"] == user
    assert claims["iss"] == pool.issuer and claims["token_use"] == "id"
    assert browser.find_element(By.ID, "signed-in-heading").text == f"Signed in as {user}"
    stored = browser.execute_script("return JSON.stringify([Object.keys(localStorage), Object.keys(sessionStorage)])")
    assert stored == "[[],[]]", "tokens stay in memory"
    return claims


def test_page_is_served_with_a_strict_policy(pools):
    import urllib.request
    pool = pools("bootstrap")
    with urllib.request.urlopen(f"{pool.url}/") as response:
        policy = response.headers["Content-Security-Policy"]
        assert response.headers["Content-Type"].startswith("text/html")
        assert response.headers["Referrer-Policy"] == "no-referrer"
        html = response.read().decode()
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy and "default-src 'none'" in policy
    assert "<script>" not in html and "style=" not in html, "no inline script or style"
    assert f"connect-src 'self' {pool.api_url} " in policy, "the page may call the HTTP API, and nothing else new"
    with urllib.request.urlopen(f"{pool.url}/page/pool.json") as response:
        config = json.load(response)
    assert config["userPoolId"] == POOL_ID and config["apiUrl"] == pool.api_url


def test_email_code_sign_in_and_sign_out(pools, browser, request):
    pool = pools("bootstrap")
    open_page(browser, pool)
    before = len(pool.codes())
    start(browser)
    wait_for_state(browser, "code")
    assert "j***@e***.com" in status_text(browser)
    code_input = browser.find_element(By.ID, "code")
    assert code_input.get_attribute("autocomplete") == "one-time-code"
    enter_code(browser, wait_for_code(pool, before))
    claims = assert_signed_in(browser, pool)
    assert claims["email"] == "jane.doe@example.com"
    screenshot(browser, request)
    submit(browser, "sign-out-form")
    wait_for_state(browser, "signed-out")
    assert "revoked" in status_text(browser)
    assert "Refresh Token has been revoked" in pool.log_text() or "RevokeToken" in pool.log_text()


@pytest.mark.parametrize("user", ["jane", "nobody"])
def test_three_wrong_codes_end_the_sign_in(pools, browser, request, user):
    pool = pools("bootstrap")
    open_page(browser, pool)
    start(browser, user=user)
    wait_for_state(browser, "code")
    texts = []
    for left in ("2 attempts left", "1 attempt left"):
        enter_code(browser, "000000" if pool.codes(user)[-1:] != ["000000"] else "111111")
        wait_for_state(browser, "wrong-code")
        WebDriverWait(browser, 10).until(lambda b: left in status_text(b))
        texts.append(status_text(browser))
    enter_code(browser, "000000" if pool.codes(user)[-1:] != ["000000"] else "111111")
    wait_for_state(browser, "too-many-attempts")
    texts.append(status_text(browser))
    assert texts[0] == "Wrong code. 2 attempts left." and texts[1] == "Wrong code. 1 attempt left."
    assert texts[2] == "Too many wrong attempts. This sign-in has ended; start again."
    screenshot(browser, request)


def test_srp_then_code(pools, browser, request):
    pool = pools("bootstrap", flow="srp-email-code")
    open_page(browser, pool)
    before = len(pool.codes())
    start(browser, password=PASSWORD)
    wait_for_state(browser, "code")
    enter_code(browser, wait_for_code(pool, before))
    assert_signed_in(browser, pool)
    screenshot(browser, request)


def test_srp_with_a_wrong_password(pools, browser, request):
    pool = pools("bootstrap", flow="srp-email-code")
    open_page(browser, pool)
    before = len(pool.codes())
    start(browser, password="Wrong-Horse-10")
    wait_for_state(browser, "wrong-password")
    assert status_text(browser) == "Incorrect user name or password."
    assert len(pool.codes()) == before, "no code after a wrong password"
    screenshot(browser, request)


def test_captcha_then_code(pools, browser, request):
    pool = pools("bootstrap", flow="captcha-email-code")
    open_page(browser, pool)
    start(browser)
    wait_for_state(browser, "captcha")
    image = browser.find_element(By.ID, "captcha-image").get_attribute("src")
    fill(browser, "captcha-answer", "wrong")
    submit(browser, "captcha-form")
    wait_for_state(browser, "wrong-captcha")
    assert "2 attempts left" in status_text(browser)
    image = browser.find_element(By.ID, "captcha-image").get_attribute("src")
    before = len(pool.codes())
    fill(browser, "captcha-answer", CATALOG_ANSWERS[image])
    submit(browser, "captcha-form")
    wait_for_state(browser, "code")
    enter_code(browser, wait_for_code(pool, before))
    assert_signed_in(browser, pool)
    screenshot(browser, request)


def test_captcha_widget_of_the_local_stand_in(pools, browser, request):
    pool = pools("bootstrap", flow="captcha-email-code", env={"CAPTCHA_PROVIDER": "turnstile"})
    open_page(browser, pool)
    start(browser)
    wait_for_state(browser, "captcha")
    widget = browser.find_element(By.CSS_SELECTOR, "#captcha-widget button")
    assert "turnstile stand-in" in widget.text
    before = len(pool.codes())
    widget.click()
    submit(browser, "captcha-form")
    wait_for_state(browser, "code")
    enter_code(browser, wait_for_code(pool, before))
    assert_signed_in(browser, pool)
    screenshot(browser, request)


def test_captcha_step_up_after_a_wrong_code(pools, browser, request):
    pool = pools("bootstrap", env={"CAPTCHA_STEP_UP_AFTER_FAILURES": "1", "STATE_STORE": "memory", "CAPTCHA_PROVIDER": "turnstile"})
    open_page(browser, pool)
    before = len(pool.codes())
    start(browser)
    wait_for_state(browser, "code")
    code = wait_for_code(pool, before)
    enter_code(browser, "000000" if code != "000000" else "111111")
    # One wrong answer reaches the threshold: the next challenge of the sign-in is a CAPTCHA, then the same code.
    wait_for_state(browser, "captcha")
    browser.find_element(By.CSS_SELECTOR, "#captcha-widget button").click()
    submit(browser, "captcha-form")
    wait_for_state(browser, "code")
    assert len(pool.codes()) == before + 1, "the code sent before the CAPTCHA is still the one to enter"
    enter_code(browser, code)
    assert_signed_in(browser, pool)
    screenshot(browser, request)


def test_magic_link_in_a_second_tab(pools, browser, request):
    port = free_port()
    pool = pools("bootstrap", flow="magic-link", args=("--port", str(port)),
                 env={"MAGIC_LINK_URL": f"http://127.0.0.1:{port}/#token={{token}}"})
    open_page(browser, pool)
    before = len(pool.codes())
    start(browser)
    wait_for_state(browser, "link-sent")
    assert "sign-in link" in status_text(browser)
    wait_for_code(pool, before)
    messages = [json.loads(line) for line in pool.outbox.read_text().splitlines() if line.strip()]
    link = messages[-1]["link"]
    assert link.startswith(f"http://127.0.0.1:{port}/#token=")
    first = browser.current_window_handle
    browser.switch_to.new_window("tab")
    browser.get(link)
    wait_for_state(browser, "link")
    assert "token" not in browser.current_url, "the token is removed from the address bar"
    assert browser.find_element(By.ID, "link-username").get_attribute("value") == "jane"
    submit(browser, "link-form")
    assert_signed_in(browser, pool)
    screenshot(browser, request)
    browser.close()
    browser.switch_to.window(first)


def last_message(pool):
    return [json.loads(line) for line in pool.outbox.read_text().splitlines() if line.strip()][-1]


def test_sms_code(pools, browser, request):
    pool = pools("bootstrap", flow="sms-code")
    open_page(browser, pool)
    before = len(pool.codes())
    start(browser)
    wait_for_state(browser, "code")
    assert "by text message to +*******0100" in status_text(browser)
    code = wait_for_code(pool, before)
    assert last_message(pool)["channel"] == "sms"
    enter_code(browser, code)
    assert_signed_in(browser, pool)
    screenshot(browser, request)


def test_password_then_the_channel_chosen(pools, browser, request):
    """srp+email-or-sms-code: after the password the page asks how; "Text me a code" answers sms-code, which travels
    as ClientMetadata method to the Create that texts the code."""
    pool = pools("bootstrap", flow="srp+email-or-sms-code")
    open_page(browser, pool)
    before = len(pool.codes())
    start(browser, password=PASSWORD)
    choose(browser, "Text me a code", offered=("Email me a code", "Text me a code"))
    wait_for_state(browser, "code")
    assert "by text message" in status_text(browser)
    code = wait_for_code(pool, before)
    assert last_message(pool)["channel"] == "sms"
    enter_code(browser, code)
    assert_signed_in(browser, pool)
    screenshot(browser, request)


def wait_for_status(browser, text, timeout=20):
    try:
        WebDriverWait(browser, timeout).until(lambda b: text in status_text(b))
    except TimeoutException:
        raise AssertionError(f"the status never said {text!r}: {status_text(browser)!r}")


def advance_page_clock(browser, seconds):
    """Moves the page's clock (Date.now, what it times a code by) forward by `seconds`, until it is next loaded."""
    browser.execute_script("""
        const seconds = arguments[0];
        if (window.clockOffset === undefined) {
          const realNow = Date.now.bind(Date);
          window.clockOffset = 0;
          Date.now = () => realNow() + window.clockOffset;
        }
        window.clockOffset += seconds * 1000;""", seconds)


def test_an_expired_code(pools, browser, request, clock):
    """CODE_TTL_SECONDS=30 (the least): the right code typed after the time the challenge gave ends the sign-in.
    The 31 seconds pass on the clocks of the pool and its bootstrap (libfaketime) and of the page, not the test's: the
    page tells the code expired by its own clock (the bootstrap, by its, would take the code as wrong)."""
    pool = pools("bootstrap", env={"CODE_TTL_SECONDS": "30"}, clock=clock)
    open_page(browser, pool)
    before = len(pool.codes())
    start(browser)
    wait_for_state(browser, "code")
    assert "It is valid for 1 minute." in status_text(browser)
    code = wait_for_code(pool, before)
    clock.advance(31)
    advance_page_clock(browser, 31)
    enter_code(browser, code)
    wait_for_state(browser, "expired")
    assert status_text(browser) == "The code has expired. Start again to get a new one."
    assert browser.find_element(By.ID, "start-again").is_displayed()
    screenshot(browser, request)


def test_a_throttled_user_sees_the_same_words(pools, browser, request):
    """Past MAX_SENDS_PER_WINDOW the triggers send nothing and answer with a challenge that looks like any other and
    never verifies: the page says what it says to everyone (the same words as for an unknown user), and the code
    from before is wrong."""
    pool = pools("bootstrap", env={"MAX_SENDS_PER_WINDOW": "1", "RESEND_AFTER_SECONDS": "0"})
    open_page(browser, pool)
    before = len(pool.codes())
    start(browser)
    wait_for_state(browser, "code")
    first_status = status_text(browser)
    first_code = wait_for_code(pool, before)
    browser.find_element(By.ID, "start-again").click()
    wait_for_state(browser, "start")
    start(browser)
    wait_for_state(browser, "code")
    assert status_text(browser) == first_status
    # The Create writes any message before it answers, and it has answered (the page shows the code form again);
    # its log line, which comes through the bootstrap's output, says it sent nothing.
    wait_for_log(pool, "nothing sent: the user reached MAX_SENDS_PER_WINDOW=1")
    assert len(pool.codes()) == before + 1, "nothing is sent past the limit"
    enter_code(browser, first_code)
    wait_for_state(browser, "wrong-code")
    assert status_text(browser) == "Wrong code. 2 attempts left."
    assert "MAX_SENDS_PER_WINDOW=1" in pool.log_text()
    screenshot(browser, request)


@pytest.fixture
def authenticator(browser):
    """A DevTools virtual authenticator like a laptop's: CTAP2, built in, resident keys, user verification."""
    options = VirtualAuthenticatorOptions(
        protocol=Protocol.CTAP2, transport=Transport.INTERNAL, has_resident_key=True, has_user_verification=True,
        is_user_consenting=True, is_user_verified=True)
    browser.add_virtual_authenticator(options)
    yield browser
    browser.remove_virtual_authenticator()


def open_page_for_passkeys(browser, pool):
    """The page at http://localhost:PORT/, an origin the local passkey settings allow (an IP is never an RP ID)."""
    browser.get(pool.url.replace("127.0.0.1", "localhost") + "/")
    wait_for_state(browser, "start")


def passkeys_listed(browser):
    WebDriverWait(browser, 20).until(lambda b: b.find_element(By.ID, "passkeys").get_attribute("data-state") in ("ready", "error"))
    assert browser.find_element(By.ID, "passkeys").get_attribute("data-state") == "ready", status_text(browser)
    return [item.find_element(By.CLASS_NAME, "passkey-name").text
            for item in browser.find_elements(By.CSS_SELECTOR, "#passkey-list li")]


def choose(browser, label, offered=("Email me a code", "Use a passkey")):
    wait_for_state(browser, "choose-method")
    buttons = {button.text: button for button in browser.find_elements(By.CSS_SELECTOR, "#methods button")}
    assert sorted(buttons) == sorted(offered)
    buttons[label].click()


def test_passkeys_register_sign_in_rename_and_delete(pools, authenticator, request):
    browser = authenticator
    pool = pools("bootstrap", flow="passkey-or-email-code")
    open_page_for_passkeys(browser, pool)
    assert browser.find_element(By.ID, "username").get_attribute("autocomplete") == "username webauthn"
    before = len(pool.codes())
    start(browser)
    choose(browser, "Email me a code")
    wait_for_state(browser, "code")
    enter_code(browser, wait_for_code(pool, before))
    assert_signed_in(browser, pool)
    assert passkeys_listed(browser) == []

    fill(browser, "passkey-name", "Test laptop")
    submit(browser, "register-form")
    wait_for_status(browser, "Passkey “Test laptop” added.")
    assert passkeys_listed(browser) == ["Test laptop"]
    stored = browser.get_credentials()
    assert len(stored) == 1 and stored[0].is_resident_credential
    listed_id = browser.find_element(By.CSS_SELECTOR, "#passkey-list li").get_attribute("data-id")
    assert listed_id == stored[0].id.rstrip("="), "the API lists the credential the authenticator made"

    browser.find_element(By.CSS_SELECTOR, "#passkey-list li button[aria-label='Rename Test laptop']").click()
    fill(browser, "rename-name", "Work laptop")
    submit(browser, "rename-form")
    wait_for_status(browser, "Passkey renamed to “Work laptop”.")
    assert passkeys_listed(browser) == ["Work laptop"]
    assert "last used never" in browser.find_element(By.CSS_SELECTOR, "#passkey-list li").text

    submit(browser, "sign-out-form")
    wait_for_state(browser, "signed-out")
    codes_before_passkey = len(pool.codes())
    start(browser)
    choose(browser, "Use a passkey")
    wait_for_state(browser, "passkey")
    submit(browser, "passkey-form")
    assert_signed_in(browser, pool)
    assert len(pool.codes()) == codes_before_passkey, "the passkey alone signs in: no code is sent"
    assert passkeys_listed(browser) == ["Work laptop"]
    assert "last used never" not in browser.find_element(By.CSS_SELECTOR, "#passkey-list li").text
    assert browser.get_credentials()[0].sign_count >= 1
    screenshot(browser, request)
    if os.environ.get("SIGN_IN_PAGE_DOCS_IMAGE"):
        # docs/images/sign-in-page.png: SIGN_IN_PAGE_DOCS_IMAGE=docs/images/sign-in-page.png pytest -k passkeys_register
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                {"width": 900, "height": 700, "deviceScaleFactor": 1, "mobile": False})
        browser.execute_script("window.scrollTo(0, 0)")
        browser.save_screenshot(os.environ["SIGN_IN_PAGE_DOCS_IMAGE"])
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})

    browser.find_element(By.CSS_SELECTOR, "#passkey-list li button[aria-label='Delete Work laptop']").click()
    wait_for_status(browser, "Passkey “Work laptop” deleted.")
    assert passkeys_listed(browser) == []
    screenshot_name = OUTPUT / f"{request.node.name}-deleted.png"
    browser.save_screenshot(str(screenshot_name))


def test_passkeys_without_the_browsers_json_helpers(pools, authenticator, request):
    """passkeys.js's base64url fallback, for browsers without parse*OptionsFromJSON and toJSON(): the same
    registration and sign-in work with them removed."""
    browser = authenticator
    pool = pools("bootstrap", flow="passkey-or-email-code")
    open_page_for_passkeys(browser, pool)
    browser.execute_script(
        "delete PublicKeyCredential.parseCreationOptionsFromJSON; delete PublicKeyCredential.parseRequestOptionsFromJSON;"
        "delete PublicKeyCredential.prototype.toJSON;")
    assert browser.execute_script("return 'toJSON' in PublicKeyCredential.prototype || !!PublicKeyCredential.parseRequestOptionsFromJSON") is False
    before = len(pool.codes())
    start(browser)
    choose(browser, "Email me a code")
    wait_for_state(browser, "code")
    enter_code(browser, wait_for_code(pool, before))
    assert_signed_in(browser, pool)
    fill(browser, "passkey-name", "Old browser")
    submit(browser, "register-form")
    wait_for_status(browser, "Passkey “Old browser” added.")
    submit(browser, "sign-out-form")
    wait_for_state(browser, "signed-out")
    start(browser)
    choose(browser, "Use a passkey")
    wait_for_state(browser, "passkey")
    submit(browser, "passkey-form")
    assert_signed_in(browser, pool)
    assert "Old browser" in passkeys_listed(browser)
    screenshot(browser, request)
    browser.find_element(By.CSS_SELECTOR, "#passkey-list li button[aria-label='Delete Old browser']").click()
    wait_for_status(browser, "Passkey “Old browser” deleted.")
    assert "Old browser" not in passkeys_listed(browser)


@pytest.mark.parametrize("user", ["jane", "nobody"])
def test_passkey_sign_in_without_a_passkey(pools, authenticator, request, user):
    """A real user without passkeys and an unknown user get decoy credentials: the authenticator holds none of them,
    so the ceremony ends unanswered (a person would cancel the browser's dialog; here it times out after
    PASSKEY_TIMEOUT_MS, the least allowed), and the page says the same to both."""
    browser = authenticator
    pool = pools("bootstrap", flow="passkey", env={"PASSKEY_TIMEOUT_MS": "10000"})
    open_page_for_passkeys(browser, pool)
    start(browser, user=user)
    wait_for_state(browser, "passkey")
    submit(browser, "passkey-form")
    wait_for_state(browser, "passkey-failed", timeout=40)
    assert status_text(browser) == (
        "No passkey signed you in: it was cancelled, or this device has no passkey for this user. "
        "Try again, or start again to choose another way.")
    assert browser.find_element(By.ID, "start-again").is_displayed()
    screenshot(browser, request)
