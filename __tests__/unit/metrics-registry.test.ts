// Metrics are registered data (issue 32): one definition each in METRICS, read by the schema, the
// threshold reader, the k6 sugar, the comparison and the renderers. The `@ts-expect-error` lines are
// checked by tsc: a definition missing a part would compile without them.
import { describe, expect, it } from 'vitest';
import { direction, isLatency, metricValue, unmeasured } from '../../src/compare/metrics.js';
import { formatMetricValue } from '../../src/compare/compare.js';
import { configJsonSchema } from '../../src/config/schema.js';
import { RESOURCE_METRICS } from '../../src/config-parts/schema-parts.js';
import { k6Rule } from '../../src/config-parts/k6-thresholds.js';
import {
  cpuPerSuccess,
  isMetricName,
  type Metric,
  METRIC_NAMES,
  metricOf,
  METRICS,
  metricsOf,
} from '../../src/metrics/registry.js';
import { merged } from './fixtures.js';

/** A metric that does not say why a phase may lack it does not compile. */
const { unmeasured: _u, ...rpsWithoutUnmeasured } = METRICS.rps;
// @ts-expect-error -- unmeasured is missing
export const halfMetric: Metric = rpsWithoutUnmeasured;

/** A scope the renderers and the schema do not know does not compile. */
// @ts-expect-error -- 'connection' is no scope
export const oddScope: Metric = { ...METRICS.rps, scope: 'connection' };

describe('the metric registry', () => {
  it('the fixed metrics, in the order the CSV lists them', () => {
    expect(METRIC_NAMES).toEqual([
      'p50',
      'p90',
      'p95',
      'p99',
      'p99.9',
      'max',
      'mean',
      'rps',
      'bytes-per-sec',
      'errors',
      'error-rate',
      'memory',
      'cpu',
      'cpu-per-request',
      'fds',
      'delivery',
    ]);
  });

  it('the metrics whose change is a scaling of their trials (what a pass could have caught is said of them)', () => {
    expect(METRIC_NAMES.filter((m) => !metricOf(m).scales)).toEqual(['errors', 'error-rate', 'fds', 'delivery']);
    expect(metricOf('p97.5').scales).toBe(true);
  });

  it('each metric, pinned: unit, direction, scope, CSV unit (what the schema, comparison and CSV read)', () => {
    const rows = METRIC_NAMES.map((m) => {
      const d = metricOf(m);
      return `${m} ${d.unit} ${d.direction} ${d.scope} ${d.csvUnit}${d.configScale === 1 ? '' : ` x${d.configScale}`}`;
    });
    expect(rows).toEqual([
      'p50 latency 1 request us',
      'p90 latency 1 request us',
      'p95 latency 1 request us',
      'p99 latency 1 request us',
      'p99.9 latency 1 request us',
      'max latency 1 request us',
      'mean latency 1 request us',
      'rps rate -1 request per-second',
      'bytes-per-sec rate -1 request per-second',
      'errors count 1 request count',
      'error-rate percent 1 request ratio',
      'memory size 1 resource bytes',
      'cpu percent 1 resource percent-of-core x100',
      'cpu-per-request latency 1 resource us',
      'fds count 1 resource count',
      'delivery percent -1 phase ratio',
    ]);
    expect(metricOf('p97.5').direction).toBe(1);
    expect(isLatency('p97.5')).toBe(true);
    expect(isLatency('HTTP 503')).toBe(false);
  });

  it.each(METRIC_NAMES)('%s: in the thresholds schema, with its direction, unit and scope', (m) => {
    const text = JSON.stringify(configJsonSchema());
    expect(text).toContain(`"${m}"`);
    const def = metricOf(m);
    expect(direction(m)).toBe(def.direction);
    expect(isLatency(m)).toBe(def.unit === 'latency');
    // the k6 sugar reads the direction: an upper bound on a metric worse downwards is refused
    const upper = k6Rule(m, '< 5');
    if (def.direction < 0) expect(upper).toMatch(/gets worse downwards/);
    else expect(upper).toMatchObject({ metric: m });
  });

  it('scopes: resources are sampled from the SUT, delivery per phase, the rest per request', () => {
    expect(metricsOf('resource')).toEqual(RESOURCE_METRICS);
    expect(metricsOf('resource')).toEqual(['memory', 'cpu', 'cpu-per-request', 'fds']);
    expect(metricsOf('phase')).toEqual(['delivery']);
    expect(metricsOf('request')).toEqual(
      METRIC_NAMES.filter((m) => !['memory', 'cpu', 'cpu-per-request', 'fds', 'delivery'].includes(m)),
    );
  });

  it('any percentile is a latency metric, read from the summary or the computed ones', () => {
    expect(isMetricName('p97.5')).toBe(true);
    expect(isMetricName('p97.50')).toBe(false);
    expect(isMetricName('toString')).toBe(false);
    const m = merged({ latency: { percentiles: { 'p97.5': 1234 } } }, 3);
    expect(metricValue(m, 'p97.5')).toBe(1234);
    expect(metricValue(m, 'p99.99')).toBe(0);
    expect(unmeasured(m, 'p99.99')).toBe('no p99.99 in these results (written before p99.99 was gated)');
    expect(metricOf('p97.5')).toBe(metricOf('p97.5'));
  });

  it.each<[string, number, string]>([
    ['p99', 1500, '1.5ms'],
    ['error-rate', 0.0125, '1.25%'],
    ['delivery', 0.0005, '0.05%'],
    ['cpu', 150, '150.0%'],
    ['memory', 64 * 1024 * 1024, '64MiB'],
    ['rps', 123.4, '123'],
    ['errors', 3, '3'],
    ['HTTP 503', 2.5, '2.5'],
  ])('%s %d reads %s', (metric, v, text) => {
    expect(formatMetricValue(metric, v)).toBe(text);
  });
});

