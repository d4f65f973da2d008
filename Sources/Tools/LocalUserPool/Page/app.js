// The sign-in page: CUSTOM_AUTH against the pool's Cognito JSON API, one form per challenge kind, and after sign-in
// the user's passkeys through the passkey API (its URL comes in pool.json). Tokens live in this module's memory
// only; a pending magic-link sign-in (user name and Cognito session, no tokens) is kept in localStorage so that the
// link, opened in another tab, can finish it.
import { CognitoClient, CognitoError, decodeClaims } from "./cognito.js";
import { SRPClient } from "./srp.js";
import { renderWidget } from "./captcha.js";
import { PasskeyAPI, passkeyAnswer } from "./passkeys.js";

const $ = (id) => document.getElementById(id);
const PENDING_LINK = "signin.pendingMagicLink";
const SECTIONS = ["start-form", "method-form", "passkey-form", "code-form", "captcha-form", "link-sent", "link-form", "signed-in"];

const MESSAGES = {
  wrongPassword: "Incorrect user name or password.",
  tooManyAttempts: "Too many wrong attempts. This sign-in has ended; start again.",
  notAccepted: "The answer was not accepted. This sign-in has ended; start again.",
  expired: "This sign-in has expired. Start again.",
  codeExpired: "The code has expired. Start again to get a new one.",
  throttled: "Too many sign-in attempts. Wait a few minutes, then try again.",
  linkFailed: "This sign-in link cannot be used (it expired, was used, or a newer one was sent). Start again.",
  passkeyFailed: "No passkey signed you in: it was cancelled, or this device has no passkey for this user. Try again, or start again to choose another way.",
  passkeyRefused: "The passkey was not accepted.",
};

/** What the METHOD_CHOICE buttons say, by step name. */
const METHOD_LABELS = {
  passkey: "Use a passkey",
  "email-code": "Email me a code",
  "sms-code": "Text me a code",
  "magic-link": "Email me a sign-in link",
};

let config;
let client;
/** The sign-in in progress: user name, Cognito session, last challenge's parameters, SRP state. */
let flow = null;
/** { IdToken, AccessToken, RefreshToken } after sign-in; memory only. */
let tokens = null;
let captchaToken = null;
/** The passkey API for the signed-in user, or null. */
let passkeyAPI = null;

function show(section, state) {
  for (const id of SECTIONS) $(id).hidden = id !== section;
  $("again-box").hidden = section === "start-form" || section === "signed-in" || section === null;
  document.body.dataset.state = state ?? section ?? "ended";
  const first = section && $(section).querySelector("input:not([disabled]), button");
  if (first && section !== "signed-in") first.focus();
}

function status(text, kind = "") {
  const element = $("status");
  element.textContent = text;
  element.className = kind;
}

function fail(text, state = "failed") {
  flow = null;
  status(text, "error");
  show(null, state);
  $("again-box").hidden = false;
}

const minutes = (seconds) => {
  const n = Math.max(1, Math.round(Number(seconds) / 60));
  return `${n} minute${n === 1 ? "" : "s"}`;
};
const attempts = (n) => `${n} attempt${n === "1" ? "" : "s"} left`;

