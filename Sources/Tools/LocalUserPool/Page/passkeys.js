// Passkeys in the browser: the PASSKEY challenge's ceremony (navigator.credentials.get) and registration through
// the passkey API (navigator.credentials.create), with the JSON forms of WebAuthn Level 3. Browsers that lack
// PublicKeyCredential.parse*OptionsFromJSON or credential.toJSON() get the small base64url fallback below.

const toBytes = (text) => Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
const toText = (buffer) =>
  btoa(String.fromCharCode(...new Uint8Array(buffer))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
const withIds = (list) => list?.map((credential) => ({ ...credential, id: toBytes(credential.id) }));

function requestOptions(json) {
  if (PublicKeyCredential.parseRequestOptionsFromJSON) return PublicKeyCredential.parseRequestOptionsFromJSON(json);
  return { ...json, challenge: toBytes(json.challenge), allowCredentials: withIds(json.allowCredentials) };
}

function creationOptions(json) {
  if (PublicKeyCredential.parseCreationOptionsFromJSON) return PublicKeyCredential.parseCreationOptionsFromJSON(json);
  return { ...json, challenge: toBytes(json.challenge), user: { ...json.user, id: toBytes(json.user.id) },
    excludeCredentials: withIds(json.excludeCredentials) };
}

/** AuthenticationResponseJSON or RegistrationResponseJSON: what credential.toJSON() gives. */
function credentialJSON(credential) {
  if (typeof credential.toJSON === "function") return credential.toJSON();
  const response = {};
  for (const name of ["clientDataJSON", "authenticatorData", "signature", "userHandle", "attestationObject"]) {
    if (credential.response[name]) response[name] = toText(credential.response[name]);
  }
  if (credential.response.getTransports) response.transports = credential.response.getTransports();
  return { id: credential.id, rawId: toText(credential.rawId), type: credential.type, response,
    authenticatorAttachment: credential.authenticatorAttachment ?? undefined,
    clientExtensionResults: credential.getClientExtensionResults() };
}

/** The answer to a PASSKEY challenge: its public parameter `options` → navigator.credentials.get → JSON text. */
export async function passkeyAnswer(optionsText) {
  const credential = await navigator.credentials.get({ publicKey: requestOptions(JSON.parse(optionsText)) });
  return JSON.stringify(credentialJSON(credential));
}

/** An error the passkey API answered (`{"message": …}`), with its HTTP status. */
export class PasskeyAPIError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/** The passkey routes of the HTTP API, called with the signed-in user's access token. */
export class PasskeyAPI {
  constructor(baseURL, accessToken) {
    this.baseURL = baseURL.replace(/\/$/, "");
    this.accessToken = accessToken;
  }

  async call(method, path, body = undefined) {
    const response = await fetch(`${this.baseURL}${path}`, {
      method,
      headers: { Authorization: `Bearer ${this.accessToken}`, ...(body ? { "Content-Type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      credentials: "omit",
      cache: "no-store",
    });
    const result = response.status === 204 ? null : await response.json().catch(() => null);
    if (!response.ok) throw new PasskeyAPIError(response.status, result?.message ?? `HTTP ${response.status}`);
    return result;
  }

  /** Options from the API → navigator.credentials.create → the RegistrationResponseJSON, with a name, posted back. */
  async register(name) {
    const options = await this.call("POST", "/passkeys/registration/options", {});
    const credential = await navigator.credentials.create({ publicKey: creationOptions(options) });
    return this.call("POST", "/passkeys/registration", { ...credentialJSON(credential), ...(name ? { name } : {}) });
  }

  async list() {
    return (await this.call("GET", "/passkeys")).passkeys;
  }

  rename(id, name) {
    return this.call("PATCH", `/passkeys/${encodeURIComponent(id)}`, { name });
  }

  remove(id) {
    return this.call("DELETE", `/passkeys/${encodeURIComponent(id)}`);
  }
}
