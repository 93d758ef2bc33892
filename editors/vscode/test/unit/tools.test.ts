// The tool plumbing with the language client and the VS Code API faked:
// what reaches the server, what the model reads back, and what the user is
// asked before a call that changes files.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import toolEntries from '../../src/generated/tools.json';
import { HashlineTool, prepare, resultText, verbatim, type CommandRunner, type LmApi, type ToolSpec } from '../../src/tools';

// Stand-ins for the vscode classes: they keep what they were given.
class TextPart {
  constructor(readonly value: string) {}
}
class ToolResult {
  constructor(readonly content: unknown[]) {}
}
const api = { LanguageModelToolResult: ToolResult, LanguageModelTextPart: TextPart } as unknown as LmApi;

interface Call {
  command: string;
  args: Record<string, unknown>;
}

function fakeRunner(answer: (c: Call) => unknown): { runner: CommandRunner; calls: Call[] } {
  const calls: Call[] = [];
  return {
    calls,
    runner: {
      async execute(command, args) {
        const c = { command, args };
        calls.push(c);
        return answer(c);
      },
    },
  };
}

const spec = (name: string): ToolSpec => {
  const e = (toolEntries as ToolSpec[]).find((t) => t.name === name);
  assert.ok(e, `${name} is in src/generated/tools.json`);
  return e;
};

async function invokeText(tool: HashlineTool, input: Record<string, unknown>): Promise<string> {
  const res = (await tool.invoke({ input, toolInvocationToken: undefined } as never)) as unknown as ToolResult;
  assert.ok(res instanceof ToolResult, 'invoke returns a LanguageModelToolResult');
  assert.equal(res.content.length, 1);
  const part = res.content[0];
  assert.ok(part instanceof TextPart, 'the result is one LanguageModelTextPart');
  return part.value;
}

const READ_OK = {
  ok: true,
  content: '[greet.py#15E4]\n1:def greet(name):\n2:    return f"hello {name}"\n',
  tag: '15E4',
  path: 'greet.py',
  root: '/ws',
  offset: 1,
  lineCount: 2,
  totalLines: 2,
  truncated: false,
  fileBytes: 40,
  text: '[greet.py#15E4]\n1:def greet(name):\n2:    return f"hello {name}"\n',
};

const TAG_MISMATCH = {
  ok: false,
  error: {
    code: 'EDIT_TAG_MISMATCH',
    message: 'greet.py changed since the read tagged 15E4: rebuild the ops against the lines below (tag 9A0C), or read again',
    retriable: true,
    details: { liveTag: '9A0C', lines: [2], content: '[greet.py#9A0C]\n2:    return f"hey {name}"\n' },
  },
  text:
    'EDIT_TAG_MISMATCH: greet.py changed since the read tagged 15E4: rebuild the ops against the lines below (tag 9A0C), or read again\n' +
    'live tag: 9A0C\nlines: 2\n[greet.py#9A0C]\n2:    return f"hey {name}"\n',
};

describe('argument forwarding', () => {
  it('sends each tool to its own command with the input unchanged', async () => {
    for (const e of toolEntries as ToolSpec[]) {
      const { runner, calls } = fakeRunner(() => ({ ok: true }));
      const input = { path: 'a/b.txt', tag: 'ABCD', ops: 'PUT 1.=1:\n+x\n', extra: [1, { n: 2 }] };
      await invokeText(new HashlineTool(e, runner, api), input);
      assert.deepEqual(calls, [{ command: e.command, args: input }], e.name);
    }
  });

  it('maps the tools onto the hashline.* commands', () => {
    const m = Object.fromEntries((toolEntries as ToolSpec[]).map((t) => [t.name, t.command]));
    assert.equal(m.hashline_read, 'hashline.read');
    assert.equal(m.hashline_grep, 'hashline.grep');
    assert.equal(m.hashline_write, 'hashline.write');
    assert.equal(m.hashline_edit, 'hashline.edit');
  });

  it('does not share the input object with the server call', async () => {
    const { runner, calls } = fakeRunner(() => ({ ok: true }));
    const input = { path: 'x' };
    await invokeText(new HashlineTool(spec('hashline_read'), runner, api), input);
    assert.notEqual(calls[0].args, input);
  });
});

