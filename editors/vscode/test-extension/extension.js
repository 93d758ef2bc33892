// Test-only. Each command runs one step of the real VS Code test: it calls
// the hashline tools through vscode.lm.invokeTool, as a chat extension would,
// and writes what came back, with the live text of the open editor, to
// <hashlineTest.outDir>/<step>.json for the test driver to check.
'use strict';
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');

const TOOLS = ['hashline_read', 'hashline_grep', 'hashline_write', 'hashline_edit'];
const TAG = /^\[greet\.py#([0-9A-Fa-f]{4})\]/m;
const LIVE_TAG = /^live tag: ([0-9A-Fa-f]{4})$/m;

/** The tag the server gave for greet.py after the last edit. */
let lastTag;

function outDir() {
  const dir = vscode.workspace.getConfiguration('hashlineTest').get('outDir');
  if (!dir) throw new Error('the hashlineTest.outDir setting is not set');
  return dir;
}

// Written to a temporary name and renamed, so the driver never reads half.
function writeResult(step, result) {
  const file = path.join(outDir(), `${step}.json`);
  fs.writeFileSync(file + '.tmp', JSON.stringify(result, null, 2));
  fs.renameSync(file + '.tmp', file);
}

async function waitForTools() {
  const deadline = Date.now() + 30000;
  for (;;) {
    const names = vscode.lm.tools.map((t) => t.name);
    if (TOOLS.every((n) => names.includes(n))) return vscode.lm.tools.filter((t) => t.name.startsWith('hashline_'));
    if (Date.now() > deadline) throw new Error(`the hashline tools did not appear in vscode.lm.tools: ${names.join(', ')}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function invoke(name, input) {
  const res = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined });
  return res.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : JSON.stringify(p))).join('');
}

function greetDoc() {
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && path.basename(d.uri.fsPath) === 'greet.py');
  if (!doc) throw new Error('greet.py is not open in the editor');
  return doc;
}

/** Gives VS Code a moment to report the text an edit left. */
async function settle(doc, changed) {
  const deadline = Date.now() + 5000;
  while (!changed(doc.getText()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
}

function step(name, body) {
  return async () => {
    const result = { step: name };
    try {
      await body(result);
    } catch (err) {
      result.error = err && err.stack ? err.stack : String(err);
    }
    writeResult(name, result);
  };
}

// Read the live buffer (with the unsaved line the driver typed), grep it,
// write a new file, then edit line 2 with the read's tag.
const readEdit = step('readEdit', async (r) => {
  const tools = await waitForTools();
  r.tools = tools.map((t) => ({ name: t.name, required: (t.inputSchema && t.inputSchema.required) || [] }));
  const doc = greetDoc();
  r.dirtyBeforeRead = doc.isDirty;
  r.bufferBeforeRead = doc.getText();
  r.read = await invoke('hashline_read', { path: 'greet.py' });
  const m = TAG.exec(r.read);
  if (!m) throw new Error(`the read has no [greet.py#TAG] header:\n${r.read}`);
  r.readTag = m[1];
  r.grep = await invoke('hashline_grep', { pattern: 'TYPED' });
  r.write = await invoke('hashline_write', { path: 'notes.txt', content: 'written by hashline_write\n' });
  const notes = vscode.workspace.textDocuments.find((d) => path.basename(d.uri.fsPath) === 'notes.txt');
  r.notesBuffer = notes ? notes.getText() : null;
  const notesFile = path.join(vscode.workspace.workspaceFolders[0].uri.fsPath, 'notes.txt');
  r.notesDisk = fs.existsSync(notesFile) ? fs.readFileSync(notesFile, 'utf8') : null;
  r.edit = await invoke('hashline_edit', { path: 'greet.py', tag: r.readTag, ops: 'PUT 2.=2:\n+    return f"hi {name}"\n' });
  await settle(doc, (t) => t.includes('hi {name}'));
  r.bufferAfterEdit = doc.getText();
  const e = TAG.exec(r.edit);
  lastTag = e ? e[1] : undefined;
  r.editTag = lastTag;
});

// The driver has typed into line 2 since the edit. An edit of line 2 with the
// edit's tag is stale and must be refused; the retry with the live tag the
// refusal carries must land.
const staleEdit = step('staleEdit', async (r) => {
  const doc = greetDoc();
  r.bufferBefore = doc.getText();
  r.staleTag = lastTag;
  r.stale = await invoke('hashline_edit', { path: 'greet.py', tag: lastTag, ops: 'PUT 2.=2:\n+    return f"stale {name}"\n' });
  await new Promise((res) => setTimeout(res, 300));
  r.bufferAfterStale = doc.getText();
  const live = LIVE_TAG.exec(r.stale);
  r.liveTag = live ? live[1] : undefined;
  if (r.liveTag) {
    r.retry = await invoke('hashline_edit', { path: 'greet.py', tag: r.liveTag, ops: 'PUT 2.=2:\n+    return f"retried {name}"\n' });
    await settle(doc, (t) => t.includes('retried {name}'));
    r.bufferAfterRetry = doc.getText();
  }
});

// Points hashline.serverPath at a file that does not exist, through the
// configuration API, as the Settings editor would.
const breakServerPath = step('breakServerPath', async (r) => {
  r.serverPath = path.join(outDir(), 'no-such-hashline-ls');
  await vscode.workspace.getConfiguration('hashline').update('serverPath', r.serverPath, vscode.ConfigurationTarget.Global);
});

exports.activate = (context) => {
  context.subscriptions.push(
    vscode.commands.registerCommand('hashlineTest.readEdit', readEdit),
    vscode.commands.registerCommand('hashlineTest.staleEdit', staleEdit),
    vscode.commands.registerCommand('hashlineTest.breakServerPath', breakServerPath),
  );
};
exports.deactivate = () => {};
