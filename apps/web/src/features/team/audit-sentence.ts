import { type AuditEntry, ROLE_NAMES, type RoleName } from '@athena/contract';
import type { ParseKeys } from 'i18next';
import { formatFen } from '../../lib/format.ts';

type SentenceKey = Extract<
  ParseKeys,
  `team.audit.${'sentence' | 'role' | 'expiry' | 'uses'}.${string}` | 'team.audit.someone'
>;
/** i18next's `t`, narrowed to what the sentences need (so tests can pass a real instance). */
export type AuditTranslate = (key: SentenceKey, values?: Record<string, string>) => string;

type Detail = AuditEntry['details'][string];

const text = (...values: Detail[]): string | undefined => {
  for (const value of values) {
    if (typeof value === 'string' && value.trim()) return value;
    if (typeof value === 'number') return String(value);
  }
  return undefined;
};

/** A role as the server may record it: 1/2/3 or 'creator'/'admin'/'member'. */
function roleName(value: Detail): RoleName | undefined {
  if (value === 1 || value === 2 || value === 3) return ROLE_NAMES[value];
  if (value === 'creator' || value === 'admin' || value === 'member') return value;
  if (value === '1' || value === '2' || value === '3') return ROLE_NAMES[Number(value) as 1 | 2 | 3];
  return undefined;
}

function expiryKey(value: Detail): SentenceKey | undefined {
  if (value === '1d' || value === 86_400) return 'team.audit.expiry.1d';
  if (value === '7d' || value === 7 * 86_400) return 'team.audit.expiry.7d';
  if (value === 'never' || value === null) return 'team.audit.expiry.never';
  return undefined;
}

function usesKey(value: Detail): SentenceKey | undefined {
  if (value === 'once' || value === 1) return 'team.audit.uses.once';
  if (value === 'unlimited' || value === null) return 'team.audit.uses.unlimited';
  return undefined;
}

/**
 * One audit entry as a sentence a person reads: "Zhang San changed Li Si from member to admin".
 * The server's `details` are free-form, so every detail is optional and each action falls back
 * to a plainer sentence when one is missing.
 */
export function auditSentence(entry: AuditEntry, t: AuditTranslate): string {
  const d = entry.details;
  const actor = entry.actor.nickname;
  const target = entry.target?.nickname ?? t('team.audit.someone');
  switch (entry.action) {
    case 'team.create': {
      const name = text(d.name, d.team_name);
      return name
        ? t('team.audit.sentence.teamCreateNamed', { actor, name })
        : t('team.audit.sentence.teamCreate', { actor });
    }
    case 'team.rename': {
      const from = text(d.from, d.old_name, d.previous_name);
      const to = text(d.to, d.name, d.new_name);
      if (from && to) return t('team.audit.sentence.teamRenameFromTo', { actor, from, to });
      return to
        ? t('team.audit.sentence.teamRename', { actor, name: to })
        : t('team.audit.sentence.teamRenamed', { actor });
    }
    case 'team.dissolve': {
      const fen = d.forfeited_balance;
      return typeof fen === 'number' && fen > 0
        ? t('team.audit.sentence.teamDissolveForfeit', { actor, amount: formatFen(fen) })
        : t('team.audit.sentence.teamDissolve', { actor });
    }
    case 'team.transfer':
      return t('team.audit.sentence.teamTransfer', { actor, target });
    case 'invite.create': {
      const expiry = 'expires_in' in d ? expiryKey(d.expires_in) : undefined;
      const uses = 'max_uses' in d ? usesKey(d.max_uses) : undefined;
      if (expiry && uses) {
        return t('team.audit.sentence.inviteCreateDetailed', { actor, expiry: t(expiry), uses: t(uses) });
      }
      return t('team.audit.sentence.inviteCreate', { actor });
    }
    case 'invite.revoke':
      return t('team.audit.sentence.inviteRevoke', { actor });
    case 'member.join':
      return t('team.audit.sentence.memberJoin', { actor });
    case 'member.role_change': {
      const from = roleName(d.from ?? d.from_role ?? null);
      const to = roleName(d.to ?? d.to_role ?? d.role ?? null);
      if (from && to) {
        return t('team.audit.sentence.memberRoleChange', {
          actor,
          target,
          from: t(`team.audit.role.${from}`),
          to: t(`team.audit.role.${to}`),
        });
      }
      if (to) return t('team.audit.sentence.memberRoleChangeTo', { actor, target, to: t(`team.audit.role.${to}`) });
      return t('team.audit.sentence.memberRoleChanged', { actor, target });
    }
    case 'member.remove':
      return t('team.audit.sentence.memberRemove', { actor, target });
    case 'member.leave':
      return t('team.audit.sentence.memberLeave', { actor });
    case 'workflow.create':
    case 'workflow.delete':
    case 'workflow.publish':
    case 'workflow.lock':
    case 'workflow.unlock':
    case 'workflow.effective': {
      const name = text(d.name) ?? '';
      if (entry.action === 'workflow.create') return t('team.audit.sentence.workflowCreate', { actor, name });
      if (entry.action === 'workflow.delete') return t('team.audit.sentence.workflowDelete', { actor, name });
      if (entry.action === 'workflow.lock') return t('team.audit.sentence.workflowLock', { actor, name });
      if (entry.action === 'workflow.unlock') return t('team.audit.sentence.workflowUnlock', { actor, name });
      if (entry.action === 'workflow.publish') {
        return t('team.audit.sentence.workflowPublish', { actor, name, version: text(d.version) ?? '' });
      }
      return d.effective === false
        ? t('team.audit.sentence.workflowNotEffective', { actor, name })
        : t('team.audit.sentence.workflowEffective', { actor, name });
    }
    case 'billing.recharge':
    case 'billing.refund':
    case 'billing.adjust':
    case 'billing.settings':
      return billingSentence(entry, t);
    case 'mcp.server':
    case 'mcp.token_create':
    case 'mcp.token_revoke':
    case 'mcp.tool_add':
    case 'mcp.tool_remove':
    case 'mcp.external_add':
    case 'mcp.external_update':
    case 'mcp.external_remove':
      return mcpSentence(entry, t);
  }
  return t('team.audit.sentence.unknown', { actor });
}

