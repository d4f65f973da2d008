// The CAPTCHA step: the catalog's image, a provider's widget (Turnstile, reCAPTCHA, hCaptcha) with its real
// script, or, when the pool runs with the local siteverify stand-in (site key "local-site-key"), a stand-in widget
// whose token the stand-in accepts, so the flow runs offline.

const PROVIDERS = {
  turnstile: { script: "https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit", global: "turnstile" },
  recaptcha: { script: "https://www.google.com/recaptcha/api.js?render=explicit", global: "grecaptcha" },
  hcaptcha: { script: "https://js.hcaptcha.com/1/api.js?render=explicit", global: "hcaptcha" },
};
export const LOCAL_SITE_KEY = "local-site-key";

function loadScript(src) {
  return new Promise((resolve, reject) => {
    const existing = document.querySelector(`script[src="${src}"]`);
    if (existing) return resolve();
    const script = document.createElement("script");
    script.src = src;
    script.async = true;
    script.onload = () => resolve();
    script.onerror = () => reject(new Error(`the CAPTCHA script ${src} did not load`));
    document.head.append(script);
  });
}

async function waitForGlobal(name) {
  for (let i = 0; i < 100 && !window[name]?.render; i++) await new Promise((r) => setTimeout(r, 50));
  if (!window[name]?.render) throw new Error(`the CAPTCHA widget ${name} did not start`);
  return window[name];
}

/**
 * Renders the widget for the public parameters into `container` and calls `onToken(token)` when it is solved.
 * Returns false when the parameters name no provider (the catalog's image is shown instead).
 */
export async function renderWidget(container, parameters, onToken) {
  container.replaceChildren();
  const provider = parameters.provider;
  if (!provider) return false;
  if (parameters.siteKey === LOCAL_SITE_KEY) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "stand-in-widget";
    button.setAttribute("aria-pressed", "false");
    button.textContent = `I am human (local ${provider} stand-in)`;
    button.addEventListener("click", () => {
      button.setAttribute("aria-pressed", "true");
      button.textContent = `✓ Verified (local ${provider} stand-in)`;
      const nonce = crypto.getRandomValues(new Uint32Array(2)).join("");
      onToken(`pass.${nonce}`);
    });
    container.append(button);
    return true;
  }
  const known = PROVIDERS[provider];
  if (!known) throw new Error(`unknown CAPTCHA provider ${provider}`);
  await loadScript(known.script);
  const api = await waitForGlobal(known.global);
  const options = { sitekey: parameters.siteKey, callback: onToken };
  if (parameters.action && provider === "turnstile") options.action = parameters.action;
  api.render(container, options);
  return true;
}
