// Finding the server binary and the settings it receives.

import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as path from 'node:path';

import { bundledServer, findServer, type Lookup } from '../../src/serverPath';
import { serverSettings, wrapped } from '../../src/settings';

function lookup(over: Partial<Lookup>, executables: string[]): Lookup {
  return {
    configured: '',
    extensionPath: '/ext',
    envPath: '/usr/bin:/opt/hl/bin',
    platform: 'linux',
    arch: 'x64',
    home: '/home/u',
    workspaceFolder: '/ws',
    isExecutable: (f) => executables.includes(f),
    ...over,
  };
}

const BUNDLED = '/ext/bin/linux-x64/hashline-ls';
const version: string = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf8')).version;
const ON_PATH = '/opt/hl/bin/hashline-ls';

describe('findServer', () => {
  it('takes hashline.serverPath first, over the bundled binary and PATH', () => {
    assert.deepEqual(findServer(lookup({ configured: '/x/hashline-ls' }, ['/x/hashline-ls', BUNDLED, ON_PATH])), {
      ok: true,
      path: '/x/hashline-ls',
      source: 'setting',
    });
  });

  it('expands ~/ and resolves a relative setting against the workspace folder', () => {
    assert.equal((findServer(lookup({ configured: '~/go/bin/hashline-ls' }, ['/home/u/go/bin/hashline-ls'])) as { path: string }).path, '/home/u/go/bin/hashline-ls');
    assert.equal((findServer(lookup({ configured: 'bin/hashline-ls' }, ['/ws/bin/hashline-ls'])) as { path: string }).path, '/ws/bin/hashline-ls');
  });

  it('says what is wrong with a setting that names no executable, without falling back', () => {
    const r = findServer(lookup({ configured: '/nope/hashline-ls' }, [BUNDLED, ON_PATH]));
    assert.equal(r.ok, false);
    assert.match((r as { message: string }).message, /^SERVER_PATH_INVALID: hashline\.serverPath is set to "\/nope\/hashline-ls"/);
  });

  it('takes the bundled binary of this platform over PATH when the setting is empty', () => {
    assert.equal(bundledServer('/ext', 'linux', 'x64'), BUNDLED);
    assert.deepEqual(findServer(lookup({}, [BUNDLED, ON_PATH])), { ok: true, path: BUNDLED, source: 'bundled' });
    assert.deepEqual(findServer(lookup({ arch: 'arm64' }, ['/ext/bin/linux-arm64/hashline-ls'])), {
      ok: true,
      path: '/ext/bin/linux-arm64/hashline-ls',
      source: 'bundled',
    });
  });

  it('ignores a bundle for another platform', () => {
    assert.deepEqual(findServer(lookup({ arch: 'arm64' }, [BUNDLED, ON_PATH])), { ok: true, path: ON_PATH, source: 'PATH' });
  });

  it('falls back to the first hashline-ls on PATH when nothing is bundled', () => {
    assert.deepEqual(findServer(lookup({}, [ON_PATH])), { ok: true, path: ON_PATH, source: 'PATH' });
    assert.deepEqual(findServer(lookup({}, [ON_PATH, '/usr/bin/hashline-ls'])), { ok: true, path: '/usr/bin/hashline-ls', source: 'PATH' }, 'the first on PATH');
  });

  it('uses the Windows separator, paths and .exe there', () => {
    const win = { platform: 'win32', extensionPath: 'C:\\ext', home: 'C:\\Users\\u', workspaceFolder: 'C:\\ws' } as const;
    const r = findServer(lookup({ ...win, envPath: 'C:\\a;D:\\hl\\bin' }, ['D:\\hl\\bin\\hashline-ls.exe']));
    assert.deepEqual(r, { ok: true, path: 'D:\\hl\\bin\\hashline-ls.exe', source: 'PATH' });
    const rel = findServer(lookup({ ...win, configured: 'tools\\hashline-ls.exe' }, ['C:\\ws\\tools\\hashline-ls.exe']));
    assert.deepEqual(rel, { ok: true, path: 'C:\\ws\\tools\\hashline-ls.exe', source: 'setting' });
  });

  it('on a bundled platform without a bundle, names the .vsix that has one', () => {
    const r = findServer(lookup({}, []));
    assert.equal(r.ok, false);
    assert.match((r as { message: string }).message, /^SERVER_NOT_FOUND: this copy of the extension carries no hashline-ls for linux-x64, .*install the linux-x64 \.vsix/);
  });

  it('on any other platform, says that it needs hashline.serverPath', () => {
    const r = findServer(lookup({ platform: 'win32', arch: 'arm64' }, []));
    assert.equal(r.ok, false);
    assert.match((r as { message: string }).message, /^SERVER_NOT_FOUND: the extension carries hashline-ls only for linux-x64, linux-arm64, darwin-arm64, darwin-x64, win32-x64, not for win32-arm64; .*set hashline\.serverPath to a hashline-ls binary/);
  });

  // Each platform package `make vsix` builds, the platform and arch Node
  // reports where VS Code installs it, and where its server is inside.
  const packages = [
    { target: 'linux-x64', platform: 'linux', arch: 'x64', server: '/ext/bin/linux-x64/hashline-ls' },
    { target: 'linux-arm64', platform: 'linux', arch: 'arm64', server: '/ext/bin/linux-arm64/hashline-ls' },
    { target: 'alpine-x64', platform: 'linux', arch: 'x64', server: '/ext/bin/linux-x64/hashline-ls' },
    { target: 'darwin-arm64', platform: 'darwin', arch: 'arm64', server: '/ext/bin/darwin-arm64/hashline-ls' },
    { target: 'darwin-x64', platform: 'darwin', arch: 'x64', server: '/ext/bin/darwin-x64/hashline-ls' },
    { target: 'win32-x64', platform: 'win32', arch: 'x64', server: '\\ext\\bin\\win32-x64\\hashline-ls.exe' },
  ] as const;

  for (const p of packages) {
    it(`in the ${p.target} package, runs its bundled server`, () => {
      const ext = p.platform === 'win32' ? '\\ext' : '/ext';
      assert.equal(bundledServer(ext, p.platform, p.arch), p.server);
      const onPath = p.platform === 'win32' ? '\\opt\\hl\\bin\\hashline-ls.exe' : ON_PATH;
      const sep = p.platform === 'win32' ? ';' : ':';
      const l = lookup({ platform: p.platform, arch: p.arch, extensionPath: ext, envPath: ['/usr/bin', '\\opt\\hl\\bin'].join(sep) }, [p.server, onPath]);
      assert.deepEqual(findServer(l), { ok: true, path: p.server, source: 'bundled' });
      const none = findServer({ ...l, isExecutable: () => false });
      assert.equal(none.ok, false);
      assert.match((none as { message: string }).message, new RegExp(`^SERVER_NOT_FOUND: this copy of the extension carries no hashline-ls for ${p.platform}-${p.arch}, `));
    });
  }

  // The real packages, where `make vsix` has built them: each holds one
  // server, at the path the extension looks in on that platform.
  for (const p of packages) {
    const vsix = path.join(__dirname, '..', '..', '..', 'dist', `hashline-${p.target}-${version}.vsix`);
    it(`finds the server inside the built hashline-${p.target}-${version}.vsix`, (t) => {
      if (!fs.existsSync(vsix)) {
        if (process.env.HASHLINE_REQUIRE_EDITORS) assert.fail(`${vsix} is missing, and HASHLINE_REQUIRE_EDITORS is set: make vsix builds it`);
        t.skip(`${vsix} is not built: make vsix builds it`);
        return;
      }
      const entries = execFileSync('unzip', ['-Z1', vsix], { encoding: 'utf8' })
        .split('\n')
        .filter((e) => e.startsWith('extension/bin/'));
      const ext = p.platform === 'win32' ? 'C:\\ext' : '/ext';
      const paths = p.platform === 'win32' ? path.win32 : path.posix;
      const installed = entries.map((e) => paths.join(ext, ...e.slice('extension/'.length).split('/')));
      assert.equal(installed.length, 1, `${vsix} holds ${entries.join(', ')}`);
      assert.deepEqual(findServer(lookup({ platform: p.platform, arch: p.arch, extensionPath: ext, envPath: '' }, installed)), {
        ok: true,
        path: installed[0],
        source: 'bundled',
      });
    });
  }
});

describe('server settings', () => {
  it('passes the hashline section through, wrapped, without the client-only keys', () => {
    const section = { serverPath: '/x', trace: { server: 'off' }, extraRoots: ['/data'], landTimeoutMs: 3000, futureKnob: true };
    assert.deepEqual(wrapped(section), { hashline: { extraRoots: ['/data'], landTimeoutMs: 3000, futureKnob: true } });
  });

  it('drops methods of a configuration object', () => {
    assert.deepEqual(serverSettings({ get: () => 1, extraRoots: [] }), { extraRoots: [] });
  });
});
