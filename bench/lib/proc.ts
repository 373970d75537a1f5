// What the benchmarks read of a process from /proc (Linux): its CPU time so far, user and system apart.
import { readFileSync } from 'node:fs';

/** CPU seconds a process has used so far (utime and stime of /proc/<pid>/stat, in clock ticks of 1/100 s). */
export function processCpu(pid: number | 'self'): { user: number; system: number } {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return { user: Number(fields[11]) / 100, system: Number(fields[12]) / 100 };
}
