import type { Assistant, AssistantCreate, AssistantWithUsage } from '@chat-relay/contract';
import type { RecordedRequest } from '@chat-relay/upstream-sim';
import OpenAI from 'openai';
import type { AssistantRecord, NewAssistant } from '../../src/storage/types';
import type { E2eRelay } from './e2e-relay';
import { expectSpecValid } from './openai-spec';

type CreateParams = OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming;

/** The create body with tools typed as the SDK types them, so a test offers the same objects to both. */
export type AssistantInput = Omit<AssistantCreate, 'tools'> & { tools?: OpenAI.Chat.Completions.ChatCompletionTool[] };

/** What a simulator received as a chat request body, typed loosely for assertions. */
export interface UpstreamChatBody {
  model: string;
  messages: Record<string, unknown>[];
  tools?: { type: string; function: { name: string; description?: string } }[];
  temperature?: number;
  top_p?: number;
  max_tokens?: number;
  max_completion_tokens?: number;
  [field: string]: unknown;
}

export const upstreamChats = (requests: readonly RecordedRequest[]): UpstreamChatBody[] =>
  requests.filter((request) => request.path === '/v1/chat/completions').map((request) => request.body as UpstreamChatBody);

/** `POST /api/assistants` with the admin key; the assistant is owned by the admin account (id 1). */
export async function createAssistant(e2e: E2eRelay, body: AssistantInput): Promise<Assistant> {
  const response = await fetch(`${e2e.url}/api/assistants`, {
    method: 'POST',
    headers: { authorization: `Bearer ${e2e.relay.adminKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status !== 201) throw new Error(`POST /api/assistants answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as Assistant;
}

/** `GET /api/assistants/:id` with the admin key. */
export async function getAssistant(e2e: E2eRelay, id: string): Promise<AssistantWithUsage> {
  const response = await fetch(`${e2e.url}/api/assistants/${id}`, {
    headers: { authorization: `Bearer ${e2e.relay.adminKey}` },
  });
  if (response.status !== 200) throw new Error(`GET /api/assistants/${id} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as AssistantWithUsage;
}

/** An assistant of another account: accounts have no API yet, so it goes straight to storage. */
export async function createForeignAssistant(
  e2e: E2eRelay,
  input: Pick<NewAssistant, 'id' | 'visibility'> & Partial<NewAssistant>,
): Promise<AssistantRecord> {
  const other = await e2e.relay.storage.accounts.createUser(`other ${input.id}`);
  return e2e.relay.storage.assistants.create({
    accountId: other.id,
    name: `foreign ${input.id}`,
    description: '',
    instructions: `You are ${input.id}.`,
    tools: [],
    temperature: null,
    topP: null,
    maxTokens: null,
    responseFormat: null,
    models: null,
    ...input,
  });
}

/** The SDK's error for `body`; fails the test when the call succeeds. */
export async function sdkError(client: OpenAI, body: unknown): Promise<InstanceType<typeof OpenAI.APIError>> {
  try {
    await client.chat.completions.create(body as CreateParams);
  } catch (error) {
    if (error instanceof OpenAI.APIError) return error;
    throw error;
  }
  throw new Error('expected the request to fail');
}

/** The raw error answer to `body`, checked against the official ErrorResponse schema. */
export async function rawChatError(
  e2e: E2eRelay,
  body: unknown,
): Promise<{ status: number; error: { message: string; code: string | null; type: string; param: string | null } }> {
  const response = await e2e.postChat(body);
  const json = (await response.json()) as { error: { message: string; code: string | null; type: string; param: string | null } };
  expectSpecValid('ErrorResponse', json);
  return { status: response.status, error: json.error };
}

/** A JSON round trip, so SDK objects validate as the plain JSON that came over the wire. */
export const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value));
