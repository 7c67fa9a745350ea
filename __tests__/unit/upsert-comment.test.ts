import { describe, expect, it } from 'vitest';
import {
  ACTIONS_BOT,
  upsertComment,
  type CommentsApi,
  type IssueComment,
  type UpsertResult,
} from '../../src/action/github.js';
import { reportMarker } from '../../src/report/markdown.js';

/** An in-memory issue: comments, who the token is, and a log of every call. */
class FakeComments implements CommentsApi {
  comments: IssueComment[] = [];
  calls: string[] = [];
  private nextId = 1000;

  constructor(
    /** what viewerLogin() answers */
    private readonly login: string | undefined,
    /** the issue this fake holds */
    private readonly issue = 7,
    /** the REST login of comments this token creates (GraphQL names bots without "[bot]") */
    private readonly restLogin?: string,
  ) {}

  /** the login comments created by this token are shown with */
  get author(): string {
    return this.restLogin ?? this.login ?? ACTIONS_BOT;
  }

  add(login: string | null, body: string): IssueComment {
    const c: IssueComment = { id: this.nextId++, body, user: login === null ? null : { login, type: 'User' } };
    this.comments.push(c);
    return c;
  }

  async viewerLogin(): Promise<string | undefined> {
    this.calls.push('viewer');
    return this.login;
  }

  async listComments(issue: number): Promise<IssueComment[]> {
    this.calls.push(`list ${issue}`);
    expect(issue).toBe(this.issue);
    return this.comments.map((c) => ({ ...c, user: c.user && { ...c.user } }));
  }

  async createComment(issue: number, body: string): Promise<IssueComment> {
    this.calls.push(`create ${issue}`);
    expect(issue).toBe(this.issue);
    return { ...this.add(this.author, body) };
  }

  async updateComment(id: number, body: string): Promise<IssueComment> {
    this.calls.push(`update ${id}`);
    const c = this.comments.find((x) => x.id === id);
    if (!c) throw new Error(`404 comment ${id}`);
    c.body = body;
    return { ...c };
  }

  writes(): string[] {
    return this.calls.filter((c) => c.startsWith('create') || c.startsWith('update'));
  }
}

const MARKER = reportMarker('');
const report = (text: string, marker = MARKER) => `${marker}\n### ✅ perf-gate: ${text}\n`;

interface Case {
  whoami: string | undefined;
  /** REST login of the comments this token creates, when it differs from `whoami` */
  rest?: string;
  /** existing comments: [login, body]; `null` login = a deleted user */
  existing: Array<[string | null, string]>;
  /** index in `existing` of the comment that must be updated, 'new' for a created one, or 'same' */
  expected: number | 'new' | { unchanged: number };
}

