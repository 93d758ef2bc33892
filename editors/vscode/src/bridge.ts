// The extension's part of the bridge to hashline-ls mcp: a terminal agent
// running `hashline-ls mcp` in this workspace is served by this window's
// server, so its reads see unsaved buffers and its edits land in them. The
// agent runs its tests on the disk next, so after such an edit of a
// document that had no unsaved changes the server asks for it to be saved
// (hashline/saveDocument), through VS Code's own save, so format-on-save
// runs. The server asks only when the extension says it answers
// (initializationOptions.hashline.saveDocument).

export const SAVE_DOCUMENT = 'hashline/saveDocument';

export interface SaveParams {
  uri: string;
  /** The version of the document the edit left: only that text is saved. */
  version?: number;
}

export interface SaveResult {
  saved: boolean;
  reason?: string;
}

/** The part of a vscode.TextDocument the save uses. */
export interface SavableDocument {
  readonly uri: { readonly fsPath: string };
  readonly isDirty: boolean;
  readonly version: number;
  save(): Thenable<boolean>;
}

const TYPED = 'the document changed after the edit landed (typing that is not saved)';

/** Saves the document `params.uri` names among `docs`
 * (vscode.workspace.textDocuments); `fsPathOf` turns the URI into a path
 * (vscode.Uri.parse(uri).fsPath), since the server may spell a URI another
 * way than VS Code does. */
export async function saveDocument(
  params: SaveParams | undefined,
  docs: readonly SavableDocument[],
  fsPathOf: (uri: string) => string,
): Promise<SaveResult> {
  if (!params || typeof params.uri !== 'string') return { saved: false, reason: 'the request names no uri' };
  let file: string;
  try {
    file = fsPathOf(params.uri);
  } catch {
    return { saved: false, reason: `${params.uri} is not a URI VS Code can open` };
  }
  const doc = docs.find((d) => d.uri.fsPath === file);
  if (!doc) return { saved: false, reason: `VS Code holds no document for ${file}` };
  // Only the text the edit left is saved: a person who typed since keeps
  // it unsaved. The check and the save's start run in one turn of the
  // extension host; a keystroke the renderer sends after the check is not
  // in the save, and the version afterwards tells.
  if (typeof params.version === 'number' && doc.version !== params.version) return { saved: false, reason: TYPED };
  // Not dirty: VS Code saved it already (its refactoring auto-save does).
  if (!doc.isDirty) return { saved: true };
  try {
    if (!(await doc.save())) return { saved: false, reason: 'VS Code did not save it' };
    // Format-on-save and the other save participants move the version and
    // leave the document clean; typing during the save leaves it dirty.
    if (doc.isDirty) return { saved: false, reason: TYPED };
    return { saved: true };
  } catch (err) {
    return { saved: false, reason: err instanceof Error ? err.message : String(err) };
  }
}

/** The output-channel line that says where hashline-ls mcp reaches the
 * server, from its answer to initialize. */
export function endpointLine(initializeResult: unknown): string {
  const caps = (initializeResult as { capabilities?: { experimental?: { hashline?: { endpoint?: unknown; endpointProblem?: unknown } } } } | undefined)
    ?.capabilities;
  const h = caps?.experimental?.hashline;
  if (typeof h?.endpoint === 'string') return `[hashline] hashline-ls mcp reaches this server at ${h.endpoint}`;
  if (typeof h?.endpointProblem === 'string') return `[hashline] hashline-ls mcp cannot reach this server: ${h.endpointProblem}`;
  return '[hashline] this hashline-ls publishes no endpoint for hashline-ls mcp';
}
