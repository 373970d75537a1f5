// The owner's side in a real browser (Debian's Chromium driven by playwright-core), by clicking only: an agent
// edits the draft and prepares a publish; the owner opens the app's address, signs in, goes from the list of
// sites to the site's home, finds the plan waiting, reviews what goes live and approves; the agent's confirm
// publishes, and the owner clicks through to the live site, styled from its section types and brand palette.
// A second flow creates a named connection in Developers settings, copies its token once and revokes it after a
// confirmation. Screenshots land in reports/ for a person to look at.
import { type Browser, type Page } from 'playwright-core';
import { launchChromium, REPORTS } from './chromium.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Target } from '../../conformance/lib/target.js';
import { referenceServer } from '../../conformance/properties/shared-reference.js';
import { FixturesClient, type WorldWithPasswords } from '../../conformance/lib/fixtures-client.js';
import { McpConnection } from '../../conformance/lib/mcp-client.js';

let target: Target;
let browser: Browser;
let world: WorldWithPasswords;
let mcp: McpConnection;

beforeAll(async () => {
  target = await referenceServer();
  world = await new FixturesClient(target.url, target.fixturesSecret).world({
    users: [{ key: 'olive' }],
    sites: [{ key: 'main', name: 'Olive Bakery', businessName: 'Olive Bakery', members: { olive: 'owner' } }],
  });
  const fx = new FixturesClient(target.url, target.fixturesSecret);
  const { token } = await fx.connection({ userId: world.users.olive!.userId, websiteId: world.sites.main!.websiteId, scopes: ['content:write', 'publish'] });
  mcp = new McpConnection(target.url, token);
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await mcp?.close();
  await target?.stop();
});

