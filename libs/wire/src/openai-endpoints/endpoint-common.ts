import type { z } from 'zod';
import { invalidRequest, upstreamError, type RelayError } from '../errors/relay-error';
import type { EndpointAnswer, EndpointBuildArgs, EndpointUsage } from '../hub/endpoint-adapter';
import type { UpstreamRequest } from '../hub/upstream-adapter';
import { nativeRequestBody, trimBaseUrl } from '../hub/native-request-body';
import { isJsonObject, type JsonObject } from '../json/json-checks';
import { replaceTopLevelString } from '../json/replace-top-level-string';
import { openAiAuthHeaders } from '../providers/provider-auth';

/** A JSON endpoint's request as the server hands it over: the caller's body, validated by the contract. */
export type JsonRequest = Readonly<Record<string, unknown>>;

/** A 2xx body that is not what the route answers: the relay may try another channel. */
export const malformedAnswer = (what: string): RelayError =>
  upstreamError(`The upstream provider sent a malformed ${what}.`, 'bad_response');

/** The answer's JSON object, or the failure that it is none. */
export function readJsonObject(text: string, what: string): { ok: true; json: JsonObject } | { ok: false; error: RelayError } {
  try {
    const json: unknown = JSON.parse(text);
    return isJsonObject(json) ? { ok: true, json } : { ok: false, error: malformedAnswer(what) };
  } catch {
    return { ok: false, error: upstreamError('The upstream provider sent a response that is not JSON.', 'bad_response') };
  }
}

/**
 * The request typed by its contract schema. The server validated it already; a request that
 * fails here anyway (an assistant changed it) is still the caller's 400, naming the field.
 */
export function parseEndpointRequest<T extends z.ZodTypeAny>(schema: T, request: unknown): z.infer<T> {
  const parsed = schema.safeParse(request);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const param = issue?.path.length ? issue.path.join('.') : null;
  throw invalidRequest(`Invalid request${param ? ` at '${param}'` : ''}: ${issue?.message ?? 'malformed'}.`, param);
}

/** `{base_url}/<path>` with the channel's key as a bearer token: every OpenAI-compatible route. */
export function openAiEndpointCall(path: string, key: string, baseUrl: string): Pick<UpstreamRequest, 'url' | 'headers'> {
  return { url: `${trimBaseUrl(baseUrl)}/${path}`, headers: openAiAuthHeaders(key) };
}

/** A JSON passthrough: the caller's bytes, only the top-level `model` swapped when the channel maps it. */
export function openAiJsonPassthrough(path: string, args: EndpointBuildArgs<JsonRequest>): UpstreamRequest {
  const call = openAiEndpointCall(path, args.key, args.channel.baseUrl);
  return {
    url: call.url,
    headers: { ...call.headers, 'content-type': 'application/json' },
    body: nativeRequestBody({ body: args.request, rawBody: args.rawBody, upstreamModel: args.upstreamModel }),
  };
}

/**
 * The upstream's own text with its top-level `model` set to the caller's name — that string alone
 * replaced, every other byte as sent (re-serialised only when the text holds no such string) —
 * and its parsed object to match.
 */
export function withPublicModel(text: string, json: JsonObject, publicModel: string): { body: JsonObject; text: string } {
  if (typeof json['model'] !== 'string' || json['model'] === publicModel) return { body: json, text };
  json['model'] = publicModel;
  const replaced = replaceTopLevelString(Buffer.from(text), 'model', publicModel);
  return { body: json, text: replaced ? replaced.toString('utf8') : JSON.stringify(json) };
}

/** Nothing counted by tokens or units: a start to add the endpoint's own counts to. */
export const NO_USAGE: Readonly<EndpointUsage> = { promptTokens: 0, completionTokens: 0, units: 0 };

/** Usage the upstream did not report: the relay counts `text` as prompt tokens. */
export const uncountedUsage = (text: string, units = 0): EndpointUsage => ({
  ...NO_USAGE,
  units,
  estimated: true,
  ...(text !== '' ? { uncountedText: text } : {}),
});

