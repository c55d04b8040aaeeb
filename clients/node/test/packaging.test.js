// Packaging, as the README says: `npm pack` this folder, install the tarball into a fresh project
// in a temporary directory without the registry, then import it by name from JavaScript and from
// TypeScript (`tsc --noEmit` resolving the package's own declarations through `exports`).

import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

test('npm pack, install offline into a clean directory, import and type-check', () => {
  const work = mkdtempSync(join(tmpdir(), 'queryd-node-pack-'));
  const npm = (args, cwd) => execFileSync('npm', [...args, '--offline', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd, encoding: 'utf8', env: { ...process.env, npm_config_cache: join(work, 'npm-cache') },
  });
  try {
    npm(['pack', '--pack-destination', work], root);
    const tarball = readdirSync(work).find((name) => name.endsWith('.tgz'));
    assert.equal(tarball, 'queryd-client-0.1.0.tgz');
    const app = join(work, 'app');
    execFileSync('mkdir', [app]);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
    npm(['install', join(work, tarball)], app);
    const imported = execFileSync(process.execPath, ['--input-type=module', '-e',
      "import { Client, LimitExceeded } from 'queryd-client'; console.log(typeof Client.connect, LimitExceeded.name)"], {
      cwd: app, encoding: 'utf8',
    });
    assert.equal(imported.trim(), 'function LimitExceeded');
    writeFileSync(join(app, 'main.ts'), [
      "import { Client, type QueryState } from 'queryd-client';",
      'export async function main(): Promise<QueryState> {',
      "  const client = await Client.connect(undefined, { connectWaitMs: 100 });",
      "  return client.query.fetch(['todos'], { staleTime: 'static' });",
      '}',
    ].join('\n'));
    writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({
      compilerOptions: {
        strict: true, noEmit: true, target: 'es2022', module: 'node16', moduleResolution: 'node16', lib: ['es2022', 'dom'], types: [],
      },
      files: ['main.ts'],
    }));
    const tsc = spawnSync('tsc', ['-p', app], { cwd: app, encoding: 'utf8' });
    assert.equal(tsc.status, 0, tsc.stdout + tsc.stderr);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
