// perf-gate's command line (SPEC §7) as `main(argv, deps)`: every command, its options and what it
// does, with what it touches of the world passed in (src/cli.ts binds the real ones). Exit codes: 0
// pass/done, 1 regression, 2 invalid config or usage, 3 environment or SUT failure — always with a
// one-line reason.
import { unsetNames } from '../config/placeholder-kinds.js';
import { parseArgs } from 'node:util';
import { bodiesLines, configProblems, defaultWorkspace, loadConfig, readConfig } from '../config/load.js';
import { configJsonSchema, historySchema } from '../config/schema.js';
import { shiftSettings } from '../config/normalize.js';
import type { Config, ShiftSettings } from '../config-parts/types.js';
import { gateResults } from '../compare/gate.js';
import { EXIT_INTERNAL, EXIT_PASS, EXIT_REGRESSION, EXIT_USAGE, UserError, usageError } from '../common/errors.js';
import { appendHistory, historyEntry, parseHistory } from '../history/history.js';
import { renderTrend } from '../report/trend.js';
import { renderMarkdown } from '../report/markdown.js';
import type { ReadFs } from '../common/read-fs.js';
import { readBaseline, readBaselines, readResults } from '../results/read.js';
import type { BaselineFile } from '../results/types.js';
import {
  exitCodeOf,
  isMode,
  listed,
  modeInputs,
  MODES,
  type ModeVerdict,
  resolveMode,
  shiftedLine,
  shiftedRows,
  traitsOf,
} from '../modes/index.js';
import type { RunMode } from '../modes/mode.js';
import { formatNamed, formatNames, OUTPUTS, STANDALONE } from '../outputs/index.js';
import { buildRunRequest } from '../run/request.js';
import { outFormatPath, type OutputPath, refuseOutputPaths } from '../run/output-paths.js';
import { parseSeed } from '../stats/random.js';
import { checkRunnable } from '../run/plan.js';
import { engineIsLocal } from '../run/deps.js';
import { Progress, type ProgressSink } from '../run/progress.js';
import { newRunId, run, type RunDeps } from '../run/run.js';
import type { Exec } from '../common/exec.js';
import { renderK8sCommand } from '../k8s/command.js';
import { didYouMean } from '../text/did-you-mean.js';
import { ACTION_PLACEHOLDER, initCommand } from '../init/command.js';
import { actionRef } from '../init/init.js';
import { probeProject, type ProbeRequest } from '../init/probe.js';
import { composeEnv } from '../docker/compose.js';
import { checkComposeProject } from '../docker/check-project.js';
import pkg from '../../package.json' with { type: 'json' };
import { VERSION } from '../common/version.js';
import { type Acceptance, parseAcceptance } from '../compare/accept.js';
import { historyPage } from '../report/history-html.js';

/** What the CLI touches of the world: src/cli.ts binds the process's, tests pass their own. */
export interface CliDeps {
  /** standard output and standard error */
  out(text: string): void;
  err(text: string): void;
  /** where progress lines go (a terminal's display, or plain lines) */
  progress: ProgressSink;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** standard input and output are a terminal: init may ask */
  terminal: boolean;
  /** a prompt on the terminal (init), closed when init is done */
  prompt(): { ask(question: string, fallback: string): Promise<string>; close(): void };
  files: {
    read(path: string): string;
    /** whole file, into a directory that exists */
    write(path: string, text: string): void;
    /** whole file, creating its directory (init) */
    writeCreating(path: string, text: string): void;
    /** whole file, atomically (temporary file and rename) */
    writeAtomic(path: string, text: string): void;
    /** a file's text, undefined when it does not exist */
    readIfExists(path: string): string | undefined;
    exists(path: string): boolean;
    isDirectory(path: string): boolean;
    /** the process may write this file, or create entries in this directory */
    writable(path: string): boolean;
  };
  /** what reading configs, bodies, baselines and results goes through */
  readFs: ReadFs;
  exec: Exec;
  /** the run's dependencies, bound to this progress display */
  runDeps(progress: Progress): RunDeps;
  now(): number;
  runnerScript(): string;
}

/** The workspace the config's paths must stay inside, as the run's is found. */
function workspaceOf(deps: CliDeps): string {
  return defaultWorkspace(deps.env, deps.cwd);
}

type OptionSpec = {
  type: 'string' | 'boolean';
  multiple?: boolean;
  default?: string | string[];
  value?: string;
  help: string;
};

interface CommandSpec {
  args?: string;
  summary: string;
  options: Record<string, OptionSpec>;
}

