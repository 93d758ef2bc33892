// A third-party MCP client: the official TypeScript SDK's Client over stdio,
// driving `hashline-ls mcp`. It lists the tools, reads a file, edits it with
// the tag from the read's text, then sends the same edit with that tag
// again, which is stale now. It prints one JSON report on stdout for the Go
// test to judge; it judges nothing itself.
//
// Environment: HASHLINE_BIN (the server's command), HASHLINE_ARGS (a JSON
// list of arguments before "mcp", e.g. for npx), HASHLINE_ROOT (its
// workspace), NODE_PATH (where the SDK is installed).
const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport } = require("@modelcontextprotocol/sdk/client/stdio.js");

function text(result) {
  return result.content.map((c) => (c.type === "text" ? c.text : `[${c.type}]`)).join("");
}

function summary(result) {
  return { isError: result.isError === true, blocks: result.content.length, text: text(result), structured: result.structuredContent };
}

async function main() {
  const prefix = process.env.HASHLINE_ARGS ? JSON.parse(process.env.HASHLINE_ARGS) : [];
  const transport = new StdioClientTransport({
    command: process.env.HASHLINE_BIN,
    args: [...prefix, "mcp", "--root", process.env.HASHLINE_ROOT, "--no-editor"],
    // The SDK passes on only a few variables by default; a command with
    // arguments (npx) needs its npm_config_* settings too.
    env: prefix.length > 0 ? process.env : undefined,
    stderr: "inherit",
  });
  let negotiated = null;
  transport.setProtocolVersion = (v) => {
    negotiated = v;
  };
  const client = new Client({ name: "hashline-e2e-ts", version: "1.0.0" });
  await client.connect(transport);
  const report = {
    protocolVersion: negotiated,
    server: client.getServerVersion(),
    instructions: client.getInstructions(),
  };
  const { tools } = await client.listTools();
  report.tools = tools.map((t) => ({ name: t.name, readOnlyHint: t.annotations ? t.annotations.readOnlyHint : undefined }));

  const read = await client.callTool({ name: "hashline_read", arguments: { path: "greet.py" } });
  report.read = summary(read);
  const m = /^\[greet\.py#([0-9A-F]{4})\]$/m.exec(text(read));
  if (!m) throw new Error("no [path#TAG] header in the read's text: " + text(read));
  const ops = 'PUT 2.=2:\n+    return f"hi {name}"\n';
  report.edit = summary(await client.callTool({ name: "hashline_edit", arguments: { path: "greet.py", tag: m[1], ops } }));
  report.stale = summary(
    await client.callTool({ name: "hashline_edit", arguments: { path: "greet.py", tag: m[1], ops: 'PUT 2.=2:\n+    return f"hey {name}"\n' } }),
  );
  await client.close();
  process.stdout.write(JSON.stringify(report, null, 2) + "\n");
}

main().catch((err) => {
  console.error(err && err.stack ? err.stack : String(err));
  process.exit(1);
});
