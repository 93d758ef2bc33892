// A small MCP client over stdio (one JSON-RPC message per line), enough to
// drive `hashline-ls mcp` as a terminal agent would: initialize, then tool
// calls. The real VS Code test uses it to reach the extension's server
// through the bridge.

import { spawn, type ChildProcess } from 'node:child_process';

interface Message {
  id?: number;
  result?: { content?: { type: string; text: string }[]; isError?: boolean };
  error?: unknown;
}

/** What a tool call answered: its one text block and its error flag. */
export interface ToolAnswer {
  text: string;
  isError: boolean;
}

export class StdioClient {
  private readonly proc: ChildProcess;
  private buffered = '';
  private nextId = 1;
  private readonly pending = new Map<number, (m: Message) => void>();
  /** What the server wrote to stderr: its log. */
  stderr = '';

  constructor(bin: string, args: string[], env: NodeJS.ProcessEnv) {
    this.proc = spawn(bin, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.proc.stderr?.on('data', (b: Buffer) => (this.stderr += b.toString()));
    this.proc.stdout?.on('data', (b: Buffer) => {
      this.buffered += b.toString();
      for (let i = this.buffered.indexOf('\n'); i >= 0; i = this.buffered.indexOf('\n')) {
        const line = this.buffered.slice(0, i).trim();
        this.buffered = this.buffered.slice(i + 1);
        if (!line) continue;
        const m = JSON.parse(line) as Message;
        const answer = m.id === undefined ? undefined : this.pending.get(m.id);
        if (answer) {
          this.pending.delete(m.id as number);
          answer(m);
        }
      }
    });
  }

  private send(m: object): void {
    this.proc.stdin?.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\n');
  }

  private request(method: string, params: object): Promise<Message['result']> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${method}: no answer within 60 s; the server's stderr:\n${this.stderr}`)), 60_000);
      this.pending.set(id, (m) => {
        clearTimeout(timer);
        if (m.error) reject(new Error(`${method}: ${JSON.stringify(m.error)}`));
        else resolve(m.result);
      });
      this.send({ id, method, params });
    });
  }

  async initialize(): Promise<void> {
    await this.request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'hashline-vscode-test', version: '1' } });
    this.send({ method: 'notifications/initialized', params: {} });
  }

  async call(name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
    const r = await this.request('tools/call', { name, arguments: args });
    const blocks = r?.content ?? [];
    if (blocks.length !== 1 || blocks[0].type !== 'text') throw new Error(`${name}: want one text block, got ${JSON.stringify(r)}`);
    return { text: blocks[0].text, isError: !!r?.isError };
  }

  /** Ends the connection and waits for the server to exit. */
  close(): Promise<void> {
    const exited = new Promise<void>((resolve) => {
      if (this.proc.exitCode !== null) resolve();
      else this.proc.once('exit', () => resolve());
    });
    this.proc.stdin?.end();
    return exited;
  }
}