/** Every command, its options and what they do: the one source of `--help` and of the parser. */
const COMMANDS = {
  run: {
    summary: 'boot the SUT, run the load phases, compare or record, write the results and the report',
    options: {
      config: { type: 'string', default: 'perf-gate.yml', value: 'FILE', help: 'the config file' },
      mode: {
        type: 'string',
        default: 'auto',
        value: 'MODE',
        // (read when help is printed: a mode registered in MODES is listed)
        get help() {
          return `${modeInputs().join(' | ')}; auto picks from GITHUB_EVENT_NAME (pull_request → gate, or ab with gate.against: base-ref; schedule/push → update; workflow_dispatch → sweep; elsewhere gate)`;
        },
      },
      scenario: {
        type: 'string',
        multiple: true,
        default: [],
        value: 'NAME',
        help: 'run only this scenario (repeatable)',
      },
      'baseline-dir': {
        type: 'string',
        default: 'baselines',
        value: 'DIR',
        help: 'where baseline files are read and written',
      },
      out: {
        type: 'string',
        default: '.',
        value: 'DIR',
        help: 'where perf-gate-results.json, perf-gate-report.md and perf-gate-report.html go',
      },
      'runner-image': { type: 'string', value: 'IMAGE', help: 'overrides runner.image (any image with Node >= 20)' },
      base: {
        type: 'string',
        value: 'REF',
        help: 'ab mode: the commit, branch or tag to compare with (default origin/$GITHUB_BASE_REF)',
      },
      pairs: {
        type: 'string',
        value: 'N',
        help: 'ab mode: interleaved base/head pairs, 2 to 50 (default ab.pairs, 6)',
      },
      seed: {
        type: 'string',
        value: 'N',
        help: "the seed of the run's random order: A/B's pairs, and the gate's and update's trials interleaved across phases (default: a new one; the report names it, so a run can be repeated)",
      },
      'fail-on-inconclusive': {
        type: 'boolean',
        help: 'exit 1 also when a row stayed inconclusive: outside its band, not confirmed by the most trials allowed, or not judged (a generator-bound phase, a busy machine) with a change beyond its band (the default)',
      },
      'no-fail-on-inconclusive': {
        type: 'boolean',
        help: 'exit 0 when nothing regressed but a row stayed inconclusive (a warning; the report header is still never a pass)',
      },
      'fail-on-shift': {
        type: 'boolean',
        help: 'an update (the scheduled refresh) exits 1 when a row moved beyond its band since the baselines it replaces; they are still written (default: an update never fails on that)',
      },
      'out-format': {
        type: 'string',
        multiple: true,
        default: [],
        value: 'FORMAT=PATH',
        help: `also write an output (repeatable): ${outputFormatsHelp()}`,
      },
      junit: {
        type: 'string',
        value: 'FILE',
        help: 'also write the comparison as JUnit XML (--out-format junit=FILE)',
      },
      csv: { type: 'string', value: 'FILE', help: 'also write every measured metric as CSV (--out-format csv=FILE)' },
      history: {
        type: 'string',
        value: 'FILE',
        help: 'trend history (JSON lines): its charts go into the report; update runs append to it',
      },
      accept: {
        type: 'string',
        multiple: true,
        default: [],
        value: "'ROWS: REASON'",
        help: "accept failing rows on purpose (repeatable): ROWS is *, a scenario, scenario/phase or 'scenario/phase metric'; they pass as accepted, with the reason in the report",
      },
    },
  },
  init: {
    summary: 'write perf-gate.yml and .github/workflows/perf-gate.yml from the compose file here',
    options: {
      compose: {
        type: 'string',
        multiple: true,
        default: [],
        value: 'FILE',
        help: 'the compose file (repeatable; default the files compose loads here: the first of compose.yaml, compose.yml, docker-compose.yml, docker-compose.yaml and its override file)',
      },
      path: { type: 'string', value: 'PATH', help: 'the path each scenario GETs (default /; asked on a terminal)' },
      against: {
        type: 'string',
        value: 'WHAT',
        help: 'what pull requests are gated against: base-ref (A/B in one job) or baselines (default base-ref, unless the project cannot boot twice side by side: host networking, a device, a writable host path, an external network or volume; asked on a terminal)',
      },
      action: {
        type: 'string',
        default: actionRef(pkg) ?? ACTION_PLACEHOLDER,
        value: 'REF',
        help: "the workflow's uses: reference to the Action (perf-gate's own repository and major version)",
      },
      probe: {
        type: 'boolean',
        help: 'boot the project once (docker compose up, torn down after) and ask each port from inside its network what it speaks: HTTP/1.1 (its health paths, an OpenAPI document), gRPC health, or TCP only',
      },
      'runner-image': {
        type: 'string',
        value: 'IMAGE',
        help: 'the image --probe runs its questions in (any with Node >= 20; default node:22-slim)',
      },
      fork: {
        type: 'boolean',
        help: 'also write the fork flow: the gate uploads its results and .github/workflows/perf-gate-report.yml (workflow_run) comments, for pull requests from forks too',
      },
      yes: { type: 'boolean', help: 'ask nothing: take every default' },
      force: { type: 'boolean', help: 'overwrite perf-gate.yml and the workflow when they exist' },
    },
  },
  render: {
    args: 'k8s',
    summary:
      'write the Kubernetes manifests of one trial on runner replicas (an Indexed Job, its ConfigMaps and the RBAC perf-gate needs), to review or apply; talks to no cluster',
    options: {
      config: { type: 'string', default: 'perf-gate.yml', value: 'FILE', help: 'the config file' },
      scenario: { type: 'string', value: 'NAME', help: 'the scenario (default: the first)' },
      phase: { type: 'string', value: 'NAME', help: 'the phase (default: the scenario’s first)' },
      namespace: { type: 'string', default: 'perf-gate', value: 'NS', help: 'the namespace of every object' },
      'run-id': { type: 'string', value: 'ID', help: 'the run id in names and labels (default: a random one)' },
      out: { type: 'string', value: 'FILE', help: 'write the manifests here (default: stdout)' },
    },
  },
  validate: {
    args: '[FILE]',
    summary:
      'check the config file (FILE, or --config) and say, one line per mode, what run in that mode makes of it (exit 0 valid, 2 invalid or refused for --mode)',
    options: {
      config: { type: 'string', default: 'perf-gate.yml', value: 'FILE', help: 'the config file' },
      mode: {
        type: 'string',
        value: 'MODE',
        help: `check for one mode (${Object.keys(MODES).join(', ')}): exit 2 when run in that mode would refuse the config`,
      },
      'baseline-dir': {
        type: 'string',
        default: 'baselines',
        value: 'DIR',
        help: 'where the baselines are: a gate says the smallest change each row catches against them',
      },
    },
  },
  compare: {
    args: 'BASELINE.json RESULTS.json',
    summary: "gate a results file against one scenario's baseline file (exit 1 on regression)",
    options: {},
  },
  report: {
    args: 'RESULTS.json',
    summary: 'render a results file again',
    options: {
      format: { type: 'string', default: 'md', value: 'FORMAT', help: outputFormatsHelp() },
    },
  },
  history: {
    args: 'FILE',
    summary: 'print the trend charts (Markdown) of a history file',
    options: {
      append: { type: 'string', value: 'RESULTS.json', help: "append a results file's summary to FILE first" },
      html: {
        type: 'string',
        value: 'PAGE',
        help: 'also write the trend as one static HTML page (p50, p99 and req/s per phase, level shifts marked; for GitHub Pages)',
      },
      'min-shift': {
        type: 'string',
        value: 'PCT',
        help: "the smallest level shift named, relative to the level before it (the config's history.min-shift; default 5%)",
      },
      alpha: {
        type: 'string',
        value: 'P',
        help: "the most a level shift's p may be (the config's history.alpha, 0.001 to 0.2; default 0.01)",
      },
    },
  },
  schema: {
    summary: 'print the JSON Schema of perf-gate.yml (for editor completion)',
    options: { out: { type: 'string', value: 'FILE', help: 'write it to FILE instead of stdout' } },
  },
} satisfies Record<string, CommandSpec>;
type CommandName = keyof typeof COMMANDS;

