import {
  type AttachmentType,
  CANCELLABLE_STATUSES,
  CUSTOM_BUSINESS_STATUS_LABELS,
  type CustomBusinessStatus,
  type customBusinessRoutes,
  hasTeamAuthority,
  type Language,
  OPERATOR_TRANSITIONS,
  type RequestDetail,
  type RequestSummary,
} from '@athena/contract';
import type { z } from 'zod';
import type { AuthContext } from '../../platform/auth-guard.ts';
import { isUuid } from '../../platform/crypto.ts';
import type { Db } from '../../platform/db/database.ts';
import { AppError } from '../../platform/http/app-error.ts';
import type { CustomBusinessRepo, ListQuery, SummaryRow } from './custom-business.repo.ts';

export type CustomBusinessService = ReturnType<typeof createCustomBusinessService>;
type CreateBody = z.output<(typeof customBusinessRoutes)['create']['body']>;
type UpdateBody = z.output<(typeof customBusinessRoutes)['operatorUpdateStatus']['body']>;
type ListBody = z.output<(typeof customBusinessRoutes)['operatorList']['body']>;

const conflict = (language: Language, from: CustomBusinessStatus, to: CustomBusinessStatus) =>
  new AppError('CUSTOM_STATUS_CONFLICT', {
    from: CUSTOM_BUSINESS_STATUS_LABELS[from][language],
    to: CUSTOM_BUSINESS_STATUS_LABELS[to][language],
  });

const toSummary = (row: SummaryRow): RequestSummary => ({
  id: row.request.id,
  title: row.request.title,
  scenario: row.request.scenario as RequestSummary['scenario'],
  budget_range: row.request.budgetRange as RequestSummary['budget_range'],
  status: row.request.status as CustomBusinessStatus,
  quote_fen: row.request.quoteFen,
  requester: { id: row.request.requesterId, nickname: row.requesterNickname, avatar_url: row.requesterAvatar },
  attachment_count: row.attachmentCount,
  created_at: row.request.createdAt.toISOString(),
  updated_at: row.request.updatedAt.toISOString(),
});

const listQuery = (body: ListBody): ListQuery => ({
  status: body.status,
  keyword: body.keyword || undefined,
  page: body.page,
  pageSize: body.page_size,
});

/**
 * Custom AI business requests. Members of a space create and follow their space's requests; the
 * requester, the creator and admins may withdraw one or accept its quote; platform operators
 * (OPERATOR_PHONES) see every space's requests and move them along. Every change is recorded.
 */
