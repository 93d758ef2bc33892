// The real VS Code test: code-server 4.100.3 (VS Code 1.100.3) with this
// platform's .vsix (the one `make vsix` builds, with its bundled hashline-ls)
// and a test-only extension installed, driven in Debian's headless Chromium
// through playwright-core. No hashline-ls is on code-server's PATH and
// hashline.serverPath is not set, so the bundled binary is what runs. The
// tools run through vscode.lm.invokeTool in the real extension host, so
// every call goes extension → language client → hashline-ls →
// workspace/applyEdit → editor.
//
// It checks that the output channel names the bundled binary and its
// version, that a read returns the live buffer with unsaved typing, that the
// confirmation shows an edit's rows with their leading spaces, that an edit
// lands in the open editor, and that a stale edit of a line the user changed
// is refused with the live tag (and that the retry with that tag lands), and
// that the commands for people show the numbered read and the outline.
// Screenshots and logs go to editors/vscode/test-results/.
//
// code-server comes from scripts/install-code-server.sh. Without it, or
// without /usr/bin/chromium, the test skips and says why, unless
// HASHLINE_REQUIRE_EDITORS is set (as in CI), where it fails.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';

import { chromium, type BrowserContext, type Page } from 'playwright-core';

import toolEntries from '../../src/generated/tools.json';
import * as cs from './codeServer';
import { StdioClient } from './mcpClient';

const root = path.resolve(__dirname, '..', '..', '..');
const codeServerBin = process.env.HASHLINE_CODE_SERVER ?? path.join(root, '.cache', 'code-server', 'node_modules', '.bin', 'code-server');
const chromiumBin = process.env.HASHLINE_CHROMIUM ?? '/usr/bin/chromium';
const target = `${process.platform}-${process.arch}`;
const version = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;
const vsix = path.join(root, 'dist', `hashline-${target}-${version}.vsix`);
const results = path.join(root, 'test-results');
const requireEditors = !!process.env.HASHLINE_REQUIRE_EDITORS;

const GREET = 'def greet(name):\n    return f"hello {name}"\n\n\nprint(greet("x"))\n';
// A file no editor has open, which a bridged edit lands in and VS Code saves.
const CLEAN = 'def clean(name):\n    return f"clean {name}"\n';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Why the test cannot run here, or undefined when it can. */
function missing(): string | undefined {
  if (!fs.existsSync(codeServerBin)) {
    return `code-server is not installed at ${codeServerBin}: run editors/vscode/scripts/install-code-server.sh (it needs Debian's ripgrep and libkrb5-dev)`;
  }
  if (!fs.existsSync(chromiumBin)) return `${chromiumBin} is missing: apt-get install chromium`;
  return undefined;
}

/** The text of the editor whose content contains `needle`, with the
 * non-breaking spaces Monaco renders turned back into spaces. */
async function editorText(page: Page, needle: string, timeout = 10_000): Promise<string> {
  const deadline = Date.now() + timeout;
  let last = '';
  for (;;) {
    const texts = await page.locator('.monaco-editor .view-lines').allInnerTexts();
    for (const t of texts) {
      last = t.replace(/\u00a0/g, ' ');
      if (last.includes(needle)) return last;
    }
    if (Date.now() > deadline) throw new Error(`no editor shows ${JSON.stringify(needle)}; last editor text:\n${last}`);
    await sleep(200);
  }
}

/** Runs a command through F1, as a person would. */
async function runCommand(page: Page, title: string): Promise<void> {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: 10_000 });
  await input.fill(`>${title}`);
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
  await row.waitFor({ state: 'visible', timeout: 10_000 });
  await row.click();
}

interface Dialog {
  text: string;
  button: string;
}

/** Runs one step of the test extension and answers its confirmation
 * dialogs (VS Code asks before a tool whose prepareInvocation returns
 * confirmation messages) until the step writes its result. */