/** Every output format, with its other names: `results, markdown (md), ...`. */
function outputFormatsHelp(): string {
  return Object.values(OUTPUTS)
    .map((o) => (o.names.length > 1 ? `${o.names[0]} (${o.names.slice(1).join(', ')})` : o.names[0]))
    .join(', ');
}

function synopsis(name: CommandName): string {
  const spec: CommandSpec = COMMANDS[name];
  const opts = Object.entries(spec.options).map(
    ([o, s]) => `[--${o}${s.value ? ` ${s.value}` : ''}]${s.multiple ? '...' : ''}`,
  );
  return ['perf-gate', name, ...(spec.args ? [spec.args] : []), ...opts].join(' ');
}

const USAGE = `usage:\n${(Object.keys(COMMANDS) as CommandName[]).map((c) => `  ${synopsis(c)}`).join('\n')}
  perf-gate --version
run \`perf-gate COMMAND --help\` for what each option does.
exit codes: 0 pass or done, 1 regression, 2 invalid config or usage, 3 environment or SUT failure`;

export function commandHelp(name: CommandName): string {
  const spec: CommandSpec = COMMANDS[name];
  const rows = Object.entries(spec.options).map(([o, s]) => {
    const flag = `--${o}${s.value ? ` ${s.value}` : ''}`;
    const dflt = typeof s.default === 'string' ? ` (default ${s.default})` : '';
    return `  ${flag.padEnd(22)} ${s.help}${dflt}`;
  });
  return [
    `usage: ${synopsis(name)}`,
    '',
    spec.summary,
    ...(rows.length ? ['', 'options:', ...rows] : []),
    `  ${'--help'.padEnd(22)} this text`,
  ].join('\n');
}

