// Pure: the one report renderer — PR comment, job summary and terminal all use it (SPEC §6).
// Regressions first; details collapsed; a Mermaid chart of latency percentiles; never over GitHub's
// 65,536-character limit (details are dropped before the verdict or the regressions).
import { namedAndCounted } from '../common/named-and-counted.js';
import { markdownTable } from 'markdown-table';
import { formatMetricValue, overallVerdict, sortForReport } from '../compare/compare.js';
import { busyTrials, quietPairs } from '../compare/busy.js';
import { failingPhases, phaseKey } from '../compare/cost.js';
import { signedChange } from '../compare/power.js';
import { isMetricName, metricOf } from '../metrics/registry.js';
import type {
  Comparison,
  ModeTraits,
  ResultsFile,
  ScenarioResult,
  ScenarioStatus,
  ServiceCost,
  Verdict,
} from '../results/types.js';
import { failureKinds } from '../runner-kit/measurement.js';
import { percentileCell, percentilesIn } from '../compare/metrics.js';
import { formatBytes, formatLatency, formatMs, formatUs } from '../common/units.js';
import { DEFAULT_BUSY_OTHERS_PCT } from '../config-parts/types.js';
import { BUSY_STEAL_PCT, busyMachine } from '../stats/machine.js';
import { escapeCodeBlock, escapeMarkdown as esc, mermaidText } from './escape.js';
import { latencyBuckets, renderBuckets } from './distribution.js';
import { renderSweep } from './sweep.js';
import { RESOURCE_COLUMNS } from './columns.js';
import { yAxis } from './mermaid.js';
import { profileLines } from './profile-lines.js';
import { capped } from './capped.js';
import { type Sides, sidesOf } from './sides.js';

export const COMMENT_LIMIT = 65_536;
/** headroom for the marker and GitHub's own accounting */
export const REPORT_BUDGET = 60_000;

/** What every report's marker starts with: a comment holding it is perf-gate's own. */
export const REPORT_MARKER_START = '<!-- perf-gate-report ';

export function reportMarker(reportId: string): string {
  return `${REPORT_MARKER_START}id=${reportId.replace(/[^A-Za-z0-9_.-]/g, '_') || 'default'} -->`;
}

/** Each result as a row says it (the Markdown report and the HTML page). */
export const RESULT_LABEL: Record<Verdict, string> = {
  regression: '❌ regression',
  inconclusive: '❔ inconclusive',
  invalid: '⚠️ invalid',
  improvement: '🟢 improvement',
  'no-baseline': '➖ no baseline',
  pass: '✅ pass',
  accepted: '☑️ accepted',
};

/** A change as a percentage, or as a factor once it is ×5 or more (×24.6 reads, +2362% does not). */
function percent(fraction: number): string {
  if (fraction >= 4) {
    const factor = 1 + fraction;
    return `×${factor < 100 ? factor.toFixed(1) : Math.round(factor)}`;
  }
  const pct = fraction * 100;
  return `${pct >= 0 ? '+' : ''}${pct.toFixed(Math.abs(pct) < 10 ? 1 : 0)}%`;
}

function delta(c: Comparison): string {
  if (c.delta === null) {
    // not judged (an update, an invalid row): the change is still shown when both values are there
    if (c.baseline === null) return '';
    if (c.current === c.baseline) return '0%';
    return c.baseline === 0 ? 'new' : percent(c.current / c.baseline - 1);
  }
  const interval = c.interval ? ` [${percent(c.interval[0])}, ${percent(c.interval[1])}]` : '';
  return `${percent(c.delta)}${interval}`;
}

