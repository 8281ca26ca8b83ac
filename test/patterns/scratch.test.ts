import { englishToLtl, explainLtl, patternCatalogue } from '../../runtime/shield/patterns.js';
import { printLtl } from '../../runtime/ltl/print.js';
for (const s of ['call:refund only after result:verified', 'never call:delete', 'call:pay happens at most 2 times', 'every call:pay is followed by call:confirm within 3 steps', 'kitchen before bathroom', 'call:x never happens twice in a row', 'call:a never happens between login and logout', 'every p is followed by s and then t']) {
  const r = englishToLtl(s); console.log(s, '=>', r && printLtl(r.ltl), '=>', r && explainLtl(r.ltl));
}
console.log(explainLtl('G(a -> X b) & F c'));
console.log(patternCatalogue().length);
import {test} from 'vitest'; test('x',()=>{});
