/**
 * CPU milliseconds this process spends in `work` (user and system): what a complexity guard
 * measures, unlike wall time, which a machine busy with other work lengthens at random.
 */
export function cpuMs(work: () => void): number {
  const before = process.cpuUsage();
  work();
  const spent = process.cpuUsage(before);
  return (spent.user + spent.system) / 1000;
}
