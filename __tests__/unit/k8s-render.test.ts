// `perf-gate render k8s`: the manifests are checked against the Kubernetes API's own schemas (the
// validators kubernetes-models generates from the OpenAPI spec) and, field by field, by the compiler
// (src/k8s/render.ts builds them as that package's types); no cluster is reachable here. And they say
// what the protocol needs: one pod per replica, each with its index, the plan and script mounted.
import { gunzipSync } from 'node:zlib';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { Role } from 'kubernetes-models/rbac.authorization.k8s.io/v1/Role';
import { RoleBinding } from 'kubernetes-models/rbac.authorization.k8s.io/v1/RoleBinding';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { ServiceAccount } from 'kubernetes-models/v1/ServiceAccount';
import { type ReadFs, realReadFs } from '../../src/common/read-fs.js';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { renderK8sCommand } from '../../src/k8s/command.js';
import { type K8sObject, nodeExpression, renderK8s } from '../../src/k8s/render.js';
import { replicaIndex } from '../../src/runner-kit/replicas.js';
import type { RunnerPlan } from '../../src/runner-kit/plan.js';
import { REPLICA_BOOT } from '../../src/session/replica-boot.js';

const PLAN: RunnerPlan = {
  version: 1,
  progressIntervalMs: 1000,
  requestTimeoutMs: 10_000,
  workers: 1,
  ready: [{ url: 'http://api:8080/health', timeoutMs: 60_000 }],
  scenarios: [
    {
      name: 'work',
      target: {
        kind: 'http',
        request: { url: 'http://api:8080/work', method: 'GET', headers: { authorization: 'Bearer ${TOKEN}' } },
      },
      warmupMs: 300,
      trials: 3,
      phases: [{ kind: 'open', name: 'r300', rate: 300, durationMs: 1000, maxInFlight: 30 }],
    },
  ],
};

function render(over: Partial<Parameters<typeof renderK8s>[0]> = {}): K8sObject[] {
  return renderK8s({
    runId: 'abc123',
    namespace: 'load',
    image: 'node:22-slim',
    replicas: 3,
    plan: PLAN,
    trial: { scenario: 'work', phase: 'r300', trial: 1, trials: 3 },
    startAtEpochMs: 1_800_000_000_000,
    deadlineS: 75.2,
    script: 'console.log("runner")',
    ...over,
  });
}

/** The API's validator of each kind; throws on a document that does not fit. */
function validate(doc: K8sObject): void {
  switch (doc.kind) {
    case 'Job':
      return new Job(doc).validate();
    case 'ConfigMap':
      return new ConfigMap(doc).validate();
    case 'Role':
      return new Role(doc).validate();
    case 'RoleBinding':
      return new RoleBinding(doc).validate();
    case 'ServiceAccount':
      return new ServiceAccount(doc).validate();
  }
}

const jobOf = (docs: K8sObject[]) => docs.find((d): d is Job => d.kind === 'Job') as Job;

