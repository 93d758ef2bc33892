// The save the server asks for after a bridged edit, and the line that
// says where hashline-ls mcp reaches the server.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { endpointLine, saveDocument, type SavableDocument } from '../../src/bridge';

/** A document with its file on disk: save() writes the text to `disk`.
 * typed is typing that reaches the document as the save runs: before the
 * text is written (it is saved with it) or after (the document stays
 * dirty). */
interface FakeDoc extends SavableDocument {
  text: string;
  version: number;
  saved: number;
}

function doc(fsPath: string, disk: Map<string, string>, text: string, saves: boolean | Error = true, typed?: { text: string; beforeWrite: boolean }): FakeDoc {
  const d: FakeDoc = {
    uri: { fsPath },
    text,
    version: 7,
    saved: 0,
    getText: () => d.text,
    async save() {
      d.saved++;
      if (saves instanceof Error) throw saves;
      if (!saves) return false;
      const type = () => {
        d.text += typed?.text;
        d.version++;
      };
      if (typed?.beforeWrite) type();
      disk.set(fsPath, d.text);
      if (typed && !typed.beforeWrite) type();
      // What VS Code answers: whether the document is clean afterwards.
      return !typed || typed.beforeWrite;
    },
  };
  return d;
}

const fsPathOf = (uri: string) => decodeURIComponent(new URL(uri).pathname);
const reader = (disk: Map<string, string>) => async (d: SavableDocument) => {
  const t = disk.get(d.uri.fsPath);
  return t === undefined ? undefined : new TextEncoder().encode(t);
};

describe('saveDocument', () => {
  it('saves the document the URI names, however the URI is spelled', async () => {
    const disk = new Map([['/ws/a b.py', 'old\n'], ['/ws/c.py', 'old\n']]);
    const a = doc('/ws/a b.py', disk, 'new\n');
    const other = doc('/ws/c.py', disk, 'new\n');
    assert.deepEqual(await saveDocument({ uri: 'file:///ws/a%20b.py' }, [other, a], fsPathOf, reader(disk)), { saved: true });
    assert.equal(a.saved, 1);
    assert.equal(other.saved, 0);
    assert.equal(disk.get('/ws/a b.py'), 'new\n');
  });

  it('answers saved for a document the disk holds already, without saving again', async () => {
    const disk = new Map([['/ws/a.py', '\ufeffnew\n']]); // a BOM is no part of the text
    const a = doc('/ws/a.py', disk, 'new\n');
    assert.deepEqual(await saveDocument({ uri: 'file:///ws/a.py' }, [a], fsPathOf, reader(disk)), { saved: true });
    assert.equal(a.saved, 0);
  });

  it('saves only the version the edit left', async () => {
    const disk = new Map([['/ws/a.py', 'old\n']]);
    const a = doc('/ws/a.py', disk, 'new\n');
    assert.deepEqual(await saveDocument({ uri: 'file:///ws/a.py', version: 7 }, [a], fsPathOf, reader(disk)), { saved: true });
    disk.set('/ws/a.py', 'old\n');
    const typed = doc('/ws/a.py', disk, 'new\nhalf');
    typed.version = 8;
    const typedAnswer = { saved: false, reason: 'the document changed after the edit landed (typing that is not saved)' };
    assert.deepEqual(await saveDocument({ uri: 'file:///ws/a.py', version: 7 }, [typed], fsPathOf, reader(disk)), typedAnswer);
    assert.equal(typed.saved, 0);
    assert.equal(disk.get('/ws/a.py'), 'old\n');
  });

  it('says what the disk holds when the text changed as VS Code saved it', async () => {
    // Typing after the text was written: the edit is saved, the typing not.
    const disk = new Map([['/ws/a.py', 'old\n']]);
    const after = doc('/ws/a.py', disk, 'new\n', true, { text: 'half', beforeWrite: false });
    assert.deepEqual(await saveDocument({ uri: 'file:///ws/a.py', version: 7 }, [after], fsPathOf, reader(disk)), { saved: true });
    assert.equal(disk.get('/ws/a.py'), 'new\n');
    // A formatter's change, or a key typed before the text was written:
    // saved, and the answer says the disk holds other text than the edit's.
    disk.set('/ws/a.py', 'old\n');
    const before = doc('/ws/a.py', disk, 'new\n', true, { text: 'half', beforeWrite: true });
    const answer = await saveDocument({ uri: 'file:///ws/a.py', version: 7 }, [before], fsPathOf, reader(disk));
    assert.equal(answer.saved, true);
    assert.match(answer.reason ?? '', /^VS Code saved other text than the edit left: /);
    assert.equal(disk.get('/ws/a.py'), 'new\nhalf');
  });

  it('says why when it cannot save', async () => {
    const disk = new Map([['/ws/a.py', 'old\n']]);
    const read = reader(disk);
    assert.deepEqual(await saveDocument({ uri: 'file:///ws/none.py' }, [], fsPathOf, read), { saved: false, reason: 'VS Code holds no document for /ws/none.py' });
    assert.deepEqual(await saveDocument({ uri: 'file:///ws/a.py' }, [doc('/ws/a.py', disk, 'new\n', false)], fsPathOf, read), { saved: false, reason: 'VS Code did not save it' });
    assert.deepEqual(await saveDocument({ uri: 'file:///ws/a.py' }, [doc('/ws/a.py', disk, 'new\n', new Error('EACCES'))], fsPathOf, read), { saved: false, reason: 'EACCES' });
    assert.deepEqual(await saveDocument(undefined, [], fsPathOf, read), { saved: false, reason: 'the request names no uri' });
    assert.deepEqual(await saveDocument({ uri: 'nope' }, [], fsPathOf, read), { saved: false, reason: 'nope is not a URI VS Code can open' });
  });
});

describe('endpointLine', () => {
  it('names the socket, or why there is none', () => {
    assert.equal(endpointLine({ capabilities: { experimental: { hashline: { endpoint: '/tmp/hashline-1000/42.sock' } } } }), '[hashline] hashline-ls mcp reaches this server at /tmp/hashline-1000/42.sock');
    assert.equal(endpointLine({ capabilities: { experimental: { hashline: { endpoint: null, endpointProblem: 'no workspace folder' } } } }), '[hashline] hashline-ls mcp cannot reach this server: no workspace folder');
    assert.equal(endpointLine({ capabilities: {} }), '[hashline] this hashline-ls publishes no endpoint for hashline-ls mcp');
    assert.equal(endpointLine(undefined), '[hashline] this hashline-ls publishes no endpoint for hashline-ls mcp');
  });
});
