// SIGINT/SIGTERM during a run: tear everything down, then exit. Returns the `onSignal` hook the
// engine takes (it registers a teardown and gets back an unregister function). A second signal while
// the teardown runs does not cut it short (Node's default would exit at once and leave the SUT's
// containers and network behind): it is said, and the teardown finishes; the first signal's exit code
// is the one used.
export function exitOnSignals(
  exitCode: (signal: NodeJS.Signals) => number,
  announce: (signal: NodeJS.Signals) => void = () => {},
  again: (signal: NodeJS.Signals) => void = () => {},
): (teardown: () => Promise<void>) => () => void {
  return (teardown) => {
    let first: NodeJS.Signals | undefined;
    const handler = (signal: NodeJS.Signals) => {
      if (first !== undefined) return again(signal);
      first = signal;
      announce(signal);
      teardown().finally(() => process.exit(exitCode(first as NodeJS.Signals)));
    };
    process.on('SIGINT', handler);
    process.on('SIGTERM', handler);
    return () => {
      // once a signal came the process exits after its teardown: the handler stays to keep later ones
      if (first !== undefined) return;
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
    };
  };
}
