import {
  type Envelope,
  ERRORS,
  type RouteBody,
  type RouteData,
  type RouteDescriptor,
  workflowRoutes as r,
  teamRoutes,
  type WorkflowGraph,
} from '@athena/contract';
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthContext } from '../../platform/auth-guard.ts';
import type { Db } from '../../platform/db/database.ts';
import { buildTeam, type TeamFixture } from '../../testing/fixtures.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { createAuditRepo } from '../team/index.ts';
import { createWorkflowGroupService } from './group.service.ts';
import { createWorkflowService } from './workflow.service.ts';

const code = (key: keyof typeof ERRORS) => ERRORS[key].code;

/** start → answer: publishable without a model key. */
const answerGraph = (text: string) =>
  ({
    nodes: [
      { id: 'start', type: 'start', data: { inputs: [] } },
      { id: 'answer', type: 'answer', data: { text } },
    ],
    edges: [{ id: 'e', source: 'start', target: 'answer' }],
  }) as unknown as WorkflowGraph;

describe('workflow lock, effective and who may do what', () => {
  let t: TestApp;
  let team: TeamFixture;

  async function call<R extends RouteDescriptor>(route: R, body: RouteBody<R>, token: string, space?: string) {
    const res = await t.call(route.path, body, team.as(token, space));
    return res.body as Envelope<RouteData<R>>;
  }
  async function ok<R extends RouteDescriptor>(route: R, body: RouteBody<R>, token: string) {
    const answer = await call(route, body, token);
    expect(answer.code, `${route.path}: ${answer.msg}`).toBe(0);
    return answer.data;
  }

  /** A published workflow of `owner`'s, with one version and a draft at revision 1. */
  async function publishedOf(owner: string, name: string) {
    const w = await ok(r.create, { name }, owner);
    await ok(r.draftSave, { id: w.id, graph: answerGraph('hello'), base_revision: 0 }, owner);
    const version = await ok(r.publish, { id: w.id, note: 'v1' }, owner);
    return { id: w.id, version: version.id };
  }

  /** Every change the lock refuses, as `token`, with the code each answered. */
  async function changes(token: string, w: { id: string; version: string }) {
    const revision = async () => (await ok(r.detail, { id: w.id }, token)).draft_revision;
    const graph = answerGraph('edited');
    return {
      update: (await call(r.update, { id: w.id, name: 'Renamed' }, token)).code,
      draftSave: (await call(r.draftSave, { id: w.id, graph, base_revision: await revision() }, token)).code,
      publish: (await call(r.publish, { id: w.id, note: '' }, token)).code,
      effectiveSet: (await call(r.effectiveSet, { id: w.id, effective: false }, token)).code,
      versionRestore: (await call(r.versionRestore, { id: w.version, base_revision: await revision() }, token)).code,
    };
  }

  beforeAll(async () => {
    t = await createTestApp();
    team = await buildTeam(t, { phonePrefix: '138200000' });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('lets the workflow’s creator and team admins lock it; another member is refused', async () => {
    const mine = await publishedOf(team.member, 'Member’s');
    const theirs = await publishedOf(team.creator, 'Creator’s');
    expect((await ok(r.detail, { id: theirs.id }, team.member)).can_lock).toBe(false);
    expect((await call(r.lock, { id: theirs.id, locked: true }, team.member)).code).toBe(
      code('WORKFLOW_LOCK_FORBIDDEN'),
    );

    const locked = await ok(r.lock, { id: mine.id, locked: true }, team.member);
    expect(locked).toMatchObject({ locked: true, locked_by: { id: team.ids.member }, can_lock: true });
    expect(locked.locked_at).not.toBeNull();
    expect((await ok(r.list, { locked: true }, team.admin)).items.map((w) => w.id)).toEqual([mine.id]);
    expect((await ok(r.lock, { id: mine.id, locked: false }, team.admin)).locked).toBe(false);
    expect((await ok(r.lock, { id: theirs.id, locked: true }, team.admin)).locked_by?.id).toBe(team.ids.admin);
    expect((await ok(r.lock, { id: theirs.id, locked: false }, team.creator)).locked_by).toBeNull();
  });

  it('refuses every change while locked, to everyone, admins included, and allows them after unlocking', async () => {
    const w = await publishedOf(team.member, 'Locked');
    await ok(r.lock, { id: w.id, locked: true }, team.admin);
    const LOCKED = code('WORKFLOW_LOCKED');
    for (const token of [team.member, team.admin, team.creator]) {
      expect(await changes(token, w)).toEqual({
        update: LOCKED,
        draftSave: LOCKED,
        publish: LOCKED,
        effectiveSet: LOCKED,
        versionRestore: LOCKED,
      });
      expect((await call(r.delete, { id: w.id }, token)).code).toBe(LOCKED);
    }
    const message = await t.call(r.delete.path, { id: w.id }, { ...team.as(team.creator), language: 'en' });
    expect(message.body.msg).toBe(ERRORS.WORKFLOW_LOCKED.msg.en);

    // Reading, exporting, copying and saving as a template stay allowed.
    expect((await ok(r.detail, { id: w.id }, team.member)).locked).toBe(true);
    await ok(r.export, { id: w.id }, team.member);
    const copy = await ok(r.duplicate, { id: w.id }, team.admin);
    expect(copy).toMatchObject({ locked: false, effective: false, published_version: null, name: 'Locked (copy)' });
    await ok(r.templateSave, { workflow_id: w.id, name: 'From locked' }, team.member);
    expect((await ok(r.detail, { id: w.id }, team.member)).draft.nodes[1]).toMatchObject({ data: { text: 'hello' } });

    await ok(r.lock, { id: w.id, locked: false }, team.member);
    expect(await changes(team.member, w)).toEqual({
      update: 0,
      draftSave: 0,
      publish: 0,
      effectiveSet: 0,
      versionRestore: 0,
    });
    await ok(r.delete, { id: w.id }, team.member);
  });

  it('answers each action by role: stranger, member on another’s workflow, admin', async () => {
    const NOT_FOUND = code('WORKFLOW_NOT_FOUND');
    const FORBIDDEN = code('FORBIDDEN');
    const stranger = async <R extends RouteDescriptor>(route: R, body: RouteBody<R>) =>
      (await call(route, body, team.stranger, team.strangerTeamId)).code;

    const w = await publishedOf(team.creator, 'Matrix');
    const group = await ok(r.groupCreate, { name: 'Creator’s group' }, team.creator);
    for (const [route, body] of [
      [r.detail, { id: w.id }],
      [r.update, { id: w.id, name: 'x' }],
      [r.delete, { id: w.id }],
      [r.draftSave, { id: w.id, graph: answerGraph('x'), base_revision: 1 }],
      [r.publish, { id: w.id }],
      [r.effectiveSet, { id: w.id, effective: false }],
      [r.lock, { id: w.id, locked: true }],
      [r.versionList, { workflow_id: w.id }],
      [r.versionDetail, { id: w.version }],
      [r.versionRestore, { id: w.version, base_revision: 1 }],
      [r.duplicate, { id: w.id }],
      [r.export, { id: w.id }],
      [r.templateSave, { workflow_id: w.id, name: 'x' }],
    ] as const) {
      expect(await stranger(route as RouteDescriptor, body), route.path).toBe(NOT_FOUND);
    }
    expect(await stranger(r.groupRename, { id: group.id, name: 'x' })).toBe(code('WORKFLOW_GROUP_NOT_FOUND'));
    expect(await stranger(r.create, { name: 'x', group_id: group.id })).toBe(code('WORKFLOW_GROUP_NOT_FOUND'));
    // A filter by another team's group simply matches nothing of the stranger's.
    expect((await call(r.list, { group_id: group.id }, team.stranger, team.strangerTeamId)).data.items).toEqual([]);

    // A member reads, runs, copies and exports anyone's workflow, but changes only their own.
    expect((await ok(r.detail, { id: w.id }, team.member)).can_edit).toBe(false);
    expect(await changes(team.member, w)).toEqual({
      update: FORBIDDEN,
      draftSave: FORBIDDEN,
      publish: FORBIDDEN,
      effectiveSet: FORBIDDEN,
      versionRestore: FORBIDDEN,
    });
    expect((await call(r.delete, { id: w.id }, team.member)).code).toBe(FORBIDDEN);
    expect((await call(r.groupRename, { id: group.id, name: 'x' }, team.member)).code).toBe(FORBIDDEN);
    expect((await call(r.groupDelete, { id: group.id }, team.member)).code).toBe(FORBIDDEN);
    await ok(r.duplicate, { id: w.id }, team.member);
    await ok(r.export, { id: w.id }, team.member);

    // An admin may do everything to anyone's workflow.
    expect((await ok(r.detail, { id: w.id }, team.admin)).can_edit).toBe(true);
    expect(await changes(team.admin, w)).toEqual({
      update: 0,
      draftSave: 0,
      publish: 0,
      effectiveSet: 0,
      versionRestore: 0,
    });
    await ok(r.groupRename, { id: group.id, name: 'Renamed by admin' }, team.admin);
    await ok(r.delete, { id: w.id }, team.admin);
    await ok(r.groupDelete, { id: group.id }, team.admin);
  });

  it('does not write a rename, delete or effective switch when the workflow was locked after the check', async () => {
    const w = await publishedOf(team.member, 'Racing');
    const { repo } = t.app.modules.workflow.workflows;
    const setLock = (locked: boolean) => repo.update(w.id, { locked });

    // The writes themselves: on a locked row they change nothing and say so.
    await setLock(true);
    expect(await repo.updateUnlocked(w.id, { name: 'Sneaked in', effective: false })).toBe(false);
    expect(await repo.removeUnlocked(w.id)).toBe(false);
    await setLock(false);
    expect((await ok(r.detail, { id: w.id }, team.member)).name).toBe('Racing');

    // The service, with an admin's lock landing between its lock check and its write: the
    // group check (rename) and the transaction (delete, effective) come after the check.
    const db = t.database.db;
    const realGroups = createWorkflowGroupService({ db });
    const lockingDb = Object.create(db) as Db;
    lockingDb.transaction = (async (...args: Parameters<Db['transaction']>) => {
      await setLock(true);
      return db.transaction(...args);
    }) as Db['transaction'];
    const racing = createWorkflowService({
      db: lockingDb,
      audit: createAuditRepo(db),
      groups: {
        ...realGroups,
        check: async (spaceId, id) => {
          await setLock(true);
          return realGroups.check(spaceId, id);
        },
      },
      now: () => new Date(),
      templateGraph: async () => undefined,
      references: {
        modelKeys: t.app.modules.modelKey.queries,
        knowledge: t.app.modules.knowledge.queries,
        agents: t.app.modules.agent.queries,
      },
    });
    const ctx: AuthContext = {
      request: {} as FastifyRequest,
      language: 'en',
      timezone: 'UTC',
      ip: '127.0.0.1',
      userId: team.ids.member,
      sessionId: 'racing',
      space: { id: team.teamId, role: 3 },
    };
    const attempts = {
      update: () => racing.update(ctx, w.id, { name: 'Renamed', description: '', group_id: null }),
      remove: () => racing.remove(ctx, w.id),
      effective: () => racing.setEffective(ctx, w.id, false),
    };
    for (const [name, attempt] of Object.entries(attempts)) {
      await expect(attempt(), name).rejects.toMatchObject({ key: 'WORKFLOW_LOCKED' });
      await setLock(false);
    }
    expect(await ok(r.detail, { id: w.id }, team.member)).toMatchObject({ name: 'Racing', effective: true });
  });

  it('writes create, publish, effective, lock, unlock and delete to the team audit log', async () => {
    const w = await publishedOf(team.member, 'Audited');
    await ok(r.effectiveSet, { id: w.id, effective: false }, team.member);
    await ok(r.lock, { id: w.id, locked: true }, team.member);
    await ok(r.lock, { id: w.id, locked: false }, team.member);
    await ok(r.delete, { id: w.id }, team.member);
    const audit = await ok(teamRoutes.auditList, { page_size: 100 }, team.creator);
    const mine = audit.items.filter((entry) => entry.details.workflow_id === w.id);
    expect(mine.map((entry) => entry.action).reverse()).toEqual([
      'workflow.create',
      'workflow.publish',
      'workflow.effective',
      'workflow.lock',
      'workflow.unlock',
      'workflow.delete',
    ]);
    expect(mine.every((entry) => entry.actor.id === team.ids.member && entry.details.name === 'Audited')).toBe(true);
  });
});
