import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The layering docs/code-style.md and docs/web.md describe, checked on the source so it stays true.

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const server = path.join(repo, 'apps/server/src');

interface Edge {
  from: string;
  to: string;
  typeOnly: boolean;
}

function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** Relative imports and re-exports of every file below `dir`, resolved to files. */
function importsOf(dir: string): Edge[] {
  const edges: Edge[] = [];
  const pattern = /^(?:import|export)\s+(type\s+)?(?:[^'"]*?\s+from\s+)?'(\.{1,2}\/[^']+)'/gm;
  for (const file of sourceFiles(dir)) {
    const text = fs.readFileSync(file, 'utf8');
    for (const match of text.matchAll(pattern)) {
      edges.push({ from: file, to: path.resolve(path.dirname(file), match[2]), typeOnly: Boolean(match[1]) });
    }
  }
  return edges;
}

function cyclesIn(edges: Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const edge of edges) next.set(edge.from, [...(next.get(edge.from) ?? []), edge.to]);
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    stack.push(file);
    for (const target of next.get(file) ?? []) {
      if (state.get(target) === 'open') cycles.push(stack.slice(stack.indexOf(target)));
      else if (!state.has(target)) visit(target);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of next.keys()) if (!state.has(file)) visit(file);
  return cycles.map((cycle) => cycle.map((file) => path.relative(repo, file)));
}

const isTest = (file: string) => /\.test\.tsx?$/.test(file) || file.includes(`${path.sep}testing${path.sep}`);
const moduleOf = (file: string) => /modules\/([^/]+)\//.exec(path.relative(server, file))?.[1];
const shown = (edges: Edge[]) =>
  edges.map((edge) => `${path.relative(repo, edge.from)} -> ${path.relative(repo, edge.to)}`);

describe('server layering', () => {
  const edges = importsOf(server);

  it('has no import cycles, type imports included', () => {
    expect(cyclesIn(edges)).toEqual([]);
  });

  it('keeps the platform free of domains: platform/ never imports a module, the app or its configuration', () => {
    const platform = path.join(server, 'platform');
    const wrong = edges.filter(
      (edge) =>
        edge.from.startsWith(platform) &&
        !isTest(edge.from) &&
        (edge.to.includes(`${path.sep}modules${path.sep}`) || /src\/(app|main|config)\.ts$/.test(edge.to)),
    );
    expect(shown(wrong)).toEqual([]);
  });

  it('reaches another module at run time only through its front door (index.ts) or its tables (*.schema.ts)', () => {
    const wrong = edges.filter((edge) => {
      const from = moduleOf(edge.from);
      const to = moduleOf(edge.to);
      if (!from || !to || from === to || edge.typeOnly || isTest(edge.from)) return false;
      return !/(\/index|\.schema)\.ts$/.test(edge.to);
    });
    expect(shown(wrong)).toEqual([]);
  });

  it("uses another module's tables only in its own tables (foreign keys), the users-and-spaces kernel, or a use still to move behind a front door", () => {
    // Each entry is a read or write of another domain's tables that should go through that
    // module's front door instead. The list only shrinks: a new entry fails here, and so does an
    // entry whose use has gone (delete it).
    const stillToMove = [
      'auth/user.repo.ts -> realname/realname.schema.ts',
      'billing/usage-records.service.ts -> agent/agent.schema.ts',
      'billing/usage-records.service.ts -> knowledge/knowledge.schema.ts',
      'billing/usage-records.service.ts -> model-key/model-key.schema.ts',
      'billing/usage-records.service.ts -> workflow/workflow.schema.ts',
      'user-profile/extraction.repo.ts -> chat-history/chat-history.schema.ts',
      'user-profile/profile-value.repo.ts -> chat-history/chat-history.schema.ts',
    ];
    const kernel = new Set(['auth', 'space']);
    const modules = path.join(server, 'modules');
    const uses = edges
      .filter((edge) => {
        const from = moduleOf(edge.from);
        const to = moduleOf(edge.to);
        if (!from || !to || from === to || kernel.has(to) || isTest(edge.from)) return false;
        return edge.to.endsWith('.schema.ts') && !edge.from.endsWith('.schema.ts');
      })
      .map((edge) => `${path.relative(modules, edge.from)} -> ${path.relative(modules, edge.to)}`);
    expect([...new Set(uses)].sort()).toEqual(stillToMove);
  });

  it('takes over a raw response only through hijack(), which keeps the security headers', () => {
    const wrong = sourceFiles(server).filter(
      (file) =>
        !isTest(file) &&
        !file.endsWith(path.join('http', 'security-headers.ts')) &&
        /\.hijack\(\)/.test(fs.readFileSync(file, 'utf8')),
    );
    expect(wrong.map((file) => path.relative(repo, file))).toEqual([]);
  });

  it("registers reactions only in a module's reactions/ folder, one file each, named for what it does and when", () => {
    const files = sourceFiles(path.join(server, 'modules')).filter((file) => !isTest(file));
    const outside = files.filter(
      (file) => !file.includes(`${path.sep}reactions${path.sep}`) && /\.react\(/.test(fs.readFileSync(file, 'utf8')),
    );
    expect(outside.map((file) => path.relative(repo, file))).toEqual([]);
    const reactions = files.filter((file) => file.includes(`${path.sep}reactions${path.sep}`));
    expect(reactions.length).toBeGreaterThan(0);
    for (const file of reactions) {
      const text = fs.readFileSync(file, 'utf8');
      const name = path.basename(file, '.ts');
      expect(name, path.relative(repo, file)).toMatch(/^[a-z-]+-when-[a-z-]+$/);
      expect(text.match(/\.react\(/g)?.length, path.relative(repo, file)).toBe(1);
      expect(text, path.relative(repo, file)).toContain(`name: '${name}'`);
    }
  });

  it('gives every module a front door', () => {
    const modules = fs.readdirSync(path.join(server, 'modules'));
    const missing = modules.filter((name) => !fs.existsSync(path.join(server, 'modules', name, 'index.ts')));
    expect(missing).toEqual([]);
  });
});

describe('contract', () => {
  it('has no import cycles', () => {
    expect(cyclesIn(importsOf(path.join(repo, 'packages/contract/src')))).toEqual([]);
  });
});

describe('web layering', () => {
  const web = path.join(repo, 'apps/web/src');
  const edges = importsOf(web);
  const under = (file: string, folder: string) => file.startsWith(path.join(web, folder) + path.sep);

  it('has no import cycles', () => {
    expect(cyclesIn(edges)).toEqual([]);
  });

  it('keeps app/ the shell: features, the shared layer and stores never import from it', () => {
    const layers = ['features', 'shared', 'lib', 'stores'];
    const wrong = edges.filter((edge) => layers.some((layer) => under(edge.from, layer)) && under(edge.to, 'app'));
    expect(shown(wrong)).toEqual([]);
  });

  it('keeps the shared layer below the features: shared/ and lib/ never import a feature', () => {
    const wrong = edges.filter(
      (edge) => (under(edge.from, 'shared') || under(edge.from, 'lib')) && under(edge.to, 'features'),
    );
    expect(shown(wrong)).toEqual([]);
  });
});