function headline(results: ResultsFile, mode: ModeTraits, sides: Sides): string {
  const verdict = overallVerdict(results.comparisons);
  const count = (v: Verdict) => results.comparisons.filter((c) => c.result === v).length;
  const regressions = count('regression');
  const inconclusive = count('inconclusive');
  const warnings = count('invalid');
  const blind = results.comparisons.filter((c) => c.blind).length;
  const tail = [
    count('accepted') ? `${count('accepted')} accepted on purpose` : '',
    warnings ? `${warnings} warning${warnings === 1 ? '' : 's'}` : '',
    count('improvement') ? `${count('improvement')} improved` : '',
    blind ? `${blind} could not detect ${blind === 1 ? 'its' : 'their'} band` : '',
  ]
    .filter(Boolean)
    .join(', ');
  const suffix = tail ? ` (${tail})` : '';
  if (mode.records) {
    const refused = (results.failing ?? []).filter((f) => !f.accepted).length;
    if (refused > 0) {
      return `### ⛔ perf-gate: no baseline recorded — ${refused} row${refused === 1 ? '' : 's'} failed on nearly every request`;
    }
    const n = results.scenarios.length;
    const beyond = regressions
      ? `; ${regressions} row${regressions === 1 ? '' : 's'} beyond the band of the previous baselines (for information: the refresh fails on them only with fail-on-shift)`
      : '';
    return `### 🔄 perf-gate: baselines written for ${n} scenario${n === 1 ? '' : 's'}${beyond}`;
  }
  if (verdict === 'regression') {
    return `### ❌ perf-gate: ${regressions} regression${regressions === 1 ? '' : 's'} in ${scenariosOf(results.comparisons, 'regression')}${suffix}`;
  }
  // never ✅: a row outside its band that its trials could not confirm either way
  if (verdict === 'inconclusive') {
    return `### ❔ perf-gate: inconclusive — ${inconclusive} row${inconclusive === 1 ? '' : 's'} outside the band but not confirmed by the most trials allowed${suffix}`;
  }
  if (verdict === 'no-baseline') return '### ➖ perf-gate: no baseline yet — nothing to compare';
  // relative rows it only showed (gate.bands: inform) are not "no regression": say what was judged
  const info = results.comparisons.filter((c) => c.informational).length;
  if (info > 0) {
    return `### ✅ perf-gate: no absolute limit broken${sides.against}, no new error class — ${info} relative row${info === 1 ? '' : 's'} shown as information, not judged (gate.bands: inform)${suffix}`;
  }
  return `### ✅ perf-gate: no regression${sides.against}${suffix}`;
}

/** The scenarios with rows of `result`, in report order: at most three named, the rest counted. */
function scenariosOf(comparisons: Comparison[], result: Verdict): string {
  const names = [...new Set(sortForReport(comparisons.filter((c) => c.result === result)).map((c) => c.scenario))];
  return namedAndCounted(
    names.map((n) => esc(n)),
    3,
  );
}

function regressionBullets(comparisons: Comparison[], gated: boolean): string[] {
  // regressions, then (in a run that gates) what stayed inconclusive: the rows a reviewer must see
  // without opening the table
  const all = [
    ...comparisons.filter((c) => c.result === 'regression'),
    ...(gated ? comparisons.filter((c) => c.result === 'inconclusive') : []),
  ];
  const more = all.length > 10 ? [`- … and ${all.length - 10} more in the table below`] : [];
  return all
    .slice(0, 10)
    .map((c) => {
      const inconclusive = c.result === 'inconclusive';
      const what = `${inconclusive ? '❔ ' : ''}**${esc(c.scenario)}/${esc(c.phase)}** ${esc(c.metric)}`;
      if (c.reason && !inconclusive) return `- ${what}: ${esc(c.reason)}`;
      const from = c.baseline === null ? '' : `${formatMetricValue(c.metric, c.baseline)} → `;
      const values = `${from}${formatMetricValue(c.metric, c.current)}`;
      if (c.reason) return `- ${what}: ${values} (${delta(c)}): ${esc(c.reason)}`;
      return `- ${what}: ${values} (${delta(c)}, band ${esc(c.band)}${c.pValue !== undefined ? `, p=${c.pValue}` : ''}${confirmedBy(c)})`;
    })
    .concat(more);
}

/** ", confirmed by 7 more trials" for a regression that needed confirmation */
function confirmedBy(c: Comparison): string {
  if (!c.extraTrials) return '';
  return `, confirmed by ${c.extraTrials} more ${c.pairs !== undefined ? 'pairs' : 'trials'}`;
}

function comparisonTable(comparisons: Comparison[]): string[][] {
  return sortForReport(comparisons).map((c) => [
    esc(c.scenario),
    esc(c.phase),
    esc(c.metric),
    c.baseline === null ? '—' : formatMetricValue(c.metric, c.baseline),
    formatMetricValue(c.metric, c.current),
    delta(c) || '—',
    esc(c.band),
    c.informational
      ? 'ℹ️ information'
      : `${RESULT_LABEL[c.result]}${c.pValue !== undefined ? ` (p=${c.pValue}${confirmedBy(c)})` : ''}${couldCatch(c)}${acceptedBy(c)}${c.reason && c.result !== 'regression' && c.result !== 'accepted' ? `: ${esc(c.reason)}` : ''}`,
  ]);
}

/** " by alice (was a regression: above the limit 5ms): the new index costs 2 ms" on an accepted row
 * (an acceptance on a row of any other result is not one: a file's own word, not shown) */
