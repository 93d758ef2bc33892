// `make npm`: writes the npm packages of one version into OUT as tarballs
// (npm pack), from the binaries `make servers` built into SERVERS:
//
//   @hashline-ls/<platform>-<arch>  one per platform: os and cpu fields, and
//                                   that platform's binary in bin/
//   hashline-ls                     the launcher (bin/hashline-ls.js), with
//                                   every platform package as an optional
//                                   dependency of the same version
//
// Usage: node npm/pack.js VERSION SERVERS OUT
'use strict';

const { execFileSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const { allPackages } = require('./hashline-ls/lib/platforms');

const [version, servers, out] = process.argv.slice(2);
if (!version || !servers || !out) {
  console.error('usage: node npm/pack.js VERSION SERVERS OUT');
  process.exit(2);
}
const root = path.resolve(__dirname, '..');
const stage = path.join(out, 'stage');
fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(stage, { recursive: true });

function writePackage(dir, manifest, files) {
  fs.mkdirSync(path.join(dir, 'bin'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
  fs.copyFileSync(path.join(__dirname, 'README.md'), path.join(dir, 'README.md'));
  fs.copyFileSync(path.join(root, 'LICENSE'), path.join(dir, 'LICENSE'));
  for (const [from, to, mode] of files) {
    fs.mkdirSync(path.dirname(path.join(dir, to)), { recursive: true });
    fs.copyFileSync(from, path.join(dir, to));
    fs.chmodSync(path.join(dir, to), mode);
  }
  const name = execFileSync('npm', ['pack', '--silent', '--pack-destination', path.resolve(out)], { cwd: dir, encoding: 'utf8' }).trim();
  const size = fs.statSync(path.join(out, name)).size;
  console.log(`npm: ${manifest.name}@${manifest.version}: ${path.join(out, name)}: ${size} bytes`);
}

const optional = {};
for (const pkg of allPackages()) {
  const binary = path.join(servers, pkg.target, path.basename(pkg.bin));
  if (!fs.existsSync(binary)) {
    console.error(`npm: ${binary} is missing: make servers builds it`);
    process.exit(1);
  }
  const manifest = {
    name: pkg.name,
    version,
    description: `The hashline-ls binary for ${pkg.os}-${pkg.cpu}, run by the hashline-ls package.`,
    license: 'MIT',
    os: [pkg.os],
    cpu: [pkg.cpu],
    preferUnplugged: true,
    files: ['bin/'],
  };
  writePackage(path.join(stage, pkg.name.replace('/', '+')), manifest, [[binary, pkg.bin, 0o755]]);
  optional[pkg.name] = version;
}

const launcher = path.join(__dirname, 'hashline-ls');
writePackage(
  path.join(stage, 'hashline-ls'),
  {
    name: 'hashline-ls',
    version,
    description: 'hashline-ls: safe, line-anchored reads and edits for AI assistants, as an MCP server (npx -y hashline-ls mcp), a language server and shell verbs.',
    license: 'MIT',
    bin: { 'hashline-ls': 'bin/hashline-ls.js' },
    files: ['bin/', 'lib/'],
    engines: { node: '>=18' },
    optionalDependencies: optional,
  },
  [
    [path.join(launcher, 'bin/hashline-ls.js'), 'bin/hashline-ls.js', 0o755],
    [path.join(launcher, 'lib/platforms.js'), 'lib/platforms.js', 0o644],
  ],
);
fs.rmSync(stage, { recursive: true, force: true });
