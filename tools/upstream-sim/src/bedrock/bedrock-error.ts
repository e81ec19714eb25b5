import type { ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';

/**
 * Bedrock's error answers: `{"message": …}` with the exception's name in `x-amzn-errortype`, as
 * AWS's JSON protocols write them (https://docs.aws.amazon.com/bedrock/latest/APIReference/CommonErrors.html).
 */
export function sendBedrockError(res: ServerResponse, status: number, type: string, message: string): void {
  const text = JSON.stringify({ message });
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'x-amzn-errortype': type,
    'x-amzn-requestid': randomUUID(),
  });
  res.end(text);
}

/** A 400 ValidationException: the request's own fault. */
export const sendValidationError = (res: ServerResponse, message: string): void => sendBedrockError(res, 400, 'ValidationException', message);

/** What a `status:N` fault plays: the exception Bedrock answers with that status, and its words. */
export function bedrockErrorForStatus(status: number): { type: string; message: string } {
  switch (status) {
    case 400:
      return { type: 'ValidationException', message: 'Malformed input request, please reformat your input and try again.' };
    case 403:
      return { type: 'AccessDeniedException', message: "You don't have access to the model with the specified model ID." };
    case 404:
      return { type: 'ResourceNotFoundException', message: 'Could not resolve the foundation model from the provided model identifier.' };
    case 408:
      return { type: 'ModelTimeoutException', message: 'Model has timed out in processing the request. Try your request again.' };
    case 424:
      return { type: 'ModelErrorException', message: 'The model returned an error. Try your request again.' };
    case 429:
      return { type: 'ThrottlingException', message: 'Too many requests, please wait before trying again.' };
    case 503:
      return { type: 'ServiceUnavailableException', message: 'Bedrock is unable to process your request.' };
  }
  if (status >= 500) return { type: 'InternalServerException', message: 'The system encountered an unexpected error during processing. Try your request again.' };
  return { type: 'ValidationException', message: `The simulator answered ${status}.` };
}
