// The handler table: tool name → implementation. A tool in spec/tools without an entry here answers
// not_implemented (never a fake success). One module per scope area.
import type { ToolHandler } from './types.js';
import { siteReadHandlers } from './site-read.js';
import { contentWriteHandlers } from './content-write.js';
import { reviewedHandlers } from './reviewed.js';

export const handlers: Record<string, ToolHandler> = {
  ...siteReadHandlers,
  ...contentWriteHandlers,
  ...reviewedHandlers,
};
