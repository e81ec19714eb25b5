export { bedrockConverseAdapter } from './converse-adapter';
export { CHAT_TO_CONVERSE } from './chat-to-converse-losses';
export { mapConverseErrorResponse, mapConverseStreamException } from './converse-error';
export { converseFamilyOf } from './converse-model-fields';
