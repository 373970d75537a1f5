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
/**
 * Relay every field to the user; never report a clean success when truncated, pagesFailed, pagesAwaitingCapture or actionsRequired say otherwise.
 */
export interface MigrateSiteFromUrlOutput {
  websiteId: string;
  editorUrl: string;
  /**
   * visual: every page captured (text, images and links editable, layout fixed); typed: every page converted to typed sections (always so for a re-sync with mergeIntoWebsiteId); mixed: some pages each way. Our values (rule migrate-fidelity-values).
   */
  fidelity: 'visual' | 'typed' | 'mixed';
  pagesFetched: number;
  pagesFailed: number;
  /**
   * Pages still queued for visual capture beyond the free allowance.
   */
  pagesAwaitingCapture: number;
  /**
   * The crawl stopped at its page or time bound before reading the whole site.
   */
  truncated: boolean;
  /**
   * Number of images or files not imported.
   */
  assetsSkipped: number;
  /**
   * Plain-language follow-ups for the user.
   */
  actionsRequired: string[];
}
