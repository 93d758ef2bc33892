// The npm launcher: which package it picks on every platform, what it says
// when there is none, and, on this machine, that it runs the binary with
// the arguments, standard streams, exit status and signals passed through.
'use strict';

const assert = require('node:assert/strict');
const { execFileSync, spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { describe, it } = require('node:test');

const { allPackages, findBinary, packageFor } = require('../hashline-ls/lib/platforms');

const want = [
  { platform: 'linux', arch: 'x64', name: '@hashline-ls/linux-x64', target: 'linux_amd64', bin: 'bin/hashline-ls' },
  { platform: 'linux', arch: 'arm64', name: '@hashline-ls/linux-arm64', target: 'linux_arm64', bin: 'bin/hashline-ls' },
  { platform: 'darwin', arch: 'arm64', name: '@hashline-ls/darwin-arm64', target: 'darwin_arm64', bin: 'bin/hashline-ls' },
  { platform: 'darwin', arch: 'x64', name: '@hashline-ls/darwin-x64', target: 'darwin_amd64', bin: 'bin/hashline-ls' },
  { platform: 'win32', arch: 'x64', name: '@hashline-ls/win32-x64', target: 'windows_amd64', bin: 'bin/hashline-ls.exe' },
];

describe('the platform package', () => {
  for (const w of want) {
    it(`on ${w.platform}-${w.arch} is ${w.name}, and the launcher runs its ${w.bin}`, () => {
      assert.deepEqual(packageFor(w.platform, w.arch), { name: w.name, os: w.platform, cpu: w.arch, target: w.target, bin: w.bin });
      const asked = [];
      const resolve = (id) => {
        asked.push(id);
        return `/nm/${id}`;
      };
      assert.equal(findBinary(w.platform, w.arch, resolve, '1.2.3'), path.resolve(`/nm/${w.name}/${w.bin}`));
      assert.deepEqual(asked, [`${w.name}/${w.bin}`]);
    });
  }

  it('is one per platform, and no other', () => {
    assert.deepEqual(
      allPackages().map((p) => p.name),
      want.map((w) => w.name),
    );
  });

  for (const [platform, arch] of [
    ['win32', 'arm64'],
    ['linux', 'ia32'],
    ['freebsd', 'x64'],
    ['linux', 'constructor'],
  ]) {
    it(`on ${platform}-${arch} does not exist, and the launcher says how to build one`, () => {
      assert.equal(packageFor(platform, arch), null);
      const err = findBinary(platform, arch, () => assert.fail('nothing to resolve'), '1.2.3');
      assert.ok(err instanceof Error);
      assert.match(err.message, new RegExp(`^UNSUPPORTED_PLATFORM: hashline-ls has no build for ${platform}-${arch} \\(it has linux-x64, linux-arm64, darwin-arm64, darwin-x64, win32-x64\\): build it from source`));
    });
  }

  it('when npm left it out, is named with the command that installs it', () => {
    const err = findBinary('darwin', 'arm64', (id) => {
      throw Object.assign(new Error(`Cannot find module '${id}'`), { code: 'MODULE_NOT_FOUND' });
    }, '1.2.3');
    assert.ok(err instanceof Error);
    assert.match(err.message, /^PLATFORM_PACKAGE_MISSING: @hashline-ls\/darwin-arm64, which carries hashline-ls for darwin-arm64, is not installed .*: npm install @hashline-ls\/darwin-arm64@1\.2\.3$/);
  });
});

// A node_modules as npm lays it out, with a stand-in binary for this
// platform: a shell script, so the test needs no build.
function installed(t, script) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hashline-npm-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const nm = path.join(dir, 'node_modules');
  const main = path.join(nm, 'hashline-ls');
  fs.mkdirSync(path.join(main, 'bin'), { recursive: true });
  fs.mkdirSync(path.join(main, 'lib'));
  fs.copyFileSync(path.join(__dirname, '../hashline-ls/bin/hashline-ls.js'), path.join(main, 'bin/hashline-ls.js'));
  fs.copyFileSync(path.join(__dirname, '../hashline-ls/lib/platforms.js'), path.join(main, 'lib/platforms.js'));
  fs.writeFileSync(path.join(main, 'package.json'), '{"name":"hashline-ls","version":"1.2.3"}');
  const pkg = packageFor(process.platform, process.arch);
  const bin = path.join(nm, pkg.name, pkg.bin);
  fs.mkdirSync(path.dirname(bin), { recursive: true });
  fs.writeFileSync(bin, `#!/bin/sh\n${script}\n`, { mode: 0o755 });
  return path.join(main, 'bin/hashline-ls.js');
}

