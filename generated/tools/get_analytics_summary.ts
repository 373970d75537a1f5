/* Generated from spec/ by `npm run generate`. Do not edit: change the schema and regenerate. */

/**
 * Input and output (data of a successful result) of the get_analytics_summary tool.
 */
export interface GetAnalyticsSummaryTool {
  input: GetAnalyticsSummaryInput;
  output: GetAnalyticsSummaryOutput;
}
export interface GetAnalyticsSummaryInput {
  websiteId?: string;
  period?: '7d' | '30d' | '90d';
}
export interface GetAnalyticsSummaryOutput {
  period: '7d' | '30d' | '90d';
  /**
   * Page views of the live site in the period.
   */
  visits: number;
  uniqueVisitors: number;
  /**
   * Most visited site paths, most visited first.
   */
  topPages: {
    path: string;
    visits: number;
  }[];
}
