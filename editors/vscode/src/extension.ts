// The VS Code front end of hashline-ls: starts the server over stdio, keeps
// every open file buffer in sync with it, and exposes its commands as
// language-model tools and as commands for people.

import * as fs from 'fs';
import * as os from 'os';
import * as vscode from 'vscode';
import {
  DidChangeConfigurationNotification,
  ExecuteCommandRequest,
  LanguageClient,
  RevealOutputChannelOn,
  State,
  type LanguageClientOptions,
  type ServerOptions,
} from 'vscode-languageclient/node';

import { endpointLine, SAVE_DOCUMENT, saveDocument, type SaveParams } from './bridge';
import toolEntries from './generated/tools.json';
import type { ToolEntry } from './manifest';
import { describeSource, findServer } from './serverPath';
import { newFileEol, wrapped } from './settings';
import { HashlineTool, resultText, type CommandRunner } from './tools';

const READ_SCHEME = 'hashline-read';
// People's reads go to a session of their own, so showing a file to a person
// never counts as the model having seen its lines.
const PEOPLE_SESSION = 'vscode-show-read';

let output: vscode.OutputChannel;
/** The folder the extension is installed in, where its bundled server is. */
let extensionPath = '';
let client: LanguageClient | undefined;
let starting: Promise<void> | undefined;
/** Why the server is not running, told to the model and the user. */
let notRunning = 'hashline-ls has not started yet';

function section(): Record<string, unknown> {
  // A plain copy: WorkspaceConfiguration carries methods next to the values.
  const s = JSON.parse(JSON.stringify(vscode.workspace.getConfiguration('hashline'))) as Record<string, unknown>;
  s.newFileEol = newFileEol(vscode.workspace.getConfiguration('files').get('eol'), process.platform);
  return s;
}

