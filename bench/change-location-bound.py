# How exactly can any method place a small level shift? A +8% step at run 20 of 40 in Gaussian noise
# of CV 5% (bench/change-points.mjs's step cell: 1.6 standard deviations), simulated with numpy:
#   oracle  told both levels, it places the step where the sum of (x - midpoint) after it is largest
#   lsq     least squares, both levels unknown (src/stats/change-points.ts meanSplit), 3 runs a side
#   range   lsq's 95% residual bootstrap range (shiftLocation: 199 resamples, 2.5th to 97.5th
#           percentile of the resampled splits, widened to hold the split): how often it holds run 20
# and, for contrast, a +30% step (6 standard deviations). Seeded; prints every figure it claims.
# Usage: python3 bench/change-location-bound.py [simulations, default 2000]
import sys

import numpy as np

N, K, MIN_SIZE, RESAMPLES = 40, 20, 3, 199
SIMS = int(sys.argv[1]) if len(sys.argv) > 1 else 2000


def lsq(x):
    n = len(x)
    cum = np.concatenate([[0.0], np.cumsum(x)])
    t = np.arange(MIN_SIZE, n - MIN_SIZE + 1)
    d = cum[t] / t - (cum[n] - cum[t]) / (n - t)
    return int(t[np.argmax(t * (n - t) / n * d * d)])


def run(d, rng):
    oracle = exact = held = 0
    widths = []
    for _ in range(SIMS):
        x = rng.standard_normal(N)
        x[K:] += d
        tail = np.cumsum((x - d / 2)[::-1])[::-1]
        oracle += int(np.argmax(tail)) == K
        t = lsq(x)
        exact += t == K
        fitted = np.where(np.arange(N) < t, x[:t].mean(), x[t:].mean())
        residuals = x - fitted
        splits = sorted(lsq(fitted + rng.choice(residuals, N)) for _ in range(RESAMPLES))
        lo = min(splits[int(0.025 * RESAMPLES)], t)
        hi = max(splits[int(np.ceil(0.975 * RESAMPLES)) - 1], t)
        held += lo <= K <= hi
        widths.append(hi - lo + 1)
    return oracle, exact, held, widths


print(f"numpy {np.__version__}; {SIMS} simulations a cell, {N} runs, the step at run {K}, seed 51")
rng = np.random.default_rng(51)
for label, d in (("+8% in CV 5% (1.6 sd)", 1.6), ("+30% in CV 5% (6 sd)", 6.0)):
    oracle, exact, held, widths = run(d, rng)
    w = np.percentile(widths, [10, 50, 90])
    print(
        f"{label}: at run {K}: oracle {oracle / SIMS:.1%}, least squares {exact / SIMS:.1%}; "
        f"95% range held run {K} in {held / SIMS:.1%}, {w[1]:.0f} runs wide at the median (10th-90th: {w[0]:.0f}-{w[2]:.0f})"
    )
