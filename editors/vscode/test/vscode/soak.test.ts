// The typing soak in real VS Code (code-server 4.100.3 in headless
// Chromium, with this platform's .vsix): a person types in the browser, as
// real key events, words at the bottom of app.py and notes at the end of its
// rows (10 to 30 keys a second), and saves with Ctrl+S now and then, while
// an agent in the same window reads the file and edits the same rows
// through the language-model tools (hashline_read, then hashline_edit with
// that read's tag: a row replaced, or a line inserted after a row), as fast
// as it is answered. The agent is the test extension's chat participant:
// its tool calls run in a chat request, with chat.tools.autoApprove on, as
// a person who lets the agent edit while they type has it. An oracle then
// judges the document and the disk: every word typed is there once, in the
// order typed; every edit reported done is where its anchors named, and
// every refused one left no trace; no other line changed; the disk holds
// the document when it is not dirty, and never typing that was not saved.
// The run's figures are printed.
//
// HASHLINE_SOAK sets how long the person types (default 10s, inside
// npm run test:vscode; `make soak` runs this file alone for 60s, through
// `scripts/test.sh soak`, which builds the .vsix first).
//
// Then the save rule of the bridge: `hashline-ls mcp`, as a terminal agent
// runs it, is bridged to this window's server; after its edit of a file
// that had no unsaved changes, VS Code saves the file, a save participant's
// change included; a file the person typed in the moment the edit landed
// keeps that typing off the disk, and the answer says what the disk holds.
// Keeping the typing off the disk fails today and is marked todo
// (TYPING_SAVED): its figures are printed.
//
// Screenshots and logs go to editors/vscode/test-results/soak/.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';

import type { Page } from 'playwright-core';

import { McpClient } from './mcp';
import * as wb from './workbench';

const ROWS = 30;
const FILE = 'app.py';

/** A duration like 8s, 60s, 2m or 500ms; a bare number is seconds. */
function parseDuration(s: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(s.trim());
  if (!m) throw new Error(`HASHLINE_SOAK=${s} is not a duration such as 60s`);
  const n = Number(m[1]);
  return m[2] === 'ms' ? n : m[2] === 'm' ? n * 60_000 : n * 1000;
}

const soakSpec = process.env.HASHLINE_SOAK || '10s';
const soakMs = parseDuration(soakSpec);

/** n lines "line_N = N". */
function numbered(n: number): string {
  let s = '';
  for (let i = 1; i <= n; i++) s += `line_${i} = ${i}\n`;
  return s;
}

const rand = (n: number) => Math.floor(Math.random() * n);

/** One word the person typed: at the bottom (row 0) or at the end of a row. */
interface Typed {
  word: string;
  row: number;
}

interface RowTouch {
  row: number;
  start: number;
  end: number;
}

/** One edit of the agent, as the test extension reports it. */
interface AgentEdit {
  kind: 'replace' | 'insert';
  row: number;
  mark: string;
  ok: boolean;
  code?: string;
  answer?: string;
  took: number;
  from: number;
  to: number;
}

interface Doc {
  text: string;
  version: number;
  isDirty: boolean;
}

/** What the person did, for the oracle. */
class Person {
  tokens: Typed[] = [];
  keys = 0;
  appends: RowTouch[] = [];
  saved = new Set<string>();
  saves = 0;
  saveTimes: number[] = [];
  private next = 0;
  private wordMs = 0;
  private wordKeys = 0;

  constructor(
    private readonly page: Page,
    private readonly disk: () => string,
  ) {}

  private async press(key: string): Promise<void> {
    await this.page.keyboard.press(key);
    this.keys++;
  }

  /** Types a word a key at a time, 10 to 30 keys a second: each key
   * starts 33 to 100 ms after the one before, or as soon as that one is
   * taken in when the browser takes longer. */
  private async typeWord(): Promise<string> {
    const word = `p${String(++this.next).padStart(4, '0')}`;
    const start = Date.now();
    for (const c of word) {
      const next = Date.now() + 33 + rand(67);
      await this.press(c);
      await wb.sleep(next - Date.now());
    }
    this.wordMs += Date.now() - start;
    this.wordKeys += word.length;
    return word;
  }

