// The app's sign-in, reached as a browser reaches it: /dashboard/connect (§4.1 names it) redirects a signed-out
// person to a sign-in form, which takes the email and password the fixtures protocol gives every world user.
// Attempts are posted from chosen loopback addresses (127.0.0.0/8 is all loopback on Linux) so that per-address
// counts are observed without locking the kit out (rules sign-in-throttled-per-account,
// sign-in-throttled-per-address, sign-in-known-address-admitted, sign-in-unknown-email-same-cost, session-cookie-secure-over-https; all our
// decisions, checked for a target that adopts them).
import assert from 'node:assert/strict';
import { Then, When } from '@cucumber/cucumber';
import { loadJson } from '../../spec/index.js';
import type { SiteWorld } from '../support/world.js';
import { Browser, formsOf, type HtmlForm } from '../support/browser.js';
import { kitChoosesAddress, randomLoopback } from '../support/client-address.js';
import { postFromAddress } from '../../conformance/lib/local-address.js';

const SIGN_IN = loadJson<{ signIn: { perAccount: { limit: number; windowSeconds: number }; perAddress: { limit: number; windowSeconds: number } } }>('limits.json').signIn;

interface Attempt { status: number; retryAfter?: string; setCookies: string[]; ms: number }

/** The sign-in form /dashboard/connect leads a signed-out browser to, with its email and password fields. */
async function signInForm(world: SiteWorld): Promise<{ form: HtmlForm; email: string; password: string }> {
  const cached = world.remembered.get('sign-in-form') as { form: HtmlForm; email: string; password: string } | undefined;
  if (cached) return cached;
  const page = await new Browser(world.url).open('/dashboard/connect');
  const form = formsOf(page.html, page.url).find((f) => f.inputs.some((i) => i.type === 'password'));
  assert.ok(form, `/dashboard/connect led a signed-out browser to ${page.url} (HTTP ${page.status}), which has no sign-in form: ${page.html.slice(0, 300)}`);
  const email = (form.inputs.find((i) => i.type === 'email') ?? form.inputs.find((i) => /mail|user|login/i.test(i.name)))?.name;
  const password = form.inputs.find((i) => i.type === 'password')!.name;
  assert.ok(email, `the sign-in form at ${page.url} has no email field`);
  const found = { form, email, password };
  world.remembered.set('sign-in-form', found);
  return found;
}

/** A random address of 127.0.0.0/8 when the kit can choose one; undefined (the kit's own address) otherwise. */
const freshAddress = async (world: SiteWorld): Promise<string | undefined> => ((await kitChoosesAddress(world)) ? randomLoopback() : undefined);

/** Posts the sign-in form as a browser would (its hidden fields too), from `from` when given. */
async function attempt(world: SiteWorld, from: string | undefined, email: string, password: string): Promise<Attempt> {
  const { form, email: emailField, password: passwordField } = await signInForm(world);
  const body = new URLSearchParams();
  for (const input of form.inputs) if (input.name && !['submit', 'button', 'checkbox', 'radio'].includes(input.type)) body.append(input.name, input.name === emailField ? email : input.name === passwordField ? password : input.value);
  const started = performance.now();
  const res = await postFromAddress(form.action, from, { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(form.action).origin }, body.toString(), 15_000);
  return { status: res.status, retryAfter: res.headers.get('retry-after') ?? undefined, setCookies: res.headers.getSetCookie(), ms: performance.now() - started };
}

/** Steps that choose addresses need kitChoosesAddress; elsewhere their rule is reported as not checked. */
async function needChosenAddress(world: SiteWorld, what: string): Promise<boolean> {
  if (await kitChoosesAddress(world)) return true;
  world.notChecked(`${what} (the target is not an IPv4 loopback address, so the kit has one client address)`);
  return false;
}

const signedIn = (a: Attempt) => a.status < 400 && a.setCookies.length > 0;
const unknownEmail = () => `nobody-${Math.random().toString(36).slice(2, 10)}@example.test`;

