import { createOpenAiSpecValidator, type OpenAiSpecValidator } from '@chat-relay/contract/testing';

let validator: OpenAiSpecValidator | undefined;

/** Asserts `value` is valid against a component schema of the official OpenAI OpenAPI document. */
export function expectOpenAiValid(schemaName: string, value: unknown): void {
  validator ??= createOpenAiSpecValidator();
  expect({ schemaName, errors: validator.errorsFor(schemaName, value) }).toEqual({ schemaName, errors: [] });
}

/** The id the relay gives a call with a thought signature: written out here, independently of the codec. */
export const idWithSignature = (base: string, signature: string): string =>
  `${base}_ts_${signature.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}`;
