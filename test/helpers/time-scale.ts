/**
 * The one scale of every wall-clock bound in the suite (README, "Tests"). A bound is written as what
 * a quiet machine needs with room to spare, and `scaled` multiplies it by TEST_TIME_SCALE (3 unless
 * set): a bound that fires means "this is broken", never "this machine was busy". Raise the scale
 * on a slower host; a bound is never a pace a background task must keep.
 */
export const TIME_SCALE = timeScale(process.env.TEST_TIME_SCALE);

/** `ms` on this machine: a quiet machine's bound times TEST_TIME_SCALE. */
export function scaled(ms: number): number {
  return Math.round(ms * TIME_SCALE);
}

function timeScale(value: string | undefined): number {
  if (value === undefined || value === '') return 3;
  const scale = Number(value);
  if (!Number.isFinite(scale) || scale <= 0) throw new Error(`TEST_TIME_SCALE must be a positive number, not ${value}`);
  return scale;
}
