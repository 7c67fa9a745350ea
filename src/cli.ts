#!/usr/bin/env node
// perf-gate command line (SPEC §7). Exit codes: 0 pass/done, 1 regression, 2 invalid config or
// usage, 3 environment or SUT failure — always with a one-line reason.
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadConfig } from './config/load.js';
import { configJsonSchema } from './config/schema.js';
import { realRunDeps } from './deps.js';
import { overallVerdict } from './compare/compare.js';
import { gateResults } from './compare/gate.js';
import { EXIT_INTERNAL, EXIT_PASS, EXIT_REGRESSION, EXIT_USAGE, UserError, usageError } from './errors.js';
import { renderMarkdown } from './report/markdown.js';
import { readBaseline, readResults } from './results/read.js';
import type { BaselineFile } from './results/types.js';
import { isMode, resolveMode } from './mode.js';
import { Progress, progressSink } from './progress.js';
import { renderResultsTable } from './report/terminal.js';
import { runPerfGate } from './run.js';
import { exitOnSignals } from './signals.js';

const USAGE = `usage:
  perf-gate run [--config F] [--mode auto|gate|update|sweep|ab] [--base REF] [--pairs N] [--scenario NAME]... [--baseline-dir D] [--out D] [--runner-image IMAGE]
  perf-gate validate [--config F]
  perf-gate compare BASELINE.json RESULTS.json
  perf-gate report RESULTS.json [--format md|json]
  perf-gate schema [--out FILE]      print the JSON Schema of perf-gate.yml`;

function parse<O extends NonNullable<Parameters<typeof parseArgs>[0]>['options']>(args: string[], options: O) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw usageError(`${(err as Error).message.split('\n')[0]}\n${USAGE}`);
  }
}

const onSignal = exitOnSignals(
  (signal) => (signal === 'SIGINT' ? 130 : 143),
  (signal) => process.stderr.write(`\nperf-gate: ${signal}: tearing down\n`),
);

async function cmdRun(args: string[]): Promise<number> {
  const { values } = parse(args, {
    config: { type: 'string', default: 'perf-gate.yml' },
    mode: { type: 'string', default: 'auto' },
    scenario: { type: 'string', multiple: true, default: [] },
    'baseline-dir': { type: 'string', default: 'baselines' },
    out: { type: 'string', default: '.' },
    'runner-image': { type: 'string' },
    base: { type: 'string' },
    pairs: { type: 'string' },
  });
  const mode = String(values.mode);
  if (!isMode(mode)) throw usageError(`--mode ${mode}: must be auto, gate, update, sweep or ab`);
  const against = mode === 'auto' ? loadConfig(String(values.config)).gate.against : 'baselines';
  const resolved = resolveMode(mode, process.env.GITHUB_EVENT_NAME, against);
  let pairs: number | undefined;
  if (values.pairs !== undefined) {
    pairs = Number(values.pairs);
    if (!Number.isInteger(pairs) || pairs < 2 || pairs > 50) {
      throw usageError(`--pairs ${values.pairs}: must be an integer from 2 to 50`);
    }
  }
  // inside a pull request's workflow the base branch is known; anywhere else --base is needed
  const baseRef = values.base ?? (process.env.GITHUB_BASE_REF ? `origin/${process.env.GITHUB_BASE_REF}` : undefined);
  if (resolved === 'ab' && !baseRef) throw usageError('--mode ab needs --base REF (a commit, branch or tag)');
  const progress = new Progress(progressSink(process.stderr, process.env));
  const outcome = await runPerfGate(
    {
      configFile: String(values.config),
      mode: resolved,
      scenarios: values.scenario as string[],
      baselineDir: String(values['baseline-dir']),
      outDir: String(values.out),
      ...(values['runner-image'] ? { runnerImage: String(values['runner-image']) } : {}),
      ...(baseRef ? { baseRef } : {}),
      ...(pairs ? { pairs } : {}),
    },
    realRunDeps(progress, onSignal),
  );
  process.stdout.write(`\n${renderResultsTable(outcome.results.scenarios)}\n\n`);
  process.stdout.write(`${renderMarkdown(outcome.results, { sections: 'summary' })}\n`);
  process.stdout.write(`results: ${outcome.resultsPath}\nreport: ${outcome.reportPath}\n`);
  for (const b of outcome.baselinesUpdated) process.stdout.write(`baseline written: ${b}\n`);
  return (resolved === 'gate' || resolved === 'ab') && outcome.verdict === 'regression' ? EXIT_REGRESSION : EXIT_PASS;
}

