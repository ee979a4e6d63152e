const twoDigits = (n: number) => String(n).padStart(2, '0');

/**
 * A wait as a clock reads it: 14:05 for 845 s, and hours in front past an hour (23:59:59 for a
 * day's cap, which minutes alone would show as 1439:59).
 */
export function waitTime(seconds: number): string {
  const whole = Math.max(0, Math.ceil(seconds));
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const rest = twoDigits(whole % 60);
  return hours > 0 ? `${hours}:${twoDigits(minutes)}:${rest}` : `${minutes}:${rest}`;
}
