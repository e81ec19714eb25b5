import type { ServerResponse } from 'node:http';
import { sendError, sendJson } from '../http-io';
import { openAiError } from '../openai-error';
import { textOfParts } from './input-items';

/** How a server without the Responses API answers its routes: OpenAI's 404, or a framework's 405. */
export type ResponsesMissingStatus = 404 | 405;

/** `POST /v1/responses` as an OpenAI-compatible server without it answers (`path` as under `/v1`). */
export function sendResponsesMissing(res: ServerResponse, status: ResponsesMissingStatus, method: string, path: string): void {
  if (status === 405) {
    sendJson(res, 405, { detail: 'Method Not Allowed' });
    return;
  }
  sendError(res, 404, openAiError(`Invalid URL (${method} ${path})`, 'invalid_request_error'));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function lastUserInputText(input: unknown): string {
  if (typeof input === 'string') return input;
  if (!Array.isArray(input)) return '';
  const last = input.findLast((item) => isRecord(item) && item['role'] === 'user' && (item['type'] ?? 'message') === 'message');
  return isRecord(last) ? textOfParts(last['content']) : '';
}

const offMarker = /\[sim:responses=off\]/i;

/**
 * `[sim:responses=off]` in the last user input (or `"x_sim": {"responses": "off"}`): this one
 * request is answered as by a server without the Responses API. Read from the raw body, before
 * the key and the schema are checked, as a missing route would be.
 */
export function asksResponsesOff(rawBody: string): boolean {
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch {
    return false;
  }
  if (!isRecord(body)) return false;
  const xSim = body['x_sim'];
  if (isRecord(xSim) && (xSim['responses'] === 'off' || xSim['responses'] === false)) return true;
  return offMarker.test(lastUserInputText(body['input']));
}