class HelpShown {}

function parse<N extends CommandName>(deps: CliDeps, name: N, args: string[]) {
  if (args.includes('--help') || args.includes('-h')) {
    deps.out(`${commandHelp(name)}\n`);
    throw new HelpShown();
  }
  const options = Object.fromEntries(
    Object.entries(COMMANDS[name].options as Record<string, OptionSpec>).map(([o, s]) => [
      o,
      {
        type: s.type,
        ...(s.multiple ? { multiple: true } : {}),
        ...(s.default !== undefined ? { default: s.default } : {}),
      },
    ]),
  ) as NonNullable<Parameters<typeof parseArgs>[0]>['options'];
  let parsed: { values: Record<string, string | string[] | boolean | undefined>; positionals: string[] };
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true }) as typeof parsed;
  } catch (err) {
    throw usageError(optionProblem(name, err as Error & { code?: string }), [
      `usage: ${synopsis(name)}`,
      `run \`perf-gate ${name} --help\` for what each option does`,
    ]);
  }
  const spec: CommandSpec = COMMANDS[name];
  if (!spec.args && parsed.positionals.length > 0) {
    const [first] = parsed.positionals;
    const hint = first?.endsWith('.yml') || first?.endsWith('.yaml') ? ` (did you mean --config ${first}?)` : '';
    throw usageError(`perf-gate ${name} takes no arguments, only options: ${first}${hint}`, [
      `usage: ${synopsis(name)}`,
    ]);
  }
  return parsed;
}

/** parseArgs' complaint about an option, in one line of ours, with the option meant where one is close. */
function optionProblem(name: CommandName, err: Error & { code?: string }): string {
  const known = Object.keys(COMMANDS[name].options).map((o) => `--${o}`);
  const option = /'(-{1,2}[^' ]+)/.exec(err.message)?.[1];
  if (err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option) {
    const bare = option.split('=')[0] as string;
    const meant = didYouMean(bare, [...known, '--help']);
    return `unknown option ${bare} for perf-gate ${name}${meant || (known.length ? ` (options: ${known.join(', ')})` : '')}`;
  }
  if (err.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option) {
    const spec = (COMMANDS[name].options as Record<string, OptionSpec>)[option.replace(/^--/, '')];
    return spec?.type === 'boolean'
      ? `${option} takes no value`
      : `${option} needs a value${spec?.value ? ` (${spec.value})` : ''}`;
  }
  return err.message.split('\n')[0] ?? 'invalid options';
}

/** Every path a run writes, as the options gave them: `--out` and `--baseline-dir` are directories,
 * `--junit`, `--csv`, `--history` and `--out-format`'s files; the baselines and the history are
 * written only by a mode that records (`records`), read otherwise. */
function outputPaths(values: Record<string, unknown>, records: boolean): OutputPath[] {
  const given = (flag: string) => `--${flag} ${String(values[flag])}`;
  return [
    { given: given('out'), path: String(values.out), kind: 'directory', writes: true },
    { given: given('baseline-dir'), path: String(values['baseline-dir']), kind: 'directory', writes: records },
    ...(['junit', 'csv', 'history'] as const).flatMap((flag): OutputPath[] =>
      values[flag] === undefined
        ? []
        : [{ given: given(flag), path: String(values[flag]), kind: 'file', writes: flag !== 'history' || records }],
    ),
    ...((values['out-format'] as string[] | undefined) ?? []).flatMap((spec): OutputPath[] => {
      const path = outFormatPath(spec);
      const history = spec.startsWith('history=');
      return path === undefined
        ? []
        : [{ given: `--out-format ${spec}`, path, kind: 'file', writes: !history || records }];
    }),
  ];
}

/** `--accept 'ROWS: REASON'` each as an acceptance by the command line; every malformed one in one error. */
function acceptOptions(texts: readonly string[]): Acceptance[] {
  const parsed = texts.map((t) => ({ t, a: parseAcceptance(t, '--accept') }));
  const problems = parsed.flatMap(({ t, a }) => ('problem' in a ? [`--accept ${t}: ${a.problem}`] : []));
  if (problems.length === 1) throw usageError(problems[0] as string);
  if (problems.length > 1)
    throw usageError(
      `${problems.length} --accept options do not read`,
      problems.map((p) => `  ${p}`),
    );
  return parsed.flatMap(({ a }) => ('problem' in a ? [] : [a]));
}

