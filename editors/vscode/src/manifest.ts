// Maps the server's tool definitions (`hashline-ls describe --json`) onto
// package.json's `contributes.languageModelTools`. The generator writes what
// this returns, and a unit test checks that package.json still equals it, so
// the tools a model sees are always the server's own words.

import type { ToolSpec } from './tools';

/** One tool as `hashline-ls describe --json` lists it. */
export interface DescribedTool {
  name: string;
  command: string;
  displayName: string;
  description: string;
  inputSchema: Record<string, unknown>;
  /** The command never changes a file: it runs without asking. */
  readOnly?: boolean;
}

export interface Describe {
  version: string;
  tools: DescribedTool[];
}

// Codicons for the tool picker; a command the server adds later gets the
// generic one until someone picks a better icon.
const ICONS: Record<string, string> = {
  'hashline.read': '$(file)',
  'hashline.grep': '$(search)',
  'hashline.edit': '$(edit)',
  'hashline.write': '$(new-file)',
  'hashline.patch': '$(diff)',
};

/** The first sentence of a description, for the short text people see in
 * the tool picker; the model gets the whole description. */
export function firstSentence(text: string): string {
  const m = /^(.*?[.!?])(\s|$)/s.exec(text);
  return (m ? m[1] : text).trim();
}

export function contribution(t: DescribedTool): Record<string, unknown> {
  return {
    name: t.name,
    displayName: t.displayName,
    // Lets people name the tool in a prompt as #hashline_read.
    toolReferenceName: t.name,
    canBeReferencedInPrompt: true,
    icon: ICONS[t.command] ?? '$(tools)',
    userDescription: firstSentence(t.description),
    modelDescription: t.description,
    inputSchema: t.inputSchema,
  };
}

export function contributions(d: Describe): Record<string, unknown>[] {
  return d.tools.map(contribution);
}

/** What the extension needs at run time to forward each tool to its
 * command, and to know whether to ask first. */
export function entries(d: Describe): ToolSpec[] {
  return d.tools.map((t) => ({ name: t.name, command: t.command, displayName: t.displayName, readOnly: t.readOnly === true }));
}

export function parseDescribe(json: string): Describe {
  const d = JSON.parse(json) as Partial<Describe>;
  if (!Array.isArray(d.tools) || d.tools.length === 0) {
    throw new Error('describe --json listed no tools');
  }
  for (const t of d.tools) {
    for (const k of ['name', 'command', 'displayName', 'description'] as const) {
      if (typeof t[k] !== 'string' || t[k] === '') throw new Error(`describe --json: a tool has no ${k}: ${JSON.stringify(t)}`);
    }
    if (typeof t.inputSchema !== 'object' || t.inputSchema === null) {
      throw new Error(`describe --json: ${t.name} has no inputSchema`);
    }
  }
  return { version: String(d.version ?? ''), tools: d.tools };
}
