import { describeEachBackend } from '../testing/store-backends';
import { describeTokenStore } from './token-store.suite';

describeEachBackend('TokenStore', describeTokenStore);