function assertThrottled(a: Attempt, windowSeconds: number, what: string) {
  assert.equal(a.status, 429, `${what} answered HTTP ${a.status}`);
  assert.ok(Number(a.retryAfter) > 0 && Number(a.retryAfter) <= windowSeconds, `${what}: Retry-After ${a.retryAfter}`);
  assert.equal(a.setCookies.length, 0, `${what} set a cookie although refused`);
}

// ── session cookie (rule session-cookie-secure-over-https) ─────────────────────────────────────────────────────

When('{string} signs in to the app', async function (this: SiteWorld, user: string) {
  const { email, password } = await this.signInUser(user);
  const answer = await attempt(this, await freshAddress(this), email, password);
  assert.ok(signedIn(answer), `signing in as ${email} answered HTTP ${answer.status} with no cookie`);
  this.remembered.set('sign-in', answer);
});

Then('the session cookie is HttpOnly and SameSite=Strict, and Secure when the target is reached over https', function (this: SiteWorld) {
  const { setCookies } = this.remembered.get('sign-in') as Attempt;
  const https = new URL(this.url).protocol === 'https:';
  for (const line of setCookies) {
    const attributes = line.split(';').slice(1).map((a) => a.trim().toLowerCase());
    assert.ok(attributes.includes('httponly'), `not HttpOnly: ${line}`);
    assert.ok(attributes.includes('samesite=strict'), `not SameSite=Strict: ${line}`);
    if (https) assert.ok(attributes.includes('secure'), `not Secure over https: ${line}`);
  }
});

// ── per account (rule sign-in-throttled-per-account) ───────────────────────────────────────────────────────────

When('someone fails to sign in as {string} as often as the account limit allows, each time from another address', async function (this: SiteWorld, user: string) {
  if (!(await needChosenAddress(this, 'sign-in per account'))) return;
  const { email } = await this.signInUser(user);
  for (let i = 0; i < SIGN_IN.perAccount.limit; i++) {
    const answer = await attempt(this, await freshAddress(this), email, `wrong-${i}`);
    assert.ok(answer.status >= 400 && answer.status !== 429 && !signedIn(answer), `failed sign-in ${i + 1} of ${SIGN_IN.perAccount.limit} answered HTTP ${answer.status}`);
  }
  this.remembered.set('throttled-account', user);
});

When('{int} wrong passwords for {string} arrive at once, each from another address', async function (this: SiteWorld, count: number, user: string) {
  if (!(await needChosenAddress(this, 'sign-in per account'))) return;
  const { email } = await this.signInUser(user);
  const answers = await Promise.all(Array.from({ length: count }, async (_, i) => attempt(this, await freshAddress(this), email, `wrong-${i}`)));
  // Each attempt the count let through checked a password; past the limit none may have been.
  const checked = answers.filter((a) => a.status !== 429).length;
  assert.ok(checked <= SIGN_IN.perAccount.limit, `${checked} of ${count} concurrent wrong passwords were checked; the account limit is ${SIGN_IN.perAccount.limit}`);
  assert.ok(answers.every((a) => !signedIn(a)), 'a wrong password signed in');
  this.remembered.set('throttled-account', user);
});

Then('signing in as {string} with the right password from another address answers 429 with Retry-After', async function (this: SiteWorld, user: string) {
  if (!this.remembered.has('throttled-account') && !this.remembered.has('throttled-address')) return;
  const { email, password } = await this.signInUser(user);
  assertThrottled(await attempt(this, await freshAddress(this), email, password), SIGN_IN.perAccount.windowSeconds, `the right password for ${email} past the account limit`);
});

// ── a known address (rule sign-in-known-address-admitted) ──────────────────────────────────────────────────────

