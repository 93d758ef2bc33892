// The line ending the server gives new files, from VS Code's files.eol.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { newFileEol, wrapped } from '../../src/settings';

describe('newFileEol', () => {
  it('takes files.eol when it names an ending', () => {
    assert.equal(newFileEol('\r\n', 'linux'), '\r\n');
    assert.equal(newFileEol('\n', 'win32'), '\n');
  });

  it('takes the platform\'s for auto, or anything else: CRLF on Windows only', () => {
    assert.equal(newFileEol('auto', 'win32'), '\r\n');
    assert.equal(newFileEol(undefined, 'win32'), '\r\n');
    for (const platform of ['linux', 'darwin']) assert.equal(newFileEol('auto', platform), '\n');
  });

  it('travels to the server with the rest of the section', () => {
    assert.deepEqual(wrapped({ newFileEol: '\r\n', serverPath: '/x' }), { hashline: { newFileEol: '\r\n' } });
  });
});