describe("cpu-per-request: the SUT's CPU µs per successful response", () => {
  const u = (cpuMeanPct: number) => ({
    cpuMeanPct,
    cpuPeakPct: cpuMeanPct,
    memoryPeakBytes: 0,
    rxBytes: 0,
    txBytes: 0,
    samples: 5,
  });
  // [label, services' mean CPU %, rps, responses, failures, µs]
  it.each<[string, number[], number, number, number, number]>([
    ['0.8 cores at 1000 successes a second', [50, 30], 1000, 5000, 0, 800],
    ['half the responses failed: twice the CPU per success', [50, 30], 1000, 5000, 2500, 1600],
    ['one core at 250 a second', [100], 250, 1000, 0, 4000],
    ['nothing succeeded: 0 (unmeasured says why)', [50], 1000, 100, 100, 0],
    ['no responses', [50], 0, 0, 0, 0],
  ])('%s', (_label, cpus, rps, responses, failures, want) => {
    expect(cpuPerSuccess(cpus.map(u), { rps, responses, failures })).toBeCloseTo(want, 9);
  });

  it("the runner container is not the SUT's; a phase without successes or samples is unmeasured", () => {
    const m = merged({ latency: { p50: 1000 } }, 5);
    const phase = {
      ...m,
      rps: 1000,
      responses: 5000,
      failures: 0,
      resources: { api: u(50), 'perf-gate-runner': u(90) },
    };
    expect(metricValue(phase, 'cpu-per-request')).toBeCloseTo(500, 9);
    expect(unmeasured({ ...phase, resources: { api: { ...u(50), samples: 0 } } }, 'cpu-per-request')).toMatch(
      /no resource samples/,
    );
    expect(unmeasured({ ...phase, latency: { ...phase.latency, count: 0 } }, 'cpu-per-request')).toBe(
      'no successful responses to divide the CPU time by',
    );
  });
});