function acceptedBy(c: Comparison): string {
  if (c.result !== 'accepted' || !c.accepted) return '';
  const was = `${c.accepted.was === 'regression' ? 'a regression' : 'inconclusive'}${c.reason ? `: ${esc(c.reason)}` : ''}`;
  return ` by ${esc(c.accepted.by)} (was ${was}): ${esc(c.accepted.reason)}`;
}

/** " · could catch +8%" on a pass row that could have detected its band (a blind one says why instead) */
function couldCatch(c: Comparison): string {
  if (c.result !== 'pass' || c.blind || c.detectable === undefined || c.detectable === null) return '';
  return ` · could catch ${signedChange(c.detectable, isMetricName(c.metric) ? metricOf(c.metric).direction : 1)}`;
}

/** More comparison rows than this: the passing ones are folded under the table. */
export const FOLD_PASSING_OVER = 20;

/** An update's rows that failed on nearly every request: refused (nothing recorded) or accepted. */
function failingLines(results: ResultsFile): string[] {
  return (results.failing ?? []).map((f) =>
    f.accepted
      ? `> ⚠️ Recorded although it failed on nearly every request (\`accept-failing: true\`): ${esc(f.line)}`
      : `> ⛔ ${esc(f.line)}. Fix the request or its checks, or set \`accept-failing: true\` on the scenario to record it anyway.`,
  );
}

/** " with 12% of its requests failing" of a scenario's phases, where any failed (a first baseline says so). */
function errorsOf(results: ResultsFile, scenario: string): string {
  const phases =
    results.scenarios.find((s) => s.name === scenario)?.phases.filter((p) => p.request === undefined) ?? [];
  const worst = Math.max(0, ...phases.map((p) => p.merged.errorRate));
  if (worst === 0) return '';
  return ` — with errors: up to ${worst < 0.001 ? '<0.1' : (worst * 100).toFixed(worst < 0.1 ? 1 : 0)}% of a phase's requests failed`;
}

function statusLines(statuses: ScenarioStatus[], results: ResultsFile, records: boolean): string[] {
  const now = results.startedAt;
  const definition = statuses
    .filter((s) => s.baseline !== 'present')
    .map((s) =>
      records
        ? s.baseline === 'stale'
          ? `> 🔄 **${esc(s.scenario)}**: the scenario definition changed; its baseline was replaced${errorsOf(results, s.scenario)}.`
          : `> ➕ **${esc(s.scenario)}**: first baseline written${errorsOf(results, s.scenario)}.`
        : s.baseline === 'stale'
          ? `> ⚠️ The baseline of **${esc(s.scenario)}** was taken with a different scenario definition (stale, ${age(s.baselineTime, now)}): record it again where the gate runs (the scheduled refresh, \`mode: update\`, and merge its pull request).`
          : `> ➖ **${esc(s.scenario)}** has no baseline yet: record it where the gate runs (the scheduled refresh, \`mode: update\`, and merge its pull request; a local \`--mode update\` is for trying, not for committing), or gate against the base commit (\`gate.against: base-ref\`), which needs none.`,
    );
  const machine = statuses
    .filter((s) => s.machine)
    .map(
      (s) =>
        `> ⚠️ The baseline of **${esc(s.scenario)}** was recorded on another machine (${esc(s.machine as string)}): part of any change may be the machine's. \`mode: ab\` measures base and head side by side instead.`,
    );
  return [...definition, ...machine];
}

function age(time: string | undefined, now: string): string {
  if (!time) return 'age unknown';
  const ms = Date.parse(now) - Date.parse(time);
  if (!Number.isFinite(ms)) return 'age unknown';
  const days = Math.floor(ms / 86_400_000);
  if (days >= 1) return `${days} day${days === 1 ? '' : 's'} old`;
  const hours = Math.floor(ms / 3_600_000);
  return hours >= 1 ? `${hours} h old` : 'less than an hour old';
}

function chart(results: ResultsFile, sides: Sides): string {
  const blocks: string[] = [];
  for (const s of results.scenarios) {
    for (const p of s.phases.filter((q) => q.request === undefined).slice(0, 6)) {
      const base = s.baselineLatency?.[p.name];
      const keys = ['p50', 'p90', 'p99', 'p99.9'] as const;
      const ms = (v: number) => Math.round(v / 10) / 100;
      const lines = [
        '```mermaid',
        'xychart-beta',
        `  title "${mermaidText(`${s.name}/${p.name}`)} latency, ms${base ? sides.legend : ''}"`,
        `  x-axis [${keys.map((k) => `"${k}"`).join(', ')}]`,
        yAxis('ms', [...(base ? keys.map((k) => ms(base[k])) : []), ...keys.map((k) => ms(p.merged.latency[k]))]),
      ];
      if (base) lines.push(`  bar [${keys.map((k) => ms(base[k])).join(', ')}]`);
      lines.push(`  line [${keys.map((k) => ms(p.merged.latency[k])).join(', ')}]`, '```');
      blocks.push(lines.join('\n'));
    }
  }
  return blocks.join('\n\n');
}