/** Shows what a challenge asks, or the signed-in view for tokens. */
async function handle(result, previous) {
  if (result.AuthenticationResult) return signedIn(result.AuthenticationResult);
  const parameters = result.ChallengeParameters ?? {};
  flow.session = result.Session;
  flow.challengeName = result.ChallengeName;
  flow.parameters = parameters;
  flow.userName = parameters.USERNAME ?? flow.userName;
  if (result.ChallengeName === "PASSWORD_VERIFIER") return answerPasswordVerifier();
  if (result.ChallengeName !== "CUSTOM_CHALLENGE") {
    return fail(`This page does not handle the challenge ${result.ChallengeName}.`);
  }
  const wrong = previous && previous.challenge === parameters.challenge &&
    Number(parameters.attemptsLeft) < Number(previous.attemptsLeft);
  flow.expiresAt = parameters.expiresInSeconds ? Date.now() + Number(parameters.expiresInSeconds) * 1000 : null;
  switch (parameters.challenge) {
    case "METHOD_CHOICE": {
      const buttons = (parameters.methods ?? "").split(",").filter(Boolean).map((method) => {
        const button = document.createElement("button");
        button.type = "button";
        button.value = method;
        button.textContent = METHOD_LABELS[method] ?? method;
        button.addEventListener("click", () => chooseMethod(method));
        return button;
      });
      $("methods").replaceChildren($("methods").querySelector("legend"), ...buttons);
      status(wrong ? "That choice was not accepted; choose again." : "Choose how to sign in.", wrong ? "error" : "");
      return show("method-form", "choose-method");
    }
    case "PASSKEY": {
      status(wrong
        ? `${MESSAGES.passkeyRefused} ${attempts(parameters.attemptsLeft)}.`
        : "Use your passkey to sign in.", wrong ? "error" : "");
      return show("passkey-form", wrong ? "wrong-passkey" : "passkey");
    }
    case "EMAIL_CODE":
    case "SMS_CODE": {
      const sms = parameters.challenge === "SMS_CODE";
      const by = sms ? "by text message" : "by email";
      $("code-label").textContent = `Code sent ${by} to ${parameters.destination ?? "you"}`;
      $("code").value = "";
      if (parameters.codeLength) $("code").setAttribute("maxlength", parameters.codeLength);
      status(wrong
        ? `Wrong code. ${attempts(parameters.attemptsLeft)}.`
        : `We sent a code ${by} to ${parameters.destination}. It is valid for ${minutes(parameters.expiresInSeconds ?? 300)}.`,
        wrong ? "error" : "");
      return show("code-form", wrong ? "wrong-code" : "code");
    }
    case "CAPTCHA": {
      captchaToken = null;
      $("captcha-answer").value = "";
      const widget = await renderWidget($("captcha-widget"), parameters, (token) => {
        captchaToken = token;
        status("Verified. Continue to get your code.");
      }).catch((error) => {
        status(`The CAPTCHA could not load: ${error.message}`, "error");
        return true;
      });
      $("captcha-image-box").hidden = widget;
      if (!widget) $("captcha-image").src = parameters.captchaUrl;
      status(wrong
        ? `That was not right; here is a new one. ${attempts(parameters.attemptsLeft)}.`
        : widget ? "Show that you are human." : "Type the characters in the image.",
        wrong ? "error" : "");
      return show("captcha-form", wrong ? "wrong-captcha" : "captcha");
    }
    case "MAGIC_LINK": {
      localStorage.setItem(PENDING_LINK, JSON.stringify({ userName: flow.userName, session: flow.session, savedAt: Date.now() }));
      status(`We sent a sign-in link to ${parameters.destination}. It is valid for ${minutes(parameters.expiresInSeconds ?? 900)}.`);
      return show("link-sent", "link-sent");
    }
    default:
      return fail(`This page does not handle the challenge kind ${parameters.challenge}.`);
  }
}

/**
 * Answers the current challenge, with `metadata` as ClientMetadata when given; a wrong answer comes back as the same
 * challenge with fewer attempts left.
 */
async function answer(responses, metadata) {
  const previous = flow.parameters;
  try {
    const result = await client.respond(flow.challengeName, flow.session, { USERNAME: flow.userName, ...responses }, metadata);
    await handle(result, previous);
  } catch (error) {
    explain(error, previous);
  }
}

