import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { mergeOverrides, overrideYaml, RESET, sideBySide } from '../../src/docker/side-by-side.js';
import type { ComposeModel } from '../../src/docker/compose.js';

const P = 'perfgate-abc-head';
const ROOT = '/repo';
const model = (services: Record<string, unknown>, rest: Partial<ComposeModel> = {}): ComposeModel => ({
  services,
  networks: { default: { name: `${P}_default` } as never },
  ...rest,
});

describe('sideBySide: what two copies of one project collide on', () => {
  const cases: Array<{
    name: string;
    model: ComposeModel;
    override?: unknown;
    changes?: RegExp[];
    blockers?: RegExp[];
  }> = [
    {
      name: 'nothing fixed: nothing to change',
      model: model({ web: { image: 'nginx', ports: [{ target: 80, protocol: 'tcp' }], networks: { default: null } } }),
      override: {},
      changes: [],
      blockers: [],
    },
    {
      name: 'a fixed host port is not published (the runner uses the network)',
      model: model({
        web: {
          image: 'nginx',
          ports: [
            { target: 80, published: '8080', protocol: 'tcp' },
            { target: 53, published: '53', protocol: 'udp', host_ip: '127.0.0.1' },
          ],
        },
      }),
      override: { services: { web: { ports: RESET } } },
      changes: [/service web: published ports 8080:80, 127\.0\.0\.1:53:53\/udp not published/],
    },
    {
      name: 'container_name is dropped and kept as an alias on each of its networks',
      model: model({ db: { image: 'postgres', container_name: 'pg', networks: { default: null, back: null } } }),
      override: {
        services: {
          db: { container_name: RESET, networks: { default: { aliases: ['pg'] }, back: { aliases: ['pg'] } } },
        },
      },
      changes: [/container_name pg dropped \(kept as its alias on default, back\)/],
    },
    {
      name: 'container_name without networks (network_mode: service:x) is dropped',
      model: model({ side: { image: 'x', container_name: 'side', network_mode: 'service:web' } }),
      override: { services: { side: { container_name: RESET } } },
      changes: [/container_name side dropped$/],
    },
    {
      name: "a fixed network name and a fixed volume name become the project's own",
      model: model(
        { web: { image: 'x', networks: { front: null }, volumes: [{ type: 'volume', source: 'data', target: '/d' }] } },
        { networks: { front: { name: 'shared-front' } as never }, volumes: { data: { name: 'app-data' } as never } },
      ),
      override: { networks: { front: { name: RESET } }, volumes: { data: { name: RESET } } },
      changes: [/network front: fixed name shared-front/, /volume data: fixed name app-data/],
    },
    {
      name: 'a network or volume named as compose names it is left alone',
      model: model({ web: { image: 'x' } }, { volumes: { data: { name: `${P}_data` } as never } }),
      override: {},
    },
    {
      name: 'an image built under a fixed name gets the project default, and services that run it follow',
      model: model({
        web: { build: { context: '/repo' }, image: 'myapp:latest' },
        worker: { image: 'myapp:latest' },
        other: { image: 'redis' },
      }),
      override: { services: { web: { image: RESET }, worker: { image: `${P}-web` } } },
      changes: [
        /^service web: image myapp:latest built under the project's own name \(both sides build at once\)$/,
        /^service worker: runs the image service web builds, under the project's own name, instead of myapp:latest$/,
      ],
    },
    {
      name: 'host networking is a blocker',
      model: model({ web: { image: 'x', network_mode: 'host' } }),
      blockers: [/service web uses the host's network/],
    },
    {
      name: 'a device is a blocker',
      model: model({ web: { image: 'x', devices: [{ source: '/dev/fuse', target: '/dev/fuse' }] } }),
      blockers: [/service web maps the host's device \/dev\/fuse/],
    },
    {
      name: 'a writable host path outside the tree is a blocker; inside the tree, read-only or a socket is not',
      model: model({
        web: {
          image: 'x',
          volumes: [
            { type: 'bind', source: '/srv/data', target: '/data' },
            { type: 'bind', source: '/repo/conf', target: '/conf' },
            { type: 'bind', source: '/repo', target: '/app' },
            { type: 'bind', source: '/repository-other/x', target: '/x' },
            { type: 'bind', source: '/etc/hosts', target: '/h', read_only: true },
            { type: 'bind', source: '/var/run/docker.sock', target: '/var/run/docker.sock' },
            { type: 'bind', source: '/var/run/', target: '/host/var/run/' },
            { type: 'bind', source: '/sys/kernel/debug', target: '/sys/kernel/debug' },
            { type: 'bind', source: '/etc/pihole/', target: '/etc/pihole/' },
          ],
        },
      }),
      blockers: [
        /mounts the host's \/srv\/data writable/,
        /mounts the host's \/repository-other\/x writable/,
        /mounts the host's \/etc\/pihole\/ writable/,
      ],
    },
    {
      name: 'an external network or volume in use is a blocker; one nobody uses is not',
      model: model(
        {
          web: {
            image: 'x',
            networks: { proxy: null },
            volumes: [{ type: 'volume', source: 'certs', target: '/c' }],
          },
        },
        {
          networks: { proxy: { external: true, name: 'traefik' } as never, unused: { external: true } as never },
          volumes: { certs: { external: true, name: 'certs' } as never },
        },
      ),
      blockers: [/network proxy is external \(traefik\)/, /volume certs is external \(certs\)/],
    },
    {
      name: 'network_mode container:<a container_name of the project> becomes service:<its service>',
      model: model({
        web: { image: 'x', container_name: 'web1', networks: { default: null } },
        side: { image: 'y', network_mode: 'container:web1' },
      }),
      override: {
        services: {
          web: { container_name: RESET, networks: { default: { aliases: ['web1'] } } },
          side: { network_mode: 'service:web' },
        },
      },
      changes: [/container_name web1 dropped/, /^service side: network_mode container:web1 is service:web/],
    },
    {
      name: "another container's network, volumes from a container, a fixed subnet, a volume bound to a host path: blockers",
      model: model(
        {
          a: { image: 'x', network_mode: 'container:outside' },
          b: {
            image: 'x',
            volumes_from: ['container:data'],
            volumes: [{ type: 'volume', source: 'store', target: '/s' }],
          },
        },
        {
          networks: {
            default: { name: `${P}_default` } as never,
            fixed: { ipam: { config: [{ subnet: '172.28.0.0/16' }] } } as never,
          },
          volumes: { store: { driver_opts: { type: 'none', o: 'bind', device: '/srv/data' } } as never },
        },
      ),
      blockers: [
        /^service a joins container outside's network, which is not this project's$/,
        /^service b takes volumes from container data/,
        /^network fixed fixes its subnet 172\.28\.0\.0\/16/,
        /^volume store binds the host's \/srv\/data/,
      ],
    },
    {
      name: 'an IPv6 host address in brackets; a long range named ten and counted',
      model: model({
        web: {
          image: 'x',
          ports: [
            { target: 443, published: '8443', host_ip: '::1' },
            ...Array.from({ length: 20 }, (_, i) => ({ target: 10000 + i, published: String(10000 + i) })),
          ],
        },
      }),
      changes: [/^service web: published ports \[::1\]:8443:443, 10000:10000, .* and 11 more not published$/],
    },
    {
      name: 'a tmpfs volume (driver_opts device: tmpfs, as docker-kong has) is no host path',
      model: model(
        { web: { image: 'x', volumes: [{ type: 'volume', source: 'tmp', target: '/t' }] } },
        { volumes: { tmp: { driver_opts: { type: 'tmpfs', device: 'tmpfs' } } as never } },
      ),
      blockers: [],
    },
    {
      name: '/etc/localtime mounted writable is shared as it is',
      model: model({
        web: { image: 'x', volumes: [{ type: 'bind', source: '/etc/localtime', target: '/etc/localtime' }] },
      }),
      blockers: [],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const s = sideBySide(c.model, P, ROOT);
      if (c.override !== undefined) expect(s.override).toEqual(c.override);
      if (c.changes !== undefined) {
        expect(s.changes).toHaveLength(c.changes.length);
        c.changes.forEach((re, i) => expect(s.changes[i]).toMatch(re));
      }
      expect(s.blockers).toHaveLength(c.blockers?.length ?? 0);
      (c.blockers ?? []).forEach((re, i) => expect(s.blockers[i]).toMatch(re));
    });
  }
});

describe('overrideYaml', () => {
  it("writes RESET as compose's !reset tag, and everything else as plain YAML", () => {
    const text = overrideYaml({
      services: {
        web: { ports: RESET, container_name: RESET, networks: { default: { aliases: ['pg'] } }, labels: { a: 'b' } },
      },
    });
    expect(text).toContain('ports: !reset null');
    expect(text).toContain('container_name: !reset null');
    const doc = parseDocument(text);
    expect(doc.errors).toEqual([]);
    expect(doc.getIn(['services', 'web', 'networks', 'default', 'aliases'])?.toString()).toContain('pg');
    expect(doc.getIn(['services', 'web', 'labels', 'a'])).toBe('b');
  });
  it('quotes a hostile name so it stays one scalar', () => {
    const text = overrideYaml({ services: { 'a: b\n c': { image: 'x\n- y: !reset' } } });
    const doc = parseDocument(text);
    expect(doc.errors).toEqual([]);
    expect(doc.toJS()).toEqual({ services: { 'a: b\n c': { image: 'x\n- y: !reset' } } });
  });
});

describe('mergeOverrides', () => {
  it('merges mappings and lets the second win on scalars', () => {
    expect(
      mergeOverrides(
        {
          services: { web: { labels: { a: '1' }, build: { labels: { a: '1' } } } },
          networks: { n: { labels: { a: '1' } } },
        },
        { services: { web: { ports: RESET, image: RESET }, db: { container_name: RESET } } },
      ),
    ).toEqual({
      services: {
        web: { labels: { a: '1' }, build: { labels: { a: '1' } }, ports: RESET, image: RESET },
        db: { container_name: RESET },
      },
      networks: { n: { labels: { a: '1' } } },
    });
  });
});
