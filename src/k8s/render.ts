// Pure: the Kubernetes manifests of one trial run by runner replicas (`perf-gate render k8s`), the
// same protocol as on Docker Swarm (docs/distributed.md): an Indexed Job of `runner.replicas` pods
// (each reads its index from JOB_COMPLETION_INDEX, which Kubernetes sets), the plan with the trial and
// its common start in a ConfigMap, the gzipped runner script in another, and the RBAC perf-gate itself
// would need to create, watch, read the logs of and delete them. Nothing here talks to a cluster.
import { gzipSync } from 'node:zlib';
// types only (erased from the bundle): the compiler holds every field name below to the Kubernetes API
import type { IJob } from 'kubernetes-models/batch/v1/Job';
import type { IRole } from 'kubernetes-models/rbac.authorization.k8s.io/v1/Role';
import type { IRoleBinding } from 'kubernetes-models/rbac.authorization.k8s.io/v1/RoleBinding';
import type { IAffinity } from 'kubernetes-models/v1/Affinity';
import type { IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { IPodSpec } from 'kubernetes-models/v1/PodSpec';
import type { IServiceAccount } from 'kubernetes-models/v1/ServiceAccount';
import type { RunnerPlan, TrialOrder } from '../runner-kit/plan.js';
import { REPLICA_BOOT } from '../session/replica-boot.js';

export interface K8sInput {
  runId: string;
  namespace: string;
  image: string;
  replicas: number;
  cpus?: number;
  placement?: { constraints: string[]; maxPerNode?: number };
  /** the plan as the runners get it, without the trial (secrets left as ${NAME}) */
  plan: RunnerPlan;
  trial: TrialOrder;
  startAtEpochMs: number;
  /** how long the Job may run, s (the trial's warm-up, duration, timeouts and slack, plus the lead) */
  deadlineS: number;
  script: string;
}

export type K8sObject = IServiceAccount | IRole | IRoleBinding | IConfigMap | IJob;

/** Every object perf-gate creates carries these; the run id finds them for deletion. */
function labels(runId: string): Record<string, string> {
  return { 'app.kubernetes.io/managed-by': 'perf-gate', 'dev.perf-gate.run-id': runId };
}

/** A swarm placement constraint as a node-affinity expression; throws for one Kubernetes has no label for. */
export function nodeExpression(constraint: string): { key: string; operator: 'In' | 'NotIn'; values: string[] } {
  const m = /^([A-Za-z0-9_.-]+)\s*(==|!=)\s*(.+)$/.exec(constraint.trim());
  if (!m) throw new Error(`${constraint}: not a placement constraint`);
  const [, field = '', op, value = ''] = m;
  const operator = op === '==' ? 'In' : 'NotIn';
  const known: Record<string, string> = {
    'node.hostname': 'kubernetes.io/hostname',
    'node.platform.os': 'kubernetes.io/os',
    'node.platform.arch': 'kubernetes.io/arch',
  };
  const key = field.startsWith('node.labels.') ? field.slice('node.labels.'.length) : known[field];
  if (!key) {
    throw new Error(
      `${constraint}: ${field} has no Kubernetes node label (node.labels.*, node.hostname, node.platform.os and node.platform.arch do)`,
    );
  }
  return { key, operator, values: [value.trim()] };
}

/** The manifests, in the order to apply them. */
export function renderK8s(input: K8sInput): K8sObject[] {
  const { runId, namespace } = input;
  const meta = (name: string) => ({ name, namespace, labels: labels(runId) });
  const scriptName = `perfgate-${runId}-runner-script`;
  const planName = `perfgate-${runId}-plan-1`;
  const jobName = `perfgate-${runId}-runner-1`;
  const plan: RunnerPlan = {
    ...input.plan,
    replicas: { count: input.replicas, trial: input.trial, startAtEpochMs: input.startAtEpochMs },
  };
  const podLabels = { ...labels(runId), 'dev.perf-gate.job': jobName };
  const affinity: IAffinity = {};
  const expressions = (input.placement?.constraints ?? []).map(nodeExpression);
  if (expressions.length > 0) {
    affinity.nodeAffinity = {
      requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: expressions }] },
    };
  }
  const maxPerNode = input.placement?.maxPerNode;
  if (maxPerNode === 1) {
    affinity.podAntiAffinity = {
      requiredDuringSchedulingIgnoredDuringExecution: [
        { labelSelector: { matchLabels: { 'dev.perf-gate.job': jobName } }, topologyKey: 'kubernetes.io/hostname' },
      ],
    };
  }
  const podSpec: IPodSpec = {
    restartPolicy: 'Never',
    automountServiceAccountToken: false,
    enableServiceLinks: false,
    containers: [
      {
        name: 'runner',
        image: input.image,
        command: ['node', '-e', REPLICA_BOOT],
        env: [{ name: 'NODE_ENV', value: 'production' }],
        ...(input.cpus !== undefined ? { resources: { limits: { cpu: String(input.cpus) } } } : {}),
        securityContext: {
          readOnlyRootFilesystem: true,
          allowPrivilegeEscalation: false,
          capabilities: { drop: ['ALL'] },
        },
        volumeMounts: [
          { name: 'perf-gate', mountPath: '/perf-gate', readOnly: true },
          { name: 'tmp', mountPath: '/tmp' },
        ],
      },
    ],
    volumes: [
      {
        name: 'perf-gate',
        projected: {
          sources: [
            { configMap: { name: scriptName, items: [{ key: 'runner.mjs.gz', path: 'runner.mjs.gz' }] } },
            { configMap: { name: planName, items: [{ key: 'plan.json', path: 'plan.json' }] } },
          ],
        },
      },
      { name: 'tmp', emptyDir: { medium: 'Memory', sizeLimit: '64Mi' } },
    ],
    ...(Object.keys(affinity).length > 0 ? { affinity } : {}),
    // more than one a node: spread them as evenly as the nodes allow (Kubernetes bounds skew, not a count)
    ...(maxPerNode !== undefined && maxPerNode > 1
      ? {
          topologySpreadConstraints: [
            {
              maxSkew: maxPerNode,
              topologyKey: 'kubernetes.io/hostname',
              whenUnsatisfiable: 'DoNotSchedule',
              labelSelector: { matchLabels: { 'dev.perf-gate.job': jobName } },
            },
          ],
        }
      : {}),
  };
  const serviceAccount: IServiceAccount = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: meta('perf-gate') };
  const role: IRole = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'Role',
    metadata: meta('perf-gate'),
    rules: [
      { apiGroups: [''], resources: ['configmaps'], verbs: ['create', 'get', 'list', 'delete', 'deletecollection'] },
      {
        apiGroups: ['batch'],
        resources: ['jobs'],
        verbs: ['create', 'get', 'list', 'watch', 'delete', 'deletecollection'],
      },
      { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: [''], resources: ['pods/log'], verbs: ['get'] },
    ],
  };
  const binding: IRoleBinding = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: meta('perf-gate'),
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'perf-gate' },
    subjects: [{ kind: 'ServiceAccount', name: 'perf-gate', namespace }],
  };
  const script: IConfigMap = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: meta(scriptName),
    binaryData: { 'runner.mjs.gz': gzipSync(input.script).toString('base64') },
  };
  const planMap: IConfigMap = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: meta(planName),
    data: { 'plan.json': JSON.stringify(plan) },
  };
  const job: IJob = {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: meta(jobName),
    spec: {
      completionMode: 'Indexed',
      completions: input.replicas,
      parallelism: input.replicas,
      // a replica that fails fails the trial: never a second try that would start late
      backoffLimit: 0,
      activeDeadlineSeconds: Math.max(1, Math.ceil(input.deadlineS)),
      ttlSecondsAfterFinished: 600,
      template: { metadata: { labels: podLabels }, spec: podSpec },
    },
  };
  return [serviceAccount, role, binding, script, planMap, job];
}
