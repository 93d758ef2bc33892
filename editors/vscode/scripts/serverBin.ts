// The hashline-ls binary that the generator and the tests run: HASHLINE_BIN
// when set, else one built from this repository into a temporary folder, so
// the manifest is always checked against the server as it is now.

import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

/** The repository root: the nearest folder above this file whose go.mod
 * declares module hashline-ls. */
export function repoRoot(): string {
  let dir = __dirname;
  for (;;) {
    const mod = path.join(dir, 'go.mod');
    if (fs.existsSync(mod) && /^module hashline-ls\s*$/m.test(fs.readFileSync(mod, 'utf8'))) return dir;
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`no go.mod of module hashline-ls above ${__dirname}`);
    dir = up;
  }
}

let built: string | undefined;

export function hashlineBin(): string {
  const env = process.env.HASHLINE_BIN;
  if (env) {
    if (!fs.existsSync(env)) throw new Error(`HASHLINE_BIN is ${env}, which does not exist`);
    return path.resolve(env);
  }
  if (built) return built;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hashline-bin-'));
  const bin = path.join(dir, process.platform === 'win32' ? 'hashline-ls.exe' : 'hashline-ls');
  execFileSync('go', ['build', '-o', bin, './cmd/hashline-ls'], { cwd: repoRoot(), stdio: ['ignore', 'inherit', 'inherit'] });
  process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  built = bin;
  return bin;
}

export function describeJson(bin: string = hashlineBin()): string {
  return execFileSync(bin, ['describe', '--json'], { encoding: 'utf8' });
}
