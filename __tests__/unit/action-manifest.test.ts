// action.yml as the Actions runner loads it: the metadata syntax (no unknown property anywhere, an
// output with only a description), and the manifest agreeing with the code: every declared output is
// one the Action sets and the other way round, every input is one the Action reads with the same
// default, and runs.main / runs.post are files of the committed bundle.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { OUTPUT } from '../../src/action/constants.js';
import { readInputs } from '../../src/action/inputs.js';
import { actionMetadataProblems } from './action-metadata.js';

const ROOT = resolve(import.meta.dirname, '../..');
const TEXT = readFileSync(join(ROOT, 'action.yml'), 'utf8');
const MANIFEST = parse(TEXT) as {
  inputs: Record<string, { default?: string }>;
  outputs: Record<string, { description: string }>;
  runs: { using: string; main: string; post?: string };
};

const NODE = `name: x
description: d
runs:
  using: node24
  main: dist/main.js
`;

describe('action.yml against the action metadata syntax', () => {
  it("today's action.yml has no problem", () => {
    expect(actionMetadataProblems(TEXT)).toEqual([]);
  });

  it('refuses what made the Action fail to load: an output with a default (issue 18)', () => {
    // the same manifest with the output that shipped broken in a2dee3f
    const broken = TEXT.replace(
      /^outputs:\n/m,
      "outputs:\n  history:\n    description: A trend history file.\n    default: ''\n",
    );
    expect(broken).not.toBe(TEXT);
    const defaultLine = broken.split('\n').indexOf('outputs:') + 4;
    expect(actionMetadataProblems(broken)).toEqual([`${defaultLine}: outputs.history: unknown property default`]);
  });

  const cases: Array<{ name: string; yaml: string; problems: string[] }> = [
    { name: 'a minimal node action', yaml: NODE, problems: [] },
    {
      name: 'node action with pre, post and their guards, inputs and outputs',
      yaml: `${NODE}  pre: dist/pre.js\n  pre-if: runner.os == 'Linux'\n  post: dist/post.js\n  post-if: always()\ninputs:\n  a-b_c:\n    description: x\n    required: false\n    default: '1'\n    deprecationMessage: use d\noutputs:\n  out:\n    description: y\nauthor: me\nbranding:\n  icon: activity\n  color: gray-dark\n`,
      problems: [],
    },
    {
      name: 'an unknown root key (a typo the runner ignores)',
      yaml: `${NODE}output:\n  a:\n    description: x\n`,
      problems: ['6: (root): unknown property output'],
    },
    {
      name: 'an input with a type (a workflow_dispatch habit)',
      yaml: `${NODE}inputs:\n  a:\n    description: x\n    type: string\n`,
      problems: ['9: inputs.a: unknown property type'],
    },
    {
      name: 'an input without a description, required as a string',
      yaml: `${NODE}inputs:\n  a:\n    required: 'yes'\n`,
      problems: ['7: inputs.a: description is required', '8: inputs.a.required: must be true or false'],
    },
    {
      name: "an output's value outside a composite action",
      yaml: `${NODE}outputs:\n  a:\n    description: x\n    value: \${{ steps.s.outputs.a }}\n`,
      problems: ['9: outputs.a: unknown property value'],
    },
    {
      name: 'a composite output with its value, and one without',
      yaml: `name: x\ndescription: d\nruns:\n  using: composite\n  steps:\n    - run: echo\n      shell: bash\noutputs:\n  a:\n    description: x\n    value: \${{ steps.s.outputs.a }}\n  b:\n    description: y\n`,
      problems: ['12: outputs.b: value is required in a composite action'],
    },
    {
      name: 'a retired runtime',
      yaml: NODE.replace('node24', 'node16'),
      problems: ['4: runs.using: "node16" is not node20, node24, composite or docker'],
    },
    {
      name: 'runs with a key of another kind and no main',
      yaml: `name: x\ndescription: d\nruns:\n  using: node20\n  steps: []\n`,
      problems: ['4: runs: main is required with using: node20', '5: runs: unknown property steps'],
    },
    {
      name: 'post-if without post',
      yaml: `${NODE}  post-if: always()\n`,
      problems: ['6: runs.post-if: without a post step'],
    },
    {
      name: 'no description, a branding colour that does not exist',
      yaml: `name: x\nruns:\n  using: node24\n  main: m.js\nbranding:\n  color: pink\n`,
      problems: [
        '1: (root): description is required',
        '6: branding.color: must be one of white, black, yellow, blue, green, orange, red, purple, gray-dark',
      ],
    },
    {
      name: 'an input id the runner cannot name',
      yaml: `${NODE}inputs:\n  9lives:\n    description: x\n`,
      problems: ['7: inputs.9lives: an input id is letters, digits, - and _, not starting with a digit or -'],
    },
    { name: 'not YAML', yaml: 'name: [x\n', problems: [expect.stringMatching(/^\d+: /) as unknown as string] },
  ];
  it.each(cases)('$name', ({ yaml, problems }) => {
    expect(actionMetadataProblems(yaml)).toEqual(problems);
  });
});

describe('action.yml agrees with the code', () => {
  it('declares exactly the outputs the Action sets', () => {
    expect(Object.keys(MANIFEST.outputs).sort()).toEqual(Object.values(OUTPUT).sort());
  });

  it('declares exactly the inputs the Action reads, with the defaults the code falls back to', () => {
    const read = new Set<string>();
    const recording = new Proxy({} as NodeJS.ProcessEnv, {
      get(_t, key) {
        if (typeof key === 'string' && key.startsWith('INPUT_')) read.add(key.slice(6).toLowerCase());
        return undefined;
      },
    });
    const fallbacks = readInputs(recording);
    expect([...read].sort()).toEqual(Object.keys(MANIFEST.inputs).sort());
    // the runner passes every declared default; reading them gives what the code falls back to
    const defaults: NodeJS.ProcessEnv = {};
    for (const [name, spec] of Object.entries(MANIFEST.inputs)) {
      // ${{ github.token }} is evaluated by the runner; without a token the code has none
      if (spec.default !== undefined && !spec.default.includes('${{'))
        defaults[`INPUT_${name.toUpperCase()}`] = spec.default;
    }
    expect(readInputs(defaults)).toEqual(fallbacks);
  });

  it('runs the committed bundle: main and post exist in dist/', () => {
    expect(MANIFEST.runs.using).toBe('node24');
    for (const file of [MANIFEST.runs.main, MANIFEST.runs.post]) {
      expect(file).toMatch(/^dist\//);
      expect(existsSync(join(ROOT, file as string)), file).toBe(true);
    }
  });
});
