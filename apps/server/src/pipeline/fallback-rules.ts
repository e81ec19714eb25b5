import type { ChangeFeed } from '../core/change-feed';
import type { FallbackRuleRecord, FallbackRuleStore } from '../storage/types';
import { firstMatchingRule, type ChainRule, type FallbackRuleSource } from './fallback-chain';

/**
 * The admin fallback rules in memory (issue 32): read whole at start and again whenever any
 * instance changes one (the change feed's `fallbacks` topic, and its periodic refresh), so every
 * instance agrees and a request never reads the database for them. With no rule (the usual
 * install) a request's lookup is one length check.
 */
export class FallbackRules implements FallbackRuleSource {
  private rules: readonly ChainRule[] = [];
  private latest = 0;
  private loading: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: Pick<FallbackRuleStore, 'list'>,
    private readonly changes: ChangeFeed,
    private readonly onError: (error: unknown) => void,
  ) {
    changes.subscribe('fallbacks', () => void this.load());
  }

  /** Reads the rules again; a failed read keeps the previous ones (told to `onError`). */
  load(): Promise<void> {
    const started = ++this.latest;
    this.loading = this.store.list().then(
      (rules: FallbackRuleRecord[]) => {
        // An older read finishing late never replaces a newer one.
        if (started === this.latest) this.rules = rules;
      },
      (error: unknown) => this.onError(error),
    );
    return this.loading;
  }

  /** After this instance wrote a rule: every instance reloads (this one before it returns). */
  async changed(): Promise<void> {
    this.changes.publish('fallbacks');
    await this.loading;
  }

  ruleFor(model: string): ChainRule | undefined {
    return this.rules.length === 0 ? undefined : firstMatchingRule(this.rules, model);
  }
}
