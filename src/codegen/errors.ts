/**
 * The compile pipeline's own failure, in a module of its own so that `import … from 'tslc'` can
 * name it without loading the pipeline (the solver, ts-morph).
 */

/** A controller failed independent verification: a bug in tslc; nothing is written. */
export class CodegenVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CodegenVerificationError';
  }
}
