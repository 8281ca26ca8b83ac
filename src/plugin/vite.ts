/**
 * `tslc/vite`: the tslc plugin for Vite (unplugin.ts has what it does and its options).
 * Vite is an optional peer dependency: this module loads nothing of it until the build runs.
 */
import { type TslcPluginOptions, tslcUnplugin } from './unplugin.js';

export type { TslcPluginOptions };
const tslc = tslcUnplugin.vite;
export default tslc;
export { tslc };