function cmdValidate(args: string[]): number {
  const { values } = parse(args, { config: { type: 'string', default: 'perf-gate.yml' } });
  const config = loadConfig(String(values.config));
  const phases = config.scenarios.reduce((a, s) => a + s.phases.length, 0);
  process.stdout.write(
    `${values.config}: valid (${config.scenarios.length} scenario${config.scenarios.length === 1 ? '' : 's'}, ${phases} phase${phases === 1 ? '' : 's'})\n`,
  );
  return EXIT_PASS;
}

function cmdSchema(args: string[]): number {
  const { values } = parse(args, { out: { type: 'string' } });
  const text = `${JSON.stringify(configJsonSchema(), null, 2)}\n`;
  if (values.out) writeFileSync(String(values.out), text);
  else process.stdout.write(text);
  return EXIT_PASS;
}

function cmdCompare(args: string[]): number {
  const { positionals } = parse(args, {});
  if (positionals.length !== 2) throw usageError(`compare needs BASELINE.json RESULTS.json\n${USAGE}`);
  const [baselineFile, resultsFile] = positionals as [string, string];
  const baseline = readBaseline(baselineFile, false) as BaselineFile;
  const results = readResults(resultsFile);
  const scenario = results.scenarios.find((s) => s.name === baseline.scenario);
  if (!scenario) {
    throw usageError(`results file ${resultsFile} has no scenario ${baseline.scenario} (the baseline's scenario)`);
  }
  const only = { ...results, scenarios: [scenario] };
  const outcome = gateResults(only, new Map([[scenario.name, baseline]]));
  process.stdout.write(renderMarkdown(outcome.results, { sections: 'summary' }));
  return outcome.verdict === 'regression' ? EXIT_REGRESSION : EXIT_PASS;
}

function cmdReport(args: string[]): number {
  const { values, positionals } = parse(args, { format: { type: 'string', default: 'md' } });
  if (positionals.length !== 1) throw usageError(`report needs RESULTS.json\n${USAGE}`);
  const format = String(values.format);
  if (format !== 'md' && format !== 'json') throw usageError(`--format ${format}: must be md or json`);
  const results = readResults(positionals[0] as string);
  if (format === 'md') {
    process.stdout.write(renderMarkdown(results));
  } else {
    const verdict = overallVerdict(results.comparisons);
    const regressions = results.comparisons.filter((c) => c.result === 'regression').length;
    const summary = {
      verdict,
      regressions,
      scenarioStatus: results.scenarioStatus ?? [],
      comparisons: results.comparisons,
    };
    process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
  }
  return EXIT_PASS;
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'run':
      return cmdRun(rest);
    case 'validate':
      return cmdValidate(rest);
    case 'schema':
      return cmdSchema(rest);
    case 'compare':
      return cmdCompare(rest);
    case 'report':
      return cmdReport(rest);
    case undefined:
    case '-h':
    case '--help':
    case 'help':
      process.stdout.write(`${USAGE}\n`);
      return command === undefined ? EXIT_USAGE : EXIT_PASS;
    default:
      throw usageError(`unknown command ${command}\n${USAGE}`);
  }
}

// a reader that went away (a closed pipe) must not kill the run before its teardown: output is
// best effort, cleanup is not
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof UserError) {
      process.stderr.write(`perf-gate: ${err.message}\n`);
      for (const line of err.details) process.stderr.write(`${line}\n`);
      process.exit(err.exitCode);
    }
    process.stderr.write(`perf-gate: internal error: ${err instanceof Error ? err.message : String(err)}\n`);
    // a bug of ours, not the user's environment: exit 1 like a failed check, the stack on request
    if (process.env.PERF_GATE_DEBUG && err instanceof Error) process.stderr.write(`${err.stack}\n`);
    else process.stderr.write('perf-gate: set PERF_GATE_DEBUG=1 for the stack trace, and please report it\n');
    process.exit(EXIT_INTERNAL);
  },
);
