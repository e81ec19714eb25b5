export * from './model-catalogue';
export * from './model-family-rules';
export * from './read-models-dev';
export { default as modelsDevSeedVersion } from './models-dev/version.json';
