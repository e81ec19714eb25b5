import type { RequestValidationError } from '@ts-rest/express';
import type { NextFunction, Request, Response } from 'express';
import type { ZodError } from 'zod';
import { invalidRequest, RelayError } from '@chat-relay/wire';
import { describeIssue, formatParamPath, mostSpecificIssue } from '../errors/zod-issue-param';

/**
 * ts-rest's validation failures → one 400 in the OpenAI shape with `param` naming the field
 * (`messages[0].role`), instead of ts-rest's default raw ZodError.
 */
export function requestValidationErrorHandler(
  error: RequestValidationError,
  _req: Request,
  _res: Response,
  next: NextFunction,
): void {
  next(toRelayError(error));
}

export function toRelayError(error: RequestValidationError): RelayError {
  const zodError: ZodError | null = error.pathParams ?? error.query ?? error.body ?? error.headers;
  if (!zodError) return invalidRequest('The request is invalid.');
  const issue = mostSpecificIssue(zodError);
  const param = formatParamPath(
    issue.code === 'unrecognized_keys' && issue.keys[0] ? [...issue.path, issue.keys[0]] : issue.path,
  );
  const code = issue.code === 'invalid_type' && issue.received === 'undefined' ? 'missing_required_parameter' : 'invalid_value';
  return invalidRequest(describeIssue(issue, param), param || null, code);
}