describe('the launcher on this machine', { timeout: 60000, skip: process.platform === 'win32' && 'the stand-in binary is a shell script' }, () => {
  it('passes arguments and stdin through and exits with the binary status', (t) => {
    const launcher = installed(t, 'printf "%s|" "$@"; cat; exit 7');
    const r = spawnSync(process.execPath, [launcher, 'mcp', '--root', 'a b'], { input: 'from stdin', encoding: 'utf8' });
    assert.equal(r.stdout, 'mcp|--root|a b|from stdin');
    assert.equal(r.status, 7);
  });

  it('passes a signal on and dies of it', async (t) => {
    // The stand-in gives up by itself after about 20 s, so a failure
    // leaves nothing running.
    const launcher = installed(t, 'trap "echo got TERM; exit 0" TERM; echo ready; i=0; while [ $i -lt 400 ]; do sleep 0.05; i=$((i+1)); done; exit 3');
    const child = spawn(process.execPath, [launcher], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    await new Promise((resolve) => {
      child.stdout.on('data', (d) => {
        out += d;
        if (out.includes('ready')) resolve();
      });
    });
    child.kill('SIGTERM');
    const [code, signal] = await new Promise((resolve) => child.on('exit', (c, s) => resolve([c, s])));
    assert.match(out, /got TERM/);
    // The binary exited 0 after its trap: the launcher exits as it did.
    assert.deepEqual([code, signal], [0, null]);
  });

  it('says which package is missing when npm left it out', (t) => {
    const launcher = installed(t, 'exit 0');
    const pkg = packageFor(process.platform, process.arch);
    fs.rmSync(path.join(path.dirname(launcher), '..', '..', pkg.name), { recursive: true });
    const r = spawnSync(process.execPath, [launcher], { encoding: 'utf8' });
    assert.equal(r.status, 1);
    assert.match(r.stderr, new RegExp(`^hashline-ls: PLATFORM_PACKAGE_MISSING: ${pkg.name}, `));
  });
});

// The packages `make npm` wrote, when it has: every platform package says
// its os and cpu and holds its binary, and hashline-ls names them all.
describe('the packages make npm wrote', () => {
  const dist = path.join(__dirname, '..', '..', 'dist', 'npm');
  const tarballs = fs.existsSync(dist) ? fs.readdirSync(dist).filter((f) => f.endsWith('.tgz')) : [];
  const manifest = (tgz) => JSON.parse(execFileSync('tar', ['-xOzf', path.join(dist, tgz), 'package/package.json'], { encoding: 'utf8' }));

  it('match the platform table', (t) => {
    if (tarballs.length === 0) {
      if (process.env.HASHLINE_REQUIRE_EDITORS) assert.fail(`no packages in ${dist}, and HASHLINE_REQUIRE_EDITORS is set: make npm writes them`);
      t.skip(`no packages in ${dist}: make npm writes them`);
      return;
    }
    const manifests = tarballs.map((f) => ({ file: f, m: manifest(f) }));
    const main = manifests.find((x) => x.m.name === 'hashline-ls');
    assert.ok(main, `no hashline-ls package among ${tarballs.join(', ')}`);
    assert.deepEqual(main.m.bin, { 'hashline-ls': 'bin/hashline-ls.js' });
    const platforms = manifests.filter((x) => x !== main);
    assert.deepEqual(Object.keys(main.m.optionalDependencies).sort(), platforms.map((x) => x.m.name).sort());
    for (const { file, m } of platforms) {
      const pkg = allPackages().find((p) => p.name === m.name);
      assert.ok(pkg, `${file} is ${m.name}, which the launcher does not know`);
      assert.equal(main.m.optionalDependencies[m.name], main.m.version);
      assert.equal(m.version, main.m.version);
      assert.deepEqual([m.os, m.cpu], [[pkg.os], [pkg.cpu]]);
      const listing = execFileSync('tar', ['-tvzf', path.join(dist, file)], { encoding: 'utf8' });
      assert.match(listing, new RegExp(`^-rwx.* package/${pkg.bin}$`, 'm'), `${file} holds no executable ${pkg.bin}:\n${listing}`);
    }
  });
});