async function cmdRun(deps: CliDeps, args: string[]): Promise<number> {
  const { values } = parse(deps, 'run', args);
  const mode = String(values.mode);
  if (!isMode(mode)) throw usageError(`--mode ${mode}: must be ${listed(modeInputs())}`);
  let pairs: number | undefined;
  if (values.pairs !== undefined) {
    pairs = Number(values.pairs);
    if (!Number.isInteger(pairs) || pairs < 2 || pairs > 50) {
      throw usageError(`--pairs ${values.pairs}: must be an integer from 2 to 50`);
    }
  }
  const seed = values.seed === undefined ? undefined : parseSeed(String(values.seed));
  if (values.seed !== undefined && seed === undefined) {
    throw usageError(`--seed ${values.seed}: must be an integer from 0 to 4294967295`);
  }
  if (values['fail-on-inconclusive'] === true && values['no-fail-on-inconclusive'] === true) {
    throw usageError('--fail-on-inconclusive and --no-fail-on-inconclusive: give one (failing is the default)');
  }
  const str = (v: unknown) => (v === undefined ? undefined : String(v));
  const accept = acceptOptions((values.accept as string[] | undefined) ?? []);
  const request = buildRunRequest(
    {
      config: String(values.config),
      mode,
      scenarios: values.scenario as string[],
      baselineDir: String(values['baseline-dir']),
      outDir: String(values.out),
      runnerImage: str(values['runner-image']),
      baseRef: str(values.base),
      pairs,
      seed,
      junit: str(values.junit),
      csv: str(values.csv),
      outFormats: values['out-format'] as string[],
      history: str(values.history),
      accept,
    },
    {
      eventName: deps.env.GITHUB_EVENT_NAME,
      baseBranch: deps.env.GITHUB_BASE_REF,
      against: (file) => loadConfig(file, workspaceOf(deps), deps.readFs).gate.against,
    },
  );
  refuseOutputPaths(deps.files, outputPaths(values, traitsOf(request.mode).records));
  const progress = new Progress(deps.progress);
  const outcome = await run(request, deps.runDeps(progress));
  deps.out(`\n${OUTPUTS.terminal.render(outcome.results, STANDALONE)}\n`);
  deps.out(`${renderMarkdown(outcome.results, traitsOf(outcome.results.mode), { sections: 'summary' })}\n`);
  deps.out(`results: ${outcome.resultsPath}\nreport: ${outcome.reportPath}\npage: ${outcome.htmlPath}\n`);
  for (const f of outcome.extraPaths) deps.out(`written: ${f}\n`);
  for (const b of outcome.baselinesUpdated) deps.out(`baseline written: ${b}\n`);
  const shifted = shiftedRows(request.mode, outcome.results.comparisons);
  if (values['fail-on-shift'] === true && shifted.length > 0) {
    deps.err(`${shiftedLine(shifted)}\n`);
    return EXIT_REGRESSION;
  }
  return exitCodeOf(request.mode, outcome.verdict, values['no-fail-on-inconclusive'] !== true);
}

/** What `run` in each mode makes of a valid config: refused (the gate could never fail) or taken, and
 * how; the mode pull requests use (`pullRequests`) is named. */
function modeVerdicts(config: Config, pullRequests: RunMode): ModeVerdict[] {
  return Object.values(MODES).map((m) => m.validate(config, pullRequests));
}