When('{string} signs in to the app from an address of their own', async function (this: SiteWorld, user: string) {
  if (!(await needChosenAddress(this, 'sign-in from a known address'))) return;
  const { email, password } = await this.signInUser(user);
  const from = (await freshAddress(this))!;
  const answer = await attempt(this, from, email, password);
  assert.ok(signedIn(answer), `signing in as ${email} from ${from} answered HTTP ${answer.status} with no cookie`);
  this.remembered.set('own-address', from);
});

Then('signing in as {string} with the right password from their own address succeeds', async function (this: SiteWorld, user: string) {
  const from = this.remembered.get('own-address') as string | undefined;
  if (!from) return;
  const { email, password } = await this.signInUser(user);
  const answer = await attempt(this, from, email, password);
  assert.ok(signedIn(answer), `signing in as ${email} from ${from}, where they signed in before, answered HTTP ${answer.status} while failures from elsewhere locked the account`);
});

// ── per address (rule sign-in-throttled-per-address) ───────────────────────────────────────────────────────────

When('one address fails to sign in as often as the address limit allows, each time as another unknown email', async function (this: SiteWorld) {
  if (!(await needChosenAddress(this, 'sign-in per address'))) return;
  const from = (await freshAddress(this))!;
  for (let i = 0; i < SIGN_IN.perAddress.limit; i++) {
    const answer = await attempt(this, from, unknownEmail(), 'wrong');
    assert.ok(answer.status >= 400 && answer.status !== 429, `failed sign-in ${i + 1} of ${SIGN_IN.perAddress.limit} from ${from} answered HTTP ${answer.status}`);
  }
  this.remembered.set('throttled-address', from);
});

Then('signing in as {string} with the right password from that address answers 429 with Retry-After', async function (this: SiteWorld, user: string) {
  const from = this.remembered.get('throttled-address') as string | undefined;
  if (!from) return;
  const { email, password } = await this.signInUser(user);
  assertThrottled(await attempt(this, from, email, password), SIGN_IN.perAddress.windowSeconds, `the right password for ${email} from ${from} past the address limit`);
});

Then('signing in as {string} with the right password from another address succeeds', async function (this: SiteWorld, user: string) {
  if (!this.remembered.has('throttled-address')) return;
  const { email, password } = await this.signInUser(user);
  const answer = await attempt(this, await freshAddress(this), email, password);
  assert.ok(signedIn(answer), `signing in as ${email} from another address answered HTTP ${answer.status}`);
});

// ── the same cost for an unknown email (rule sign-in-unknown-email-same-cost) ─────────────────────────────────

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

// Interleaved samples from fresh addresses (fewer than the account limit for the known email; as many again for
// unknown ones, which no account counts), compared as a ratio of medians. The factor is generous: a server that
// skips the password hash for an unknown email answers it tens of times faster (a hash costs ~50 ms, a lookup
// ~1 ms), while a busy machine that slows a few samples of one side moves the medians by a few times at most.
const SAME_COST_FACTOR = 8;
Then('wrong passwords for {string} and for unknown emails take about the same time', async function (this: SiteWorld, user: string) {
  if (!(await needChosenAddress(this, 'sign-in timing'))) return;
  const { email } = await this.signInUser(user);
  const known: number[] = [];
  const unknown: number[] = [];
  const samples = Math.min(4, SIGN_IN.perAccount.limit - 1);
  await attempt(this, await freshAddress(this), unknownEmail(), 'warm-up');
  for (let i = 0; i < samples; i++) {
    unknown.push((await attempt(this, await freshAddress(this), unknownEmail(), `wrong-${i}a`)).ms);
    known.push((await attempt(this, await freshAddress(this), email, `wrong-${i}`)).ms);
    unknown.push((await attempt(this, await freshAddress(this), unknownEmail(), `wrong-${i}b`)).ms);
  }
  const [k, u] = [median(known), median(unknown)];
  assert.ok(u >= k / SAME_COST_FACTOR && k >= u / SAME_COST_FACTOR, `median answer time for a known email ${k.toFixed(1)} ms, for unknown emails ${u.toFixed(1)} ms (more than ${SAME_COST_FACTOR} times apart)`);
});