async function signIn(page: Page): Promise<void> {
  expect(await page.locator('h1').textContent()).toBe('Sign in');
  await page.getByLabel('Email').fill(world.users.olive!.email);
  await page.getByLabel('Password').fill(world.users.olive!.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

const ok = async (tool: string, args: Record<string, unknown>) => {
  const answer = await mcp.callTool(tool, args);
  expect(answer.envelope.ok, `${tool}: ${JSON.stringify(answer.envelope.error)}`).toBe(true);
  return answer.envelope.data as Record<string, unknown>;
};

describe('the owner in the browser, by clicking only', () => {
  it('rule:plan-approval-signed-in-owner rule:publish-makes-draft-live — sign-in → sites → site → pending plan → review → approve; the confirm publishes and the live site is styled', async () => {
    const site = world.sites.main!;
    const home = site.pages.home!;
    await ok('update_section_text', { sectionId: home.sections.hero!, field: 'heading', text: 'Fresh sourdough every morning' });
    await ok('add_section', { pageId: home.pageId, type: 'services', content: { heading: 'What we bake', items: [{ title: 'Sourdough loaf', description: 'Three-day fermented, crackling crust.', price: '€6' }, { title: 'Cinnamon buns', description: 'Every Saturday from 7 am.', price: '€3' }, { title: 'Birthday cakes', description: 'Order a week ahead.', price: 'from €35' }] } });
    await ok('add_section', { pageId: home.pageId, type: 'testimonials', content: { heading: 'Neighbours say', items: [{ quote: 'The best bread in town, still warm at eight.', author: 'Marta' }] } });
    await ok('add_section', { pageId: home.pageId, type: 'cta', content: { heading: 'Order for the weekend', body: 'Reserve by Thursday evening.', buttonLabel: 'Get in touch', buttonHref: '/contact' } });
    const card = (await ok('prepare_publish', {})) as { planId: string };

    const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    await page.goto(`${target.url}/`);
    await signIn(page);
    expect(await page.locator('h1').textContent()).toBe('Your sites');
    await page.screenshot({ path: `${REPORTS}app-sites.png`, fullPage: true });
    await page.getByRole('link', { name: 'Olive Bakery' }).click();
    expect(await page.locator('h1').textContent()).toBe('Olive Bakery');
    await expect.poll(() => page.locator('#pending + table').textContent()).toContain('Publish the draft of Olive Bakery');
    await page.screenshot({ path: `${REPORTS}app-site-home.png`, fullPage: true });

    // The draft preview the editorUrl opens, reached from the site's home.
    await page.getByRole('link', { name: 'Preview the draft' }).click();
    expect(await page.locator('h1').textContent()).toBe('Fresh sourdough every morning');
    expect(await page.textContent('.preview-bar')).toContain('Draft preview');
    await page.getByRole('link', { name: "Back to the site's overview" }).click();

    await page.getByRole('link', { name: 'Review', exact: true }).click();
    expect(page.url()).toBe(`${target.url}/app/plans/${card.planId}`);
    expect(await page.locator('h1').textContent()).toBe('Review a plan');
    const review = (await page.textContent('main'))!;
    expect(review).toContain('What goes live');
    expect(review).toContain('Fresh sourdough every morning');
    expect(review).toContain('Nothing of this website is live yet');
    expect(review).toMatch(/\d+ minutes? left|seconds left/);
    expect(review).not.toMatch(/kind:|revision \d/);
    await page.screenshot({ path: `${REPORTS}approval-card.png`, fullPage: true });
    await page.getByRole('button', { name: 'Approve' }).click();
    expect(await page.locator('h1').textContent()).toBe('Plan approved');

    const confirmed = await mcp.callTool('confirm_pending_action', { planId: card.planId });
    expect(confirmed.envelope.ok, JSON.stringify(confirmed.envelope.error)).toBe(true);

    await page.getByRole('link', { name: 'Open the live site' }).click();
    expect(page.url()).toBe(`${target.url}/sites/${site.websiteId}/`);
    expect(await page.locator('h1').textContent()).toBe('Fresh sourdough every morning');
    expect(await page.locator('[data-type=services] h3').allTextContents()).toEqual(['Sourdough loaf', 'Cinnamon buns', 'Birthday cakes']);
    // The brand's palette (world sites keep the default brand: primary #1f4e79) styles the banner and the footer.
    const style = (selector: string, property: 'backgroundColor' | 'backgroundImage') =>
      page.locator(selector).evaluate((el, p) => (globalThis as unknown as { getComputedStyle(e: unknown): Record<string, string> }).getComputedStyle(el)[p]!, property);
    expect(await style('footer.site-foot', 'backgroundColor')).toBe('rgb(31, 78, 121)');
    expect(await style('[data-type=hero]', 'backgroundImage')).toContain('rgb(31, 78, 121)');
    await page.screenshot({ path: `${REPORTS}published-site.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 800 });
    await page.screenshot({ path: `${REPORTS}published-site-mobile.png`, fullPage: true });
    await page.getByRole('link', { name: 'Get in touch' }).click();
    expect(page.url()).toBe(`${target.url}/sites/${site.websiteId}/contact`);
    await page.close();
  }, 90_000);

  it('rule:token-shown-once — Developers settings: create a named connection, copy its token once, revoke it after confirming', async () => {
    const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${target.url}/app/`);
    await signIn(page);
    await page.getByRole('link', { name: 'Olive Bakery' }).click();
    await page.getByRole('link', { name: 'Developers settings' }).click();
    expect(await page.locator('h1').textContent()).toBe('Developers settings');
    await page.getByLabel('Name').fill('Claude on my laptop');
    await page.getByRole('checkbox', { name: /crm:read/ }).check();
    await page.getByRole('button', { name: 'Create and show token' }).click();
    expect(await page.locator('h1').textContent()).toBe('Connection created');
    const token = (await page.locator('#token').textContent())!;
    expect(token).toMatch(/^smcp_live_/);
    await page.getByRole('button', { name: 'Copy' }).click();
    await expect.poll(() => page.locator('#copied').textContent()).toBe('Copied.');
    await page.screenshot({ path: `${REPORTS}developers-token.png`, fullPage: true });
    await page.reload();
    expect(await page.locator('h1').textContent()).toBe('Token already shown');
    expect(await page.textContent('body')).not.toContain(token);

    await page.getByRole('link', { name: 'Back to Developers' }).click();
    const row = page.locator('tr', { hasText: 'Claude on my laptop' });
    expect(await row.textContent()).toContain('never');
    await page.screenshot({ path: `${REPORTS}developers-settings.png`, fullPage: true });
    await row.getByRole('link', { name: 'Revoke…' }).click();
    expect(await page.locator('h1').textContent()).toBe('Revoke a connection');
    await page.screenshot({ path: `${REPORTS}developers-revoke-confirm.png`, fullPage: true });
    await page.getByRole('button', { name: 'Revoke', exact: true }).click();
    expect(await page.locator('tr', { hasText: 'Claude on my laptop' }).textContent()).toContain('Revoked');
    await context.close();
  }, 90_000);
});
