// Cognito's SRP-6a for the browser, with BigInt and WebCrypto: the 3072-bit group of RFC 5054 with g = 2,
// k = H(pad(N) ‖ pad(g)), x = H(pad(salt) ‖ H(poolName ‖ userId ‖ ":" ‖ password)), u = H(pad(A) ‖ pad(B)),
// S = (B − k·g^x)^(a + u·x) mod N, the claim key HKDF-SHA256(salt pad(u), key pad(S), info "Caldera Derived Key")
// cut to 16 bytes, and PASSWORD_CLAIM_SIGNATURE = HMAC-SHA256(key, poolName ‖ userId ‖ secret block ‖ timestamp).

const N = BigInt(
  "0xFFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DD" +
    "EF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED" +
    "EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F" +
    "83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3B" +
    "E39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6955817183995497CEA956AE515D2261898FA0510" +
    "15728E5A8AAAC42DAD33170D04507A33A85521ABDF1CBA64ECFB850458DBEF0A8AEA71575D060C7DB3970F85A6E1E4C7" +
    "ABF5AE8CDB0933D71E8C94E04A25619DCEE3D2261AD2EE6BF12FFA06D98A0864D87602733EC86A64521F2B18177B200C" +
    "BBE117577A615D6C770988C0BAD946E208E24FA074E5AB3143DB5BFCE0FD108E4B82D120A93AD2CAFFFFFFFFFFFFFFFF",
);
const g = 2n;
const encoder = new TextEncoder();

/** Hex text padded as amazon-cognito-identity-js pads it: an even number of digits, "00" before 8…f. */
function padHex(hex) {
  if (hex.length % 2 === 1) return "0" + hex;
  return "89abcdefABCDEF".includes(hex[0]) ? "00" + hex : hex;
}

function hexToBytes(hex) {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.substr(i * 2, 2), 16);
  return bytes;
}

function bytesToHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A non-negative number's padded bytes. */
const padded = (n) => hexToBytes(padHex(n.toString(16)));

function concat(...parts) {
  const out = new Uint8Array(parts.reduce((sum, p) => sum + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

async function sha256(bytes) {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
}

async function hmac(key, message) {
  const imported = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", imported, message));
}

const toBigInt = (bytes) => (bytes.length ? BigInt("0x" + bytesToHex(bytes)) : 0n);
const mod = (a, m) => ((a % m) + m) % m;

function modPow(base, exponent, modulus) {
  let result = 1n;
  base = mod(base, modulus);
  while (exponent > 0n) {
    if (exponent & 1n) result = (result * base) % modulus;
    base = (base * base) % modulus;
    exponent >>= 1n;
  }
  return result;
}

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** The TIMESTAMP Cognito signs with, in UTC: "Tue Nov 3 07:04:05 UTC 2026" (no leading zero on the day). */
export function cognitoTimestamp(date = new Date()) {
  const two = (n) => String(n).padStart(2, "0");
  const time = `${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())}`;
  return `${WEEKDAYS[date.getUTCDay()]} ${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()} ${time} UTC ${date.getUTCFullYear()}`;
}

/** One SRP sign-in: `srpA` goes in InitiateAuth, `passwordClaim` answers PASSWORD_VERIFIER. */
export class SRPClient {
  constructor() {
    const random = crypto.getRandomValues(new Uint8Array(128));
    this.a = mod(toBigInt(random), N);
    if (this.a === 0n) this.a = 1n;
    this.A = modPow(g, this.a, N);
  }

  /** SRP_A: lower-case hexadecimal without leading zeros. */
  get srpA() {
    return this.A.toString(16);
  }

  /** The ChallengeResponses for PASSWORD_VERIFIER. `poolName` is the user-pool id's part after "_". */
  async passwordClaim({ poolName, password, parameters, now = new Date() }) {
    const userId = parameters.USER_ID_FOR_SRP;
    const B = BigInt("0x" + parameters.SRP_B);
    if (mod(B, N) === 0n) throw new Error("SRP_B is 0 mod N");
    const u = toBigInt(await sha256(concat(padded(this.A), padded(B))));
    if (u === 0n) throw new Error("u is 0");
    const k = toBigInt(await sha256(concat(padded(N), padded(g))));
    const identity = await sha256(encoder.encode(`${poolName}${userId}:${password}`));
    const x = toBigInt(await sha256(concat(hexToBytes(padHex(parameters.SALT)), identity)));
    const base = mod(B - k * modPow(g, x, N), N);
    const S = modPow(base, this.a + u * x, N);
    const prk = await hmac(padded(u), padded(S));
    const key = (await hmac(prk, concat(encoder.encode("Caldera Derived Key"), new Uint8Array([1])))).slice(0, 16);
    const timestamp = cognitoTimestamp(now);
    const secretBlock = Uint8Array.from(atob(parameters.SECRET_BLOCK), (c) => c.charCodeAt(0));
    const signature = await hmac(
      key,
      concat(encoder.encode(poolName), encoder.encode(userId), secretBlock, encoder.encode(timestamp)),
    );
    return {
      USERNAME: userId,
      PASSWORD_CLAIM_SECRET_BLOCK: parameters.SECRET_BLOCK,
      PASSWORD_CLAIM_SIGNATURE: btoa(String.fromCharCode(...signature)),
      TIMESTAMP: timestamp,
    };
  }
}
