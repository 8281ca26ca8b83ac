/**
 * Label algebra for HOA: evaluating, printing, alias expansion, DNF cubes, and conversion to and
 * from hash-consed `Formula` guards.
 *
 * DNF is what Mealy conversion needs: an edge label such as `(i & o1) | (!i & o2)` must become one
 * transition per cube — (i, o1) and (!i, o2) — never the cross product of an input DNF and an
 * output DNF, which would also allow (i, o2).
 */
import { and, ap, type Formula, FALSE, not, or, TRUE } from '../ltl/formula.js';
import type { HoaLabel } from './hoa.js';

export type AliasTable = ReadonlyMap<string, HoaLabel>;

export function aliasTable(aliases: readonly { readonly name: string; readonly label: HoaLabel }[]): AliasTable {
  return new Map(aliases.map((a) => [a.name, a.label]));
}

/** Replace `@alias` references by their definitions (aliases may refer to earlier aliases). */
export function expandAliases(label: HoaLabel, aliases: AliasTable): HoaLabel {
  const go = (l: HoaLabel, depth: number): HoaLabel => {
    if (depth > 1000) throw new Error('alias definitions are cyclic');
    switch (l.kind) {
      case 'alias': {
        const def = aliases.get(l.name);
        if (!def) throw new Error(`alias @${l.name} is not defined`);
        return go(def, depth + 1);
      }
      case 'not':
        return { kind: 'not', arg: go(l.arg, depth) };
      case 'and':
      case 'or':
        return { kind: l.kind, args: l.args.map((a) => go(a, depth)) };
      default:
        return l;
    }
  };
  return go(label, 0);
}

export function evalLabel(label: HoaLabel, value: (index: number) => boolean, aliases: AliasTable = new Map()): boolean {
  switch (label.kind) {
    case 't':
      return true;
    case 'f':
      return false;
    case 'ap':
      return value(label.index);
    case 'alias': {
      const def = aliases.get(label.name);
      if (!def) throw new Error(`alias @${label.name} is not defined`);
      return evalLabel(def, value, aliases);
    }
    case 'not':
      return !evalLabel(label.arg, value, aliases);
    case 'and':
      return label.args.every((a) => evalLabel(a, value, aliases));
    case 'or':
      return label.args.some((a) => evalLabel(a, value, aliases));
  }
}

/** Print with minimal parentheses (precedence ! > & > |), as HOA tools do. */
export function printLabel(label: HoaLabel): string {
  const go = (l: HoaLabel, context: 0 | 1 | 2): string => {
    switch (l.kind) {
      case 't':
      case 'f':
        return l.kind;
      case 'ap':
        return String(l.index);
      case 'alias':
        return `@${l.name}`;
      case 'not':
        return `!${go(l.arg, 2)}`;
      case 'and': {
        const s = l.args.map((a) => go(a, 2)).join('&');
        return context > 1 ? `(${s})` : s;
      }
      case 'or': {
        const s = l.args.map((a) => go(a, 1)).join(' | ');
        return context > 0 ? `(${s})` : s;
      }
    }
  };
  return go(label, 0);
}

// ---------------------------------------------------------------------------------------------
// DNF

/** A cube over AP indices: 0 = free, 1 = must be true, 2 = must be false. */
export type LitCube = Uint8Array;

export const MAX_DNF_CUBES = 200_000;

export class DnfTooLargeError extends Error {
  constructor() {
    super(`label expands to more than ${MAX_DNF_CUBES} cubes in disjunctive normal form`);
  }
}

/**
 * Disjunctive normal form of a label (aliases expanded on the way). Contradictory cubes are
 * dropped; the result is empty when the label is unsatisfiable.
 */
export function labelCubes(label: HoaLabel, apCount: number, aliases: AliasTable = new Map()): LitCube[] {
  const go = (l: HoaLabel, negated: boolean): LitCube[] => {
    switch (l.kind) {
      case 't':
      case 'f':
        return (l.kind === 't') !== negated ? [new Uint8Array(apCount)] : [];
      case 'ap': {
        const c = new Uint8Array(apCount);
        c[l.index] = negated ? 2 : 1;
        return [c];
      }
      case 'alias': {
        const def = aliases.get(l.name);
        if (!def) throw new Error(`alias @${l.name} is not defined`);
        return go(def, negated);
      }
      case 'not':
        return go(l.arg, !negated);
      case 'and':
      case 'or': {
        const conjunctive = (l.kind === 'and') !== negated;
        if (!conjunctive) {
          const out: LitCube[] = [];
          for (const a of l.args) {
            for (const c of go(a, negated)) out.push(c);
            if (out.length > MAX_DNF_CUBES) throw new DnfTooLargeError();
          }
          return out;
        }
        const direct = literalConjunction(l.args, negated, apCount);
        if (direct !== undefined) return direct;
        let acc: LitCube[] = [new Uint8Array(apCount)];
        for (const a of l.args) {
          const part = go(a, negated);
          const next: LitCube[] = [];
          for (const x of acc)
            for (const y of part) {
              const m = mergeCubes(x, y);
              if (m) next.push(m);
              if (next.length > MAX_DNF_CUBES) throw new DnfTooLargeError();
            }
          acc = next;
          if (acc.length === 0) break;
        }
        return acc;
      }
    }
  };
  return go(label, false);
}

