// Prints the serialized tools/list size (§8 limit 40,000 characters; budget 30,000), the largest tools, and what
// publishing every output schema as MCP outputSchema would cost (rule tools-list-no-output-schema).
import { loadTools, outputSchemaAsPublished, toolsListPayload } from '../index.js';

const payload = toolsListPayload();
const size = JSON.stringify(payload).length;
console.log(`tools/list payload: ${size} characters (${payload.tools.length} tools)`);
for (const t of [...payload.tools].sort((a, b) => JSON.stringify(b).length - JSON.stringify(a).length).slice(0, 8)) {
  console.log(`  ${String(JSON.stringify(t).length).padStart(5)}  ${t.name}`);
}
const tools = loadTools();
const withOutput = { tools: payload.tools.map((t, i) => ({ ...t, outputSchema: outputSchemaAsPublished(tools[i]!) })) };
const withOutputSize = JSON.stringify(withOutput).length;
console.log(`with every outputSchema: ${withOutputSize} characters (+${withOutputSize - size}; rule tools-list-no-output-schema)`);
