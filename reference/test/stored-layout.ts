// Reads a data directory's workspaces as the store lays them out (reference/infra/store/README.md), for the tests
// that check what is on the disk: each workspace document joined with its site documents. Throws on a torn file.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { WorkspaceDoc } from '../domain/model.js';

export async function storedWorkspace(dataDir: string, workspaceId: string): Promise<WorkspaceDoc> {
  const dir = join(dataDir, 'workspaces', workspaceId);
  const head = JSON.parse(await readFile(join(dir, 'workspace.json'), 'utf8')) as Omit<WorkspaceDoc, 'sites'> & { sites: string[] };
  const sites: WorkspaceDoc['sites'] = {};
  for (const id of head.sites) sites[id] = JSON.parse(await readFile(join(dir, 'sites', `${id}.json`), 'utf8')) as WorkspaceDoc['sites'][string];
  return { ...head, sites };
}

/** Every workspace stored under `dataDir`. */
export async function storedWorkspaces(dataDir: string): Promise<WorkspaceDoc[]> {
  const names = await readdir(join(dataDir, 'workspaces'));
  return Promise.all(names.map((name) => storedWorkspace(dataDir, name)));
}
