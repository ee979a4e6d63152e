import { ACTIVATION_BUILTIN_VARIABLES } from '@athena/contract';

/**
 * The variables of an activation template (docs/user-profiles.md, Activation events): `{{name}}`
 * is the customer's value of the scene's field of that name (whatever its case) or the built-in
 * `customer_name`; `{{name|fallback}}` puts the fallback in when the customer has no value.
 * Without a fallback, a customer without the value is skipped (their send fails with
 * `variable_empty`), since a message with a hole in it reads worse than none.
 */
const VARIABLE = /\{\{([^{}|]*)(?:\|([^{}]*))?\}\}/g;

export interface TemplateVariable {
  /** As written, trimmed. */
  name: string;
  fallback: string | null;
}

export function variablesOf(body: string): TemplateVariable[] {
  return [...body.matchAll(VARIABLE)].map((match) => ({
    name: (match[1] ?? '').trim(),
    fallback: match[2] === undefined ? null : match[2].trim(),
  }));
}

const key = (name: string) => name.trim().toLowerCase();
const isBuiltin = (name: string) => (ACTIVATION_BUILTIN_VARIABLES as readonly string[]).includes(key(name));

/** The variables that name neither a built-in nor one of `fieldNames`, each once. */
export function unknownVariables(body: string, fieldNames: string[]): string[] {
  const known = new Set(fieldNames.map(key));
  const unknown = variablesOf(body)
    .map((variable) => variable.name)
    .filter((name) => !isBuiltin(name) && !known.has(key(name)));
  return [...new Set(unknown)];
}

/** What a customer fills the variables with: their name and their values by field name. */
export interface CustomerFacts {
  name: string;
  values: Map<string, string>;
}

export function factsOf(name: string, values: { fieldName: string; value: string }[]): CustomerFacts {
  return { name, values: new Map(values.map((value) => [key(value.fieldName), value.value])) };
}

function customerValue(facts: CustomerFacts, name: string) {
  const value = isBuiltin(name) ? facts.name : (facts.values.get(key(name)) ?? '');
  return value.trim();
}

/** The text for one customer, or the variables that are empty and have no fallback. */
export function render(body: string, facts: CustomerFacts): { text: string } | { empty: string[] } {
  const empty = new Set<string>();
  const text = body.replace(VARIABLE, (_whole, rawName: string, fallback: string | undefined) => {
    const name = rawName.trim();
    const value = customerValue(facts, name);
    if (value) return value;
    if (fallback !== undefined) return fallback.trim();
    empty.add(name);
    return '';
  });
  return empty.size > 0 ? { empty: [...empty] } : { text: text.trim() };
}
