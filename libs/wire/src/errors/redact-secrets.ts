const REDACTED = '[redacted]';
const KEY_LIKE = /\b(sk|key|pk|rk)-[A-Za-z0-9_*.-]{6,}/g;
/** Shorter "keys" would redact ordinary words; a real provider key is far longer. */
const MIN_SECRET_LENGTH = 4;
/** Escapes a key can hide behind in an upstream's text: \uXXXX, \xXX, \/, %XX, &#N; and &#xH;. */
const ESCAPE = /\\u([0-9a-fA-F]{4})|\\x([0-9a-fA-F]{2})|\\(\/)|%([0-9a-fA-F]{2})|&#(\d{1,7});|&#x([0-9a-fA-F]{1,6});/g;

/** The spellings of a key an upstream may quote: as is, JSON-escaped, URL-encoded. */
function spellingsOf(secret: string): string[] {
  const spellings = new Set([secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)]);
  return [...spellings];
}

const HAS_ESCAPE = new RegExp(ESCAPE.source);

type Group = string | undefined;

function unescapeAll(text: string): string {
  return text.replace(ESCAPE, (match: string, u: Group, x: Group, slash: Group, pct: Group, dec: Group, hex: Group) => {
    if (slash) return slash;
    const hexDigits = u ?? x ?? pct ?? hex;
    const code = hexDigits === undefined ? Number(dec) : parseInt(hexDigits, 16);
    return code <= 0x10ffff ? String.fromCodePoint(code) : match;
  });
}

/**
 * Upstream error strings can quote the key they were sent ("Incorrect API key provided: sk-…"),
 * anywhere, repeated, or escaped. Every spelling of every channel key is cut out; a text that
 * still spells one once its escapes are undone is dropped whole.
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length < MIN_SECRET_LENGTH) continue;
    for (const spelling of spellingsOf(secret)) {
      if (out.includes(spelling)) out = out.split(spelling).join(REDACTED);
    }
  }
  out = out.replace(KEY_LIKE, REDACTED);
  if (HAS_ESCAPE.test(out)) {
    // Undone twice: a key escaped twice over (`\\u0073k-…` inside quoted JSON) shows after the second pass.
    const plain = unescapeAll(unescapeAll(out.replace(/\\\\/g, '\\')));
    if (secrets.some((secret) => secret.length >= MIN_SECRET_LENGTH && plain.includes(secret))) return REDACTED;
  }
  return out;
}
