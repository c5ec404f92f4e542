// An MCP client nobody here wrote (the official TypeScript SDK) drives
// `chainrun mcp` over stdio: it lists the tools, starts the bundled deploy
// chain, which pauses at its decision, and takes `deploy` to the end.
//
//   node client.mjs PATH/TO/chainrun CHAINS_DIR
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [bin, chainsDir] = process.argv.slice(2);
const transport = new StdioClientTransport({
  command: bin,
  args: ["--chains-dir", chainsDir, "mcp"],
  env: { ...process.env },
  stderr: "inherit",
});
const client = new Client({ name: "chainrun-ci", version: "1.0.0" });
await client.connect(transport);

const { tools } = await client.listTools();
const names = tools.map((t) => t.name);
for (const want of ["list_chains", "start_run", "get_run", "take_transition", "cancel_run"]) {
  assert.ok(names.includes(want), `tools ${names} lack ${want}`);
}
console.log("tools:", names.join(", "));

const call = async (name, args) => {
  const res = await client.callTool({ name, arguments: args });
  assert.ok(res.structuredContent, `${name}: no structured content: ${JSON.stringify(res)}`);
  return res;
};

const listed = await call("list_chains", {});
assert.ok(JSON.stringify(listed.structuredContent).includes('"deploy"'), "deploy is not listed");

const started = await call("start_run", { chain: "deploy", inputs: { service: "payment-api" } });
const paused = started.structuredContent;
assert.equal(started.isError ?? false, false, JSON.stringify(paused));
assert.equal(paused.status, "paused", JSON.stringify(paused));
assert.equal(paused.state, "ready_to_deploy");
const deploy = paused.links.find((l) => l.transition === "deploy");
assert.ok(deploy, `no deploy link in ${JSON.stringify(paused.links)}`);
console.log("paused at", paused.state, "version", paused.version);

const stale = await client.callTool({
  name: "take_transition",
  arguments: { run_id: paused.run_id, transition: "deploy", expected_version: paused.version - 1 },
});
assert.equal(stale.isError, true, "a stale version was taken");

const done = await call("take_transition", {
  run_id: paused.run_id, transition: "deploy", expected_version: paused.version,
});
assert.equal(done.structuredContent.status, "succeeded", JSON.stringify(done.structuredContent));
console.log("deployed:", done.structuredContent.state);

const got = await call("get_run", { run_id: paused.run_id });
assert.equal(got.structuredContent.status, "succeeded");
await client.close();
console.log("MCP client check passed");