// The server renders every result (commands/render.go; its golden texts are
// in commands/testdata/render): the tool shows that text as it came.
describe('result text', () => {
  it('gives a read the text the server rendered', async () => {
    const { runner } = fakeRunner(() => READ_OK);
    const text = await invokeText(new HashlineTool(spec('hashline_read'), runner, api), { path: 'greet.py' });
    assert.equal(text, READ_OK.text);
  });

  it('shows the text as it came, not a rendering of the other fields', async () => {
    const { runner } = fakeRunner(() => ({ ...READ_OK, notice: 'showing lines 1-2 of 900', text: 'as the server said\n' }));
    const text = await invokeText(new HashlineTool(spec('hashline_read'), runner, api), { path: 'greet.py' });
    assert.equal(text, 'as the server said\n');
  });

  it('gives a failure its text: code, message, live tag and lines', async () => {
    const { runner } = fakeRunner(() => TAG_MISMATCH);
    const text = await invokeText(new HashlineTool(spec('hashline_edit'), runner, api), { path: 'greet.py', tag: '15E4', ops: 'PUT 2.=2:\n+x\n' });
    assert.equal(text, TAG_MISMATCH.text);
  });

  it('turns a server that cannot be reached into TOOL_FAILED text, not a throw', async () => {
    const runner: CommandRunner = {
      async execute() {
        throw new Error('hashline-ls was not found on PATH');
      },
    };
    const text = await invokeText(new HashlineTool(spec('hashline_read'), runner, api), { path: 'x' });
    assert.equal(text, 'TOOL_FAILED: hashline.read did not run: hashline-ls was not found on PATH\n');
  });

  it('turns a protocol error object into TOOL_FAILED text', async () => {
    const runner: CommandRunner = {
      async execute() {
        throw { code: -32602, message: 'the arguments of hashline.read must be one JSON object' };
      },
    };
    const text = await invokeText(new HashlineTool(spec('hashline_read'), runner, api), { path: 'x' });
    assert.match(text, /^TOOL_FAILED: hashline.read did not run: the arguments of hashline.read must be one JSON object\n$/);
  });

  it('does not hide a result without text: one TOOL_FAILED line shows what came back', () => {
    assert.match(resultText(null), /^TOOL_FAILED: the server returned null, /);
    for (const r of [{ ok: true, something: 1 }, { ok: true, text: 5 }, { ok: true, text: '' }]) {
      const text = resultText(r);
      assert.match(text, /^TOOL_FAILED: /);
      assert.ok(text.includes(JSON.stringify(r)), text);
      assert.ok(text.endsWith('\n') && !text.slice(0, -1).includes('\n'), `one line: ${text}`);
    }
  });
});

