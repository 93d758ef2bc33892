// The language-model tools: each forwards its input to one server command and
// gives the model the text the server rendered for the result.
//
// This module touches the VS Code API only through the small `LmApi` handed
// in, so the unit tests run it in plain Node with fakes.

import type * as vscode from 'vscode';

/** One tool as the generated manifest (src/generated/tools.json) names it. */
export interface ToolSpec {
  name: string;
  command: string;
  displayName: string;
  /** Describe marks the command as never changing a file: it runs without
   * asking. Absent: it asks. */
  readOnly?: boolean;
}

/** Runs one server command; rejects when the server cannot be reached or
 * answers with a protocol error. */
export interface CommandRunner {
  execute(command: string, args: Record<string, unknown>, token?: vscode.CancellationToken): Promise<unknown>;
}

/** The constructors the tools need from the `vscode` module. */
export interface LmApi {
  LanguageModelToolResult: typeof vscode.LanguageModelToolResult;
  LanguageModelTextPart: typeof vscode.LanguageModelTextPart;
}

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/**
 * The text a model reads for one command result: the `text` the server
 * rendered for it, success or failure, byte for byte what the shell verb
 * prints. Anything else becomes one TOOL_FAILED line that shows what came
 * back, so nothing the server said is lost.
 */
export function resultText(result: unknown): string {
  if (isObject(result) && typeof result.text === 'string' && result.text !== '') return result.text;
  return `TOOL_FAILED: the server returned ${JSON.stringify(result)}, not a result with its text; retry once, and report it if it repeats\n`;
}

// What the user is asked must show the text of a call exactly, its leading
// spaces included, on both surfaces VS Code (1.100) asks on:
// - a call from a chat request: the chat's confirmation renders the message
//   as Markdown (it wraps a plain string in a MarkdownString);
// - a call with no chat request (vscode.lm.invokeTool from any extension):
//   a modal dialog sets the message as its text, a MarkdownString first
//   flattened to plain text; HTML's whitespace rules then collapse every
//   run of spaces to one and drop the spaces that start a line.
// So the message is a plain string that reads the same both ways: the text
// is an indented Markdown code block (the dialog drops the four spaces that
// start each line), and every space HTML would collapse is a no-break space.
// Inside a MarkdownString the no-break spaces would not last: the
// flattening turns them back into spaces.

const NBSP = '\u00a0';

/** One line with each space that HTML would collapse, and each tab (four
 * columns, as VS Code's editors show it), as no-break spaces. A single
 * space between two other characters stays, so a long line can wrap. */
function keepSpaces(line: string): string {
  const t = line.replace(/\t/g, '    ');
  return t.replace(/ /g, (_, i: number) => (i > 0 && i < t.length - 1 && t[i - 1] !== ' ' && t[i + 1] !== ' ' ? ' ' : NBSP));
}

/** `text` as an indented Markdown code block whose spaces survive as they
 * are in the chat's rendering and in the dialog's plain text. */
export function verbatim(text: string): string {
  const lines = (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n');
  return lines.map((l) => `    ${keepSpaces(l)}`).join('\n');
}

const PREVIEW_LINES = 60;

function preview(text: string): string {
  const lines = text.split('\n');
  if (lines.length <= PREVIEW_LINES) return text;
  return lines.slice(0, PREVIEW_LINES).join('\n') + `\n… (${lines.length - PREVIEW_LINES} more lines)\n`;
}

export interface Prepared {
  invocationMessage: string;
  confirmation?: { title: string; message: string };
}

/**
 * What the user sees before a call runs: a one-line progress message, and
 * for calls that change files a confirmation showing exactly what will be
 * sent (an edit's ops, a write's content, a patch); preparePlanned shows
 * the change instead where the server can plan it.
 */
export function prepare(spec: ToolSpec, input: unknown): Prepared {
  const a = isObject(input) ? input : {};
  const path = str(a.path);
  switch (spec.command) {
    case 'hashline.read':
      return { invocationMessage: `Reading ${path ?? 'a file'} with hashline` };
    case 'hashline.grep':
      return { invocationMessage: `Searching ${path ?? 'the workspace'} for /${String(a.pattern ?? '')}/ with hashline` };
    case 'hashline.edit':
      return {
        invocationMessage: `Editing ${path ?? 'a file'} with hashline`,
        confirmation: {
          title: `Edit ${path ?? 'a file'}?`,
          message: `Apply these ops to ${path ?? '?'} at tag ${String(a.tag ?? '?')}:\n\n${verbatim(String(a.ops ?? ''))}`,
        },
      };
    case 'hashline.write':
      return {
        invocationMessage: `Writing ${path ?? 'a file'} with hashline`,
        confirmation: {
          title: `Write ${path ?? 'a file'}?`,
          message: `Create or replace ${path ?? '?'} with:\n\n${verbatim(preview(String(a.content ?? '')))}`,
        },
      };
    case 'hashline.patch':
      return {
        invocationMessage: 'Patching files with hashline',
        confirmation: { title: 'Apply this patch?', message: verbatim(preview(String(a.patch ?? ''))) },
      };
  }
  // A command describe does not mark read-only (any the server adds later)
  // may change files, and asks first.
  const invocationMessage = `Running ${spec.displayName}`;
  if (spec.readOnly) return { invocationMessage };
  return {
    invocationMessage,
    confirmation: { title: `Run ${spec.displayName}?`, message: verbatim(JSON.stringify(a, null, 2)) },
  };
}

/** The commands whose confirmation shows the change a dry run plans. */
const PLANNED = new Set(['hashline.edit', 'hashline.write', 'hashline.patch']);

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0];
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

