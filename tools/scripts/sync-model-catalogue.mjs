#!/usr/bin/env node
// Writes the model catalogue's seed (libs/wire/src/models/models-dev/) from models.dev
// (https://github.com/anomalyco/models.dev, MIT): either a checkout of its repository (the
// TOML files under providers/ and models/) or its published api.json.
//
//   node tools/scripts/sync-model-catalogue.mjs --from=<models.dev checkout | api.json> [--commit=<sha>] [--date=<YYYY-MM-DD>]
//
// Only the first-party providers of the model families the relay's rules know are kept, and of
// each model only the fields the relay reads, so the seed stays small. The output has api.json's
// shape: an admin refresh (POST /api/catalogue/refresh) reads the same format.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseToml } from 'smol-toml';

const PROVIDERS = ['openai', 'anthropic', 'google', 'deepseek', 'mistral', 'xai', 'moonshotai', 'zai'];
const MODEL_FIELDS = ['id', 'name', 'family', 'attachment', 'reasoning', 'reasoning_options', 'temperature', 'tool_call', 'structured_output', 'modalities', 'cost', 'limit', 'status', 'release_date'];
const COST_FIELDS = ['input', 'output', 'cache_read', 'cache_write', 'input_audio', 'output_audio'];
const OUT_DIR = 'libs/wire/src/models/models-dev';

const args = Object.fromEntries(process.argv.slice(2).map((arg) => arg.replace(/^--/, '').split(/=(.*)/s, 2)));
if (!args.from) {
  console.error('usage: sync-model-catalogue.mjs --from=<models.dev checkout or api.json> [--commit=<sha>] [--date=<YYYY-MM-DD>]');
  process.exit(2);
}

const isPlainObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A model file's own fields over those of the `base_model` it names (models.dev's inheritance). */
function mergeDeep(base, own) {
  const merged = { ...base };
  for (const [key, value] of Object.entries(own)) merged[key] = isPlainObject(value) && isPlainObject(base[key]) ? mergeDeep(base[key], value) : value;
  return merged;
}

function readCheckout(root) {
  const readToml = (path) => parseToml(readFileSync(path, 'utf8'));
  const api = {};
  for (const provider of PROVIDERS) {
    const dir = join(root, 'providers', provider);
    if (!existsSync(dir)) continue;
    const meta = readToml(join(dir, 'provider.toml'));
    const models = {};
    for (const file of readdirSync(join(dir, 'models')).sort()) {
      if (!file.endsWith('.toml')) continue;
      const id = file.slice(0, -'.toml'.length);
      let model = readToml(join(dir, 'models', file));
      if (typeof model.base_model === 'string') {
        const base = readToml(join(root, 'models', `${model.base_model}.toml`));
        const { base_model: _base, base_model_omit: omit = [], ...own } = model;
        model = mergeDeep(base, own);
        for (const key of omit) delete model[key];
      }
      models[id] = { ...model, id };
    }
    api[provider] = { id: provider, name: meta.name, doc: meta.doc, models };
  }
  return api;
}

function slim(model) {
  const out = {};
  for (const field of MODEL_FIELDS) if (model[field] !== undefined) out[field] = model[field];
  if (isPlainObject(out.cost)) out.cost = Object.fromEntries(COST_FIELDS.filter((field) => typeof out.cost[field] === 'number').map((field) => [field, out.cost[field]]));
  if (isPlainObject(out.limit)) out.limit = Object.fromEntries(['context', 'input', 'output'].filter((field) => typeof out.limit[field] === 'number').map((field) => [field, out.limit[field]]));
  return out;
}

const source = statSync(args.from).isDirectory() ? readCheckout(args.from) : JSON.parse(readFileSync(args.from, 'utf8'));
const seed = {};
let count = 0;
for (const provider of PROVIDERS) {
  const entry = source[provider];
  if (!entry) continue;
  const models = {};
  for (const id of Object.keys(entry.models).sort()) {
    models[id] = slim(entry.models[id]);
    count += 1;
  }
  seed[provider] = { id: provider, name: entry.name, models };
}
writeFileSync(join(OUT_DIR, 'api-subset.json'), `${JSON.stringify(seed, null, 1)}\n`);
const version = { source: 'https://github.com/anomalyco/models.dev', commit: args.commit ?? null, date: args.date ?? null, providers: Object.keys(seed), models: count };
writeFileSync(join(OUT_DIR, 'version.json'), `${JSON.stringify(version, null, 2)}\n`);
console.log(`wrote ${count} models of ${Object.keys(seed).length} providers to ${OUT_DIR}`);
