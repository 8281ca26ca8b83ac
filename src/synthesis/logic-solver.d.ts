/** The small part of `logic-solver` (MiniSat compiled to JS; ships no types) that we use. */
declare module 'logic-solver' {
  type Term = string;
  interface LogicFormula {
    readonly __logicFormula: true;
  }
  interface Solution {
    getTrueVars(): string[];
  }
  interface Solver {
    require(...formulas: (LogicFormula | Term)[]): void;
    solve(): Solution | null;
    solveAssuming(formula: LogicFormula | Term): Solution | null;
  }
  const Logic: {
    Solver: new () => Solver;
    or(...terms: (LogicFormula | Term)[]): LogicFormula;
    and(...terms: (LogicFormula | Term)[]): LogicFormula;
  };
  export default Logic;
}
