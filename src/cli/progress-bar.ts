/** How far a long command is: `done` of `total` units (rows). */
export interface Progress {
  done: number;
  total: number;
}

interface Terminal {
  isTTY?: boolean;
  write(text: string): unknown;
}

const WIDTH = 30;

/**
 * Prints a command's progress on stderr: messages as lines; a progress bar redrawn in place on a
 * terminal, and nothing at all when stderr is not one (a pipe or a file), so logs stay clean.
 */
export function progressPrinter(terminal: Terminal): (message: string, bar?: Progress) => void {
  let drawn = false;
  return (message, bar) => {
    if (!bar) {
      if (drawn) terminal.write('\n');
      drawn = false;
      terminal.write(`${message}\n`);
      return;
    }
    if (!terminal.isTTY) return;
    const share = bar.total > 0 ? Math.min(1, bar.done / bar.total) : 1;
    const filled = Math.round(share * WIDTH);
    terminal.write(`\r[${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${String(Math.floor(share * 100)).padStart(3)}% ${message}\x1b[K`);
    drawn = share < 1;
    if (!drawn) terminal.write('\n');
  };
}
