import { describeEachBackend } from '../testing/store-backends';
import { describeAssistantStore } from './assistant-store.suite';

describeEachBackend('AssistantStore', describeAssistantStore);