/** A non-negative count the upstream reported, or undefined. */
export const countOf = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;

/** The texts of an `input` or `prompt` that is a string or a list of strings (token ids have none). */
export function textsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  return [];
}

/** Past this many bytes an answer is mostly numbers (vectors): not parsed whole, nor made a string, on the way through. */
export const LARGE_ANSWER_BYTES = 64 * 1024;

const isSpace = (code: number | undefined) => code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;

/**
 * The object value of the last `"key"` in `bytes`, parsed alone — OpenAI-compatible servers write
 * `usage` after the vectors — or undefined when it is not found that way. Only the bytes from the
 * key on are decoded: a few hundred characters, not the half-megabyte before them.
 */
export function tailObject(bytes: Buffer, key: string): JsonObject | undefined {
  const at = bytes.lastIndexOf(`"${key}"`);
  if (at < 0) return undefined;
  const text = bytes.toString('utf8', at);
  let index = key.length + 2;
  while (isSpace(text.charCodeAt(index))) index += 1;
  if (text[index] !== ':') return undefined;
  index += 1;
  while (isSpace(text.charCodeAt(index))) index += 1;
  if (text[index] !== '{') return undefined;
  // Usage objects hold numbers and nested objects of numbers: braces alone say where it ends.
  let depth = 0;
  for (let end = index; end < text.length; end += 1) {
    const char = text[end];
    if (char === '{') depth += 1;
    else if (char === '}' && --depth === 0) {
      const read = readJsonObject(text.slice(index, end + 1), key);
      return read.ok ? read.json : undefined;
    }
  }
  return undefined;
}

/**
 * Whether the last `"key"` in `bytes` that is a key (after `{` or `,`) has exactly the string
 * `value` (as JSON.stringify writes it), spaced as an upstream spaces it — OpenAI indents its
 * answers: `"model": "text-embedding-3-small"`. An answer whose vectors are numbers or base64
 * holds the key once, at its top level; a value escaped otherwise reads as not named.
 */
function lastKeyNames(bytes: Buffer, key: string, value: string): boolean {
  const quotedKey = `"${key}"`;
  const expected = Buffer.from(JSON.stringify(value));
  for (let at = bytes.lastIndexOf(quotedKey); at >= 0; at = at === 0 ? -1 : bytes.lastIndexOf(quotedKey, at - 1)) {
    let before = at - 1;
    while (isSpace(bytes[before])) before -= 1;
    if (bytes[before] !== 0x7b && bytes[before] !== 0x2c) continue;
    let index = at + quotedKey.length;
    while (isSpace(bytes[index])) index += 1;
    // A string in a list (`["a","model"]`) is not the key: an earlier one may be.
    if (bytes[index] !== 0x3a) continue;
    index += 1;
    while (isSpace(bytes[index])) index += 1;
    if (index + expected.length > bytes.length || bytes.compare(expected, 0, expected.length, index, index + expected.length) !== 0) return false;
    index += expected.length;
    while (isSpace(bytes[index])) index += 1;
    return bytes[index] === 0x2c || bytes[index] === 0x7d;
  }
  return false;
}

/**
 * A large passthrough answer whose top-level `model` is already the caller's: its bytes go out as
 * they came, and its object is parsed only if something asks for it (nothing on the way through).
 * Undefined when it does not look like one JSON object naming that model.
 */
export function largePassthrough(bytes: Buffer, publicModel: string, what: string, usage: EndpointUsage): EndpointAnswer | undefined {
  let first = 0;
  while (isSpace(bytes[first])) first += 1;
  let last = bytes.length - 1;
  while (isSpace(bytes[last])) last -= 1;
  if (bytes[first] !== 0x7b || bytes[last] !== 0x7d || !lastKeyNames(bytes, 'model', publicModel)) return undefined;
  return {
    ok: true,
    kind: 'json',
    text: bytes,
    usage,
    get body(): JsonObject {
      const read = readJsonObject(bytes.toString('utf8'), what);
      return read.ok ? read.json : {};
    },
  };
}
