// What the real VS Code tests share: the code-server they run (with this
// platform's .vsix and the test-only extension installed, settings for a
// quiet workbench), the headless Chromium that shows it, and the steps a
// test takes in it as a person would: open a file, run a command through
// F1, answer a dialog, read what an editor shows, find the Hashline output.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { chromium, type BrowserContext, type Page } from 'playwright-core';

import * as cs from './codeServer';

export const root = path.resolve(__dirname, '..', '..', '..');
const codeServerBin = process.env.HASHLINE_CODE_SERVER ?? path.join(root, '.cache', 'code-server', 'node_modules', '.bin', 'code-server');
const chromiumBin = process.env.HASHLINE_CHROMIUM ?? '/usr/bin/chromium';
export const target = `${process.platform}-${process.arch}`;
export const version = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;
const vsix = path.join(root, 'dist', `hashline-${target}-${version}.vsix`);
const requireEditors = !!process.env.HASHLINE_REQUIRE_EDITORS;
// The test-only extension uses proposed API (a default chat participant
// and a language model of its own, so that a chat request exists for the
// tools to run in); code-server enables it for this extension alone.
const TEST_EXTENSION = 'hashline-test.hashline-test-driver';

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Why the tests cannot run here, or undefined when they can. */
function missing(): string | undefined {
  if (!fs.existsSync(codeServerBin)) {
    return `code-server is not installed at ${codeServerBin}: run editors/vscode/scripts/install-code-server.sh (it needs Debian's ripgrep and libkrb5-dev)`;
  }
  if (!fs.existsSync(chromiumBin)) return `${chromiumBin} is missing: apt-get install chromium`;
  return undefined;
}

/** Skips the test (or fails it, with HASHLINE_REQUIRE_EDITORS) when
 * code-server or Chromium is missing; true when it can run. */
export function canRun(t: { skip: (why: string) => void }, what: string): boolean {
  const why = missing();
  if (!why) return true;
  if (requireEditors) assert.fail(`${why}; HASHLINE_REQUIRE_EDITORS is set, so this fails instead of skipping`);
  console.log(`SKIP ${what}: ${why}`);
  t.skip(why);
  return false;
}

/** test-results/<name>, emptied: each test file keeps its screenshots and
 * logs in a folder of its own. */
