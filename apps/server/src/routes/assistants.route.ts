import { assistantsContract, type Assistant, type AssistantUpdate } from '@chat-relay/contract';
import { initServer } from '@ts-rest/express';
import { notFound, RelayError } from '@chat-relay/wire';
import type { Caller } from '../auth/caller';
import { randomBase62 } from '../security/keys';
import { AlreadyExistsError, type AssistantPatch, type AssistantRecord, type AssistantStore, type NewAssistant } from '../storage/types';
import { assertMayNameAccount, callerAccountId, managedAccountId } from './caller-scope';
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

const assistantExists = (id: string) =>
  new RelayError({
    status: 409,
    type: 'invalid_request_error',
    code: 'assistant_exists',
    param: 'id',
    message: `A custom assistant with id '${id}' already exists.`,
  });

const publishingNeedsAdmin = (message: string) =>
  new RelayError({ status: 403, type: 'permission_error', code: 'public_assistant_needs_admin', param: 'visibility', message });

/**
 * Publishing is the admin's (issue 26): a public assistant runs its instructions and tools in
 * every account's requests. An account key keeps private ones; a public one it published before
 * keeps serving, but its owner may only unpublish (or delete) it, not change it while public.
 */
function assertMayWriteVisibility(caller: Caller | undefined, current: AssistantRecord | undefined, visibility: AssistantRecord['visibility'] | undefined): void {
  if (caller?.kind === 'admin') return;
  if (visibility === 'public') {
    throw publishingNeedsAdmin(
      "Only the admin key can publish an assistant (visibility 'public'): a public assistant runs its instructions and tools in every account's requests. Keep it private, or ask the admin to publish it.",
    );
  }
  if (current?.visibility === 'public' && visibility !== 'private') {
    throw publishingNeedsAdmin(
      `Custom assistant '${current.id}' is public: only the admin key can change it. Send visibility 'private' with the change to make it yours alone again.`,
    );
  }
}

/**
 * Custom assistant administration (SPEC §5). An account's access key reaches only its own
 * assistants (another's answers 404, as an id nobody holds does) and creates them owned by
 * itself, private. Private ids are per account: the admin names the owner with `?account_id=`
 * when several accounts hold the same id. The admin publishes; its public write of an id another
 * account's public assistant holds takes the id back (that one becomes private to its owner).
 */
export function assistantsRouter(deps: { assistants: AssistantStore }) {
  const s = initServer();

  /** The assistant when the caller reaches it; 404 otherwise, never revealing that it exists. */
  async function reachableAssistant(caller: Caller | undefined, id: string, accountId: number | undefined): Promise<AssistantRecord> {
    const scope = managedAccountId(caller);
    assertMayNameAccount(scope, accountId);
    const owner = accountId ?? scope;
    if (owner !== undefined) {
      const assistant = await deps.assistants.getOwned(owner, id);
      if (!assistant) throw assistantNotFound(id);
      return assistant;
    }
    const holders = await deps.assistants.findById(id);
    const [only] = holders;
    if (!only) throw assistantNotFound(id);
    if (holders.length > 1) {
      throw new RelayError({
        status: 409,
        type: 'invalid_request_error',
        code: 'ambiguous_assistant_id',
        param: 'account_id',
        message: `Accounts ${holders.map((holder) => holder.accountId).join(', ')} each have an assistant '${id}': name one with ?account_id=.`,
      });
    }
    return only;
  }

  return s.router(assistantsContract, {
    listAssistants: async ({ query, res }) => {
      const accountId = managedAccountId(res.locals.caller);
      const { rows, total } = await deps.assistants.list({ page: query.page, perPage: query.per_page, accountId });
      assertPageInRange(query.page, query.per_page, total);
      return { status: 200, body: { data: rows.map(assistantView), total, page: query.page, per_page: query.per_page } };
    },
    createAssistant: async ({ body, res }) => {
      const id = body.id ?? `g-${randomBase62(10)}`;
      const caller = res.locals.caller;
      assertMayWriteVisibility(caller, undefined, body.visibility);
      try {
        const input: NewAssistant = {
          id,
          accountId: callerAccountId(caller),
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
        };
        const assistant = await deps.assistants.create(input, { takePublicId: caller?.kind === 'admin' });
        return { status: 201, body: assistantView(assistant) };
      } catch (error) {
        if (!(error instanceof AlreadyExistsError)) throw error;
        throw assistantExists(id);
      }
    },
    getAssistant: async ({ params, query, res }) => {
      const assistant = await reachableAssistant(res.locals.caller, params.id, query.account_id);
      const usage = await deps.assistants.usageSince(assistant, new Date(Date.now() - USAGE_WINDOW_MS).toISOString());
      return {
        status: 200,
        body: {
          ...assistantView(assistant),
          usage: {
            requests_30d: usage.requests,
            prompt_tokens_30d: usage.promptTokens,
            completion_tokens_30d: usage.completionTokens,
            cache_read_tokens_30d: usage.cacheReadTokens,
            cache_write_tokens_30d: usage.cacheWriteTokens,
          },
        },
      };
    },
    updateAssistant: async ({ params, query, body, res }) => {
      const caller = res.locals.caller;
      const current = await reachableAssistant(caller, params.id, query.account_id);
      assertMayWriteVisibility(caller, current, body.visibility);
      try {
        const assistant = await deps.assistants.update(current.accountId, params.id, patchFrom(body), { takePublicId: caller?.kind === 'admin' });
        if (!assistant) throw assistantNotFound(params.id);
        return { status: 200, body: assistantView(assistant) };
      } catch (error) {
        // Made public while another public assistant has the id (visible to all: no oracle).
        if (!(error instanceof AlreadyExistsError)) throw error;
        throw assistantExists(params.id);
      }
    },
    deleteAssistant: async ({ params, query, res }) => {
      const current = await reachableAssistant(res.locals.caller, params.id, query.account_id);
      if (!(await deps.assistants.delete(current.accountId, params.id))) throw assistantNotFound(params.id);
      return { status: 204, body: undefined };
    },
  });
}
