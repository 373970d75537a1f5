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
   * visual: captured pages (text, images and links editable, layout fixed); typed: converted to typed sections; mixed: some pages each way.
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
