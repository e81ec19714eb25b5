import { describeEachBackend } from '../testing/store-backends';
import { describeAccountStore } from './account-store.suite';

describeEachBackend('AccountStore', describeAccountStore);
