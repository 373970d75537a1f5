// Debian's Chromium through playwright-core for the tests of pages a person sees (no browser download), and the
// reports/ folder their screenshots land in for a person to look at.
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { defaultChromium } from '../services.js';

export const REPORTS = fileURLToPath(new URL('../../reports/', import.meta.url));

/** The tests' Chromium: SITE_MCP_CHROMIUM, else the server's default (Debian's chromium-headless-shell, else its chromium). */
export const TEST_CHROMIUM = process.env.SITE_MCP_CHROMIUM ?? defaultChromium() ?? '/usr/bin/chromium';

/** Launches headless TEST_CHROMIUM and makes sure reports/ exists. */
export async function launchChromium(): Promise<Browser> {
  await mkdir(REPORTS, { recursive: true });
  return chromium.launch({
    executablePath: TEST_CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}
