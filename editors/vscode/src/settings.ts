// The settings the server receives, as initializationOptions and in
// workspace/didChangeConfiguration: the whole `hashline` section except the
// keys only the extension reads. Passing the rest through unchanged means a
// setting the server learns later needs no change here.

/** Keys of the `hashline` section that belong to the extension. */
export const CLIENT_ONLY = ['serverPath', 'trace'] as const;

/** `section` is a plain copy of workspace.getConfiguration('hashline'). */
export function serverSettings(section: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(section)) {
    if ((CLIENT_ONLY as readonly string[]).includes(k) || typeof v === 'function') continue;
    out[k] = v;
  }
  return out;
}

/** The wrapped form the server expects: `{hashline: {...}}`. */
export function wrapped(section: Record<string, unknown>): { hashline: Record<string, unknown> } {
  return { hashline: serverSettings(section) };
}

/**
 * The line ending VS Code gives new files, sent as the server's
 * `newFileEol`: `files.eol` when it names one, else ("auto") the
 * platform's: CRLF on Windows, LF elsewhere.
 */
export function newFileEol(filesEol: unknown, platform: string): string {
  if (filesEol === '\n' || filesEol === '\r\n') return filesEol;
  return platform === 'win32' ? '\r\n' : '\n';
}