  /** The keys a second within words, as the person achieved it. */
  rate(): number {
    return this.wordMs === 0 ? 0 : (1000 * this.wordKeys) / this.wordMs;
  }

  toJSON() {
    return { tokens: this.tokens, keys: this.keys, appends: this.appends, saved: [...this.saved], saves: this.saveTimes, rate: this.rate() };
  }

  /** A word on a line of its own at the bottom: the file ends with a
   * newline, so the end of the file is an empty last line. */
  async bottomWord(): Promise<void> {
    await this.press('Control+End');
    const word = await this.typeWord();
    await this.press('Enter');
    this.tokens.push({ word, row: 0 });
  }

  /** A note at the end of a row: the row is found with the find widget,
   * as a person looks for it, then " # word" typed after its text. */
  async note(): Promise<void> {
    const row = 1 + rand(ROWS);
    const start = Date.now();
    await this.press('Control+f');
    const find = `line_${row} =`;
    await this.page.keyboard.type(find);
    this.keys += find.length;
    await this.press('Enter');
    await this.press('Escape');
    await this.press('End');
    for (const c of ' # ') await this.press(c === ' ' ? 'Space' : c);
    const word = await this.typeWord();
    this.tokens.push({ word, row });
    this.appends.push({ row, start, end: Date.now() });
  }

  /** Ctrl+S; the words finished before it may be on disk. The person
   * waits until the file holds them (the tab's dot goes) before typing on:
   * keys typed while VS Code writes would go into that save. */
  async save(): Promise<void> {
    for (const tok of this.tokens) this.saved.add(tok.word);
    await this.press('Control+s');
    this.saves++;
    this.saveTimes.push(Date.now());
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline) {
      const on = new Set(wordsOn(this.disk()));
      if (this.tokens.every((t) => on.has(t.word))) return;
      await wb.sleep(20);
    }
  }
}

