// Reads perf-gate.yml, validates the whole schema and returns a normalised Config, or throws a
// UserError (exit 2) listing one `key.path: problem` line per problem.
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { parseDocument } from 'yaml';
import type { z } from 'zod';
import { usageError } from '../errors.js';
import { normalizeConfig } from './normalize.js';
import { checkGrpcScenarios, type ProtoDescriptor, readMessages, workspaceProtoReader } from './proto.js';
import { configSchema } from './schema.js';
import type { Config } from './types.js';

export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out;
}

export function formatIssues(issues: ReadonlyArray<z.core.$ZodIssue>): string[] {
  const lines: string[] = [];
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) lines.push(`${formatPath([...issue.path, key])}: unknown key`);
      continue;
    }
    const at = formatPath(issue.path);
    let message = issue.message;
    if (issue.code === 'invalid_type' && /received undefined/.test(message)) message = 'is required';
    lines.push(`${at || '(top level)'}: ${message}`);
  }
  return [...new Set(lines)];
}

/** Parses and validates config text; pure but for the path resolver passed in. */
export function parseConfigText(
  text: string,
  file: string,
  resolvePath: (relative: string) => string,
): { config?: Config; problems: string[] } {
  const doc = parseDocument(text);
  if (doc.errors.length > 0) {
    return {
      problems: doc.errors.map((e) => {
        const pos = e.linePos?.[0];
        return `${pos ? `line ${pos.line}, column ${pos.col}` : 'YAML'}: ${e.message.split('\n')[0]}`;
      }),
    };
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    // an alias bomb (a billion laughs) and the like: the file's problem, not an internal error
    return { problems: [`YAML: ${(err as Error).message.split('\n')[0]}`] };
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    return { problems: ['(top level): must be a mapping with version, sut and scenarios'] };
  }
  const parsed = configSchema.safeParse(data);
  if (!parsed.success) return { problems: formatIssues(parsed.error.issues) };
  return normalizeConfig(parsed.data, file, dirname(file), resolvePath);
}

/** A resolver that keeps config paths inside the workspace and requires the files to exist. */
export function workspaceResolver(baseDir: string, workspace: string): (relative: string) => string {
  const root = realpathSync(workspace);
  return (rel: string) => {
    const abs = resolve(baseDir, rel);
    if (!existsSync(abs)) throw new Error(`file not found: ${rel} (looked at ${abs})`);
    const real = realpathSync(abs);
    const inside = relative(root, real);
    if (inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) {
      throw new Error(`${rel} resolves outside the workspace ${root}; perf-gate reads nothing outside it`);
    }
    if (!statSync(real).isFile()) throw new Error(`${rel} is not a file`);
    return real;
  };
}

export function defaultWorkspace(): string {
  return process.env.GITHUB_WORKSPACE || process.cwd();
}

export function loadConfig(file: string, workspace = defaultWorkspace()): Config {
  const abs = resolve(file);
  let text: string;
  try {
    text = readFileSync(abs, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw usageError(`config file ${file}: ${code === 'ENOENT' ? 'not found' : (err as Error).message}`);
  }
  const parsed = parseConfigText(text, abs, workspaceResolver(dirname(abs), workspace));
  const { config } = parsed;
  let { problems } = parsed;
  if (config) {
    // gRPC scenarios: the proto parsed, its service and method found, the messages checked
    const descriptors = new Map<string, ProtoDescriptor>();
    const reader = workspaceProtoReader((base, rel) => workspaceResolver(base, workspace)(rel));
    problems = checkGrpcScenarios(config.scenarios, reader, readMessages, descriptors);
    for (const s of config.scenarios) if (s.grpc) s.grpc.descriptor = descriptors.get(s.grpc.protoFile);
  }
  if (!config || problems.length > 0) {
    throw usageError(
      `${file}: ${problems.length} problem${problems.length === 1 ? '' : 's'} in the config`,
      problems.map((p) => `  ${p}`),
    );
  }
  return config;
}
