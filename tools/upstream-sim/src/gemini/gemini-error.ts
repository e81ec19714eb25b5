import type { ServerResponse } from 'node:http';
import { sendJson } from '../http-io';
import type { ErrorDialect } from '../endpoints/endpoint-answer';
import type { GeminiErrorBody } from './gemini-api';

export function geminiError(code: number, status: string, message: string): GeminiErrorBody {
  return { error: { code, message, status } };
}

export function sendGeminiError(res: ServerResponse, body: GeminiErrorBody): void {
  sendJson(res, body.error.code, body);
}

export function invalidArgument(message: string): GeminiErrorBody {
  return geminiError(400, 'INVALID_ARGUMENT', message);
}

/** The error body the Gemini API sends with `status` (what `status:N` faults play). */
export function geminiErrorForStatus(status: number): GeminiErrorBody {
  switch (status) {
    case 400:
      return invalidArgument('Request contains an invalid argument.');
    case 401:
      return geminiError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.');
    case 403:
      return geminiError(403, 'PERMISSION_DENIED', 'The caller does not have permission');
    case 404:
      return geminiError(404, 'NOT_FOUND', 'Requested entity was not found.');
    case 429:
      return geminiError(429, 'RESOURCE_EXHAUSTED', 'You exceeded your current quota, please check your plan and billing details.');
    case 503:
      return geminiOverloaded;
    case 504:
      return geminiError(504, 'DEADLINE_EXCEEDED', 'Deadline expired before operation could complete.');
  }
  if (status >= 500) return geminiError(status, 'INTERNAL', 'An internal error has occurred. Please retry.');
  return geminiError(status, 'FAILED_PRECONDITION', `The simulator answered ${status}.`);
}

/** What a `stream-error` fault sends as a data event — and, not streaming, as a 503. */
export const geminiOverloaded: GeminiErrorBody = geminiError(503, 'UNAVAILABLE', 'The model is overloaded. Please try again later.');

/** How faults answer on Gemini's routes beside generateContent. */
export const geminiDialect: ErrorDialect = {
  forStatus: (status) => {
    const body = geminiErrorForStatus(status);
    return { status: body.error.code, body };
  },
  unstreamed: { status: 503, body: geminiOverloaded },
};