describe('render k8s: the manifests', () => {
  it('are valid Kubernetes objects, in the order to apply them', () => {
    const docs = render({ cpus: 1, placement: { constraints: ['node.labels.loadgen==true'], maxPerNode: 1 } });
    expect(docs.map((d) => `${d.kind}/${d.metadata?.name}`)).toEqual([
      'ServiceAccount/perf-gate',
      'Role/perf-gate',
      'RoleBinding/perf-gate',
      'ConfigMap/perfgate-abc123-runner-script',
      'ConfigMap/perfgate-abc123-plan-1',
      'Job/perfgate-abc123-runner-1',
    ]);
    for (const d of docs) {
      expect(() => validate(d)).not.toThrow();
      expect(d.metadata?.namespace).toBe('load');
      expect(d.metadata?.labels).toEqual({
        'app.kubernetes.io/managed-by': 'perf-gate',
        'dev.perf-gate.run-id': 'abc123',
      });
    }
  });

  it('the validator is not a rubber stamp: a broken Job is refused', () => {
    const job = jobOf(render());
    const broken = { ...job, spec: { ...job.spec, completionMode: 'Sometimes', completions: 'three' } };
    expect(() => new Job(broken as never).validate()).toThrow(/completionMode|completions/);
  });

  it('an Indexed Job of one pod per replica, never retried, bounded in time, gone ten minutes after', () => {
    const spec = jobOf(render({ replicas: 4 })).spec;
    expect(spec).toMatchObject({
      completionMode: 'Indexed',
      completions: 4,
      parallelism: 4,
      backoffLimit: 0,
      activeDeadlineSeconds: 76,
      ttlSecondsAfterFinished: 600,
    });
    const pod = spec?.template.spec;
    expect(pod).toMatchObject({ restartPolicy: 'Never', automountServiceAccountToken: false });
    const [c] = pod?.containers ?? [];
    expect(c?.command).toEqual(['node', '-e', REPLICA_BOOT]);
    expect(c?.securityContext).toEqual({
      readOnlyRootFilesystem: true,
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
    });
    expect(c?.volumeMounts).toEqual([
      { name: 'perf-gate', mountPath: '/perf-gate', readOnly: true },
      { name: 'tmp', mountPath: '/tmp' },
    ]);
    // the index each pod reads is the one Kubernetes sets in an Indexed Job
    expect(replicaIndex({ JOB_COMPLETION_INDEX: '3' }, 4)).toBe(3);
    expect(c?.env).toEqual([{ name: 'NODE_ENV', value: 'production' }]);
  });

  it('mounts the gzipped script and the plan, with the trial and its common start, where the boot reads them', () => {
    const docs = render();
    const [script, plan] = docs.filter((d): d is ConfigMap => d.kind === 'ConfigMap');
    expect(gunzipSync(Buffer.from(script?.binaryData?.['runner.mjs.gz'] ?? '', 'base64')).toString()).toBe(
      'console.log("runner")',
    );
    const p = JSON.parse(plan?.data?.['plan.json'] ?? '{}') as RunnerPlan;
    expect(p.replicas).toEqual({
      count: 3,
      trial: { scenario: 'work', phase: 'r300', trial: 1, trials: 3 },
      startAtEpochMs: 1_800_000_000_000,
    });
    // secrets stay placeholders in a file
    expect(JSON.stringify(p)).toContain('Bearer ${TOKEN}');
    const volume = jobOf(docs).spec?.template.spec?.volumes?.[0];
    expect(volume?.projected?.sources).toEqual([
      {
        configMap: { name: 'perfgate-abc123-runner-script', items: [{ key: 'runner.mjs.gz', path: 'runner.mjs.gz' }] },
      },
      { configMap: { name: 'perfgate-abc123-plan-1', items: [{ key: 'plan.json', path: 'plan.json' }] } },
    ]);
    expect(REPLICA_BOOT).toContain("'/perf-gate/runner.mjs.gz'");
    expect(REPLICA_BOOT).toContain("'/perf-gate/plan.json'");
  });

  it('RBAC: what perf-gate would create, watch, read and delete, in its namespace only', () => {
    const role = render().find((d): d is Role => d.kind === 'Role');
    expect(role?.rules).toEqual([
      { apiGroups: [''], resources: ['configmaps'], verbs: ['create', 'get', 'list', 'delete', 'deletecollection'] },
      {
        apiGroups: ['batch'],
        resources: ['jobs'],
        verbs: ['create', 'get', 'list', 'watch', 'delete', 'deletecollection'],
      },
      { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: [''], resources: ['pods/log'], verbs: ['get'] },
    ]);
  });

  it.each<
    [
      string,
      Parameters<typeof renderK8s>[0]['placement'],
      (pod: NonNullable<ReturnType<typeof jobOf>['spec']>['template']['spec']) => void,
    ]
  >([
    [
      'constraints become required node affinity; max-per-node 1 a required anti-affinity on the hostname',
      { constraints: ['node.labels.loadgen == true', 'node.platform.arch!=arm64'], maxPerNode: 1 },
      (pod) => {
        expect(pod?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms).toEqual([
          {
            matchExpressions: [
              { key: 'loadgen', operator: 'In', values: ['true'] },
              { key: 'kubernetes.io/arch', operator: 'NotIn', values: ['arm64'] },
            ],
          },
        ]);
        expect(pod?.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution).toEqual([
          {
            labelSelector: { matchLabels: { 'dev.perf-gate.job': 'perfgate-abc123-runner-1' } },
            topologyKey: 'kubernetes.io/hostname',
          },
        ]);
        expect(pod?.topologySpreadConstraints).toBeUndefined();
      },
    ],
    [
      'max-per-node 2: a topology spread of skew 2',
      { constraints: [], maxPerNode: 2 },
      (pod) => {
        expect(pod?.affinity).toBeUndefined();
        expect(pod?.topologySpreadConstraints).toEqual([
          {
            maxSkew: 2,
            topologyKey: 'kubernetes.io/hostname',
            whenUnsatisfiable: 'DoNotSchedule',
            labelSelector: { matchLabels: { 'dev.perf-gate.job': 'perfgate-abc123-runner-1' } },
          },
        ]);
      },
    ],
    ['no placement: none', undefined, (pod) => expect(pod?.affinity).toBeUndefined()],
  ])('placement: %s', (_label, placement, check) => {
    const docs = render(placement ? { placement } : {});
    check(jobOf(docs).spec?.template.spec);
    for (const d of docs) expect(() => validate(d)).not.toThrow();
  });

  it('a CPU limit per replica', () => {
    expect(jobOf(render({ cpus: 1.5 })).spec?.template.spec?.containers[0]?.resources).toEqual({
      limits: { cpu: '1.5' },
    });
  });
});

