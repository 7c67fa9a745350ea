// Pure: what `validate` finds in a config against its compose project (as `docker compose config`
// resolved it) that `run` would otherwise find minutes in: a scenario or probe whose host is no name in
// the project (a typo, a service that is not there), and `gate.against: base-ref` on a project that
// cannot boot twice side by side. Problems are `key.path: message`, located by the caller.
import type { ComposeModel } from './compose.js';
import { protocolOf, urlKeyOf } from '../protocols/index.js';
import { hostnameOf } from '../config/normalize.js';
import { didYouMean } from '../text/did-you-mean.js';
import type { Config } from '../config-parts/types.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});

/** Every name a container of the project answers to on its networks: service names, container_name,
 * network aliases, and the aliases of `links`. */
export function projectNames(model: ComposeModel): { services: string[]; names: Set<string> } {
  const services = Object.keys(model.services);
  const names = new Set(services);
  for (const raw of Object.values(model.services)) {
    const def = obj(raw);
    if (typeof def.container_name === 'string') names.add(def.container_name);
    for (const net of Object.values(obj(def.networks))) {
      for (const a of Array.isArray(obj(net).aliases) ? (obj(net).aliases as unknown[]) : []) names.add(String(a));
    }
    for (const link of Array.isArray(def.links) ? def.links : []) {
      const alias = String(link).split(':').at(-1);
      if (alias) names.add(alias);
    }
  }
  return { services, names };
}

/** The services `compose up` starts for `asked` (none: every service), each with what it depends on. */
export function startedServices(model: ComposeModel, asked: readonly string[]): Set<string> {
  if (asked.length === 0) return new Set(Object.keys(model.services));
  const out = new Set<string>();
  const todo = [...asked];
  for (let s = todo.pop(); s !== undefined; s = todo.pop()) {
    if (out.has(s) || !Object.hasOwn(model.services, s)) continue;
    out.add(s);
    // `compose config` writes depends_on as a map; a file may give a list
    const deps = obj(model.services[s]).depends_on;
    todo.push(...(Array.isArray(deps) ? deps.map(String) : Object.keys(obj(deps))));
  }
  return out;
}

export function composeProblems(
  config: Pick<Config, 'scenarios' | 'sut' | 'gate'>,
  model: ComposeModel,
  blockers: string[],
): { problems: string[]; notes: string[] } {
  const problems: string[] = [];
  const notes: string[] = [];
  const { services, names } = projectNames(model);
  const lower = new Set([...names].map((n) => n.toLowerCase()));
  const check = (url: string, at: string) => {
    // a ${NAME} is filled in at run time: not known here
    if (url.includes('${')) return;
    const host = hostnameOf(url);
    if (host === undefined || lower.has(host) || /^[\d.]+$|^\[/.test(host)) return;
    if (host.includes('.')) {
      notes.push(`${at}: ${host} is not a name in the compose project: the runner resolves it through DNS`);
      return;
    }
    problems.push(
      `${at}: ${host} is not a service of the compose project (services: ${services.join(', ') || 'none'})${didYouMean(host, [...names])}`,
    );
  };
  config.sut.ready.forEach((r, i) => check(r.url, `sut.ready[${i}].url`));
  const up = startedServices(model, config.sut.services);
  for (const p of config.sut.profile) {
    const at = `sut.profile.${p.service}`;
    if (!services.includes(p.service)) {
      problems.push(
        `${at}: ${p.service} is not a service of the compose project (services: ${services.join(', ') || 'none'})${didYouMean(p.service, services)}`,
      );
    } else if (!up.has(p.service)) {
      problems.push(
        `${at}: ${p.service} is not started (sut.services: ${config.sut.services.join(', ')}, and what they depend on): add it to sut.services`,
      );
    } else if ('url' in p) check(p.url, at);
  }
  config.scenarios.forEach((s, i) =>
    check(protocolOf(s.target).url(s.target), `scenarios[${i}].${urlKeyOf(s.target)}`),
  );
  if (config.gate.against === 'base-ref' && blockers.length > 0) {
    problems.push(
      `gate.against: base-ref boots head and base side by side, and this project cannot boot twice: ${blockers.join('; ')}; gate against baselines`,
    );
  }
  return { problems, notes };
}
