// Pure: the saturation knee of a sweep — the first level after which throughput grows by less than
// 10% while p99 keeps growing.
export interface SweepPoint {
  level: number;
  rps: number;
  p99: number;
}

export const KNEE_GROWTH = 0.1;

/** Index of the knee level in `points` (sorted by level), or undefined when the curve never bends. */
export function findKnee(points: readonly SweepPoint[]): number | undefined {
  for (let i = 0; i + 1 < points.length; i++) {
    const a = points[i] as SweepPoint;
    const b = points[i + 1] as SweepPoint;
    const growth = a.rps > 0 ? (b.rps - a.rps) / a.rps : b.rps > 0 ? Number.POSITIVE_INFINITY : 0;
    if (growth < KNEE_GROWTH && b.p99 > a.p99) return i;
  }
  return undefined;
}
