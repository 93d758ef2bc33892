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
  readonly version: number;
  getText(): string;
  save(): Thenable<boolean>;
}

/** The bytes of a document's file on disk; undefined when it cannot be
 * read. */
export type DiskReader = (doc: SavableDocument) => Thenable<Uint8Array | undefined>;

const TYPED = 'the document changed after the edit landed (typing that is not saved)';
const NOT_WRITTEN = 'VS Code did not save it';
// What the extension cannot tell apart: VS Code saves the text its editor
// holds once the save request reaches it and the save participants ran,
// and a key typed there just before is in it as much as a formatter's
// change is.
const CHANGED = 'VS Code saved other text than the edit left: a save participant (format-on-save, trimming whitespace) changed it, or a key typed as the save ran is in it';

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** Whether the file's bytes are the text (as UTF-8, a BOM left out, as
 * VS Code leaves it out of a document's text). */
function holds(bytes: Uint8Array, text: string): boolean {
  return new TextDecoder().decode(bytes) === text;
}

/** Saves the document `params.uri` names among `docs`
 * (vscode.workspace.textDocuments); `fsPathOf` turns the URI into a path
 * (vscode.Uri.parse(uri).fsPath), since the server may spell a URI another
 * way than VS Code does. The answer says what the disk holds afterwards:
 * saved is true when VS Code wrote the file, and a reason says so when it
 * wrote other text than the edit left. */
export async function saveDocument(
  params: SaveParams | undefined,
  docs: readonly SavableDocument[],
  fsPathOf: (uri: string) => string,
  readDisk: DiskReader,
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
  // Read before the version is compared: between the comparison and the
  // save's start no other turn of the extension host runs, so no change
  // it has heard of slips in between.
  const prior = await readDisk(doc);
  // Only the text the edit left is saved: a person who typed since keeps
  // it unsaved.
  if (typeof params.version === 'number' && doc.version !== params.version) return { saved: false, reason: TYPED };
  const left = doc.getText();
  // VS Code saved it already (its refactoring auto-save does).
  if (prior && holds(prior, left)) return { saved: true };
  try {
    // Its answer says whether the document is clean afterwards, not
    // whether the file was written: read the disk instead.
    await doc.save();
  } catch (err) {
    return { saved: false, reason: err instanceof Error ? err.message : String(err) };
  }
  const after = await readDisk(doc);
  if (!after || (prior && sameBytes(after, prior))) return { saved: false, reason: NOT_WRITTEN };
  if (holds(after, left)) return { saved: true };
  return { saved: true, reason: CHANGED };
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
