import { SandboxFailure } from './sandbox.ts';

/** Tests: the SandboxFailure a run ends with; anything else (a result, another error) fails the test. */
export async function failure(promise: Promise<unknown>): Promise<SandboxFailure> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof SandboxFailure)) throw new Error(`expected a sandbox failure, got ${String(error)}`);
  return error;
}
