// Finding the hashline-ls binary, in the order rust-analyzer's extension
// uses: the hashline.serverPath setting when it is set, else the binary this
// platform's .vsix carries, else the first hashline-ls on PATH. Pure apart
// from the file checks handed in, so the unit tests can run every branch.

import * as path from 'path';

export interface Lookup {
  /** hashline.serverPath as the user wrote it ('' when unset). */
  configured: string;
  /** The folder the extension is installed in. */
  extensionPath: string;
  /** The PATH the extension host runs with. */
  envPath: string | undefined;
  platform: NodeJS.Platform;
  /** process.arch of the extension host. */
  arch: string;
  home: string;
  /** The first workspace folder, against which a relative setting resolves. */
  workspaceFolder: string | undefined;
  isExecutable(file: string): boolean;
}

export type Source = 'setting' | 'bundled' | 'PATH';

export type Found = { ok: true; path: string; source: Source } | { ok: false; message: string };

const NAME = 'hashline-ls';

/** The platforms whose .vsix carries a server, as process.platform and
 * process.arch name them. The alpine-x64 .vsix carries the linux-x64
 * binary (static, so it runs on musl too), where Node on Alpine looks. */
export const BUNDLED_TARGETS = ['linux-x64', 'linux-arm64', 'darwin-arm64', 'darwin-x64', 'win32-x64'] as const;

/** The folder name of a platform's server inside the extension. */
function targetOf(platform: NodeJS.Platform, arch: string): string {
  return `${platform}-${arch}`;
}

function exeName(platform: NodeJS.Platform): string {
  return platform === 'win32' ? `${NAME}.exe` : NAME;
}

/** The path functions of the platform, so that the tests see Windows paths
 * as Windows does. */
function pathsOf(platform: NodeJS.Platform): path.PlatformPath {
  return platform === 'win32' ? path.win32 : path.posix;
}

/** Where a platform-specific .vsix keeps its server: bin/<platform>-<arch>/
 * inside the extension. Naming the platform in the path means a .vsix
 * side-loaded on the wrong platform finds nothing, rather than a binary it
 * cannot run. */
export function bundledServer(extensionPath: string, platform: NodeJS.Platform, arch: string): string {
  return pathsOf(platform).join(extensionPath, 'bin', targetOf(platform, arch), exeName(platform));
}

/** How the output channel names where the running binary came from. */
export function describeSource(source: Source): string {
  switch (source) {
    case 'setting':
      return 'from hashline.serverPath';
    case 'bundled':
      return 'bundled with the extension';
    case 'PATH':
      return 'found on PATH';
  }
}

export function findServer(l: Lookup): Found {
  const paths = pathsOf(l.platform);
  const configured = l.configured.trim();
  if (configured !== '') {
    let p = configured;
    if (p === '~' || p.startsWith('~/')) p = paths.join(l.home, p.slice(1));
    if (!paths.isAbsolute(p) && l.workspaceFolder) p = paths.resolve(l.workspaceFolder, p);
    if (l.isExecutable(p)) return { ok: true, path: p, source: 'setting' };
    return {
      ok: false,
      message: `SERVER_PATH_INVALID: hashline.serverPath is set to "${configured}"${p === configured ? '' : ` (${p})`}, which is not an executable file: point it at a hashline-ls binary, or clear it.`,
    };
  }
  const bundled = bundledServer(l.extensionPath, l.platform, l.arch);
  if (l.isExecutable(bundled)) return { ok: true, path: bundled, source: 'bundled' };
  const sep = l.platform === 'win32' ? ';' : ':';
  for (const dir of (l.envPath ?? '').split(sep)) {
    if (dir === '') continue;
    const p = paths.join(dir, exeName(l.platform));
    if (l.isExecutable(p)) return { ok: true, path: p, source: 'PATH' };
  }
  const target = targetOf(l.platform, l.arch);
  const why = `none is on PATH and hashline.serverPath is not set`;
  if ((BUNDLED_TARGETS as readonly string[]).includes(target)) {
    return {
      ok: false,
      message: `SERVER_NOT_FOUND: this copy of the extension carries no hashline-ls for ${target}, ${why}: install the ${target} .vsix, which does (\`make vsix\` in the hashline-ls repository builds it).`,
    };
  }
  return {
    ok: false,
    message: `SERVER_NOT_FOUND: the extension carries hashline-ls only for ${BUNDLED_TARGETS.join(', ')}, not for ${target}; ${why}: set hashline.serverPath to a hashline-ls binary (\`make install\` in the hashline-ls repository builds one into $(go env GOPATH)/bin).`,
  };
}