function details(summary: string, body: string): string {
  return `<details><summary>${summary}</summary>\n\n${body}\n\n</details>`;
}

function errorsTable(sides: Sides): string {
  const rows: string[][] = [];
  // A/B: each side's phases, its flags named by side
  for (const { name: side, scenarios } of sides.measured) {
    for (const s of scenarios) {
      for (const p of s.phases) {
        const codes = Object.entries(p.merged.statusCodes)
          .map(([c, n]) => `${esc(c)}: ${n}`)
          .join(', ');
        const errors = Object.entries(failureKinds(p.merged))
          .map(([k, n]) => `${esc(k)}: ${n}`)
          .join(', ');
        rows.push([
          esc(s.name),
          esc(p.name),
          ...(side ? [side] : []),
          String(p.merged.responses),
          codes || '—',
          errors || '—',
          p.flags.map(esc).join('; ') || '—',
        ]);
      }
    }
  }
  const header = [
    'scenario',
    'phase',
    ...(sides.current ? ['side'] : []),
    'responses',
    'status codes',
    'errors by kind',
  ];
  return markdownTable([[...header, 'flags'], ...rows]);
}

function resourcesTable(results: ResultsFile): string {
  const rows: string[][] = [];
  for (const s of results.scenarios) {
    for (const p of s.phases) {
      for (const [svc, u] of Object.entries(p.merged.resources)) {
        rows.push([esc(s.name), esc(p.name), esc(svc), ...RESOURCE_COLUMNS.map((c) => c.cell(u))]);
      }
    }
  }
  return rows.length
    ? markdownTable([['scenario', 'phase', 'container', ...RESOURCE_COLUMNS.map((c) => c.header)], ...rows])
    : 'No resource samples.';
}

function latencyTable(results: ResultsFile): string {
  // the percentiles the thresholds gated beyond the fixed columns (p97.5, p99.99): a column each
  const extra = percentilesIn(results.scenarios.flatMap((s) => s.phases.map((p) => p.merged.latency)));
  const rows = results.scenarios.flatMap((s) =>
    s.phases.map((p) => [
      esc(s.name),
      esc(p.name),
      String(p.trials.length),
      p.merged.rps.toFixed(0),
      ...(['p50', 'p90', 'p99', 'p99.9', 'max'] as const).map((k) => formatLatency(p.merged.latency, k)),
      ...extra.map((k) => percentileCell(p.merged.latency, k)),
    ]),
  );
  return markdownTable([
    ['scenario', 'phase', 'trials', 'rps', 'p50', 'p90', 'p99', 'p99.9', 'max', ...extra],
    ...rows,
  ]);
}

function environment(results: ResultsFile, mode: ModeTraits, sides: Sides, statuses: ScenarioStatus[]): string {
  const p = results.provenance;
  const lines = [
    `- runner: ${esc(p.runner.os)}, ${esc(p.runner.cpuModel)}, ${p.runner.cores} cores, ${formatBytes(p.runner.memoryBytes)}; Docker ${esc(p.docker.version ?? '?')}; runner image \`${p.runnerImage.replace(/[`\r\n]/g, '')}\``,
    `- commit ${esc(p.commit ?? 'unknown')} (${esc(p.ref ?? 'no ref')}), run ${esc(results.runId)}, mode ${esc(results.mode)}`,
    ...Object.entries(p.sut.images).map(
      ([svc, i]) =>
        `- SUT ${sides.current ? `(${sides.current}) ` : ''}${esc(svc)}: ${esc(i.image)} ${esc(i.digest ?? i.id)}`,
    ),
    ...falseAlarmLines(results, mode),
    ...earlyLookLines(results, sides),
    ...laterWarmupLines(results),
    ...machineLines(results, sides),
    ...generatorLines(results, sides),
    ...(results.interleaved
      ? [
          `- trials: every phase's interleaved in a random order, seed ${results.interleaved.seed} (\`perf-gate run --seed ${results.interleaved.seed}\` draws it again)`,
        ]
      : []),
    ...sides.referenceLines,
    ...statuses.map(
      (s) =>
        `- baseline of ${esc(s.scenario)}: ${s.baseline}${s.baselineTime ? `, taken ${esc(s.baselineTime)} (${age(s.baselineTime, results.startedAt)})` : ''}${s.baselineCommit ? ` at ${esc(s.baselineCommit.slice(0, 12))}` : ''}`,
    ),
  ];
  return lines.join('\n');
}

