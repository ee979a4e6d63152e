import type { ProfileChange, ProfileCustomer, ProfileExtraction, ProfileField, ProfileValue } from '@athena/contract';
import type { ExtractionOutcome } from './extraction-rules.ts';
import type { FieldRow } from './field.repo.ts';
import type { ChangeWithNames, CustomerRow, ValueWithName } from './profile-value.repo.ts';

const iso = (value: Date | string) => new Date(value).toISOString();

export function presentField(row: FieldRow): ProfileField {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    options: row.options,
    required: row.required,
    ai_extract: row.aiExtract,
    ai_overwrite: row.aiOverwrite,
    description: row.description,
    position: row.position,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}

/** A member's change shows their nickname; an AI or channel change what it is attributed to. */
const actorName = (source: string, name: string | null, label: string) =>
  source === 'person' ? (name ?? label) : label || (name ?? '');

export function presentValue(row: ValueWithName): ProfileValue {
  return {
    field_id: row.fieldId,
    value: row.value,
    source: row.source,
    updated_by_name: actorName(row.source, row.updatedByName, row.updatedByLabel),
    updated_at: iso(row.updatedAt),
  };
}

export function presentCustomer(row: CustomerRow, values: ValueWithName[]): ProfileCustomer {
  return {
    id: String(row.id),
    name: row.name,
    avatar_url: row.avatar_url,
    source_id: row.source_id,
    // Their first message, not when the row was stored (a history imported later).
    first_seen_at: iso(row.first_message_at ?? row.created_at),
    last_active_at: row.last_active_at === null ? null : iso(row.last_active_at),
    conversation_count: Number(row.conversation_count),
    message_count: Number(row.message_count),
    values: values.map(presentValue),
  };
}

export function presentChange(row: ChangeWithNames): ProfileChange {
  return {
    id: String(row.id),
    field_id: row.fieldId,
    field_name: row.fieldName,
    old_value: row.oldValue,
    new_value: row.newValue,
    source: row.source,
    actor_name: actorName(row.source, row.actorName, row.actorLabel),
    message_id: row.messageId === null ? null : String(row.messageId),
    reverted_by: row.revertedBy === null ? null : String(row.revertedBy),
    created_at: iso(row.createdAt),
  };
}

export function presentExtraction(outcome: ExtractionOutcome): ProfileExtraction {
  return {
    status: outcome.status,
    conversation_id: outcome.conversationId === null ? null : String(outcome.conversationId),
    message_id: outcome.messageId === null ? null : String(outcome.messageId),
    changed: outcome.changed,
    unchanged: outcome.unchanged,
    skipped: outcome.skipped,
    kept: outcome.kept,
    reason: outcome.reason,
  };
}
