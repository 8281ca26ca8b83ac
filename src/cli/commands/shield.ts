/**
 * `tslc shield mcp --rules RULES [options] -- <server command> [args…]`: an MCP server on stdio
 * (or Streamable HTTP with `--http PORT`) that proxies the given MCP server and checks every
 * `tools/call` against temporal rules first. Reads and checks every input file before the server
 * is started, so a typo in the rules is a diagnostic (exit 2), not a half-started proxy.
 */
import { UserError, error } from '../../diagnostics/diagnostic.js';
import { parseShieldLabels } from '../../shield/labels-file.js';
import { shieldRulesFromFiles } from '../../shield/rules-file.js';
import { satisfiableLtlf } from '../../../runtime/shield/dfa.js';
import { Shield } from '../../../runtime/shield/shield.js';
import { readUserFile, refuseStdin } from '../io.js';

function usage(message: string): never {
  throw new UserError(error(`${message} (see \`tslc shield --help\`)`, undefined, 'usage'));
}

function positiveNumber(value: unknown, flag: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) usage(`--${flag} must be a positive number of ${flag === 'timeout' ? 'seconds' : 'megabytes'}, not '${String(value)}'`);
  return n;
}

export async function run(args: Record<string, unknown>): Promise<number> {
  if (args.target !== 'mcp') usage(`unknown shield target '${String(args.target)}'; the target is mcp`);
  const command = (Array.isArray(args['--']) ? args['--'] : []).map(String);
  let server: { command: string; args: string[] } | { url: URL; headers: Record<string, string> };
  if (typeof args.url === 'string') {
    if (command.length > 0) usage('give either --url or a server command after `--`, not both');
    let url: URL;
    try {
      url = new URL(args.url);
    } catch {
      usage(`--url must be an http(s) URL, not '${args.url}'`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') usage(`--url must be an http(s) URL, not '${args.url}'`);
    const headers: Record<string, string> = Object.create(null) as Record<string, string>;
    for (const h of (Array.isArray(args.header) ? args.header : args.header === undefined ? [] : [args.header]).map(String)) {
      const m = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):\s*(.*)$/.exec(h);
      if (!m) usage(`--header must be 'Name: value', not '${h}'`);
      headers[m[1]] = m[2];
    }
    server = { url, headers };
  } else {
    if (args.header !== undefined) usage('--header needs --url');
    if (command.length === 0) usage('name the MCP server to shield after `--`, e.g. `tslc shield mcp --rules rules.ltl -- node server.js` (or give --url)');
    server = { command: command[0], args: command.slice(1) };
  }
  const rulePaths = (Array.isArray(args.rules) ? args.rules : [args.rules]).filter((p) => p !== undefined).map(String);
  if (rulePaths.length === 0) usage('--rules RULES is required');
  for (const p of [...rulePaths, ...(typeof args.labels === 'string' ? [args.labels] : [])])
    refuseStdin(p, 'the shield serves its MCP session on standard input; give the rules and labels as files');
  const rules = shieldRulesFromFiles(rulePaths.map((path) => ({ path, text: readUserFile(path) })));
  const labelsPath = typeof args.labels === 'string' ? args.labels : undefined;
  const labels = labelsPath ? parseShieldLabels(readUserFile(labelsPath), labelsPath) : undefined;
  const say = (message: string): void => void process.stderr.write(message + '\n');

  // Rules that no session can satisfy deny every call; say so now rather than per call.
  const formulas = new Shield(rules).rules.map((r) => r.formula);
  if (!satisfiableLtlf(formulas.length === 1 ? formulas[0] : { op: '&', args: formulas })) {
    say('tslc shield: warning: no session can satisfy all of these rules together, so every call will be denied');
  }

  let http: { host: string; port: number; sessionHeader?: string } | undefined;
  if (args.http !== undefined) {
    const port = Number(args.http);
    if (!Number.isInteger(port) || port < 0 || port > 65535) usage(`--http must be a port number (0-65535), not '${String(args.http)}'`);
    http = { host: typeof args.host === 'string' ? args.host : '127.0.0.1', port, ...(typeof args['session-header'] === 'string' ? { sessionHeader: args['session-header'] } : {}) };
  } else if (args['session-header'] !== undefined) usage('--session-header needs --http');

  // The proxy is loaded only once every input is known to be good.
  const { runMcpShield } = await import('../../shield/mcp-proxy.js');
  return runMcpShield({
    rules,
    rulesName: rulePaths.join(', '),
    ...(labels ? { labels } : {}),
    ...(typeof args.log === 'string' ? { logPath: args.log } : {}),
    ...(typeof args.state === 'string' ? { statePath: args.state } : {}),
    hideDenied: Boolean(args['hide-denied']),
    timeoutMs: positiveNumber(args.timeout ?? 60, 'timeout') * 1000,
    maxMessageBytes: Math.floor(positiveNumber(args['max-message-mb'] ?? 64, 'max-message-mb') * 1024 * 1024),
    server,
    ...(http ? { http } : {}),
    say,
  });
}