describe('upsertComment', () => {
  const body = report('no regression');
  const old = report('1 regression');

  it.each<[string, Case]>([
    ['no comments at all: creates', { whoami: undefined, existing: [], expected: 'new' }],
    [
      'only other people’s comments: creates',
      {
        whoami: undefined,
        existing: [
          ['alice', 'LGTM'],
          ['bob', 'please rebase'],
        ],
        expected: 'new',
      },
    ],
    [
      'our comment: updates it in place',
      {
        whoami: undefined,
        existing: [
          ['alice', 'LGTM'],
          [ACTIONS_BOT, old],
        ],
        expected: 1,
      },
    ],
    [
      'our comment, same body: no write',
      { whoami: undefined, existing: [[ACTIONS_BOT, body]], expected: { unchanged: 0 } },
    ],
    [
      'our other comments without the marker are not ours to reuse',
      { whoami: undefined, existing: [[ACTIONS_BOT, 'Thanks for the PR!']], expected: 'new' },
    ],
    [
      'the marker in another user’s comment (a quote): ignored',
      {
        whoami: undefined,
        existing: [
          ['alice', `> ${old}\nwhy is this slower?`],
          ['mallory', old],
        ],
        expected: 'new',
      },
    ],
    [
      'the marker in another bot’s comment: ignored',
      { whoami: undefined, existing: [['other-app[bot]', old]], expected: 'new' },
    ],
    [
      'someone else’s marker comment first, ours later: updates ours',
      {
        whoami: undefined,
        existing: [
          ['mallory', old],
          [ACTIONS_BOT, old],
        ],
        expected: 1,
      },
    ],
    [
      'whoami undefined falls back to github-actions[bot]',
      {
        whoami: undefined,
        existing: [
          ['my-app[bot]', old],
          ['github-actions[bot]', old],
        ],
        expected: 1,
      },
    ],
    [
      'whoami my-app[bot]: only that login counts',
      {
        whoami: 'my-app[bot]',
        existing: [
          [ACTIONS_BOT, old],
          ['my-app[bot]', old],
        ],
        expected: 1,
      },
    ],
    [
      'whoami my-app[bot]: github-actions[bot]’s marker comment is not ours',
      { whoami: 'my-app[bot]', existing: [[ACTIONS_BOT, old]], expected: 'new' },
    ],
    [
      'GraphQL viewer my-app (an App installation token): its my-app[bot] comment is ours',
      {
        whoami: 'my-app',
        rest: 'my-app[bot]',
        existing: [
          [ACTIONS_BOT, old],
          ['my-app[bot]', old],
        ],
        expected: 1,
      },
    ],
    [
      'GraphQL viewer github-actions (GITHUB_TOKEN): github-actions[bot] is ours',
      {
        whoami: 'github-actions',
        rest: ACTIONS_BOT,
        existing: [
          ['alice', old],
          [ACTIONS_BOT, old],
        ],
        expected: 1,
      },
    ],
    [
      'GraphQL viewer my-app: my-app-2[bot] and my-app-user are not ours',
      {
        whoami: 'my-app',
        rest: 'my-app[bot]',
        existing: [
          ['my-app-2[bot]', old],
          ['my-app-user', old],
        ],
        expected: 'new',
      },
    ],
    [
      'whoami a user (a PAT): that user’s marker comment',
      {
        whoami: 'perf-bot',
        existing: [
          ['alice', old],
          ['perf-bot', old],
        ],
        expected: 1,
      },
    ],
    [
      'a report for another id: not ours',
      { whoami: undefined, existing: [[ACTIONS_BOT, report('x', reportMarker('windows'))]], expected: 'new' },
    ],
    [
      'comments by deleted users (user null) are skipped',
      {
        whoami: undefined,
        existing: [
          [null, old],
          [ACTIONS_BOT, old],
        ],
        expected: 1,
      },
    ],
  ])('%s', async (_label, c) => {
    const api = new FakeComments(c.whoami, 7, c.rest);
    const before = c.existing.map(([login, text]) => api.add(login, text));
    const snapshot = before.map((x) => ({ ...x }));
    const result = await upsertComment(api, 7, MARKER, body);

    if (c.expected === 'new') {
      expect(result.action).toBe('created');
      expect(api.writes()).toEqual(['create 7']);
      expect(api.comments).toHaveLength(before.length + 1);
      const created = api.comments.at(-1) as IssueComment;
      expect(result.id).toBe(created.id);
      expect(created.body).toBe(body);
      expect(created.user?.login).toBe(c.rest ?? c.whoami ?? ACTIONS_BOT);
    } else if (typeof c.expected === 'number') {
      const target = before[c.expected] as IssueComment;
      expect(result).toEqual<UpsertResult>({ action: 'updated', id: target.id });
      expect(api.writes()).toEqual([`update ${target.id}`]);
      expect(target.body).toBe(body);
      expect(api.comments).toHaveLength(before.length);
    } else {
      const target = before[c.expected.unchanged] as IssueComment;
      expect(result).toEqual<UpsertResult>({ action: 'unchanged', id: target.id });
      expect(api.writes()).toEqual([]);
    }
    // nobody else's comment was touched
    const touched = typeof c.expected === 'number' ? c.expected : -1;
    before.forEach((x, i) => {
      if (i !== touched) expect(x).toEqual(snapshot[i]);
    });
  });

  it.each([0, 99, 100, 101, 237, 249])(
    'finds ours at position %i among 250 comments (more than two pages) and updates it',
    async (position) => {
      const api = new FakeComments(undefined);
      for (let i = 0; i < 250; i++) {
        if (i === position) api.add(ACTIONS_BOT, old);
        else api.add(i % 3 === 0 ? 'mallory' : `user-${i}`, i % 3 === 0 ? old : `comment ${i}`);
      }
      const ours = api.comments[position] as IssueComment;
      const result = await upsertComment(api, 7, MARKER, body);
      expect(result).toEqual({ action: 'updated', id: ours.id });
      expect(api.writes()).toEqual([`update ${ours.id}`]);
      expect(api.comments).toHaveLength(250);
      expect(api.comments.filter((c) => c.body === body)).toEqual([ours]);
    },
  );

  it('create: false refreshes our comment but never creates one (on-regression without a regression)', async () => {
    const api = new FakeComments(undefined);
    api.add('alice', old);
    expect(await upsertComment(api, 7, MARKER, body, false)).toEqual({ action: 'none', id: null });
    expect(api.writes()).toEqual([]);
    const ours = api.add(ACTIONS_BOT, old);
    expect(await upsertComment(api, 7, MARKER, body, false)).toEqual({ action: 'updated', id: ours.id });
    expect(ours.body).toBe(body);
  });

  it('250 comments, ours the last one, unchanged: no write', async () => {
    const api = new FakeComments('my-app[bot]');
    for (let i = 0; i < 249; i++) api.add(`user-${i}`, i % 2 ? old : `comment ${i}`);
    const ours = api.add('my-app[bot]', body);
    expect(await upsertComment(api, 7, MARKER, body)).toEqual({ action: 'unchanged', id: ours.id });
    expect(api.writes()).toEqual([]);
  });

  it('create, then unchanged, then update: always one comment per marker', async () => {
    const api = new FakeComments(undefined);
    api.add('alice', 'LGTM');
    const first = await upsertComment(api, 7, MARKER, old);
    expect(first.action).toBe('created');
    const second = await upsertComment(api, 7, MARKER, old);
    expect(second).toEqual({ action: 'unchanged', id: first.id });
    const third = await upsertComment(api, 7, MARKER, body);
    expect(third).toEqual({ action: 'updated', id: first.id });
    expect(api.comments.filter((c) => c.body.includes(MARKER))).toHaveLength(1);
    expect(api.writes()).toEqual(['create 7', `update ${first.id}`]);
  });

  it('report ids keep separate comments (matrix legs)', async () => {
    const api = new FakeComments(undefined);
    const ids = ['linux', 'linux-arm', 'windows', ''];
    const created = [];
    for (const id of ids)
      created.push(await upsertComment(api, 7, reportMarker(id), report(`first ${id}`, reportMarker(id))));
    expect(created.map((r) => r.action)).toEqual(['created', 'created', 'created', 'created']);
    for (const id of ids) {
      const r = await upsertComment(api, 7, reportMarker(id), report(`second ${id}`, reportMarker(id)));
      expect(r).toEqual({ action: 'updated', id: created[ids.indexOf(id)]?.id });
    }
    expect(api.comments.map((c) => c.body)).toEqual(ids.map((id) => report(`second ${id}`, reportMarker(id))));
  });

  it('asks who it is, lists the issue’s comments, then writes at most once', async () => {
    const api = new FakeComments(undefined);
    await upsertComment(api, 7, MARKER, body);
    expect(api.calls).toEqual(['viewer', 'list 7', 'create 7']);
  });
});
