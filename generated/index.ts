/* Generated from spec/ by `npm run generate`. Do not edit: change the schema and regenerate. */
export * as CommonSchema from './schemas/common.js';
export * as ErrorSchema from './schemas/error.js';
export * as FixturesFixturesSchema from './schemas/fixtures/fixtures.js';
export * as RuleSchema from './schemas/rule.js';
export * as ToolDefinitionSchema from './schemas/tool-definition.js';
export * as ToolResultSchema from './schemas/tool-result.js';
