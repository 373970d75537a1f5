// The owner's side in a real browser (Debian's Chromium driven by playwright-core): an agent prepares a publish
// plan, the owner opens the approval link, signs in, sees the review card and approves; the agent's confirm then
// publishes, and the live page shows the reviewed text. Screenshots land in reports/ for a person to look at.
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type Target } from '../../conformance/lib/target.js';
import { FixturesClient, type WorldResponse } from '../../conformance/lib/fixtures-client.js';
import { McpConnection } from '../../conformance/lib/mcp-client.js';

const CHROMIUM = process.env.SITE_MCP_CHROMIUM ?? '/usr/bin/chromium';
const reports = fileURLToPath(new URL('../../reports/', import.meta.url));
let target: Target;
let browser: Browser;
let world: WorldResponse;
let mcp: McpConnection;

beforeAll(async () => {
  target = await startReferenceServer();
  world = await new FixturesClient(target.url, target.fixturesSecret).world({ users: [{ key: 'olive' }], sites: [{ key: 'main', members: { olive: 'owner' } }] });
  const fx = new FixturesClient(target.url, target.fixturesSecret);
  const { token } = await fx.connection({ userId: world.users.olive!.userId, websiteId: world.sites.main!.websiteId, scopes: ['content:write', 'publish'] });
  mcp = new McpConnection(target.url, token);
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  await mkdir(reports, { recursive: true });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await mcp?.close();
  await target?.stop();
});

describe('approval in the browser', () => {
  it('rule:plan-approval-signed-in-owner rule:publish-makes-draft-live — the owner signs in, reviews and approves; the confirm publishes', async () => {
    const hero = world.sites.main!.pages.home!.sections.hero!;
    expect((await mcp.callTool('update_section_text', { sectionId: hero, field: 'heading', text: 'Fresh sourdough every morning' })).envelope.ok).toBe(true);
    const card = (await mcp.callTool('prepare_publish', {})).envelope.data as { planId: string; approvalUrl: string };
    const page = await browser.newPage();
    await page.goto(card.approvalUrl);
    expect(await page.locator('h1').textContent()).toBe('Sign in');
    await page.fill('input[name=email]', world.users.olive!.email);
    await page.fill('input[name=password]', world.users.olive!.password);
    await page.click('button[type=submit]');
    await page.waitForURL(card.approvalUrl);
    expect(await page.locator('h1').textContent()).toBe('Review a plan');
    expect(await page.textContent('body')).toContain('revision 2');
    await page.screenshot({ path: `${reports}approval-card.png`, fullPage: true });
    await page.click('button[value=approve]');
    expect(await page.locator('h1').textContent()).toBe('Plan approved');
    const confirmed = await mcp.callTool('confirm_pending_action', { planId: card.planId });
    expect(confirmed.envelope.ok, JSON.stringify(confirmed.envelope.error)).toBe(true);
    await page.goto(`${target.url}/sites/${world.sites.main!.websiteId}/`);
    expect(await page.textContent('body')).toContain('Fresh sourdough every morning');
    await page.screenshot({ path: `${reports}published-site.png`, fullPage: true });
  }, 60_000);
});
