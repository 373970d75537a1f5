// What the benchmarks read of a process from /proc (Linux): its CPU time so far, user and system apart.
import { readdirSync, readFileSync } from 'node:fs';

/** The fields of /proc/<pid>/stat after the command name (which may hold spaces): state is [0], ppid [1], utime [11]. */
function statFields(pid: number | string): string[] {
  return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
}

/**
 * CPU seconds a process has used so far (utime and stime of /proc/<pid>/stat, in clock ticks of 1/100 s), and those
 * of its children that have exited and been waited for (cutime + cstime).
 */
export function processCpu(pid: number | 'self'): { user: number; system: number; children: number } {
  return cpuOf(statFields(pid));
}

function cpuOf(fields: string[]): { user: number; system: number; children: number } {
  return { user: Number(fields[11]) / 100, system: Number(fields[12]) / 100, children: (Number(fields[13]) + Number(fields[14])) / 100 };
}

/**
 * CPU seconds (user + system) of every process below `pid` (a reference's Chromium for visual capture), living
 * ones from /proc and exited ones as their parents' cutime and cstime: what the server's own figure leaves out.
 */
export function descendantsCpuSeconds(pid: number): number {
  const stats = new Map<number, { ppid: number; cpu: number; children: number }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const fields = statFields(entry);
      const { user, system, children } = cpuOf(fields);
      stats.set(Number(entry), { ppid: Number(fields[1]), cpu: user + system, children });
    } catch {
      // the process ended while listed
    }
  }
  let total = stats.get(pid)?.children ?? 0;
  const below = [pid];
  for (let i = 0; i < below.length; i++) {
    for (const [child, stat] of stats) {
      if (stat.ppid !== below[i]) continue;
      below.push(child);
      total += stat.cpu + stat.children;
    }
  }
  return total;
}
