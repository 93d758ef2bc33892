// package.json's tools must be exactly what the server describes: a model
// that is told one schema and served another fails in ways nobody sees.
// This runs the server binary built from this repository (or HASHLINE_BIN).

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';

import { describeJson } from '../../scripts/serverBin';
import { contributions, entries, firstSentence, parseDescribe } from '../../src/manifest';

const root = path.resolve(__dirname, '..', '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const generated = JSON.parse(fs.readFileSync(path.join(root, 'src', 'generated', 'tools.json'), 'utf8'));
const FIX = 'package.json and src/generated/tools.json disagree with `hashline-ls describe --json`: run `npm run gen-tools` in editors/vscode';

describe('manifest and describe', () => {
  const d = parseDescribe(describeJson());

  it('contributes every tool the server describes, with its words and schema', () => {
    assert.deepEqual(pkg.contributes.languageModelTools, contributions(d), FIX);
  });

  it('forwards every tool to the command the server names', () => {
    assert.deepEqual(generated, entries(d), FIX);
  });

  it('has the four tools the extension is built around', () => {
    const names = d.tools.map((t) => t.name);
    for (const n of ['hashline_read', 'hashline_grep', 'hashline_write', 'hashline_edit']) {
      assert.ok(names.includes(n), `describe lists ${n}`);
    }
  });

  it('keeps every contribution valid for VS Code', () => {
    for (const t of pkg.contributes.languageModelTools) {
      // VS Code drops a tool without these, and reserves these prefixes.
      assert.ok(t.name && t.displayName && t.modelDescription, t.name);
      assert.match(t.name, /^(?!copilot_|vscode_)[\w-]+$/);
      assert.match(t.toolReferenceName, /^[\w-]+$/);
      assert.equal(t.inputSchema.type, 'object');
    }
  });

  it('declares the commands it registers, and activates at startup', () => {
    const cmds = pkg.contributes.commands.map((c: { command: string; title: string; category: string }) => `${c.category}: ${c.title}`);
    assert.deepEqual(cmds, ['Hashline: Show Read of Current File', 'Hashline: Show Outline of Current File', 'Hashline: Restart Server']);
    assert.ok(pkg.activationEvents.includes('onStartupFinished'));
    assert.match(pkg.engines.vscode, /^\^1\.95/);
  });
});

describe('firstSentence', () => {
  it('stops at the first full stop followed by a space', () => {
    assert.equal(firstSentence('Read a file. Then more.'), 'Read a file.');
    assert.equal(firstSentence('Uses v1.2 here. More'), 'Uses v1.2 here.');
    assert.equal(firstSentence('No stop'), 'No stop');
  });
});
