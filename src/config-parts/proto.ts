// The .proto files of gRPC scenarios: parsed on the host (protobufjs) when the config is loaded, so a
// proto that does not parse, a service or method that does not exist, or a message that does not fit
// the request type is a config problem naming the key (exit 2) before anything starts. The runner
// gets the parsed descriptor (JSON) in the plan, never the file: it has no workspace to read from.
import type { ReadFs } from '../common/read-fs.js';
import { dirname, resolve } from 'node:path';
import protobuf from 'protobufjs';
import { parseJsonl } from '../common/jsonl.js';
import type { GrpcSpec, Scenario } from './types.js';

/** protobufjs' JSON form of a parsed proto (and what it imports): what @grpc/proto-loader's fromJSON takes. */
export type ProtoDescriptor = Record<string, unknown>;

export interface ProtoReader {
  /** the absolute path of an import from `origin`, inside the workspace; throws with a message if not */
  resolveImport(origin: string, target: string): string;
}

/** Parses a proto and what it imports; throws an Error with a one-line message. */
export function loadProto(file: string, reader: ProtoReader): protobuf.Root {
  const root = new protobuf.Root();
  root.resolvePath = (origin, target) => {
    if (!origin) return target;
    // protobufjs has the well-known types built in
    if (target.startsWith('google/protobuf/')) return target;
    return reader.resolveImport(origin, target);
  };
  try {
    root.loadSync(file, { keepCase: true });
    root.resolveAll();
  } catch (err) {
    throw new Error((err as Error).message.split('\n')[0]);
  }
  return root;
}

/** The unary method's request type, or a problem line naming the key. */
function requestType(root: protobuf.Root, g: GrpcSpec, at: string, problems: string[]): protobuf.Type | undefined {
  let service: protobuf.Service;
  try {
    service = root.lookupService(g.service);
  } catch {
    const services = servicesOf(root);
    problems.push(
      `${at}.service: ${g.service} is not a service of the proto (${services.length ? `services: ${services.join(', ')}` : 'it has none'}; give the full name, package included)`,
    );
    return undefined;
  }
  const full = service.fullName.replace(/^\./, '');
  if (full !== g.service) {
    problems.push(`${at}.service: give the full name, package included: ${full}`);
    return undefined;
  }
  const method = service.methods[g.method];
  if (!method) {
    problems.push(
      `${at}.method: ${g.method} is not a method of ${g.service} (methods: ${Object.keys(service.methods).join(', ')})`,
    );
    return undefined;
  }
  if (method.requestStream || method.responseStream) {
    problems.push(`${at}.method: ${g.method} streams; only unary methods can be load-tested`);
    return undefined;
  }
  return root.lookupType(method.resolvedRequestType?.fullName ?? method.requestType);
}

function servicesOf(ns: protobuf.NamespaceBase): string[] {
  const out: string[] = [];
  for (const child of ns.nestedArray) {
    if (child instanceof protobuf.Service) out.push(child.fullName.replace(/^\./, ''));
    else if (child instanceof protobuf.Namespace) out.push(...servicesOf(child));
  }
  return out;
}

/** Why `message` does not fit `type`, or undefined: unknown fields, and protobufjs' type check. */
export function messageProblem(type: protobuf.Type, message: unknown): string | undefined {
  if (message === null || typeof message !== 'object' || Array.isArray(message)) {
    return `must be an object (a ${type.name} message)`;
  }
  const unknown = Object.keys(message).filter((k) => !type.fields[k]);
  if (unknown.length) {
    return `${unknown.join(', ')}: not a field of ${type.name} (fields: ${Object.keys(type.fields).join(', ')})`;
  }
  const problem = type.verify(fromJsonForm(type, message as Record<string, unknown>));
  return problem ? `${problem} (in a ${type.name} message)` : undefined;
}

const LONG_TYPES = new Set(['int64', 'uint64', 'sint64', 'fixed64', 'sfixed64']);

/**
 * The proto3 JSON form brought to what protobufjs' verify expects (the serialiser takes both):
 * enum values by name become their numbers, 64-bit integers written as strings become numbers, in
 * nested messages and lists too. Anything else is left for verify to judge.
 */