async function runStep(page: Page, outDir: string, title: string, step: string, dialogs: Dialog[]): Promise<Record<string, string>> {
  const file = path.join(outDir, `${step}.json`);
  await runCommand(page, title);
  const deadline = Date.now() + 60_000;
  while (!fs.existsSync(file)) {
    if (Date.now() > deadline) throw new Error(`${step} wrote no result within 60 s`);
    const box = page.locator('.monaco-dialog-box');
    if (await box.isVisible()) {
      const text = (await box.innerText()).replace(/\u00a0/g, ' ');
      if (text.includes('Edit greet.py?') && !dialogs.some((d) => d.text.includes('Edit greet.py?'))) {
        await page.screenshot({ path: path.join(results, 'vscode-confirm-edit.png') });
      }
      const yes = box.locator('.dialog-buttons .monaco-button', { hasText: /^Yes$/ });
      const button = (await yes.count()) > 0 ? yes.first() : box.locator('.dialog-buttons .monaco-button').first();
      dialogs.push({ text, button: await button.innerText() });
      await button.click();
      await box.waitFor({ state: 'hidden', timeout: 10_000 });
    }
    await sleep(100);
  }
  const r = JSON.parse(fs.readFileSync(file, 'utf8'));
  assert.equal(r.error, undefined, `${step} failed inside VS Code:\n${r.error}`);
  return r;
}

/** code-server's log files: the extension host's, and one per output
 * channel (the Hashline one holds the extension's lines and the server's
 * log). */
function logFiles(dirs: cs.Dirs): string[] {
  const walk = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
  const logs = path.join(dirs.userData, 'logs');
  return fs.existsSync(logs) ? walk(logs) : [];
}

/** The first line of the Hashline output channel that matches `re`. */
async function hashlineOutputLine(dirs: cs.Dirs, re: RegExp, timeout = 30_000): Promise<string> {
  const deadline = Date.now() + timeout;
  let text = '';
  for (;;) {
    text = logFiles(dirs)
      .filter((f) => /Hashline/.test(path.basename(f)))
      .map((f) => fs.readFileSync(f, 'utf8'))
      .join('');
    const line = text.split('\n').find((l) => re.test(l));
    if (line) return line;
    if (Date.now() > deadline) throw new Error(`the Hashline output has no line matching ${re}; it holds:\n${text}`);
    await sleep(200);
  }
}

/** Copies code-server's logs next to the screenshots. */
function keepLogs(dirs: cs.Dirs, serverLog: string): void {
  fs.writeFileSync(path.join(results, 'code-server.log'), serverLog);
  for (const f of logFiles(dirs)) {
    const name = path.basename(f);
    if (/exthost|Hashline|remoteagent/i.test(name)) fs.copyFileSync(f, path.join(results, `log-${name}`));
  }
}

/** PATH without the folders that hold a hashline-ls, so that only the
 * bundled binary can run. */
