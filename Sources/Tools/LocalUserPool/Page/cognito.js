// The Cognito user-pool JSON API, called as a browser app calls Cognito: POST / with X-Amz-Target and
// Content-Type application/x-amz-json-1.1. Point `endpoint` at https://cognito-idp.REGION.amazonaws.com/ for a
// real pool.

/** An error Cognito answered: `type` is its __type (e.g. NotAuthorizedException), `message` its message. */
export class CognitoError extends Error {
  constructor(type, message) {
    super(message);
    this.type = type;
  }
}

export class CognitoClient {
  constructor(endpoint, clientId) {
    this.endpoint = endpoint;
    this.clientId = clientId;
  }

  async call(operation, body) {
    const response = await fetch(this.endpoint, {
      method: "POST",
      headers: {
        "Content-Type": "application/x-amz-json-1.1",
        "X-Amz-Target": `AWSCognitoIdentityProviderService.${operation}`,
      },
      body: JSON.stringify(body),
      credentials: "omit",
      cache: "no-store",
    });
    const result = await response.json().catch(() => ({}));
    if (!response.ok) {
      const type = String(result.__type || response.headers.get("x-amzn-ErrorType") || "UnknownError").split("#").pop();
      throw new CognitoError(type, result.message || result.Message || `HTTP ${response.status}`);
    }
    return result;
  }

  /** InitiateAuth with CUSTOM_AUTH; `parameters` may add SRP_A and CHALLENGE_NAME. */
  initiateCustomAuth(userName, parameters = {}, clientMetadata = undefined) {
    return this.call("InitiateAuth", {
      AuthFlow: "CUSTOM_AUTH",
      ClientId: this.clientId,
      AuthParameters: { USERNAME: userName, ...parameters },
      ...(clientMetadata ? { ClientMetadata: clientMetadata } : {}),
    });
  }

  respond(challengeName, session, responses, clientMetadata = undefined) {
    return this.call("RespondToAuthChallenge", {
      ClientId: this.clientId,
      ChallengeName: challengeName,
      Session: session,
      ChallengeResponses: responses,
      ...(clientMetadata ? { ClientMetadata: clientMetadata } : {}),
    });
  }

  getUser(accessToken) {
    return this.call("GetUser", { AccessToken: accessToken });
  }

  revokeToken(refreshToken) {
    return this.call("RevokeToken", { ClientId: this.clientId, Token: refreshToken });
  }
}

/** The claims of a JWT's payload (not verified: the page only shows them; a server verifies tokens). */
export function decodeClaims(jwt) {
  const part = jwt.split(".")[1].replace(/-/g, "+").replace(/_/g, "/");
  const padded = part + "=".repeat((4 - (part.length % 4)) % 4);
  const bytes = Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
  return JSON.parse(new TextDecoder().decode(bytes));
}