describe('prepareInvocation', () => {
  const tool = (name: string) => new HashlineTool(spec(name), fakeRunner(() => ({})).runner, api);

  it('asks before an edit and shows its ops, path and tag when the server cannot plan it', async () => {
    const ops = 'PUT 2.=2:\n+    return f"hi {name}"\n';
    const p = await tool('hashline_edit').prepareInvocation({ input: { path: 'greet.py', tag: '15E4', ops } } as never);
    assert.equal(p.invocationMessage, 'Editing greet.py with hashline');
    assert.ok(p.confirmationMessages);
    assert.equal(p.confirmationMessages.title, 'Edit greet.py?');
    assert.equal(typeof p.confirmationMessages.message, 'string', 'a string: a MarkdownString would lose the no-break spaces in the dialog');
    assert.equal(p.confirmationMessages.message, `Apply these ops to greet.py at tag 15E4:\n\n    PUT 2.=2:\n    +${NBSP.repeat(4)}return f"hi {name}"`);
  });

  it('asks before a write and shows the content when the server cannot plan it', async () => {
    const p = await tool('hashline_write').prepareInvocation({ input: { path: 'n.txt', content: 'a\n  b\n' } } as never);
    assert.equal(p.confirmationMessages?.title, 'Write n.txt?');
    assert.equal(p.confirmationMessages?.message, `Create or replace n.txt with:\n\n    a\n    ${NBSP.repeat(2)}b`);
  });

  it('shortens a long write in the confirmation', () => {
    const content = Array.from({ length: 200 }, (_, i) => `line ${i}`).join('\n');
    const p = prepare(spec('hashline_write'), { path: 'big.txt', content });
    assert.match(p.confirmation?.message ?? '', /more lines\)/);
    assert.ok(!(p.confirmation?.message ?? '').includes('line 150'));
  });

  it('runs reads and greps without asking', async () => {
    const r = await tool('hashline_read').prepareInvocation({ input: { path: 'greet.py' } } as never);
    assert.equal(r.invocationMessage, 'Reading greet.py with hashline');
    assert.equal(r.confirmationMessages, undefined);
    const g = await tool('hashline_grep').prepareInvocation({ input: { pattern: 'TODO' } } as never);
    assert.equal(g.invocationMessage, 'Searching the workspace for /TODO/ with hashline');
    assert.equal(g.confirmationMessages, undefined);
  });

  it('asks before a patch and shows it', () => {
    const p = prepare({ name: 'hashline_patch', command: 'hashline.patch', displayName: 'Patch files (hashline)' }, { patch: '--- a.txt\n1:ab|x\n' });
    assert.equal(p.confirmation?.title, 'Apply this patch?');
    assert.match(p.confirmation?.message ?? '', /1:ab\|x/);
  });

  const DIFF = '--- a/greet.py\n+++ b/greet.py\n@@ -1,2 +1,2 @@\n def greet(name):\n-    return f"hello {name}"\n+    return f"hi {name}"\n';

  it('shows the change the server plans for an edit, not its ops', async () => {
    const { runner, calls } = fakeRunner(() => ({ ok: true, dryRun: true, diff: DIFF, warnings: [], text: DIFF }));
    const input = { path: 'greet.py', tag: '15E4', ops: 'PUT 2.=2:\n+    return f"hi {name}"\n' };
    const p = await new HashlineTool(spec('hashline_edit'), runner, api).prepareInvocation({ input } as never);
    assert.deepEqual(calls, [{ command: 'hashline.edit', args: { ...input, dryRun: true } }], 'one dry run of the call as the model sent it');
    assert.equal(p.confirmationMessages?.title, 'Edit greet.py?');
    const message = String(p.confirmationMessages?.message);
    assert.equal(message, `The change, planned against the text as it is now:\n\n${verbatim(DIFF)}`);
    assert.ok(!message.includes('PUT'), message);
    assert.deepEqual(seen(asDialogText(message.split('\n\n')[1])), DIFF.slice(0, -1).split('\n'));
  });

  it('shows the change of a write and of a patch', async () => {
    for (const name of ['hashline_write', 'hashline_patch']) {
      const { runner, calls } = fakeRunner(() => ({ ok: true, dryRun: true, diff: DIFF, warnings: [], text: DIFF }));
      const p = await new HashlineTool(spec(name), runner, api).prepareInvocation({ input: { path: 'greet.py', content: 'x', patch: 'x' } } as never);
      assert.equal(calls.length, 1);
      assert.equal(calls[0].args.dryRun, true);
      assert.ok(String(p.confirmationMessages?.message).endsWith(verbatim(DIFF)), name);
    }
  });

  it('does not ask for a call the server refuses, and shows the refusal', async () => {
    const text = 'EDIT_TAG_MISMATCH: greet.py changed since your read\n[greet.py#AAAA]\n';
    const { runner } = fakeRunner(() => ({ ok: false, error: { code: 'EDIT_TAG_MISMATCH', message: 'greet.py changed', details: {} }, text }));
    const p = await new HashlineTool(spec('hashline_edit'), runner, api).prepareInvocation({ input: { path: 'greet.py', tag: '15E4', ops: 'PUT 1.=1:\n+x' } } as never);
    assert.equal(p.confirmationMessages, undefined);
    assert.equal(p.invocationMessage, 'Editing greet.py with hashline: refused: EDIT_TAG_MISMATCH: greet.py changed since your read');
  });

  it('asks with the ops when the server cannot plan the call', async () => {
    const noDryRun = { ok: false, error: { code: 'INVALID_ARGUMENT', message: 'x', details: { field: 'dryRun' } }, text: 'INVALID_ARGUMENT: x\n' };
    for (const answer of [() => noDryRun, () => Promise.reject(new Error('not running'))]) {
      const { runner } = fakeRunner(answer);
      const p = await new HashlineTool(spec('hashline_edit'), runner, api).prepareInvocation({ input: { path: 'a', tag: '15E4', ops: 'CUT 1.=1' } } as never);
      assert.match(String(p.confirmationMessages?.message), /Apply these ops to a at tag 15E4:\n\n {4}CUT 1\.=1/);
    }
  });

  it('asks before any command it does not know to be read-only', () => {
    const p = prepare({ name: 'hashline_future', command: 'hashline.future', displayName: 'Future (hashline)' }, { path: 'x' });
    assert.ok(p.confirmation, 'an unknown command asks first');
    assert.match(p.confirmation.message, /"path": "x"/);
  });

});

// The two ways VS Code shows a confirmation, as far as whitespace goes: the
// chat renders it as Markdown, where an indented code block keeps its text
// after the four spaces; the dialog shows it as HTML text, where runs of
// spaces and tabs collapse to one and those that start or end a line go.
const NBSP = '\u00a0';
const asCodeBlock = (shown: string) => shown.split('\n').map((l) => (assert.ok(l.startsWith('    '), JSON.stringify(l)), l.slice(4)));
// (Not trim(): it would take no-break spaces too, which HTML keeps.)
const asDialogText = (shown: string) => shown.split('\n').map((l) => l.replace(/[ \t]+/g, ' ').replace(/^ | $/g, ''));
const seen = (lines: string[]) => lines.map((l) => l.replaceAll(NBSP, ' '));

describe('verbatim', () => {
  const text = 'PUT 2.=3:\n+    return f"hi {name}"\n+\tx = 1    # aligned\n+\n++  plus\n  leading and trailing  \n';
  const expanded = text.slice(0, -1).replaceAll('\t', '    ').split('\n');

  it('keeps every space in the chat\'s Markdown code block', () => {
    assert.deepEqual(seen(asCodeBlock(verbatim(text))), expanded);
  });

  it('keeps every space in the dialog\'s text', () => {
    assert.deepEqual(seen(asDialogText(verbatim(text))), expanded);
  });

  it('leaves single spaces between words as spaces, so long lines can wrap', () => {
    assert.equal(verbatim('a b c'), '    a b c');
  });

  it('cannot be closed by backticks in the text, unlike a fence', () => {
    assert.equal(verbatim('+```\n'), '    +```');
  });
});