async function cmdValidate(deps: CliDeps, args: string[]): Promise<number> {
  const { values, positionals } = parse(deps, 'validate', args);
  if (positionals.length > 1) throw usageError(`validate takes one FILE: ${positionals.join(' ')}`);
  // `validate FILE` and `validate --config FILE` alike, not both
  if (positionals.length === 1 && args.some((a) => a === '--config' || a.startsWith('--config='))) {
    throw usageError(`validate takes one config: --config ${String(values.config)} or ${positionals[0]}, not both`);
  }
  const file = positionals[0] ?? String(values.config);
  if (file === '-') throw usageError('validate -: a config from standard input is not read; give its file');
  const read = readConfig(file, workspaceOf(deps), deps.readFs, deps.env);
  // the compose project, as compose resolves it: hosts that are not in it, and A/B that cannot boot;
  // checked in the same pass as the config's own problems wherever the config could be read
  const checkable = read.config ?? read.usable;
  const project = checkable
    ? await checkComposeProject(checkable, deps.exec, (p) => deps.files.exists(p), deps.env)
    : { problems: [], notes: [] };
  // what `run` reads beyond the text (bodies files, the runner's plan), in the same pass
  let hashes: Map<string, string> | undefined;
  const runnable: string[] = [];
  if (read.config) {
    try {
      hashes = checkRunnable(read.config, deps.readFs);
    } catch (err) {
      if (!(err instanceof UserError) || err.exitCode !== EXIT_USAGE) throw err;
      runnable.push(err.message);
    }
  }
  if (!read.config || !hashes || read.problems.length > 0 || project.problems.length > 0) {
    const own = read.problems.length + runnable.length;
    const theirs = project.problems.length;
    const what =
      own === 0
        ? 'with the compose project'
        : theirs === 0
          ? 'in the config'
          : `(${own} in the config, ${theirs} with the compose project)`;
    const err = configProblems(file, read.text, [...read.problems, ...runnable, ...project.problems], what);
    // what could not be checked is said beside the problems (compose missing: checked in no round)
    err.details.push(...project.notes.map((n) => `  note: ${n}`));
    throw err;
  }
  const { config } = read;
  // each mode the config can run in, judged as `run` in that mode would: a gate (A/B) whose relative
  // bands can never be confirmed is refused there, and only there (update and sweep record and explore)
  const pullRequests = resolveMode('auto', 'pull_request', config.gate.against);
  const verdicts = modeVerdicts(config, pullRequests);
  const asked = values.mode === undefined ? undefined : String(values.mode);
  if (asked !== undefined && !verdicts.some((v) => v.mode === asked)) {
    throw usageError(`--mode ${asked}: must be one of ${verdicts.map((v) => v.mode).join(', ')}`);
  }
  const shown = asked === undefined ? verdicts : verdicts.filter((v) => v.mode === asked);
  const refused = shown.filter((v) => v.problems.length > 0);
  // --mode M is that mode's verdict; plain validate, the verdict of the mode pull requests run
  // (gate.against): a row that could never fail there is what issue 47 refuses
  if (asked !== undefined && refused.length > 0) {
    throw usageError(
      `${file}: refused for --mode ${asked}: the gate could never fail on a change`,
      (refused[0] as (typeof verdicts)[number]).problems.map((l) => `  ${l}`),
    );
  }
  const prRefused = refused.find((v) => v.mode === pullRequests);
  if (asked === undefined && prRefused) {
    throw usageError(
      `${file}: refused for pull requests (--mode ${pullRequests}, gate.against: ${config.gate.against}): the gate could never fail on a change`,
      prRefused.problems.map((l) => `  ${l}`),
    );
  }
  const phases = config.scenarios.reduce((a, s) => a + s.phases.length, 0);
  deps.out(
    `${file}: valid (${config.scenarios.length} scenario${config.scenarios.length === 1 ? '' : 's'}, ${phases} phase${phases === 1 ? '' : 's'})\n`,
  );
  for (const v of shown) {
    deps.out(
      `  ${v.mode}: ${v.problems.length > 0 ? `refused (run --mode ${v.mode} exits 2): ${v.problems.join('; ')}` : v.line}\n`,
    );
  }
  // the rows the gate judges, as the mode pull requests run (or the one asked for) reads them
  const judged = shown.find((v) => v.mode === (asked ?? pullRequests));
  const rows = (judged ?? shown.find((v) => v.rows))?.rows ?? [];
  if (rows.length) deps.out(`gated rows (${asked ?? pullRequests}):\n${rows.map((r) => `  ${r}\n`).join('')}`);
  // where that mode judges against baselines and they exist: what each row can catch
  const unreadable: string[] = [];
  if (judged?.detectable) {
    const dir = String(values['baseline-dir']);
    const { baselines, errors } = readBaselines(
      config.scenarios.map((s) => s.name),
      dir,
      deps.readFs,
    );
    unreadable.push(...errors.map((e) => e.message));
    if ([...baselines.values()].some((b) => b !== undefined)) {
      deps.out(
        `smallest change each row catches (the baselines in ${dir}/ standing in for the run's trials; the run's own decide):\n${judged
          .detectable(baselines, hashes)
          .map((l) => `  ${l}\n`)
          .join('')}`,
      );
    }
  }
  // an environment value validate's environment does not have: the run's may (the Action step's env:)
  const unset = unsetNames(config, deps.env, bodiesLines(deps.readFs)).map(
    (n) =>
      `\${${n}} is not set in this environment and no setup step extracts it: run refuses it unless it is set where it runs (the Action step's env:)`,
  );
  for (const note of new Set([...project.notes, ...shown.flatMap((v) => v.notes), ...unset, ...unreadable]))
    deps.out(`note: ${note}\n`);
  if (!engineIsLocal(deps.env)) {
    deps.out(
      `note: no machine readings: the Docker engine runs elsewhere (DOCKER_HOST ${deps.env.DOCKER_HOST}), so a trial taken while other processes used its machine cannot be told apart${config.gate.busy ? ' and gate.busy repeats none' : ''}\n`,
    );
  }
  return EXIT_PASS;
}

