import { z } from 'zod';
import { defineRoute, defineUpload, noParams } from './envelope.ts';
import type { Language } from './errors.ts';
import { text } from './text.ts';
import { PHONE_PATTERN } from './validation.ts';

/**
 * /custom-ai-business: a team describes a custom AI solution it wants and follows the request
 * while the platform's operators review and quote it. docs/custom-business.md explains the flow.
 */
const tag = 'custom_business';
const base = (action: string) => `/api/athena/v1/custom_business/${action}`;

export const CUSTOM_BUSINESS_SCENARIOS = [
  'customer_service',
  'marketing',
  'knowledge_qa',
  'data_analysis',
  'workflow_automation',
  'other',
] as const;
export type CustomBusinessScenario = (typeof CUSTOM_BUSINESS_SCENARIOS)[number];

/** In CNY: below ¥10k, ¥10k–50k, ¥50k–200k, above ¥200k, not decided yet. */
export const BUDGET_RANGES = ['under_10k', '10k_50k', '50k_200k', 'over_200k', 'undecided'] as const;
export type BudgetRange = (typeof BUDGET_RANGES)[number];

export const CUSTOM_BUSINESS_STATUSES = ['submitted', 'in_review', 'quoted', 'accepted', 'closed'] as const;
export type CustomBusinessStatus = (typeof CUSTOM_BUSINESS_STATUSES)[number];
export const customBusinessStatus = z.enum(CUSTOM_BUSINESS_STATUSES);

/**
 * What an operator may move a request to. `quoted → in_review` withdraws a quote to revise it;
 * accepted and closed are final. Only the requester side accepts a quote.
 */
export const OPERATOR_TRANSITIONS: Record<CustomBusinessStatus, readonly CustomBusinessStatus[]> = {
  submitted: ['in_review', 'closed'],
  in_review: ['quoted', 'closed'],
  quoted: ['in_review', 'closed'],
  accepted: [],
  closed: [],
};
/** The requester side may withdraw a request until it has been quoted. */
export const CANCELLABLE_STATUSES: readonly CustomBusinessStatus[] = ['submitted', 'in_review'];
export const OPERATOR_TARGET_STATUSES = ['in_review', 'quoted', 'closed'] as const;

/** Status names for server messages (the web app has its own copies in its locale files). */
export const CUSTOM_BUSINESS_STATUS_LABELS: Record<CustomBusinessStatus, Record<Language, string>> = {
  submitted: { 'zh-CN': '已提交', 'zh-TW': '已提交', en: 'Submitted' },
  in_review: { 'zh-CN': '评估中', 'zh-TW': '評估中', en: 'In review' },
  quoted: { 'zh-CN': '已报价', 'zh-TW': '已報價', en: 'Quoted' },
  accepted: { 'zh-CN': '已接受', 'zh-TW': '已接受', en: 'Accepted' },
  closed: { 'zh-CN': '已关闭', 'zh-TW': '已關閉', en: 'Closed' },
};

export const CUSTOM_TITLE_MAX = 100;
export const CUSTOM_REQUIREMENTS_MIN = 10;
export const CUSTOM_REQUIREMENTS_MAX = 5000;
export const CONTACT_NAME_MAX = 50;
export const EMAIL_MAX = 254;
export const NOTE_MAX = 1000;
/** ¥1,000,000,000.00: far above any real quote, well inside a safe integer. */
export const QUOTE_MAX_FEN = 100_000_000_000;

export const ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;
export const ATTACHMENT_MAX_COUNT = 5;
export const ATTACHMENT_TYPES = [
  'application/pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'image/png',
  'image/jpeg',
] as const;
export type AttachmentType = (typeof ATTACHMENT_TYPES)[number];
/** For the file picker; the server decides by content, never by name. */
export const ATTACHMENT_ACCEPT = '.pdf,.docx,.xlsx,.png,.jpg,.jpeg';
/** The original file name travels percent-encoded (encodeURIComponent) in this header. */
export const ATTACHMENT_NAME_HEADER = 'x-file-name';
export const ATTACHMENT_NAME_MAX = 200;

export const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
/** Dates look back one day so a person west of UTC can still pick their own "today". */
const DAY_MS = 86_400_000;
export function isAcceptableExpectedDate(value: string, now = Date.now()): boolean {
  const time = Date.parse(`${value}T00:00:00Z`);
  return Number.isFinite(time) && time >= now - 2 * DAY_MS && time <= now + 10 * 366 * DAY_MS;
}

