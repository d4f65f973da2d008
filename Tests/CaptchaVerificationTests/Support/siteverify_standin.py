"""A stand-in for the siteverify APIs of Cloudflare Turnstile, Google reCAPTCHA and hCaptcha, for tests.

Usage: python3 siteverify_standin.py PORT SECRET SITE_KEY

The path picks the provider: /turnstile/..., /recaptcha/..., /hcaptcha/....
The token picks the scenario: the text before its first dot ("pass.1" plays "pass"). Scenarios:
  pass          a correct answer (reCAPTCHA v3: score 0.9 and action "login")
  pass-v2       reCAPTCHA v2: no score, no action
  offset        a correct answer whose challenge_ts carries a +05:30 offset and fractional seconds
  wrong-host    hostname evil.example.net
  wrong-action  action signup
  low-score     score 0.2
  stale         challenge_ts older than the provider's token lifetime
  future        challenge_ts ten minutes ahead
  no-ts         no challenge_ts
  error         success false, error-codes [invalid-input-response]
  leak          success false, error-codes holding the token and the secret
  leak-host     success true, hostname holding the token and the secret
  500           HTTP 500
  slow          a correct answer after 3 seconds
  garbage       HTTP 200 with an HTML body holding the token
A wrong secret answers invalid-input-secret; hCaptcha's sitekey, when sent, must be SITE_KEY.
A token's second use answers timeout-or-duplicate, except on Turnstile with the idempotency_key of its first use,
which repeats the first answer. GET /requests lists every POST: path, content type, client port and form fields.
"""
import datetime, http.server, json, sys, threading, time, urllib.parse

port, expected_secret, expected_site_key = int(sys.argv[1]), sys.argv[2], sys.argv[3]
lifetimes = {"turnstile": 300, "recaptcha": 120, "hcaptcha": 120}
requests, first_uses, lock = [], {}, threading.Lock()


def timestamp(seconds_ago, provider, offset_minutes=None):
    moment = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(seconds=seconds_ago)
    if offset_minutes is not None:
        zone = datetime.timezone(datetime.timedelta(minutes=offset_minutes))
        return moment.astimezone(zone).isoformat(timespec="microseconds")
    if provider == "turnstile":
        return moment.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (moment.microsecond // 1000)
    if provider == "hcaptcha":
        return moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def answer(provider, scenario, fields):
    """(status, body, delay seconds) for a first use."""
    if fields.get("secret") != expected_secret:
        return 200, {"success": False, "error-codes": ["invalid-input-secret"]}, 0
    if provider == "hcaptcha" and "sitekey" in fields and fields["sitekey"] != expected_site_key:
        return 200, {"success": False, "error-codes": ["sitekey-secret-mismatch"]}, 0
    token, secret = fields.get("response", ""), fields["secret"]
    body = {"success": True, "challenge_ts": timestamp(5, provider), "hostname": "login.example.com", "error-codes": []}
    if provider == "turnstile":
        body.update(action="login", cdata="", metadata={"interactive": False})
    if provider == "recaptcha":
        body.update(score=0.9, action="login")
    if scenario == "pass" or scenario == "slow":
        pass
    elif scenario == "pass-v2":
        body.pop("score", None)
        body.pop("action", None)
    elif scenario == "offset":
        body["challenge_ts"] = timestamp(5, provider, offset_minutes=330)
    elif scenario == "wrong-host":
        body["hostname"] = "evil.example.net"
    elif scenario == "wrong-action":
        body["action"] = "signup"
    elif scenario == "low-score":
        body["score"] = 0.2
    elif scenario == "stale":
        body["challenge_ts"] = timestamp(lifetimes[provider] + 30, provider)
    elif scenario == "future":
        body["challenge_ts"] = timestamp(-600, provider)
    elif scenario == "no-ts":
        del body["challenge_ts"]
    elif scenario == "error":
        body = {"success": False, "error-codes": ["invalid-input-response"]}
    elif scenario == "leak":
        body = {"success": False, "error-codes": ["bad-request", "token " + token, "secret " + secret]}
    elif scenario == "leak-host":
        body["hostname"] = "x" + token + secret
    elif scenario == "500":
        return 500, {"error": "internal " + token}, 0
    elif scenario == "garbage":
        return 200, "<html>no JSON for " + token + "</html>", 0
    else:
        return 200, {"success": False, "error-codes": ["unknown-scenario"]}, 0
    return 200, body, 3 if scenario == "slow" else 0


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def reply(self, status, body):
        data = (body if isinstance(body, str) else json.dumps(body)).encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/html" if isinstance(body, str) else "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        with lock:
            self.reply(200, requests)

    def do_POST(self):
        raw = self.rfile.read(int(self.headers.get("Content-Length", "0"))).decode()
        fields = {name: values[0] for name, values in urllib.parse.parse_qs(raw, keep_blank_values=True).items()}
        provider = self.path.strip("/").split("/")[0]
        token = fields.get("response", "")
        key = fields.get("idempotency_key")
        with lock:
            requests.append({"path": self.path, "contentType": self.headers.get("Content-Type"),
                             "port": self.client_address[1], "fields": fields})
            first = first_uses.get(token)
            if first is None:
                status, body, delay = answer(provider, token.split(".")[0], fields)
                first_uses[token] = (key, status, body)
            elif provider == "turnstile" and key is not None and key == first[0]:
                status, body, delay = first[1], first[2], 0
            else:
                status, body, delay = 200, {"success": False, "error-codes": ["timeout-or-duplicate"]}, 0
        time.sleep(delay)
        self.reply(status, body)


http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()