export function createCustomBusinessService(deps: {
  db: Db;
  repo: CustomBusinessRepo;
  operatorPhones: ReadonlySet<string>;
  now: () => Date;
}) {
  const { db, repo, now } = deps;

  async function isOperator(userId: string) {
    if (deps.operatorPhones.size === 0) return false;
    const phone = await repo.phoneOf(userId);
    return phone !== null && deps.operatorPhones.has(phone);
  }

  async function requireOperator(ctx: AuthContext) {
    if (!(await isOperator(ctx.userId))) throw new AppError('FORBIDDEN');
  }

  const spaceOf = (ctx: AuthContext) => {
    if (!ctx.space) throw new AppError('SPACE_UNAVAILABLE');
    return ctx.space;
  };

  /** A request of the caller's current space; anything else (another space, no such id) is NOT_FOUND. */
  async function inSpace(ctx: AuthContext, id: string) {
    const space = spaceOf(ctx);
    const row = isUuid(id) ? await repo.getSummary(id) : null;
    if (!row || row.request.spaceId !== space.id) throw new AppError('NOT_FOUND');
    return { row, space };
  }

  async function anyRequest(id: string) {
    const row = isUuid(id) ? await repo.getSummary(id) : null;
    if (!row) throw new AppError('NOT_FOUND');
    return row;
  }

  /** The requester side: the requester themselves, or the space's creator and admins. */
  const mayManage = (ctx: AuthContext, row: SummaryRow) =>
    row.request.requesterId === ctx.userId || (ctx.space !== null && hasTeamAuthority(ctx.space.role));

  async function detail(
    row: SummaryRow,
    viewer: { manage: boolean; operator: boolean; withSpace: boolean },
  ): Promise<RequestDetail> {
    const [files, changes] = await Promise.all([repo.attachmentsOf(row.request.id), repo.history(row.request.id)]);
    const status = row.request.status as CustomBusinessStatus;
    return {
      ...toSummary(row),
      requirements: row.request.requirements,
      contact_name: row.request.contactName,
      contact_phone: row.request.contactPhone,
      contact_email: row.request.contactEmail,
      expected_date: row.request.expectedDate,
      quote_note: row.request.quoteNote,
      attachments: files.map((file) => ({
        id: file.id,
        name: file.name,
        size: file.size,
        content_type: file.contentType as AttachmentType,
      })),
      history: changes.map(({ change, nickname, avatarUrl }) => ({
        id: change.id,
        from_status: change.fromStatus as CustomBusinessStatus | null,
        to_status: change.toStatus as CustomBusinessStatus,
        by_operator: change.byOperator,
        // Operators speak for the platform; their personal accounts stay private to the space.
        actor: change.byOperator && !viewer.operator ? null : { id: change.actorId, nickname, avatar_url: avatarUrl },
        note: change.note,
        quote_fen: change.quoteFen,
        created_at: change.createdAt.toISOString(),
      })),
      can_cancel: viewer.manage && CANCELLABLE_STATUSES.includes(status),
      can_accept: viewer.manage && status === 'quoted',
      space: viewer.withSpace ? { id: row.request.spaceId, name: row.spaceName } : null,
    };
  }

  const memberView = async (ctx: AuthContext, row: SummaryRow) =>
    detail(row, { manage: mayManage(ctx, row), operator: await isOperator(ctx.userId), withSpace: false });

  /**
   * Moves a request, records the change and answers the fresh state. The conditional update makes
   * two people acting at once safe: the second one gets CUSTOM_STATUS_CONFLICT with the status the
   * first one left.
   */
  async function move(
    ctx: AuthContext,
    row: SummaryRow,
    to: CustomBusinessStatus,
    change: { byOperator: boolean; note?: string; quoteFen?: number | null },
  ) {
    const from = row.request.status as CustomBusinessStatus;
    const at = now();
    const patch = {
      status: to,
      updatedAt: at,
      ...(to === 'quoted' ? { quoteFen: change.quoteFen ?? null, quoteNote: change.note || null } : {}),
      // A withdrawn quote is gone from the request; its amount stays in the history.
      ...(from === 'quoted' && to === 'in_review' ? { quoteFen: null, quoteNote: null } : {}),
    };
    const moved = await db.transaction(async (tx) => {
      if (!(await repo.transition(tx, row.request.id, from, patch))) return false;
      await repo.recordChange(tx, {
        requestId: row.request.id,
        fromStatus: from,
        toStatus: to,
        actorId: ctx.userId,
        byOperator: change.byOperator,
        note: change.note || null,
        quoteFen: to === 'quoted' ? (change.quoteFen ?? null) : null,
        createdAt: at,
      });
      return true;
    });
    const fresh = await anyRequest(row.request.id);
    if (!moved) throw conflict(ctx.language, fresh.request.status as CustomBusinessStatus, to);
    return fresh;
  }

  return {
    isOperator,

    async create(ctx: AuthContext, body: CreateBody) {
      const space = spaceOf(ctx);
      const ids = [...new Set(body.attachment_ids)];
      if (ids.some((id) => !isUuid(id))) throw new AppError('NOT_FOUND');
      const at = now();
      const id = await db.transaction(async (tx) => {
        const request = await repo.insertRequest(tx, {
          spaceId: space.id,
          requesterId: ctx.userId,
          title: body.title,
          scenario: body.scenario,
          requirements: body.requirements,
          contactName: body.contact_name,
          contactPhone: body.contact_phone,
          contactEmail: body.contact_email,
          budgetRange: body.budget_range,
          expectedDate: body.expected_date,
          status: 'submitted',
          createdAt: at,
          updatedAt: at,
        });
        // Only the caller's own, not yet used uploads in this space; anything else rolls it all back.
        const claimed = await repo.claimAttachments(tx, ids, { spaceId: space.id, userId: ctx.userId }, request.id);
        if (claimed !== ids.length) throw new AppError('NOT_FOUND');
        await repo.recordChange(tx, {
          requestId: request.id,
          fromStatus: null,
          toStatus: 'submitted',
          actorId: ctx.userId,
          createdAt: at,
        });
        return request.id;
      });
      return memberView(ctx, await anyRequest(id));
    },

    async list(ctx: AuthContext, body: ListBody) {
      const space = spaceOf(ctx);
      const { rows, total } = await repo.listInSpace(space.id, { ...listQuery(body), keyword: undefined });
      return { items: rows.map(toSummary), total, is_operator: await isOperator(ctx.userId) };
    },

    async get(ctx: AuthContext, id: string) {
      const { row } = await inSpace(ctx, id);
      return memberView(ctx, row);
    },

    async cancel(ctx: AuthContext, id: string, note?: string) {
      const { row } = await inSpace(ctx, id);
      if (!mayManage(ctx, row)) throw new AppError('FORBIDDEN');
      const from = row.request.status as CustomBusinessStatus;
      if (!CANCELLABLE_STATUSES.includes(from)) throw conflict(ctx.language, from, 'closed');
      return memberView(ctx, await move(ctx, row, 'closed', { byOperator: false, note }));
    },

    async accept(ctx: AuthContext, id: string) {
      const { row } = await inSpace(ctx, id);
      if (!mayManage(ctx, row)) throw new AppError('FORBIDDEN');
      const from = row.request.status as CustomBusinessStatus;
      if (from !== 'quoted') throw conflict(ctx.language, from, 'accepted');
      return memberView(ctx, await move(ctx, row, 'accepted', { byOperator: false, quoteFen: row.request.quoteFen }));
    },

    async operatorList(ctx: AuthContext, body: ListBody) {
      await requireOperator(ctx);
      const { rows, total } = await repo.listAll(listQuery(body));
      return {
        items: rows.map((row) => ({ ...toSummary(row), space: { id: row.request.spaceId, name: row.spaceName } })),
        total,
      };
    },

    async operatorGet(ctx: AuthContext, id: string) {
      await requireOperator(ctx);
      return detail(await anyRequest(id), { manage: false, operator: true, withSpace: true });
    },

    async operatorUpdate(ctx: AuthContext, body: UpdateBody) {
      await requireOperator(ctx);
      const row = await anyRequest(body.id);
      const from = row.request.status as CustomBusinessStatus;
      if (!OPERATOR_TRANSITIONS[from].includes(body.status)) throw conflict(ctx.language, from, body.status);
      if (body.status === 'quoted' && body.quote_fen === undefined) {
        throw new AppError('BAD_REQUEST', { detail: 'quote_fen: required when the status becomes quoted' });
      }
      if (body.status !== 'quoted' && body.quote_fen !== undefined) {
        throw new AppError('BAD_REQUEST', { detail: 'quote_fen: only with status quoted' });
      }
      const fresh = await move(ctx, row, body.status, { byOperator: true, note: body.note, quoteFen: body.quote_fen });
      return detail(fresh, { manage: false, operator: true, withSpace: true });
    },
  };
}
