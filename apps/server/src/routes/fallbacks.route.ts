import { DEFAULT_FALLBACK_TRIGGERS, fallbacksContract, type FallbackRule } from '@chat-relay/contract';
import { notFound } from '@chat-relay/wire';
import { initServer } from '@ts-rest/express';
import type { FallbackRules } from '../pipeline/fallback-rules';
import type { FallbackRuleRecord, FallbackRuleStore } from '../storage/types';

export interface FallbacksRouteDeps {
  store: FallbackRuleStore;
  /** The cache every request reads: told of each change (and through it, the other instances). */
  rules: Pick<FallbackRules, 'changed'>;
}

export const fallbackRuleView = (rule: FallbackRuleRecord): FallbackRule => ({
  id: rule.id,
  model: rule.model,
  fallbacks: rule.fallbacks,
  triggers: rule.triggers,
  enabled: rule.enabled,
  created_at: rule.createdAt,
  updated_at: rule.updatedAt,
});

const ruleNotFound = (id: number) => notFound('fallback_rule_not_found', `No fallback rule ${id}.`, 'id');

/** Repeats left out, order kept: a model is tried once per chain. */
const distinct = <T>(values: readonly T[]): T[] => [...new Set(values)];

/**
 * `/api/fallbacks` (admin): the fallback chains across models (issue 32). A rule names a model or
 * glob, its fallbacks in order and the failure classes that trigger them; the first enabled rule
 * (in id order) matching a requested model applies when the request names no chain of its own.
 */
export function fallbacksRouter(deps: FallbacksRouteDeps) {
  const s = initServer();
  const now = () => new Date().toISOString();
  return s.router(fallbacksContract, {
    listFallbackRules: async () => ({ status: 200, body: { data: (await deps.store.list()).map(fallbackRuleView) } }),

    createFallbackRule: async ({ body }) => {
      const rule = await deps.store.create(
        {
          model: body.model,
          fallbacks: distinct(body.fallbacks),
          triggers: distinct(body.triggers ?? DEFAULT_FALLBACK_TRIGGERS),
          enabled: body.enabled ?? true,
        },
        now(),
      );
      await deps.rules.changed();
      return { status: 201, body: fallbackRuleView(rule) };
    },

    getFallbackRule: async ({ params }) => {
      const rule = await deps.store.get(params.id);
      if (!rule) throw ruleNotFound(params.id);
      return { status: 200, body: fallbackRuleView(rule) };
    },

    updateFallbackRule: async ({ params, body }) => {
      const patch = {
        ...(body.model !== undefined && { model: body.model }),
        ...(body.fallbacks !== undefined && { fallbacks: distinct(body.fallbacks) }),
        ...(body.triggers !== undefined && { triggers: distinct(body.triggers) }),
        ...(body.enabled !== undefined && { enabled: body.enabled }),
      };
      const rule = await deps.store.update(params.id, patch, now());
      if (!rule) throw ruleNotFound(params.id);
      await deps.rules.changed();
      return { status: 200, body: fallbackRuleView(rule) };
    },

    deleteFallbackRule: async ({ params }) => {
      if (!(await deps.store.delete(params.id))) throw ruleNotFound(params.id);
      await deps.rules.changed();
      return { status: 204, body: undefined };
    },
  });
}
