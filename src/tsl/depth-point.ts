/**
 * Where a spec that is "nested too deeply" is deep, for the error's location: the recursive
 * passes give up without knowing which formula they were in, and `1:1` points at nothing. The
 * first point of greatest bracket depth when brackets are what nests, else the first formula
 * character of the longest line (a long chain such as `a && a && …` is written on one line).
 */
export function depthPoint(text: string): { line: number; col: number } {
  let depth = 0;
  let maxDepth = 0;
  let maxAt = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x28 || c === 0x5b) {
      depth++;
      if (depth > maxDepth) {
        maxDepth = depth;
        maxAt = i;
      }
    } else if ((c === 0x29 || c === 0x5d) && depth > 0) depth--;
  }
  const lines = text.split(/\r\n|\n|\r/);
  if (maxDepth >= 50) {
    let offset = 0;
    for (let l = 0; l < lines.length; l++) {
      const end = offset + lines[l].length;
      if (maxAt <= end) return { line: l + 1, col: maxAt - offset + 1 };
      offset = end + (text[end] === '\r' && text[end + 1] === '\n' ? 2 : 1);
    }
  }
  let longest = 0;
  for (let l = 1; l < lines.length; l++) if (lines[l].length > lines[longest].length) longest = l;
  const indent = /^\s*/.exec(lines[longest])![0].length;
  return { line: longest + 1, col: Math.min(indent, Math.max(0, lines[longest].length - 1)) + 1 };
}
