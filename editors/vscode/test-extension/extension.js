// Test-only. Each command runs one step of a real VS Code test: it calls
// the hashline tools through vscode.lm.invokeTool, as a chat extension would,
// and writes what came back, with the live text of the open editor, to
// <hashlineTest.outDir>/<step>.json for the test driver to check.
//
// The typing soak's agent runs inside a chat request, as a chat
// extension's tool calls do: a default chat participant of its own takes
// the request, with a language model of its own that is never asked
// anything (VS Code hands a chat request to a participant only when a model
// exists). Tools called with the request's toolInvocationToken run without
// a dialog when chat.tools.autoApprove is on, so the person typing keeps the
// keyboard.
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

// request: the chat request the call runs in, if any.
async function invoke(name, input, request, token) {
  const res = await vscode.lm.invokeTool(name, { input, toolInvocationToken: request && request.toolInvocationToken }, token);
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

// The typing soak's agent: reads the file and edits one of its rows with
// the read's tag, replacing the row (keeping what the read showed after its
// value) or inserting a line after it, as fast as it is answered, until
// the plan's time is up; then writes every edit and how it ended.
const ROW = /^line_(\d+) = ('a\d+'|\d+)(.*)$/;
const HEADER = /^\[[^\]#]+#([0-9A-F]{4})\]/;
const CODE = /^([A-Z_]+):/;

/** The soak the driver asked for (soak-plan.json), until its request runs. */
let pendingSoak;

const soak = step('soak', async (r) => {
  await waitForTools();
  pendingSoak = JSON.parse(fs.readFileSync(path.join(outDir(), 'soak-plan.json'), 'utf8'));
  await vscode.commands.executeCommand('workbench.action.chat.open', { query: 'soak', isPartialQuery: false });
  r.opened = true;
});

function rand(n) {
  return Math.floor(Math.random() * n);
}

async function runSoak(plan, request, token) {
  const until = Date.now() + plan.ms;
  writeResult('soakStarted', { until });
  const edits = [];
  for (let k = 1; Date.now() < until && !token.isCancellationRequested; k++) {
    const from = Date.now();
    const read = await invoke('hashline_read', { path: plan.file }, request, token);
    const tag = HEADER.exec(read);
    if (!tag) throw new Error(`the read has no header:\n${read}`);
    const rows = new Map(); // row → [its line in the read, what follows its value]
    for (const l of read.split('\n')) {
      const n = /^(\d+):(.*)$/.exec(l);
      const m = n && ROW.exec(n[2]);
      if (m) rows.set(Number(m[1]), [Number(n[1]), m[3]]);
    }
    if (rand(3) === 0) await new Promise((res) => setTimeout(res, rand(300)));
    const row = 1 + rand(plan.rows);
    if (!rows.has(row)) throw new Error(`the read shows no row ${row}:\n${read}`);
    const [line, suffix] = rows.get(row);
    const ed = { kind: 'replace', row, from };
    let ops;
    if (rand(5) < 3) {
      ed.mark = `'a${k}'`;
      ops = `PUT ${line}.=${line}:\n+line_${row} = ${ed.mark}${suffix}\n`;
    } else {
      ed.kind = 'insert';
      ed.mark = `agent_${k} = ${k}`;
      ops = `PUT >${line}:\n+${ed.mark}\n`;
    }
    const start = Date.now();
    const res = await invoke('hashline_edit', { path: plan.file, tag: tag[1], ops }, request, token);
    ed.to = Date.now();
    ed.took = ed.to - start;
    ed.ok = HEADER.test(res);
    if (!ed.ok) {
      const code = CODE.exec(res);
      ed.code = code ? code[1] : '?';
      ed.answer = res.slice(0, 2000);
    }
    edits.push(ed);
  }
  return edits;
}

// The chat participant: runs the soak the driver planned, in this request.
async function participant(request, _context, stream, token) {
  const plan = pendingSoak;
  pendingSoak = undefined;
  if (!plan) {
    stream.markdown('No soak is planned.');
    return;
  }
  const result = { step: 'soakAgent' };
  try {
    result.edits = await runSoak(plan, request, token);
    stream.markdown(`Soak done: ${result.edits.length} edits.`);
  } catch (err) {
    result.error = err && err.stack ? err.stack : String(err);
    stream.markdown(`Soak failed: ${result.error}`);
  }
  writeResult('soakAgent', result);
}

// What VS Code holds for each open file: its text, version and whether it
// is dirty.
const state = step('state', async (r) => {
  r.docs = {};
  for (const d of vscode.workspace.textDocuments) {
    if (d.uri.scheme === 'file') r.docs[path.basename(d.uri.fsPath)] = { text: d.getText(), version: d.version, isDirty: d.isDirty };
  }
});

// Arms a person who types the moment an edit shows: once the file's text
// holds the plan's marker, the cursor goes to the end of the plan's line
// and the text is typed there through VS Code's type command, the one
// keyboard input runs (typeOnEdit-plan.json: file, marker, line, text).
const typeOnEdit = step('typeOnEdit', async (r) => {
  const plan = JSON.parse(fs.readFileSync(path.join(outDir(), 'typeOnEdit-plan.json'), 'utf8'));
  const sub = vscode.workspace.onDidChangeTextDocument(async (e) => {
    if (path.basename(e.document.uri.fsPath) !== plan.file || !e.document.getText().includes(plan.marker)) return;
    sub.dispose();
    const typed = { step: 'typed', versionAtEdit: e.document.version };
    try {
      const editor = vscode.window.visibleTextEditors.find((ed) => ed.document === e.document);
      if (!editor) throw new Error(`${plan.file} is not in a visible editor`);
      const end = e.document.lineAt(plan.line - 1).range.end;
      editor.selection = new vscode.Selection(end, end);
      await vscode.commands.executeCommand('type', { text: plan.text });
      typed.versionAfterType = e.document.version;
    } catch (err) {
      typed.error = err && err.stack ? err.stack : String(err);
    }
    writeResult(`typed-${plan.file}`, typed);
  });
  r.armed = plan;
});

// A language model that is never asked: a chat request needs one to exist.
const MODEL = {
  vendor: 'hashline-test',
  name: 'Hashline test model',
  family: 'hashline-test',
  version: '1',
  maxInputTokens: 1000,
  maxOutputTokens: 1000,
  isDefault: true,
  isUserSelectable: false,
};
const model = {
  async provideLanguageModelResponse() {
    throw new Error('the test model answers nothing: the test participant calls the tools itself');
  },
  async provideTokenCount() {
    return 1;
  },
};

exports.activate = (context) => {
  context.subscriptions.push(
    vscode.commands.registerCommand('hashlineTest.readEdit', readEdit),
    vscode.commands.registerCommand('hashlineTest.staleEdit', staleEdit),
    vscode.commands.registerCommand('hashlineTest.breakServerPath', breakServerPath),
    vscode.commands.registerCommand('hashlineTest.soak', soak),
    vscode.commands.registerCommand('hashlineTest.state', state),
    vscode.commands.registerCommand('hashlineTest.typeOnEdit', typeOnEdit),
    vscode.lm.registerChatModelProvider('hashline-test-model', model, MODEL),
    vscode.chat.createChatParticipant('hashlineTest.agent', participant),
  );
};
exports.deactivate = () => {};