function cmdRender(deps: CliDeps, args: string[]): number {
  const { values, positionals } = parse(deps, 'render', args);
  if (positionals[0] !== 'k8s' || positionals.length > 1) {
    throw usageError(`render takes what to render: k8s${positionals.length ? ` (not ${positionals.join(' ')})` : ''}`, [
      `usage: ${synopsis('render')}`,
    ]);
  }
  const runId = values['run-id'] === undefined ? newRunId() : String(values['run-id']);
  if (!/^[a-z0-9]([a-z0-9-]{0,30}[a-z0-9])?$/.test(runId)) {
    throw usageError(
      `--run-id ${runId}: lowercase letters, digits and dashes, at most 32 (it names Kubernetes objects)`,
    );
  }
  const namespace = String(values.namespace);
  if (!/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/.test(namespace)) {
    throw usageError(
      `--namespace ${namespace}: a Kubernetes namespace (lowercase letters, digits and dashes, at most 63)`,
    );
  }
  const yaml = renderK8sCommand({
    configFile: String(values.config),
    ...(values.scenario !== undefined ? { scenario: String(values.scenario) } : {}),
    ...(values.phase !== undefined ? { phase: String(values.phase) } : {}),
    namespace,
    runId,
    now: deps.now(),
    script: deps.runnerScript(),
    workspace: workspaceOf(deps),
    fs: deps.readFs,
  });
  if (values.out === undefined) deps.out(yaml);
  else {
    deps.files.writeAtomic(String(values.out), yaml);
    deps.out(`written: ${String(values.out)}\n`);
  }
  return EXIT_PASS;
}

/** init --probe: the run's lifecycle (labels, teardown on signals), a fresh run id. */
async function probeWith(deps: CliDeps, req: Omit<ProbeRequest, 'runId'>) {
  const run = deps.runDeps(new Progress(deps.progress));
  return probeProject(
    { ...req, runId: newRunId() },
    {
      docker: run.docker,
      compose: run.compose,
      runnerScript: run.runnerScript,
      onSignal: run.onSignal,
      log: (l) => deps.err(`[perf-gate] ${l}\n`),
    },
  );
}

async function cmdInit(deps: CliDeps, args: string[]): Promise<number> {
  const { values } = parse(deps, 'init', args);
  const rl = deps.terminal && values.yes !== true ? deps.prompt() : undefined;
  try {
    await initCommand(
      {
        compose: values.compose as string[],
        path: values.path as string | undefined,
        against: values.against as string | undefined,
        action: String(values.action),
        force: values.force === true,
        fork: values.fork === true,
        probe: values.probe === true,
        runnerImage: values['runner-image'] as string | undefined,
      },
      {
        cwd: deps.cwd,
        fs: deps.readFs,
        ...(values.probe === true ? { probe: (req) => probeWith(deps, req) } : {}),
        env: deps.env,
        exists: (p) => deps.files.exists(p),
        compose: (composeArgs, cwd) =>
          deps.exec('docker', ['compose', ...composeArgs], {
            cwd,
            env: composeEnv(deps.env, {}, 'perfgate-init'),
            timeoutMs: 60_000,
          }),
        read: (p) => deps.files.read(p),
        write: (p, text) => deps.files.writeCreating(p, text),
        ...(rl ? { ask: (q: string, fallback: string) => rl.ask(q, fallback) } : {}),
        out: (line) => deps.out(`${line}\n`),
      },
    );
  } finally {
    rl?.close();
  }
  return EXIT_PASS;
}

function cmdSchema(deps: CliDeps, args: string[]): number {
  const { values } = parse(deps, 'schema', args);
  const text = `${JSON.stringify(configJsonSchema(), null, 2)}\n`;
  if (values.out) {
    try {
      deps.files.write(String(values.out), text);
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      throw usageError(`--out ${String(values.out)}: cannot be written (${e.code ?? e.message})`);
    }
  } else deps.out(text);
  return EXIT_PASS;
}

function cmdCompare(deps: CliDeps, args: string[]): number {
  const { positionals } = parse(deps, 'compare', args);
  if (positionals.length !== 2) throw usageError(`compare needs BASELINE.json RESULTS.json\n${USAGE}`);
  const [baselineFile, resultsFile] = positionals as [string, string];
  const baseline = readBaseline(baselineFile, false, deps.readFs) as BaselineFile;
  const results = readResults(resultsFile, deps.readFs);
  const scenario = results.scenarios.find((s) => s.name === baseline.scenario);
  if (!scenario) {
    throw usageError(`results file ${resultsFile} has no scenario ${baseline.scenario} (the baseline's scenario)`);
  }
  const only = { ...results, scenarios: [scenario] };
  const outcome = gateResults(only, new Map([[scenario.name, baseline]]));
  deps.out(renderMarkdown(outcome.results, traitsOf(outcome.results.mode), { sections: 'summary' }));
  return outcome.verdict === 'regression' ? EXIT_REGRESSION : EXIT_PASS;
}

function cmdReport(deps: CliDeps, args: string[]): number {
  const { values, positionals } = parse(deps, 'report', args);
  if (positionals.length !== 1) throw usageError(`report needs RESULTS.json\n${USAGE}`);
  const format = formatNamed(String(values.format));
  if (!format) {
    throw usageError(`--format ${String(values.format)}: must be one of ${formatNames().join(', ')}`);
  }
  const results = readResults(positionals[0] as string, deps.readFs);
  // a history is not read here: the report has no trend, and a history is printed as it would be appended
  deps.out(OUTPUTS[format].render(results, STANDALONE));
  return EXIT_PASS;
}

