// Finding the hashline-ls binary: the hashline.serverPath setting when it is
// set, else the first hashline-ls on PATH. Pure apart from the file checks
// handed in, so the unit tests can run every branch.

import * as path from 'path';

export interface Lookup {
  /** hashline.serverPath as the user wrote it ('' when unset). */
  configured: string;
  /** The PATH the extension host runs with. */
  envPath: string | undefined;
  platform: NodeJS.Platform;
  home: string;
  /** The first workspace folder, against which a relative setting resolves. */
  workspaceFolder: string | undefined;
  isExecutable(file: string): boolean;
}

export type Found = { ok: true; path: string; source: 'setting' | 'PATH' } | { ok: false; message: string };

const NAME = 'hashline-ls';

export function findServer(l: Lookup): Found {
  const exe = l.platform === 'win32' ? `${NAME}.exe` : NAME;
  const configured = l.configured.trim();
  if (configured !== '') {
    let p = configured;
    if (p === '~' || p.startsWith('~/')) p = path.join(l.home, p.slice(1));
    if (!path.isAbsolute(p) && l.workspaceFolder) p = path.resolve(l.workspaceFolder, p);
    if (l.isExecutable(p)) return { ok: true, path: p, source: 'setting' };
    return {
      ok: false,
      message: `hashline.serverPath is set to "${configured}"${p === configured ? '' : ` (${p})`}, which is not an executable file. Point the setting at the hashline-ls binary (\`make install\` in the hashline-ls repository puts it in $(go env GOPATH)/bin), or clear it to use the hashline-ls on PATH.`,
    };
  }
  const sep = l.platform === 'win32' ? ';' : ':';
  for (const dir of (l.envPath ?? '').split(sep)) {
    if (dir === '') continue;
    const p = path.join(dir, exe);
    if (l.isExecutable(p)) return { ok: true, path: p, source: 'PATH' };
  }
  return {
    ok: false,
    message: `hashline-ls was not found on PATH, and hashline.serverPath is not set. Install it (\`make install\` in the hashline-ls repository puts it in $(go env GOPATH)/bin) and either add that folder to PATH or set hashline.serverPath to the binary.`,
  };
}
