import {
  type behaviourRoutes,
  type Language,
  SATISFACTION_DEFAULTS,
  SATISFACTION_LIMITS,
  SATISFACTION_MENU_ID,
  type SatisfactionSettings,
  type SatisfactionState,
  satisfactionMenuId,
  TIME_FILTER_MS,
} from '@athena/contract';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { AuthContext } from '../../platform/auth-guard.ts';
import { isUuid } from '../../platform/crypto.ts';
import type { Db } from '../../platform/db/database.ts';
import { rowsOf } from '../../platform/db/sql.ts';
import { AppError } from '../../platform/http/app-error.ts';
import { WecomApiError } from '../../platform/wecom/kf-api.ts';
import { wecomMsgid } from '../../platform/wecom/msgid.ts';
import type { ChatHistoryModule } from '../chat-history/index.ts';
import type { WecomAccountRow } from '../chat-history/wecom-clients.ts';
import type { DerivedEvents } from './behaviour.service.ts';
import { type ProfileScope, profileScope } from './profile-scope.ts';
import type { ProfileValueRepo } from './profile-value.repo.ts';
import { satisfactionSettings } from './satisfaction.schema.ts';

type UpdateBody = z.output<(typeof behaviourRoutes)['satisfactionSettingsUpdate']['body']>;
type ListBody = z.output<(typeof behaviourRoutes)['satisfactionList']['body']>;
type SummaryBody = z.output<(typeof behaviourRoutes)['satisfactionSummary']['body']>;
type Scene = { spaceId: string; sceneId: number };
type Option = { score: number; label: string };

const DAY_MS = 86_400_000;

/** The default question in a language: five options, best first. */
export function defaultSatisfaction(language: Language): { head: string; options: Option[] } {
  const { head, labels } = SATISFACTION_DEFAULTS[language];
  return { head, options: labels.map((label, index) => ({ score: 5 - index, label })) };
}

interface SurveyRow {
  id: string | number;
  conversation_id: string | number;
  conversation_title: string;
  customer_id: string | number | null;
  customer_name: string | null;
  servicer: string | null;
  agent_id: string | null;
  agent_name: string | null;
  state: SatisfactionState;
  fail_reason: string | null;
  score: number | null;
  requested_at: Date | string;
  rated_at: Date | string | null;
}

interface FigureRow {
  key: string | null;
  label: string | null;
  asked: number;
  rated: number;
  average: string | number | null;
  s1: number;
  s2: number;
  s3: number;
  s4: number;
  s5: number;
}

type AskShared = {
  agentId: string | null;
  account: { ok: true; value: WecomAccountRow } | { ok: false; reason: string };
};

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

const figuresOf = (row: FigureRow | undefined) => ({
  asked: Number(row?.asked ?? 0),
  rated: Number(row?.rated ?? 0),
  average: row?.average === null || row?.average === undefined ? null : Math.round(Number(row.average) * 100) / 100,
  distribution: [row?.s1, row?.s2, row?.s3, row?.s4, row?.s5].map((count) => Number(count ?? 0)),
});

/**
 * Satisfaction (docs/user-profiles.md, Satisfaction): a scene's question, asked with WeCom's menu
 * when a session ends, the customer's tap matched back to it, and the ratings read and summed up.
 */
