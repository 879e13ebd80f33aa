import semver from 'semver';

// "A newer release than the one a group was resolved in" (docs/alerts.md, "Regressions"):
// when both versions are semantic versions (a leading "v" allowed), by semver; otherwise
// by when devtrail first saw each release. A release not seen yet has nothing newer than it.

export function isNewerRelease(candidate: string, than: string, firstSeen: Map<string, number>): boolean {
  if (candidate === '' || candidate === than) return false;
  const a = semver.parse(candidate, { loose: true });
  const b = semver.parse(than, { loose: true });
  if (a && b) return semver.gt(a, b);
  const seenCandidate = firstSeen.get(candidate);
  const seenThan = firstSeen.get(than);
  if (seenThan === undefined || seenCandidate === undefined) return false;
  return seenCandidate > seenThan;
}