/** An amount of fen as recorded (a number, or digits as text), with its sign when asked. */
function fenOf(value: Detail, signed = false): string | undefined {
  const fen =
    typeof value === 'number' ? value : typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : null;
  if (fen === null || !Number.isSafeInteger(fen)) return undefined;
  return signed && fen > 0 ? `+${formatFen(fen)}` : formatFen(fen);
}

/** The fees center's entries: recharges paid, operators' refunds and corrections, the low-balance notice. */
function billingSentence(entry: AuditEntry, t: AuditTranslate): string {
  const d = entry.details;
  const actor = entry.actor.nickname;
  const orderNo = text(d.order_no);
  const reason = text(d.reason);
  switch (entry.action) {
    case 'billing.recharge': {
      const amount = fenOf(d.amount ?? null);
      if (amount && orderNo) return t('team.audit.sentence.billingRechargeOrder', { actor, amount, orderNo });
      return amount
        ? t('team.audit.sentence.billingRecharge', { actor, amount })
        : t('team.audit.sentence.billingRecharged', { actor });
    }
    case 'billing.refund': {
      const amount = fenOf(d.amount ?? null);
      if (!amount) return t('team.audit.sentence.billingRefunded', { actor });
      const said = t('team.audit.sentence.billingRefund', { actor, amount, orderNo: orderNo ?? '—' });
      return reason ? t('team.audit.sentence.withReason', { sentence: said, reason }) : said;
    }
    case 'billing.adjust': {
      const amount = fenOf(d.amount ?? null, true);
      if (!amount) return t('team.audit.sentence.billingAdjusted', { actor });
      const said = t('team.audit.sentence.billingAdjust', { actor, amount });
      return reason ? t('team.audit.sentence.withReason', { sentence: said, reason }) : said;
    }
    default: {
      if (!('low_balance_threshold' in d)) return t('team.audit.sentence.billingSettings', { actor });
      const threshold = fenOf(d.low_balance_threshold);
      return threshold
        ? t('team.audit.sentence.billingThreshold', { actor, amount: threshold })
        : t('team.audit.sentence.billingThresholdOff', { actor });
    }
  }
}

/** The MCP page's entries: the server switched, tokens, exposed tools, external servers. */
function mcpSentence(entry: AuditEntry, t: AuditTranslate): string {
  const d = entry.details;
  const actor = entry.actor.nickname;
  const name = text(d.name) ?? '';
  switch (entry.action) {
    case 'mcp.server':
      return t(d.enabled === false ? 'team.audit.sentence.mcpServerOff' : 'team.audit.sentence.mcpServerOn', { actor });
    case 'mcp.token_create':
      return t('team.audit.sentence.mcpTokenCreate', { actor, name });
    case 'mcp.token_revoke':
      return t('team.audit.sentence.mcpTokenRevoke', { actor, name });
    case 'mcp.tool_add':
      return t('team.audit.sentence.mcpToolAdd', { actor, name, target: text(d.target) ?? name });
    case 'mcp.tool_remove':
      return t('team.audit.sentence.mcpToolRemove', { actor, name });
    case 'mcp.external_add':
      return t('team.audit.sentence.mcpExternalAdd', { actor, name, host: text(d.host) ?? '' });
    case 'mcp.external_update':
      return t('team.audit.sentence.mcpExternalUpdate', { actor, name, host: text(d.host) ?? '' });
    default:
      return t('team.audit.sentence.mcpExternalRemove', { actor, name });
  }
}
