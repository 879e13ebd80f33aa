import type { FastifyInstance } from 'fastify';
import { httpError } from '@devtrail/http';
import type { UsersRepo } from '@devtrail/relational-store';
import { memberBody, memberParams, newUserBody, userParams, userPatchBody } from './auth-schemas.ts';
import { userJson, type AuthGuards } from './auth-guards.ts';
import { hashPassword } from './password.ts';
import { userPrincipal } from './session-authenticator.ts';

// The owner's /auth routes: the accounts of this devtrail (add one as a member or a
// read-only viewer; change its role; disable it, which ends its sessions at once) and who
// belongs to which project. Any signed-in user may list the members of a project they see.

export function registerUserRoutes(auth: FastifyInstance, users: UsersRepo, { signedIn, session }: AuthGuards): void {
  auth.get('/auth/users', { onRequest: signedIn(true) }, async () => {
    return { users: (await users.list()).map(userJson) };
  });

  auth.post('/auth/users', { onRequest: signedIn(true) }, async (request, reply) => {
    const body = newUserBody.parse(request.body);
    const user = await users.create(body.username, await hashPassword(body.password), body.role);
    if (!user) throw httpError(409, 'That username is taken');
    return reply.code(201).send({ user: userJson(user) });
  });

  auth.patch('/auth/users/:id', { onRequest: signedIn(true) }, async (request) => {
    const { id } = userParams.parse(request.params);
    const body = userPatchBody.parse(request.body);
    const target = await users.get(id);
    if (!target) throw httpError(404, 'No such user');
    if (target.isOwner) throw httpError(409, 'The owner cannot be disabled or given another role');
    let user = target;
    if (body.role !== undefined) user = (await users.setRole(id, body.role)) ?? user;
    if (body.disabled !== undefined) user = (await users.setDisabled(id, body.disabled)) ?? user;
    return { user: userJson(user) };
  });

  auth.get('/auth/projects/:id/members', { onRequest: signedIn() }, async (request) => {
    const { id } = memberParams.parse(request.params);
    if (!(await userPrincipal(users, session(request).user).canAccess(id))) throw httpError(404, 'Project not found');
    return { members: (await users.membersOf(id)).map(userJson) };
  });

  auth.post('/auth/projects/:id/members', { onRequest: signedIn(true) }, async (request, reply) => {
    const { id } = memberParams.parse(request.params);
    const { username } = memberBody.parse(request.body);
    const user = await users.findByUsername(username);
    if (!user) throw httpError(404, 'No such user');
    if (!(await users.addMember(id, user.id))) throw httpError(404, 'Project not found');
    return reply.code(201).send({ members: (await users.membersOf(id)).map(userJson) });
  });

  auth.delete('/auth/projects/:id/members/:userId', { onRequest: signedIn(true) }, async (request) => {
    const { id, userId } = memberParams.parse(request.params);
    await users.removeMember(id, userId!);
    return { members: (await users.membersOf(id)).map(userJson) };
  });
}
