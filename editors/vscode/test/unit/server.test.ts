// Finding the server binary and the settings it receives.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

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

  it('uses the Windows separator and .exe there', () => {
    const r = findServer(lookup({ platform: 'win32', envPath: 'C:\\a;/opt/hl/bin' }, ['/opt/hl/bin/hashline-ls.exe']));
    assert.deepEqual(r, { ok: true, path: '/opt/hl/bin/hashline-ls.exe', source: 'PATH' });
  });

  it('on a bundled platform without a bundle, names the .vsix that has one', () => {
    const r = findServer(lookup({}, []));
    assert.equal(r.ok, false);
    assert.match((r as { message: string }).message, /^SERVER_NOT_FOUND: this copy of the extension carries no hashline-ls for linux-x64, .*install the linux-x64 \.vsix/);
  });

  it('on any other platform, says that it needs hashline.serverPath', () => {
    const r = findServer(lookup({ platform: 'darwin', arch: 'arm64' }, []));
    assert.equal(r.ok, false);
    assert.match((r as { message: string }).message, /^SERVER_NOT_FOUND: the extension carries hashline-ls only for linux-x64 and linux-arm64, not for darwin-arm64; .*set hashline\.serverPath to a hashline-ls binary/);
  });
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
