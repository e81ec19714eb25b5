import { describeEachBackend } from '../testing/store-backends';
import { describeChannelStore } from './channel-store.suite';

describeEachBackend('ChannelStore', describeChannelStore);
