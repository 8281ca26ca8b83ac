/** The CLI's exit codes are the library's (src/diagnostics/exit-codes.ts): one contract. */
export { ExitCode, type ExitCodeValue } from '../diagnostics/exit-codes.js';
