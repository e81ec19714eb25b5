import { parseGizmoModel, type ChatCompletionRequest } from '@chat-relay/contract';
import { invalidRequest, notFound } from '@chat-relay/wire';
import type { AssistantRecord, AssistantStore } from '../storage/types';
import { applyAssistant } from './apply-assistant';
import type { ChannelRegistry } from '../channels/channel-registry';
import { matchesModelPattern } from '../core/model-pattern';

export interface ResolvedModel {
  /** What goes upstream (for an assistant: family model, instructions, merged tools). */
  request: ChatCompletionRequest;
  /** The assistant applied, if any. */
  assistantId: string | null;
  assistant: AssistantRecord | null;
  /** The family model of a gizmo name with an assistant applied. */
  family: string | null;
}

export interface ResolveDeps {
  assistants: AssistantStore;
  registry: ChannelRegistry;
}

export const familyAllowed = (assistant: AssistantRecord, family: string): boolean =>
  assistant.models === null || assistant.models.some((pattern) => matchesModelPattern(pattern, family));

/**
 * Model name → what to relay (SPEC §5). A plain name passes as it is — at once, not a promise:
 * most requests name one, and the hot path awaits nothing it does not have to (issue 30). A gizmo
 * name selects a stored assistant; when none exists for the caller but a channel serves the full
 * gizmo name (a `*-gizmo-*` pattern), the request goes there unchanged: relay chaining.
 */
export function resolveModel(deps: ResolveDeps, request: ChatCompletionRequest, accountId: number): ResolvedModel | Promise<ResolvedModel> {
  if (parseGizmoModel(request.model) === undefined) return plainModel(request);
  return resolveGizmo(deps, request.model, accountId).then((gizmo) => {
    if (!gizmo) return plainModel(request);
    const { assistant, family } = gizmo;
    return { request: applyAssistant(assistant, request, family), assistantId: assistant.id, assistant, family };
  });
}

const plainModel = (request: ChatCompletionRequest): ResolvedModel => ({ request, assistantId: null, assistant: null, family: null });

/**
 * The custom assistant a gizmo name selects, and its family; `null` for a plain name, or for a
 * gizmo name no assistant of the caller's has that a channel serves as it is (relay chaining).
 * Unknown assistants and families the assistant does not allow are refused.
 */
export async function resolveGizmo(
  deps: ResolveDeps,
  model: string,
  accountId: number,
): Promise<{ assistant: AssistantRecord; family: string } | null> {
  const gizmo = parseGizmoModel(model);
  if (!gizmo) return null;
  // The caller's own assistant first, then a public one: another account's private id is unknown here.
  const assistant = await deps.assistants.resolveFor(accountId, gizmo.assistantId);
  if (!assistant) {
    if ((await deps.registry.endpointsServing(model)).length > 0) return null;
    throw notFound('model_not_found', `The model '${model}' does not exist: there is no custom assistant '${gizmo.assistantId}'.`, 'model');
  }
  if (!familyAllowed(assistant, gizmo.family)) {
    throw invalidRequest(
      `The custom assistant '${assistant.id}' cannot be used with '${gizmo.family}'; it allows ${assistant.models?.join(', ')}.`,
      'model',
      'model_not_allowed',
    );
  }
  return { assistant, family: gizmo.family };
}
