export { anthropicAdapter, ANTHROPIC_VERSION } from './anthropic-adapter';
