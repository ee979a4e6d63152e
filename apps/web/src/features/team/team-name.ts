import { ERRORS, isErrorKey, type Language, teamNameField } from '@athena/contract';

/**
 * The contract's team-name rule (trimmed, required, at most 50 characters) with the contract's
 * localised message, so the form says exactly what the server would; null when the name is fine.
 */
export function teamNameError(value: string | undefined, language: Language): string | null {
  const result = teamNameField.safeParse(value ?? '');
  if (result.success) return null;
  const key = result.error.issues[0]?.message ?? '';
  return isErrorKey(key) ? ERRORS[key].msg[language] : ERRORS.TEAM_NAME_REQUIRED.msg[language];
}
