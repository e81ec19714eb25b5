import type { CatalogueEntry, CatalogueModel, ModelFamily, ModelListPrice, ReasoningOption } from '@chat-relay/contract';
import { acceptedParams, familyOfName, type AcceptedParams } from './model-family-rules';
import seedJson from './models-dev/api-subset.json';
import { readModelsDev } from './read-models-dev';

/** What the relay knows of one model id: the catalogue's entry (if any) and the family's rules applied to it. */
export interface ModelFacts {
  /** The model id asked about. */
  model: string;
  /** The catalogue entry it matched, the operator's override merged in; absent for an unknown model. */
  entry: CatalogueModel | undefined;
  family: ModelFamily;
  contextWindow: number | undefined;
  maxOutputTokens: number | undefined;
  /** Whether it reasons (takes `reasoning_effort` / thinking); undefined when nobody says. */
  reasoning: boolean | undefined;
  reasoningOptions: readonly ReasoningOption[];
  params: AcceptedParams;
  /** List price, USD per million tokens. */
  cost: ModelListPrice | undefined;
}

/** The glob syntax of model patterns elsewhere (`*` any run, `?` one character). */
const isGlob = (id: string): boolean => id.includes('*') || id.includes('?');

function globRegExp(pattern: string): RegExp {
  const escaped = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${escaped}$`, 'i');
}

/**
 * The names a provider or a gateway gives one model, most specific first: as asked; without a
 * `models/` (Gemini) or `provider/` (OpenRouter style) prefix; without a Bedrock prefix and
 * version (`anthropic.claude-…-v1:0`); without a date (`-20250929`, `-2024-08-06`, `@20250929`).
 */
export function candidateIds(model: string): string[] {
  const out = [model];
  const add = (id: string) => {
    if (id && !out.includes(id)) out.push(id);
  };
  let bare = model.replace(/^models\//, '');
  add(bare);
  const slash = bare.lastIndexOf('/');
  if (slash >= 0) add((bare = bare.slice(slash + 1)));
  // Bedrock's cross-region inference profiles: `us.`, `eu.`, `apac.`, `jp.`, `au.`, `us-gov.`, `global.`.
  const bedrock = /^(?:[a-z]{2,6}(?:-gov)?\.)?(?:anthropic|amazon|meta|mistral|cohere|ai21|deepseek|openai)\.(.+?)(?:-v\d+(?::\d+)?)?$/.exec(bare);
  if (bedrock?.[1]) add((bare = bedrock[1]));
  const undated = bare.replace(/(?:[-@]\d{8}|-\d{4}-\d{2}-\d{2})$/, '');
  add(undated);
  return out;
}

/** Answers are cached by name: every request asks, and names are the callers' to choose. */
const CACHE_LIMIT = 10_000;

/**
 * The model catalogue (issue 28): the dataset (the seed shipped with the relay, or a refresh an
 * admin loaded) with the operator's overrides on top, asked by model id. Pure: the server builds
 * a new one whenever an override or a refresh is written.
 */
export class ModelCatalogue {
  private readonly dataset = new Map<string, CatalogueModel>();
  private readonly exactOverrides = new Map<string, CatalogueModel>();
  private readonly globOverrides: Array<{ match: RegExp; entry: CatalogueModel }> = [];
  private readonly cache = new Map<string, ModelFacts>();

  constructor(
    private readonly datasetModels: readonly CatalogueModel[],
    private readonly overrides: readonly CatalogueModel[] = [],
    private readonly datasetSource: 'seed' | 'refresh' = 'seed',
  ) {
    for (const model of datasetModels) if (!this.dataset.has(model.id.toLowerCase())) this.dataset.set(model.id.toLowerCase(), model);
    for (const override of overrides) {
      if (isGlob(override.id)) this.globOverrides.push({ match: globRegExp(override.id), entry: override });
      else this.exactOverrides.set(override.id.toLowerCase(), override);
    }
  }

  /** The catalogue's entry for `model`, its override merged in; undefined when neither knows it. */
  entry(model: string): CatalogueModel | undefined {
    return this.facts(model).entry;
  }

  /** Everything known of `model`: the entry and its family's rules. Cheap after the first ask. */
  facts(model: string): ModelFacts {
    const cached = this.cache.get(model);
    if (cached) return cached;
    const facts = this.resolve(model);
    if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
    this.cache.set(model, facts);
    return facts;
  }

  /** Every entry, for the admin API: the dataset's, then overrides (an override of a dataset id shown merged). */
  list(): CatalogueEntry[] {
    const out: CatalogueEntry[] = [];
    for (const model of this.datasetModels) {
      const override = this.exactOverrides.get(model.id.toLowerCase());
      out.push(override ? { ...model, ...override, id: model.id, source: 'override' } : { ...model, source: this.datasetSource });
    }
    for (const override of this.overrides) {
      if (!this.dataset.has(override.id.toLowerCase())) out.push({ ...override, source: 'override' });
    }
    return out;
  }

  private resolve(model: string): ModelFacts {
    const ids = candidateIds(model);
    let base: CatalogueModel | undefined;
    for (const id of ids) if ((base = this.dataset.get(id.toLowerCase()))) break;
    let override: CatalogueModel | undefined;
    for (const id of base ? [...ids, base.id] : ids) if ((override = this.exactOverrides.get(id.toLowerCase()))) break;
    override ??= this.globOverrides.find((glob) => ids.some((id) => glob.match.test(id)))?.entry;
    const entry = base && override ? { ...base, ...override, id: base.id, params: { ...base.params, ...override.params } } : (override ?? base);
    const family = entry?.family ?? familyOfName(ids[ids.length - 1] ?? model);
    return {
      model,
      entry,
      family,
      contextWindow: entry?.context_window,
      maxOutputTokens: entry?.max_output_tokens,
      reasoning: entry?.reasoning,
      reasoningOptions: entry?.reasoning_options ?? [],
      params: acceptedParams(family, ids[ids.length - 1] ?? model, entry),
      cost: entry?.cost,
    };
  }
}

let seed: CatalogueModel[] | undefined;

/** The dataset shipped with the relay (models.dev, see models-dev/version.json), read once on first use. */
export function seedCatalogueModels(): readonly CatalogueModel[] {
  seed ??= readModelsDev(seedJson).models;
  return seed;
}