/** Fast path for a conjunction of literals (what synthesizers print): one cube, or none. */
function literalConjunction(args: readonly HoaLabel[], negated: boolean, apCount: number): LitCube[] | undefined {
  if (negated) return undefined;
  const cube = new Uint8Array(apCount);
  for (const a of args) {
    let index: number;
    let value: 1 | 2;
    if (a.kind === 'ap') {
      index = a.index;
      value = 1;
    } else if (a.kind === 'not' && a.arg.kind === 'ap') {
      index = a.arg.index;
      value = 2;
    } else return undefined;
    if (cube[index] !== 0 && cube[index] !== value) return [];
    cube[index] = value;
  }
  return [cube];
}

function mergeCubes(x: LitCube, y: LitCube): LitCube | undefined {
  const out = new Uint8Array(x.length);
  for (let i = 0; i < x.length; i++) {
    const a = x[i];
    const b = y[i];
    if (a === 0) out[i] = b;
    else if (b === 0 || a === b) out[i] = a;
    else return undefined;
  }
  return out;
}

export function cubeToLabel(cube: LitCube): HoaLabel {
  const lits: HoaLabel[] = [];
  for (let i = 0; i < cube.length; i++) {
    if (cube[i] === 1) lits.push({ kind: 'ap', index: i });
    else if (cube[i] === 2) lits.push({ kind: 'not', arg: { kind: 'ap', index: i } });
  }
  if (lits.length === 0) return { kind: 't' };
  return lits.length === 1 ? lits[0] : { kind: 'and', args: lits };
}

// ---------------------------------------------------------------------------------------------
// Formula conversion

export function labelToFormula(label: HoaLabel, aps: readonly string[], aliases: AliasTable = new Map()): Formula {
  switch (label.kind) {
    case 't':
      return TRUE;
    case 'f':
      return FALSE;
    case 'ap':
      return ap(aps[label.index]);
    case 'alias': {
      const def = aliases.get(label.name);
      if (!def) throw new Error(`alias @${label.name} is not defined`);
      return labelToFormula(def, aps, aliases);
    }
    case 'not':
      return not(labelToFormula(label.arg, aps, aliases));
    case 'and':
      return and(...label.args.map((a) => labelToFormula(a, aps, aliases)));
    case 'or':
      return or(...label.args.map((a) => labelToFormula(a, aps, aliases)));
  }
}

/** A propositional guard as an HOA label; `apIndex` maps proposition names to AP positions. */
export function formulaToLabel(f: Formula, apIndex: ReadonlyMap<string, number>): HoaLabel {
  const go = (g: Formula): HoaLabel => {
    switch (g.kind) {
      case 'true':
        return { kind: 't' };
      case 'false':
        return { kind: 'f' };
      case 'ap': {
        const i = apIndex.get(g.name);
        if (i === undefined) throw new Error(`guard mentions '${g.name}', which is not an atomic proposition of the automaton`);
        return { kind: 'ap', index: i };
      }
      case 'not':
        return { kind: 'not', arg: go(g.arg) };
      case 'and':
      case 'or':
        return { kind: g.kind, args: g.args.map(go) };
      case 'implies':
        return { kind: 'or', args: [{ kind: 'not', arg: go(g.left) }, go(g.right)] };
      case 'iff':
      case 'xor': {
        const l = go(g.left);
        const r = go(g.right);
        const same: HoaLabel = {
          kind: 'or',
          args: [
            { kind: 'and', args: [l, r] },
            { kind: 'and', args: [{ kind: 'not', arg: l }, { kind: 'not', arg: r }] },
          ],
        };
        return g.kind === 'iff' ? same : { kind: 'not', arg: same };
      }
      default:
        throw new Error(`guard has temporal operator ${g.kind}; HOA labels are propositional`);
    }
  };
  return go(f);
}
