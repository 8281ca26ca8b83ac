/**
 * The command registry. Each entry only describes flags; the implementation module is imported
 * when the command runs. Add a command by adding one entry here and one module beside this file.
 */
import type { CommandSpec } from '../command.js';

export const commands: readonly CommandSpec[] = [];
