import type { AuditEntry } from '@athena/contract';
import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.features.json' with { type: 'json' };
import zhCN from '../../locales/zh-CN.features.json' with { type: 'json' };
import { type AuditTranslate, auditSentence } from './audit-sentence.ts';

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.init({
    resources: { en: { translation: en }, 'zh-CN': { translation: zhCN } },
    lng: 'en',
    fallbackLng: false,
    interpolation: { escapeValue: false },
  });
});

const tIn =
  (lng: string): AuditTranslate =>
  (key, values) =>
    i18n.t(key, { ...values, lng });

const zhang = { id: 'u1', nickname: '张三', avatar_url: null };
const li = { id: 'u2', nickname: '李四', avatar_url: null };
const entry = (action: AuditEntry['action'], details: AuditEntry['details'] = {}, target = li): AuditEntry => ({
  id: 1,
  action,
  actor: zhang,
  target,
  details,
  created_at: '2025-01-01T00:00:00Z',
});

describe('auditSentence', () => {
  it('says who changed whose role from what to what', () => {
    const e = entry('member.role_change', { from: 3, to: 2 });
    expect(auditSentence(e, tIn('en'))).toBe('张三 changed 李四 from member to admin');
    expect(auditSentence(e, tIn('zh-CN'))).toBe('张三 将 李四 从成员改为管理员');
  });

  it('accepts role names as well as numbers, and a missing "from"', () => {
    expect(auditSentence(entry('member.role_change', { from: 'admin', to: 'member' }), tIn('en'))).toBe(
      '张三 changed 李四 from admin to member',
    );
    expect(auditSentence(entry('member.role_change', { role: 2 }), tIn('en'))).toBe('张三 made 李四 admin');
    expect(auditSentence(entry('member.role_change', {}), tIn('en'))).toBe('张三 changed the role of 李四');
  });

  it('describes renames with and without the old name', () => {
    expect(auditSentence(entry('team.rename', { from: 'A', to: 'B' }, null as never), tIn('en'))).toBe(
      '张三 renamed the team from “A” to “B”',
    );
    expect(auditSentence(entry('team.rename', { name: 'B' }), tIn('zh-CN'))).toBe('张三 将团队更名为「B」');
    expect(auditSentence(entry('team.rename'), tIn('en'))).toBe('张三 renamed the team');
  });

  it('describes invite links with their expiry and uses', () => {
    expect(auditSentence(entry('invite.create', { expires_in: '7d', max_uses: 'once' }), tIn('en'))).toBe(
      '张三 created an invite link (valid for 7 days, single use)',
    );
    expect(auditSentence(entry('invite.create', { expires_in: 'never', max_uses: null }), tIn('zh-CN'))).toBe(
      '张三 创建了邀请链接（永久有效，不限次数）',
    );
    expect(auditSentence(entry('invite.create', {}), tIn('en'))).toBe('张三 created an invite link');
    expect(auditSentence(entry('invite.revoke', { code: 'x' }), tIn('en'))).toBe('张三 revoked an invite link');
  });

  it('names the target of removals and transfers, or says "someone" when it is unknown', () => {
    expect(auditSentence(entry('member.remove'), tIn('en'))).toBe('张三 removed 李四 from the team');
    expect(auditSentence(entry('member.remove', {}, null as never), tIn('en'))).toBe(
      '张三 removed someone from the team',
    );
    expect(auditSentence(entry('team.transfer'), tIn('zh-CN'))).toBe('张三 将团队转让给 李四，自己成为管理员');
  });

  it('covers every other action', () => {
    expect(auditSentence(entry('team.create', { name: '研发部' }), tIn('en'))).toBe('张三 created the team “研发部”');
    expect(auditSentence(entry('team.create'), tIn('en'))).toBe('张三 created the team');
    expect(auditSentence(entry('team.dissolve', { forfeited_balance: 0 }), tIn('en'))).toBe('张三 dissolved the team');
    expect(auditSentence(entry('team.dissolve', { forfeited_balance: 12345 }), tIn('zh-CN'))).toBe(
      '张三 解散了团队，放弃余额 ¥123.45',
    );
    expect(auditSentence(entry('member.join'), tIn('zh-CN'))).toBe('张三 通过邀请链接加入了团队');
    expect(auditSentence(entry('member.leave'), tIn('en'))).toBe('张三 left the team');
    expect(auditSentence(entry('nope' as never), tIn('en'))).toBe('张三 changed something in the team');
  });

  it('reads the fees center’s entries: recharges, refunds, corrections and the low-balance notice', () => {
    const recharge = entry('billing.recharge', { order_no: 'ATH1', amount: 1234 }, null as never);
    expect(auditSentence(recharge, tIn('en'))).toBe('张三 recharged ¥12.34 (order ATH1)');
    expect(auditSentence(recharge, tIn('zh-CN'))).toBe('张三 充值了 ¥12.34（订单 ATH1）');
    expect(auditSentence(entry('billing.recharge', {}), tIn('en'))).toBe('张三 recharged the team balance');
    expect(
      auditSentence(entry('billing.refund', { order_no: 'ATH1', amount: 500, reason: '重复支付' }), tIn('en')),
    ).toBe('张三 refunded ¥5.00 of order ATH1 (reason: 重复支付)');
    expect(auditSentence(entry('billing.adjust', { amount: 1000, reason: 'goodwill' }), tIn('en'))).toBe(
      '张三 corrected the balance by +¥10.00 (reason: goodwill)',
    );
    expect(auditSentence(entry('billing.adjust', { amount: -5 }), tIn('zh-CN'))).toBe('张三 将余额调整了 -¥0.05');
    expect(auditSentence(entry('billing.settings', { low_balance_threshold: 10_000 }), tIn('en'))).toBe(
      '张三 set the low-balance notice to below ¥100.00',
    );
    expect(auditSentence(entry('billing.settings', { low_balance_threshold: null }), tIn('zh-CN'))).toBe(
      '张三 关闭了余额提醒',
    );
  });

  it('says what changed on the MCP page: the server, tokens, tools and external servers', () => {
    expect(auditSentence(entry('mcp.server', { enabled: true }), tIn('en'))).toBe(
      "张三 turned on the team's MCP server",
    );
    expect(auditSentence(entry('mcp.server', { enabled: false }), tIn('zh-CN'))).toBe('张三 关闭了团队的 MCP 服务');
    expect(auditSentence(entry('mcp.token_create', { name: 'Cursor' }), tIn('zh-CN'))).toBe(
      '张三 创建了 MCP 访问令牌“Cursor”',
    );
    expect(auditSentence(entry('mcp.tool_add', { name: 'kb', target: '海岛知识' }), tIn('en'))).toBe(
      '张三 exposed “海岛知识” as the MCP tool kb',
    );
    expect(auditSentence(entry('mcp.external_add', { name: 'GitHub', host: 'api.example.com' }), tIn('en'))).toBe(
      '张三 added the external MCP server “GitHub” (api.example.com)',
    );
  });
});
