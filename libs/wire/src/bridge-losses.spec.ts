import fs from 'node:fs';
import path from 'node:path';
import { BRIDGE_LOSS_TABLES } from './bridge-losses';
import type { LossRule, LossTable } from './hub/bridge-loss';

const ROOT = path.resolve(__dirname, '../../..');
const DOC = path.join(ROOT, 'docs/guides/bridge-fidelity.md');
const TABLE_HEADER = '| Field | Kind | Why |';

/** The doc's loss tables: each `## heading` holding a table of the fidelity shape, its rows as rules. */
function documentedTables(): Map<string, LossRule[]> {
  const tables = new Map<string, LossRule[]>();
  for (const section of fs.readFileSync(DOC, 'utf8').split(/^## /m).slice(1)) {
    const [heading = '', ...lines] = section.split('\n');
    const start = lines.indexOf(TABLE_HEADER);
    if (start < 0) continue;
    const rows: LossRule[] = [];
    for (const line of lines.slice(start + 2)) {
      const cells = /^\| `([^`]+)` \| (dropped|mapped) \| (.+) \|$/.exec(line);
      if (!cells) break;
      rows.push({ field: cells[1]!, kind: cells[2] as LossRule['kind'], reason: cells[3]! });
    }
    tables.set(heading.trim(), rows);
  }
  return tables;
}

const rowsOf = (table: LossTable): LossRule[] => Object.values(table.rules).map(({ field, kind, reason }) => ({ field, kind, reason }));
const markdownOf = (table: LossTable): string =>
  [`## ${table.pair}`, '', TABLE_HEADER, '|---|---|---|', ...rowsOf(table).map((rule) => `| \`${rule.field}\` | ${rule.kind} | ${rule.reason} |`)].join('\n');

/** Production sources (specs left out) of the wire library and the server. */
function productionSources(): string {
  const texts: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')) texts.push(fs.readFileSync(full, 'utf8'));
    }
  };
  walk(path.join(ROOT, 'libs/wire/src'));
  walk(path.join(ROOT, 'apps/server/src'));
  return texts.join('\n');
}

describe('bridge losses are data, and docs/guides/bridge-fidelity.md lists exactly them (issue 27)', () => {
  const documented = documentedTables();

  it.each(BRIDGE_LOSS_TABLES.map((table) => [table.pair, table] as const))('%s: the doc lists every loss of the table, and no other', (_pair, table) => {
    // On a difference, the expected section is printed: paste it into the doc.
    expect({ section: table.pair, rows: documented.get(table.pair) }).toEqual({ section: table.pair, rows: rowsOf(table) });
    expect(markdownOf(table)).toContain(table.pair);
  });

  it('the doc has no loss table that no bridge has', () => {
    expect([...documented.keys()].sort()).toEqual(BRIDGE_LOSS_TABLES.map((table) => table.pair).sort());
  });

  it('every loss is one a converter can note: each rule is used by production code', () => {
    const sources = productionSources();
    const unused = BRIDGE_LOSS_TABLES.flatMap((table) => Object.keys(table.rules).filter((key) => !sources.includes(`rules.${key}`)).map((key) => `${table.pair}: ${key}`));
    expect(unused).toEqual([]);
  });

  it('rules are well formed: a field path, a reason without the old sentence framing', () => {
    for (const table of BRIDGE_LOSS_TABLES) {
      for (const rule of Object.values(table.rules)) {
        expect(rule.field).toMatch(/^[\w.*[\]()-]+$/);
        expect(rule.reason).not.toMatch(/\|/);
        expect(rule.reason).not.toMatch(/\.$/);
      }
    }
  });
});
