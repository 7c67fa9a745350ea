import { createRequire as __pgCreateRequire } from 'node:module';
import { fileURLToPath as __pgFileURLToPath } from 'node:url';
import { dirname as __pgDirname } from 'node:path';
const require = __pgCreateRequire(import.meta.url);
const __filename = __pgFileURLToPath(import.meta.url);
const __dirname = __pgDirname(__filename);

// src/action/main.ts
import { appendFileSync } from "node:fs";
var message = "perf-gate Action: not implemented yet; use the CLI (npx perf-gate run) for now";
process.stdout.write(`::error::${message}
`);
if (process.env.GITHUB_OUTPUT) appendFileSync(process.env.GITHUB_OUTPUT, "verdict=error\n");
process.exitCode = 2;