export function createSatisfactionService(deps: {
  db: Db;
  values: ProfileValueRepo;
  chatHistory: Pick<ChatHistoryModule, 'replySettingsOf' | 'wecomClients'>;
  now: () => Date;
  log: FastifyBaseLogger;
}) {
  const { db, now } = deps;

  async function settingsRow(scene: Scene) {
    const [row] = await db
      .select()
      .from(satisfactionSettings)
      .where(and(eq(satisfactionSettings.spaceId, scene.spaceId), eq(satisfactionSettings.sceneId, scene.sceneId)));
    return row ?? null;
  }

  function present(row: Awaited<ReturnType<typeof settingsRow>>, language: Language): SatisfactionSettings {
    if (!row) return { enabled: false, ...defaultSatisfaction(language), updated_at: null };
    return { enabled: row.enabled, head: row.head, options: row.options, updated_at: row.updatedAt.toISOString() };
  }

  /** What every ask of one page shares, looked up once per page rather than once per session. */
  async function askShared(scene: Scene): Promise<AskShared> {
    const [reply, account] = await Promise.allSettled([
      deps.chatHistory.replySettingsOf(scene),
      deps.chatHistory.wecomClients.accountOf(scene),
    ]);
    if (reply.status === 'rejected') deps.log.warn({ err: reply.reason }, 'satisfaction: reply agent not read');
    const agentId = reply.status === 'fulfilled' ? reply.value.agent_id : null;
    return {
      agentId: agentId && isUuid(agentId) ? agentId : null,
      account:
        account.status === 'fulfilled'
          ? account.value
            ? { ok: true, value: account.value }
            : { ok: false, reason: 'WeCom customer service is not connected' }
          : { ok: false, reason: `WeCom account not read: ${reasonOf(account.reason)}` },
    };
  }

  /**
   * Asks one ended session's customer; the survey is stored sent, or failed with the reason. Never
   * throws: one ask going wrong neither stops the other asks of the page nor the WeCom pull.
   */
  async function ask(
    scene: Scene,
    ended: DerivedEvents['ended'][number],
    question: { head: string; options: Option[] },
    shared: AskShared,
  ) {
    let surveyId: string | number | null = null;
    let servicer: string | null = null;
    try {
      const [conversation] = rowsOf<{ servicer: string | null }>(
        await db.execute(sql`select servicer from chat_conversations where id = ${ended.conversationId}`),
      );
      if (!conversation) return;
      servicer = conversation.servicer;
      const id = await storeSurvey(scene, ended, servicer, shared.agentId, 'sent', null);
      surveyId = id;
      if (id === null) return;
      if (!shared.account.ok) throw new Error(shared.account.reason);
      await deps.chatHistory.wecomClients.clientOf(shared.account.value).sendMenuOnEvent({
        code: ended.msgCode,
        msgid: wecomMsgid('sat', scene.spaceId, scene.sceneId, id),
        head: question.head,
        items: question.options.map((option) => ({
          id: satisfactionMenuId(id, option.score),
          content: option.label,
        })),
      });
    } catch (error) {
      deps.log.warn({ err: error, survey: surveyId }, 'satisfaction menu not sent');
      // WeCom's own words with its code (95007: the code expired or was used), for the people reading it.
      const code = error instanceof WecomApiError && error.errcode !== undefined ? `errcode ${error.errcode}: ` : '';
      const reason = `${code}${reasonOf(error)}`;
      try {
        if (surveyId === null) {
          await storeSurvey(scene, ended, servicer, shared.agentId, 'failed', reason);
        } else {
          await db.execute(sql`update satisfaction_surveys set state = 'failed', fail_reason = ${reason.slice(0, 500)}
            where id = ${surveyId}`);
        }
      } catch (stored) {
        deps.log.error({ err: stored, survey: surveyId }, 'satisfaction: failed survey not recorded');
      }
    }
  }

  async function storeSurvey(
    scene: Scene,
    ended: DerivedEvents['ended'][number],
    servicer: string | null,
    agentId: string | null,
    state: 'sent' | 'failed',
    reason: string | null,
  ) {
    const [survey] = rowsOf<{ id: string | number }>(
      await db.execute(sql`
        insert into satisfaction_surveys (space_id, scene_id, conversation_id, customer_id, servicer, agent_id, state,
          fail_reason, requested_at)
        values (${scene.spaceId}::uuid, ${scene.sceneId}, ${ended.conversationId}, ${ended.customerId},
          ${servicer}, ${agentId}, ${state}, ${reason === null ? null : reason.slice(0, 500)}, ${now().toISOString()})
        returning id`),
    );
    return survey ? survey.id : null;
  }

  /** The filters of list and summary, on surveys `s`. */
  async function conditionsOf(scope: ProfileScope, body: ListBody | SummaryBody): Promise<SQL> {
    const parts: SQL[] = [sql`s.space_id = ${scope.spaceId}::uuid and s.scene_id = ${scope.sceneId}`];
    if (body.customer_id !== undefined) {
      parts.push(sql`s.customer_id = ${await deps.values.customerIn(scope, body.customer_id)}`);
    }
    if (body.time === 'custom') {
      if (body.start_time === undefined || body.end_time === undefined || body.start_time > body.end_time) {
        throw new AppError('CHAT_TIME_RANGE_INVALID');
      }
      parts.push(sql`s.requested_at between ${new Date(body.start_time).toISOString()}::timestamptz
        and ${new Date(body.end_time).toISOString()}::timestamptz`);
    } else if (body.time) {
      parts.push(
        sql`s.requested_at >= ${new Date(now().getTime() - TIME_FILTER_MS[body.time]).toISOString()}::timestamptz`,
      );
    }
    if (body.servicer !== undefined) parts.push(sql`s.servicer = ${body.servicer}`);
    if (body.agent_id !== undefined) parts.push(sql`s.agent_id::text = ${body.agent_id}`);
    if (body.score !== undefined) parts.push(sql`s.score = ${body.score}`);
    return sql.join(parts, sql` and `);
  }

  return {
    async settings(ctx: AuthContext) {
      const scope = profileScope(ctx, 'profile.view');
      return present(await settingsRow(scope), ctx.language);
    },

    async updateSettings(ctx: AuthContext, body: UpdateBody) {
      const scope = profileScope(ctx, 'profile.define');
      if (new Set(body.options.map((option) => option.score)).size !== body.options.length) {
        throw new AppError('SATISFACTION_SETTINGS_INVALID');
      }
      const values = {
        enabled: body.enabled,
        head: body.head,
        options: [...body.options].sort((a, b) => b.score - a.score),
        updatedBy: ctx.userId,
        updatedAt: now(),
      };
      await db
        .insert(satisfactionSettings)
        .values({ spaceId: scope.spaceId, sceneId: scope.sceneId, ...values })
        .onConflictDoUpdate({ target: [satisfactionSettings.spaceId, satisfactionSettings.sceneId], set: values });
      return present(await settingsRow(scope), ctx.language);
    },

    /** What behaviour derived from a WeCom page: ended sessions are asked, menu taps answer. */
    async onDerived(scene: Scene, derived: DerivedEvents) {
      if (derived.ended.length > 0) {
        const row = await settingsRow(scene);
        if (row?.enabled) {
          // Without the end's code WeCom takes no message once the session is over.
          const asked = derived.ended.filter((ended) => ended.msgCode);
          const shared = asked.length > 0 ? await askShared(scene) : null;
          for (const ended of asked) if (shared) await ask(scene, ended, row, shared);
        }
      }
      for (const tap of derived.taps) {
        const match = SATISFACTION_MENU_ID.exec(tap.menuId);
        if (!match) continue;
        // The first answer counts; only the survey's own customer, within the days a reply is taken.
        const since = new Date(tap.at.getTime() - SATISFACTION_LIMITS.replyDays * DAY_MS).toISOString();
        await db.execute(sql`update satisfaction_surveys
          set state = 'rated', score = ${Number(match[2])}, rated_at = ${tap.at.toISOString()}::timestamptz
          where id = ${match[1]} and space_id = ${scene.spaceId}::uuid and scene_id = ${scene.sceneId}
            and customer_id = ${tap.customerId} and state = 'sent' and requested_at >= ${since}::timestamptz`);
      }
    },

    async list(ctx: AuthContext, body: ListBody) {
      const scope = profileScope(ctx, 'profile.view');
      const where = await conditionsOf(scope, body);
      const labels = new Map((await settingsRow(scope))?.options.map((o) => [o.score, o.label]) ?? []);
      const fallback = new Map(defaultSatisfaction(ctx.language).options.map((o) => [o.score, o.label]));
      const [rows, [count]] = await Promise.all([
        db.execute(sql`
          select s.id, s.conversation_id, c.title as conversation_title, s.customer_id, cu.name as customer_name,
            s.servicer, s.agent_id, a.name as agent_name, s.state, s.fail_reason, s.score, s.requested_at, s.rated_at
          from satisfaction_surveys s
          join chat_conversations c on c.id = s.conversation_id
          left join chat_customers cu on cu.id = s.customer_id
          left join agents a on a.id = s.agent_id
          where ${where}
          order by s.requested_at desc, s.id desc
          limit ${body.page_size} offset ${(body.page - 1) * body.page_size}`),
        db
          .execute(sql`select count(*)::int as total from satisfaction_surveys s where ${where}`)
          .then((result) => rowsOf<{ total: number }>(result)),
      ]);
      return {
        items: rowsOf<SurveyRow>(rows).map((row) => ({
          id: String(row.id),
          conversation_id: String(row.conversation_id),
          conversation_title: row.conversation_title,
          customer_id: row.customer_id === null ? null : String(row.customer_id),
          customer_name: row.customer_name ?? '',
          servicer: row.servicer,
          agent_id: row.agent_id,
          agent_name: row.agent_name ?? '',
          state: row.state,
          fail_reason: row.fail_reason,
          score: row.score === null ? null : Number(row.score),
          label: row.score === null ? null : (labels.get(row.score) ?? fallback.get(row.score) ?? null),
          requested_at: new Date(row.requested_at).toISOString(),
          rated_at: row.rated_at === null ? null : new Date(row.rated_at).toISOString(),
        })),
        total: Number(count?.total ?? 0),
      };
    },

    async summary(ctx: AuthContext, body: SummaryBody) {
      const scope = profileScope(ctx, 'profile.view');
      const where = await conditionsOf(scope, body);
      const figures = sql`count(*)::int as asked, count(s.score)::int as rated, avg(s.score) as average,
        count(*) filter (where s.score = 1)::int as s1, count(*) filter (where s.score = 2)::int as s2,
        count(*) filter (where s.score = 3)::int as s3, count(*) filter (where s.score = 4)::int as s4,
        count(*) filter (where s.score = 5)::int as s5`;
      const [total] = rowsOf<FigureRow>(
        await db.execute(sql`select ${figures} from satisfaction_surveys s where ${where}`),
      );
      const grouping = {
        conversation: {
          key: sql`s.conversation_id::text`,
          label: sql`max(coalesce(nullif(c.title, ''), cu.name, ''))`,
          from: sql`join chat_conversations c on c.id = s.conversation_id left join chat_customers cu on cu.id = s.customer_id`,
        },
        agent: {
          key: sql`s.agent_id::text`,
          label: sql`max(a.name)`,
          from: sql`left join agents a on a.id = s.agent_id`,
        },
        servicer: { key: sql`s.servicer`, label: sql`max(s.servicer)`, from: sql`` },
      };
      const group = body.group_by ? grouping[body.group_by] : null;
      const groups = group
        ? rowsOf<FigureRow>(
            await db.execute(sql`
              select ${group.key} as key, ${group.label} as label, ${figures}
              from satisfaction_surveys s ${group.from}
              where ${where}
              group by 1 order by count(*) desc, 1 limit 100`),
          ).map((row) => ({ key: row.key ?? '', label: row.label ?? '', ...figuresOf(row) }))
        : [];
      return { ...figuresOf(total), groups };
    },
  };
}

export type SatisfactionService = ReturnType<typeof createSatisfactionService>;
