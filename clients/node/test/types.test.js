// The TypeScript declarations: types/protocol.d.ts is what scripts/generate-types.js makes from
// protocol/openrpc.json today, types/index.d.ts declares every runtime export, and `tsc --noEmit`
// accepts test/types/usage.ts (and refuses its marked wrong uses).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import * as runtime from '../src/index.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

test('types/protocol.d.ts is generated from the current protocol/openrpc.json', () => {
  const run = spawnSync(process.execPath, [resolve(root, 'scripts/generate-types.js'), '--check'], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
});

test('types/index.d.ts declares every runtime export', () => {
  const declared = new Set(
    [...readFileSync(resolve(root, 'types/index.d.ts'), 'utf8').matchAll(/^export (?:declare )?(?:class|const|function) (\w+)/gm)]
      .map((match) => match[1]),
  );
  assert.deepEqual(Object.keys(runtime).filter((name) => !declared.has(name)), []);
});

test('tsc --noEmit accepts the typed usage', () => {
  const run = spawnSync('tsc', ['-p', resolve(root, 'test/types/tsconfig.json')], { encoding: 'utf8' });
  assert.equal(run.error, undefined, 'tsc is not installed (scripts/bootstrap installs node-typescript)');
  assert.equal(run.status, 0, run.stdout + run.stderr);
});
