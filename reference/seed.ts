// The demo workspace of `npm start`: an owner with two sites (one published) and an editor, made with the
// domain's own constructors (the ones the tools and the test-mode world builder use), and one full-scope
// workspace connection.
import { randomBytes } from 'node:crypto';
import { indexConnection } from './auth/authenticate.js';
import { createConnection } from './domain/connections.js';
import { addPage, newSite, recordChange, starterPages } from './domain/site.js';
import { lookupsOfNew, newUser, newWorkspaceDoc } from './domain/workspace.js';
import type { Clock } from './infra/clock.js';
import type { Store } from './infra/store/store.js';

export async function seedDemo(ports: { readonly store: Store; readonly clock: Clock }) {
  const now = new Date();
  const ownerPassword = randomBytes(12).toString('base64url');
  const demoAddress = (key: string) => (userId: string) => `${key}.${userId.slice(5).toLowerCase()}@example.test`;
  const rosa = await newUser('Rosa Demo', demoAddress('rosa'), ownerPassword);
  const eddie = await newUser('Eddie Editor', demoAddress('eddie'), randomBytes(12).toString('base64url'));
  const doc = newWorkspaceDoc(
    {
      companyName: 'Rosa\'s Bakery Ltd',
      plan: 'business',
      credits: 25,
      aiConsent: true,
      ownerUserId: rosa.userId,
      users: { [rosa.userId]: rosa, [eddie.userId]: eddie },
      billing: { monthlyCreditReset: true, trialEndsAt: null, paymentCustomerId: null },
    },
    now,
  );
  const site = (name: string, members: Record<string, 'owner' | 'editor'>) => {
    const made = newSite({ name, businessName: name, members, now });
    for (const page of starterPages(name)) addPage(made, page);
    recordChange(made, now, 'seed', 'Site created with its pages');
    doc.sites[made.websiteId] = made;
    return made;
  };
  const bakery = site('Rosa\'s Bakery', { [rosa.userId]: 'owner', [eddie.userId]: 'editor' });
  bakery.published = { revision: bakery.siteRevision, publishedAt: now.toISOString(), content: structuredClone(bakery.draft) };
  site('Rosa\'s Catering', { [rosa.userId]: 'owner' });
  await ports.store.create(doc, lookupsOfNew(doc));
  const { token } = await ports.store.transact(doc.id, (ws, tx) => {
    const created = createConnection(ws, { userId: rosa.userId, websiteId: bakery.websiteId, reach: 'workspace', preset: 'full' }, ports.clock.now(ws.id));
    indexConnection(tx, created.connection, doc.id);
    return created;
  });
  return { workspaceId: doc.id, websiteId: bakery.websiteId, ownerEmail: rosa.email, ownerPassword, token };
}
