/**
 * `tslc/webpack`: the tslc plugin for webpack (unplugin.ts has what it does and its options).
 * webpack is an optional peer dependency: this module loads nothing of it until the build runs.
 */
import { type TslcPluginOptions, tslcUnplugin } from './unplugin.js';

export type { TslcPluginOptions };
const tslc = tslcUnplugin.webpack;
export default tslc;
export { tslc };
