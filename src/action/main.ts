// The Action's main entry. Not implemented yet: the gate, the PR comment and the inputs/outputs of
// SPEC §6 come with the gate issue. It fails with one clear line rather than pretending.
import { appendFileSync } from 'node:fs';

const message = 'perf-gate Action: not implemented yet; use the CLI (npx perf-gate run) for now';
process.stdout.write(`::error::${message}\n`);
if (process.env.GITHUB_OUTPUT) appendFileSync(process.env.GITHUB_OUTPUT, 'verdict=error\n');
process.exitCode = 2;
