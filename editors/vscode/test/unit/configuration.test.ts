// Every setting the server reads must be one a person can find and set in
// VS Code's settings: declared in package.json, with the server's default.
// The server's settings are the JSON keys of lsp.Settings.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';

import { repoRoot } from '../../scripts/serverBin';
import { CLIENT_ONLY } from '../../src/settings';

const root = path.resolve(__dirname, '..', '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const declared: Record<string, { default?: unknown }> = pkg.contributes.configuration.properties;

// The extension sets newFileEol itself, from files.eol.
const DERIVED = ['newFileEol'];

/** The JSON keys of the server's Settings struct, and the defaults
 * defaultSettings gives, as written in lsp/initialize.go. */
function serverSettings(): { keys: string[]; defaults: Record<string, number> } {
  const src = fs.readFileSync(path.join(repoRoot(), 'lsp', 'initialize.go'), 'utf8');
  const body = /^type Settings struct \{\n([\s\S]*?)^\}/m.exec(src);
  assert.ok(body, 'lsp/initialize.go declares type Settings struct');
  const fields = [...body[1].matchAll(/^\t(\w+)\s+[^\n`]+`json:"(\w+)"`/gm)];
  assert.ok(fields.length > 0, 'lsp.Settings has fields with JSON keys');
  const keyOf = Object.fromEntries(fields.map((m) => [m[1], m[2]]));
  const defaults: Record<string, number> = {};
  const dflt = /^func defaultSettings\(\) Settings \{ return Settings\{(.*)\} \}$/m.exec(src);
  assert.ok(dflt, 'lsp/initialize.go has defaultSettings on one line');
  for (const m of dflt[1].matchAll(/(\w+): (\d+)/g)) defaults[keyOf[m[1]]] = Number(m[2]);
  return { keys: fields.map((m) => m[2]), defaults };
}

describe('contributes.configuration', () => {
  const server = serverSettings();

  it('declares every setting the server reads, except those the extension derives', () => {
    for (const k of server.keys) {
      if (DERIVED.includes(k)) {
        assert.ok(!(`hashline.${k}` in declared), `hashline.${k} is set by the extension, not declared`);
        continue;
      }
      assert.ok(`hashline.${k}` in declared, `package.json declares hashline.${k}, which the server reads`);
    }
  });

  it('gives each the default the server has', () => {
    for (const [k, v] of Object.entries(server.defaults)) {
      assert.equal(declared[`hashline.${k}`]?.default, v, `hashline.${k}`);
    }
  });

  it('declares nothing else but the extension\'s own settings', () => {
    for (const name of Object.keys(declared)) {
      const k = name.replace(/^hashline\./, '').split('.')[0];
      assert.ok(server.keys.includes(k) || (CLIENT_ONLY as readonly string[]).includes(k), `${name} is read by the server or the extension`);
    }
  });
});