/** '' and null mean "not given"; both become null. */
const optionalText = (check: (value: string) => boolean, error: 'PHONE_INVALID' | 'CUSTOM_EMAIL_INVALID') =>
  text({ error })
    .trim()
    .refine((value) => value === '' || check(value), { error })
    .nullish()
    .transform((value) => value || null);

export const customTitleField = text({ error: 'CUSTOM_TITLE_INVALID' })
  .trim()
  .min(1, { error: 'CUSTOM_TITLE_INVALID' })
  .max(CUSTOM_TITLE_MAX, { error: 'CUSTOM_TITLE_INVALID' });

export const customRequirementsField = text({ error: 'CUSTOM_REQUIREMENTS_INVALID' })
  .trim()
  .min(CUSTOM_REQUIREMENTS_MIN, { error: 'CUSTOM_REQUIREMENTS_INVALID' })
  .max(CUSTOM_REQUIREMENTS_MAX, { error: 'CUSTOM_REQUIREMENTS_INVALID' });

export const contactNameField = text({ error: 'CUSTOM_CONTACT_NAME_INVALID' })
  .trim()
  .min(1, { error: 'CUSTOM_CONTACT_NAME_INVALID' })
  .max(CONTACT_NAME_MAX, { error: 'CUSTOM_CONTACT_NAME_INVALID' });

/** Optional, but when given it follows the login form's mainland mobile rule. */
export const contactPhoneField = optionalText((value) => PHONE_PATTERN.test(value), 'PHONE_INVALID');

export const isValidEmail = (value: string) => value.length <= EMAIL_MAX && EMAIL_PATTERN.test(value);
export const contactEmailField = optionalText(isValidEmail, 'CUSTOM_EMAIL_INVALID');

export const expectedDateField = z.iso
  .date({ error: 'CUSTOM_DATE_INVALID' })
  .nullish()
  .refine((value) => !value || isAcceptableExpectedDate(value), { error: 'CUSTOM_DATE_INVALID' })
  .transform((value) => value ?? null);

const idField = text().min(1).max(64);

export const customBusinessCreateBody = z
  .object({
    title: customTitleField,
    scenario: z.enum(CUSTOM_BUSINESS_SCENARIOS),
    requirements: customRequirementsField,
    contact_name: contactNameField,
    contact_phone: contactPhoneField,
    contact_email: contactEmailField,
    budget_range: z.enum(BUDGET_RANGES),
    /** YYYY-MM-DD, optional: when the solution should be live. */
    expected_date: expectedDateField,
    /** Ids from the attachment upload, at most five. */
    attachment_ids: z.array(idField).max(ATTACHMENT_MAX_COUNT, { error: 'ATTACHMENTS_TOO_MANY' }).default([]),
  })
  .refine((body) => Boolean(body.contact_phone || body.contact_email), {
    error: 'CUSTOM_CONTACT_REQUIRED',
    path: ['contact_phone'],
  });
export type CustomBusinessCreateInput = z.input<typeof customBusinessCreateBody>;

const userRef = z.object({ id: text(), nickname: text(), avatar_url: text().nullable() });

export const attachmentSchema = z.object({
  id: text(),
  name: text(),
  size: z.number().int(),
  content_type: z.enum(ATTACHMENT_TYPES),
});
export type CustomBusinessAttachment = z.infer<typeof attachmentSchema>;

export const statusChangeSchema = z.object({
  id: z.number().int(),
  /** null for the creation of the request. */
  from_status: customBusinessStatus.nullable(),
  to_status: customBusinessStatus,
  by_operator: z.boolean(),
  /** Who acted; operators stay anonymous ("the Athena team") to people who are not operators. */
  actor: userRef.nullable(),
  note: text().nullable(),
  quote_fen: z.number().int().nullable(),
  created_at: text(),
});
export type StatusChange = z.infer<typeof statusChangeSchema>;

export const requestSummarySchema = z.object({
  id: text(),
  title: text(),
  scenario: z.enum(CUSTOM_BUSINESS_SCENARIOS),
  budget_range: z.enum(BUDGET_RANGES),
  status: customBusinessStatus,
  /** Set once quoted (and kept after acceptance). */
  quote_fen: z.number().int().nullable(),
  requester: userRef,
  attachment_count: z.number().int(),
  created_at: text(),
  updated_at: text(),
});
export type RequestSummary = z.infer<typeof requestSummarySchema>;

const spaceRef = z.object({ id: text(), name: text() });

export const operatorRequestSummarySchema = requestSummarySchema.extend({ space: spaceRef });
export type OperatorRequestSummary = z.infer<typeof operatorRequestSummarySchema>;

