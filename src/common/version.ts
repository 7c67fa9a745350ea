// perf-gate's version, from package.json (inlined into the bundle at build time).
import pkg from '../../package.json' with { type: 'json' };

export const VERSION: string = pkg.version;
