import { describeEachBackend } from '../testing/store-backends';
import { describeUpstreamObjectStore } from './upstream-object-store.suite';

describeEachBackend('UpstreamObjectStore', describeUpstreamObjectStore);
