import type { ActivationEvent, ActivationSend, ActivationTemplate } from '@athena/contract';
import type { EventWithFacts, SendListRow, TemplateRow } from './activation.repo.ts';
import { variablesOf } from './activation-render.ts';

const iso = (value: Date | string) => new Date(value).toISOString();

export function presentTemplate(row: TemplateRow): ActivationTemplate {
  return {
    id: row.id,
    name: row.name,
    mode: row.mode,
    body: row.body,
    variables: row.mode === 'template' ? [...new Set(variablesOf(row.body).map((variable) => variable.name))] : [],
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}

export function presentEvent(row: EventWithFacts): ActivationEvent {
  return {
    id: row.id,
    name: row.name,
    template_id: row.templateId,
    template_name: row.templateName,
    mode: row.mode,
    body: row.body,
    status: row.status,
    send_at: iso(row.sendAt),
    counts: row.counts,
    created_by_name: row.createdByName,
    created_at: iso(row.createdAt),
    finished_at: row.finishedAt ? iso(row.finishedAt) : null,
  };
}

export function presentSend(row: SendListRow): ActivationSend {
  return {
    event_id: row.event_id,
    event_name: row.event_name,
    customer_id: String(row.customer_id),
    customer_name: row.customer_name,
    state: row.state,
    reason: row.reason,
    attempts: Number(row.attempts),
    scheduled_at: iso(row.scheduled_at),
    finished_at: row.finished_at ? iso(row.finished_at) : null,
    text: row.text,
  };
}