describe('nodeExpression: swarm constraints in Kubernetes terms', () => {
  it.each<[string, ReturnType<typeof nodeExpression> | string]>([
    ['node.labels.zone==eu-1', { key: 'zone', operator: 'In', values: ['eu-1'] }],
    ['node.hostname != worker-3', { key: 'kubernetes.io/hostname', operator: 'NotIn', values: ['worker-3'] }],
    ['node.platform.os==linux', { key: 'kubernetes.io/os', operator: 'In', values: ['linux'] }],
    ['node.role==worker', 'node.role==worker: node.role has no Kubernetes node label'],
    ['node.id==abc', 'node.id==abc: node.id has no Kubernetes node label'],
    ['engine.labels.x==y', 'engine.labels.x has no Kubernetes node label'],
  ])('%s', (constraint, expected) => {
    if (typeof expected === 'string') expect(() => nodeExpression(constraint)).toThrow(expected);
    else expect(nodeExpression(constraint)).toEqual(expected);
  });
});

describe('renderK8sCommand: a config file to YAML', () => {
  /** A config written to its own workspace, and what reading it goes through. */
  function configAt(text: string): { configFile: string; workspace: string; fs: ReadFs } {
    const dir = mkdtempSync(join(tmpdir(), 'perf-gate-k8s-'));
    writeFileSync(join(dir, 'perf-gate.yml'), text);
    return { configFile: join(dir, 'perf-gate.yml'), workspace: dir, fs: realReadFs };
  }
  const TARGET = `version: 1
target: http://api.load.svc:8080
runner: { image: node:22-slim, replicas: 2, network: perf, cpus: 1, placement: { max-per-node: 1 } }
scenarios:
  - name: work
    request: { url: /work }
    phases:
      - { name: c4, connections: 4, duration: 5s }
      - { name: r200, rate: 200, duration: 5s, max-in-flight: 20 }
`;

  it('renders the chosen phase as valid YAML documents with a header saying what they are', () => {
    const text = renderK8sCommand({
      ...configAt(TARGET),
      phase: 'r200',
      namespace: 'load',
      runId: 'r1',
      now: Date.UTC(2026, 10, 24, 12, 0, 0),
      script: 'x',
    });
    expect(text.split('\n')[0]).toBe(
      '# perf-gate render k8s: trial 1 of work/r200 on 2 runner replicas (an Indexed Job), namespace load, run r1.',
    );
    expect(text).toContain('Its common start is 2026-11-24T12:02:00.000Z');
    const docs = parseAllDocuments(text).map((d) => d.toJSON() as K8sObject);
    expect(docs.map((d) => d.kind)).toEqual(['ServiceAccount', 'Role', 'RoleBinding', 'ConfigMap', 'ConfigMap', 'Job']);
    for (const d of docs) expect(() => validate(d)).not.toThrow();
    const plan = JSON.parse((docs[4] as ConfigMap).data?.['plan.json'] ?? '{}') as RunnerPlan;
    expect(plan.replicas?.trial).toEqual({ scenario: 'work', phase: 'r200', trial: 1, trials: 5 });
    expect(plan.scenarios[0]?.target).toMatchObject({ request: { url: 'http://api.load.svc:8080/work' } });
  });

  it.each<[string, Partial<Parameters<typeof renderK8sCommand>[0]>, string, string]>([
    ['an unknown scenario', { scenario: 'nope' }, TARGET, '--scenario nope: no such scenario (known: work)'],
    ['an unknown phase', { phase: 'nope' }, TARGET, '--phase nope: no such phase of work (known: c4, r200)'],
    [
      'a constraint Kubernetes has no label for',
      {},
      TARGET.replace('placement: { max-per-node: 1 }', 'placement: { constraints: ["node.role==worker"] }'),
      'runner.placement.constraints[0]: node.role==worker: node.role has no Kubernetes node label',
    ],
  ])('refuses %s', (_label, over, text, message) => {
    expect(() =>
      renderK8sCommand({ ...configAt(text), namespace: 'load', runId: 'r1', now: 0, script: 'x', ...over }),
    ).toThrow(message);
  });
});
