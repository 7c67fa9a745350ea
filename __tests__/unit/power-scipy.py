# Independent check of compare/power.ts (the expected figures in power.test.ts); run: python3 __tests__/unit/power-scipy.py: the smallest change d (grid 0.0001) for which scipy's exact
# one-sided test on this run's trials scaled by d gives p <= the look's alpha.
import numpy as np
from scipy.stats import mannwhitneyu, wilcoxon
from math import comb

def cyc(v, k): return [v[i % len(v)] for i in range(k)]

def spend(alpha, first, cap, smallest_first):
    if cap <= first: return alpha, 0
    if smallest_first <= alpha/2: return alpha/2, alpha/2
    return 0, alpha

def gate_d(cur, old, first, cap, alpha, direction=1):
    sf = 1/comb(first+len(old), first)
    a1, a2 = spend(alpha, first, cap, sf)
    best = None
    looks = [(first, a1)] + ([(cap, a2)] if cap > first else [])
    for k, a in looks:
        if a <= 0: continue
        vals = cyc(cur, k) if k > len(cur) else cur[:k]
        for i in range(1, 200001):
            d = i / 10000
            x = [direction * v * (1 + direction * d) for v in vals]
            y = [direction * v for v in old]
            p = mannwhitneyu(x, y, alternative='greater', method='exact').pvalue
            if p <= a:
                best = d if best is None else min(best, d); break
    return best

def ab_d(head, base, first, cap, alpha, direction=1):
    a1, a2 = spend(alpha, first, cap, 2.0**-first)
    best = None
    pairs = list(zip(head, base))
    looks = [(first, a1)] + ([(cap, a2)] if cap > first else [])
    for k, a in looks:
        if a <= 0: continue
        ps = cyc(pairs, k)
        for i in range(1, 200001):
            d = i / 10000
            diffs = [direction * (h * (1 + direction * d) - b) for h, b in ps]
            p = wilcoxon(diffs, alternative='greater', method='exact').pvalue
            if p <= a:
                best = d if best is None else min(best, d); break
    return best

cases = {
 'gate 5 v 5 interleaved, cap 12': gate_d([1000,1020,1040,1010,1030], [1010,1000,1040,1030,1020], 5, 12, 0.01),
 'gate 5 v 5 spread wide, cap 12': gate_d([900,1100,1000,1300,800], [1000,950,1200,1050,900], 5, 12, 0.01),
 'gate 3 v 3, cap 12': gate_d([1000,1100,1050], [1040,990,1080], 3, 12, 0.01),
 'gate 3 v 3, confirmation off': gate_d([1000,1100,1050], [1040,990,1080], 3, 3, 0.01),
 'gate rps 5 v 5': gate_d([1000,990,1010,1005,995], [1002,998,1008,992,1000], 5, 12, 0.01, -1),
 'A/B 6 pairs, cap 12': ab_d([1000,1030,990,1020,1010,1000], [1010,1000,1000,1030,990,1020], 6, 12, 0.05),
 'A/B 6 pairs, confirmation off': ab_d([1000,1030,990,1020,1010,1000], [1010,1000,1000,1030,990,1020], 6, 6, 0.05),
 'A/B rps 6 pairs, cap 12': ab_d([1000,990,1010,1005,995,1001], [1002,998,1008,992,1000,1003], 6, 12, 0.05, -1),
}
for k, v in cases.items(): print(k, v)
