import type { FastifyRequest } from 'fastify';
import type { Actor, UsersRepo } from '@devtrail/relational-store';

// Who made a change, for the records that keep it (a group's triage history).
export async function actorOf(request: FastifyRequest, users: UsersRepo): Promise<Actor> {
  const p = request.principal!;
  if (p.kind === 'user' && p.userId) {
    const user = (await users.list()).find((u) => u.id === p.userId);
    return { kind: 'user', id: p.userId, name: user?.username ?? p.userId };
  }
  return { kind: 'operator', id: null, name: 'operator token' };
}