function fromJsonForm(type: protobuf.Type, message: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...message };
  for (const [name, value] of Object.entries(message)) {
    const field = type.fields[name];
    if (!field || value === null || value === undefined) continue;
    field.resolve();
    const one = (v: unknown): unknown => {
      if (field.resolvedType instanceof protobuf.Enum && typeof v === 'string' && v in field.resolvedType.values) {
        return field.resolvedType.values[v];
      }
      if (LONG_TYPES.has(field.type) && typeof v === 'string' && /^-?\d+$/.test(v)) return Number(v);
      if (field.resolvedType instanceof protobuf.Type && v !== null && typeof v === 'object' && !Array.isArray(v)) {
        return fromJsonForm(field.resolvedType, v as Record<string, unknown>);
      }
      return v;
    };
    out[name] = field.repeated && Array.isArray(value) ? value.map(one) : field.map ? value : one(value);
  }
  return out;
}

/**
 * Checks every gRPC scenario's proto, service, method and messages; returns problem lines. Each
 * scenario's descriptor is kept in `descriptors` (by proto file) for the plan.
 */
export function checkGrpcScenarios(
  scenarios: readonly Scenario[],
  reader: ProtoReader,
  readBodies: (file: string) => unknown[],
  descriptors: Map<string, ProtoDescriptor> = new Map(),
): string[] {
  const problems: string[] = [];
  scenarios.forEach((s, i) => {
    if (s.target.kind !== 'grpc') return;
    const g = s.target.grpc;
    const at = `scenarios[${i}].grpc`;
    let root: protobuf.Root;
    try {
      root = loadProto(g.protoFile, reader);
    } catch (err) {
      problems.push(`${at}.proto: ${g.proto}: ${(err as Error).message}`);
      return;
    }
    descriptors.set(g.protoFile, root.toJSON() as ProtoDescriptor);
    const type = requestType(root, g, at, problems);
    if (!type) return;
    if (g.message !== undefined) {
      const problem = messageProblem(type, g.message);
      if (problem) problems.push(`${at}.message: ${problem}`);
    }
    if (g.bodiesFile !== undefined) {
      let bodies: unknown[];
      try {
        bodies = readBodies(g.bodiesFile);
      } catch (err) {
        problems.push(`${at}.bodies: ${(err as Error).message}`);
        return;
      }
      bodies.forEach((b, j) => {
        const problem = messageProblem(type, b);
        if (problem && problems.length < 20) problems.push(`${at}.bodies: line ${j + 1}: ${problem}`);
      });
    }
  });
  return problems;
}

/** A JSONL file of request messages: one JSON object per non-empty line. */
export function readMessages(file: string, fs: ReadFs): unknown[] {
  const out = parseJsonl(fs.readText(file), (n) => `line ${n}`);
  if (out.length === 0) throw new Error('no messages (one JSON object per line expected)');
  return out;
}

/** Imports resolved beside the importing file, through the workspace resolver. */
export function workspaceProtoReader(resolveIn: (baseDir: string, relative: string) => string): ProtoReader {
  return { resolveImport: (origin, target) => resolveIn(dirname(resolve(origin)), target) };
}

/**
 * A unary method's HTTP/2 path and its request messages serialised (protobuf, base64), as the
 * runner sends them: the plan carries bytes, so the runner needs no proto library.
 */
export function encodeGrpcCalls(
  descriptor: ProtoDescriptor,
  service: string,
  method: string,
  messages: readonly unknown[],
): { path: string; messages: string[] } {
  const root = protobuf.Root.fromJSON(descriptor as protobuf.INamespace);
  const m = root.lookupService(service).methods[method];
  if (!m) throw new Error(`${service}/${method}: not in the proto`);
  m.resolve();
  const type = m.resolvedRequestType ?? root.lookupType(m.requestType);
  return {
    path: `/${service}/${method}`,
    messages: messages.map((msg) =>
      Buffer.from(type.encode(type.fromObject(msg as Record<string, unknown>)).finish()).toString('base64'),
    ),
  };
}