function explain(error, previous) {
  if (!(error instanceof CognitoError)) return fail(`Sign-in failed: ${error.message}`);
  console.warn(`${error.type}: ${error.message}`);
  if (/TooManyRequests|LimitExceeded|TooManyFailedAttempts/.test(error.type)) return fail(MESSAGES.throttled, "throttled");
  if (error.type === "NotAuthorizedException") {
    if (/session is expired/i.test(error.message)) return fail(MESSAGES.expired, "expired");
    if (flow?.challengeName === "PASSWORD_VERIFIER") return fail(MESSAGES.wrongPassword, "wrong-password");
    if (previous?.challenge === "MAGIC_LINK") return fail(MESSAGES.linkFailed, "failed");
    if (previous?.attemptsLeft === "1") return fail(MESSAGES.tooManyAttempts, "too-many-attempts");
    if (previous?.challenge === "PASSKEY") return fail(`${MESSAGES.passkeyRefused} Start again.`, "failed");
    return fail(MESSAGES.notAccepted);
  }
  return fail(`Sign-in failed: ${error.message}`);
}

async function answerPasswordVerifier() {
  status("Checking the password…");
  const poolName = config.userPoolId.split("_")[1];
  const responses = await flow.srp.passwordClaim({ poolName, password: flow.password, parameters: flow.parameters });
  flow.password = null;
  await answer(responses);
}

async function start(event) {
  event.preventDefault();
  const userName = $("username").value.trim();
  if (!userName) return status("Enter your user name or email.", "error");
  const password = $("password").value;
  $("password").value = "";
  flow = { userName, password: password || null };
  localStorage.removeItem(PENDING_LINK);
  status("Starting…");
  try {
    let parameters = {};
    if (flow.password) {
      flow.srp = new SRPClient();
      parameters = { SRP_A: flow.srp.srpA, CHALLENGE_NAME: "SRP_A" };
    }
    const result = await client.initiateCustomAuth(userName, parameters);
    await handle(result, null);
  } catch (error) {
    explain(error, null);
  }
}

async function submitCode(event) {
  event.preventDefault();
  const code = $("code").value.replace(/\s+/g, "");
  if (!code) return status("Enter the code.", "error");
  if (flow.expiresAt && Date.now() > flow.expiresAt) return fail(MESSAGES.codeExpired, "expired");
  status("Checking the code…");
  await answer({ ANSWER: code });
}

/** Answers METHOD_CHOICE: the name as the answer, and the same name as ClientMetadata `method` for the next Create. */
async function chooseMethod(method) {
  status("One moment…");
  for (const button of $("methods").querySelectorAll("button")) button.disabled = true;
  await answer({ ANSWER: method }, { method });
}

async function submitPasskey(event) {
  event.preventDefault();
  status("Waiting for your passkey…");
  let response;
  try {
    response = await passkeyAnswer(flow.parameters.options);
  } catch (error) {
    // Cancelled, timed out, or no passkey here matches: the same for every user name, known or not.
    console.warn(`navigator.credentials.get: ${error.name}: ${error.message}`);
    status(MESSAGES.passkeyFailed, "error");
    $("again-box").hidden = false;
    document.body.dataset.state = "passkey-failed";
    return;
  }
  status("Checking the passkey…");
  await answer({ ANSWER: response });
}

async function submitCaptcha(event) {
  event.preventDefault();
  const text = flow.parameters.provider ? captchaToken : $("captcha-answer").value.trim();
  if (!text) return status(flow.parameters.provider ? "Complete the check first." : "Type the characters.", "error");
  status("Checking…");
  await answer({ ANSWER: text });
}

/** The link's token from the fragment (#token=…) or the query (?token=…), removed from the address bar. */
function takeLinkToken() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const query = new URLSearchParams(location.search);
  const token = fragment.get("token") ?? query.get("token");
  if (!token) return null;
  query.delete("token");
  const search = query.toString();
  history.replaceState(null, "", location.pathname + (search ? `?${search}` : ""));
  return token;
}

