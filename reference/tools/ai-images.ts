// ai:generate: generate_image (§4.3). Consent and credits are read before the provider is called; the charge
// happens after delivery, in the same transaction that re-checks the balance, so the balance never goes
// negative even when calls race (rules generate-image-*). The image goes to the site's library; no page,
// section or site revision changes.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DomainError } from '../domain/errors.js';
import { newId } from '../domain/ids.js';
import type { ImageProvider } from '../infra/image-provider.js';
import { defineTool } from './types.js';

function insufficient(balance: number, cost: number): DomainError {
  return new DomainError('insufficient_credits', `Generating an image costs ${cost} credit${cost === 1 ? '' : 's'} and the workspace has ${balance}. The owner can buy credits in the app.`, { limit: balance });
}

const generate_image = defineTool('generate_image', async ({ store, limits, images, baseUrl, libraryDir, ws, site, args, note, write }) => {
  const cost = limits.imageCreditCost.value;
  // Every call is logged with the credits it spent, a refusal or failure with 0 (rule generate-image-logged-credits);
  // the success below replaces this note.
  note('no image generated; no credits spent', { creditsSpent: 0 });
  // Consent re-read on every call (rule generate-image-consent-reread): the committed workspace, not the call's first read.
  const current = (await store.read(ws.id)) ?? ws;
  if (!current.aiConsent) throw new DomainError('ai_consent_missing', 'The workspace has not given consent to AI features. The owner can turn it on in the app.');
  if (current.credits < cost) throw insufficient(current.credits, cost);
  // The provider is a service (services.ts); a delivery that fails charges nothing (rule generate-image-charged-after-delivery).
  let image: Awaited<ReturnType<ImageProvider['render']>>;
  try {
    image = await images.render({ workspaceId: ws.id, prompt: args.prompt, aspect: args.aspect ?? 'square', brand: site.brand });
  } catch {
    throw new DomainError('operation_failed', 'The image provider failed to deliver an image; nothing was charged. Try again later.');
  }
  const assetId = newId('asset');
  const dir = join(libraryDir, site.websiteId);
  await mkdir(dir, { recursive: true });
  const file = join(dir, `${assetId}.svg`);
  await writeFile(file, image.bytes);
  // Charged only now that the image is delivered (rule generate-image-charged-after-delivery).
  const creditsRemaining = await write((fresh, freshSite, tx) => {
    // Nothing half-written: no library file without its charge, whether this write or the call fails.
    tx.onAbort(() => rm(file, { force: true }));
    if (!fresh.aiConsent) throw new DomainError('ai_consent_missing', 'AI consent was withdrawn while the image was made; nothing was charged.');
    if (fresh.credits < cost) throw insufficient(fresh.credits, cost);
    fresh.credits -= cost;
    freshSite.library.push({ assetId, key: assetId, url: `${baseUrl}/library/${site.websiteId}/${assetId}.svg`, alt: args.prompt.slice(0, 120), kind: 'image' });
    return fresh.credits;
  });
  note('image generated into the library', { creditsSpent: cost });
  return { assetId, url: `${baseUrl}/library/${site.websiteId}/${assetId}.svg`, creditsSpent: cost, creditsRemaining };
});

export const aiImageHandlers = { generate_image };
