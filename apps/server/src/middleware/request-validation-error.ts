import type { RequestValidationError } from '@ts-rest/express';
import type { NextFunction, Request, Response } from 'express';
import type { ZodError, ZodIssue } from 'zod';
import { invalidRequest, RelayError } from '@chat-relay/wire';
import { describeIssue, formatParamPath, mostSpecificIssue } from '../errors/zod-issue-param';
import { unknownGeminiMethod } from '../dialects/gemini/gemini-dialect';
import { routeMetadata } from './route-metadata';

/**
 * ts-rest's validation failures → one 400 in the OpenAI shape with `param` naming the field
 * (`messages[0].role`), instead of ts-rest's default raw ZodError.
 */
export function requestValidationErrorHandler(
  error: RequestValidationError,
  req: Request,
  _res: Response,
  next: NextFunction,
): void {
  // A Gemini path's last segment names a method: one the relay does not serve is not found
  // (as Google answers), whatever its body — not a 400 about a body meant for another method.
  // (Express has left the route here: the method is read from the path itself.)
  if (error.pathParams && routeMetadata(req)?.dialect === 'gemini') return next(unknownGeminiMethod(decodeURIComponent(req.path.slice(req.path.lastIndexOf('/') + 1))));
  next(toRelayError(error));
}

export function toRelayError(error: RequestValidationError): RelayError {
  const zodError: ZodError | null = error.pathParams ?? error.query ?? error.body ?? error.headers;
  if (!zodError) return invalidRequest('The request is invalid.');
  const issue = mostSpecificIssue(zodError);
  const param = formatParamPath(
    issue.code === 'unrecognized_keys' && issue.keys[0] ? [...issue.path, issue.keys[0]] : issue.path,
  );
  return invalidRequest(describeIssue(issue, param), param || null, codeOf(issue));
}

/** Parameters whose values are whole numbers: a bound they break is an `integer_…` one, as OpenAI says. */
const INTEGER_PARAMS = new Set(['max_tokens', 'max_completion_tokens', 'max_output_tokens', 'n', 'seed', 'top_logprobs', 'top_k', 'max_tool_calls', 'budget_tokens', 'quota_limit']);

/**
 * OpenAI's codes: `missing_required_parameter`; a number out of its range is
 * `decimal_below_min_value` / `decimal_above_max_value` (`integer_…` for whole-number
 * parameters) — what the Responses and Chat clients see from OpenAI itself; else `invalid_value`.
 */
function codeOf(issue: ZodIssue): string {
  if (issue.code === 'invalid_type' && issue.received === 'undefined') return 'missing_required_parameter';
  if ((issue.code === 'too_small' || issue.code === 'too_big') && issue.type === 'number') {
    const last = issue.path[issue.path.length - 1];
    const kind = typeof last === 'string' && INTEGER_PARAMS.has(last) ? 'integer' : 'decimal';
    return `${kind}_${issue.code === 'too_small' ? 'below_min' : 'above_max'}_value`;
  }
  return 'invalid_value';
}
