import { createHmac, timingSafeEqual } from 'node:crypto';

// Like Anthropic, the simulator signs every thinking block it writes and refuses one that
// comes back altered. It keeps no state: the signature is an HMAC-SHA256 of the block's
// `thinking` text under a fixed simulator secret, base64 — so any simulator instance, in any
// process, verifies what another one signed, and a test can compute it with `signThinking`.

const simulatorSecret = 'upstream-sim thinking signature v1';

/** The `signature` the simulator puts on a thinking block whose text is `thinking`. */
export function signThinking(thinking: string): string {
  return createHmac('sha256', simulatorSecret).update(thinking, 'utf8').digest('base64');
}

/** True when `signature` is the simulator's signature of `thinking` (base64 or base64url). */
export function verifyThinkingSignature(thinking: string, signature: string): boolean {
  const sent = Buffer.from(signature, 'base64');
  const expected = Buffer.from(signThinking(thinking), 'base64');
  return sent.length === expected.length && timingSafeEqual(sent, expected);
}