/** What the load generator took from the machine per response, by phase (the head's side in A/B). */
function generatorLines(results: ResultsFile, sides: Sides): string[] {
  const phases = results.scenarios.flatMap((s) =>
    s.phases.flatMap((p) =>
      p.request === undefined && p.generatorCpuUs !== undefined
        ? [`${esc(s.name)}/${esc(p.name)} ${formatUs(p.generatorCpuUs)}`]
        : [],
    ),
  );
  if (phases.length === 0) return [];
  return [
    `- load generator's CPU per response (the runner's, taken from the machine it runs on${sides.current ? `; ${sides.current}` : ''}): ${namedAndCounted(phases, 10)}`,
  ];
}

/** Which phases stopped at their early look (gate.early-look), when any did. */
function earlyLookLines(results: ResultsFile, sides: Sides): string[] {
  const phases = results.scenarios.flatMap((s) =>
    s.phases.filter((p) => p.request === undefined).map((p) => ({ where: `${s.name}/${p.name}`, looks: p.confirm })),
  );
  const stopped = phases.filter((p) => p.looks?.stopped !== undefined);
  if (stopped.length === 0) return [];
  const unit = sides.unit;
  const shown = namedAndCounted(
    stopped.map((p) => `${esc(p.where)} (${p.looks?.stopped} of ${p.looks?.first})`),
    10,
  );
  return [
    `- early look (gate.early-look): ${stopped.length} of ${phases.length} phase${phases.length === 1 ? '' : 's'} stopped before their configured ${unit}, every row's change inside its band at 95% confidence: ${shown}; their power is stated for their ${unit} repeated up to the configured count`,
  ];
}

/** The warm-up later trials were given (warmup-later: settled), when any phase measured it. */
function laterWarmupLines(results: ResultsFile): string[] {
  const phases = results.scenarios.flatMap((s) =>
    s.phases.flatMap((p) => (p.warmupLater ? [{ where: `${s.name}/${p.name}`, p, found: p.warmupLater }] : [])),
  );
  if (phases.length === 0) return [];
  const shown = phases.map(({ where, p, found }) =>
    found.laterMs !== undefined
      ? `${esc(where)} ${formatMs(found.laterMs)} (settled after ${formatMs(found.settledMs ?? 0)} of ${formatMs(p.warmupMs)})`
      : `${esc(where)} the full ${formatMs(p.warmupMs)} (${found.settledMs === undefined ? 'did not settle' : `settled after ${formatMs(found.settledMs)}: no shorter warm-up`})`,
  );
  return [`- warm-up of later trials (warmup-later: settled, from the first trial's): ${namedAndCounted(shown, 10)}`];
}

/** What the machine did during the trials (where it was read): other processes' CPU and steal; with
 * gate.busy, the trials it repeated and the busy ones still judged. */
