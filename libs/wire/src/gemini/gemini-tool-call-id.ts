import { createHash } from 'node:crypto';

/*
 * Gemini sends function calls without ids, and Gemini 3 signs them: the `thoughtSignature` on a
 * functionCall part must come back on that part in the next request, or the request fails.
 * OpenAI callers keep nothing but the tool call id between turns, so the id carries the
 * signature — statelessly, so any relay instance can read it:
 *
 *   call_<24 hex>                  a call without a signature
 *   call_<24 hex>_ts_<signature>   the signature in URL-safe base64 without padding
 *
 * Both match `^[a-zA-Z0-9_-]+$` (Anthropic's rule, and the OpenAI SDKs' expectation).
 */

const GENERATED_ID = /^(call_[0-9a-f]{24})(?:_ts_([A-Za-z0-9_-]+))?$/;

/** A stable id: the same seed (response id, choice, position) gives the same id. */
export function createGeminiToolCallId(seed: string, thoughtSignature: string | undefined): string {
  const base = `call_${createHash('sha256').update(seed).digest('hex').slice(0, 24)}`;
  if (!thoughtSignature) return base;
  const urlSafe = thoughtSignature.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  return `${base}_ts_${urlSafe}`;
}

export interface ReadToolCallId {
  /** The id sent to Gemini in functionCall.id / functionResponse.id (short: no signature). */
  wireId: string;
  /** URL-safe base64 with padding, as Google's own SDKs send it back; absent when none. */
  thoughtSignature: string | undefined;
}

/** Reads an id the relay generated; any other id (a caller's own) is used as it is. */
export function readGeminiToolCallId(id: string): ReadToolCallId {
  const match = GENERATED_ID.exec(id);
  if (!match?.[1]) return { wireId: id, thoughtSignature: undefined };
  const signature = match[2];
  if (!signature) return { wireId: match[1], thoughtSignature: undefined };
  return { wireId: match[1], thoughtSignature: signature.padEnd(Math.ceil(signature.length / 4) * 4, '=') };
}
