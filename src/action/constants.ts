// The Action's output and state names (action.yml declares the outputs; the post step reads the state).
export const OUTPUT = {
  verdict: 'verdict',
  regressions: 'regressions',
  results: 'results',
  report: 'report',
  html: 'html-report',
  reportUrl: 'report-url',
  baselinesUpdated: 'baselines-updated',
} as const;
export type OutputName = (typeof OUTPUT)[keyof typeof OUTPUT];

export const STATE = {
  /** the run id the post step sweeps by */
  runId: 'run_id',
} as const;
