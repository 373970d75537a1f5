/* Generated from spec/ by `npm run generate`. Do not edit: change the schema and regenerate. */

/**
 * Input and output (data of a successful result) of the migrate_site_from_url tool.
 */
export interface MigrateSiteFromUrlTool {
  input: MigrateSiteFromUrlInput;
  output: MigrateSiteFromUrlOutput;
}
export interface MigrateSiteFromUrlInput {
  url: string;
  mergeIntoWebsiteId?: string;
  maxPages?: number;
}
export interface MigrateSiteFromUrlOutput {
  websiteId: string;
  editorUrl: string;
  fidelity: 'visual' | 'typed' | 'mixed';
  pagesFetched: number;
  pagesFailed: number;
  pagesAwaitingCapture: number;
  truncated: boolean;
  assetsSkipped: number;
  actionsRequired: string[];
}
