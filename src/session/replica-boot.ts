// How a runner replica starts, on Docker Swarm and in a Kubernetes pod alike: the plan and the
// gzipped runner script arrive as files under /perf-gate (swarm configs, ConfigMaps; a swarm config
// holds at most 500 KB), the script is unzipped into /tmp (the root file system is read-only) and
// run on the plan.
export const SCRIPT_PATH = '/perf-gate/runner.mjs.gz';
export const PLAN_PATH = '/perf-gate/plan.json';

/** `node -e` this: unzip the script, then run it as `node /tmp/runner.mjs PLAN` would. */
export const REPLICA_BOOT = [
  "const fs=require('node:fs'),zlib=require('node:zlib');",
  `fs.writeFileSync('/tmp/runner.mjs',zlib.gunzipSync(fs.readFileSync('${SCRIPT_PATH}')));`,
  `process.argv=[process.argv[0],'/tmp/runner.mjs','${PLAN_PATH}'];`,
  "import('/tmp/runner.mjs');",
].join('');
