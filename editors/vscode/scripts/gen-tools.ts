// npm run gen-tools: writes the tools of `hashline-ls describe --json` into
// package.json (contributes.languageModelTools) and src/generated/tools.json
// (tool name → server command, read by the extension at run time). Run it
// whenever the server's tools change; the unit tests fail until then.

import * as fs from 'fs';
import * as path from 'path';

import { contributions, entries, parseDescribe } from '../src/manifest';
import { describeJson } from './serverBin';

const root = path.resolve(__dirname, '..', '..');
const d = parseDescribe(describeJson());

const pkgFile = path.join(root, 'package.json');
const pkg = JSON.parse(fs.readFileSync(pkgFile, 'utf8'));
pkg.contributes = { ...(pkg.contributes ?? {}), languageModelTools: contributions(d) };
fs.writeFileSync(pkgFile, JSON.stringify(pkg, null, 2) + '\n');

const gen = path.join(root, 'src', 'generated', 'tools.json');
fs.mkdirSync(path.dirname(gen), { recursive: true });
fs.writeFileSync(gen, JSON.stringify(entries(d), null, 2) + '\n');

console.log(`gen-tools: ${d.tools.map((t) => t.name).join(', ')} (hashline-ls ${d.version})`);
