/**
 * "Run this once nothing has happened for `ms`": the idle unload of the local engines' worker
 * pools. `arm()` (re)starts the countdown, `disarm()` stops it; `ms <= 0` never fires. The timer
 * never keeps the process alive.
 */
export interface IdleTimer {
  /** Starts the countdown again from now. */
  arm(): void;
  /** Stops the countdown (a request arrived, or the pool closed). */
  disarm(): void;
  /** True while a countdown runs. */
  readonly armed: boolean;
}

export function createIdleTimer(ms: number, onIdle: () => void): IdleTimer {
  let timer: NodeJS.Timeout | undefined;
  const disarm = (): void => {
    if (timer) clearTimeout(timer);
    timer = undefined;
  };
  return {
    arm() {
      disarm();
      if (!(ms > 0)) return;
      timer = setTimeout(() => {
        timer = undefined;
        onIdle();
      }, ms);
      timer.unref();
    },
    disarm,
    get armed() {
      return timer !== undefined;
    },
  };
}
