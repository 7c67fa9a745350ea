// Issue 47: no config `validate` accepts has a row that cannot fail. Over generated configs (1 to 60
// gated phases, 1 to 8 banded rows, both judging modes, trials or pairs 2 to 10, with and without a
// run budget, with and without a cap given) each is either refused by the reach check or every row
// reaches: at the cap the check grants, a row that moves alone at its test's extreme, beside rows
// whose own extremes each sit on another labelling (the worst the joint adjustment can charge it),
// gets from the verdict's own joint test (stats/joint.ts) a p at or below what its final look spends.
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { looksOf, smallestMannWhitneyP, smallestSignedRankP, spendAlpha } from '../../src/compare/confirm.js';
import { rowAlpha } from '../../src/compare/family.js';
import { AGAINST_BASELINES, type Judging, PAIRED } from '../../src/compare/judging.js';
import { confirmationReach } from '../../src/compare/reach.js';
import { withFamily } from '../../src/compare/run-budget.js';
import { parseConfigText } from '../../src/config/load.js';
import type { Config } from '../../src/config-parts/types.js';
import { jointMannWhitney, jointSignedRank } from '../../src/stats/joint.js';
import { seededRandom } from '../../src/stats/random.js';

const METRICS = ['p50', 'p90', 'p95', 'p99', 'p99.9', 'max', 'mean', 'rps'] as const;

interface Case {
  mode: 'gate' | 'ab';
  phases: number;
  rows: number;
  count: number;
  runAlpha?: number | 'off';
  maxTrials?: number;
}

function configOf(c: Case): Config {
  const thresholds = Object.fromEntries(METRICS.slice(0, c.rows).map((m) => [m, { regress: '10%' }]));
  const raw = {
    version: 1,
    sut: { compose: 'docker-compose.yml' },
    gate: {
      ...(c.runAlpha !== undefined ? { 'run-alpha': c.runAlpha } : {}),
      ...(c.maxTrials !== undefined ? { confirm: { 'max-trials': c.maxTrials } } : {}),
    },
    ab: { pairs: c.mode === 'ab' ? c.count : 6 },
    defaults: { trials: c.mode === 'gate' ? c.count : 5, thresholds },
    scenarios: Array.from({ length: c.phases }, (_, i) => ({
      name: `s${i}`,
      request: { url: 'http://api:8080/' },
      phases: [{ name: 'c1', connections: 1, duration: '1s' }],
    })),
  };
  const { config, problems } = parseConfigText(stringify(raw), '/ws/perf-gate.yml', (p) => `/ws/${p}`);
  expect(problems).toEqual([]);
  return config as Config;
}

/** Row 0 at its extreme (every current value above every baseline value); row r ≥ 1 at the extreme
 * of another labelling (a rotation of the ranks), so that each row's own smallest p sits elsewhere. */
function gateRows(k: number, m: number, rows: number) {
  const n = k + m;
  return Array.from({ length: rows }, (_, r) => {
    const values = Array.from({ length: n }, (_, i) => (n - 1 - i + r) % n);
    return { x: values.slice(0, k), y: values.slice(k) };
  });
}

/** Row 0 positive in every pair; row r ≥ 1 negative where bit i of r is set (its own extreme is that
 * sign flip), magnitudes 1..k. */
function abRows(k: number, rows: number) {
  return Array.from({ length: rows }, (_, r) => Array.from({ length: k }, (_, i) => (r & (1 << i) ? -1 : 1) * (i + 1)));
}

/** The verdict's joint p for row 0 at the cap, and the alpha its final look spends. */
function atCap(c: Case, config: Config, judging: Judging) {
  const [s] = withFamily(config.scenarios, judging, config.gate.runAlpha);
  const reach = confirmationReach(
    { ...config, scenarios: withFamily(config.scenarios, judging, config.gate.runAlpha) },
    judging,
  );
  const cap = reach.caps.get('s0') ?? looksOf(c.count, config.gate.confirm.maxTrials).cap;
  const looks = looksOf(c.count, cap);
  const alpha = rowAlpha({}, s?.family, judging.defaultAlpha);
  const own = c.mode === 'gate' ? smallestMannWhitneyP(c.count, c.count) : smallestSignedRankP(c.count);
  const spent = spendAlpha(alpha, looks, own);
  const needed = looks.cap > looks.first ? spent.final : spent.first;
  const k = looks.cap;
  // without a budget a row is tested alone; with one, with its phase's rows
  const tested = s?.family ? c.rows : 1;
  const p =
    c.mode === 'gate'
      ? (jointMannWhitney(gateRows(k, c.count, tested))[0] as number)
      : (jointSignedRank(abRows(k, tested))[0] as number);
  return { refused: reach.problems.length > 0, p, needed, cap };
}

