// What the comparison's tests share: a phase's result with a metric's values, and sizes in MiB.
import type { MetricName } from '../../src/metrics/registry.js';
import type { PhaseResult } from '../../src/results/types.js';
import { measure, phase } from './fixtures.js';

// ---------------------------------------------------------------------------------------------
// fixtures

/** A phase for one metric: merged value and per-trial values (default: five trials at the merged value,
 * so that 5 against 5 such trials of another value are fully separated: p = 1/252 ≤ 0.01). */
export const metricPhase = (
  metric: MetricName,
  value: number,
  trials: number[] = Array.from({ length: 5 }, () => value),
  name = 'c10',
): PhaseResult =>
  phase(
    name,
    measure(metric, value),
    trials.map((v) => measure(metric, v)),
  );

export const MiB = 1024 ** 2;
