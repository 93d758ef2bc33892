// The platforms hashline-ls is built for, as Node names them, each with the
// npm package that carries its binary. The launcher picks one from these;
// `make npm` writes one package per entry and names them all as optional
// dependencies of hashline-ls, so npm installs only the one whose os and
// cpu match the machine.
'use strict';

const path = require('path');

const SCOPE = '@hashline-ls';

/** process.platform-process.arch → the Go target built for it. */
const PLATFORMS = {
  'linux-x64': 'linux_amd64',
  'linux-arm64': 'linux_arm64',
  'darwin-arm64': 'darwin_arm64',
  'darwin-x64': 'darwin_amd64',
  'win32-x64': 'windows_amd64',
};

/** The package for a platform: its name, os and cpu fields, the Go target
 * whose binary it carries, and that binary's path inside it. Null for a
 * platform with no build. */
function packageFor(platform, arch) {
  const key = `${platform}-${arch}`;
  if (!Object.hasOwn(PLATFORMS, key)) return null;
  const exe = platform === 'win32' ? 'hashline-ls.exe' : 'hashline-ls';
  return { name: `${SCOPE}/${key}`, os: platform, cpu: arch, target: PLATFORMS[key], bin: `bin/${exe}` };
}

/** All the platform packages. */
function allPackages() {
  return Object.keys(PLATFORMS).map((key) => {
    const [platform, arch] = key.split('-');
    return packageFor(platform, arch);
  });
}

/** The installed binary for this platform, found with resolve (Node's
 * require.resolve from the launcher), or an Error whose message says what
 * is wrong and what to do. */
function findBinary(platform, arch, resolve, version) {
  const pkg = packageFor(platform, arch);
  if (pkg === null) {
    const have = Object.keys(PLATFORMS).join(', ');
    return new Error(
      `UNSUPPORTED_PLATFORM: hashline-ls has no build for ${platform}-${arch} (it has ${have}): build it from source with Go 1.26 and a C compiler, go install ./cmd/hashline-ls in its repository`,
    );
  }
  try {
    return path.resolve(resolve(`${pkg.name}/${pkg.bin}`));
  } catch {
    return new Error(
      `PLATFORM_PACKAGE_MISSING: ${pkg.name}, which carries hashline-ls for ${platform}-${arch}, is not installed (npm leaves optional dependencies out with --omit=optional): npm install ${pkg.name}@${version}`,
    );
  }
}

module.exports = { PLATFORMS, packageFor, allPackages, findBinary };
