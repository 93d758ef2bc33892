// The save the server asks for after a bridged edit, and the line that
// says where hashline-ls mcp reaches the server.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { endpointLine, saveDocument, type SavableDocument } from '../../src/bridge';

// typedDuringSave makes the person type while the save runs: the version
// moves and the document stays dirty; formats makes the save change the
// text, as format-on-save does: the version moves and the document is clean.
function doc(fsPath: string, isDirty: boolean, saves: boolean | Error, typedDuringSave = false, formats = false): Omit<SavableDocument, 'version'> & { version: number; saved: number } {
  const d = {
    uri: { fsPath },
    isDirty,
    version: 7,
    saved: 0,
    async save() {
      d.saved++;
      if (saves instanceof Error) throw saves;
      if (typedDuringSave || formats) d.version++;
      if (!typedDuringSave) d.isDirty = !saves;
      return saves;
    },
  };
  return d;
}

const fsPathOf = (uri: string) => decodeURIComponent(new URL(uri).pathname);

describe('saveDocument', () => {
  it('saves the dirty document the URI names, however the URI is spelled', async () => {
    const a = doc('/ws/a b.py', true, true);
    const other = doc('/ws/c.py', true, true);
    assert.deepEqual(await saveDocument({ uri: 'file:///ws/a%20b.py' }, [other, a], fsPathOf), { saved: true });
    assert.equal(a.saved, 1);
    assert.equal(other.saved, 0);
  });

  it('answers saved for a document VS Code saved already, without saving again', async () => {
    const a = doc('/ws/a.py', false, true);
    assert.deepEqual(await saveDocument({ uri: 'file:///ws/a.py' }, [a], fsPathOf), { saved: true });
    assert.equal(a.saved, 0);
  });

  it('saves only the version the edit left', async () => {
    const a = doc('/ws/a.py', true, true);
    assert.deepEqual(await saveDocument({ uri: 'file:///ws/a.py', version: 7 }, [a], fsPathOf), { saved: true });
    const typed = doc('/ws/a.py', true, true);
    typed.version = 8;
    const typedAnswer = { saved: false, reason: 'the document changed after the edit landed (typing that is not saved)' };
    assert.deepEqual(await saveDocument({ uri: 'file:///ws/a.py', version: 7 }, [typed], fsPathOf), typedAnswer);
    assert.equal(typed.saved, 0);
    const during = doc('/ws/a.py', true, true, true);
    assert.deepEqual(await saveDocument({ uri: 'file:///ws/a.py', version: 7 }, [during], fsPathOf), typedAnswer);
  });

  it('answers saved when format-on-save changed the text it saved', async () => {
    const a = doc('/ws/a.py', true, true, false, true);
    assert.deepEqual(await saveDocument({ uri: 'file:///ws/a.py', version: 7 }, [a], fsPathOf), { saved: true });
    assert.equal(a.version, 8);
  });

  it('says why when it cannot save', async () => {
    assert.deepEqual(await saveDocument({ uri: 'file:///ws/none.py' }, [], fsPathOf), { saved: false, reason: 'VS Code holds no document for /ws/none.py' });
    assert.deepEqual(await saveDocument({ uri: 'file:///ws/a.py' }, [doc('/ws/a.py', true, false)], fsPathOf), { saved: false, reason: 'VS Code did not save it' });
    assert.deepEqual(await saveDocument({ uri: 'file:///ws/a.py' }, [doc('/ws/a.py', true, new Error('EACCES'))], fsPathOf), { saved: false, reason: 'EACCES' });
    assert.deepEqual(await saveDocument(undefined, [], fsPathOf), { saved: false, reason: 'the request names no uri' });
    assert.deepEqual(await saveDocument({ uri: 'nope' }, [], fsPathOf), { saved: false, reason: 'nope is not a URI VS Code can open' });
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
