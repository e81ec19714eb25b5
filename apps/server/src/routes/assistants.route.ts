import { assistantsContract, type Assistant, type AssistantUpdate } from '@chat-relay/contract';
import { initServer } from '@ts-rest/express';
import { notFound, RelayError } from '../errors/relay-error';
import type { Caller } from '../relay/request-context';
import { randomBase62 } from '../security/keys';
import { AlreadyExistsError, type AssistantPatch, type AssistantRecord, type AssistantStore } from '../storage/types';
import { assertPageInRange } from './paging';

const USAGE_WINDOW_MS = 30 * 24 * 60 * 60 * 1000;

export const assistantView = (assistant: AssistantRecord): Assistant => ({
  id: assistant.id,
  object: 'assistant',
  account_id: assistant.accountId,
  name: assistant.name,
  description: assistant.description,
  instructions: assistant.instructions,
  tools: assistant.tools,
  temperature: assistant.temperature,
  top_p: assistant.topP,
  max_tokens: assistant.maxTokens,
  response_format: assistant.responseFormat,
  models: assistant.models,
  visibility: assistant.visibility,
  created_at: assistant.createdAt,
  updated_at: assistant.updatedAt,
});

function patchFrom(update: AssistantUpdate): AssistantPatch {
  const patch: AssistantPatch = {};
  if (update.name !== undefined) patch.name = update.name;
  if (update.description !== undefined) patch.description = update.description;
  if (update.instructions !== undefined) patch.instructions = update.instructions;
  if (update.tools !== undefined) patch.tools = update.tools;
  if (update.temperature !== undefined) patch.temperature = update.temperature;
  if (update.top_p !== undefined) patch.topP = update.top_p;
  if (update.max_tokens !== undefined) patch.maxTokens = update.max_tokens;
  if (update.response_format !== undefined) patch.responseFormat = update.response_format;
  if (update.models !== undefined) patch.models = update.models;
  if (update.visibility !== undefined) patch.visibility = update.visibility;
  return patch;
}

const assistantNotFound = (id: string) => notFound('assistant_not_found', `No custom assistant '${id}'.`, 'id');

function ownerOf(caller: Caller | undefined): number {
  if (caller?.kind !== 'admin') throw new Error('assistant admin reached without an admin caller');
  return caller.account.id;
}

/** Custom assistant administration (SPEC §5). */
export function assistantsRouter(deps: { assistants: AssistantStore }) {
  const s = initServer();
  return s.router(assistantsContract, {
    listAssistants: async ({ query }) => {
      const { rows, total } = await deps.assistants.list({ page: query.page, perPage: query.per_page });
      assertPageInRange(query.page, query.per_page, total);
      return { status: 200, body: { data: rows.map(assistantView), total, page: query.page, per_page: query.per_page } };
    },
    createAssistant: async ({ body, res }) => {
      const id = body.id ?? `g-${randomBase62(10)}`;
      try {
        const assistant = await deps.assistants.create({
          id,
          accountId: ownerOf(res.locals.caller),
          name: body.name,
          description: body.description ?? '',
          instructions: body.instructions ?? '',
          tools: body.tools ?? [],
          temperature: body.temperature ?? null,
          topP: body.top_p ?? null,
          maxTokens: body.max_tokens ?? null,
          responseFormat: body.response_format ?? null,
          models: body.models ?? null,
          visibility: body.visibility ?? 'private',
        });
        return { status: 201, body: assistantView(assistant) };
      } catch (error) {
        if (!(error instanceof AlreadyExistsError)) throw error;
        throw new RelayError({
          status: 409,
          type: 'invalid_request_error',
          code: 'assistant_exists',
          param: 'id',
          message: `A custom assistant with id '${id}' already exists.`,
        });
      }
    },
    getAssistant: async ({ params }) => {
      const assistant = await deps.assistants.get(params.id);
      if (!assistant) throw assistantNotFound(params.id);
      const usage = await deps.assistants.usageSince(assistant.id, new Date(Date.now() - USAGE_WINDOW_MS).toISOString());
      return {
        status: 200,
        body: {
          ...assistantView(assistant),
          usage: {
            requests_30d: usage.requests,
            prompt_tokens_30d: usage.promptTokens,
            completion_tokens_30d: usage.completionTokens,
          },
        },
      };
    },
    updateAssistant: async ({ params, body }) => {
      const assistant = await deps.assistants.update(params.id, patchFrom(body));
      if (!assistant) throw assistantNotFound(params.id);
      return { status: 200, body: assistantView(assistant) };
    },
    deleteAssistant: async ({ params }) => {
      if (!(await deps.assistants.delete(params.id))) throw assistantNotFound(params.id);
      return { status: 204, body: undefined };
    },
  });
}
