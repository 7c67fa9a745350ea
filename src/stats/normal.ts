// Pure: the standard normal distribution's upper tail, for the approximations the power search starts
// from (compare/power.ts). Never a verdict's p: the tests perf-gate decides on are exact.

/** erfc(x) = t·exp(−x² + Σ c_i tⁱ), t = 1 / (1 + x/2): Numerical Recipes' erfcc (relative error < 1.2e-7). */
const ERFC = [
  -1.26551223, 1.00002368, 0.37409196, 0.09678418, -0.18628806, 0.27886807, -1.13520398, 1.48851587, -0.82215223,
  0.17087277,
];

/** P(Z ≥ z) for a standard normal Z. */
export function normalUpper(z: number): number {
  if (Number.isNaN(z)) return Number.NaN;
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.5 * x);
  let poly = 0;
  for (let i = ERFC.length - 1; i >= 0; i--) poly = poly * t + (ERFC[i] as number);
  const erfc = t * Math.exp(-x * x + poly);
  return z >= 0 ? erfc / 2 : 1 - erfc / 2;
}
