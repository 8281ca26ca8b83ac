/**
 * `tslc/rollup`: the tslc plugin for Rollup (unplugin.ts has what it does and its options).
 * Rollup is an optional peer dependency: this module loads nothing of it until the build runs.
 */
import { type TslcPluginOptions, tslcUnplugin } from './unplugin.js';

export type { TslcPluginOptions };
const tslc = tslcUnplugin.rollup;
export default tslc;
export { tslc };
