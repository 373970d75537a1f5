// Time as each workspace sees it: plan expiry, rate-limit windows, activity retention and pairing approval all
// ask the clock for the workspace they concern. The clock is a service (services.ts), so a composition can give
// each workspace its own time; production's is the system clock for every workspace.
export interface Clock {
  now(workspaceId: string): Date;
}

export const systemClock: Clock = { now: () => new Date() };