async function finishWithLink(token, event) {
  event.preventDefault();
  const userName = $("link-username").value.trim();
  if (!userName) return status("Enter your user name or email.", "error");
  status("Signing in…");
  const pending = JSON.parse(localStorage.getItem(PENDING_LINK) ?? "null");
  localStorage.removeItem(PENDING_LINK);
  try {
    if (pending && pending.userName.toLowerCase() === userName.toLowerCase()) {
      flow = { userName: pending.userName, session: pending.session, challengeName: "CUSTOM_CHALLENGE",
        parameters: { challenge: "MAGIC_LINK" } };
    } else {
      // Opened where the sign-in did not start: start one again; the link sent earlier stays in force.
      flow = { userName };
      const challenge = await client.initiateCustomAuth(userName);
      if (challenge.ChallengeParameters?.challenge !== "MAGIC_LINK") return handle(challenge, null);
      flow.session = challenge.Session;
      flow.challengeName = challenge.ChallengeName;
      flow.parameters = challenge.ChallengeParameters;
      flow.userName = challenge.ChallengeParameters.USERNAME ?? userName;
    }
    await answer({ ANSWER: token });
  } catch (error) {
    explain(error, { challenge: "MAGIC_LINK" });
  }
}

async function signedIn(result) {
  tokens = { ...result };
  flow = null;
  localStorage.removeItem(PENDING_LINK);
  const claims = decodeClaims(tokens.IdToken);
  let userName = claims["cognito:username"];
  try {
    userName = (await client.getUser(tokens.AccessToken)).Username ?? userName;
  } catch (error) {
    console.warn(`GetUser: ${error.message}`);
  }
  $("signed-in-heading").textContent = `Signed in as ${userName}`;
  const rows = Object.entries(claims).map(([name, value]) => {
    const row = document.createElement("tr");
    const key = document.createElement("th");
    key.scope = "row";
    key.textContent = name;
    const cell = document.createElement("td");
    cell.textContent = typeof value === "object" ? JSON.stringify(value) : String(value);
    if (["iat", "exp", "auth_time"].includes(name)) cell.title = new Date(value * 1000).toISOString();
    row.append(key, cell);
    return row;
  });
  $("claims").tBodies[0].replaceChildren(...rows);
  status("You are signed in.", "ok");
  show("signed-in", "signed-in");
  passkeyAPI = config.apiUrl ? new PasskeyAPI(config.apiUrl, tokens.AccessToken) : null;
  await listPasskeys();
}

// The passkeys panel: register, list, rename and delete through the passkey API, with the access token.

const when = (seconds) => (seconds ? new Date(seconds * 1000).toLocaleString() : "never");

async function listPasskeys() {
  const panel = $("passkeys");
  panel.hidden = !passkeyAPI;
  if (!passkeyAPI) return;
  panel.dataset.state = "loading";
  try {
    const passkeys = await passkeyAPI.list();
    $("passkey-list").replaceChildren(...passkeys.map(passkeyItem));
    $("passkeys-note").textContent = passkeys.length
      ? "Passkeys that sign you in:"
      : "No passkeys yet. Add one to sign in next time without a code.";
    panel.dataset.state = "ready";
  } catch (error) {
    panel.dataset.state = "error";
    status(`The passkeys could not be listed: ${error.message}`, "error");
  }
}

function passkeyItem(passkey) {
  const item = document.createElement("li");
  item.dataset.id = passkey.id;
  const name = document.createElement("strong");
  name.className = "passkey-name";
  name.textContent = passkey.name;
  const details = document.createElement("span");
  details.className = "hint";
  details.textContent = ` added ${when(passkey.createdAt)} · last used ${when(passkey.lastUsedAt)}`;
  const rename = document.createElement("button");
  rename.type = "button";
  rename.className = "link";
  rename.textContent = "Rename";
  rename.setAttribute("aria-label", `Rename ${passkey.name}`);
  rename.addEventListener("click", () => startRename(passkey));
  const remove = document.createElement("button");
  remove.type = "button";
  remove.className = "link";
  remove.textContent = "Delete";
  remove.setAttribute("aria-label", `Delete ${passkey.name}`);
  remove.addEventListener("click", () => deletePasskey(passkey));
  item.append(name, details, " ", rename, " ", remove);
  return item;
}

