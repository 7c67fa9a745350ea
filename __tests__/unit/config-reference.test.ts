// docs/config.md is a reference a reader can scan: no table cell runs past 80 words (the long rules
// live in a section per key group, under a YAML example), every ```yaml block parses and is a config
// the shipped schema accepts once given what it leaves out, and every key of that schema appears in
// an example at its full path. The checkers are plain functions, first shown to fail on small pages.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';

const ROOT = resolve(import.meta.dirname, '../..');
const read = (file: string): string => readFileSync(join(ROOT, file), 'utf8');

const WORD_LIMIT = 80;

/** The lines of a Markdown text outside its fenced code blocks. */
function proseLines(md: string): string[] {
  let fenced = false;
  return md.split('\n').filter((line) => {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      return false;
    }
    return !fenced;
  });
}

/** Every table cell over the limit, as "<the row's first cell>: N words (at most LIMIT)". */
function longCells(md: string, limit = WORD_LIMIT): string[] {
  const out: string[] = [];
  for (const line of proseLines(md)) {
    const row = line.trim();
    if (!row.startsWith('|')) continue;
    const cells = row
      .replace(/^\|/, '')
      .replace(/(?<!\\)\|$/, '')
      .split(/(?<!\\)\|/)
      .map((c) => c.trim());
    for (const cell of cells) {
      const words = cell.split(/\s+/).filter((w) => w !== '').length;
      if (words > limit) out.push(`${cells[0]}: ${words} words (at most ${limit})`);
    }
  }
  return out;
}

/** The page's ```yaml blocks, parsed (merge keys merged), and a line for each that does not parse. */
function yamlBlocks(md: string): { values: unknown[]; problems: string[] } {
  const values: unknown[] = [];
  const problems: string[] = [];
  for (const m of md.matchAll(/^```yaml\n([\s\S]*?)^```$/gm)) {
    const doc = parseDocument(m[1] as string, { merge: true });
    const line = md.slice(0, m.index).split('\n').length;
    if (doc.errors.length > 0) problems.push(`the yaml block at line ${line}: ${doc.errors[0]?.message}`);
    else values.push(doc.toJS());
  }
  return { values, problems };
}

/** A key path: keys, `[]` for an array's items; in the schema `*` (any key) or a pattern also. */
type Segment = string | RegExp;
const ANY = /(?:)/;
const shown = (path: Segment[]): string =>
  path
    .map((s) => (s === ANY ? '*' : s instanceof RegExp ? `<${s.source}>` : s))
    .join('.')
    .replace(/\.\[\]/g, '[]');

/** Every key path present in parsed YAML. */
function keyPaths(value: unknown, at: string[] = [], out: string[][] = []): string[][] {
  if (Array.isArray(value)) for (const item of value) keyPaths(item, [...at, '[]'], out);
  else if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      out.push([...at, key]);
      keyPaths(child, [...at, key], out);
    }
  }
  return out;
}

interface Schema {
  properties?: Record<string, Schema>;
  patternProperties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  items?: boolean | Schema;
  prefixItems?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  $ref?: string;
  [other: string]: unknown;
}

/** One key to find in the examples: at one of its places, a key equal to `key` (or matching it). */
interface KeyCheck {
  places: Segment[][];
  key: string | RegExp;
  /** for a pattern: the named keys beside it, which do not count as an example of the pattern */
  named: string[];
}

/** Keys the reference need not show: compose-style `x-` anchors and YAML's merge key. */
const ignored = (key: string): boolean => key === '<<' || key.startsWith('^x-');

/**
 * Every key reachable from the schema's root (through properties, patternProperties, items,
 * prefixItems, additionalProperties, anyOf/oneOf/allOf and $ref), as full paths. A mapping the
 * schema repeats verbatim at several places (zod inlines a shared shape: `expect`, `extract`, the
 * threshold rules under every metric) is one check per key, found at any of its places, so the page
 * need not show every metric × rule × place; mappings that differ (a scenario's thresholds, a mix
 * entry's) are checked separately.
 */