function machineLines(results: ResultsFile, sides: Sides): string[] {
  const threshold = results.busy?.othersPct ?? DEFAULT_BUSY_OTHERS_PCT;
  const read = sides.measured.flatMap(({ name, scenarios }) =>
    scenarios.flatMap((s) =>
      s.phases.flatMap((p) =>
        [
          ...p.trials.map((t) => ({ t, aside: '' })),
          ...(p.discarded ?? []).map((t) => ({ t, aside: ', put aside' })),
        ].flatMap(({ t, aside }) =>
          t.machine
            ? [{ where: `${name ? `${name} ` : ''}${s.name}/${p.name} trial ${t.trial}${aside}`, m: t.machine }]
            : [],
        ),
      ),
    ),
  );
  if (read.length === 0) {
    // said, not left out, where something was judged: without readings a slower machine cannot be
    // told from a slower service
    return results.comparisons.length > 0
      ? [
          `- machine during trials: not read (the Docker engine runs elsewhere, or this system has no /proc/stat): a trial taken while other processes used the machine cannot be told apart${results.busy ? ', so gate.busy repeats none' : ''}`,
        ]
      : [];
  }
  const others = read.map((r) => r.m.othersPct).sort((a, b) => a - b);
  const worst = read.reduce((a, b) => (b.m.othersPct > a.m.othersPct ? b : a));
  const steal = read.reduce((a, r) => Math.max(a, r.m.stealPct), 0);
  const stealOnly = results.busy?.stealOnly === true;
  const busy = read.filter((r) => busyMachine(r.m, threshold, stealOnly)).length;
  const lines = [
    `- machine during trials (other processes than the containers and perf-gate, in % of one core): median ${others[Math.floor(others.length / 2)]}%, at most ${worst.m.othersPct}% (${esc(worst.where)}); ${busy} of ${read.length} trial${read.length === 1 ? '' : 's'} ${stealOnly ? `at ${Math.min(BUSY_STEAL_PCT, threshold)}% steal or more (a target's service runs beside perf-gate and reads as another process, so only steal is judged)` : `at ${threshold}% or more with steal`}; steal at most ${steal}%`,
  ];
  if (!results.busy) return lines;
  // counted as the verdict counts them (compare/busy.ts): A/B leaves busy pairs out of a phase's tests
  // where enough quiet ones remain; elsewhere the measured side's busy trials make regressions
  // inconclusive, and a reference's (A/B's base) cannot raise one
  const baseSide = sides.reference;
  const own = (s: ScenarioResult) => s.phases.filter((p) => p.request === undefined);
  // the phases whose busy pairs are left out, with how many
  const quiet = new Map(
    results.scenarios.flatMap((s) => {
      const base = baseSide?.find((b) => b.name === s.name);
      return own(s).flatMap((p) => {
        const q = base && quietPairs(s.phases, base.phases, p.name);
        return q ? [[`${s.name}\u0000${p.name}`, { where: `${s.name}/${p.name}`, q }] as const] : [];
      });
    }),
  );
  const leftOut = [...quiet.values()].map(({ where, q }) => esc(`${where} (${q.left} of ${q.of})`));
  const busyIn = (scenarios: ScenarioResult[]) =>
    scenarios.flatMap((s) =>
      own(s)
        .filter((p) => !quiet.has(`${s.name}\u0000${p.name}`))
        .map((p) => ({ p, found: busyTrials(s.phases, p.name) }))
        .filter(({ found }) => found.busy > 0)
        .map(({ p, found }) => esc(`${s.name}/${p.name} (${found.busy} of ${found.of})`)),
    );
  const kept = busyIn(results.scenarios);
  const base = baseSide ? busyIn(baseSide) : [];
  const judged =
    kept.length === 0
      ? `no busy ${sides.current ? `${sides.current} ` : ''}trial judged`
      : `busy ${sides.current ? `${sides.current} ` : ''}trials still judged in ${namedAndCounted(kept, 10)}: their regressions on latency, throughput, memory and CPU are inconclusive`;
  const reference =
    base.length === 0
      ? ''
      : `; busy base trials judged in ${namedAndCounted(base, 10)} (a slower base can hide a regression, not raise one)`;
  const left =
    leftOut.length === 0
      ? ''
      : `busy pairs left out of the tests in ${namedAndCounted(leftOut, 10)} (their quiet pairs judged); `;
  lines.push(
    `- busy machine (gate.busy): ${results.busy.repeated} of ${results.busy.repeats} ${sides.repeatedTrials} repeated; ${left}${judged}${reference}`,
  );
  return lines;
}

const pct = (v: number) => `${+(v * 100).toPrecision(2)}%`;

/** How the run's false alarms are bounded: per run with gate.run-alpha, else per row (gating modes only). */
function falseAlarmLines(results: ResultsFile, mode: ModeTraits): string[] {
  if (!mode.gates) return [];
  const family = results.scenarios.find((s) => s.family)?.family;
  if (family) {
    return [
      `- false alarms: at most ${pct(family.alpha)} of unchanged runs raise any band alarm (gate.run-alpha ${family.alpha}), ${pct(family.alpha / family.members)} for each of ${family.members} gated phase${family.members === 1 ? '' : 's'}; the rows of a phase are tested together`,
    ];
  }
  const phases = new Set(
    results.comparisons.filter((c) => /^[+-]/.test(c.band)).map((c) => `${c.scenario}\0${c.phase}`),
  );
  if (phases.size <= 1) return [];
  return [
    `- false alarms: each row at its own alpha, over ${phases.size} gated phases: an unchanged run can raise one more often than any row does (gate.run-alpha bounds the run's rate)`,
  ];
}

/** Why each regressed phase regressed, the first fork (compare/cost.ts): the services that spent more
 * CPU per successful response, or none did: waiting, not working. */
function costLines(results: ResultsFile): string[] {
  const p = (v: number) => (v < 0.001 ? '<0.001' : `${+v.toPrecision(2)}`);
  const share = (s: ServiceCost) =>
    s.share !== undefined ? `, ${Math.round(Math.max(-999, Math.min(999, s.share * 100)))}% of the added latency` : '';
  const said = (s: ServiceCost) =>
    `${esc(s.service)} ${percent(s.change)}${s.interval ? ` [${percent(s.interval[0])}, ${percent(s.interval[1])}]` : ''} (${formatUs(s.before)} → ${formatUs(s.after)} a response${share(s)}, p=${p(s.pValue)})`;
  // only phases that still fail (a row accepted since, in the fork flow's trusted job, asks no why)
  const failing = failingPhases(results.comparisons);
  return (results.costs ?? [])
    .filter((c) => failing.has(phaseKey(c.scenario, c.phase)))
    .map((c) => {
      const where = `${esc(c.scenario)}/${esc(c.phase)}`;
      const rose = c.services.filter((s) => s.rose);
      if (rose.length > 0) {
        const more = rose.length > 3 ? `; and ${rose.length - 3} more` : '';
        return `- **why ${where}**: more CPU per request: ${rose.slice(0, 3).map(said).join('; ')}${more}`;
      }
      const seen = c.services
        .slice(0, 3)
        .map((s) => `${esc(s.service)} ${percent(s.change)}${share(s)}`)
        .join(', ');
      return `- **why ${where}**: no service spent more CPU per request (${seen}): waiting, not working`;
    });
}

export interface ReportOptions {
  reportId?: string;
  /** `summary`: verdict and table only (the terminal); `full` adds the collapsed details */
  sections?: 'full' | 'summary';
  budget?: number;
  /** Markdown of the trend charts from the history file (./trend.ts), shown collapsed */
  trend?: string;
}

/** Text bars of each phase's latencies (p10/p25/p75 beside them), from the merged histograms. */
function distribution(results: ResultsFile): string {
  const blocks: string[] = [];
  for (const s of results.scenarios) {
    for (const p of s.phases) {
      const l = p.merged.latency;
      const quartiles =
        l.p25 === undefined ? '' : ` · p10 ${formatUs(l.p10)} · p25 ${formatUs(l.p25)} · p75 ${formatUs(l.p75)}`;
      blocks.push(
        `**${esc(s.name)}/${esc(p.name)}**: ${l.count} responses, p50 ${formatUs(l.p50)}${quartiles}`,
        `\`\`\`\n${renderBuckets(latencyBuckets(p.merged.histogram))}\n\`\`\``,
      );
    }
  }
  return blocks.join('\n\n');
}

/** The Markdown report, as `mode` (the results' mode's traits) reads it. The marker line makes the PR
 * comment findable. */
export function renderMarkdown(results: ResultsFile, mode: ModeTraits, opts: ReportOptions = {}): string {
  if (mode.report === 'levels') return renderSweep(results, reportMarker(opts.reportId ?? ''));
  const budget = opts.budget ?? REPORT_BUDGET;
  const statuses = results.scenarioStatus ?? [];
  const marker = reportMarker(opts.reportId ?? '');
  const sides = sidesOf(results);
  const head = [marker, headline(results, mode, sides)];
  if (sides.comparedWith) head.push('', sides.comparedWith);
  const bullets = regressionBullets(results.comparisons, mode.gates);
  if (bullets.length) head.push('', ...bullets);
  const why = capped(costLines(results), 'regressed phases');
  if (why.length) head.push('', ...why);
  const where = capped(profileLines(results), 'profiled services');
  if (where.length) head.push('', ...where);
  const failing = capped(failingLines(results), 'failing rows');
  if (failing.length) head.push('', ...failing);
  const refused = failing.length > 0 && (results.failing ?? []).some((f) => !f.accepted);
  // nothing was written when the update was refused: no "first baseline written" beside it
  const status = refused ? [] : capped(statusLines(statuses, results, mode.records), 'scenarios with baseline notes');
  if (status.length) head.push('', ...status);
  // A/B: each side's flags, named by side (a flag on either side can invalidate a row)
  const flagged = capped(
    sides.measured.flatMap(({ name, scenarios }) =>
      scenarios.flatMap((s) =>
        // a mix entry carries its phase's generator flags: said once, for the phase
        s.phases
          .filter((p) => p.request === undefined)
          .flatMap((p) =>
            p.flags.map((f) => `> ⚠️ ${name ? `${name}: ` : ''}${esc(s.name)}/${esc(p.name)}: ${esc(f)}`),
          ),
      ),
    ),
    'flagged phases',
  );
  if (flagged.length) head.push('', ...flagged);

  // many rows: the table shows what fails or warns; the passing ones fold below it
  const fold = results.comparisons.length > FOLD_PASSING_OVER;
  // a pass that could not have detected its band stays in sight
  const folded = (c: Comparison) => c.result === 'pass' && !c.blind;
  const rows = comparisonTable(fold ? results.comparisons.filter((c) => !folded(c)) : results.comparisons);
  const passing = fold ? comparisonTable(results.comparisons.filter(folded)) : [];
  const footer = `<sub>perf-gate · run ${esc(results.runId)} · ${esc(results.mode)} · ${esc(results.finishedAt)}</sub>`;
  const header = sides.header;
  let table = rows.length
    ? markdownTable([header, ...rows])
    : passing.length
      ? `All ${passing.length} rows pass.`
      : latencyTable(results);
  const fixed = () => [...head, '', table, '', footer].join('\n');
  // the verdict and the regressions always fit: cut table rows (they are sorted, regressions first)
  let kept = rows.length;
  while (rows.length && fixed().length > budget && kept > 1) {
    kept = Math.max(1, Math.floor(kept * 0.8));
    table = `${markdownTable([header, ...rows.slice(0, kept)])}\n\n… ${rows.length - kept} more rows in the results file.`;
  }
  const sections =
    (opts.sections ?? 'full') === 'summary'
      ? []
      : [
          rows.length || passing.length ? details('Latency and throughput per phase', latencyTable(results)) : '',
          details('Latency percentiles chart', chart(results, sides)),
          opts.trend ? details('Trend over recent runs', opts.trend) : '',
          details('Latency distribution per phase', distribution(results)),
          details('Status codes, errors and flags', errorsTable(sides)),
          sides.pairOrders ? details('A/B pair orders', sides.pairOrders) : '',
          details('SUT resources', resourcesTable(results)),
          details(sides.environmentTitle, environment(results, mode, sides, statuses)),
        ].filter(Boolean);
  let body = [...head, '', table].join('\n');
  if (passing.length) {
    // the folded passing rows, or (when they do not fit) a line that says where they are
    const label = `${passing.length} passing row${passing.length === 1 ? '' : 's'}`;
    const folded = details(label, markdownTable([header, ...passing]));
    const summary = (opts.sections ?? 'full') === 'summary';
    body += summary
      ? `\n\n_${label} not shown here; the report file has them._`
      : body.length + folded.length + footer.length + 200 <= budget
        ? `\n\n${folded}`
        : `\n\n_${label} not shown here (too many for a comment); the results file has them._`;
  }
  let omitted = 0;
  for (const s of sections) {
    if (body.length + s.length + footer.length + 200 <= budget) body += `\n\n${s}`;
    else omitted++;
  }
  if (omitted)
    body += `\n\n_${omitted} detail section${omitted === 1 ? '' : 's'} omitted to stay under GitHub's comment size limit; the job summary artifact and results file have everything._`;
  return fitted(`${body}\n\n${footer}\n`, Math.max(budget, 1000));
}

/**
 * The last guard under GitHub's limit: a report still over `budget` (the verdict, bullets and notes
 * are each bounded, but a crafted file can have many of them) is cut at a line boundary, with a line
 * saying so; the verdict comes first, so it always stays.
 */
export function fitted(report: string, budget = REPORT_BUDGET): string {
  const limit = Math.min(budget, COMMENT_LIMIT - 1000);
  if (report.length <= limit) return report;
  const note = "\n\n_… cut here to stay under GitHub's comment size limit; the results file has everything._\n";
  // room for the note and for closing what the cut leaves open
  const room = limit - note.length - 200;
  const cut = report.lastIndexOf('\n', room);
  let head = report.slice(0, cut > 0 ? cut : room);
  // an unclosed fence or details block would swallow the note: close what was cut open
  if ((head.match(/^```/gm)?.length ?? 0) % 2 === 1) head += '\n```';
  const open = (head.match(/<details>/g)?.length ?? 0) - (head.match(/<\/details>/g)?.length ?? 0);
  head += '\n\n</details>'.repeat(Math.max(0, open));
  return `${head}${note}`;
}

/** The report of a run that could not finish: the one-line reason, and the details (SUT log lines,
 * runner stderr) folded. */
export function renderError(message: string, logLines: readonly string[]): string {
  const lines = ['### ⚠️ perf-gate: the run did not finish', '', esc(message.replace(/^perf-gate: /, ''))];
  if (logLines.length) {
    const body = escapeCodeBlock(logLines.join('\n').slice(-20_000));
    lines.push('', details('Last log lines', `\`\`\`\n${body}\n\`\`\``));
  }
  lines.push('', 'No verdict: nothing was compared.', '');
  return lines.join('\n');
}
