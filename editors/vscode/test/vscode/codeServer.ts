// Running code-server (VS Code 1.100.3 in a browser) for the real VS Code
// test: every folder it writes to is private to one run, it listens on
// loopback only, and it is stopped by its PID.

import { execFile, spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as path from 'node:path';

export interface Dirs {
  base: string;
  userData: string;
  extensions: string;
  tmp: string;
  home: string;
  config: string;
}

export function makeDirs(base: string): Dirs {
  const d: Dirs = {
    base,
    userData: path.join(base, 'user-data'),
    extensions: path.join(base, 'extensions'),
    tmp: path.join(base, 'tmp'),
    home: path.join(base, 'home'),
    config: path.join(base, 'config.yaml'),
  };
  for (const dir of [d.userData, d.extensions, d.tmp, d.home]) fs.mkdirSync(dir, { recursive: true });
  return d;
}

/** The environment of code-server and everything it starts: HOME, the XDG
 * folders and TMPDIR all point inside the run's folder, so nothing lands in
 * the real home folder. */
export function privateEnv(d: Dirs, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    HOME: d.home,
    XDG_CONFIG_HOME: path.join(d.home, '.config'),
    XDG_DATA_HOME: path.join(d.home, '.local', 'share'),
    XDG_CACHE_HOME: path.join(d.home, '.cache'),
    TMPDIR: d.tmp,
    ...extra,
  };
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

export function installExtensions(bin: string, d: Dirs, vsixes: string[]): Promise<string> {
  const args = ['--config', d.config, '--user-data-dir', d.userData, '--extensions-dir', d.extensions];
  for (const v of vsixes) args.push('--install-extension', v);
  return new Promise((resolve, reject) => {
    execFile(bin, args, { env: privateEnv(d), timeout: 120_000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`code-server --install-extension failed: ${err.message}\n${stdout}${stderr}`));
      else resolve(stdout + stderr);
    });
  });
}

export interface Running {
  proc: ChildProcess;
  url: string;
  log: () => string;
  stop: () => Promise<void>;
}

function get(url: string): Promise<number> {
  return new Promise((resolve) => {
    const req = http.get(url, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', () => resolve(0));
    req.setTimeout(2000, () => req.destroy());
  });
}

/** Starts code-server on `folder`; `env` adds to or overrides privateEnv,
 * `extraArgs` go before the folder. */
export async function start(bin: string, d: Dirs, folder: string, port: number, env: Record<string, string> = {}, extraArgs: string[] = []): Promise<Running> {
  fs.writeFileSync(d.config, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
  const args = [
    '--config', d.config,
    '--user-data-dir', d.userData,
    '--extensions-dir', d.extensions,
    '--bind-addr', `127.0.0.1:${port}`,
    '--auth', 'none',
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    ...extraArgs,
    folder,
  ];
  let log = '';
  // Its own process group, so the stop below reaches the extension host and
  // the language server it started even if code-server leaves them behind.
  const proc = spawn(bin, args, { env: privateEnv(d, env), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  proc.stdout?.on('data', (b: Buffer) => (log += b.toString()));
  proc.stderr?.on('data', (b: Buffer) => (log += b.toString()));
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));

  const stop = async (): Promise<void> => {
    const pid = proc.pid;
    if (pid === undefined) return;
    const groupAlive = (): boolean => {
      try {
        process.kill(-pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    const waitGroup = async (ms: number): Promise<boolean> => {
      const deadline = Date.now() + ms;
      while (groupAlive() && Date.now() < deadline) await sleep(100);
      return !groupAlive();
    };
    if (proc.exitCode === null && proc.signalCode === null) {
      process.kill(pid, 'SIGTERM');
      await Promise.race([exited, sleep(5000)]);
    }
    // Whatever of the group outlives code-server's own shutdown (its
    // extension host, hashline-ls) gets a TERM, then a KILL.
    for (const sig of ['SIGTERM', 'SIGKILL'] as const) {
      if (!groupAlive()) break;
      try {
        process.kill(-pid, sig);
      } catch {
        // Gone in between.
      }
      if (await waitGroup(3000)) break;
    }
    if (proc.exitCode === null && proc.signalCode === null) await exited;
  };

  const url = `http://127.0.0.1:${port}/`;
  const deadline = Date.now() + 30_000;
  while ((await get(url + 'healthz')) !== 200) {
    if (proc.exitCode !== null) throw new Error(`code-server exited with ${proc.exitCode}:\n${log}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`code-server did not answer on ${url} within 30 s:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { proc, url, log: () => log, stop };
}