export const requestDetailSchema = requestSummarySchema.extend({
  requirements: text(),
  contact_name: text(),
  contact_phone: text().nullable(),
  contact_email: text().nullable(),
  expected_date: text().nullable(),
  quote_note: text().nullable(),
  attachments: z.array(attachmentSchema),
  /** Oldest first: submitted, then every change. */
  history: z.array(statusChangeSchema),
  /** What the caller may do now (requester side). */
  can_cancel: z.boolean(),
  can_accept: z.boolean(),
  /** The requesting space; only in operator answers. */
  space: spaceRef.nullable(),
});
export type RequestDetail = z.infer<typeof requestDetailSchema>;

const page = { page: z.number().int().min(1).default(1), page_size: z.number().int().min(1).max(100).default(20) };

export const customBusinessRoutes = {
  create: defineRoute({
    path: base('create'),
    body: customBusinessCreateBody,
    data: requestDetailSchema,
    auth: true,
    summary: 'Submit a custom AI solution request for the current space',
    tag,
  }),
  list: defineRoute({
    path: base('list'),
    body: z.object({ status: customBusinessStatus.optional(), ...page }),
    data: z.object({
      items: z.array(requestSummarySchema),
      total: z.number().int(),
      /** Whether the caller is a platform operator (OPERATOR_PHONES), for the operator view. */
      is_operator: z.boolean(),
    }),
    auth: true,
    summary: "The current space's requests, newest first",
    tag,
  }),
  get: defineRoute({
    path: base('get'),
    body: z.object({ id: idField }),
    data: requestDetailSchema,
    auth: true,
    summary: 'One request of the current space with its attachments and status history',
    tag,
  }),
  cancel: defineRoute({
    path: base('cancel'),
    body: z.object({ id: idField, note: text().trim().max(NOTE_MAX).optional() }),
    data: requestDetailSchema,
    auth: true,
    summary: 'Withdraw a request that is submitted or in review (requester, creator or admin)',
    tag,
  }),
  accept: defineRoute({
    path: base('accept'),
    body: z.object({ id: idField }),
    data: requestDetailSchema,
    auth: true,
    summary: 'Accept the quote of a quoted request (requester, creator or admin)',
    tag,
  }),
  operatorList: defineRoute({
    path: base('operator/list'),
    body: z.object({
      status: customBusinessStatus.optional(),
      keyword: text().trim().max(100).optional(),
      ...page,
    }),
    data: z.object({ items: z.array(operatorRequestSummarySchema), total: z.number().int() }),
    auth: true,
    summary: 'Operators only: requests of every space, newest first',
    tag,
  }),
  operatorGet: defineRoute({
    path: base('operator/get'),
    body: z.object({ id: idField }),
    data: requestDetailSchema,
    auth: true,
    summary: 'Operators only: one request of any space',
    tag,
  }),
  operatorUpdateStatus: defineRoute({
    path: base('operator/update_status'),
    body: z.object({
      id: idField,
      status: z.enum(OPERATOR_TARGET_STATUSES),
      /** Required when the status becomes quoted. */
      quote_fen: z.number().int().min(1).max(QUOTE_MAX_FEN).optional(),
      note: text().trim().max(NOTE_MAX).optional(),
    }),
    data: requestDetailSchema,
    auth: true,
    summary: 'Operators only: move a request along (in review, quoted with an amount, closed)',
    tag,
  }),
} as const;

/** POST the raw file as the body; the name goes percent-encoded in ATTACHMENT_NAME_HEADER. */
const ATTACHMENT_UPLOAD_PATH = base('attachment');
export const attachmentUpload = defineUpload({
  path: ATTACHMENT_UPLOAD_PATH,
  query: noParams,
  // Optional here: the server answers a missing or unusable name with a message that names it.
  headers: z.object({ [ATTACHMENT_NAME_HEADER]: text().optional() }),
  contentTypes: ['application/octet-stream'],
  maxBytes: ATTACHMENT_MAX_BYTES,
  tooLarge: 'ATTACHMENT_TOO_LARGE',
  data: attachmentSchema,
  auth: true,
  summary: `Upload one attachment for a request: the raw file (PDF, DOCX, XLSX, PNG or JPG, at most 10 MB) as the body, its name percent-encoded in the ${ATTACHMENT_NAME_HEADER} header`,
  tag,
});
/** POST {id} with the usual headers; answers the file itself (or the error envelope). */
export const ATTACHMENT_DOWNLOAD_PATH = base('attachment/download');
export const attachmentDownloadBody = z.object({ id: idField });
