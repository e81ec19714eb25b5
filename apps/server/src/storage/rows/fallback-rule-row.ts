import type { FallbackTrigger } from '@chat-relay/contract';
import type { FallbackRuleInput, FallbackRuleRecord } from '../fallback-types';
import { flagOf, jsonColumn, requiredJson, type JsonColumn, type RowCodec } from './codec';

/** A `fallback_rules` row as both backends read it. */
export interface FallbackRuleRow {
  id: number;
  model: string;
  fallbacks: JsonColumn<string[]>;
  triggers: JsonColumn<FallbackTrigger[]>;
  enabled: number | boolean;
  created_at: string;
  updated_at: string;
}

export const fallbackRuleOf = (row: FallbackRuleRow, codec: RowCodec): FallbackRuleRecord => ({
  id: Number(row.id),
  model: row.model,
  fallbacks: requiredJson(codec, row.fallbacks),
  triggers: requiredJson(codec, row.triggers),
  enabled: flagOf(row.enabled),
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** The rule written whole: model, fallbacks, triggers, enabled (the columns every write sets). */
export const fallbackRuleValues = (rule: FallbackRuleInput, codec: RowCodec): Array<string | number | boolean | null> => [
  rule.model,
  jsonColumn(rule.fallbacks),
  jsonColumn(rule.triggers),
  codec.flag(rule.enabled),
];