function schemaChecks(root: Schema): KeyCheck[] {
  const groups = new Map<string, { node: Schema; places: Map<string, Segment[]> }>();
  const resolveRef = (ref: string): Schema =>
    ref
      .replace(/^#\/?/, '')
      .split('/')
      .filter((s) => s !== '')
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<Schema>((node, s) => node[s] as Schema, root);
  const walk = (node: Schema | boolean | undefined, at: Segment[], refs: string[]): void => {
    if (node === undefined || typeof node === 'boolean') return;
    if (node.$ref !== undefined && !refs.includes(node.$ref)) walk(resolveRef(node.$ref), at, [...refs, node.$ref]);
    for (const branch of [...(node.anyOf ?? []), ...(node.oneOf ?? []), ...(node.allOf ?? [])]) walk(branch, at, refs);
    walk(node.items, [...at, '[]'], refs);
    for (const item of node.prefixItems ?? []) walk(item, [...at, '[]'], refs);
    walk(node.additionalProperties, [...at, ANY], refs);
    const patterns = Object.entries(node.patternProperties ?? {}).filter(([p]) => !ignored(p));
    const properties = Object.entries(node.properties ?? {}).filter(([k]) => !ignored(k));
    if (properties.length + patterns.length > 0) {
      const id = JSON.stringify(node, (k, v: unknown) => (k === 'description' || k === 'title' ? undefined : v));
      const group = groups.get(id) ?? { node, places: new Map() };
      group.places.set(shown(at), at);
      groups.set(id, group);
    }
    for (const [key, child] of properties) walk(child, [...at, key], refs);
    for (const [pattern, child] of patterns) walk(child, [...at, new RegExp(pattern, 'u')], refs);
  };
  walk(root, [], []);
  return [...groups.values()].flatMap(({ node, places }) => {
    const named = Object.keys(node.properties ?? {}).filter((k) => !ignored(k));
    const patterns = Object.keys(node.patternProperties ?? {}).filter((p) => !ignored(p));
    return [...named, ...patterns.map((p) => new RegExp(p, 'u'))].map((key) => ({
      places: [...places.values()],
      key,
      named,
    }));
  });
}

const label = (check: KeyCheck): string => {
  const first = shown([...(check.places[0] ?? []), check.key]);
  const others = check.places.length - 1;
  return others > 0 ? `${first} (or at ${others} other place${others > 1 ? 's' : ''})` : first;
};

/** The schema's keys that no example shows at their path. */
function missingKeys(checks: KeyCheck[], values: unknown[]): string[] {
  const paths = values.flatMap((v) => keyPaths(v));
  const matches = (want: Segment, got: string): boolean => (typeof want === 'string' ? want === got : want.test(got));
  const found = (check: KeyCheck): boolean =>
    paths.some((path) => {
      const last = path[path.length - 1] as string;
      if (typeof check.key === 'string' ? last !== check.key : !check.key.test(last) || check.named.includes(last)) {
        return false;
      }
      return check.places.some(
        (place) => path.length === place.length + 1 && place.every((s, i) => matches(s, path[i] as string)),
      );
    });
  return checks.filter((c) => !found(c)).map(label);
}

describe('the config reference checkers catch what they are for', () => {
  const words = (n: number): string => Array.from({ length: n }, () => 'word').join(' ');
  it.each<[string, string, string[]]>([
    [
      'a cell over the limit, named by its row',
      `| key | meaning |\n| --- | --- |\n| \`long\` | ${words(81)} |`,
      ['`long`: 81 words (at most 80)'],
    ],
    ['a cell at the limit', `| key | meaning |\n| --- | --- |\n| \`ok\` | ${words(80)} |`, []],
    [
      'an escaped pipe inside a cell',
      `| key | meaning |\n| --- | --- |\n| \`a\` | ${words(41)} \\| ${words(40)} |`,
      ['`a`: 82 words (at most 80)'],
    ],
    ['a table row inside a code fence', `\`\`\`\n| \`fenced\` | ${words(90)} |\n\`\`\``, []],
  ])('longCells: %s', (_name, md, problems) => {
    expect(longCells(md)).toEqual(problems);
  });

  const schema: Schema = {
    type: 'object',
    properties: {
      gate: {
        type: 'object',
        properties: {
          busy: { anyOf: [{ type: 'object', properties: { others: {}, repeats: {} } }, { const: 'off' }] },
        },
      },
      scenarios: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            name: {},
            thresholds: { $ref: '#/$defs/rules' },
            requests: {
              type: 'array',
              items: { type: 'object', properties: { thresholds: { $ref: '#/$defs/rules' } } },
            },
          },
          patternProperties: { '^x-': {} },
        },
      },
    },
    $defs: { rules: { type: 'object', properties: { p50: {} }, patternProperties: { '^p\\d+$': {} } } },
  };
  const checks = schemaChecks(schema);
  const page = (yaml: string): string => `# page\n\n\`\`\`yaml\n${yaml}\n\`\`\`\n`;
  const all =
    'gate: { busy: { others: 80, repeats: 3 } }\nscenarios:\n  - name: a\n    requests: [{ thresholds: { p75: {} } }]\n    thresholds: { p50: {} }';

  it.each<[string, string, string[]]>([
    ['every key at its path', all, []],
    ['a key missing', all.replace(', repeats: 3', ''), ['gate.busy.repeats']],
    [
      'a key under the wrong parent',
      all.replace(', repeats: 3', '').replace('name: a', 'name: a\n    repeats: 3'),
      ['gate.busy.repeats'],
    ],
    [
      'a pattern key shown only by a named key',
      all.replace('p75', 'p50'),
      ['scenarios[].thresholds.<^p\\d+$> (or at 1 other place)'],
    ],
  ])('missingKeys: %s', (_name, yaml, missing) => {
    const { values, problems } = yamlBlocks(page(yaml));
    expect(problems).toEqual([]);
    expect(missingKeys(checks, values)).toEqual(missing);
  });

  it('yamlBlocks: a block that does not parse is named by its line', () => {
    expect(yamlBlocks(page('a: [1, 2')).problems).toEqual([expect.stringMatching(/^the yaml block at line 3: /)]);
  });
});

