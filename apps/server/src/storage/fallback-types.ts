import type { FallbackTrigger } from '@chat-relay/contract';

/** An admin fallback rule (issue 32): requests for `model` (a name or glob) fall back to `fallbacks`, in order, on `triggers`. */
export interface FallbackRuleRecord {
  id: number;
  model: string;
  fallbacks: string[];
  triggers: FallbackTrigger[];
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
}

export type FallbackRuleInput = Pick<FallbackRuleRecord, 'model' | 'fallbacks' | 'triggers' | 'enabled'>;

/**
 * The rules, kept in the database and read whole into every instance's cache (a handful of rows,
 * re-read when the `fallbacks` topic of the change feed fires): never read on a request.
 */
export interface FallbackRuleStore {
  /** Every rule, in id order (the first enabled match wins). */
  list(): Promise<FallbackRuleRecord[]>;
  get(id: number): Promise<FallbackRuleRecord | null>;
  create(input: FallbackRuleInput, now: string): Promise<FallbackRuleRecord>;
  /** Null when no rule has that id. */
  update(id: number, patch: Partial<FallbackRuleInput>, now: string): Promise<FallbackRuleRecord | null>;
  /** False when no rule has that id. */
  delete(id: number): Promise<boolean>;
}
