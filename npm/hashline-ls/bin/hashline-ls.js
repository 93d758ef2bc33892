#!/usr/bin/env node
// Runs the hashline-ls binary of this platform, from the package npm
// installed as an optional dependency, with this process's arguments and
// standard streams; it exits as the binary does. Signals sent here go on
// to the binary, so an MCP client that stops this process stops the server.
'use strict';

const { spawn } = require('child_process');
const { findBinary } = require('../lib/platforms');
const { version } = require('../package.json');

const bin = findBinary(process.platform, process.arch, require.resolve, version);
if (bin instanceof Error) {
  process.stderr.write(`hashline-ls: ${bin.message}\n`);
  process.exit(1);
}
// The handlers come first, so that no signal between the spawn and them
// kills this process and leaves the binary running.
let child = null;
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => (child ? child.kill(sig) : process.exit(1)));
}
child = spawn(bin, process.argv.slice(2), { stdio: 'inherit', windowsHide: true });
child.on('error', (err) => {
  process.stderr.write(`hashline-ls: cannot run ${bin}: ${err.message}\n`);
  process.exit(1);
});
child.on('exit', (code, signal) => {
  if (signal) {
    // Die of the same signal, so the caller sees what the binary saw.
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code ?? 1);
});
