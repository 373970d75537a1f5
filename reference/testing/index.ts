// Test mode: the composition reference/main.ts adds only when a fixtures secret is given (and the reference's
// own tests through reference/test/harness.ts). It mounts the fixtures protocol (conformance/docs/fixtures-protocol.md) and
// installs what the protocol arms through the seams production has anyway (services.ts, the store's commit
// hooks); production code knows nothing of it.
import type { Composition } from '../app.js';
import type { DecisionLimits } from '../catalogue.js';
import { fixturesRouter, type TestSeams } from './fixtures.js';
import { TestClock } from './clock.js';
import { systemClock } from '../infra/clock.js';
import type { HandlerTable, ToolContext } from '../tools/types.js';
import { AsyncLocalStorage } from 'node:async_hooks';
import { CaptureUnavailableError } from '../infra/capture.js';

/** `decisionLimits`: other values for the limits that are our decisions (--decision-limits: correct variants). */
export function testMode(secret: string, { decisionLimits }: { decisionLimits?: DecisionLimits } = {}): Composition {
  // The net and clock are replaced by decorations of the composed ones when the services are composed, before
  // the router or a commit can use them.
  const seams: TestSeams = {
    faults: { failNextWrite: new Set(), invalidNextAnswer: new Set(), failNextImage: new Set(), noCaptureNextMigration: new Set() },
    net: { allowOrigins: [] },
    clock: new TestClock(systemClock),
  };
  const { faults } = seams;
  // no-capture-next-migration: the migration call the fault was armed for runs inside this context, in which the
  // capture engine answers as a server without a browser does; every other call (and the capture queue) is unaffected.
  const withoutCapture = new AsyncLocalStorage<true>();
  return {
    services: (services) => {
      // fetch-allowlist: this copy of the composed network is the one whose allowOrigins the protocol sets.
      seams.net = { ...services.net, allowOrigins: [] };
      // clock: each workspace's time, moved on by the protocol's clock route.
      seams.clock = new TestClock(services.clock);
      return {
        ...services,
        limits: { ...services.limits, ...decisionLimits },
        clock: seams.clock,
        net: seams.net,
        capture: services.capture && {
          available: () => (withoutCapture.getStore() ? Promise.resolve(false) : services.capture!.available()),
          capture: (url, net, request) => (withoutCapture.getStore() ? Promise.reject(new CaptureUnavailableError('no browser (fixtures: no-capture-next-migration)')) : services.capture!.capture(url, net, request)),
          close: () => services.capture!.close(),
        },
        // fail-next-image: the provider fails the workspace's next image, as an outage would (§4.3: credits are
        // charged only after delivery; rule generate-image-charged-after-delivery).
        images: {
          render: (request) =>
            faults.failNextImage.delete(request.workspaceId)
              ? Promise.reject(new Error('the image provider delivered nothing (fixtures: fail-next-image)'))
              : services.images.render(request),
        },
      };
    },
    // invalid-next-answer: the workspace's next tool call whose work succeeds answers outside its tool's output
    // schema, as a server bug would (§7.3; rule tool-answer-checked-before-commit: the call keeps nothing).
    handlers: (handlers) =>
      Object.fromEntries(
        Object.entries(handlers).map(([name, handler]) => [
          name,
          async (ctx: ToolContext) => {
            const run = () => (handler as (ctx: ToolContext) => unknown)(ctx);
            const answer: unknown = await (name === 'migrate_site_from_url' && faults.noCaptureNextMigration.delete(ctx.ws.id) ? withoutCapture.run(true, run) : run());
            return faults.invalidNextAnswer.delete(ctx.ws.id) ? 'an answer outside the output schema (fixtures: invalid-next-answer)' : answer;
          },
        ]),
      ) as unknown as HandlerTable,
    // fail-next-write: the workspace's next commit fails like a failed disk write (§7.3: the operation rolls back whole).
    storeHooks: {
      beforeCommit: (workspaceId, creates) => {
        // A company a confirmation creates starts at its anchor workspace's time.
        for (const id of creates) seams.clock.inherit(id, workspaceId);
        if (faults.failNextWrite.delete(workspaceId)) throw new Error('the write failed (fixtures: fail-next-write)');
      },
    },
    router: (ports) => fixturesRouter(ports, secret, seams),
  };
}