export function resultsDir(name: string): string {
  const dir = path.join(root, 'test-results', name);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** The settings of a quiet, predictable workbench: no welcome page, tips,
 * update or recommendation pop-ups over the editor, and typing that
 * inserts exactly the keys pressed. */
const QUIET_SETTINGS = {
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
  'editor.minimap.enabled': false,
  'editor.fontSize': 15,
  'editor.quickSuggestions': { other: false, comments: false, strings: false },
  'editor.suggestOnTriggerCharacters': false,
  'editor.autoClosingBrackets': 'never',
  'editor.autoClosingQuotes': 'never',
};

export interface WorkbenchSetup {
  /** The workspace's files, by name. */
  files: Record<string, string>;
  /** Settings beside the quiet ones. */
  settings?: Record<string, unknown>;
  /** A file whose Explorer row says the workbench is ready. */
  readyFile: string;
  results: string;
}

/** One code-server with the extensions installed, and the Chromium page
 * that shows it. */
export interface Workbench {
  base: string;
  dirs: cs.Dirs;
  ws: string;
  /** Where the test extension writes what each step saw. */
  outDir: string;
  /** The hashline-ls the installed .vsix carries. */
  bundled: string;
  envPath: string;
  server: cs.Running;
  page: Page;
  results: string;
  /** Notes a moment of the run, for the timing line. */
  mark: (what: string) => void;
  /** Stops Chromium and code-server, keeps the logs; removes the run's
   * folder unless the test failed. */
  close: (failed: boolean) => Promise<void>;
}

/** PATH without the folders that hold a hashline-ls, so that only the
 * bundled binary can run. */
function pathWithoutServer(): string {
  return (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter((dir) => dir !== '' && !fs.existsSync(path.join(dir, 'hashline-ls')))
    .join(path.delimiter);
}

/** Installs the .vsix and the test extension in a private code-server,
 * starts it on a workspace holding setup.files, and opens it in headless
 * Chromium; resolves once the Explorer shows setup.readyFile. */
export async function openWorkbench(setup: WorkbenchSetup): Promise<Workbench> {
  assert.ok(fs.existsSync(vsix), `${vsix} is missing: \`bash scripts/package.sh ${target}\` builds it (scripts/test.sh does)`);
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'hashline-vscode-'));
  const dirs = cs.makeDirs(base);
  const ws = path.join(base, 'ws');
  const outDir = path.join(base, 'out');
  fs.mkdirSync(ws);
  fs.mkdirSync(outDir);
  for (const [name, text] of Object.entries(setup.files)) fs.writeFileSync(path.join(ws, name), text);

  const testVsix = path.join(base, 'hashline-test-driver.vsix');
  execFileSync(path.join(root, 'node_modules', '.bin', 'vsce'), ['package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', testVsix], {
    cwd: path.join(root, 'test-extension'),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  fs.mkdirSync(path.join(dirs.userData, 'User'), { recursive: true });
  fs.writeFileSync(
    path.join(dirs.userData, 'User', 'settings.json'),
    JSON.stringify({ 'hashlineTest.outDir': outDir, ...QUIET_SETTINGS, ...setup.settings }, null, 2),
  );

  const t0 = Date.now();
  const timing: string[] = [];
  const mark = (what: string) => timing.push(`${what}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const installed = await cs.installExtensions(codeServerBin, dirs, [vsix, testVsix]);
  const extDirs = fs.readdirSync(dirs.extensions);
  const extDir = extDirs.find((d) => d.startsWith(`hashline.hashline-${version}`));
  assert.ok(extDir, `hashline.hashline-${version} is installed: ${extDirs.join(', ')}\n${installed}`);
  assert.ok(extDirs.some((d) => d.startsWith(`${TEST_EXTENSION}-`)), `the test driver is installed: ${extDirs.join(', ')}`);
  // VS Code keeps the zip entry's mode when it unpacks the .vsix.
  const bundled = path.join(dirs.extensions, extDir, 'bin', target, 'hashline-ls');
  assert.ok((fs.statSync(bundled).mode & 0o111) === 0o111, `${bundled} is executable once installed`);
  mark('extensions installed');

  const envPath = pathWithoutServer();
  const server = await cs.start(codeServerBin, dirs, ws, await cs.freePort(), { PATH: envPath }, ['--enable-proposed-api', TEST_EXTENSION]);
  mark('code-server listening');
  let context: BrowserContext | undefined;
  let page: Page | undefined;
  const close = async (failed: boolean): Promise<void> => {
    if (failed) await page?.screenshot({ path: path.join(setup.results, 'failure.png') }).catch(() => {});
    // What each step of the test extension saw: the tool results as the
    // model reads them, and the editor's text around them.
    for (const f of fs.readdirSync(outDir)) if (f.endsWith('.json')) fs.copyFileSync(path.join(outDir, f), path.join(setup.results, `step-${f}`));
    await context?.close().catch(() => {});
    await server.stop();
    keepLogs(dirs, server.log(), setup.results);
    console.log(`timing (from extension install): ${timing.join('; ')}`);
    console.log(`screenshots and logs: ${setup.results}`);
    if (failed) {
      console.log(`kept the run's folder for a look: ${base}`);
      return;
    }
    fs.rmSync(base, { recursive: true, force: true });
    // code-server's process group, with the extension host and
    // hashline-ls, is gone.
    const pid = server.proc.pid as number;
    assert.throws(() => process.kill(-pid, 0), /ESRCH/, 'nothing of code-server is left running');
  };
  try {
    context = await chromium.launchPersistentContext(path.join(base, 'chromium'), {
      executablePath: chromiumBin,
      headless: true,
      env: cs.privateEnv(dirs),
      viewport: { width: 1400, height: 860 },
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    page = context.pages()[0] ?? (await context.newPage());
    await page.goto(server.url, { waitUntil: 'domcontentloaded', timeout: 120_000 });
    await explorerRow(page, setup.readyFile).waitFor({ state: 'visible', timeout: 60_000 });
    mark('workbench ready');
  } catch (err) {
    await close(true);
    throw err;
  }
  return { base, dirs, ws, outDir, bundled, envPath, server, page, results: setup.results, mark, close };
}

/** A file's row in the Explorer. */
export function explorerRow(page: Page, name: string) {
  return page.locator('.explorer-folders-view .monaco-list-row', { hasText: name }).first();
}

/** Opens a file by double-clicking its row in the Explorer (quick open is
 * unreliable in code-server) and waits until an editor shows `needle`. */
export async function openFile(page: Page, name: string, needle: string): Promise<void> {
  await explorerRow(page, name).dblclick();
  await editorText(page, needle);
}

/** The text of the editor whose content contains `needle`, with the
 * non-breaking spaces Monaco renders turned back into spaces. */
export async function editorText(page: Page, needle: string, timeout = 10_000): Promise<string> {
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

/** Runs a command through F1, as a person would. A command the palette
 * does not list yet (the extension host of a loaded machine may take a
 * while to register it) is looked for again, for up to 60 s. */
export async function runCommand(page: Page, title: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    await input.fill(`>${title}`);
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
    try {
      await row.waitFor({ state: 'visible', timeout: 10_000 });
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await page.keyboard.press('Escape');
      continue;
    }
    await row.click();
    return;
  }
}

export interface Dialog {
  text: string;
  button: string;
}

/** Runs one step of the test extension and answers its confirmation
 * dialogs (VS Code asks before a tool whose prepareInvocation returns
 * confirmation messages, when no chat request runs it) until the step
 * writes its result; onDialog sees each dialog before it is answered. */
export async function runStep(
  page: Page,
  outDir: string,
  title: string,
  step: string,
  dialogs: Dialog[] = [],
  onDialog: (text: string) => Promise<void> = async () => {},
): Promise<Record<string, string>> {
  const file = path.join(outDir, `${step}.json`);
  fs.rmSync(file, { force: true }); // a step may run more than once
  await runCommand(page, title);
  const deadline = Date.now() + 60_000;
  while (!fs.existsSync(file)) {
    if (Date.now() > deadline) throw new Error(`${step} wrote no result within 60 s`);
    const box = page.locator('.monaco-dialog-box');
    if (await box.isVisible()) {
      const text = (await box.innerText()).replace(/\u00a0/g, ' ');
      await onDialog(text);
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
export async function hashlineOutputLine(dirs: cs.Dirs, re: RegExp, timeout = 120_000): Promise<string> {
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
function keepLogs(dirs: cs.Dirs, serverLog: string, results: string): void {
  fs.writeFileSync(path.join(results, 'code-server.log'), serverLog);
  for (const f of logFiles(dirs)) {
    const name = path.basename(f);
    if (/exthost|Hashline|remoteagent/i.test(name)) fs.copyFileSync(f, path.join(results, `log-${name}`));
  }
}
