// The demo workspace of `npm start`: an owner with two sites (one published), built by the same world
// builder the fixtures protocol uses, and one full-scope workspace connection.
import { indexConnection } from './domain/authenticate.js';
import { createConnection } from './domain/connections.js';
import { workspaceNow } from './domain/clock.js';
import { buildWorld } from './domain/world.js';
import type { Runtime } from './runtime.js';

export async function seedDemo(rt: Runtime) {
  const world = await buildWorld(
    rt.store,
    {
      companyName: 'Rosa\'s Bakery Ltd',
      plan: 'business',
      credits: 25,
      users: [{ key: 'rosa', name: 'Rosa Demo' }, { key: 'eddie', name: 'Eddie Editor' }],
      sites: [
        { key: 'bakery', name: 'Rosa\'s Bakery', businessName: 'Rosa\'s Bakery', members: { rosa: 'owner', eddie: 'editor' }, published: true },
        { key: 'catering', name: 'Rosa\'s Catering', businessName: 'Rosa\'s Catering', members: { rosa: 'owner' } },
      ],
    },
    new Date(),
  );
  const owner = world.users.rosa!;
  const { token } = await rt.store.transact(world.workspaceId, (ws, tx) => {
    const created = createConnection(ws, { userId: owner.userId, websiteId: world.sites.bakery!.websiteId, reach: 'workspace', preset: 'full' }, workspaceNow(ws));
    indexConnection(tx, created.connection, world.workspaceId);
    return created;
  });
  return { workspaceId: world.workspaceId, websiteId: world.sites.bakery!.websiteId, ownerEmail: owner.email, ownerPassword: owner.password, token };
}