function pathWithoutServer(): string {
  return (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter((dir) => dir !== '' && !fs.existsSync(path.join(dir, 'hashline-ls')))
    .join(path.delimiter);
}

test('VS Code: tools through vscode.lm.invokeTool read live buffers, land edits and refuse stale ones', { timeout: 300_000 }, async (t) => {
  const why = missing();
  if (why) {
    if (requireEditors) assert.fail(`${why}; HASHLINE_REQUIRE_EDITORS is set, so this fails instead of skipping`);
    console.log(`SKIP real VS Code test: ${why}`);
    t.skip(why);
    return;
  }
  assert.ok(fs.existsSync(vsix), `${vsix} is missing: \`bash scripts/package.sh ${target}\` builds it (scripts/test.sh does)`);

  fs.rmSync(results, { recursive: true, force: true });
  fs.mkdirSync(results, { recursive: true });
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'hashline-vscode-'));
  const dirs = cs.makeDirs(base);
  const ws = path.join(base, 'ws');
  const outDir = path.join(base, 'out');
  fs.mkdirSync(ws);
  fs.mkdirSync(outDir);
  fs.writeFileSync(path.join(ws, 'greet.py'), GREET);
  fs.writeFileSync(path.join(ws, 'clean.py'), CLEAN);

  const testVsix = path.join(base, 'hashline-test-driver.vsix');
  execFileSync(path.join(root, 'node_modules', '.bin', 'vsce'), ['package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', testVsix], {
    cwd: path.join(root, 'test-extension'),
    stdio: ['ignore', 'ignore', 'inherit'],
  });

  fs.mkdirSync(path.join(dirs.userData, 'User'), { recursive: true });
  fs.writeFileSync(
    path.join(dirs.userData, 'User', 'settings.json'),
    JSON.stringify(
      {
        'hashlineTest.outDir': outDir,
        // A quiet, predictable workbench: no welcome page, tips, update or
        // recommendation pop-ups over the editor, and typing that inserts
        // exactly the keys pressed.
        'workbench.startupEditor': 'none',
        'workbench.tips.enabled': false,
        'workbench.welcomePage.walkthroughs.openOnInstall': false,
        'extensions.ignoreRecommendations': true,
        'extensions.autoCheckUpdates': false,
        'extensions.autoUpdate': false,
        'update.mode': 'none',
        'telemetry.telemetryLevel': 'off',
        'security.workspace.trust.enabled': false,
        'files.autoSave': 'off',
        // What VS Code's save does to a bridged edit it saves.
        'files.trimTrailingWhitespace': true,
        'editor.minimap.enabled': false,
        'editor.fontSize': 15,
        'editor.quickSuggestions': { other: false, comments: false, strings: false },
        'editor.suggestOnTriggerCharacters': false,
        'editor.autoClosingBrackets': 'never',
        'editor.autoClosingQuotes': 'never',
      },
      null,
      2,
    ),
  );

  const t0 = Date.now();
  const timing: string[] = [];
  const mark = (what: string) => timing.push(`${what}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const installed = await cs.installExtensions(codeServerBin, dirs, [vsix, testVsix]);
  const extDirs = fs.readdirSync(dirs.extensions);
  const extDir = extDirs.find((d) => d.startsWith(`hashline.hashline-${version}`));
  assert.ok(extDir, `hashline.hashline-${version} is installed: ${extDirs.join(', ')}\n${installed}`);
  assert.ok(extDirs.some((d) => d.startsWith('hashline-test.hashline-test-driver-')), `the test driver is installed: ${extDirs.join(', ')}`);
  // VS Code keeps the zip entry's mode when it unpacks the .vsix.
  const bundled = path.join(dirs.extensions, extDir, 'bin', target, 'hashline-ls');
  assert.ok((fs.statSync(bundled).mode & 0o111) === 0o111, `${bundled} is executable once installed`);
  mark('extensions installed');

  const envPath = pathWithoutServer();
  const server = await cs.start(codeServerBin, dirs, ws, await cs.freePort(), { PATH: envPath });
  mark('code-server listening');
  const dialogs: Dialog[] = [];
  let context: BrowserContext | undefined;
  let page: Page | undefined;
  let failed = true;
  try {
    // Inside the try: code-server is stopped even when Chromium fails to start.
    context = await chromium.launchPersistentContext(path.join(base, 'chromium'), {
      executablePath: chromiumBin,
      headless: true,
      env: cs.privateEnv(dirs),
      viewport: { width: 1400, height: 860 },
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    page = context.pages()[0] ?? (await context.newPage());
    await page.goto(server.url, { waitUntil: 'domcontentloaded' });
    const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'greet.py' }).first();
    await row.waitFor({ state: 'visible', timeout: 60_000 });
    mark('workbench ready');
    // The output channel says which binary runs, where it came from, and
    // the version the server reports (the one `hashline-ls version` prints).
    const running = await hashlineOutputLine(dirs, /^\[hashline\] running /);
    const serverVersion = execFileSync(bundled, ['version'], { encoding: 'utf8' }).trim();
    assert.equal(running, `[hashline] running ${serverVersion}: ${bundled} (bundled with the extension)`, `PATH was ${envPath}`);
    await row.dblclick();
    await editorText(page, 'def greet(name):');

    // Unsaved typing: a new last line the server can only know from the
    // buffer, never from the disk.
    await page.locator('.monaco-editor .view-lines').first().click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('TYPED = 42');
    await editorText(page, 'TYPED = 42');
    assert.equal(fs.readFileSync(path.join(ws, 'greet.py'), 'utf8'), GREET, 'the typing is not saved');

    // Read, grep, write, then edit line 2 with the read's tag.
    const r = await runStep(page, outDir, 'Hashline Test: Read and Edit', 'readEdit', dialogs);
    mark('read, grep, write and edit done');
    const names = (r.tools as unknown as { name: string }[]).map((x) => x.name).sort();
    assert.deepEqual(names, (toolEntries as { name: string }[]).map((x) => x.name).sort(), 'vscode.lm.tools lists every generated tool');
    assert.equal(r.dirtyBeforeRead, true, 'the buffer had unsaved typing when it was read');
    assert.match(r.read, /^\[greet\.py#[0-9A-F]{4}\]\n1:def greet\(name\):\n2: {4}return f"hello \{name\}"\n3:\n4:\n5:print\(greet\("x"\)\)\n6:TYPED = 42\n?$/, `read:\n${r.read}`);
    assert.match(r.grep, /^\[greet\.py#[0-9A-F]{4}\]\n6:TYPED = 42\n$/, `grep:\n${r.grep}`);
    assert.match(r.write, /^\[notes\.txt#[0-9A-F]{4}\]\n/, `write:\n${r.write}`);
    const notes = r.notesBuffer ?? fs.readFileSync(path.join(ws, 'notes.txt'), 'utf8');
    assert.equal(notes, 'written by hashline_write\n', 'the written file holds the content');
    assert.match(r.edit, /^\[greet\.py#[0-9A-F]{4}\]\n/, `edit:\n${r.edit}`);
    assert.match(r.edit, /^\+ {4}return f"hi \{name\}"$/m, `edit diff:\n${r.edit}`);
    assert.equal(r.bufferAfterEdit, GREET.replace('hello {name}', 'hi {name}') + 'TYPED = 42', 'the edit landed in the open buffer and kept the unsaved line');
    const confirmEdit = dialogs.find((d) => d.text.includes('Edit greet.py?'));
    assert.ok(confirmEdit, `VS Code asked before the edit; dialogs: ${JSON.stringify(dialogs)}`);
    assert.match(confirmEdit.text, /^PUT 2\.=2:$/m, 'the confirmation shows the ops');
    // The dialog's text as rendered: a space HTML collapsed is gone from it.
    assert.match(confirmEdit.text, /^\+ {4}return f"hi \{name\}"$/m, `the confirmation shows the new row with its four spaces: ${JSON.stringify(confirmEdit.text)}`);
    assert.ok(dialogs.some((d) => d.text.includes('Write notes.txt?')), 'VS Code asked before the write');
    assert.equal(dialogs.length, 2, `only the write and the edit asked first, not the read or the grep: ${JSON.stringify(dialogs)}`);

    // The edit shows in the editor a person looks at.
    await editorText(page, 'return f"hi {name}"');
    await page.screenshot({ path: path.join(results, 'vscode-edited.png') });

    // The user changes line 2, the line the next edit touches: an edit with
    // the edit's tag is stale now and must be refused.
    await page.locator('.monaco-editor .view-lines', { hasText: 'def greet' }).first().click();
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('End');
    await page.keyboard.type('  # by hand');
    await editorText(page, '# by hand');

    const s = await runStep(page, outDir, 'Hashline Test: Stale Edit', 'staleEdit', dialogs);
    mark('stale edit refused, retry done');
    assert.match(s.stale, /^EDIT_TAG_MISMATCH: /, `stale edit:\n${s.stale}`);
    assert.match(s.stale, /^live tag: [0-9A-F]{4}$/m, 'the refusal carries the live tag');
    assert.match(s.stale, /^(>>>)?2: {4}return f"hi \{name\}" {2}# by hand$/m, 'the refusal shows the changed line');
    assert.equal(s.bufferAfterStale, s.bufferBefore, 'the refused edit changed nothing');
    assert.ok(s.bufferAfterStale.includes('# by hand') && !s.bufferAfterStale.includes('stale {name}'));
    assert.match(s.retry, /^\[greet\.py#[0-9A-F]{4}\]\n/, `retry with the live tag:\n${s.retry}`);
    assert.ok(s.bufferAfterRetry.includes('    return f"retried {name}"\n'), `retry landed:\n${s.bufferAfterRetry}`);
    assert.ok(s.bufferAfterRetry.includes('TYPED = 42'));
    await editorText(page, 'return f"retried {name}"');

    // Restart the server: the new one gets every open buffer again, unsaved
    // text included, so the read below still shows the live text.
    await runCommand(page, 'Hashline: Restart Server');
    await page.locator('.notifications-toasts', { hasText: 'Hashline: the server restarted.' }).waitFor({ state: 'visible', timeout: 30_000 });
    mark('server restarted');

    // The command for people: the numbered read beside the editor.
    await page.locator('.monaco-editor .view-lines', { hasText: 'def greet' }).first().click();
    await runCommand(page, 'Hashline: Show Read of Current File');
    const shown = await editorText(page, '[greet.py#');
    assert.match(shown, /2: {4}return f"retried \{name\}"/, `the read shown:\n${shown}`);
    assert.match(shown, /6:TYPED = 42/, `the read shown:\n${shown}`);
    await page.screenshot({ path: path.join(results, 'vscode-show-read.png') });
    mark('show read done');

    // Its outline variant: one row per declaration, of the live buffer.
    await page.locator('.monaco-editor .view-lines', { hasText: 'def greet' }).first().click();
    await runCommand(page, 'Hashline: Show Outline of Current File');
    const outline = await editorText(page, '1-2 def');
    assert.match(outline, /^\[greet\.py#[0-9A-F]{4}\]$/m, `the outline shown:\n${outline}`);
    assert.match(outline, /^1-2 def {2}1:def greet\(name\):$/m, `the outline shown:\n${outline}`);
    assert.match(outline, /^6 var {2}6:TYPED = 42$/m, `the outline shows the unsaved line:\n${outline}`);
    await page.screenshot({ path: path.join(results, 'vscode-show-outline.png') });
    mark('show outline done');

    // A terminal agent's hashline-ls mcp over the workspace reaches this
    // server through the endpoint the output channel names: it reads the
    // unsaved buffer, its edit of the dirty buffer lands unsaved, and its
    // edit of a file no editor holds lands and is saved by VS Code, whose
    // save trims the trailing blanks the edit wrote.
    const mcpEnv = { PATH: envPath, HOME: dirs.home, TMPDIR: dirs.tmp };
    const status = execFileSync(bundled, ['mcp', '--status', '--root', ws], { env: mcpEnv, encoding: 'utf8' });
    assert.match(status, /^serving: editor pid \d+/m, `hashline-ls mcp --status:\n${status}`);
    assert.match(status, /^saves: yes/m, `hashline-ls mcp --status:\n${status}`);
    // The restarted server's endpoint, which the output channel names.
    const endpoint = /^endpoint: (\S+) /m.exec(status)?.[1] ?? '';
    const quoted = endpoint.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    await hashlineOutputLine(dirs, new RegExp(`^\\[hashline\\] hashline-ls mcp reaches this server at ${quoted}$`));
    const mcp = new StdioClient(bundled, ['mcp', '--root', ws], mcpEnv);
    try {
      await mcp.initialize();
      const live = await mcp.call('hashline_read', { path: 'greet.py' });
      assert.match(live.text, /^2: {4}return f"retried \{name\}"$/m, `the bridged read:\n${live.text}`);
      assert.match(live.text, /^6:TYPED = 42$/m, `the bridged read shows the unsaved typing:\n${live.text}`);
      const liveTag = /^\[greet\.py#([0-9A-F]{4})\]$/m.exec(live.text)?.[1];
      const dirty = await mcp.call('hashline_edit', { path: 'greet.py', tag: liveTag, ops: 'PUT 2.=2:\n+    return f"bridged {name}"\n' });
      assert.equal(dirty.isError, false, `the bridged edit of greet.py:\n${dirty.text}`);
      assert.match(dirty.text, /warning: greet\.py is not saved: its buffer held unsaved changes/, `the bridged edit of the dirty buffer:\n${dirty.text}`);
      await editorText(page, 'return f"bridged {name}"');
      assert.equal(fs.readFileSync(path.join(ws, 'greet.py'), 'utf8'), GREET, 'the dirty buffer is not saved');
      const cleanRead = await mcp.call('hashline_read', { path: 'clean.py' });
      const cleanTag = /^\[clean\.py#([0-9A-F]{4})\]$/m.exec(cleanRead.text)?.[1];
      const clean = await mcp.call('hashline_edit', { path: 'clean.py', tag: cleanTag, ops: 'PUT 2.=2:\n+    return f"saved {name}"   \n' });
      const saved = CLEAN.replace('clean {name}', 'saved {name}');
      assert.equal(clean.isError, false, `the bridged edit of clean.py:\n${clean.text}`);
      assert.ok(!clean.text.includes('is not saved'), `the bridged edit of clean.py is saved:\n${clean.text}`);
      assert.match(clean.text, /the text that landed differs from the edit/, `the result says the save changed what landed:\n${clean.text}`);
      assert.equal(fs.readFileSync(path.join(ws, 'clean.py'), 'utf8'), saved, 'VS Code saved the edit, trimmed');
      fs.writeFileSync(path.join(results, 'mcp-bridge.txt'), [status, live.text, dirty.text, cleanRead.text, clean.text].join('\n----\n'));
    } finally {
      await mcp.close();
    }
    mark('hashline-ls mcp through the bridge done');

    // A serverPath that names nothing: changing the setting restarts the
    // server, and the failure is told in a notification that names the fix.
    await runStep(page, outDir, 'Hashline Test: Break Server Path', 'breakServerPath', dialogs);
    await page
      .locator('.notifications-toasts', { hasText: 'hashline.serverPath is set to' })
      .waitFor({ state: 'visible', timeout: 30_000 });
    await sleep(600); // the toast fades in
    await page.screenshot({ path: path.join(results, 'vscode-server-missing.png') });
    mark('missing server reported');
    failed = false;
  } finally {
    if (failed) await page?.screenshot({ path: path.join(results, 'vscode-failure.png') }).catch(() => {});
    fs.writeFileSync(path.join(results, 'dialogs.json'), JSON.stringify(dialogs, null, 2));
    // What each step of the test extension saw: the tool results as the
    // model reads them, and the editor's text around them.
    for (const f of fs.readdirSync(outDir)) if (f.endsWith('.json')) fs.copyFileSync(path.join(outDir, f), path.join(results, `step-${f}`));
    await context?.close().catch(() => {});
    await server.stop();
    keepLogs(dirs, server.log());
    console.log(`real VS Code test timing (from extension install): ${timing.join('; ')}`);
    console.log(`screenshots and logs: ${results}`);
    if (!failed) fs.rmSync(base, { recursive: true, force: true });
    else console.log(`kept the run's folder for a look: ${base}`);
  }
  // code-server's process group, with the extension host and hashline-ls,
  // is gone.
  const pid = server.proc.pid as number;
  assert.throws(() => process.kill(-pid, 0), /ESRCH/, 'nothing of code-server is left running');
});
