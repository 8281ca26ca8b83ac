/**
 * src/patterns — plain English ⇄ LTL for rules and specs. The pattern library and the offline
 * everyday-English translator live in runtime/shield (shields read and explain English rules at
 * run time, and runtime/ must not import src/); this folder adds the compiler-side pieces: the
 * `explain-ltl` command's logic and the optional LLM translator behind the offline one.
 */
export {
  PatternError,
  compileEnglish,
  englishToLtl,
  explainLtl,
  instantiate,
  matchPattern,
  patternCatalogue,
  type PatternInstance,
  type PatternSlots,
  type Scope,
} from '../../runtime/shield/patterns.js';
export { satisfiableLtlf } from '../../runtime/shield/dfa.js';
export { TranslationError, formatTranslation, translateEnglish, type Translation, type TranslateOptions } from './translate.js';
export {
  EnglishError,
  FORM_EXAMPLES,
  closestForm,
  translateConstraint,
  type EnglishOptions,
  type EnglishTranslation,
  type Form,
  type Grounding,
} from '../../runtime/shield/english/translate.js';