describe('docs/config.md', () => {
  const md = read('docs/config.md');
  const schema = JSON.parse(read('schema/perf-gate.schema.json')) as Schema;
  const { values, problems } = yamlBlocks(md);
  const checks = schemaChecks(schema);

  it(`no table cell is over ${WORD_LIMIT} words`, () => {
    expect(longCells(md)).toEqual([]);
  });

  it('every yaml block parses', () => {
    expect(problems).toEqual([]);
    expect(values.length).toBeGreaterThan(20);
  });

  it(`every one of the schema's ${checks.length} keys appears in a yaml example at its path`, () => {
    expect(checks.length).toBeGreaterThan(150);
    expect(missingKeys(checks, values)).toEqual([]);
  });

  it('every yaml example is a config the schema accepts, given the version, a SUT and a scenario it leaves out', () => {
    const validate = new Ajv2020({ strict: false, allErrors: true }).compile(schema);
    const scenario = {
      name: 'filler',
      request: { url: 'http://api:8080/' },
      phases: [{ connections: 1, duration: '1s' }],
    };
    const rejected = values.flatMap((value, i) => {
      const example = value as Record<string, unknown>;
      const config = {
        version: 1,
        ...(example.target === undefined ? { sut: { compose: 'docker-compose.yml' } } : {}),
        scenarios: [scenario],
        ...example,
      };
      return validate(config) ? [] : [`yaml block ${i + 1}: ${JSON.stringify(validate.errors?.slice(0, 3))}`];
    });
    expect(rejected).toEqual([]);
  });
});