async function registerPasskey(event) {
  event.preventDefault();
  const name = $("passkey-name").value.trim();
  status("Follow your browser's prompts to create the passkey…");
  try {
    const passkey = await passkeyAPI.register(name);
    $("passkey-name").value = "";
    status(`Passkey “${passkey.name}” added.`, "ok");
  } catch (error) {
    const text = error.name === "InvalidStateError" ? "This device already holds a passkey for you."
      : error.name === "NotAllowedError" ? "No passkey was created (cancelled or timed out)."
      : error.message;
    status(`The passkey was not added: ${text}`, "error");
  }
  await listPasskeys();
}

let renaming = null;

function startRename(passkey) {
  renaming = passkey;
  $("rename-label").textContent = `New name for “${passkey.name}”`;
  $("rename-name").value = passkey.name;
  $("rename-form").hidden = false;
  $("rename-name").focus();
}

function endRename() {
  renaming = null;
  $("rename-form").hidden = true;
}

async function submitRename(event) {
  event.preventDefault();
  const name = $("rename-name").value.trim();
  if (!name) return status("Enter a name.", "error");
  try {
    const passkey = await passkeyAPI.rename(renaming.id, name);
    status(`Passkey renamed to “${passkey.name}”.`, "ok");
    endRename();
  } catch (error) {
    status(`The passkey was not renamed: ${error.message}`, "error");
  }
  await listPasskeys();
}

async function deletePasskey(passkey) {
  try {
    await passkeyAPI.remove(passkey.id);
    status(`Passkey “${passkey.name}” deleted. Also remove it from your device or password manager.`, "ok");
  } catch (error) {
    status(`The passkey was not deleted: ${error.message}`, "error");
  }
  endRename();
  await listPasskeys();
}

async function signOut(event) {
  event.preventDefault();
  try {
    if (tokens?.RefreshToken) await client.revokeToken(tokens.RefreshToken);
    status("Signed out; the refresh token is revoked.", "ok");
  } catch (error) {
    status(`Signed out here, but the pool did not revoke the token: ${error.message}`, "error");
  }
  tokens = null;
  passkeyAPI = null;
  endRename();
  $("passkey-list").replaceChildren();
  $("claims").tBodies[0].replaceChildren();
  show("start-form", "signed-out");
}

function startAgain() {
  flow = null;
  status("");
  show("start-form", "start");
}

async function main() {
  config = await (await fetch("/page/pool.json", { cache: "no-store" })).json();
  client = new CognitoClient(`${location.origin}/`, config.clientId);
  $("pool-name").textContent = `Local user pool ${config.userPoolId} · app client ${config.clientId}`;
  $("start-form").addEventListener("submit", start);
  $("code-form").addEventListener("submit", submitCode);
  $("captcha-form").addEventListener("submit", submitCaptcha);
  $("passkey-form").addEventListener("submit", submitPasskey);
  $("register-form").addEventListener("submit", registerPasskey);
  $("rename-form").addEventListener("submit", submitRename);
  $("rename-cancel").addEventListener("click", endRename);
  $("sign-out-form").addEventListener("submit", signOut);
  $("start-again").addEventListener("click", startAgain);
  const token = takeLinkToken();
  if (token) {
    const pending = JSON.parse(localStorage.getItem(PENDING_LINK) ?? "null");
    $("link-username").value = pending?.userName ?? "";
    $("link-form").addEventListener("submit", (event) => finishWithLink(token, event));
    status("");
    return show("link-form", "link");
  }
  show("start-form", "start");
}

main().catch((error) => fail(`The page could not start: ${error.message}`, "broken"));
