import type { HumanCheck } from '#web/ui/human-check.tsx';

/**
 * The human check of the sign-in, sign-up and forgot-password pages in their tests: the real widget solves a proof
 * of work in a worker, which jsdom lacks (web/ui/human-check.test.tsx plays its events), so a button stands in for
 * it. A click hands over `payload`; the button shows the reset count the form gave it. In a test file:
 * `vi.mock('#web/ui/human-check.tsx', async () => (await import('#web/test/human-check-stand-in.tsx')).humanCheckStandIn('solved'))`.
 */
export function humanCheckStandIn(payload: string) {
  return {
    HumanCheck: ({ onChange, resetKey }: Parameters<typeof HumanCheck>[0]) => (
      <button
        type="button"
        data-testid="human-check"
        data-reset-key={resetKey}
        onClick={() => onChange(payload)}
      >
        Solve the human check
      </button>
    ),
  };
}
