// Finding the server binary and the settings it receives.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { findServer, type Lookup } from '../../src/serverPath';
import { serverSettings, wrapped } from '../../src/settings';

function lookup(over: Partial<Lookup>, executables: string[]): Lookup {
  return {
    configured: '',
    envPath: '/usr/bin:/opt/hl/bin',
    platform: 'linux',
    home: '/home/u',
    workspaceFolder: '/ws',
    isExecutable: (f) => executables.includes(f),
    ...over,
  };
}

describe('findServer', () => {
  it('takes hashline.serverPath when it names an executable', () => {
    assert.deepEqual(findServer(lookup({ configured: '/x/hashline-ls' }, ['/x/hashline-ls', '/opt/hl/bin/hashline-ls'])), {
      ok: true,
      path: '/x/hashline-ls',
      source: 'setting',
    });
  });

  it('expands ~/ and resolves a relative setting against the workspace folder', () => {
    assert.equal((findServer(lookup({ configured: '~/go/bin/hashline-ls' }, ['/home/u/go/bin/hashline-ls'])) as { path: string }).path, '/home/u/go/bin/hashline-ls');
    assert.equal((findServer(lookup({ configured: 'bin/hashline-ls' }, ['/ws/bin/hashline-ls'])) as { path: string }).path, '/ws/bin/hashline-ls');
  });

  it('says what is wrong with a setting that names no executable, without falling back to PATH', () => {
    const r = findServer(lookup({ configured: '/nope/hashline-ls' }, ['/opt/hl/bin/hashline-ls']));
    assert.equal(r.ok, false);
    assert.match((r as { message: string }).message, /hashline\.serverPath is set to "\/nope\/hashline-ls"/);
  });

  it('falls back to the first hashline-ls on PATH', () => {
    assert.deepEqual(findServer(lookup({}, ['/opt/hl/bin/hashline-ls'])), { ok: true, path: '/opt/hl/bin/hashline-ls', source: 'PATH' });
  });

  it('uses the Windows separator and .exe there', () => {
    const r = findServer(lookup({ platform: 'win32', envPath: 'C:\\a;/opt/hl/bin' }, ['/opt/hl/bin/hashline-ls.exe']));
    assert.equal(r.ok, true);
  });

  it('names both ways out when neither works', () => {
    const r = findServer(lookup({}, []));
    assert.equal(r.ok, false);
    assert.match((r as { message: string }).message, /not found on PATH.*hashline\.serverPath/s);
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
