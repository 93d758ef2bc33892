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
import { describeSource, findServer } from './serverPath';
import { newFileEol, wrapped } from './settings';
import { HashlineTool, resultText, type CommandRunner, type ToolSpec } from './tools';

const READ_SCHEME = 'hashline-read';
// People's reads go to a session of their own, so showing a file to a person
// never counts as the model having seen its lines.
const PEOPLE_SESSION = 'vscode-show-read';

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

/** The server as this window runs it, and the extension's one piece of
 * state: the client while it runs, the start in progress, and why it is
 * not running. Tool calls and reads run their commands through it. */
class ServerClient implements CommandRunner {
  private client: LanguageClient | undefined;
  private starting: Promise<void> | undefined;
  /** Why the server is not running, told to the model and the user. */
  private notRunning = 'hashline-ls has not started yet';

  constructor(
    readonly output: vscode.OutputChannel,
    /** The folder the extension is installed in, where its bundled server is. */
    private readonly extensionPath: string,
  ) {}

  private async showStartError(message: string): Promise<void> {
    this.output.appendLine(`[hashline] ${message}`);
    const choice = await vscode.window.showErrorMessage(`Hashline: ${message}`, 'Open Settings', 'Show Log');
    if (choice === 'Open Settings') {
      await vscode.commands.executeCommand('workbench.action.openSettings', 'hashline.serverPath');
    } else if (choice === 'Show Log') {
      this.output.show(true);
    }
  }

  private async start(): Promise<void> {
    const found = findServer({
      configured: vscode.workspace.getConfiguration('hashline').get<string>('serverPath') ?? '',
      extensionPath: this.extensionPath,
      envPath: process.env.PATH,
      platform: process.platform,
      arch: process.arch,
      home: os.homedir(),
      workspaceFolder: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
      isExecutable,
    });
    if (!found.ok) {
      this.notRunning = found.message;
      void this.showStartError(found.message);
      return;
    }
    const from = describeSource(found.source);
    this.output.appendLine(`[hashline] starting ${found.path} --stdio (${from})`);
    // No `transport` here: with one, the client would add its own --stdio.
    const serverOptions: ServerOptions = { command: found.path, args: ['--stdio'] };
    const clientOptions: LanguageClientOptions = {
      // Every file buffer, whatever its language: a read must see unsaved
      // typing in any file the model may touch.
      documentSelector: [{ scheme: 'file' }],
      // saveDocument: this extension answers hashline/saveDocument (bridge.ts).
      initializationOptions: () => ({ hashline: { ...wrapped(section()).hashline, saveDocument: true } }),
      outputChannel: this.output,
      revealOutputChannelOn: RevealOutputChannelOn.Never,
    };
    const c = new LanguageClient('hashline', 'Hashline', serverOptions, clientOptions);
    this.client = c;
    c.onRequest(SAVE_DOCUMENT, (p: SaveParams) => saveDocument(p, vscode.workspace.textDocuments, (uri) => vscode.Uri.parse(uri, true).fsPath));
    try {
      await c.start();
      this.notRunning = '';
      const version = c.initializeResult?.serverInfo?.version ?? 'of unknown version';
      this.output.appendLine(`[hashline] running hashline-ls ${version}: ${found.path} (${from})`);
      this.output.appendLine(endpointLine(c.initializeResult));
    } catch (err) {
      this.notRunning = `hashline-ls (${found.path}) did not start: ${err instanceof Error ? err.message : String(err)}`;
      void this.showStartError(this.notRunning);
    }
  }

  async stop(): Promise<void> {
    const c = this.client;
    this.client = undefined;
    this.notRunning = 'hashline-ls is restarting';
    if (c) {
      try {
        await c.stop(5000);
      } catch (err) {
        this.output.appendLine(`[hashline] stopping the server: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }

  /** Stops the server if it runs and starts it again; calls queue up, and
   * tool calls wait for the start in progress. */
  restart(): Promise<void> {
    const run = (this.starting ?? Promise.resolve()).then(async () => {
      await this.stop();
      await this.start();
    });
    this.starting = run;
    void run.finally(() => {
      if (this.starting === run) this.starting = undefined;
    });
    return run;
  }

  running(): boolean {
    return this.client?.state === State.Running;
  }

  /** Sends the settings as they are now to a running server. */
  sendSettings(): void {
    if (this.client && this.running()) {
      void this.client.sendNotification(DidChangeConfigurationNotification.type, { settings: wrapped(section()) });
    }
  }

  async execute(command: string, args: Record<string, unknown>, token?: vscode.CancellationToken): Promise<unknown> {
    if (this.starting) await this.starting;
    const c = this.client;
    if (!c || c.state !== State.Running) {
      throw new Error(this.notRunning || 'hashline-ls is not running: run "Hashline: Restart Server" and see the Hashline output');
    }
    return c.sendRequest(ExecuteCommandRequest.type, { command, arguments: [args] }, token);
  }
}

/** The server of the active extension, for deactivate. */
let active: ServerClient | undefined;

/** What a read shows: the numbered lines, or the outline. */
type View = 'lines' | 'outline';

/** Serves the numbered read of a file, or its outline, as a read-only
 * document. The URI carries the file's own URI in its query and the view
 * in its fragment. */
class ReadProvider implements vscode.TextDocumentContentProvider {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly runner: CommandRunner) {}

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
      return resultText(await this.runner.execute('hashline.read', args));
    } catch (err) {
      return `TOOL_FAILED: ${err instanceof Error ? err.message : String(err)}\n`;
    }
  }
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel('Hashline');
  context.subscriptions.push(output);
  const server = new ServerClient(output, context.extensionPath);
  active = server;

  for (const entry of toolEntries as ToolSpec[]) {
    context.subscriptions.push(vscode.lm.registerTool(entry.name, new HashlineTool(entry, server, vscode)));
  }

  const reads = new ReadProvider(server);
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
      await server.restart();
      if (server.running()) void vscode.window.showInformationMessage('Hashline: the server restarted.');
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('hashline.serverPath')) {
        void server.restart();
      } else if (e.affectsConfiguration('hashline') || e.affectsConfiguration('files.eol')) {
        server.sendSettings();
      }
    }),
    { dispose: () => void server.stop() },
  );

  // Not awaited: activation must not hang on a server that is slow to
  // start; tool calls wait for the start themselves.
  void server.restart();
}

export async function deactivate(): Promise<void> {
  await active?.stop();
  active = undefined;
}