const DISK_WORD = /(?:^| # )(p\d*)/gm;

/** The words (whole or half typed) in text, but for a last line still
 * being written. */
function wordsOn(text: string): string[] {
  const i = text.lastIndexOf('\n');
  if (i < 0) return [];
  return [...text.slice(0, i).matchAll(DISK_WORD)].map((m) => m[1]);
}

const ROW = /^line_(\d+) = ('a\d+'|\d+)((?: # p\d{4})*)$/;
const AGENT = /^agent_(\d+) = \d+$/;
const WORD = /^p\d{4}$/;

function arraysEqual(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** What the oracle found, and its counts: lines an edit got wrong (a
 * value, a misplaced or missing insert, a trace of a refused edit, a line
 * that is nothing it should be), words typed that are not once where and
 * in the order typed, and words on the disk that were never saved. */
interface Verdict {
  problems: string[];
  wrongWrites: number;
  lostWords: number;
  unsavedSaved: number;
}

/** The oracle: what is wrong with the document and the disk after the
 * soak, given what the person typed and saved and what the agent did. */
function judge(doc: Doc, disk: string, person: Person, edits: AgentEdit[], diskBad: Set<string>): Verdict {
  const v: Verdict = { problems: [], wrongWrites: 0, lostWords: 0, unsavedSaved: diskBad.size };
  const problems = v.problems;
  const bad = (s: string) => problems.push(s);
  const wrong = (s: string) => {
    v.wrongWrites++;
    bad(s);
  };
  const lost = (s: string, want: string[], got: string[]) => {
    v.lostWords += want.filter((w) => got.filter((g) => g === w).length !== 1).length || 1;
    bad(s);
  };
  // The last edit that landed on each row names its value; every insert
  // that landed sits below its row; the person's words are where typed.
  const lastValue = new Map<number, string>();
  const inserted = new Map<string, number>();
  const refused = new Set<string>();
  for (const ed of edits) {
    if (!ed.ok) refused.add(ed.mark);
    else if (ed.kind === 'replace') lastValue.set(ed.row, ed.mark);
    else inserted.set(ed.mark, ed.row);
  }
  const lines = doc.text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  else bad(`the document does not end with a newline: ${JSON.stringify(lines[lines.length - 1])}`);
  const bottom: string[] = [];
  const rowWords = new Map<number, string[]>();
  const seenInsert = new Set<string>();
  let seenRow = 0;
  lines.forEach((l, i) => {
    const m = ROW.exec(l);
    if (m) {
      const n = Number(m[1]);
      if (n !== seenRow + 1) wrong(`line ${i + 1} is row ${n} after row ${seenRow}`);
      seenRow = n;
      const want = lastValue.get(n) ?? String(n);
      if (m[2] !== want) wrong(`row ${n} holds ${m[2]}, want ${want} (the last edit of it that was reported done)`);
      rowWords.set(n, [...(rowWords.get(n) ?? []), ...m[3].replace(/#/g, '').split(/\s+/).filter(Boolean)]);
      return;
    }
    if (AGENT.test(l)) {
      const row = inserted.get(l);
      if (row === undefined) wrong(`line ${i + 1} ${JSON.stringify(l)} is an insert that was refused, or never made`);
      else if (seenInsert.has(l)) wrong(`line ${i + 1} ${JSON.stringify(l)} is there twice`);
      else if (seenRow !== row) wrong(`line ${i + 1} ${JSON.stringify(l)} sits below row ${seenRow}, want below row ${row}`);
      seenInsert.add(l);
      return;
    }
    if (WORD.test(l)) {
      bottom.push(l);
      return;
    }
    wrong(`line ${i + 1} ${JSON.stringify(l)} is no row, insert or typed word`);
  });
  if (seenRow !== ROWS) wrong(`the last row is ${seenRow}, want ${ROWS}`);
  for (const mark of inserted.keys()) if (!seenInsert.has(mark)) wrong(`the insert ${JSON.stringify(mark)} was reported done and is not in the document`);
  for (const mark of refused) {
    if (doc.text.includes(mark + '\n') || doc.text.includes(mark + ' ')) wrong(`the refused edit ${JSON.stringify(mark)} left a trace`);
  }
  // Every word once, where and in the order typed.
  const wantBottom = person.tokens.filter((t) => t.row === 0).map((t) => t.word);
  if (!arraysEqual(bottom, wantBottom)) lost(`the words at the bottom are [${bottom.join(' ')}], want [${wantBottom.join(' ')}]`, wantBottom, bottom);
  for (let row = 1; row <= ROWS; row++) {
    const want = person.tokens.filter((t) => t.row === row).map((t) => t.word);
    const got = rowWords.get(row) ?? [];
    if (!arraysEqual(got, want)) lost(`row ${row} ends with the words [${got.join(' ')}], want [${want.join(' ')}]`, want, got);
  }
  if (!doc.isDirty && disk !== doc.text) bad(`the document is not dirty but the disk holds other text:\n${disk}`);
  if (diskBad.size > 0) bad(`the disk held typing that was never saved: ${[...diskBad].sort().join(' ')}`);
  return v;
}

/** The run's figures: edits done and refused by code, keystrokes, the
 * latency of the edits done, and the share refused although they touched
 * no row the person typed on while the edit was on its way. */
function figures(person: Person, edits: AgentEdit[]): string {
  const took = edits.filter((e) => e.ok).map((e) => e.took).sort((a, b) => a - b);
  const pct = (p: number) => (took.length === 0 ? 0 : took[Math.min(took.length - 1, Math.floor((took.length * p) / 100))]);
  const codes = new Map<string, number>();
  let untouched = 0;
  for (const ed of edits) {
    if (ed.ok) continue;
    codes.set(ed.code ?? '?', (codes.get(ed.code ?? '?') ?? 0) + 1);
    const touched = person.appends.some((a) => a.row === ed.row && a.start < ed.to && a.end > ed.from);
    if (!touched) untouched++;
  }
  const byCode = [...codes].map(([c, n]) => `${c} ${n}`).sort();
  const share = edits.length === 0 ? 0 : (100 * untouched) / edits.length;
  return (
    `soak ${soakSpec}: ${edits.length} edits, ${took.length} done, refused: [${byCode.join(', ')}]; ` +
    `${person.tokens.length} words, ~${person.keys} keys (${person.rate().toFixed(1)} keys/s within words), ${person.saves} saves; done edits p50 ${pct(50)}ms p95 ${pct(95)}ms; ` +
    `refused untouching a typed line: ${untouched} (${share.toFixed(1)}%, target <= 2%)`
  );
}

/** Waits for a file the test extension writes, and reads it. */
async function awaitResult<T>(outDir: string, step: string, timeout: number): Promise<T> {
  const file = path.join(outDir, `${step}.json`);
  const deadline = Date.now() + timeout;
  while (!fs.existsSync(file)) {
    if (Date.now() > deadline) throw new Error(`${step} wrote no result within ${timeout / 1000} s`);
    await wb.sleep(50);
  }
  const r = JSON.parse(fs.readFileSync(file, 'utf8'));
  assert.equal(r.error, undefined, `${step} failed inside VS Code:\n${r.error}`);
  return r as T;
}

async function docs(w: wb.Workbench): Promise<Record<string, Doc>> {
  const r = await wb.runStep(w.page, w.outDir, 'Hashline Test: State', 'state');
  return r.docs as unknown as Record<string, Doc>;
}

/** Clicks into the editor of the file whose text holds `needle`, so the
 * keyboard types there. */
async function focusEditor(page: Page, needle: string): Promise<void> {
  await page.locator('.monaco-editor .view-lines', { hasText: needle }).first().click();
}

async function typingSoak(w: wb.Workbench): Promise<void> {
  const { page, outDir } = w;
  const file = path.join(w.ws, FILE);
  const readDisk = () => {
    try {
      return fs.readFileSync(file, 'utf8');
    } catch {
      return '';
    }
  };
  await wb.hashlineOutputLine(w.dirs, /^\[hashline\] running /);
  await wb.openFile(page, FILE, 'line_1 = 1');
  fs.writeFileSync(path.join(outDir, 'soak-plan.json'), JSON.stringify({ file: FILE, rows: ROWS, ms: soakMs }));
  await wb.runStep(page, outDir, 'Hashline Test: Soak', 'soak');
  const { until } = await awaitResult<{ until: number }>(outDir, 'soakStarted', 120_000);
  w.mark('the agent started');
  await focusEditor(page, 'line_1 =');

  const person = new Person(page, readDisk);
  // The disk every 50 ms: a word on it that the person had not finished
  // before a save began is typing that was not saved.
  const diskBad = new Set<string>();
  const watch = setInterval(() => {
    for (const word of wordsOn(readDisk())) if (!person.saved.has(word)) diskBad.add(word);
  }, 50);
  let shot = false;
  try {
    let lastSave = Date.now();
    while (Date.now() < until) {
      if (!shot && Date.now() > until - soakMs / 2) {
        await page.screenshot({ path: path.join(w.results, 'soak-typing.png') });
        shot = true;
      }
      if (Date.now() - lastSave > 3000) {
        await person.save();
        lastSave = Date.now();
      } else if (rand(4) === 0) {
        await person.note();
      } else {
        await person.bottomWord();
      }
    }
  } finally {
    clearInterval(watch);
  }
  w.mark('the person stopped');
  const agent = await awaitResult<{ edits: AgentEdit[] }>(outDir, 'soakAgent', 90_000);
  w.mark('the agent stopped');
  const doc = (await docs(w))[FILE];
  assert.ok(doc, `VS Code holds no document for ${FILE}`);
  // Whether it is modified, as its tab shows it: the extension host's
  // isDirty stays false after a save during which an edit landed.
  const extensionHostDirty = doc.isDirty;
  doc.isDirty = await tabDirty(page, FILE);
  await page.screenshot({ path: path.join(w.results, 'soak-end.png') });
  fs.writeFileSync(path.join(w.results, 'soak-run.json'), JSON.stringify({ person, edits: agent.edits, doc, extensionHostDirty, disk: readDisk(), diskBad: [...diskBad] }, null, 2));
  const v = judge(doc, readDisk(), person, agent.edits, diskBad);
  console.log(figures(person, agent.edits));
  console.log(`oracle: ${v.wrongWrites} wrong writes, ${v.lostWords} lost or misplaced words typed, ${v.unsavedSaved} words of unsaved typing on the disk, ${v.problems.length} problems in all`);
  assert.deepEqual(v.problems, [], `the oracle found:\n${v.problems.join('\n')}\nthe document holds:\n${doc.text}`);
}

/** The socket the Hashline output says hashline-ls mcp reaches. */
async function endpoint(w: wb.Workbench): Promise<string> {
  const line = await wb.hashlineOutputLine(w.dirs, /^\[hashline\] hashline-ls mcp reaches this server at /);
  return line.replace(/^.* at /, '');
}

const TAG = /^\[[^\]#]+#([0-9A-F]{4})\]/;

async function bridgedEdit(agent: McpClient, name: string, ops: string): Promise<string> {
  const r = await agent.call('hashline_read', { path: name });
  const tag = TAG.exec(r.text);
  assert.ok(!r.isError && tag, `read ${name}:\n${r.text}`);
  const e = await agent.call('hashline_edit', { path: name, tag: tag[1], ops });
  assert.ok(!e.isError && TAG.test(e.text), `edit ${name}:\n${e.text}`);
  return e.text;
}

// Known, and not fixable in the extension with VS Code's API, which has
// no save of one version: a save writes what the browser holds once the
// request reaches it and the save participants ran, so a key typed there
// meanwhile, which the extension host had not heard of when it compared
// the version, is saved with the edit. The extension sees it on the disk
// afterwards and says so, and the edit's answer passes that on.
const TYPING_SAVED = 'known: a key typed in the browser as the save travels is saved with the edit';

/** Rounds in which the person types as a bridged edit lands: typed by
 * the test extension the moment the edit shows, and with real keys. */
const HOOK_ROUNDS = 3;
const KEY_ROUNDS = process.env.HASHLINE_SOAK ? 20 : 6;

/** A terminal agent bridged to this window's server: hashline-ls mcp
 * started in the workspace with the editor's TMPDIR, where the endpoint
 * the Hashline output names is. */
async function bridgedAgent(w: wb.Workbench): Promise<McpClient> {
  const sock = await endpoint(w);
  assert.ok(sock.startsWith(w.dirs.tmp + path.sep), `the endpoint ${sock} is in the editor's TMPDIR ${w.dirs.tmp}`);
  const agent = new McpClient(w.bundled, w.ws, { PATH: w.envPath, HOME: w.dirs.home, TMPDIR: w.dirs.tmp });
  await agent.initialize();
  return agent;
}

const disk = (w: wb.Workbench, name: string) => fs.readFileSync(path.join(w.ws, name), 'utf8');

/** Whether the tab of a file (by default the active one) shows unsaved
 * changes. */
async function tabDirty(page: Page, name?: string): Promise<boolean> {
  const tab = name ? page.locator('.tabs-container .tab', { hasText: name }).first() : page.locator('.tabs-container .tab.active').first();
  return /\bdirty\b/.test((await tab.getAttribute('class')) ?? '');
}

/** A clean document: the bridged edit is saved, through VS Code's save. */
async function bridgedSaveOfCleanDocument(w: wb.Workbench): Promise<void> {
  const agent = await bridgedAgent(w);
  try {
    await wb.openFile(w.page, 'saved.py', 'line_1 = 1');
    // Bridged: a read shows typing that only the editor holds. Undone,
    // the document is clean again.
    await focusEditor(w.page, 'line_1 =');
    await w.page.keyboard.press('Control+Home');
    await w.page.keyboard.press('End');
    await w.page.keyboard.type(' # draft');
    await wb.editorText(w.page, '# draft');
    // The browser shows the keys before the extension host has them: the
    // server sees the last of them a moment later.
    let draft = await agent.call('hashline_read', { path: 'saved.py' });
    for (const deadline = Date.now() + 5000; !/^1:line_1 = 1 # draft$/m.test(draft.text) && Date.now() < deadline; ) {
      await wb.sleep(100);
      draft = await agent.call('hashline_read', { path: 'saved.py' });
    }
    assert.match(draft.text, /^1:line_1 = 1 # draft$/m, `the read shows the editor's buffer:\n${draft.text}`);
    for (let i = 0; i < 5 && (await tabDirty(w.page)); i++) {
      await w.page.keyboard.press('Control+z');
      for (const deadline = Date.now() + 2000; (await tabDirty(w.page)) && Date.now() < deadline; ) await wb.sleep(50);
    }
    assert.equal(await tabDirty(w.page), false, 'the typing is undone');
    const saved = await bridgedEdit(agent, 'saved.py', "PUT 5.=5:\n+line_5 = 'bridged'\n");
    assert.doesNotMatch(saved, /is not saved/, `the edit of a clean document is saved:\n${saved}`);
    const after = (await docs(w))['saved.py'];
    assert.ok(after.text.includes("line_5 = 'bridged'\n"), `the edit is in the document:\n${after.text}`);
    assert.equal(await tabDirty(w.page, 'saved.py'), false, 'the document is saved');
    assert.equal(disk(w, 'saved.py'), after.text, 'the disk holds the document');
    await w.page.screenshot({ path: path.join(w.results, 'bridge-saved.png') });
  } finally {
    agent.close();
  }
}

/** A save participant that changes the text (trimming trailing
 * whitespace, as format-on-save would reformat): the bridged edit is saved
 * and the answer says so; the disk holds what VS Code's save wrote. */
async function bridgedSaveWithParticipant(w: wb.Workbench): Promise<void> {
  const agent = await bridgedAgent(w);
  try {
    await wb.openFile(w.page, 'trim.txt', 'line_1 = 1');
    const answer = await bridgedEdit(agent, 'trim.txt', "PUT 5.=5:\n+line_5 = 'bridged'\n");
    const after = (await docs(w))['trim.txt'];
    const onDisk = disk(w, 'trim.txt');
    assert.ok(!/ \n/.test(onDisk) && onDisk.includes("line_5 = 'bridged'\n"), `the save trimmed the trailing spaces and holds the edit:\n${JSON.stringify(onDisk)}`);
    assert.equal(await tabDirty(w.page, 'trim.txt'), false, 'the document is saved');
    assert.equal(onDisk, after.text, 'the disk holds the document');
    assert.doesNotMatch(answer, /is not saved/, `the edit is saved, and the answer says so:\n${answer}`);
  } finally {
    agent.close();
  }
}

/** What one round left: the disk before the edit and after it, the
 * text the edit alone would leave, the answer, and whether the document
 * is dirty. */
interface Round {
  how: string;
  before: string;
  edited: string;
  onDisk: string;
  answer: string;
  dirty: boolean;
}

/** The round's outcome, and what is wrong with it: the disk must hold
 * the text before the edit or the text the edit left, never more, with
 * the document still dirty; and the answer must say which (not saved,
 * saved, or saved with other text than the edit left). */
interface Outcome {
  name: string;
  disk?: string;
  answer?: string;
}

function outcome(r: Round): Outcome {
  const unsaved = /is not saved/.test(r.answer);
  const name = r.onDisk === r.before ? 'left unsaved' : r.onDisk === r.edited ? 'saved before the typing' : 'saved the typing';
  const o: Outcome = { name };
  const shown = `${r.how}: %s:\n${r.onDisk}\nthe edit answered:\n${r.answer}`;
  if (name === 'saved the typing' || !r.dirty) {
    const what = [name === 'saved the typing' ? 'the disk holds typing the person never saved' : '', r.dirty ? '' : 'the document is not dirty, though the person never saved the typing'];
    o.disk = shown.replace('%s', what.filter(Boolean).join('; '));
  }
  if (name === 'left unsaved' && !unsaved) o.answer = shown.replace('%s', 'the answer says the file is saved, and the disk keeps the old text');
  if (name === 'saved the typing' && !/is saved with other text than the edit left/.test(r.answer)) {
    o.answer = shown.replace('%s', 'the disk holds the edit and typing, and the answer does not say so');
  }
  if (name !== 'left unsaved' && unsaved) o.answer = shown.replace('%s', `the answer says the disk keeps the old text, and it holds ${name === 'saved the typing' ? 'the edit and typing' : 'the edit'}`);
  return o;
}

/** What the rounds of typingAsBridgedEditLands found, for the checks. */
const rounds = { ran: false, disk: [] as string[], answer: [] as string[] };

/** The person types the moment a bridged edit lands in a clean document:
 * that typing never reaches the disk, whether the save ran before it or
 * was refused. First typed by the test extension as the edit shows in the
 * extension host (through VS Code's type command), then with real keys at
 * a random moment while the edit is on its way. */
async function typingAsBridgedEditLands(w: wb.Workbench): Promise<void> {
  const { page, outDir } = w;
  const agent = await bridgedAgent(w);
  const names: string[] = [];
  const tally = (how: string, rounds: string[]) => {
    const counts = new Map<string, number>();
    for (const n of rounds) counts.set(n, (counts.get(n) ?? 0) + 1);
    names.push(`${how}: ${[...counts].map(([n, c]) => `${c} ${n}`).join(', ')}`);
  };
  try {
    const hook: string[] = [];
    for (let i = 1; i <= HOOK_ROUNDS; i++) {
      const name = `typed${i}.py`;
      const mark = `line_10 = 'bridged ${i}'`;
      await wb.openFile(page, name, 'line_1 = 1');
      await focusEditor(page, 'line_1 =');
      fs.writeFileSync(path.join(outDir, 'typeOnEdit-plan.json'), JSON.stringify({ file: name, marker: mark, line: 3, text: 'half' }));
      await wb.runStep(page, outDir, 'Hashline Test: Type On Edit', 'typeOnEdit');
      const before = disk(w, name);
      const answer = await bridgedEdit(agent, name, `PUT 10.=10:\n+${mark}\n`);
      await awaitResult(outDir, `typed-${name}`, 10_000);
      const doc = (await docs(w))[name];
      if (i === 1) await page.screenshot({ path: path.join(w.results, 'bridge-typed.png') });
      assert.ok(doc.text.includes('line_3 = 3half\n') && doc.text.includes(mark + '\n'), `${name}: the document holds the edit and the typing:\n${doc.text}`);
      const edited = before.replace('line_10 = 10\n', mark + '\n');
      const o = outcome({ how: `${name}, typed on the edit`, before, edited, onDisk: disk(w, name), answer, dirty: await tabDirty(page, name) });
      hook.push(o.name);
      note(o);
    }
    tally('typed by the extension as the edit showed', hook);

    // Real keys: the person saves (Ctrl+S), the agent edits, and the
    // person types a word at the end of line 3 starting 0 to 250 ms after
    // the agent's call went out.
    const keys: string[] = [];
    await wb.openFile(page, 'race.py', 'line_1 = 1');
    await focusEditor(page, 'line_1 =');
    for (let i = 1; i <= KEY_ROUNDS; i++) {
      await page.keyboard.press('Control+s');
      for (const deadline = Date.now() + 5000; (await tabDirty(page)) && Date.now() < deadline; ) await wb.sleep(20);
      assert.equal(await tabDirty(page), false, `race.py round ${i}: the person's save is done`);
      await page.keyboard.press('Control+Home');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('End');
      const before = disk(w, 'race.py');
      const r = await agent.call('hashline_read', { path: 'race.py' });
      const tag = TAG.exec(r.text);
      assert.ok(tag, r.text);
      const mark = `line_10 = 'bridged ${i}'`;
      const word = ` k${String(i).padStart(2, '0')}`;
      const edit = agent.call('hashline_edit', { path: 'race.py', tag: tag[1], ops: `PUT 10.=10:\n+${mark}\n` });
      await wb.sleep(rand(250));
      for (const c of word) {
        const next = Date.now() + 33 + rand(67);
        await page.keyboard.press(c === ' ' ? 'Space' : c);
        await wb.sleep(next - Date.now());
      }
      const e = await edit;
      assert.ok(!e.isError, `race.py round ${i}: the edit lands:\n${e.text}`);
      await wb.sleep(300); // what the disk and the tab show once VS Code is done
      const edited = before.replace(/^line_10 = .*$/m, mark);
      const o = outcome({ how: `race.py round ${i}, real keys`, before, edited, onDisk: disk(w, 'race.py'), answer: e.text, dirty: await tabDirty(page) });
      keys.push(o.name);
      if (o.disk && rounds.disk.length === 0) await page.screenshot({ path: path.join(w.results, 'bridge-typing-saved.png') });
      note(o);
    }
    tally('real keys as the edit was on its way', keys);
  } finally {
    agent.close();
  }
  rounds.ran = true;
  console.log(`bridged saves with typing as the edit landed: ${names.join('; ')}`);
}

function note(o: Outcome): void {
  if (o.disk) rounds.disk.push(o.disk);
  if (o.answer) rounds.answer.push(o.answer);
}

// The oracle on documents with one fault each: a judge that finds
// nothing would let every soak pass.
test('the soak oracle finds a wrong write, a lost word and unsaved typing on the disk', () => {
  const rows = numbered(ROWS).split('\n');
  const text = (edit: (r: string[]) => void) => {
    const r = [...rows];
    edit(r);
    return r.join('\n');
  };
  const person = { tokens: [{ word: 'p0001', row: 0 }, { word: 'p0002', row: 3 }] } as unknown as Person;
  const edits: AgentEdit[] = [
    { kind: 'replace', row: 5, mark: "'a1'", ok: true, took: 1, from: 0, to: 1 },
    { kind: 'insert', row: 7, mark: 'agent_2 = 2', ok: false, code: 'EDIT_TAG_MISMATCH', took: 1, from: 0, to: 1 },
  ];
  const good = text((r) => {
    r[2] += ' # p0002';
    r[4] = "line_5 = 'a1'";
    r.splice(ROWS, 0, 'p0001');
  });
  const doc = (t: string): Doc => ({ text: t, version: 1, isDirty: true });
  const ok = judge(doc(good), '', person, edits, new Set());
  assert.deepEqual(ok.problems, []);
  const cases: [string, string, Set<string>, keyof Verdict][] = [
    ['the edit on the wrong row', good.replace("line_5 = 'a1'", 'line_5 = 5').replace('line_6 = 6', "line_6 = 'a1'"), new Set(), 'wrongWrites'],
    ['a refused insert that landed', good.replace('line_7 = 7\n', 'line_7 = 7\nagent_2 = 2\n'), new Set(), 'wrongWrites'],
    ['a word typed that is gone', good.replace(' # p0002', ''), new Set(), 'lostWords'],
    ['a word twice', good.replace('\np0001\n', '\np0001\np0001\n'), new Set(), 'lostWords'],
    ['unsaved typing on the disk', good, new Set(['p0001']), 'unsavedSaved'],
  ];
  for (const [what, t, diskBad, count] of cases) {
    const v = judge(doc(t), '', person, edits, diskBad);
    assert.ok((v[count] as number) > 0 && v.problems.length > 0, `${what}: ${JSON.stringify(v)}`);
  }
  const clean = judge({ text: good, version: 1, isDirty: false }, good.replace('p0001', ''), person, edits, new Set());
  assert.match(clean.problems.join('\n'), /not dirty but the disk holds other text/);
});

test('VS Code typing soak: a person types in the browser while the language-model tools edit the same rows', { timeout: 360_000 + 2 * soakMs }, async (t) => {
  if (!wb.canRun(t, 'VS Code typing soak')) return;
  const results = wb.resultsDir('soak');
  const files: Record<string, string> = {
    [FILE]: numbered(ROWS),
    'saved.py': numbered(12),
    'race.py': numbered(12),
    'trim.txt': numbered(12).replace('line_2 = 2\n', 'line_2 = 2   \n'),
  };
  for (let i = 1; i <= HOOK_ROUNDS; i++) files[`typed${i}.py`] = numbered(12);
  const w = await wb.openWorkbench({ files, settings: { 'chat.tools.autoApprove': true, '[plaintext]': { 'files.trimTrailingWhitespace': true } }, readyFile: FILE, results });
  let failed = false;
  const check = (found: string[]) => async () => {
    assert.ok(rounds.ran, 'the rounds ran');
    assert.deepEqual(found, [], found.join('\n'));
  };
  const phase = (name: string, body: (w: wb.Workbench) => Promise<void>, todo?: string) =>
    t.test(name, { todo }, async () => {
      try {
        await body(w);
      } catch (err) {
        if (!todo) failed = true;
        throw err;
      }
    });
  try {
    await phase('typing soak: every keystroke once and in order, every edit where it was reported, the disk never ahead of a save', typingSoak);
    await phase('bridged save: a clean document is saved after the edit', bridgedSaveOfCleanDocument);
    await phase('bridged save: a save participant changes the text, and the edit is saved', bridgedSaveWithParticipant);
    await phase('bridged save: the person types as the edit lands', typingAsBridgedEditLands);
    await phase('bridged save: typing as the edit lands never reaches the disk', check(rounds.disk), TYPING_SAVED);
    await phase('bridged save: the answer says whether the disk holds the edit', check(rounds.answer));
  } finally {
    await w.close(failed);
  }
});
