// The fixtures protocol's optional part passwords-on-demand (conformance/docs/fixtures-protocol.md): a world asked for with
// passwordsOnDemand answers no passwords and hashes none, and POST /users/{userId}/password gives one user a
// password the app's sign-in accepts. A user without one cannot sign in, and is checked against the dummy hash
// like an unknown email (rule sign-in-unknown-email-same-cost), so having no password shows in no answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixturesError } from '../../conformance/lib/fixtures-client.js';
import { postFrom, startTestServer, type TestServer } from './harness.js';

let test: TestServer;

beforeAll(async () => {
  test = await startTestServer('fixtures-passwords');
});

afterAll(async () => {
  await test?.stop();
});

/** POST /app/sign-in, each from its own loopback address so no throttle is reached. */
let nextAddress = 20;
const signIn = (email: string, password: string) =>
  postFrom(test.url, '/app/sign-in', `127.0.1.${nextAddress++}`, 'application/x-www-form-urlencoded', new URLSearchParams({ email, password, next: '/app/' }).toString());

describe('fixtures: passwords on demand', () => {
  it('the handshake lists the part; a world asked for with passwordsOnDemand answers no password', async () => {
    expect((await test.fx.handshake()).supports).toContain('passwords-on-demand');
    const world = await test.fx.world({ passwordsOnDemand: true, users: [{ key: 'olive' }, { key: 'pat' }] });
    expect(Object.values(world.users).map((u) => u!.password)).toEqual([undefined, undefined]);
  });

  it('a user without a password cannot sign in until given one; then that password signs in', async () => {
    const world = await test.fx.world({ passwordsOnDemand: true, users: [{ key: 'olive' }] });
    const olive = world.users.olive!;
    expect((await signIn(olive.email, '')).status).toBe(401);
    expect((await signIn(olive.email, 'anything')).status).toBe(401);
    const { password } = await test.fx.userPassword(olive.userId);
    expect(password.length).toBeGreaterThan(0);
    expect((await signIn(olive.email, password)).status).toBe(302);
    expect((await signIn(olive.email, `${password}x`)).status).toBe(401);
  });

  it('a new password replaces the one the world answered', async () => {
    const world = await test.fx.world({ users: [{ key: 'olive' }] });
    const olive = world.users.olive;
    expect(olive).toBeDefined();
    const { password } = await test.fx.userPassword(olive!.userId);
    expect(password).not.toBe(olive!.password);
    expect((await signIn(olive!.email, olive!.password)).status).toBe(401);
    expect((await signIn(olive!.email, password)).status).toBe(302);
  });

  it('an unknown user is not found', async () => {
    const refused = await test.fx.userPassword('user_nobody').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(FixturesError);
    expect((refused as FixturesError).status).toBe(404);
  });

  it('without passwordsOnDemand every user still gets a password', async () => {
    const world = await test.fx.world({ users: [{ key: 'olive' }, { key: 'pat' }, { key: 'quinn' }] });
    for (const user of Object.values(world.users)) expect((await signIn(user.email, user.password)).status).toBe(302);
  });
});