function isExecutable(file: string): boolean {
  try {
    if (!fs.statSync(file).isFile()) return false;
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

async function showStartError(message: string): Promise<void> {
  output.appendLine(`[hashline] ${message}`);
  const choice = await vscode.window.showErrorMessage(`Hashline: ${message}`, 'Open Settings', 'Show Log');
  if (choice === 'Open Settings') {
    await vscode.commands.executeCommand('workbench.action.openSettings', 'hashline.serverPath');
  } else if (choice === 'Show Log') {
    output.show(true);
  }
}

async function startClient(): Promise<void> {
  const found = findServer({
    configured: vscode.workspace.getConfiguration('hashline').get<string>('serverPath') ?? '',
    extensionPath,
    envPath: process.env.PATH,
    platform: process.platform,
    arch: process.arch,
    home: os.homedir(),
    workspaceFolder: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
    isExecutable,
  });
  if (!found.ok) {
    notRunning = found.message;
    void showStartError(found.message);
    return;
  }
  const from = describeSource(found.source);
  output.appendLine(`[hashline] starting ${found.path} --stdio (${from})`);
  // No `transport` here: with one, the client would add its own --stdio.
  const serverOptions: ServerOptions = { command: found.path, args: ['--stdio'] };
  const clientOptions: LanguageClientOptions = {
    // Every file buffer, whatever its language: a read must see unsaved
    // typing in any file the model may touch.
    documentSelector: [{ scheme: 'file' }],
    // saveDocument: this extension answers hashline/saveDocument (bridge.ts).
    initializationOptions: () => ({ hashline: { ...wrapped(section()).hashline, saveDocument: true } }),
    outputChannel: output,
    revealOutputChannelOn: RevealOutputChannelOn.Never,
  };
  const c = new LanguageClient('hashline', 'Hashline', serverOptions, clientOptions);
  client = c;
  c.onRequest(SAVE_DOCUMENT, (p: SaveParams) => saveDocument(p, vscode.workspace.textDocuments, (uri) => vscode.Uri.parse(uri, true).fsPath));
  try {
    await c.start();
    notRunning = '';
    const version = c.initializeResult?.serverInfo?.version ?? 'of unknown version';
    output.appendLine(`[hashline] running hashline-ls ${version}: ${found.path} (${from})`);
    output.appendLine(endpointLine(c.initializeResult));
  } catch (err) {
    notRunning = `hashline-ls (${found.path}) did not start: ${err instanceof Error ? err.message : String(err)}`;
    void showStartError(notRunning);
  }
}

async function stopClient(): Promise<void> {
  const c = client;
  client = undefined;
  notRunning = 'hashline-ls is restarting';
  if (c) {
    try {
      await c.stop(5000);
    } catch (err) {
      output.appendLine(`[hashline] stopping the server: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}

/** Stops the server if it runs and starts it again; calls queue up, and
 * tool calls wait for the start in progress. */
function restart(): Promise<void> {
  const run = (starting ?? Promise.resolve()).then(async () => {
    await stopClient();
    await startClient();
  });
  starting = run;
  void run.finally(() => {
    if (starting === run) starting = undefined;
  });
  return run;
}

const runner: CommandRunner = {
  async execute(command, args, token) {
    if (starting) await starting;
    const c = client;
    if (!c || c.state !== State.Running) {
      throw new Error(notRunning || 'hashline-ls is not running: run "Hashline: Restart Server" and see the Hashline output');
    }
    return c.sendRequest(ExecuteCommandRequest.type, { command, arguments: [args] }, token);
  },
};

/** What a read shows: the numbered lines, or the outline. */
type View = 'lines' | 'outline';

/** Serves the numbered read of a file, or its outline, as a read-only
 * document. The URI carries the file's own URI in its query and the view
 * in its fragment. */
class ReadProvider implements vscode.TextDocumentContentProvider {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  static uriFor(file: vscode.Uri, view: View): vscode.Uri {
    const name = view === 'outline' ? 'hashline outline' : 'hashline read';
    return vscode.Uri.from({ scheme: READ_SCHEME, path: `${file.path} (${name})`, query: file.toString(), fragment: view });
  }

  refresh(uri: vscode.Uri): void {
    this.changed.fire(uri);
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const file = vscode.Uri.parse(uri.query);
    const args: Record<string, unknown> = { path: file.fsPath, session: PEOPLE_SESSION };
    if (uri.fragment === 'outline') args.view = 'outline';
    try {
      return resultText(await runner.execute('hashline.read', args));
    } catch (err) {
      return `TOOL_FAILED: ${err instanceof Error ? err.message : String(err)}\n`;
    }
  }
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel('Hashline');
  extensionPath = context.extensionPath;
  context.subscriptions.push(output);

  for (const entry of toolEntries as ToolEntry[]) {
    context.subscriptions.push(vscode.lm.registerTool(entry.name, new HashlineTool(entry, runner, vscode)));
  }

  const reads = new ReadProvider();
  const showRead = async (view: View): Promise<void> => {
    const doc = vscode.window.activeTextEditor?.document;
    if (!doc || doc.uri.scheme !== 'file') {
      void vscode.window.showWarningMessage(`Hashline: open a file from disk first; its ${view === 'outline' ? 'outline' : 'read'} is shown beside it.`);
      return;
    }
    const uri = ReadProvider.uriFor(doc.uri, view);
    // An open read shows the buffer as it was; read again on every call.
    reads.refresh(uri);
    const readDoc = await vscode.workspace.openTextDocument(uri);
    await vscode.languages.setTextDocumentLanguage(readDoc, 'plaintext');
    await vscode.window.showTextDocument(readDoc, { viewColumn: vscode.ViewColumn.Beside, preview: true, preserveFocus: true });
  };
  context.subscriptions.push(
    vscode.workspace.registerTextDocumentContentProvider(READ_SCHEME, reads),
    vscode.commands.registerCommand('hashline.showReadOfCurrentFile', () => showRead('lines')),
    // One row per declaration, with its lines: what a model reads first
    // of a large file.
    vscode.commands.registerCommand('hashline.showOutlineOfCurrentFile', () => showRead('outline')),
    vscode.commands.registerCommand('hashline.restartServer', async () => {
      output.appendLine('[hashline] restarting the server');
      await restart();
      if (client?.state === State.Running) void vscode.window.showInformationMessage('Hashline: the server restarted.');
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('hashline.serverPath')) {
        void restart();
      } else if ((e.affectsConfiguration('hashline') || e.affectsConfiguration('files.eol')) && client?.state === State.Running) {
        void client.sendNotification(DidChangeConfigurationNotification.type, { settings: wrapped(section()) });
      }
    }),
    { dispose: () => void stopClient() },
  );

  // Not awaited: activation must not hang on a server that is slow to
  // start; tool calls wait for the start themselves.
  void restart();
}

export async function deactivate(): Promise<void> {
  await stopClient();
}
