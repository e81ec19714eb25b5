import { describeEachBackend } from '../testing/store-backends';
import { describeFallbackRuleStore } from './fallback-rule-store.suite';

describeEachBackend('FallbackRuleStore', describeFallbackRuleStore);