function generated(count: number, seed: number): Case[] {
  const random = seededRandom(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  return Array.from({ length: count }, () => {
    const mode = random() < 0.5 ? 'gate' : 'ab';
    const budget = random();
    const capGiven = random() < 0.3;
    return {
      mode,
      phases: int(1, 60),
      rows: int(1, 8),
      count: int(2, 10),
      ...(budget < 0.4
        ? { runAlpha: 0.01 }
        : budget < 0.6
          ? { runAlpha: 0.05 }
          : budget < 0.8
            ? { runAlpha: 'off' }
            : {}),
      ...(capGiven ? { maxTrials: int(0, 30) } : {}),
    } as Case;
  });
}

describe('every row of a config the reach check accepts can fail (issue 47)', () => {
  const cases = generated(160, 0x47);

  it('the generated configs cover both outcomes, both modes, budgets and grown caps', () => {
    const outcomes = cases.map((c) => {
      const config = configOf(c);
      const judging = c.mode === 'gate' ? AGAINST_BASELINES : PAIRED;
      const scenarios = withFamily(config.scenarios, judging, config.gate.runAlpha);
      const reach = confirmationReach({ ...config, scenarios }, judging);
      return { refused: reach.problems.length > 0, grown: reach.caps.size > 0, mode: c.mode };
    });
    expect(outcomes.filter((o) => o.refused).length).toBeGreaterThan(10);
    expect(outcomes.filter((o) => !o.refused).length).toBeGreaterThan(50);
    expect(outcomes.filter((o) => o.grown).length).toBeGreaterThan(10);
    expect(new Set(outcomes.filter((o) => !o.refused).map((o) => o.mode))).toEqual(new Set(['gate', 'ab']));
  });

  it.each(cases.map((c) => [JSON.stringify(c), c] as const))('%s', (_label, c) => {
    const config = configOf(c);
    const judging = c.mode === 'gate' ? AGAINST_BASELINES : PAIRED;
    const { refused, p, needed } = atCap(c, config, judging);
    if (refused) return;
    expect(p).toBeLessThanOrEqual(needed);
  });

  // the issue's own cases, as they were refused or not
  it.each<[string, Case, boolean]>([
    // 12 scenarios of one phase, p50/p90/p99/rps banded, A/B at 1%: the cap grows (12 pairs gave 4/4096 > 0.01/12)
    [
      '12 phases × 4 rows, A/B, 1%: reaches by a grown cap',
      { mode: 'ab', phases: 12, rows: 4, count: 6, runAlpha: 0.01 },
      false,
    ],
    [
      'the same with the cap 12 given: refused',
      { mode: 'ab', phases: 12, rows: 4, count: 6, runAlpha: 0.01, maxTrials: 12 },
      true,
    ],
    [
      '48 phases × 4 rows, A/B, 1%: reaches by a grown cap',
      { mode: 'ab', phases: 48, rows: 4, count: 6, runAlpha: 0.01 },
      false,
    ],
    [
      '16 phases × 3 rows, gate, 1%, cap 12 given: reaches',
      { mode: 'gate', phases: 16, rows: 3, count: 5, runAlpha: 0.01, maxTrials: 12 },
      false,
    ],
  ])('%s', (_label, c, refused) => {
    const config = configOf(c);
    const judging = c.mode === 'gate' ? AGAINST_BASELINES : PAIRED;
    const got = atCap(c, config, judging);
    expect(got.refused).toBe(refused);
    if (!refused) expect(got.p).toBeLessThanOrEqual(got.needed);
  });
});
