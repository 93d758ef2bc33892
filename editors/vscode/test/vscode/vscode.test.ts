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
// confirmation shows the diff an edit's dry run plans, its rows with their
// leading spaces (a refused one asks nothing), that an edit
// lands in the open editor, and that a stale edit of a line the user changed
// is refused with the live tag (and that the retry with that tag lands), and
// that the commands for people show the numbered read and the outline.
// Screenshots and logs go to editors/vscode/test-results/vscode/.
//
// code-server comes from scripts/install-code-server.sh. Without it, or
// without /usr/bin/chromium, the test skips and says why, unless
// HASHLINE_REQUIRE_EDITORS is set (as in CI), where it fails.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';

import toolEntries from '../../src/generated/tools.json';
import { McpClient } from './mcp';
import * as wb from './workbench';

const GREET = 'def greet(name):\n    return f"hello {name}"\n\n\nprint(greet("x"))\n';
// A file no editor has open, which a bridged edit lands in and VS Code saves.
const CLEAN = 'def clean(name):\n    return f"clean {name}"\n';

test('VS Code: tools through vscode.lm.invokeTool read live buffers, land edits and refuse stale ones', { timeout: 300_000 }, async (t) => {
  if (!wb.canRun(t, 'real VS Code test')) return;
  const results = wb.resultsDir('vscode');
  const w = await wb.openWorkbench({
    files: { 'greet.py': GREET, 'clean.py': CLEAN },
    // What VS Code's save does to a bridged edit it saves.
    settings: { 'files.trimTrailingWhitespace': true },
    readyFile: 'greet.py',
    results,
  });
  const { page, outDir, ws, mark } = w;
  const dialogs: wb.Dialog[] = [];
  const onDialog = async (text: string): Promise<void> => {
    if (text.includes('Edit greet.py?') && !dialogs.some((d) => d.text.includes('Edit greet.py?'))) {
      await page.screenshot({ path: path.join(results, 'vscode-confirm-edit.png') });
    }
  };
  let failed = true;
  try {
    // The output channel says which binary runs, where it came from, and
    // the version the server reports (the one `hashline-ls version` prints).
    const running = await wb.hashlineOutputLine(w.dirs, /^\[hashline\] running /);
    const serverVersion = execFileSync(w.bundled, ['version'], { encoding: 'utf8' }).trim();
    assert.equal(running, `[hashline] running ${serverVersion}: ${w.bundled} (bundled with the extension)`, `PATH was ${w.envPath}`);
    await wb.openFile(page, 'greet.py', 'def greet(name):');

    // Unsaved typing: a new last line the server can only know from the
    // buffer, never from the disk.
    await page.locator('.monaco-editor .view-lines').first().click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('TYPED = 42');
    await wb.editorText(page, 'TYPED = 42');
    assert.equal(fs.readFileSync(path.join(ws, 'greet.py'), 'utf8'), GREET, 'the typing is not saved');

    // Read, grep, write, then edit line 2 with the read's tag.
    const r = await wb.runStep(page, outDir, 'Hashline Test: Read and Edit', 'readEdit', dialogs, onDialog);
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
    // The change the server planned against the live buffer, not the ops;
    // the dialog's text as rendered: a space HTML collapsed is gone from it.
    assert.doesNotMatch(confirmEdit.text, /PUT 2\.=2:/, `the confirmation shows the change, not the ops: ${JSON.stringify(confirmEdit.text)}`);
    assert.match(confirmEdit.text, /^--- a\/greet\.py\n\+\+\+ b\/greet\.py\n@@ -1,5 \+1,5 @@\n def greet\(name\):\n- {4}return f"hello \{name\}"\n\+ {4}return f"hi \{name\}"$/m,
      `the confirmation shows the diff, rows with their four spaces: ${JSON.stringify(confirmEdit.text)}`);
    const confirmWrite = dialogs.find((d) => d.text.includes('Write notes.txt?'));
    assert.ok(confirmWrite, 'VS Code asked before the write');
    assert.match(confirmWrite.text, /^--- \/dev\/null\n\+\+\+ b\/notes\.txt\n@@ -0,0 \+1 @@\n\+written by hashline_write$/m, `the write's confirmation shows its diff: ${JSON.stringify(confirmWrite.text)}`);
    assert.equal(dialogs.length, 2, `only the write and the edit asked first, not the read or the grep: ${JSON.stringify(dialogs)}`);

    // The edit shows in the editor a person looks at.
    await wb.editorText(page, 'return f"hi {name}"');
    await page.screenshot({ path: path.join(results, 'vscode-edited.png') });

    // The user changes line 2, the line the next edit touches: an edit with
    // the edit's tag is stale now and must be refused.
    await page.locator('.monaco-editor .view-lines', { hasText: 'def greet' }).first().click();
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('End');
    await page.keyboard.type('  # by hand');
    await wb.editorText(page, '# by hand');

    const s = await wb.runStep(page, outDir, 'Hashline Test: Stale Edit', 'staleEdit', dialogs, onDialog);
    mark('stale edit refused, retry done');
    assert.match(s.stale, /^EDIT_TAG_MISMATCH: /, `stale edit:\n${s.stale}`);
    assert.match(s.stale, /^live tag: [0-9A-F]{4}$/m, 'the refusal carries the live tag');
    assert.match(s.stale, /^(>>>)?2: {4}return f"hi \{name\}" {2}# by hand$/m, 'the refusal shows the changed line');
    assert.equal(s.bufferAfterStale, s.bufferBefore, 'the refused edit changed nothing');
    assert.ok(s.bufferAfterStale.includes('# by hand') && !s.bufferAfterStale.includes('stale {name}'));
    // The stale edit's dry run was refused, so VS Code did not ask; the
    // retry asked.
    assert.equal(dialogs.length, 3, `only the retry asked in the stale step: ${JSON.stringify(dialogs)}`);
    assert.match(dialogs[2].text, /^\+ {4}return f"retried \{name\}"  # by hand$|^\+ {4}return f"retried \{name\}"$/m, `the retry's confirmation: ${JSON.stringify(dialogs[2].text)}`);
    assert.match(s.retry, /^\[greet\.py#[0-9A-F]{4}\]\n/, `retry with the live tag:\n${s.retry}`);
    assert.ok(s.bufferAfterRetry.includes('    return f"retried {name}"\n'), `retry landed:\n${s.bufferAfterRetry}`);
    assert.ok(s.bufferAfterRetry.includes('TYPED = 42'));
    await wb.editorText(page, 'return f"retried {name}"');

    // Restart the server: the new one gets every open buffer again, unsaved
    // text included, so the read below still shows the live text.
    await wb.runCommand(page, 'Hashline: Restart Server');
    await page.locator('.notifications-toasts', { hasText: 'Hashline: the server restarted.' }).waitFor({ state: 'visible', timeout: 30_000 });
    mark('server restarted');

    // The command for people: the numbered read beside the editor.
    await page.locator('.monaco-editor .view-lines', { hasText: 'def greet' }).first().click();
    await wb.runCommand(page, 'Hashline: Show Read of Current File');
    const shown = await wb.editorText(page, '[greet.py#');
    assert.match(shown, /2: {4}return f"retried \{name\}"/, `the read shown:\n${shown}`);
    assert.match(shown, /6:TYPED = 42/, `the read shown:\n${shown}`);
    await page.screenshot({ path: path.join(results, 'vscode-show-read.png') });
    mark('show read done');

    // Its outline variant: one row per declaration, of the live buffer.
    await page.locator('.monaco-editor .view-lines', { hasText: 'def greet' }).first().click();
    await wb.runCommand(page, 'Hashline: Show Outline of Current File');
    const outline = await wb.editorText(page, '1-2 def');
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
    const mcpEnv = { PATH: w.envPath, HOME: w.dirs.home, TMPDIR: w.dirs.tmp };
    const status = execFileSync(w.bundled, ['mcp', '--status', '--root', ws], { env: mcpEnv, encoding: 'utf8' });
    assert.match(status, /^serving: editor pid \d+/m, `hashline-ls mcp --status:\n${status}`);
    assert.match(status, /^saves: yes/m, `hashline-ls mcp --status:\n${status}`);
    // The restarted server's endpoint, which the output channel names.
    const endpoint = /^endpoint: (\S+) /m.exec(status)?.[1] ?? '';
    const quoted = endpoint.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    await wb.hashlineOutputLine(w.dirs, new RegExp(`^\\[hashline\\] hashline-ls mcp reaches this server at ${quoted}$`));
    const mcp = new McpClient(w.bundled, ws, mcpEnv);
    try {
      await mcp.initialize();
      const live = await mcp.call('hashline_read', { path: 'greet.py' });
      assert.match(live.text, /^2: {4}return f"retried \{name\}"$/m, `the bridged read:\n${live.text}`);
      assert.match(live.text, /^6:TYPED = 42$/m, `the bridged read shows the unsaved typing:\n${live.text}`);
      const liveTag = /^\[greet\.py#([0-9A-F]{4})\]$/m.exec(live.text)?.[1];
      const dirty = await mcp.call('hashline_edit', { path: 'greet.py', tag: liveTag, ops: 'PUT 2.=2:\n+    return f"bridged {name}"\n' });
      assert.equal(dirty.isError, false, `the bridged edit of greet.py:\n${dirty.text}`);
      assert.match(dirty.text, /warning: greet\.py is not saved: its buffer held unsaved changes/, `the bridged edit of the dirty buffer:\n${dirty.text}`);
      await wb.editorText(page, 'return f"bridged {name}"');
      assert.equal(fs.readFileSync(path.join(ws, 'greet.py'), 'utf8'), GREET, 'the dirty buffer is not saved');
      const cleanRead = await mcp.call('hashline_read', { path: 'clean.py' });
      const cleanTag = /^\[clean\.py#([0-9A-F]{4})\]$/m.exec(cleanRead.text)?.[1];
      const clean = await mcp.call('hashline_edit', { path: 'clean.py', tag: cleanTag, ops: 'PUT 2.=2:\n+    return f"saved {name}"   \n' });
      const saved = CLEAN.replace('clean {name}', 'saved {name}');
      assert.equal(clean.isError, false, `the bridged edit of clean.py:\n${clean.text}`);
      assert.ok(!clean.text.includes('is not saved'), `the bridged edit of clean.py is saved:\n${clean.text}`);
      assert.match(clean.text, /the text that landed differs from the edit|saved with other text than the edit left/, `the result says the save changed what landed:\n${clean.text}`);
      assert.equal(fs.readFileSync(path.join(ws, 'clean.py'), 'utf8'), saved, 'VS Code saved the edit, trimmed');
      fs.writeFileSync(path.join(results, 'mcp-bridge.txt'), [status, live.text, dirty.text, cleanRead.text, clean.text].join('\n----\n'));
    } finally {
      mcp.close();
    }
    mark('hashline-ls mcp through the bridge done');

    // A serverPath that names nothing: changing the setting restarts the
    // server, and the failure is told in a notification that names the fix.
    await wb.runStep(page, outDir, 'Hashline Test: Break Server Path', 'breakServerPath', dialogs, onDialog);
    await page
      .locator('.notifications-toasts', { hasText: 'hashline.serverPath is set to' })
      .waitFor({ state: 'visible', timeout: 30_000 });
    await wb.sleep(600); // the toast fades in
    await page.screenshot({ path: path.join(results, 'vscode-server-missing.png') });
    mark('missing server reported');
    failed = false;
  } finally {
    fs.writeFileSync(path.join(results, 'dialogs.json'), JSON.stringify(dialogs, null, 2));
    await w.close(failed);
  }
});
