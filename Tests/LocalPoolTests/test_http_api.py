"""`cognito-local pool`'s HTTP API (the passkey routes) as API Gateway serves it: a JWT authorizer that takes only
this pool's live access tokens for its app client, API Gateway's own 401/404 answers, and CORS for the allowed
origins only."""
import json
import urllib.error
import urllib.request

from conftest import CLIENT_ID

from test_local_pool import answer, start_custom_auth


def call(pool, path, method="GET", token=None, origin=None, body=None):
    """(status, headers, JSON body) of one request to the pool's HTTP API."""
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    if origin is not None:
        headers["Origin"] = origin
    request = urllib.request.Request(
        f"{pool.api_url}{path}", method=method, headers=headers, data=None if body is None else json.dumps(body).encode())
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, response.headers, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, error.headers, json.loads(error.read() or b"null")


def signed_in(pool):
    challenge = start_custom_auth(pool)
    return answer(pool, challenge, pool.latest_code())["AuthenticationResult"]


def test_routes_need_a_live_access_token_of_this_pool(pools):
    pool = pools()
    tokens = signed_in(pool)
    for token in (None, "", "not-a-jwt", tokens["IdToken"]):
        assert call(pool, "/passkeys", token=token)[::2] == (401, {"message": "Unauthorized"}), token
    assert call(pool, "/passkeys", token=tokens["AccessToken"])[0] == 200
    pool.client.revoke_token(Token=tokens["RefreshToken"], ClientId=CLIENT_ID)
    # API Gateway's JWT authorizer cannot see revocation, and neither does the local one: the function refuses the
    # revoked token itself, having asked the pool's GetUser (boto3 signs in, the real bootstrap answers).
    for path, method, body in (("/passkeys", "GET", None), ("/passkeys/registration/options", "POST", {})):
        status, _, answer_body = call(pool, path, method=method, body=body, token=tokens["AccessToken"])
        assert status == 401, (path, answer_body)
        assert "Access Token has been revoked" in answer_body["message"], answer_body


def test_unknown_routes_are_not_found_before_the_authorizer(pools):
    pool = pools()
    for method, path in (("GET", "/"), ("POST", "/passkeys"), ("GET", "/passkeys/registration"), ("PUT", "/passkeys/x")):
        assert call(pool, path, method=method)[::2] == (404, {"message": "Not Found"}), (method, path)


def test_cors_for_the_pools_own_page_only(pools):
    pool = pools()
    own = pool.url
    request = urllib.request.Request(
        f"{pool.api_url}/passkeys/registration", method="OPTIONS",
        headers={"Origin": own, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization,content-type"})
    with urllib.request.urlopen(request) as response:
        assert response.status == 204
        assert response.headers["Access-Control-Allow-Origin"] == own
        assert "PATCH" in response.headers["Access-Control-Allow-Methods"]
        assert "DELETE" in response.headers["Access-Control-Allow-Methods"]
    status, headers, _ = call(pool, "/passkeys", method="OPTIONS", origin="http://evil.example")
    assert status == 403 and headers["Access-Control-Allow-Origin"] is None
    status, headers, _ = call(pool, "/passkeys", origin="http://evil.example")
    assert headers["Access-Control-Allow-Origin"] is None and headers["Vary"] == "Origin"