/**
 * What the user sees before an edit, a write or a patch: the unified diff
 * the server plans for the call against the live text (the command with
 * dryRun, which writes nothing and leaves the session as it was). A call
 * the server would refuse asks nothing and shows the refusal: the tool
 * then runs it, and the model reads the refusal from the call itself,
 * which records what it shows. A server that cannot plan it (unreachable,
 * or one without dryRun) leaves the confirmation of `prepare`.
 */
export async function preparePlanned(
  spec: ToolSpec,
  input: unknown,
  runner: CommandRunner,
  token?: vscode.CancellationToken,
): Promise<Prepared> {
  const p = prepare(spec, input);
  if (!PLANNED.has(spec.command) || !p.confirmation) return p;
  const args = isObject(input) ? { ...input, dryRun: true } : { dryRun: true };
  let res: unknown;
  try {
    res = await runner.execute(spec.command, args, token);
  } catch {
    return p;
  }
  if (!isObject(res) || typeof res.text !== 'string') return p;
  if (res.ok === true && res.dryRun === true) {
    const message = `The change, planned against the text as it is now:\n\n${verbatim(preview(res.text))}`;
    return { invocationMessage: p.invocationMessage, confirmation: { title: p.confirmation.title, message } };
  }
  const error = isObject(res.error) ? res.error : {};
  if (res.ok === false && !(isObject(error.details) && error.details.field === 'dryRun')) {
    return { invocationMessage: `${p.invocationMessage}: refused: ${firstLine(res.text)}` };
  }
  return p;
}

function errorText(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (isObject(err) && typeof err.message === 'string') return err.message;
  return String(err);
}

/** One language-model tool backed by one server command. */
export class HashlineTool implements vscode.LanguageModelTool<Record<string, unknown>> {
  constructor(
    readonly spec: ToolSpec,
    private readonly runner: CommandRunner,
    private readonly api: LmApi,
  ) {}

  async invoke(
    options: vscode.LanguageModelToolInvocationOptions<Record<string, unknown>>,
    token?: vscode.CancellationToken,
  ): Promise<vscode.LanguageModelToolResult> {
    // The input goes to the server as it came: the schema the model saw is
    // the server's own, so the server does the validating.
    const args = isObject(options.input) ? { ...options.input } : {};
    let text: string;
    try {
      text = resultText(await this.runner.execute(this.spec.command, args, token));
    } catch (err) {
      text = `TOOL_FAILED: ${this.spec.command} did not run: ${errorText(err)}\n`;
    }
    return new this.api.LanguageModelToolResult([new this.api.LanguageModelTextPart(text)]);
  }

  async prepareInvocation(
    options: vscode.LanguageModelToolInvocationPrepareOptions<Record<string, unknown>>,
    token?: vscode.CancellationToken,
  ): Promise<vscode.PreparedToolInvocation> {
    const p = await preparePlanned(this.spec, options.input, this.runner, token);
    const out: vscode.PreparedToolInvocation = { invocationMessage: p.invocationMessage };
    if (p.confirmation) {
      // A string, not a MarkdownString: see verbatim.
      out.confirmationMessages = { title: p.confirmation.title, message: p.confirmation.message };
    }
    return out;
  }
}
