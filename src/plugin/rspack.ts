/**
 * `tslc/rspack`: the tslc plugin for Rspack (unplugin.ts has what it does and its options).
 * Rspack is an optional peer dependency: this module loads nothing of it until the build runs.
 */
import { type TslcPluginOptions, tslcUnplugin } from './unplugin.js';

export type { TslcPluginOptions };
const tslc = tslcUnplugin.rspack;
export default tslc;
export { tslc };
