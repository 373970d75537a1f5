// Prints the serialized tools/list size (§8 limit 40,000 characters; budget 30,000) and the largest tools.
import { toolsListPayload } from '../index.js';

const payload = toolsListPayload();
console.log(`tools/list payload: ${JSON.stringify(payload).length} characters (${payload.tools.length} tools)`);
for (const t of [...payload.tools].sort((a, b) => JSON.stringify(b).length - JSON.stringify(a).length).slice(0, 8)) {
  console.log(`  ${String(JSON.stringify(t).length).padStart(5)}  ${t.name}`);
}
