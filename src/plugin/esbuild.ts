/**
 * `tslc/esbuild`: the tslc plugin for esbuild (unplugin.ts has what it does and its options).
 * esbuild is an optional peer dependency: this module loads nothing of it until the build runs.
 */
import { type TslcPluginOptions, tslcUnplugin } from './unplugin.js';

export type { TslcPluginOptions };
const tslc = tslcUnplugin.esbuild;
export default tslc;
export { tslc };
