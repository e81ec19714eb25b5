import type { ServerResponse } from 'node:http';
import type { z, ZodIssue } from 'zod';
import { sendError } from './http-io';
import { openAiError } from './openai-error';
import { firstIssue } from './zod-issues';

/** `messages[0].role` from `['messages', 0, 'role']`, OpenAI's way of naming a field. */
export function openAiParam(path: ZodIssue['path']): string {
  return path.reduce<string>(
    (param, key) => (typeof key === 'number' ? `${param}[${key}]` : param ? `${param}.${key}` : key),
    '',
  );
}

function valueAt(json: unknown, path: ZodIssue['path']): unknown {
  return path.reduce<unknown>(
    (value, key) => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined),
    json,
  );
}

/** The number fields OpenAI types as decimals; the others (token counts, n, top_logprobs) are integers. */
const decimalParams = new Set(['temperature', 'top_p', 'frequency_penalty', 'presence_penalty']);

/** OpenAI's wording for a number out of range: `decimal_below_min_value` and its kin. */
function rangeError(issue: ZodIssue, param: string, json: unknown): { message: string; code: string } | undefined {
  if ((issue.code !== 'too_small' && issue.code !== 'too_big') || issue.type !== 'number') return undefined;
  const value = valueAt(json, issue.path);
  const kind = decimalParams.has(String(issue.path.at(-1))) ? 'decimal' : 'integer';
  const below = issue.code === 'too_small';
  const bound = below ? issue.minimum : issue.maximum;
  const comparison = below ? (issue.inclusive ? '>=' : '>') : issue.inclusive ? '<=' : '<';
  return {
    message: `Invalid '${param}': ${kind} ${below ? 'below minimum' : 'above maximum'} value. Expected a value ${comparison} ${String(bound)}, but got ${JSON.stringify(value)} instead.`,
    code: `${kind}_${below ? 'below_min' : 'above_max'}_value`,
  };
}

/**
 * Parses an OpenAI request body with `schema`, or answers 400 `invalid_request_error` naming
 * the field (`Missing required parameter: 'model'.`, `Invalid 'temperature': …`) and returns
 * undefined.
 */
export function parseOpenAiBody<Schema extends z.ZodTypeAny>(
  res: ServerResponse,
  rawBody: string,
  schema: Schema,
): z.infer<Schema> | undefined {
  const body = readOpenAiJson(res, rawBody);
  return body && validateOpenAiValue(res, body.json, schema);
}

/** The parsed JSON body, or undefined once OpenAI's 400 for a body that is not JSON is sent. */
export function readOpenAiJson(res: ServerResponse, rawBody: string): { json: unknown } | undefined {
  try {
    return { json: JSON.parse(rawBody) };
  } catch {
    sendError(res, 400, openAiError('We could not parse the JSON body of your request.', 'invalid_request_error'));
    return undefined;
  }
}

/** `parseOpenAiBody` for a value already read (a multipart form's fields): the same 400s. */
export function validateOpenAiValue<Schema extends z.ZodTypeAny>(
  res: ServerResponse,
  json: unknown,
  schema: Schema,
): z.infer<Schema> | undefined {
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const described = firstIssue(parsed.error);
  const param = openAiParam(described.path);
  const range = issue ? rangeError(issue, param, json) : undefined;
  if (range) {
    sendError(res, 400, openAiError(range.message, 'invalid_request_error', param, range.code));
    return undefined;
  }
  const message = described.missing
    ? `Missing required parameter: '${param}'.`
    : `Invalid '${param}': ${described.message}.`;
  sendError(res, 400, openAiError(message, 'invalid_request_error', param || null));
  return undefined;
}
