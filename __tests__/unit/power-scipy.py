# Independent check of compare/power.ts (the expected figures in power.test.ts); run:
#   python3 __tests__/unit/power-scipy.py
# The smallest change d for which the row's one-sided test, on this run's trials made worse by d (and,
# for the cap's look, repeated in order up to the cap), gives p <= the alpha that look spends. Two
# references: scipy's exact tests scanned on a grid of 0.01 points (scipy's exact method does not
# condition on ties, and the cap's look repeats trials, so it has ties), and an exact permutation count
# that conditions on ties (midranks), found by bisection. power.test.ts expects the permutation figure.
from itertools import combinations, product
from math import comb

from scipy.stats import mannwhitneyu, wilcoxon


def cyc(v, k):
    return [v[i % len(v)] for i in range(k)]


def spend(alpha, first, cap, smallest_first):
    if cap <= first:
        return alpha, 0
    if smallest_first <= alpha / 2:
        return alpha / 2, alpha / 2
    return 0, alpha


def midranks(values):
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def mw_perm(x, y):
    """P(rank sum of x >= observed) over every choice of len(x) of the pooled values, ties by midranks."""
    pooled = list(x) + list(y)
    r = midranks(pooled)
    observed = sum(r[: len(x)])
    hits = total = 0
    for c in combinations(range(len(pooled)), len(x)):
        total += 1
        if sum(r[i] for i in c) >= observed - 1e-9:
            hits += 1
    return hits / total


def sr_perm(d):
    """P(W+ >= observed) over every sign flip of the nonzero differences, ties by average ranks."""
    d = [v for v in d if v != 0]
    r = midranks([abs(v) for v in d])
    observed = sum(ri for ri, v in zip(r, d) if v > 0)
    hits = total = 0
    for signs in product((0, 1), repeat=len(d)):
        total += 1
        if sum(ri for ri, s in zip(r, signs) if s) >= observed - 1e-9:
            hits += 1
    return hits / total


def looks(alpha, first, cap, smallest_first):
    a1, a2 = spend(alpha, first, cap, smallest_first)
    return [(first, a1)] + ([(cap, a2)] if cap > first else [])


def bisect(p_of, alpha, hi):
    if p_of(hi) > alpha:
        return None
    lo = 0.0
    while hi - lo > 1e-5:
        mid = (lo + hi) / 2
        if p_of(mid) <= alpha:
            hi = mid
        else:
            lo = mid
    return hi


def best(found):
    found = [f for f in found if f is not None]
    return min(found) if found else None


def gate_d(cur, old, first, cap, alpha, direction=1):
    hi = 100 if direction > 0 else 0.999
    y = [direction * v for v in old]
    scan, perm = [], []
    for k, a in looks(alpha, first, cap, 1 / comb(first + len(old), first)):
        if a <= 0:
            continue
        vals = cyc(cur, k) if k > len(cur) else cur[:k]
        x = lambda d: [direction * v * (1 + direction * d) for v in vals]
        perm.append(bisect(lambda d: mw_perm(x(d), y), a, hi))
        for i in range(1, 20001):
            d = i / 10000
            if mannwhitneyu(x(d), y, alternative='greater', method='exact').pvalue <= a:
                scan.append(d)
                break
    return best(scan), best(perm)


def ab_d(head, base, first, cap, alpha, direction=1):
    hi = 100 if direction > 0 else 0.999
    scan, perm = [], []
    for k, a in looks(alpha, first, cap, 2.0 ** -first):
        if a <= 0:
            continue
        ps = cyc(list(zip(head, base)), k)
        diffs = lambda d: [direction * (h * (1 + direction * d) - b) for h, b in ps]
        perm.append(bisect(lambda d: sr_perm(diffs(d)), a, hi))
        for i in range(1, 20001):
            d = i / 10000
            if wilcoxon(diffs(d), alternative='greater', method='exact').pvalue <= a:
                scan.append(d)
                break
    return best(scan), best(perm)


cases = {
    'gate 5 v 5 interleaved, cap 12': gate_d([1000, 1020, 1040, 1010, 1030], [1010, 1000, 1040, 1030, 1020], 5, 12, 0.01),
    'gate 5 v 5 spread wide, cap 12': gate_d([900, 1100, 1000, 1300, 800], [1000, 950, 1200, 1050, 900], 5, 12, 0.01),
    'gate 3 v 3, cap 12': gate_d([1000, 1100, 1050], [1040, 990, 1080], 3, 12, 0.01),
    'gate 3 v 3, confirmation off': gate_d([1000, 1100, 1050], [1040, 990, 1080], 3, 3, 0.01),
    'gate rps 5 v 5': gate_d([1000, 990, 1010, 1005, 995], [1002, 998, 1008, 992, 1000], 5, 12, 0.01, -1),
    'A/B 6 pairs, cap 12': ab_d([1000, 1030, 990, 1020, 1010, 1000], [1010, 1000, 1000, 1030, 990, 1020], 6, 12, 0.05),
    'A/B 6 pairs, confirmation off': ab_d([1000, 1030, 990, 1020, 1010, 1000], [1010, 1000, 1000, 1030, 990, 1020], 6, 6, 0.05),
    'A/B rps 6 pairs, cap 12': ab_d([1000, 990, 1010, 1005, 995, 1001], [1002, 998, 1008, 992, 1000, 1003], 6, 12, 0.05, -1),
}
for name, (scan, perm) in cases.items():
    fmt = lambda v: 'none' if v is None else f'{v:.4f}'
    print(f'{name}: scipy scan {fmt(scan)}, exact permutation {fmt(perm)}')
