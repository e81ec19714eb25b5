import { createOpenAiSpecValidator, type OpenAiSpecValidator } from '@chat-relay/contract/testing';

let validator: OpenAiSpecValidator | undefined;

/** Errors of `value` against a component schema of the official OpenAI spec; [] when valid. */
export function specErrors(schemaName: string, value: unknown): string[] {
  validator ??= createOpenAiSpecValidator();
  return validator.errorsFor(schemaName, value);
}

export const expectSpecValid = (schemaName: string, value: unknown): void =>
  expect({ schemaName, errors: specErrors(schemaName, value) }).toEqual({ schemaName, errors: [] });
