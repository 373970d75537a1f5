// The handler table: tool name → implementation, one module per scope area. A tool in spec/tools without an
// entry here answers not_implemented (never a fake success); a test checks that every spec tool has one.
import type { ToolHandler } from './types.js';
import { siteReadHandlers } from './site-read.js';
import { contentWriteHandlers } from './content-write.js';
import { advancedEditorHandlers } from './advanced-editor.js';
import { importHandlers } from './import-site.js';
import { migrateHandlers } from './migrate-site.js';
import { commerceHandlers } from './commerce.js';
import { settingsAccessCommsHandlers } from './settings-access-comms.js';
import { domainHandlers } from './domains.js';
import { aiImageHandlers } from './ai-images.js';
import { crmHandlers } from './crm.js';
import { workspaceHandlers } from './workspace.js';
import { reviewedHandlers } from './reviewed.js';

export const handlers: Record<string, ToolHandler> = {
  ...siteReadHandlers,
  ...contentWriteHandlers,
  ...advancedEditorHandlers,
  ...importHandlers,
  ...migrateHandlers,
  ...commerceHandlers,
  ...settingsAccessCommsHandlers,
  ...domainHandlers,
  ...aiImageHandlers,
  ...crmHandlers,
  ...workspaceHandlers,
  ...reviewedHandlers,
};
