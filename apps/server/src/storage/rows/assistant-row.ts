import type { AssistantRecord, NewAssistant } from '../types';
import { jsonColumn, requiredJson, type JsonColumn, type RowCodec } from './codec';

/** An `assistants` row as both backends read it. */
export interface AssistantRow {
  id: string;
  account_id: number;
  name: string;
  description: string;
  instructions: string;
  tools: JsonColumn<AssistantRecord['tools']>;
  temperature: number | null;
  top_p: number | null;
  max_tokens: number | null;
  response_format: JsonColumn<NonNullable<AssistantRecord['responseFormat']>> | null;
  models: JsonColumn<string[]> | null;
  visibility: AssistantRecord['visibility'];
  created_at: string;
  updated_at: string;
}

export const ASSISTANT_COLUMNS = `id, account_id, name, description, instructions, tools, temperature, top_p, max_tokens, response_format,
  models, visibility, created_at, updated_at`;

export const assistantRecordOf = (row: AssistantRow, codec: RowCodec): AssistantRecord => ({
  id: row.id,
  accountId: row.account_id,
  name: row.name,
  description: row.description,
  instructions: row.instructions,
  tools: requiredJson(codec, row.tools),
  temperature: row.temperature,
  topP: row.top_p,
  maxTokens: row.max_tokens,
  responseFormat: codec.json(row.response_format),
  models: codec.json(row.models),
  visibility: row.visibility,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** The columns `create` and `update` write, in assistantColumns' order. */
export const ASSISTANT_WRITTEN = 'name, description, instructions, tools, temperature, top_p, max_tokens, response_format, models, visibility';

/** What `create` and `update` write, by column, in ASSISTANT_WRITTEN's order (PostgreSQL binds by position, SQLite by name). */
export const assistantColumns = (assistant: Omit<NewAssistant, 'id' | 'accountId'>) => ({
  name: assistant.name,
  description: assistant.description,
  instructions: assistant.instructions,
  tools: JSON.stringify(assistant.tools),
  temperature: assistant.temperature,
  top_p: assistant.topP,
  max_tokens: assistant.maxTokens,
  response_format: jsonColumn(assistant.responseFormat),
  models: jsonColumn(assistant.models),
  visibility: assistant.visibility,
});