function cmdHistory(deps: CliDeps, args: string[]): number {
  const { values, positionals } = parse(deps, 'history', args);
  if (positionals.length !== 1) throw usageError(`history needs FILE\n${commandHelp('history')}`);
  const file = positionals[0] as string;
  const settings = historyFlags(values['min-shift'], values.alpha);
  // a file that does not exist yet is an empty history to append to, and nothing to show otherwise
  let text = deps.files.readIfExists(file);
  if (text === undefined) {
    if (!values.append) throw usageError(`history file ${file}: not found`);
    text = '';
  }
  if (values.append) {
    text = appendHistory(text, historyEntry(readResults(String(values.append), deps.readFs)));
    deps.files.writeAtomic(file, text);
  }
  const { entries, acceptances, skipped } = parseHistory(text);
  if (values.html !== undefined) {
    const page = String(values.html);
    deps.files.writeCreating(page, historyPage(entries, acceptances, settings));
    deps.err(`perf-gate: trend page written: ${page}\n`);
  }
  const trend = renderTrend(entries, undefined, true, undefined, acceptances, settings);
  deps.out(`${trend || `${file}: ${entries.length} run${entries.length === 1 ? '' : 's'}, too few for a trend`}\n`);
  if (skipped)
    deps.err(`perf-gate: ${file}: ${skipped} line${skipped === 1 ? '' : 's'} skipped (not history entries)\n`);
  return EXIT_PASS;
}

/** `history --min-shift --alpha`, checked as the config's `history:` keys are (every problem said). */
function historyFlags(minShift: unknown, alpha: unknown): ShiftSettings {
  const raw = {
    ...(minShift !== undefined ? { 'min-shift': String(minShift) } : {}),
    ...(alpha !== undefined ? { alpha: String(alpha).trim() === '' ? NaN : Number(alpha) } : {}),
  };
  const parsed = historySchema.safeParse(raw);
  if (!parsed.success) {
    const given: Record<string, unknown> = { 'min-shift': minShift, alpha };
    const lines = parsed.error.issues.map((i) => {
      const key = String(i.path[0]);
      return `--${key} ${String(given[key])}: ${i.message}`;
    });
    throw usageError(lines.join('\n'));
  }
  return shiftSettings(parsed.data);
}

async function dispatch(deps: CliDeps, command: string | undefined, rest: string[]): Promise<number> {
  switch (command) {
    case 'run':
      return cmdRun(deps, rest);
    case 'init':
      return cmdInit(deps, rest);
    case 'validate':
      return cmdValidate(deps, rest);
    case 'render':
      return cmdRender(deps, rest);
    case 'schema':
      return cmdSchema(deps, rest);
    case 'compare':
      return cmdCompare(deps, rest);
    case 'report':
      return cmdReport(deps, rest);
    case 'history':
      return cmdHistory(deps, rest);
    case '-v':
    case '--version':
    case 'version':
      deps.out(`perf-gate ${VERSION}\n`);
      return EXIT_PASS;
    case 'help':
      if (rest[0] && rest[0] in COMMANDS) {
        deps.out(`${commandHelp(rest[0] as CommandName)}\n`);
        return EXIT_PASS;
      }
      deps.out(`${USAGE}\n`);
      return EXIT_PASS;
    case undefined:
    case '-h':
    case '--help':
      deps.out(`${USAGE}\n`);
      return command === undefined ? EXIT_USAGE : EXIT_PASS;
    default:
      throw usageError(
        `unknown command ${command}${didYouMean(command, [...Object.keys(COMMANDS), 'help', 'version'])}`,
        USAGE.split('\n'),
      );
  }
}

/**
 * One command, its exit code returned. A user's mistake or the environment's is one line (and its
 * details) on standard error with its exit code; anything else is ours: "internal error", exit 1.
 */
export async function main(argv: string[], deps: CliDeps): Promise<number> {
  const [command, ...rest] = argv;
  try {
    return await dispatch(deps, command, rest);
  } catch (err) {
    if (err instanceof HelpShown) return EXIT_PASS;
    if (err instanceof UserError) {
      deps.err(`perf-gate: ${err.message}\n`);
      for (const line of err.details) deps.err(`${line}\n`);
      return err.exitCode;
    }
    deps.err(`perf-gate: internal error: ${err instanceof Error ? err.message : String(err)}\n`);
    // a bug of ours, not the user's environment: exit 1 like a failed check, the stack on request
    if (deps.env.PERF_GATE_DEBUG && err instanceof Error) deps.err(`${err.stack}\n`);
    else deps.err('perf-gate: set PERF_GATE_DEBUG=1 for the stack trace, and please report it\n');
    return EXIT_INTERNAL;
  }
}
