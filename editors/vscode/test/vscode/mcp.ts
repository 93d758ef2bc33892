// A terminal agent's MCP client for the real VS Code tests: it runs
// `hashline-ls mcp` in the workspace, as Codex or Claude Code would, and
// calls its tools over stdio (JSON-RPC, one message a line). With the
// editor's TMPDIR, that process finds the endpoint the extension's server
// published and is bridged to it.

import { spawn, type ChildProcess } from 'node:child_process';

export interface ToolResult {
  text: string;
  isError: boolean;
}

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
}

export class McpClient {
  private readonly proc: ChildProcess;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private buf = '';
  /** What the process wrote on stderr. */
  stderr = '';

  constructor(bin: string, ws: string, env: NodeJS.ProcessEnv) {
    this.proc = spawn(bin, ['mcp', '--root', ws], { cwd: ws, env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.proc.stderr?.on('data', (b: Buffer) => (this.stderr += b.toString()));
    this.proc.stdout?.on('data', (b: Buffer) => this.take(b.toString()));
    this.proc.once('exit', (code) => {
      for (const p of this.pending.values()) p.reject(new Error(`hashline-ls mcp exited with ${code}:\n${this.stderr}`));
      this.pending.clear();
    });
  }

  private take(chunk: string): void {
    this.buf += chunk;
    for (let i = this.buf.indexOf('\n'); i >= 0; i = this.buf.indexOf('\n')) {
      const line = this.buf.slice(0, i).trim();
      this.buf = this.buf.slice(i + 1);
      if (!line) continue;
      const msg = JSON.parse(line) as { id?: number; result?: unknown; error?: { message: string } };
      const p = msg.id !== undefined ? this.pending.get(msg.id) : undefined;
      if (!p) continue; // a notification, or a request this client does not serve
      this.pending.delete(msg.id as number);
      if (msg.error) p.reject(new Error(`MCP error: ${msg.error.message}`));
      else p.resolve(msg.result);
    }
  }

  private send(msg: Record<string, unknown>): void {
    this.proc.stdin?.write(JSON.stringify({ jsonrpc: '2.0', ...msg }) + '\n');
  }

  private request(method: string, params: unknown): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.send({ id, method, params });
    });
  }

  async initialize(): Promise<void> {
    await this.request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'hashline-vscode-test', version: '1' } });
    this.send({ method: 'notifications/initialized', params: {} });
  }

  async call(name: string, args: Record<string, unknown>): Promise<ToolResult> {
    const r = (await this.request('tools/call', { name, arguments: args })) as { content?: { type: string; text?: string }[]; isError?: boolean };
    return { text: (r.content ?? []).map((c) => c.text ?? '').join(''), isError: !!r.isError };
  }

  close(): void {
    this.proc.stdin?.end();
    this.proc.kill();
  }
}
