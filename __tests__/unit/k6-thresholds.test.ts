// k6-style threshold strings as sugar for perf-gate's rules (issue 21): what each expression means,
// and one line for each that cannot mean anything here.
import { describe, expect, it } from 'vitest';
import { k6Rule, thresholdRules } from '../../src/config-parts/k6-thresholds.js';

describe('k6Rule', () => {
  it.each<[string, string, unknown]>([
    // under a perf-gate metric
    ['p95', 'p(95) < 200ms', { metric: 'p95', below: '200ms' }],
    ['p95', '< 200ms', { metric: 'p95', below: '200ms' }],
    ['p95', 'p(95)<200', { metric: 'p95', below: '200ms' }],
    ['p99.9', 'p(99.9) <= 1s', { metric: 'p99.9', below: '1s' }],
    ['mean', 'avg < 100', { metric: 'mean', below: '100ms' }],
    ['p50', 'med<5ms', { metric: 'p50', below: '5ms' }],
    ['max', 'max < 2s', { metric: 'max', below: '2s' }],
    ['error-rate', 'rate < 0.01', { metric: 'error-rate', below: '1%' }],
    ['error-rate', '< 0.07', { metric: 'error-rate', below: '7%' }],
    ['error-rate', '< 0.5%', { metric: 'error-rate', below: '0.5%' }],
    ['rps', '> 100', { metric: 'rps', min: '100' }],
    ['rps', 'rate >= 990', { metric: 'rps', min: '990' }],
    ['memory', '< 256MiB', { metric: 'memory', below: '256MiB' }],
    // k6's own metrics
    ['http_req_duration', 'p(95)<200', { metric: 'p95', below: '200ms' }],
    ['http_req_duration', 'avg<100', { metric: 'mean', below: '100ms' }],
    ['http_req_failed', 'rate<0.01', { metric: 'error-rate', below: '1%' }],
    ['http_reqs', 'rate>100', { metric: 'rps', min: '100' }],
    // any percentile (issue 21), in its one spelling
    ['http_req_duration', 'p(97.5)<200', { metric: 'p97.5', below: '200ms' }],
    ['http_req_duration', 'p(99.99) < 1s', { metric: 'p99.99', below: '1s' }],
    ['http_req_duration', 'p(97.50)<200', { metric: 'p97.5', below: '200ms' }],
    ['http_req_duration', 'p(99.90)<200', { metric: 'p99.9', below: '200ms' }],
    ['http_req_duration', 'p(0.1)<2', { metric: 'p0.1', below: '2ms' }],
    ['http_req_duration', 'p(75)<20', { metric: 'p75', below: '20ms' }],
    ['p97.5', 'p(97.5) < 200ms', { metric: 'p97.5', below: '200ms' }],
    ['p97.5', 'p(97.50) < 200ms', { metric: 'p97.5', below: '200ms' }],
    ['p99.99', '< 1s', { metric: 'p99.99', below: '1s' }],
  ])('%s: %j', (under, expression, rule) => {
    expect(k6Rule(under as never, expression)).toEqual(rule);
  });

  it.each<[string, string, string]>([
    ['p95', 'p(99) < 200ms', 'p(99) is not p95'],
    ['p95', 'p(97) < 200ms', 'p(97) is not p95'],
    ['p97.5', 'p(99) < 200ms', 'p(99) is not p97.5'],
    ['http_req_duration', 'p(100) < 200', 'p(100): not a percentile perf-gate gates'],
    ['http_req_duration', 'p(0) < 200', 'p(0): not a percentile perf-gate gates'],
    ['http_req_duration', 'p(99.9999) < 200', 'p(99.9999): not a percentile perf-gate gates'],
    ['http_req_duration', 'count < 200', 'count is not a metric perf-gate measures (p(N) for any percentile'],
    ['p97.5', '> 1ms', 'p97.5 gets worse upwards: give an upper bound (< or <=)'],
    ['http_req_duration', '< 200', 'http_req_duration needs an aggregation, like p(95)'],
    ['rps', '< 100', 'rps gets worse downwards: give a lower bound (> or >=)'],
    ['p99', '> 1ms', 'p99 gets worse upwards: give an upper bound (< or <=)'],
    ['p99', 'p(99) == 1ms', '"p(99) == 1ms" is not a threshold expression like "p(95) < 200ms" or "< 200ms"'],
    ['p99', 'fast', '"fast" is not a threshold expression'],
  ])('%s: %j is refused: %s', (under, expression, message) => {
    const r = k6Rule(under as never, expression);
    expect(typeof r).toBe('string');
    expect(r as string).toMatch(new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  });
});

describe('thresholdRules: limits join, the stricter one holds (review of issue 21)', () => {
  it.each<[string, Record<string, unknown>, unknown, string[]]>([
    [
      'a rule’s below and a k6 limit: both kept, below and max (the stricter applies)',
      { http_req_duration: ['p(95)<200'], p95: { regress: '10%', below: '50ms' } },
      { p95: { regress: '10%', below: '50ms', max: '200ms' } },
      [],
    ],
    [
      'two k6 limits of one percentile: both kept',
      { http_req_duration: ['p(95)<100', 'p(95)<200'] },
      { p95: { below: '100ms', max: '200ms' } },
      [],
    ],
    [
      'a third upper limit: one line',
      { p95: { below: '1ms', max: '2ms' }, http_req_duration: ['p(95)<3'] },
      { p95: { below: '1ms', max: '2ms' } },
      ['t.http_req_duration[0]: p95 has two upper limits already (below and max)'],
    ],
    [
      'two lower limits: one line',
      { rps: { min: 10 }, http_reqs: ['rate>100'] },
      { rps: { min: 10 } },
      ['t.http_reqs[0]: rps has a lower limit (min) already'],
    ],
    [
      'k6 metrics take only their own aggregation',
      { http_req_failed: ['p(95)<200'], http_reqs: ['max<300'] },
      {},
      [
        't.http_req_failed[0]: http_req_failed takes rate, like "rate<0.01"',
        't.http_reqs[0]: http_reqs takes rate, like "rate>100"',
      ],
    ],
    [
      'a bare number is a fraction for a rate only: cpu keeps its unit (and is refused later)',
      { cpu: '< 80', 'error-rate': '< 1' },
      { cpu: { below: '80' }, 'error-rate': { below: '100%' } },
      [],
    ],
    [
      'percentile keys take their one spelling: p97.50 is p97.5, p99.90 is p99.9',
      { 'p97.50': { regress: '10%' }, 'p99.90': '< 5ms' },
      { 'p97.5': { regress: '10%' }, 'p99.9': { below: '5ms' } },
      [],
    ],
    [
      'a k6 percentile joins the rules of its key, however the key is spelled',
      { 'p97.50': { regress: '10%' }, http_req_duration: ['p(97.5)<200'] },
      { 'p97.5': { regress: '10%', below: '200ms' } },
      [],
    ],
    [
      'one percentile under two spellings: one line',
      { 'p97.5': { regress: '10%' }, 'p97.50': { floor: '1ms' }, 'p99.9': '< 1s', 'p99.90': '< 2s' },
      { 'p97.5': { regress: '10%' }, 'p99.9': { below: '1s' } },
      ['t.p97.50: the same percentile as p97.5; give it once', 't.p99.90: the same percentile as p99.9; give it once'],
    ],
  ])('%s', (_label, raw, expected, problems) => {
    const found: string[] = [];
    expect(thresholdRules(raw as never, 't', found)).toEqual(expected);
    expect(found).toEqual(problems);
  });
});
