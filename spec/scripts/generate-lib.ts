// Generates TypeScript types from spec/ with json-schema-to-typescript: one module per shared schema under
// generated/schemas/, one per tool under generated/tools/ (exporting <Tool>Input and <Tool>Output), the tool map
// (generated/tool-map.ts: ToolName and, per tool, its input, output and whether it targets a website) that types
// the reference's handlers, and an index. Pure: returns path → content, so a test can compare it with what is
// committed.
import { dirname, join } from 'node:path';
import { compile, type Options } from 'json-schema-to-typescript';
import { loadSchemas, loadTools, SPEC_BASE, specDir, targetsSite } from '../index.js';

const BANNER = '/* Generated from spec/ by `npm run generate`. Do not edit: change the schema and regenerate. */';

const pascal = (name: string) => name.replace(/(^|[_-])([a-z0-9])/g, (_, __, c: string) => c.toUpperCase());

function options(cwd: string): Partial<Options> {
  return {
    bannerComment: BANNER,
    cwd,
    additionalProperties: false,
    strictIndexSignatures: true,
    unreachableDefinitions: true,
    // Bounded arrays stay T[]: without this a maxItems of 10 becomes a union of eleven tuple types.
    maxItems: -1,
    format: true,
    style: { singleQuote: true, printWidth: 120 },
    // Refs are relative files under spec/; nothing is ever fetched.
    $refOptions: { resolve: { http: false } },
  };
}

export async function generateAll(): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const index: string[] = [BANNER];
  const mapImports: string[] = [];
  const mapEntries: string[] = [];
  for (const [id, schema] of loadSchemas()) {
    const relPath = id.slice(`${SPEC_BASE}schemas/`.length);
    const moduleName = relPath.replace(/\.schema\.json$/, '');
    const { $id: _id, ...rest } = schema;
    const ts = await compile(rest as never, pascal(moduleName.split('/').pop()!), options(dirname(join(specDir, 'schemas', relPath))));
    out.set(`generated/schemas/${moduleName}.ts`, ts);
    index.push(`export * as ${pascal(moduleName.replace(/\//g, '-'))}Schema from './schemas/${moduleName}.js';`);
  }
  for (const tool of loadTools()) {
    const name = pascal(tool.name);
    const root = {
      title: `${name}Tool`,
      description: `Input and output (data of a successful result) of the ${tool.name} tool.`,
      type: 'object',
      additionalProperties: false,
      required: ['input', 'output'],
      properties: {
        input: { ...tool.inputSchema, title: `${name}Input` },
        output: { ...tool.outputSchema, title: `${name}Output` },
      },
    };
    const ts = await compile(root as never, `${name}Tool`, options(join(specDir, 'tools')));
    out.set(`generated/tools/${tool.name}.ts`, ts);
    index.push(`export type { ${name}Input, ${name}Output } from './tools/${tool.name}.js';`);
    mapImports.push(`import type { ${name}Tool } from './tools/${tool.name}.js';`);
    mapEntries.push(`  ${tool.name}: ${name}Tool & { targetsSite: ${targetsSite(tool)} };`);
  }
  out.set('generated/tool-map.ts', toolMap(mapImports, mapEntries));
  index.push(`export type { ToolName, ToolTypes } from './tool-map.js';`);
  out.set('generated/index.ts', `${index.join('\n')}\n`);
  return out;
}

function toolMap(imports: string[], entries: string[]): string {
  return [
    BANNER,
    '',
    ...imports,
    '',
    '/**',
    ' * Every tool in spec/tools by name: its input, its output (the data of a successful result) and whether the call',
    ' * path resolves a target website before its handler runs.',
    ' */',
    'export interface ToolTypes {',
    ...entries,
    '}',
    '',
    'export type ToolName = keyof ToolTypes;',
    '',
  ].join('\n');
}
