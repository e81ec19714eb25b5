import type { AssistantRecord, NewAssistant } from '../../src/storage/types';

/** A stored assistant for unit specs: a private one with instructions and no defaults, as overridden. */
export const assistantRecord = (overrides: Partial<AssistantRecord> = {}): AssistantRecord => ({
  id: 'g-test1',
  accountId: 1,
  name: 'Helper',
  description: '',
  instructions: 'You are a helpful pirate.',
  tools: [],
  temperature: null,
  topP: null,
  maxTokens: null,
  responseFormat: null,
  models: null,
  visibility: 'private',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...overrides,
});

/** An assistant to create in a store: private, named after its id, no defaults, as overridden. */
export const newAssistant = (accountId: number, id: string, overrides: Partial<NewAssistant> = {}): NewAssistant => ({
  id,
  accountId,
  name: `Assistant ${id}`,
  description: '',
  instructions: '',
  tools: [],
  temperature: null,
  topP: null,
  maxTokens: null,
  responseFormat: null,
  models: null,
  visibility: 'private',
  ...overrides,
});
