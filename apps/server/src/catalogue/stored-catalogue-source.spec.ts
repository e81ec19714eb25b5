import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openSqliteStorage } from '../storage/sqlite/open-sqlite';
import type { Storage } from '../storage/types';
import { LocalChangeFeed } from '../core/change-feed';
import { ModelCatalogueService } from './model-catalogue-service';
import { StoredCatalogueSource } from './stored-catalogue-source';

describe('StoredCatalogueSource', () => {
  let dataDir: string;
  let storage: Storage;

  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-catalogue-source-'));
    storage = openSqliteStorage(dataDir);
  });
  afterEach(async () => {
    await storage.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('reads the refreshed dataset again only when it changed, and a refresh that finds nothing new keeps the catalogue', async () => {
    const reads = jest.spyOn(storage.catalogue, 'dataset');
    const source = new StoredCatalogueSource(storage.catalogue);
    const service = new ModelCatalogueService(source, new LocalChangeFeed());
    await service.load();
    expect(reads).not.toHaveBeenCalled();
    const seed = service.current();

    await storage.catalogue.replaceDataset({ models: [{ id: 'gpt-9', max_output_tokens: 9 }], origin: 'upload', refreshedAt: '2026-11-29T07:00:00.000Z', skipped: 0 });
    await service.load();
    await service.load();
    expect(reads).toHaveBeenCalledTimes(1);
    expect(service.current()).not.toBe(seed);
    const refreshed = service.current();
    expect(refreshed.facts('gpt-9').maxOutputTokens).toBe(9);
    await service.load();
    expect(service.current()).toBe(refreshed);

    await storage.catalogue.putOverride({ id: 'gpt-9', max_output_tokens: 3 }, '2026-11-29T07:01:00.000Z');
    await service.load();
    expect(reads).toHaveBeenCalledTimes(1);
    expect(service.facts('gpt-9').maxOutputTokens).toBe(3);

    await storage.catalogue.replaceDataset({ models: [{ id: 'gpt-9', max_output_tokens: 90 }], origin: 'upload', refreshedAt: '2026-11-29T07:02:00.000Z', skipped: 0 });
    await storage.catalogue.deleteOverride('gpt-9');
    await service.load();
    expect(reads).toHaveBeenCalledTimes(2);
    expect(service.facts('gpt-9').maxOutputTokens).toBe(90);

    await storage.catalogue.clearDataset();
    await service.load();
    expect(service.datasetLoaded().source).toBe('seed');
    expect(service.facts('gpt-9').entry).toBeUndefined();
  });
});
