import { describe, expect, it } from 'vitest';
import { renderResultsTable } from '../../src/report/terminal.js';
import { textTable } from '../../src/report/text-table.js';
import type { MergedPhase, PhaseResult, ScenarioResult } from '../../src/results/types.js';
import { usage } from './fixtures.js';

describe('textTable', () => {
  it('aligns columns; numbers right, text left; no trailing spaces', () => {
    const out = textTable(
      ['name', 'count', 'p99'],
      [
        ['a', '5', '812µs'],
        ['longer-name', '12345', '1.23ms'],
      ],
    );
    expect(out.split('\n')).toEqual([
      'name         count     p99',
      '-----------  -----  ------',
      'a                5   812µs',
      'longer-name  12345  1.23ms',
    ]);
  });

  it.each<[string, string[], boolean]>([
    ['integers', ['1', '22', '333'], true],
    ['decimals with units', ['1.5ms', '812µs', '3s'], true],
    ['percentages', ['12.5%', '0.0%'], true],
    ['rates', ['10/s', '1,024'], true],
    ['dash for no value', ['-', '5'], true],
    ['words', ['abc', '5'], false],
    ['error summaries', ['0', '3×500'], false],
  ])('a column of %s: right-aligned = %s', (_label, cells, numeric) => {
    const out = textTable(
      ['col'],
      cells.map((c) => [c]),
    );
    const width = Math.max(3, ...cells.map((c) => c.length));
    const rows = out.split('\n').slice(2);
    cells.forEach((c, i) => {
      expect(rows[i]).toBe(numeric ? c.padStart(width) : c);
    });
  });

  it('renders a header without rows', () => {
    expect(textTable(['a', 'bb'], [])).toBe('a  bb\n-  --');
  });

  it('missing cells count as empty', () => {
    expect(textTable(['a', 'b'], [['x']]).split('\n')).toEqual(['a  b', '-  -', 'x']);
  });
});

function merged(over: Partial<MergedPhase>): MergedPhase {
  return {
    trials: 3,
    durationMs: 90_000,
    sent: 45_000,
    responses: 45_000,
    successes: 45_000,
    failures: 0,
    statusCodes: { '200': 45_000 },
    errors: {},
    errorRate: 0,
    rps: 500,
    bytesPerSec: 1000,
    latency: {
      count: 45_000,
      min: 200,
      mean: 900,
      p10: 300,
      p25: 500,
      p50: 812,
      p75: 1000,
      p90: 1234,
      p95: 2000,
      p99: 12_345,
      'p99.9': 1_234_567,
      max: 2_000_000,
    },
    connectionCloses: 0,
    resources: {},
    histogram: '',
    ...over,
  };
}

function phase(name: string, m: Partial<MergedPhase>, flags: string[] = []): PhaseResult {
  return { name, kind: 'closed', params: { connections: 10 }, warmupMs: 5000, trials: [], merged: merged(m), flags };
}

describe('renderResultsTable: nothing measured', () => {
  it('shows a dash, never 0µs, for a phase without a successful response', () => {
    const none = merged({ responses: 0, successes: 0, statusCodes: {}, errors: { ECONNREFUSED: 12 } });
    none.latency = { ...none.latency, count: 0, p10: 0, p25: 0, p50: 0, p75: 0, p90: 0, p99: 0, 'p99.9': 0, max: 0 };
    const out = renderResultsTable([
      { name: 'api', scenarioHash: 'h', phases: [{ ...phase('c10', {}), merged: none }] },
    ]);
    const row = out.split('\n').find((l) => l.startsWith('api/c10')) ?? '';
    expect(row).not.toContain('0µs');
    expect(row.match(/—/g)).toHaveLength(8);
  });
});

describe('renderResultsTable', () => {
  const scenarios: ScenarioResult[] = [
    {
      name: 'search',
      scenarioHash: 'sha256:x',
      phases: [
        phase('c10', {
          statusCodes: { '200': 44_990, '302': 5, '500': 3, '404': 2 },
          errors: { ECONNRESET: 4, timeout: 1 },
          resources: {
            api: usage({
              cpuMeanPct: 45.25,
              cpuPeakPct: 98,
              memoryPeakBytes: 512 * 1024 ** 2,
              rxBytes: 1536,
              txBytes: 1024 ** 3,
            }),
          },
        }),
        phase('r500', { trials: 1, responses: 1_500_000, rps: 42.25 }, [
          'generator-bound',
          'server closed keep-alive connections',
        ]),
      ],
    },
  ];
  const out = renderResultsTable(scenarios);
  const lines = out.split('\n');

  it('has a header row with every column', () => {
    expect(lines[0]?.split(/\s{2,}/)).toEqual([
      'scenario/phase',
      'trials',
      'responses',
      'rps',
      'p10',
      'p25',
      'p50',
      'p75',
      'p90',
      'p99',
      'p99.9',
      'max',
      'errors',
    ]);
  });

  it.each<[string, string[]]>([
    [
      'search/c10',
      [
        'search/c10',
        '3',
        '45k',
        '500',
        '300µs',
        '500µs',
        '812µs',
        '1ms',
        '1.23ms',
        '12.3ms',
        '1.23s',
        '2s',
        '2×404 3×500 4×ECONNRESET 1×timeout',
      ],
    ],
    [
      'search/r500',
      ['search/r500', '1', '1.5M', '42.3', '300µs', '500µs', '812µs', '1ms', '1.23ms', '12.3ms', '1.23s', '2s', '0'],
    ],
  ])('row %s holds formatted counts and percentiles', (name, cells) => {
    const row = lines.find((l) => l.startsWith(`${name} `));
    expect(row).toBeDefined();
    expect(row?.trim().split(/\s{2,}/)).toEqual(cells);
  });

  it('counts failed status codes and error kinds, never 2xx/3xx', () => {
    const row = lines.find((l) => l.startsWith('search/c10 ')) ?? '';
    expect(row).toContain('3×500');
    expect(row).toContain('4×ECONNRESET');
    expect(row).not.toContain('×200');
    expect(row).not.toContain('×302');
  });

  it('adds a resource table per container', () => {
    const header = lines.findIndex((l) => l.startsWith('scenario/phase') && l.includes('container'));
    expect(header).toBeGreaterThan(0);
    expect(lines[header - 1]).toBe('');
    expect(lines[header + 2]?.trim().split(/\s{2,}/)).toEqual([
      'search/c10',
      'api',
      '45.3%',
      '98.0%',
      '512MiB',
      '1.5KiB',
      '1GiB',
      // open file descriptors were not sampled for this container
      '—',
    ]);
  });

  it('prints flags with `!`', () => {
    expect(lines).toContain('! search/r500: generator-bound');
    expect(lines).toContain('! search/r500: server closed keep-alive connections');
  });

  it('without resources or flags prints only the results table', () => {
    const plain = renderResultsTable([{ name: 's', scenarioHash: 'h', phases: [phase('c1', {})] }]);
    expect(plain.split('\n')).toHaveLength(3);
    expect(plain).not.toContain('!');
    expect(plain).not.toContain('container');
  });

  it('with no scenarios prints just the header', () => {
    expect(renderResultsTable([]).split('\n')).toHaveLength(2);
  });
});
