// Test support: starts the real `queryd serve` on a temporary socket (the binary is $QUERYD_BIN,
// else <repository>/.build/debug/queryd) and small helpers. Waits only bound how long a test waits.

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { openSync, readFileSync, rmSync, accessSync, constants } from 'node:fs';
import { createConnection } from 'node:net';
import { dirname, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const repository = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** The daemon under test. */
export function binaryPath() {
  return process.env.QUERYD_BIN || resolve(repository, '.build/debug/queryd');
}

function canConnect(path) {
  return new Promise((done) => {
    const socket = createConnection({ path });
    socket.once('connect', () => { socket.destroy(); done(true); });
    socket.once('error', () => done(false));
  });
}

/** One `queryd serve` process; `restart()` starts a new one on the same socket. */
export class Daemon {
  constructor(flags = ['--manual-clock']) {
    this.flags = flags;
    const tag = `${process.pid}-${randomBytes(4).toString('hex')}`;
    this.socketPath = `/tmp/qd-js-${tag}.sock`;
    this.logPath = `/tmp/qd-js-${tag}.log`;
    this.process = null;
  }

  /** Starts a daemon and resolves once (within 10 s) its socket accepts connections. */
  static async start(flags) {
    const daemon = new Daemon(flags);
    await daemon.start();
    return daemon;
  }

  async start() {
    const binary = binaryPath();
    accessSync(binary, constants.X_OK);
    const log = openSync(this.logPath, 'a');
    this.process = spawn(binary, ['serve', '--socket', this.socketPath, ...this.flags], {
      stdio: ['ignore', log, log],
    });
    this.exited = new Promise((done) => this.process.once('exit', (code, signal) => done({ code, signal })));
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      if (this.process.exitCode !== null) throw new Error(`queryd exited during startup\n${this.logTail()}`);
      if (await canConnect(this.socketPath)) return;
      await sleep(10);
    }
    this.kill();
    throw new Error(`queryd did not accept on ${this.socketPath} within 10 s\n${this.logTail()}`);
  }

  /** SIGTERM; resolves with the exit code (rejects after 5 s). */
  async stop() {
    if (this.process.exitCode !== null || this.process.signalCode !== null) return this.process.exitCode;
    this.process.kill('SIGTERM');
    const timeout = sleep(5000, undefined, { ref: false }).then(() => { throw new Error(`queryd ignored SIGTERM\n${this.logTail()}`); });
    const { code } = await Promise.race([this.exited, timeout]);
    return code;
  }

  /** SIGKILL: no cleanup on the daemon's side. */
  async kill() {
    if (this.process && this.process.exitCode === null && this.process.signalCode === null) {
      this.process.kill('SIGKILL');
      await this.exited;
    }
  }

  /** The end of the daemon's log, for failure messages. */
  logTail() {
    try {
      return readFileSync(this.logPath, 'utf8').slice(-4000);
    } catch {
      return '(no log)';
    }
  }

  /** Kills a daemon still running and removes its files. */
  async dispose() {
    await this.kill();
    rmSync(this.socketPath, { force: true });
    rmSync(this.logPath, { force: true });
  }
}

/** Polls `check` every 10 ms until it resolves true; rejects after `ms`. */
export async function eventually(check, what, ms = 5000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(10);
  }
}

/** A promise with its resolve function, for handlers that wait for the test. */
export function gate() {
  let open;
  const promise = new Promise((resolve) => { open = resolve; });
  return { promise, open };
}
